/**
 * The shopper's own orders and returns (SPEC §3 Order, return and return-request statuses, return
 * reasons; §4 "an order can be cancelled with a reason or a return initiated with a reason"; §9
 * "user orders first 10").
 *
 * Which orders are "mine": orders linked to the caller's user id, orders of the caller's Shopify
 * customer id, and, for a registered account (password or Shopify sign-in, not a guest or a lead),
 * orders placed with the account's email address that no other user is linked to. Anything else
 * answers 404, as an unknown id does.
 *
 * Rules (app/services/account-orders-rules.ts):
 * - cancel: only an open order none of whose items has been sent (every live item unfulfilled),
 *   with no return under way; the store cancels it (refund to the original payment, restock);
 * - return: items that were sent (fulfilled, shipped or delivered) of an order that is not
 *   cancelled, not already returned and not in a return request that is requested, open or closed
 *   (a declined or cancelled request can be made again). A return request (status REQUESTED) is
 *   created with the store's return (Shopify `returnRequest`) for the whole quantity of each item.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Money } from "./common";

/** SPEC §9: user orders first 10. */
export const ORDERS_PAGE_SIZE = 10;
export const RETURNS_PAGE_SIZE = 10;

export const ORDER_STATUSES = ["open", "cancelled", "closed"] as const;
export const ORDER_ITEM_STATUSES = ["unfulfilled", "fulfilled", "shipped", "delivered", "cancelled", "returned"] as const;
/** SPEC §3 return statuses (the parcel's way back). */
export const RETURN_STATUSES = ["REQUESTED", "LABEL_SENT", "IN_TRANSIT", "DELIVERED", "REFUNDED", "CANCELED"] as const;
/** SPEC §3 return-request statuses (the store's decision; Shopify's Return status). */
export const RETURN_REQUEST_STATUSES = ["REQUESTED", "OPEN", "CLOSED", "DECLINED", "CANCELED"] as const;
/** SPEC §3 return reasons. */
export const RETURN_REASONS = ["COLOR", "DEFECTIVE", "NOT_AS_DESCRIBED", "OTHER", "SIZE_TOO_LARGE", "SIZE_TOO_SMALL", "STYLE", "UNKNOWN", "UNWANTED", "WRONG_ITEM"] as const;
export type ReturnReasonValue = (typeof RETURN_REASONS)[number];

/** Shopper-facing text of each return reason (the select of the return form). */
export const RETURN_REASON_LABELS: Record<ReturnReasonValue, string> = {
  SIZE_TOO_SMALL: "Too small",
  SIZE_TOO_LARGE: "Too large",
  COLOR: "Colour not as expected",
  STYLE: "Style not as expected",
  NOT_AS_DESCRIBED: "Not as described",
  DEFECTIVE: "Damaged or defective",
  WRONG_ITEM: "Wrong item received",
  UNWANTED: "No longer wanted",
  OTHER: "Other",
  UNKNOWN: "Prefer not to say",
};

/** Why a shopper cancels; the store receives reason CUSTOMER with this text in its staff note. */
export const CANCEL_REASONS = ["CHANGED_MIND", "ORDERED_BY_MISTAKE", "FOUND_BETTER_PRICE", "DELIVERY_TOO_SLOW", "OTHER"] as const;
export type CancelReasonValue = (typeof CANCEL_REASONS)[number];
export const CANCEL_REASON_LABELS: Record<CancelReasonValue, string> = {
  CHANGED_MIND: "I changed my mind",
  ORDERED_BY_MISTAKE: "I ordered by mistake",
  FOUND_BETTER_PRICE: "I found a better price",
  DELIVERY_TOO_SLOW: "Delivery would take too long",
  OTHER: "Other",
};

/** Where an order is, from its items (cancelled first; then the least advanced live item). */
export const ORDER_STAGES = ["unfulfilled", "partially_fulfilled", "fulfilled", "shipped", "delivered", "returned", "cancelled"] as const;

