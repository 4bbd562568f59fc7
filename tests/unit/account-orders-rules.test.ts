import { describe, expect, it } from "vitest";
import {
  ORDER_RULE_MESSAGES as M,
  CANCEL_CLAIM_TTL_MS,
  buildReturnTimeline,
  cancelClaimActive,
  cancelEligibility,
  heldItemIds,
  orderStage,
  returnEligibility,
  type ItemStatusValue,
  type TimelineStep,
} from "../../app/services/account-orders-rules";

const items = (...s: ItemStatusValue[]) => s.map((status, i) => ({ id: `li-${i}`, status }));
const d = (day: number) => new Date(Date.UTC(2026, 9, day, 12));
const show = (steps: TimelineStep[]) => steps.map((s) => `${s.key}:${s.state}`);

describe("orderStage", () => {
  it.each([
    ["open", ["unfulfilled", "unfulfilled"], "unfulfilled"],
    ["open", ["unfulfilled", "fulfilled"], "partially_fulfilled"],
    ["open", ["fulfilled", "fulfilled"], "fulfilled"],
    ["open", ["fulfilled", "shipped"], "shipped"],
    ["closed", ["delivered", "shipped"], "shipped"],
    ["closed", ["delivered", "delivered"], "delivered"],
    ["closed", ["delivered", "returned"], "delivered"],
    ["closed", ["returned", "returned"], "returned"],
    ["open", ["cancelled", "unfulfilled"], "unfulfilled"],
    ["open", ["cancelled"], "cancelled"],
    ["cancelled", ["unfulfilled"], "cancelled"],
  ] as const)("%s order with %j items is %s", (status, s, stage) => {
    expect(orderStage({ status, items: items(...s) })).toBe(stage);
  });
});

describe("cancelEligibility", () => {
  it("allows an open order none of whose items was sent", () => {
    expect(cancelEligibility({ status: "open", items: items("unfulfilled", "unfulfilled") })).toEqual({ allowed: true, reason: null });
    expect(cancelEligibility({ status: "open", items: items("cancelled", "unfulfilled") }).allowed).toBe(true);
  });
  it("refuses cancelled and closed orders, sent items, a return under way, and nothing left to cancel", () => {
    expect(cancelEligibility({ status: "cancelled", items: items("cancelled") })).toEqual({ allowed: false, reason: M.ALREADY_CANCELLED });
    expect(cancelEligibility({ status: "closed", items: items("delivered") }).reason).toBe(M.CLOSED);
    for (const sent of ["fulfilled", "shipped", "delivered", "returned"] as const) {
      expect(cancelEligibility({ status: "open", items: items("unfulfilled", sent) }).reason).toBe(M.SENT);
    }
    expect(cancelEligibility({ status: "open", items: items("unfulfilled"), liveReturnRequests: 1 }).reason).toBe(M.RETURN_UNDER_WAY);
    expect(cancelEligibility({ status: "open", items: items("cancelled") }).reason).toBe(M.NOTHING_TO_CANCEL);
    expect(cancelEligibility({ status: "open", items: [] }).reason).toBe(M.NOTHING_TO_CANCEL);
  });
});

describe("a cancellation with the store (cancel claim)", () => {
  it("refuses another cancel and any return request while the claim holds", () => {
    expect(cancelEligibility({ status: "open", items: items("unfulfilled"), cancelling: true }).reason).toBe(M.BEING_CANCELLED);
    expect(returnEligibility({ status: "open", cancelling: true }, { id: "a", status: "delivered" }, new Set()).reason).toBe(M.BEING_CANCELLED);
    expect(returnEligibility({ status: "open", cancelling: false }, { id: "a", status: "delivered" }, new Set()).allowed).toBe(true);
  });
  it("holds for CANCEL_CLAIM_TTL_MS after it was taken, then expires (its process died)", () => {
    const now = new Date(Date.UTC(2026, 10, 25, 12));
    expect(cancelClaimActive(null, now)).toBe(false);
    expect(cancelClaimActive(new Date(now.getTime() - 1000), now)).toBe(true);
    expect(cancelClaimActive(new Date(now.getTime() - CANCEL_CLAIM_TTL_MS + 1), now)).toBe(true);
    expect(cancelClaimActive(new Date(now.getTime() - CANCEL_CLAIM_TTL_MS), now)).toBe(false);
  });
});

describe("returnEligibility and heldItemIds", () => {
  const none = new Set<string>();
  it("allows sent items (fulfilled, shipped, delivered) of an order that is not cancelled", () => {
    for (const s of ["fulfilled", "shipped", "delivered"] as const) {
      expect(returnEligibility({ status: "closed" }, { id: "a", status: s }, none)).toEqual({ allowed: true, reason: null });
    }
  });
  it("refuses unsent, cancelled and returned items, items of a cancelled order, and items a live return holds", () => {
    expect(returnEligibility({ status: "open" }, { id: "a", status: "unfulfilled" }, none).reason).toBe(M.ITEM_NOT_SENT);
    expect(returnEligibility({ status: "open" }, { id: "a", status: "cancelled" }, none).reason).toBe(M.ITEM_CANCELLED);
    expect(returnEligibility({ status: "closed" }, { id: "a", status: "returned" }, none).reason).toBe(M.ITEM_RETURNED);
    expect(returnEligibility({ status: "cancelled" }, { id: "a", status: "delivered" }, none).reason).toBe(M.ORDER_CANCELLED);
    expect(returnEligibility({ status: "closed" }, { id: "a", status: "delivered" }, new Set(["a"])).reason).toBe(M.ITEM_IN_RETURN);
  });
  it("holds items of requested, open and closed requests and of returns that are not cancelled; declined and cancelled ones free them", () => {
    const held = heldItemIds(
      [
        { status: "REQUESTED", order_item_ids: ["a"] },
        { status: "OPEN", order_item_ids: ["b"] },
        { status: "CLOSED", order_item_ids: ["c"] },
        { status: "DECLINED", order_item_ids: ["d"] },
        { status: "CANCELED", order_item_ids: ["e"] },
      ],
      [
        { status: "IN_TRANSIT", line_items: [{ order_item_id: "f" }] },
        { status: "CANCELED", line_items: [{ order_item_id: "g" }] },
      ],
    );
    expect([...held].sort()).toEqual(["a", "b", "c", "f"]);
  });
});

