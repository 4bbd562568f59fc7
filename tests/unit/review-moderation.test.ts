/** The review moderation state machine (app/lib/review-moderation.ts): every allowed and refused transition. */
import { describe, expect, it } from "vitest";
import {
  MODERATION_ACTIONS,
  REVIEW_STATUSES,
  TRANSITIONS,
  allowedActions,
  isPublicStatus,
  normaliseStatus,
  transition,
  type ModerationAction,
  type ReviewStatusValue,
} from "../../app/lib/review-moderation";

/** The whole expected table: the next status, or "refused". */
const EXPECTED: Record<ReviewStatusValue, Record<ModerationAction, string>> = {
  pending: { publish: "approved", reject: "rejected", delete: "deleted" },
  approved: { publish: "refused", reject: "refused", delete: "deleted" },
  published: { publish: "refused", reject: "refused", delete: "deleted" },
  rejected: { publish: "refused", reject: "refused", delete: "deleted" },
};

describe("review moderation transitions", () => {
  const pairs = REVIEW_STATUSES.flatMap((s) => MODERATION_ACTIONS.map((a) => [s, a] as const));

  it("covers every status and action", () => {
    expect(pairs).toHaveLength(12);
    expect(Object.keys(TRANSITIONS).sort()).toEqual(["approved", "pending", "rejected"]);
  });

  it.each(pairs)("%s --%s-->", (status, action) => {
    const t = transition(status, action);
    const expected = EXPECTED[status][action];
    if (expected === "refused") {
      expect(t.ok).toBe(false);
      if (!t.ok) expect(t.message.length).toBeGreaterThan(10);
    } else {
      expect(t).toEqual({ ok: true, to: expected });
    }
  });

  it("refuses with messages that say why", () => {
    expect(transition("approved", "publish")).toEqual({ ok: false, message: "This review is already published" });
    expect(transition("approved", "reject")).toEqual({ ok: false, message: "A published review cannot be rejected: delete it to take it down" });
    expect(transition("rejected", "publish")).toEqual({ ok: false, message: "A rejected review cannot be published: only pending reviews can be published" });
    expect(transition("rejected", "reject")).toEqual({ ok: false, message: "This review is already rejected" });
    // The older `published` value behaves as approved.
    expect(transition("published", "publish")).toEqual(transition("approved", "publish"));
    expect(transition("published", "reject")).toEqual(transition("approved", "reject"));
  });

  it("lists the actions a moderator may take per status", () => {
    expect(allowedActions("pending")).toEqual(["publish", "reject", "delete"]);
    expect(allowedActions("approved")).toEqual(["delete"]);
    expect(allowedActions("published")).toEqual(["delete"]);
    expect(allowedActions("rejected")).toEqual(["delete"]);
  });

  it("treats approved and published as public, and folds published into approved", () => {
    expect(REVIEW_STATUSES.filter(isPublicStatus)).toEqual(["approved", "published"]);
    expect(normaliseStatus("published")).toBe("approved");
    expect(normaliseStatus("pending")).toBe("pending");
    expect(normaliseStatus("rejected")).toBe("rejected");
  });

  it("only ever moves to a status of the table or deletes", () => {
    for (const s of Object.values(TRANSITIONS)) {
      for (const t of Object.values(s)) if (t.ok) expect(["approved", "rejected", "deleted"]).toContain(t.to);
    }
  });
});
