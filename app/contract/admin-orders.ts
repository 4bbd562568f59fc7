/**
 * The merchant's side of orders (issue 16; SPEC §3 Order, §4 Order, §7 "Orders and returns"). The
 * same rows as the shopper's orders (app/contract/account-orders.ts): what an admin does here shows
 * on the shopper's GET /users/orders/{id} at once. Every write records an OrderEvent (the order's
 * timeline) with the acting admin. Permission: `orders.manage` (ADMIN role).
 *
 * Item statuses move only along ITEM_STATUS_TRANSITIONS (anything else: 409 naming the item and the
 * move). A move to the status an item already has is no move: it changes nothing, records nothing and
 * answers 200 — so a retried or doubled submit never moves an item twice (the order row is locked
 * while the items are checked and moved). Many items move all together or not at all.
 * - → fulfilled goes through the store (commerce.fulfillOrderLines, no tracking, no notification);
 *   shipped / delivered / returned are the app's own delivery statuses (Shopify has none; its
 *   webhooks never move an item back); → cancelled is local only (Shopify cancels whole orders:
 *   use the cancel call), answered 409 on Shopify.
 *
 * Fulfilment (POST …/fulfillments): the chosen items' units (each at most its fulfillable_quantity,
 * else 422) are fulfilled through the store; with a tracking number they are `shipped` (the parcel has
 * a carrier), else `fulfilled`. Part of a line is recorded as a quantity of that line (never a split
 * row: ~/lib/order-quantities); the rest can be fulfilled later, in another parcel. With
 * notifyCustomer the shopper gets a "your order is on its way" email (outbox locally; Shopify also
 * sends its own shipping confirmation).
 *
 * Cancel: refused (409) once any item is fulfilled, shipped, delivered or returned, or while a return
 * request is live; an order already cancelled answers 200 unchanged. Restock and refund go to the
 * store (locally: inventory back on the variants, financial status REFUNDED).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Money, RecordId as Id, RecordIdParams as IdParams } from "./common";
import {
  OrderItemStatusSchema,
  OrderStageSchema,
  OrderStatusSchema,
  ReturnReasonSchema,
  ReturnRequestStatusSchema,
  ReturnStatusSchema,
  ReturnEntrySchema,
  ORDER_ITEM_STATUSES,
} from "./account-orders";

export type OrderItemStatusValue = (typeof ORDER_ITEM_STATUSES)[number];

/** The item-status machine: every move allowed from each status (anything else: 409). */
export const ITEM_STATUS_TRANSITIONS: Record<OrderItemStatusValue, readonly OrderItemStatusValue[]> = {
  unfulfilled: ["fulfilled", "cancelled"],
  fulfilled: ["shipped", "delivered"],
  // A parcel sent back by the carrier (refused, undeliverable) comes back without a delivery.
  shipped: ["delivered", "returned"],
  delivered: ["returned"],
  cancelled: [],
  returned: [],
};

export const ADMIN_ORDERS_PAGE_SIZE = 25;
export const ADMIN_ORDER_SORTS = ["created_at_desc", "created_at_asc", "total_desc", "total_asc", "name_desc", "name_asc"] as const;
/** Shopify's OrderDisplayFinancialStatus / OrderDisplayFulfillmentStatus values (what orders store). */
export const FINANCIAL_STATUSES = ["AUTHORIZED", "EXPIRED", "PAID", "PARTIALLY_PAID", "PARTIALLY_REFUNDED", "PENDING", "REFUNDED", "VOIDED"] as const;
export const FULFILLMENT_STATUSES = ["FULFILLED", "IN_PROGRESS", "ON_HOLD", "OPEN", "PARTIALLY_FULFILLED", "PENDING_FULFILLMENT", "REQUEST_DECLINED", "RESTOCKED", "SCHEDULED", "UNFULFILLED"] as const;
/** Why an admin cancels (Shopify's OrderCancelReason). */
export const ADMIN_CANCEL_REASONS = ["CUSTOMER", "DECLINED", "FRAUD", "INVENTORY", "OTHER", "STAFF"] as const;

const ItemIds = z.array(Id).min(1, "Choose at least one item").max(100, "at most 100 items");
const Text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const DateParam = z.coerce.date({ error: "must be a date (ISO 8601)" }).refine((d) => !Number.isNaN(d.getTime()) && d.getFullYear() >= 1970 && d.getFullYear() <= 9999, "must be a date (ISO 8601)");

export const AdminOrderSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  order_number: z.number().int().nullable(),
  status: OrderStatusSchema,
  stage: OrderStageSchema,
  financial_status: z.string().nullable(),
  fulfillment_status: z.string().nullable(),
  created_at: IsoDate,
  cancelled_at: IsoDate.nullable(),
  total: Money,
  customer: z.object({ user_id: z.string().nullable(), email: z.string().nullable(), name: z.string().nullable() }),
  item_count: z.number().int(),
  tags: z.array(z.string()),
});

