/**
 * The rules of the shopper's orders and returns, as pure functions (unit-tested in
 * tests/unit/account-orders-rules.test.ts):
 * - which stage an order is at, from its items;
 * - whether an order can still be cancelled (open, nothing sent, no return under way);
 * - whether an item can be returned (sent, not returned, not in a live return);
 * - the timeline of a return request and its return (SPEC §3 statuses).
 */
import { partlySent } from "../lib/order-quantities";

export type OrderStatusValue = "open" | "cancelled" | "closed";
export type ItemStatusValue = "unfulfilled" | "fulfilled" | "shipped" | "delivered" | "cancelled" | "returned";
export type ReturnStatusValue = "REQUESTED" | "LABEL_SENT" | "IN_TRANSIT" | "DELIVERED" | "REFUNDED" | "CANCELED";
export type ReturnRequestStatusValue = "REQUESTED" | "OPEN" | "CLOSED" | "DECLINED" | "CANCELED";
export type OrderStage = "unfulfilled" | "partially_fulfilled" | "fulfilled" | "shipped" | "delivered" | "returned" | "cancelled";

/** Items in these statuses have left the warehouse: they can be returned, and the order can no longer be cancelled. */
export const SENT_ITEM_STATUSES: readonly ItemStatusValue[] = ["fulfilled", "shipped", "delivered"];
/** Return requests in these statuses hold their items: no second request for them. */
export const LIVE_REQUEST_STATUSES: readonly ReturnRequestStatusValue[] = ["REQUESTED", "OPEN", "CLOSED"];

export const ORDER_RULE_MESSAGES = {
  ALREADY_CANCELLED: "This order has already been cancelled",
  CLOSED: "This order is closed and can no longer be cancelled",
  // No promise about returns here: whether one can be requested is `can_return`, which the order page shows as its action.
  SENT: "Items of this order have already been sent, so it can no longer be cancelled.",
  RETURN_UNDER_WAY: "A return is under way for this order, so it can no longer be cancelled",
  BEING_CANCELLED: "This order is being cancelled",
  NOTHING_TO_CANCEL: "This order has nothing left to cancel",
  ORDER_CANCELLED: "This order was cancelled",
  ITEM_RETURNED: "This item has already been returned",
  ITEM_IN_RETURN: "A return has already been requested for this item",
  ITEM_NOT_SENT: "This item has not been sent yet",
  ITEM_CANCELLED: "This item was cancelled",
} as const;

export type Eligibility = { allowed: true; reason: null } | { allowed: false; reason: string };
const yes: Eligibility = { allowed: true, reason: null };
const no = (reason: string): Eligibility => ({ allowed: false, reason });

/**
 * The order's stage: cancelled, else from its live (not cancelled) items. A line with units still to
 * send (its quantity and fulfilment records given: ~/lib/order-quantities) makes the order partly
 * fulfilled whatever its sent units' status.
 */
export function orderStage(order: { status: OrderStatusValue; items: { status: ItemStatusValue; quantity?: number; fulfillments?: readonly { quantity: number }[] }[] }): OrderStage {
  if (order.status === "cancelled") return "cancelled";
  const live = order.items.filter((i) => i.status !== "cancelled").map((i) => i.status);
  if (live.length === 0) return order.items.length ? "cancelled" : "unfulfilled";
  if (live.every((s) => s === "returned")) return "returned";
  if (order.items.some((i) => i.quantity !== undefined && partlySent({ ...i, quantity: i.quantity }))) return "partially_fulfilled";
  if (live.every((s) => s === "delivered" || s === "returned")) return "delivered";
  if (live.every((s) => s === "unfulfilled")) return "unfulfilled";
  if (live.some((s) => s === "unfulfilled")) return "partially_fulfilled";
  if (live.some((s) => s === "shipped" || s === "delivered")) return "shipped";
  return "fulfilled";
}

/**
 * An order can be cancelled by its shopper while it is open, none of its items has been sent (all
 * live items unfulfilled), no return is under way and no cancellation is already with the store
 * (`cancelling`: see cancelClaimActive).
 */
