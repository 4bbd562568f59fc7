/**
 * Partly sent order lines (issue 16), one rule for the store's local adapter, the admin's and the
 * shopper's order pages.
 *
 * Decision: a line is never split into rows. Shopify's line items keep their GIDs as the items' ids
 * and Shopify fulfils line *quantities* through fulfilment orders, so splitting a row would break
 * the link to the store's line. Instead each fulfilment leaves a record of how many units of the
 * line it sent (order_item_fulfillments, with its parcel's tracking); the line's sent quantity is
 * their sum. The item's status stays one per line and follows its first parcel: once any unit has
 * left, the line is fulfilled/shipped/… (so it can no longer be cancelled and its sent units can be
 * returned), and `quantity - sent` says what is still to send.
 */

type Status = "unfulfilled" | "fulfilled" | "shipped" | "delivered" | "cancelled" | "returned";
export type QuantityItem = { status: Status; quantity: number; fulfillments?: readonly { quantity: number }[] };

const LEFT: readonly Status[] = ["fulfilled", "shipped", "delivered", "returned"];

/**
 * Units of the line sent so far. A line sent before the app kept fulfilment records (the demo data,
 * the store's webhooks) has none: its status then says whether the whole line left or none of it.
 */
export function sentQuantity(item: QuantityItem): number {
  const recorded = (item.fulfillments ?? []).reduce((n, f) => n + f.quantity, 0);
  if (recorded > 0) return Math.min(item.quantity, recorded);
  return LEFT.includes(item.status) ? item.quantity : 0;
}

/** Units still to send (none for a cancelled or returned line). */
export function unsentQuantity(item: QuantityItem): number {
  if (item.status === "cancelled" || item.status === "returned") return 0;
  return Math.max(0, item.quantity - sentQuantity(item));
}

/** Some units of the line have left and some have not. */
export const partlySent = (item: QuantityItem) => unsentQuantity(item) > 0 && sentQuantity(item) > 0;