export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export const OrderItemStatusSchema = z.enum(ORDER_ITEM_STATUSES);
export const ReturnStatusSchema = z.enum(RETURN_STATUSES);
export const ReturnRequestStatusSchema = z.enum(RETURN_REQUEST_STATUSES);
export const ReturnReasonSchema = z.enum(RETURN_REASONS, { error: `must be one of: ${RETURN_REASONS.join(", ")}` });
export const CancelReasonSchema = z.enum(CANCEL_REASONS, { error: `must be one of: ${CANCEL_REASONS.join(", ")}` });
export const OrderStageSchema = z.enum(ORDER_STAGES);

/** An order id in a path: the GID (URL-encoded) or its bare number (`5400004` → `gid://shopify/Order/5400004`). */
export const OrderIdParams = z.object({
  id: z
    .string()
    .trim()
    .min(1, "An order id is required")
    .max(300)
    .refine((v) => v !== "undefined" && v !== "null", "An order id is required"),
});

export const TrackingSchema = z.object({
  tracking_number: z.string(),
  tracking_url: z.string().nullable(),
  provider: z.string().nullable(),
});

export const OrderItemSchema = z.object({
  id: z.string(),
  product_id: z.string().nullable(),
  variant_id: z.string().nullable(),
  /** The product's handle when it is still in the catalogue (for a link to its page). */
  product_handle: z.string().nullable(),
  title: z.string(),
  variant_title: z.string().nullable(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  /** Units sent so far: below quantity while the rest of the line is still to come ("2 of 3 sent"). */
  fulfilled_quantity: z.number().int(),
  price: Money,
  status: OrderItemStatusSchema,
  tracking: TrackingSchema.nullable(),
  image_url: z.string().nullable(),
  /** Whether a return can be requested for this item now, and why not. */
  returnable: z.boolean(),
  return_block_reason: z.string().nullable(),
  /** The latest return request covering this item, if any. */
  return_request: z.object({ id: z.string(), status: ReturnRequestStatusSchema, return_status: ReturnStatusSchema.nullable() }).nullable(),
});

export const OrderSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  status: OrderStatusSchema,
  stage: OrderStageSchema,
  financial_status: z.string().nullable(),
  fulfillment_status: z.string().nullable(),
  created_at: IsoDate,
  cancelled_at: IsoDate.nullable(),
  total: Money,
  /** Units ordered (sum of quantities). */
  item_count: z.number().int(),
  /** The first few items, for a thumbnail strip. */
  items_preview: z.array(z.object({ title: z.string(), image_url: z.string().nullable() })),
  can_cancel: z.boolean(),
});
export type OrderSummary = z.output<typeof OrderSummarySchema>;

export const OrderDetailSchema = OrderSummarySchema.extend({
  subtotal: Money.nullable(),
  shipping: Money.nullable(),
  tax: Money.nullable(),
  cancel_reason: z.string().nullable(),
  cancel_block_reason: z.string().nullable(),
  closed_at: IsoDate.nullable(),
  note: z.string().nullable(),
  shipping_address: z
    .object({
      name: z.string().nullable(),
      address1: z.string().nullable(),
      city: z.string().nullable(),
      province: z.string().nullable(),
      zip: z.string().nullable(),
      country: z.string().nullable(),
    })
    .nullable(),
  items: z.array(OrderItemSchema),
  /** Whether any item can be returned now. */
  can_return: z.boolean(),
});
export type OrderDetail = z.output<typeof OrderDetailSchema>;

export const TIMELINE_STEP_STATES = ["done", "current", "upcoming", "stopped"] as const;
export const ReturnTimelineStepSchema = z.object({
  key: z.string(),
  label: z.string(),
  state: z.enum(TIMELINE_STEP_STATES),
  /** When the step happened, when known. */
  at: IsoDate.nullable(),
});
export type ReturnTimelineStep = z.output<typeof ReturnTimelineStepSchema>;