export function cancelEligibility(order: { status: OrderStatusValue; items: { status: ItemStatusValue }[]; liveReturnRequests?: number; cancelling?: boolean }): Eligibility {
  if (order.status === "cancelled") return no(ORDER_RULE_MESSAGES.ALREADY_CANCELLED);
  if (order.status === "closed") return no(ORDER_RULE_MESSAGES.CLOSED);
  if (order.cancelling) return no(ORDER_RULE_MESSAGES.BEING_CANCELLED);
  if ((order.liveReturnRequests ?? 0) > 0) return no(ORDER_RULE_MESSAGES.RETURN_UNDER_WAY);
  const live = order.items.filter((i) => i.status !== "cancelled");
  if (live.length === 0) return no(ORDER_RULE_MESSAGES.NOTHING_TO_CANCEL);
  if (live.some((i) => i.status !== "unfulfilled")) return no(ORDER_RULE_MESSAGES.SENT);
  return yes;
}

/**
 * An item can be returned when its order is not cancelled nor being cancelled, it has been sent
 * (fulfilled, shipped or delivered), it has not been returned, and no live return holds it
 * (`heldItemIds`: items of return requests that are requested, open or closed, and of returns
 * that are not cancelled).
 */
export function returnEligibility(order: { status: OrderStatusValue; cancelling?: boolean }, item: { id: string; status: ItemStatusValue }, heldItemIds: ReadonlySet<string>): Eligibility {
  if (order.status === "cancelled") return no(ORDER_RULE_MESSAGES.ORDER_CANCELLED);
  if (order.cancelling) return no(ORDER_RULE_MESSAGES.BEING_CANCELLED);
  if (item.status === "returned") return no(ORDER_RULE_MESSAGES.ITEM_RETURNED);
  if (heldItemIds.has(item.id)) return no(ORDER_RULE_MESSAGES.ITEM_IN_RETURN);
  if (item.status === "cancelled") return no(ORDER_RULE_MESSAGES.ITEM_CANCELLED);
  if (!SENT_ITEM_STATUSES.includes(item.status)) return no(ORDER_RULE_MESSAGES.ITEM_NOT_SENT);
  return yes;
}

/**
 * How long a cancellation's claim on an order holds. It outlasts the store's slowest answer (the
 * Shopify adapter's retries with backoff), so a claim expires only when its process died before
 * releasing it: the order is then neither blocked for returns nor for another cancel forever.
 */
export const CANCEL_CLAIM_TTL_MS = 5 * 60_000;

/** Whether a cancellation claimed at `requestedAt` is still with the store at `now`. */
export function cancelClaimActive(requestedAt: Date | null | undefined, now: Date = new Date()): boolean {
  return !!requestedAt && now.getTime() - requestedAt.getTime() < CANCEL_CLAIM_TTL_MS;
}

/** Items held by live return requests and returns (see returnEligibility). */
export function heldItemIds(
  requests: { status: ReturnRequestStatusValue; order_item_ids: string[] }[],
  returns: { status: ReturnStatusValue; line_items: { order_item_id: string }[] }[],
): Set<string> {
  const held = new Set<string>();
  for (const r of requests) if (LIVE_REQUEST_STATUSES.includes(r.status)) r.order_item_ids.forEach((id) => held.add(id));
  for (const r of returns) if (r.status !== "CANCELED") r.line_items.forEach((li) => held.add(li.order_item_id));
  return held;
}

// ---------------------------------------------------------------------------------------------
// The return timeline

export type TimelineState = "done" | "current" | "upcoming" | "stopped";
export interface TimelineStep {
  key: string;
  label: string;
  state: TimelineState;
  at: Date | null;
}

export interface TimelineRequest {
  status: ReturnRequestStatusValue;
  created_at: Date;
  updated_at: Date;
}
export interface TimelineReturn {
  status: ReturnStatusValue;
  created_at: Date;
  updated_at: Date;
  received_at: Date | null;
  refunded_at: Date | null;
}

