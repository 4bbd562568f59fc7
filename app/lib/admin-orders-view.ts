/**
 * What the admin order screens (app/routes/app.orders.tsx, app.orders_.$id.tsx) share: the status
 * tabs as saved views over the API's filters, badge tones and labels for Shopify's statuses.
 */
import type { OrderItemStatusValue } from "~/contract/admin-orders";

export const ORDER_TABS = [
  { id: "all", label: "All" },
  { id: "unfulfilled", label: "Unfulfilled" },
  { id: "shipped", label: "Shipped" },
  { id: "delivered", label: "Delivered" },
  { id: "cancelled", label: "Cancelled" },
] as const;
export type OrderTab = (typeof ORDER_TABS)[number]["id"];

/**
 * A tab as GET /orders/admin filters: an open order with an item still to send, with an item on its
 * way, with an item delivered; cancelled orders. An order with items in several states shows in each.
 */
export function tabFilters(tab: OrderTab): { status?: "open" | "cancelled"; itemStatus?: OrderItemStatusValue } {
  switch (tab) {
    case "unfulfilled":
      return { status: "open", itemStatus: "unfulfilled" };
    case "shipped":
      return { status: "open", itemStatus: "shipped" };
    case "delivered":
      return { itemStatus: "delivered" };
    case "cancelled":
      return { status: "cancelled" };
    default:
      return {};
  }
}

type Tone = "success" | "attention" | "warning" | "critical" | "info" | undefined;

/** "PARTIALLY_REFUNDED" / "partially_fulfilled" → "Partially refunded" / "Partially fulfilled". */
export const humanStatus = (s: string) => {
  const words = s.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function financialTone(s: string): Tone {
  if (s === "PAID") return "success";
  if (s === "PENDING" || s === "AUTHORIZED" || s === "PARTIALLY_PAID") return "attention";
  if (s === "REFUNDED" || s === "PARTIALLY_REFUNDED" || s === "VOIDED") return "info";
  return "warning";
}

/** A stage (order) or an item status. */
export function fulfillmentTone(s: string): Tone {
  if (s === "delivered") return "success";
  if (s === "shipped" || s === "fulfilled") return "info";
  if (s === "unfulfilled" || s === "partially_fulfilled") return "attention";
  if (s === "cancelled") return "critical";
  return undefined;
}

export const money = (m: { amount: string; currencyCode: string } | null) => (m ? `${m.currencyCode === "USD" ? "$" : `${m.currencyCode} `}${m.amount}` : "—");
