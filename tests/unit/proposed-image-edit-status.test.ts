/** The review states of proposed image edits: the whole transition table, allowed and refused moves. */
import { describe, expect, it } from "vitest";
import { EDIT_STATUSES, EDIT_TRANSITIONS, isEditable, transition, type EditMove, type EditStatus } from "../../app/lib/proposed-image-edit-status";

const moves: EditMove[] = [{ via: "approve" }, ...EDIT_STATUSES.map((to) => ({ via: "patch" as const, to }))];
const label = (m: EditMove) => (m.via === "approve" ? "approve" : `patch→${m.to}`);

describe("proposed image edit transitions", () => {
  it("allows exactly pending→approved (approve) and pending→rejected (PATCH rejected)", () => {
    const allowed: string[] = [];
    for (const from of EDIT_STATUSES) {
      for (const m of moves) {
        const r = transition(from, m);
        if (r.ok) allowed.push(`${from} ${label(m)} = ${r.to}`);
      }
    }
    expect(allowed).toEqual(["pending approve = approved", "pending patch→rejected = rejected"]);
    expect(EDIT_TRANSITIONS.approved).toEqual({});
    expect(EDIT_TRANSITIONS.rejected).toEqual({});
  });

  const refused: [EditStatus, EditMove, RegExp][] = [
    ["approved", { via: "approve" }, /already approved/],
    ["rejected", { via: "approve" }, /only a pending edit/],
    ["pending", { via: "patch", to: "approved" }, /POST \/proposed-image-edits\/\{id\}\/approve/],
    ["pending", { via: "patch", to: "pending" }, /already pending/],
    ["rejected", { via: "patch", to: "pending" }, /cannot be reopened/],
    ["rejected", { via: "patch", to: "approved" }, /cannot be reopened or approved/],
    ["rejected", { via: "patch", to: "rejected" }, /already rejected/],
    ["approved", { via: "patch", to: "rejected" }, /is approved: its image is on the product/],
    ["approved", { via: "patch", to: "pending" }, /is approved/],
    ["approved", { via: "patch", to: "approved" }, /already approved/],
  ];
  for (const [from, m, message] of refused) {
    it(`refuses ${from} ${label(m)} with a reason`, () => {
      const r = transition(from, m);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    });
  }

  it("only a pending edit can have its prompt or image changed", () => {
    expect(EDIT_STATUSES.filter(isEditable)).toEqual(["pending"]);
  });
});
