/**
 * The shopper's notification requests (SPEC §3 notify requests, §6 "back-in-stock notification
 * checks run only for non-guest logged-in users"): back in stock (a product, or one of its
 * variants), saved searches (created by POST /users/notification-requests/search, app/contract/search.ts)
 * and drops. The job worker emails them when the condition happens (the outbox in local mode),
 * each email with the unsubscribe link GET /notifications/unsubscribe/{token}.
 *
 * Statuses: active (waiting), sent (the email went; back-in-stock and drop requests are one-shot,
 * a saved search stays active), unsubscribed (by the email's link).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate } from "./common";
import { Messages } from "./messages";

export const NOTIFICATION_KINDS = ["back_in_stock", "search", "drop"] as const;
export const NOTIFICATION_STATUSES = ["active", "sent", "unsubscribed"] as const;
export const NOTIFICATION_REQUESTS_PAGE_SIZE = 20;

export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS, { error: `must be one of: ${NOTIFICATION_KINDS.join(", ")}` });
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES);

export const NotificationRequestSchema = z.object({
  id: z.string(),
  kind: NotificationKindSchema,
  status: NotificationStatusSchema,
  email: z.string(),
  created_at: IsoDate,
  /** When the last email went. */
  sent_at: IsoDate.nullable(),
  /** back_in_stock: the product (null once it left the catalogue). */
  product: z
    .object({ id: z.string(), title: z.string(), handle: z.string(), image_url: z.string().nullable(), availableForSale: z.boolean() })
    .nullable(),
  /** back_in_stock for one variant (a size or colour); null for the whole product. */
  variant: z.object({ id: z.string(), title: z.string(), availableForSale: z.boolean() }).nullable(),
  /** search: the saved search. */
  search: z.object({ searchId: z.string(), query: z.string(), filters: z.record(z.string(), z.unknown()) }).nullable(),
  /** drop: the drop. */
  drop: z.object({ id: z.string(), name: z.string(), status: z.string(), scheduled_publish_date: IsoDate.nullable() }).nullable(),
});
export type NotificationRequest = z.output<typeof NotificationRequestSchema>;

const Id = z.string().trim().min(1, "must not be empty").max(300);

export const notificationsEndpoints = {
  notificationRequestsMine: endpoint({
    method: "GET",
    path: "/users/notification-requests",
    summary: "The caller's notification requests of every kind (back in stock, saved searches, drops), newest first; optionally of one kind or one product",
    tags: ["Notifications"],
    access: access.user,
    query: z.object({
      kind: NotificationKindSchema.optional(),
      product_id: Id.optional(),
      cursor: z.string().trim().min(1).max(500).optional(),
      limit: z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(NOTIFICATION_REQUESTS_PAGE_SIZE),
    }),
    response: z.object({ items: z.array(NotificationRequestSchema), nextCursor: z.string().nullable() }),
  }),
  notificationRequestsProductCreate: endpoint({
    method: "POST",
    path: "/users/notification-requests/product",
    summary:
      "Be emailed when a sold-out product (or one sold-out variant of it) is back in stock. Signed-in non-guest users only (SPEC §6); idempotent per user, product and variant; 409 when it is in stock now, 422 without an email address.",
    tags: ["Notifications"],
    access: access.loggedIn(Messages.USER_NOT_AUTHENTICATED),
    body: z.object({ product_id: Id, variant_id: Id.nullish() }),
    response: NotificationRequestSchema,
    status: 201,
  }),
  notificationRequestsDropCreate: endpoint({
    method: "POST",
    path: "/users/notification-requests/drop",
    summary:
      "Be emailed when an announced (scheduled) drop goes live. Signed-in non-guest users only; idempotent per user and drop; 404 for a drop that is not announced, 409 when it is live already.",
    tags: ["Notifications"],
    access: access.loggedIn(Messages.USER_NOT_AUTHENTICATED),
    body: z.object({ drop_id: Id }),
    response: NotificationRequestSchema,
    status: 201,
  }),
  notificationRequestsDelete: endpoint({
    method: "DELETE",
    path: "/users/notification-requests/{id}",
    summary: "Delete one of the caller's notification requests (any kind); 404 when it is not the caller's",
    tags: ["Notifications"],
    access: access.user,
    params: z.object({ id: Id }),
    response: z.object({ ok: z.literal(true), id: z.string() }),
  }),
};
