/**
 * The merchant's side of returns (issue 16; SPEC §3 return and return-request statuses, §4
 * "Return: status changed by a status call; confirmed with received items", §7 returns list, by
 * tracking, by order, status, confirm (received_item_ids, note_text, item_notes), line items).
 * The same rows as the shopper's returns (app/contract/account-orders.ts): what an admin does here
 * shows in the shopper's GET /users/returns timeline and order page at once.
 *
 * Two state machines:
 * - the return request (the store's decision): REQUESTED → OPEN (approve) → CLOSED (automatic when
 *   its return is refunded or cancelled); REQUESTED → DECLINED (decline, with a reason; its return
 *   is cancelled with it); REQUESTED → CANCELED by the shopper only. RETURN_REQUEST_TRANSITIONS.
 * - the return (the parcel's way back): REQUESTED → LABEL_SENT → IN_TRANSIT → DELIVERED → REFUNDED;
 *   CANCELED from any state before DELIVERED. RETURN_TRANSITIONS. The status call moves it along,
 *   except into REFUNDED: that only happens through POST /returns/admin/{id}/refund, which records
 *   the amount (a status call to REFUNDED answers 409 saying so). A return whose request is still
 *   REQUESTED does not move until the request is approved (409).
 *
 * Every write is idempotent: a move to the state the record is already in answers the record (200)
 * and records nothing; two admins' simultaneous submits move the state once (row lock).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Money, RecordId as Id, RecordIdParams as IdParams } from "./common";
import { OrderItemStatusSchema, ReturnEntrySchema, ReturnReasonSchema, ReturnRequestStatusSchema, ReturnStatusSchema, RETURN_REQUEST_STATUSES, RETURN_STATUSES } from "./account-orders";

type ReturnStatusValue = (typeof RETURN_STATUSES)[number];
type ReturnRequestStatusValue = (typeof RETURN_REQUEST_STATUSES)[number];

/** The return machine: every move allowed from each status (anything else: 409). */
export const RETURN_TRANSITIONS: Record<ReturnStatusValue, readonly ReturnStatusValue[]> = {
  REQUESTED: ["LABEL_SENT", "CANCELED"],
  LABEL_SENT: ["IN_TRANSIT", "CANCELED"],
  IN_TRANSIT: ["DELIVERED", "CANCELED"],
  DELIVERED: ["REFUNDED"],
  REFUNDED: [],
  CANCELED: [],
};
/** Moves of the return machine that the status call refuses, with the way to make them. */
export const RETURN_MOVES_NOT_BY_STATUS_CALL: Partial<Record<ReturnStatusValue, string>> = {
  REFUNDED: "A return is refunded through POST /returns/admin/{id}/refund, which records the amount",
};

/** The return-request machine. CANCELED is the shopper's move only; CLOSED follows the return. */
export const RETURN_REQUEST_TRANSITIONS: Record<ReturnRequestStatusValue, readonly ReturnRequestStatusValue[]> = {
  REQUESTED: ["OPEN", "DECLINED", "CANCELED"],
  OPEN: ["CLOSED"],
  CLOSED: [],
  DECLINED: [],
  CANCELED: [],
};

/** Shopify's ReturnDeclineReason values (the decline call's category; the text goes to the shopper). */
export const RETURN_DECLINE_REASONS = ["FINAL_SALE", "RETURN_PERIOD_ENDED", "OTHER"] as const;

export const ADMIN_RETURNS_PAGE_SIZE = 25;

const Cursor = z.string().trim().min(1).max(500).optional();
const limit = z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(ADMIN_RETURNS_PAGE_SIZE);

export const AdminReturnLineItemSchema = z.object({
  id: z.string(),
  order_item_id: z.string(),
  title: z.string(),
  variant_title: z.string().nullable(),
  sku: z.string().nullable(),
  image_url: z.string().nullable(),
  price: Money,
  quantity: z.number().int(),
  reason: ReturnReasonSchema,
  received: z.boolean(),
  note: z.string().nullable(),
  order_item_status: OrderItemStatusSchema,
});