export const ReturnEntrySchema = z.object({
  /** The return request's id, or the return's id for a return the store made without a request. */
  id: z.string(),
  kind: z.enum(["request", "return"]),
  order: z.object({ id: z.string(), name: z.string() }),
  /** The return request's status (null for a return made without a request). */
  status: ReturnRequestStatusSchema.nullable(),
  /** The return's status (null until the store created one). */
  return_status: ReturnStatusSchema.nullable(),
  reason: ReturnReasonSchema,
  note: z.string().nullable(),
  items: z.array(z.object({ order_item_id: z.string(), title: z.string(), variant_title: z.string().nullable(), image_url: z.string().nullable(), quantity: z.number().int() })),
  tracking: z.object({ tracking_number: z.string().nullable(), tracking_company: z.string().nullable(), label_url: z.string().nullable() }).nullable(),
  refund: Money.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  timeline: z.array(ReturnTimelineStepSchema),
});
export type ReturnEntry = z.output<typeof ReturnEntrySchema>;

const Cursor = z.string().trim().min(1).max(500).optional();
const pageLimit = (def: number) => z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 50").max(50, "must be between 1 and 50").default(def);

export const accountOrdersEndpoints = {
  ordersMine: endpoint({
    method: "GET",
    path: "/users/orders",
    summary: "The caller's orders, newest first: 10 at a time (SPEC §9), then more with nextCursor",
    tags: ["Orders"],
    access: access.user,
    query: z.object({ cursor: Cursor, limit: pageLimit(ORDERS_PAGE_SIZE) }),
    response: z.object({ items: z.array(OrderSummarySchema), nextCursor: z.string().nullable() }),
  }),
  ordersMineGet: endpoint({
    method: "GET",
    path: "/users/orders/{id}",
    summary: "One of the caller's orders with its items, their statuses and tracking, and whether it can be cancelled or items returned; 404 for an order that is not the caller's",
    tags: ["Orders"],
    access: access.user,
    params: OrderIdParams,
    response: OrderDetailSchema,
  }),
  ordersMineCancel: endpoint({
    method: "POST",
    path: "/users/orders/{id}/cancel",
    summary: "Cancel one of the caller's orders with a reason, while nothing has been sent (409 otherwise); the store refunds and restocks",
    tags: ["Orders"],
    access: access.user,
    params: OrderIdParams,
    body: z.object({ reason: CancelReasonSchema, note: z.string().trim().max(500, "must be at most 500 characters").optional() }),
    response: OrderDetailSchema,
  }),
  ordersMineInitiateReturn: endpoint({
    method: "POST",
    path: "/users/orders/{id}/initiate-return",
    summary:
      "Request a return of chosen items of one of the caller's orders with a reason (SPEC §3 list): creates the store's return and a return request (REQUESTED). Items of another order answer 422; items not sent yet, already returned or already in a return answer 409.",
    tags: ["Orders"],
    access: access.user,
    params: OrderIdParams,
    body: z.object({
      order_item_ids: z.array(z.string().trim().min(1, "must not be empty").max(300)).min(1, "Choose at least one item to return").max(50, "at most 50 items"),
      reason: ReturnReasonSchema,
      note: z.string().trim().max(1000, "must be at most 1000 characters").optional(),
    }),
    response: ReturnEntrySchema,
    status: 201,
  }),
  returnsMine: endpoint({
    method: "GET",
    path: "/users/returns",
    summary: "The caller's return requests (and returns the store made for their orders), newest first, each with its statuses as a timeline",
    tags: ["Orders"],
    access: access.user,
    query: z.object({ cursor: Cursor, limit: pageLimit(RETURNS_PAGE_SIZE) }),
    response: z.object({ items: z.array(ReturnEntrySchema), nextCursor: z.string().nullable() }),
  }),
};
