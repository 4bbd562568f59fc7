/**
 * The review states of a proposed image edit and the only moves between them:
 *
 *   pending ──approve (POST /proposed-image-edits/{id}/approve)──▶ approved
 *   pending ──reject  (PATCH {status: "rejected"})───────────────▶ rejected
 *
 * Approved and rejected are final (an approved edit is on the product; a rejected one is kept as a
 * record: propose the edit again instead). Every other move is refused with 409 and says why.
 * Pure, so the table is unit-tested (tests/unit/proposed-image-edit-status.test.ts).
 */
export const EDIT_STATUSES = ["pending", "approved", "rejected"] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];

/** How a move is asked for: the approve endpoint, or PATCH with a status. */
export type EditMove = { via: "approve" } | { via: "patch"; to: EditStatus };

/** The allowed moves: from → via → to. */
export const EDIT_TRANSITIONS: Readonly<Record<EditStatus, Readonly<{ approve?: EditStatus; patch?: readonly EditStatus[] }>>> = {
  pending: { approve: "approved", patch: ["rejected"] },
  approved: {},
  rejected: {},
};

export type TransitionResult = { ok: true; to: EditStatus } | { ok: false; message: string };

const APPROVE_PATH = "POST /proposed-image-edits/{id}/approve";

/** The state a move leads to, or why it is refused (answered 409). */
export function transition(from: EditStatus, move: EditMove): TransitionResult {
  const allowed = EDIT_TRANSITIONS[from];
  if (move.via === "approve") {
    if (allowed.approve) return { ok: true, to: allowed.approve };
    return { ok: false, message: from === "approved" ? "This edit is already approved" : `A ${from} edit cannot be approved: only a pending edit can` };
  }
  if (allowed.patch?.includes(move.to)) return { ok: true, to: move.to };
  if (move.to === "approved" && from === "pending") return { ok: false, message: `Approve with ${APPROVE_PATH}: approving writes the image to the product` };
  if (move.to === from) return { ok: false, message: `This edit is already ${from}` };
  if (from === "approved") return { ok: false, message: "This edit is approved: its image is on the product. Propose another edit instead" };
  if (from === "rejected") return { ok: false, message: "This edit is rejected; a rejected edit cannot be reopened or approved. Propose it again instead" };
  return { ok: false, message: `A ${from} edit cannot become ${move.to}` };
}

/** Whether fields other than the status (prompt, proposed image) may still change. */
export const isEditable = (status: EditStatus) => status === "pending";