export const AdminReturnRequestSchema = z.object({
  id: z.string(),
  order: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }),
  user_id: z.string().nullable(),
  status: ReturnRequestStatusSchema,
  reason: ReturnReasonSchema,
  note: z.string().nullable(),
  /** The reason given with a decline (from the request's timeline event). */
  decline_reason: z.string().nullable(),
  items: z.array(z.object({ order_item_id: z.string(), title: z.string(), variant_title: z.string().nullable(), quantity: z.number().int() })),
  return_id: z.string().nullable(),
  return_status: ReturnStatusSchema.nullable(),
  /** Moves an admin can make now (approve → OPEN, decline → DECLINED). */
  allowed_moves: z.array(ReturnRequestStatusSchema),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type AdminReturnRequest = z.output<typeof AdminReturnRequestSchema>;

export const AdminReturnSchema = z.object({
  id: z.string(),
  shopify_return_id: z.string().nullable(),
  order: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }),
  user_id: z.string().nullable(),
  status: ReturnStatusSchema,
  reason: ReturnReasonSchema,
  reason_note: z.string().nullable(),
  tracking_number: z.string().nullable(),
  tracking_company: z.string().nullable(),
  label_url: z.string().nullable(),
  note_text: z.string().nullable(),
  /** What was refunded (null until refunded). */
  refund: Money.nullable(),
  /** What a refund would pay now: the received items' prices × quantities. */
  refundable: Money,
  received_at: IsoDate.nullable(),
  refunded_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  line_items: z.array(AdminReturnLineItemSchema),
  request: AdminReturnRequestSchema.omit({ order: true, items: true, return_id: true, return_status: true }).nullable(),
  /** Statuses the status call accepts now (REFUNDED never: see the refund call). */
  allowed_statuses: z.array(ReturnStatusSchema),
});
export type AdminReturn = z.output<typeof AdminReturnSchema>;

export const AdminReturnDetailSchema = AdminReturnSchema.extend({
  /** Every item of the order, with its status (what else could come back). */
  order_items: z.array(
    z.object({ id: z.string(), title: z.string(), variant_title: z.string().nullable(), sku: z.string().nullable(), quantity: z.number().int(), price: Money, status: OrderItemStatusSchema }),
  ),
});
export type AdminReturnDetail = z.output<typeof AdminReturnDetailSchema>;

const StatusCounts = z.record(z.string(), z.number().int());

const Note = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