describe("buildReturnTimeline", () => {
  const request = (status: "REQUESTED" | "OPEN" | "CLOSED" | "DECLINED" | "CANCELED", updated = d(3)) => ({ status, created_at: d(1), updated_at: updated });
  const ret = (status: "REQUESTED" | "LABEL_SENT" | "IN_TRANSIT" | "DELIVERED" | "REFUNDED" | "CANCELED", extra: { received_at?: Date; refunded_at?: Date } = {}) => ({
    status,
    created_at: d(1),
    updated_at: d(5),
    received_at: extra.received_at ?? null,
    refunded_at: extra.refunded_at ?? null,
  });

  it("a new request: requested is current (with its date), the rest upcoming without dates", () => {
    const t = buildReturnTimeline({ request: request("REQUESTED", d(1)), ret: ret("REQUESTED") });
    expect(show(t)).toEqual(["requested:current", "approved:upcoming", "label_sent:upcoming", "in_transit:upcoming", "received:upcoming", "refunded:upcoming"]);
    expect(t[0].at).toEqual(d(1));
    expect(t.slice(1).every((s) => s.at === null)).toBe(true);
  });

  it("an approved request: approved is current, dated by the request's last change", () => {
    const t = buildReturnTimeline({ request: request("OPEN", d(2)), ret: ret("REQUESTED") });
    expect(show(t).slice(0, 3)).toEqual(["requested:done", "approved:current", "label_sent:upcoming"]);
    expect(t[1].at).toEqual(d(2));
  });

  it("follows the return's statuses: label sent, on its way back, received", () => {
    expect(show(buildReturnTimeline({ request: request("OPEN"), ret: ret("LABEL_SENT") })).slice(1, 4)).toEqual(["approved:done", "label_sent:current", "in_transit:upcoming"]);
    const transit = buildReturnTimeline({ request: request("OPEN"), ret: ret("IN_TRANSIT") });
    expect(show(transit).slice(2, 5)).toEqual(["label_sent:done", "in_transit:current", "received:upcoming"]);
    expect(transit[3].at).toEqual(d(5));
    const received = buildReturnTimeline({ request: request("OPEN"), ret: ret("DELIVERED", { received_at: d(4) }) });
    expect(show(received).slice(4)).toEqual(["received:current", "refunded:upcoming"]);
    expect(received[4].at).toEqual(d(4));
  });

  it("a refunded and closed return ends at refunded, dated by the refund", () => {
    const t = buildReturnTimeline({ request: request("CLOSED", d(9)), ret: ret("REFUNDED", { received_at: d(6), refunded_at: d(8) }) });
    expect(show(t)).toEqual(["requested:done", "approved:done", "label_sent:done", "in_transit:done", "received:done", "refunded:current"]);
    expect(t[4].at).toEqual(d(6));
    expect(t[5].at).toEqual(d(8));
  });

  it("a request closed without a refund ends with 'closed'", () => {
    const t = buildReturnTimeline({ request: request("CLOSED", d(9)), ret: ret("DELIVERED", { received_at: d(6) }) });
    expect(show(t)).toEqual(["requested:done", "approved:done", "label_sent:done", "in_transit:done", "received:done", "closed:current"]);
    expect(t[5].at).toEqual(d(9));
  });

  it("a declined or cancelled request, or a cancelled return, stops the timeline", () => {
    const declined = buildReturnTimeline({ request: request("DECLINED", d(2)), ret: null });
    expect(show(declined)).toEqual(["requested:done", "declined:stopped"]);
    expect(declined[1].at).toEqual(d(2));
    expect(show(buildReturnTimeline({ request: request("CANCELED"), ret: ret("REQUESTED") }))).toEqual(["requested:done", "cancelled:stopped"]);
    const afterLabel = buildReturnTimeline({ request: request("OPEN"), ret: { ...ret("CANCELED"), updated_at: d(7) } });
    expect(show(afterLabel)).toEqual(["requested:done", "approved:done", "cancelled:stopped"]);
    expect(afterLabel[2].at).toEqual(d(7));
  });

  it("a return without a request starts at its own creation", () => {
    const t = buildReturnTimeline({ request: null, ret: ret("IN_TRANSIT") });
    expect(t[0]).toMatchObject({ key: "requested", state: "done", at: d(1) });
    expect(show(t)[3]).toBe("in_transit:current");
  });
});