const STEPS = [
  { key: "requested", label: "Return requested" },
  { key: "approved", label: "Return approved" },
  { key: "label_sent", label: "Return label sent" },
  { key: "in_transit", label: "On its way back" },
  { key: "received", label: "Received by the store" },
  { key: "refunded", label: "Refunded" },
] as const;
const CLOSED_STEP = { key: "closed", label: "Return closed" } as const;

/** How far the return got: an index into STEPS (6 = closed). */
const RETURN_RANK: Record<ReturnStatusValue, number> = { REQUESTED: 0, LABEL_SENT: 2, IN_TRANSIT: 3, DELIVERED: 4, REFUNDED: 5, CANCELED: -1 };
const REQUEST_RANK: Record<ReturnRequestStatusValue, number> = { REQUESTED: 0, OPEN: 1, CLOSED: 6, DECLINED: -1, CANCELED: -1 };

/**
 * The timeline of a return request and its return, as steps: requested → approved (request OPEN) →
 * label sent → on its way back → received → refunded (the return's statuses), and "closed" when the
 * request was closed without a refund. Steps before the furthest status reached are done, that
 * status is current, later ones upcoming. A declined or cancelled request, or a cancelled return,
 * ends the timeline with a stopped step. Dates are the ones the rows know (created, received,
 * refunded; the last change for the current step).
 */
export function buildReturnTimeline(input: { request: TimelineRequest | null; ret: TimelineReturn | null }): TimelineStep[] {
  const { request, ret } = input;
  const created = request?.created_at ?? ret?.created_at ?? null;
  const requestRank = request ? REQUEST_RANK[request.status] : 0;
  const returnRank = ret ? RETURN_RANK[ret.status] : 0;
  const stoppedBy: { key: string; label: string; at: Date } | null =
    request?.status === "DECLINED"
      ? { key: "declined", label: "Return declined", at: request.updated_at }
      : request?.status === "CANCELED"
        ? { key: "cancelled", label: "Return cancelled", at: request.updated_at }
        : ret?.status === "CANCELED"
          ? { key: "cancelled", label: "Return cancelled", at: ret.updated_at }
          : null;

  // The furthest point reached (for a stopped return: what it reached before it stopped).
  let reached = Math.max(0, requestRank, returnRank);
  const refunded = ret?.status === "REFUNDED" || !!ret?.refunded_at;
  if (refunded) reached = Math.max(reached, 5);
  const closed = request?.status === "CLOSED";
  const steps: { key: string; label: string }[] = closed && !refunded ? [...STEPS.slice(0, 5), CLOSED_STEP] : [...STEPS];
  if (closed) reached = steps.length - 1;
  if (stoppedBy) reached = Math.max(0, Math.min(4, Math.max(returnRank, requestRank)));

  const dateOf = (key: string, isCurrent: boolean): Date | null => {
    switch (key) {
      case "requested":
        return created;
      case "received":
        return ret?.received_at ?? (isCurrent ? (ret?.updated_at ?? null) : null);
      case "refunded":
        return ret?.refunded_at ?? (isCurrent ? (ret?.updated_at ?? null) : null);
      case "approved":
        return isCurrent ? (request?.updated_at ?? null) : null;
      case "closed":
        return request?.updated_at ?? null;
      default:
        return isCurrent ? (ret?.updated_at ?? null) : null;
    }
  };

  if (stoppedBy) {
    const done = steps.slice(0, reached + 1).map((s) => ({ ...s, state: "done" as const, at: dateOf(s.key, false) }));
    return [...done, { key: stoppedBy.key, label: stoppedBy.label, state: "stopped", at: stoppedBy.at }];
  }
  return steps.map((s, i) => {
    const state: TimelineState = i < reached ? "done" : i === reached ? "current" : "upcoming";
    return { key: s.key, label: s.label, state, at: state === "upcoming" ? null : dateOf(s.key, state === "current") };
  });
}