export const AdminOrderItemSchema = z.object({
  id: z.string(),
  product_id: z.string().nullable(),
  variant_id: z.string().nullable(),
  vendor_id: z.string().nullable(),
  title: z.string(),
  variant_title: z.string().nullable(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  /** Units sent so far (the sum of the line's fulfilments; a line is never split into rows). */
  fulfilled_quantity: z.number().int(),
  /** Units still to send: what a fulfilment of this item may take (0 once all sent, cancelled or returned). */
  fulfillable_quantity: z.number().int(),
  price: Money,
  /** One status per line, following its first parcel: a partly sent line is fulfilled/shipped with fulfillable_quantity > 0. */
  status: OrderItemStatusSchema,
  /** The statuses this item may move to now (ITEM_STATUS_TRANSITIONS). */
  next_statuses: z.array(OrderItemStatusSchema),
  tracking: z.object({ tracking_number: z.string(), tracking_url: z.string().nullable(), provider: z.string().nullable() }).nullable(),
  fulfillment_id: z.string().nullable(),
  image_url: z.string().nullable(),
});

export const AdminFulfillmentSchema = z.object({
  /** The store's fulfilment id; null for items sent before the app recorded it (grouped by tracking). */
  id: z.string().nullable(),
  tracking_company: z.string().nullable(),
  tracking_number: z.string().nullable(),
  tracking_url: z.string().nullable(),
  item_ids: z.array(z.string()),
  /** How many units of each item this fulfilment sent. */
  lines: z.array(z.object({ item_id: z.string(), quantity: z.number().int() })),
});

export const OrderEventSchema = z.object({
  id: z.string(),
  kind: z.string(),
  message: z.string(),
  actor: z.object({ user_id: z.string().nullable(), label: z.string() }),
  data: z.unknown(),
  created_at: IsoDate,
});

export const AdminAddressSchema = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  company: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  country_code: z.string().nullable(),
  phone: z.string().nullable(),
});

export const AdminOrderDetailSchema = AdminOrderSummarySchema.extend({
  subtotal: Money.nullable(),
  shipping: Money.nullable(),
  tax: Money.nullable(),
  cancel_reason: z.string().nullable(),
  closed_at: IsoDate.nullable(),
  note: z.string().nullable(),
  shipping_address: AdminAddressSchema.nullable(),
  items: z.array(AdminOrderItemSchema),
  fulfillments: z.array(AdminFulfillmentSchema),
  returns: z.array(
    z.object({
      id: z.string(),
      status: ReturnStatusSchema,
      reason: ReturnReasonSchema,
      tracking_number: z.string().nullable(),
      refund: Money.nullable(),
      item_ids: z.array(z.string()),
      /** How many units of each item the return takes back. */
      lines: z.array(z.object({ item_id: z.string(), quantity: z.number().int() })),
      created_at: IsoDate,
    }),
  ),
  return_requests: z.array(z.object({ id: z.string(), status: ReturnRequestStatusSchema, reason: ReturnReasonSchema, note: z.string().nullable(), item_ids: z.array(z.string()), return_id: z.string().nullable(), created_at: IsoDate })),
  /** Whether the order can be cancelled now, and why not. */
  can_cancel: z.boolean(),
  cancel_block_reason: z.string().nullable(),
  /** Newest first; the last entry is the order's creation. */
  timeline: z.array(OrderEventSchema),
});
export type AdminOrderDetail = z.output<typeof AdminOrderDetailSchema>;

const AddressInput = z
  .object({
    first_name: Text(100).nullable().optional(),
    last_name: Text(100).nullable().optional(),
    company: Text(200).nullable().optional(),
    address1: Text(300).nullable().optional(),
    address2: Text(300).nullable().optional(),
    city: Text(100).nullable().optional(),
    province: Text(100).nullable().optional(),
    zip: Text(30).nullable().optional(),
    country_code: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
      .transform((v) => v.toUpperCase())
      .nullable()
      .optional(),
    phone: Text(40).nullable().optional(),
  })
  .strict();