export const adminReturnsEndpoints = {
  /** The shopper's own move of the request machine (REQUESTED → CANCELED); here with the machine it belongs to. */
  returnsMineCancel: endpoint({
    method: "POST",
    path: "/users/returns/{id}/cancel",
    summary:
      "Cancel one of the caller's return requests while the store has not decided (REQUESTED → CANCELED; its return is cancelled with the store). 200 with the entry when already cancelled; 409 once approved, declined or closed; 404 for a request that is not the caller's",
    tags: ["Orders"],
    access: access.user,
    params: IdParams,
    response: ReturnEntrySchema,
  }),
  returnsAdminList: endpoint({
    method: "GET",
    path: "/returns/admin",
    summary:
      "Returns, newest first, for the admin's status tabs: filter by status, search (order name, customer email, tracking number, product title), cursor paging; `counts` per status (and `ALL`) for the same search",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    query: z.object({ status: ReturnStatusSchema.optional(), q: z.string().trim().max(200, "must be at most 200 characters").optional(), cursor: Cursor, limit }),
    response: z.object({ items: z.array(AdminReturnSchema), counts: StatusCounts, nextCursor: z.string().nullable() }),
  }),
  returnsAdminByTracking: endpoint({
    method: "GET",
    path: "/returns/admin/tracking/{trackingNumber}",
    summary: "The returns shipped back under a tracking number (exact, case-insensitive); an empty list when none",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: z.object({ trackingNumber: z.string().trim().min(1, "A tracking number is required").max(200, "must be at most 200 characters") }),
    response: z.object({ items: z.array(AdminReturnSchema) }),
  }),
  returnsAdminByOrder: endpoint({
    method: "GET",
    path: "/returns/admin/order/{orderId}",
    summary: "An order's returns (GID or bare number), newest first; 404 for an unknown order",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: z.object({ orderId: Id }),
    response: z.object({ items: z.array(AdminReturnSchema) }),
  }),
  returnsAdminRequests: endpoint({
    method: "GET",
    path: "/returns/admin/requests",
    summary: "Return requests, newest first, with a status filter and counts per status",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    query: z.object({ status: ReturnRequestStatusSchema.optional(), cursor: Cursor, limit }),
    response: z.object({ items: z.array(AdminReturnRequestSchema), counts: StatusCounts, nextCursor: z.string().nullable() }),
  }),
  returnsAdminRequestApprove: endpoint({
    method: "POST",
    path: "/returns/admin/requests/{id}/approve",
    summary: "Approve a return request (REQUESTED → OPEN): the store approves its return and the shopper is emailed the instructions. 200 with the request when already OPEN; 409 from any other status",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    response: AdminReturnRequestSchema,
  }),
  returnsAdminRequestDecline: endpoint({
    method: "POST",
    path: "/returns/admin/requests/{id}/decline",
    summary: "Decline a return request with a reason (REQUESTED → DECLINED; its return is cancelled); the shopper is emailed the reason. 200 when already DECLINED; 409 from any other status",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    body: z.object({
      reason: z.string().trim().min(1, "A reason is required").max(1000, "must be at most 1000 characters"),
      decline_reason: z.enum(RETURN_DECLINE_REASONS).default("OTHER"),
    }),
    response: AdminReturnRequestSchema,
  }),
  returnsAdminGet: endpoint({
    method: "GET",
    path: "/returns/admin/{id}",
    summary: "One return with its line items, the order's items, its request and its refund",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    response: AdminReturnDetailSchema,
  }),
  returnsAdminLineItems: endpoint({
    method: "GET",
    path: "/returns/admin/{id}/line-items",
    summary: "A return's line items (received, notes, prices)",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    response: z.object({ items: z.array(AdminReturnLineItemSchema) }),
  }),
  returnsAdminStatus: endpoint({
    method: "PATCH",
    path: "/returns/admin/{id}/status",
    summary:
      "Move a return along its machine (RETURN_TRANSITIONS): LABEL_SENT (with the tracking number, carrier and label URL), IN_TRANSIT, DELIVERED, CANCELED before DELIVERED. 200 with the return when it is already in that status; 409 with the reason for any other move (REFUNDED only through the refund call)",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    body: z.object({
      status: ReturnStatusSchema,
      trackingNumber: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
      trackingCompany: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
      labelUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000, "must be at most 2000 characters").optional(),
    }),
    response: AdminReturnDetailSchema,
  }),
  returnsAdminConfirm: endpoint({
    method: "POST",
    path: "/returns/admin/{id}/confirm",
    summary:
      "Confirm what came back (SPEC names): `received_item_ids` are return line item ids (or their order item ids); `note_text` on the return, `item_notes` per item. Received items are restocked and their order items marked returned (a line whose every unit came back; part of a line keeps its status); an IN_TRANSIT return moves to DELIVERED. 409 before IN_TRANSIT or once confirmed with other items; the same confirmation again answers 200",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    body: z.object({
      received_item_ids: z.array(Id).max(100, "at most 100 items"),
      note_text: Note(2000).optional(),
      item_notes: z.record(Id, Note(1000)).optional(),
    }),
    response: AdminReturnDetailSchema,
  }),
  returnsAdminRefund: endpoint({
    method: "POST",
    path: "/returns/admin/{id}/refund",
    summary:
      "Refund a confirmed return (DELIVERED → REFUNDED; its request → CLOSED): the amount is the received items' prices × quantities (only what was received), or a smaller `amount`; the store refunds to the original payment; `notify` emails the shopper. 200 with the return when already refunded; 409 before confirmation or with nothing received; 422 for an amount above what was received",
    tags: ["Returns (admin)"],
    access: access.admin("returns.manage"),
    params: IdParams,
    body: z.object({
      amount: z
        .string()
        .trim()
        .regex(/^\d{1,10}(\.\d{1,2})?$/, "must be an amount such as 49.90")
        .refine((v) => Number(v) > 0, "must be more than 0")
        .optional(),
      notify: z.boolean().default(true),
    }),
    response: AdminReturnDetailSchema,
  }),
};
