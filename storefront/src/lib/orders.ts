/**
 * Pure helpers of the orders, returns and notifications screens: addresses, labels, dates.
 */
import { gidTail } from "~/lib/gid";
import type { OrderDetail, OrderSummary, ReturnEntry, NotificationRequest } from "~/contract";
import { dateTimeFormat } from "./intl-format";

export const ORDERS_PATH = "/account/orders";
export const RETURNS_PATH = "/account/returns";
export const NOTIFICATIONS_PATH = "/account/notifications";

/** TanStack Query keys (user data: dropped on sign-in and sign-out). */
export const ORDERS_KEY = ["user", "orders"] as const;
export const orderKey = (id: string) => ["user", "order", id] as const;
export const RETURNS_KEY = ["user", "returns"] as const;
export const NOTIFICATIONS_KEY = ["user", "notification-requests"] as const;
export const backInStockKey = (productId: string) => ["user", "notification-requests", "back_in_stock", productId] as const;

/** `/account/orders/5400004` for `gid://shopify/Order/5400004` (the API takes the bare number). */
export function orderPath(id: string): string {
  const short = /^gid:\/\/shopify\/Order\/\d+$/.test(id) ? gidTail(id) : id;
  return `${ORDERS_PATH}/${encodeURIComponent(short)}`;
}

export const STAGE_LABELS: Record<OrderSummary["stage"], string> = {
  unfulfilled: "Being prepared",
  partially_fulfilled: "Partly sent",
  fulfilled: "Sent",
  shipped: "On its way",
  delivered: "Delivered",
  returned: "Returned",
  cancelled: "Cancelled",
};

export const ITEM_STATUS_LABELS: Record<OrderDetail["items"][number]["status"], string> = {
  unfulfilled: "Being prepared",
  fulfilled: "Sent",
  shipped: "On its way",
  delivered: "Delivered",
  cancelled: "Cancelled",
  returned: "Returned",
};

export const REQUEST_STATUS_LABELS: Record<NonNullable<ReturnEntry["status"]>, string> = {
  REQUESTED: "Requested",
  OPEN: "Approved",
  CLOSED: "Closed",
  DECLINED: "Declined",
  CANCELED: "Cancelled",
};

export const RETURN_STATUS_LABELS: Record<NonNullable<ReturnEntry["return_status"]>, string> = {
  REQUESTED: "Requested",
  LABEL_SENT: "Label sent",
  IN_TRANSIT: "On its way back",
  DELIVERED: "Received",
  REFUNDED: "Refunded",
  CANCELED: "Cancelled",
};

/** The badge tone of a stage or status: good news, waiting, stopped. */
export function tone(value: string): "positive" | "neutral" | "negative" {
  if (["delivered", "returned", "REFUNDED", "CLOSED", "sent", "OPEN", "DELIVERED"].includes(value)) return "positive";
  if (["cancelled", "CANCELED", "DECLINED", "unsubscribed"].includes(value)) return "negative";
  return "neutral";
}

/** The status a return entry shows: the return's when the store has one in motion, else the request's. */
export function returnStatusLabel(e: Pick<ReturnEntry, "status" | "return_status">): string {
  if (e.status === "DECLINED" || e.status === "CANCELED") return REQUEST_STATUS_LABELS[e.status];
  if (e.return_status && e.return_status !== "REQUESTED") return RETURN_STATUS_LABELS[e.return_status];
  if (e.status) return REQUEST_STATUS_LABELS[e.status];
  return e.return_status ? RETURN_STATUS_LABELS[e.return_status] : "Requested";
}

export const NOTIFICATION_KIND_LABELS: Record<NotificationRequest["kind"], string> = {
  back_in_stock: "Back in stock",
  search: "Saved search",
  drop: "Drop",
};

export const NOTIFICATION_STATUS_LABELS: Record<NotificationRequest["status"], string> = {
  active: "Waiting",
  sent: "Sent",
  unsubscribed: "Unsubscribed",
};

export function formatDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return dateTimeFormat(locale ?? "en-GB", { day: "numeric", month: "short", year: "numeric" }).format(d);
}

/** Whether a back-in-stock request covers this variant (a product-wide request covers them all). */
export function coversVariant(r: Pick<NotificationRequest, "kind" | "status" | "variant">, variantId: string | null): boolean {
  if (r.kind !== "back_in_stock" || r.status !== "active") return false;
  return r.variant === null || (variantId !== null && r.variant.id === variantId);
}
