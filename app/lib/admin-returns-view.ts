/**
 * What the admin returns screens (app/routes/app.returns.tsx, app.returns_.$id.tsx) share: the
 * status tabs (one per return status, plus the requests still waiting for the store's decision),
 * badge tones and labels. Pure: read by loaders and pages alike.
 */
import type { RETURN_REQUEST_STATUSES, RETURN_STATUSES } from "~/contract/account-orders";

type ReturnStatusValue = (typeof RETURN_STATUSES)[number];
type RequestStatusValue = (typeof RETURN_REQUEST_STATUSES)[number];

/**
 * The list's tabs: "all" and one per return status (counted by GET /returns/admin's `counts`),
 * and "requests": return requests the store has not decided on yet (GET /returns/admin/requests),
 * next to "all" since it is what needs someone's attention.
 */
export const RETURN_TABS = [
  { id: "all", label: "All" },
  { id: "requests", label: "Requests to review" },
  { id: "REQUESTED", label: "Requested" },
  { id: "LABEL_SENT", label: "Label sent" },
  { id: "IN_TRANSIT", label: "In transit" },
  { id: "DELIVERED", label: "Delivered" },
  { id: "REFUNDED", label: "Refunded" },
  { id: "CANCELED", label: "Canceled" },
] as const;
export type ReturnTab = (typeof RETURN_TABS)[number]["id"];

export const returnTabOf = (v: string | null): ReturnTab => RETURN_TABS.find((t) => t.id === v)?.id ?? "all";

export const RETURN_STATUS_LABEL: Record<ReturnStatusValue, string> = {
  REQUESTED: "Requested",
  LABEL_SENT: "Label sent",
  IN_TRANSIT: "In transit",
  DELIVERED: "Delivered",
  REFUNDED: "Refunded",
  CANCELED: "Canceled",
};

export const REQUEST_STATUS_LABEL: Record<RequestStatusValue, string> = {
  REQUESTED: "Awaiting review",
  OPEN: "Approved",
  CLOSED: "Closed",
  DECLINED: "Declined",
  CANCELED: "Withdrawn by the customer",
};

type Tone = "success" | "attention" | "warning" | "critical" | "info" | undefined;

/** Waiting on the store is attention; on its way is info; done is success; stopped is neutral. */
export function returnTone(s: ReturnStatusValue): Tone {
  if (s === "REQUESTED" || s === "DELIVERED") return "attention";
  if (s === "LABEL_SENT" || s === "IN_TRANSIT") return "info";
  if (s === "REFUNDED") return "success";
  return undefined;
}

export function requestTone(s: RequestStatusValue): Tone {
  if (s === "REQUESTED") return "attention";
  if (s === "OPEN") return "info";
  if (s === "DECLINED") return "critical";
  return undefined;
}
