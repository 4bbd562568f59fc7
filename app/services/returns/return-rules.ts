/**
 * The rules of the two return machines (the tables are contract constants in
 * app/contract/admin-returns.ts), as pure functions: which moves an admin may make now, and the
 * reason a refused one is refused (answered with 409).
 */
import { RETURN_MOVES_NOT_BY_STATUS_CALL, RETURN_TRANSITIONS } from "~/contract/admin-returns";
import type { ReturnRequestStatusValue, ReturnStatusValue } from "../account-orders-rules";

export const RETURN_RULE_MESSAGES = {
  REQUEST_NOT_APPROVED: "The return request has not been approved yet: approve it before moving its return",
  REQUEST_DECLINED: "The return request was declined",
  REQUEST_CANCELED: "The shopper cancelled this return request",
  RECEIVED: "The parcel has already been received, so the return can no longer be cancelled",
  REFUNDED: "This return has already been refunded",
  CANCELED: "This return was cancelled",
  LABEL_NEEDS_TRACKING: "A label URL or a tracking number is required to send a return label",
  CONFIRM_TOO_EARLY: "The parcel is not on its way back yet: a return can be confirmed once it is in transit or delivered",
  CONFIRMED_ALREADY: "This return was already confirmed with other items",
  REFUND_NOT_CONFIRMED: "Confirm what came back before refunding this return",
  NOTHING_RECEIVED: "Nothing of this return was received, so there is nothing to refund",
} as const;

const STATUS_LABEL: Record<ReturnStatusValue, string> = {
  REQUESTED: "requested",
  LABEL_SENT: "label sent",
  IN_TRANSIT: "in transit",
  DELIVERED: "delivered",
  REFUNDED: "refunded",
  CANCELED: "cancelled",
};

/** Why a return in `from` (with its request's status, if it has a request) cannot be moved to `to` by the status call; null when it can. */
export function returnMoveRefusal(from: ReturnStatusValue, to: ReturnStatusValue, requestStatus: ReturnRequestStatusValue | null): string | null {
  if (from === to) return null;
  if (from === "REFUNDED") return RETURN_RULE_MESSAGES.REFUNDED;
  if (from === "CANCELED") return RETURN_RULE_MESSAGES.CANCELED;
  const notByCall = RETURN_MOVES_NOT_BY_STATUS_CALL[to];
  if (notByCall) return notByCall;
  if (requestStatus === "REQUESTED") return RETURN_RULE_MESSAGES.REQUEST_NOT_APPROVED;
  if (requestStatus === "DECLINED") return RETURN_RULE_MESSAGES.REQUEST_DECLINED;
  if (requestStatus === "CANCELED") return RETURN_RULE_MESSAGES.REQUEST_CANCELED;
  if (RETURN_TRANSITIONS[from].includes(to)) return null;
  if (to === "CANCELED") return RETURN_RULE_MESSAGES.RECEIVED;
  return `A return that is ${STATUS_LABEL[from]} cannot be moved to ${STATUS_LABEL[to]}`;
}

/** The statuses the status call accepts now (REFUNDED never). */
export function allowedReturnStatuses(from: ReturnStatusValue, requestStatus: ReturnRequestStatusValue | null): ReturnStatusValue[] {
  return RETURN_TRANSITIONS[from].filter((to) => returnMoveRefusal(from, to, requestStatus) === null);
}

/** A request's moves an admin can make (the shopper's CANCELED and the automatic CLOSED are not theirs). */
export function allowedRequestMoves(status: ReturnRequestStatusValue): ReturnRequestStatusValue[] {
  return status === "REQUESTED" ? ["OPEN", "DECLINED"] : [];
}
