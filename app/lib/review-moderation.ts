/**
 * Review moderation as a state machine (SPEC §4: "pending to approved by publish, or rejected by
 * reject, or deleted"). Pure: the service asks this table before every status change, the admin
 * screen asks it which buttons to show, and tests/unit/review-moderation.test.ts walks every pair.
 *
 *   pending  --publish-->  approved
 *   pending  --reject--->  rejected
 *   any      --delete--->  (gone)
 *
 * Every other transition is refused (409 with the message below). Decisions the spec leaves open:
 * - A rejected review stays rejected: publishing it is refused (the author can write a new one;
 *   an admin who changed their mind deletes it and creates the review from the admin page).
 * - An approved review is not rejected: taking it down is a delete, which also updates the rating
 *   summaries. Rejecting is for reviews that were never public.
 * - Publishing an approved review, or rejecting a rejected one, is refused as "already …", so a
 *   double click shows a clear message instead of silently doing nothing.
 * - The enum's `published` value (kept for data written by earlier systems) means the same as
 *   `approved`: public, counted in the summaries.
 */

export const REVIEW_STATUSES = ["pending", "approved", "published", "rejected"] as const;
export type ReviewStatusValue = (typeof REVIEW_STATUSES)[number];

/** The statuses moderation works with (`published` folds into `approved`). */
export const MODERATION_STATUSES = ["pending", "approved", "rejected"] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];

export const MODERATION_ACTIONS = ["publish", "reject", "delete"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** Statuses shown to shoppers and counted in the rating summaries. */
export const PUBLIC_REVIEW_STATUSES: readonly ReviewStatusValue[] = ["approved", "published"];

export const normaliseStatus = (s: ReviewStatusValue): ModerationStatus => (s === "published" ? "approved" : s);
export const isPublicStatus = (s: ReviewStatusValue): boolean => PUBLIC_REVIEW_STATUSES.includes(s);

export type Transition = { ok: true; to: ModerationStatus | "deleted" } | { ok: false; message: string };

/** The whole table: for each status and action, the next status or why it is refused. */
export const TRANSITIONS: Record<ModerationStatus, Record<ModerationAction, Transition>> = {
  pending: {
    publish: { ok: true, to: "approved" },
    reject: { ok: true, to: "rejected" },
    delete: { ok: true, to: "deleted" },
  },
  approved: {
    publish: { ok: false, message: "This review is already published" },
    reject: { ok: false, message: "A published review cannot be rejected: delete it to take it down" },
    delete: { ok: true, to: "deleted" },
  },
  rejected: {
    publish: { ok: false, message: "A rejected review cannot be published: only pending reviews can be published" },
    reject: { ok: false, message: "This review is already rejected" },
    delete: { ok: true, to: "deleted" },
  },
};

/** What `action` does to a review in `status`. */
export function transition(status: ReviewStatusValue, action: ModerationAction): Transition {
  return TRANSITIONS[normaliseStatus(status)][action];
}

/** The actions a moderator may take on a review in `status` (for the admin screen's buttons). */
export function allowedActions(status: ReviewStatusValue): ModerationAction[] {
  return MODERATION_ACTIONS.filter((a) => transition(status, a).ok);
}
