/**
 * Bulk actions of the admin orders list (issue 16): mark the items of up to MAX_BULK_ORDERS orders
 * as fulfilled / shipped / delivered / returned, and the packing list of the same selection
 * (/app/orders/packing-list, an admin page resource; its query is PackingListQuerySchema).
 *
 * Bulk item status: for each order, every item that may move to the status now
 * (ITEM_STATUS_TRANSITIONS in ./admin-orders) moves, through the same service as
 * PATCH /orders/admin/{id}/items/status (→ fulfilled goes through the store). Items already there
 * stay unchanged; items that may not move are listed with the reason. Orders are handled one after
 * another and answered one by one: an order that is refused (unknown, the store said no, changed
 * meanwhile) does not stop the others. A retry moves nothing twice (items already there are no move).
 * Cancelling is not offered in bulk: Shopify cancels whole orders (POST /orders/admin/{id}/cancel).
 */
import { z } from "zod";
import { RecordId as Id } from "./common";
import { access, endpoint } from "./endpoint";
import { OrderItemStatusSchema } from "./account-orders";

/** At most this many orders per bulk action and per packing list. */
export const MAX_BULK_ORDERS = 50;
/** The statuses a bulk action may mark items as (cancelling is per order: its cancel call). */
export const BULK_ITEM_STATUSES = ["fulfilled", "shipped", "delivered", "returned"] as const;
export type BulkItemStatus = (typeof BULK_ITEM_STATUSES)[number];


export const BulkOrderIdsSchema = z
  .array(Id)
  .min(1, "Choose at least one order")
  .max(MAX_BULK_ORDERS, `At most ${MAX_BULK_ORDERS} orders per bulk action: choose fewer orders`);

const ItemRef = { id: z.string(), title: z.string(), variant_title: z.string().nullable() };

export const BulkItemsStatusResultSchema = z.object({
  status: z.enum(BULK_ITEM_STATUSES),
  /** How many orders had items moved, had nothing to move (already there), were refused. */
  moved: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
  results: z.array(
    z.object({
      /** The order's id as the store knows it (gid), or the id given when no such order exists. */
      order_id: z.string(),
      /** "#1001"; null for an unknown order. */
      name: z.string().nullable(),
      /** moved: some items moved; unchanged: none needed to (or none could, besides those already there); refused: nothing moved. */
      outcome: z.enum(["moved", "unchanged", "refused"]),
      /** The items this call moved, with the status each had. */
      moved: z.array(z.object({ ...ItemRef, from: OrderItemStatusSchema })),
      /** Items at the status already (a retry, another admin): unchanged. */
      already: z.array(z.object(ItemRef)),
      /** Items that may not move to the status, each with the reason. */
      refused: z.array(z.object({ ...ItemRef, status: OrderItemStatusSchema, reason: z.string() })),
      /** Why nothing moved when the order itself was refused: the single call's error kind (not_found, conflict, unprocessable, unavailable, failed) and message. */
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
});
export type BulkItemsStatusResult = z.output<typeof BulkItemsStatusResultSchema>;

export const PACKING_LIST_FORMATS = ["html", "pdf"] as const;

/**
 * The packing list's query: `ids` comma-separated (and/or repeated), at most MAX_BULK_ORDERS,
 * `format` html (print-ready page) or pdf (download).
 */
export const PackingListQuerySchema = z.object({
  ids: z
    .array(Id)
    .min(1, "Choose at least one order: ids=<id,id,…>")
    .max(MAX_BULK_ORDERS, `At most ${MAX_BULK_ORDERS} orders per packing list: choose fewer orders`),
  format: z.enum(PACKING_LIST_FORMATS, { error: "format must be html or pdf" }).default("html"),
});

export const adminOrdersBulkEndpoints = {
  ordersAdminBulkItemsStatus: endpoint({
    method: "POST",
    path: "/orders/admin/bulk/items-status",
    summary: `Mark the items of up to ${MAX_BULK_ORDERS} orders as fulfilled, shipped, delivered or returned: in each order every item allowed to move (ITEM_STATUS_TRANSITIONS) moves, the others are listed with the reason; answered per order, one refused order does not stop the others`,
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    body: z
      .object({
        orderIds: BulkOrderIdsSchema,
        status: z.enum(BULK_ITEM_STATUSES, { error: `status must be one of: ${BULK_ITEM_STATUSES.join(", ")}` }),
      })
      .strict(),
    response: BulkItemsStatusResultSchema,
  }),
};