export const adminOrdersEndpoints = {
  ordersAdminList: endpoint({
    method: "GET",
    path: "/orders/admin",
    summary:
      "Orders for the merchant: search q (order name or number, customer email or name, product title, SKU, tracking number), filters (financial and fulfilment status, item status, vendor, store, created from/to), sort, cursor paging (limit ≤ 100)",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    query: z.object({
      q: Text(200).optional(),
      financialStatus: z.enum(FINANCIAL_STATUSES).optional(),
      fulfillmentStatus: z.enum(FULFILLMENT_STATUSES).optional(),
      itemStatus: OrderItemStatusSchema.optional(),
      status: OrderStatusSchema.optional(),
      vendorId: Id.optional(),
      storeId: Id.optional(),
      from: DateParam.optional(),
      to: DateParam.optional(),
      sort: z.enum(ADMIN_ORDER_SORTS).default("created_at_desc"),
      cursor: z.string().trim().min(1).max(500).optional(),
      limit: z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(ADMIN_ORDERS_PAGE_SIZE),
    }),
    response: z.object({ items: z.array(AdminOrderSummarySchema), nextCursor: z.string().nullable() }),
  }),
  ordersAdminGet: endpoint({
    method: "GET",
    path: "/orders/admin/{id}",
    summary: "One order: items with statuses and the moves allowed, fulfilments (carrier, tracking number and URL, items), returns and return requests, customer, timeline (who did what, newest first)",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    response: AdminOrderDetailSchema,
  }),
  ordersAdminUpdate: endpoint({
    method: "PATCH",
    path: "/orders/admin/{id}",
    summary: "Change the order's note, tags and/or shipping address (through the store); unchanged fields record nothing",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    body: z
      .object({
        note: Text(5000).nullable().optional(),
        tags: z.array(z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters").regex(/^[^,]+$/, "must not contain a comma")).max(50, "at most 50 tags").optional(),
        shipping_address: AddressInput.optional(),
      })
      .strict()
      .refine((b) => b.note !== undefined || b.tags !== undefined || b.shipping_address !== undefined, "Nothing to change: give note, tags or shipping_address"),
    response: AdminOrderDetailSchema,
  }),
  ordersAdminItemsStatus: endpoint({
    method: "PATCH",
    path: "/orders/admin/{id}/items/status",
    summary: "Move one or many items to a status along ITEM_STATUS_TRANSITIONS; all or nothing; a refused move answers 409 naming the item and the move; items already there stay unchanged",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    body: z.object({ itemIds: ItemIds, status: OrderItemStatusSchema }).strict(),
    response: AdminOrderDetailSchema,
  }),
  ordersAdminTracking: endpoint({
    method: "PUT",
    path: "/orders/admin/{id}/tracking",
    summary: "Add or change the tracking number (and carrier, URL) of a fulfilment, chosen by its id or by its items; through the store (Shopify: fulfillmentTrackingInfoUpdate)",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    body: z
      .object({
        itemIds: ItemIds.optional(),
        fulfillmentId: Id.optional(),
        trackingNumber: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
        trackingCompany: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
        trackingUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000).optional(),
      })
      .strict()
      .refine((b) => (b.itemIds ? 1 : 0) + (b.fulfillmentId ? 1 : 0) === 1, "Give either itemIds or fulfillmentId"),
    response: AdminOrderDetailSchema,
  }),
  ordersAdminFulfill: endpoint({
    method: "POST",
    path: "/orders/admin/{id}/fulfillments",
    summary:
      "Fulfil chosen quantities of items through the store (carrier, tracking number, notify the customer): part of a line is recorded as that many units sent and the rest can follow in another parcel; a quantity above what is left of the line is 422; with a tracking number the items become shipped, else fulfilled",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    body: z
      .object({
        items: z.array(z.object({ itemId: Id, quantity: z.number().int("must be a whole number").min(1, "must be at least 1").max(10_000) }).strict()).min(1, "Choose at least one item").max(100, "at most 100 items"),
        trackingCompany: z.string().trim().min(1).max(100, "must be at most 100 characters").optional(),
        trackingNumber: z.string().trim().min(1).max(100, "must be at most 100 characters").optional(),
        trackingUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000).optional(),
        notifyCustomer: z.boolean().default(false),
      })
      .strict(),
    response: AdminOrderDetailSchema,
    status: 201,
  }),
  ordersAdminInitiateReturn: endpoint({
    method: "POST",
    path: "/orders/admin/{id}/initiate-return",
    summary:
      "Request a return of chosen items on behalf of the customer (same rules and path as the shopper's initiate-return; the timeline names the admin); quantities takes part of a line back (at most the units sent)",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    body: z
      .object({
        itemIds: ItemIds,
        reason: ReturnReasonSchema,
        note: Text(1000).optional(),
        /** Part of a line: how many units of the named items come back (others: every unit sent). */
        quantities: z
          .array(z.object({ itemId: Id, quantity: z.number().int("must be a whole number").min(1, "must be at least 1").max(10_000) }).strict())
          .max(100, "at most 100 items")
          .optional(),
      })
      .strict(),
    response: ReturnEntrySchema,
    status: 201,
  }),
  ordersAdminCancel: endpoint({
    method: "POST",
    path: "/orders/admin/{id}/cancel",
    summary: "Cancel the order with a reason (restock, refund to the original payment, notify the customer, staff note) through the store; 409 once anything was sent; already cancelled → 200 unchanged",
    tags: ["Admin orders"],
    access: access.admin("orders.manage"),
    params: IdParams,
    body: z
      .object({
        reason: z.enum(ADMIN_CANCEL_REASONS, { error: `must be one of: ${ADMIN_CANCEL_REASONS.join(", ")}` }),
        restock: z.boolean().default(true),
        refund: z.boolean().default(true),
        notify: z.boolean().default(true),
        staffNote: Text(500).optional(),
      })
      .strict(),
    response: AdminOrderDetailSchema,
  }),
};
