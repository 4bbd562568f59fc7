/**
 * Drops (SPEC §3 Drop, §7 Drops, §9 "Drop companions: skip 0, take 60"): a named set of products
 * published together on a date. Status: draft → scheduled (a date is set) → published (the date
 * has passed, or Publish now), or cancelled. Everything needs `drops.manage`, except reading
 * published drops, the upcoming (announced) drops and "Notify me". What a drop does to its
 * products' visibility: docs/drops.md.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, Ok, intParam } from "./common";
import { ProductCardSchema } from "./products";

export const DropStatusSchema = z.enum(["draft", "scheduled", "published", "cancelled"]);

export const DropSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Shown to shoppers before the drop goes live (the description otherwise). */
  teaser: z.string().nullable(),
  image_url: z.string().nullable(),
  shopify_products_ids: z.array(z.string()),
  scheduled_publish_date: IsoDate.nullable(),
  status: DropStatusSchema,
  /** Live products of the drop are hidden until it publishes (default false: they stay live). */
  hold_back_live: z.boolean(),
  notified_at: IsoDate.nullable(),
  product_count: z.number().int(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Drop = z.output<typeof DropSchema>;

/** An announced drop as shoppers see it (GET /drops/upcoming). */
export const UpcomingDropSchema = z.object({
  id: z.string(),
  name: z.string(),
  teaser: z.string().nullable(),
  image_url: z.string().nullable(),
  scheduled_publish_date: IsoDate,
  product_count: z.number().int(),
});
export type UpcomingDrop = z.output<typeof UpcomingDropSchema>;

export const DropCompanionCardSchema = ProductCardSchema.extend({
  publishedAt: IsoDate.nullable(),
  companion: z
    .object({ id: z.string(), status: z.string(), scheduled_publish_date: IsoDate.nullable() })
    .nullable(),
});

/** An ISO 8601 date or date-time (`2026-05-01` or `2026-05-01T09:00:00Z`). */
const IsoInput = (field: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), `${field} must be an ISO 8601 date`)
    .transform((v) => new Date(v));

const ProductIds = z.array(z.string().trim().min(1, "must not be empty")).max(250, "A drop holds at most 250 products");
const ImageUrl = z.string().trim().max(2000).refine((v) => /^(https?:\/\/|\/)/.test(v), "image_url must be an http(s) URL or a path");

const DropWrite = z.object({
  name: z.string().trim().min(1, "must not be empty").max(160),
  description: z.string().trim().max(4000).nullable().optional(),
  teaser: z.string().trim().max(280).nullable().optional(),
  image_url: ImageUrl.nullable().optional(),
  hold_back_live: z.boolean().optional(),
  shopify_products_ids: ProductIds.optional(),
});

export const NotifyResultSchema = z.object({ queued: z.number().int(), skip: z.number().int(), limit: z.number().int(), total: z.number().int() });

export const dropsEndpoints = {
  dropsList: endpoint({
    method: "GET",
    path: "/drops",
    summary: "Drops whose scheduled publish date is between from and to (published ones only, unless the caller manages drops)",
    tags: ["Drops"],
    access: access.public,
    query: z.object({
      from: IsoInput("from").optional(),
      to: IsoInput("to").optional(),
      status: DropStatusSchema.optional(),
    }),
    response: z.object({ drops: z.array(DropSchema) }),
  }),
  dropsUpcoming: endpoint({
    method: "GET",
    path: "/drops/upcoming",
    summary: "Announced drops for shoppers: scheduled, with a date ahead, soonest first (name, date, teaser, image; never drafts)",
    tags: ["Drops"],
    access: access.public,
    response: z.object({ drops: z.array(UpcomingDropSchema) }),
  }),
  dropsNotifyMe: endpoint({
    method: "POST",
    path: "/drops/{id}/notify-me",
    summary:
      "Be emailed when an announced drop goes live, by email address (guests; signed-in shoppers use POST /users/notification-requests/drop). One request per drop and address; 404 for a drop that is not announced, 409 when it is live already.",
    tags: ["Drops"],
    access: access.public,
    rateLimit: "auth",
    params: IdParams,
    body: z.object({ email: z.string().trim().toLowerCase().max(254).check(z.email("enter a valid email address")) }),
    response: z.object({ ok: z.literal(true), drop_id: z.string(), email: z.string() }),
    status: 201,
  }),
  dropsPublishNow: endpoint({
    method: "POST",
    path: "/drops/{id}/publish",
    summary: "Publish now: a draft or scheduled drop goes live at once (its products not live yet are published; its date becomes now)",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    response: DropSchema,
  }),
  dropsCreate: endpoint({
    method: "POST",
    path: "/drops",
    summary: "Create a drop (a future scheduled_publish_date schedules it at once)",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    body: DropWrite.extend({ scheduled_publish_date: IsoInput("scheduled_publish_date").nullable().optional() }),
    response: DropSchema,
    status: 201,
  }),
  dropsGetById: endpoint({
    method: "GET",
    path: "/drops/{id}",
    summary: "A drop (published drops are public)",
    tags: ["Drops"],
    access: access.public,
    params: IdParams,
    response: DropSchema,
  }),
  dropsUpdate: endpoint({
    method: "PUT",
    path: "/drops/{id}",
    summary: "Update a drop; status cancelled cancels it, draft unschedules or reopens it",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    body: DropWrite.extend({ status: z.enum(["draft", "cancelled"]).optional() }),
    response: DropSchema,
  }),
  dropsDelete: endpoint({
    method: "DELETE",
    path: "/drops/{id}",
    summary: "Delete a drop (scheduled publishing of its products is withdrawn)",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    response: Ok,
  }),
  dropsCompanions: endpoint({
    method: "GET",
    path: "/drops/{id}/companions",
    summary: "The drop's products as cards with their companion (skip 0, take 60)",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    query: z.object({ skip: intParam(0, 0, 250), take: intParam(60, 1, 250) }),
    response: z.object({ products: z.array(DropCompanionCardSchema), total: z.number().int(), skip: z.number().int(), take: z.number().int() }),
  }),
  dropsSetCompanions: endpoint({
    method: "PUT",
    path: "/drops/{id}/companions",
    summary: "Replace the drop's products (unknown ids are refused)",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    body: z.object({ shopify_products_ids: ProductIds }),
    response: DropSchema,
  }),
  dropsSetScheduledPublishDate: endpoint({
    method: "PUT",
    path: "/drops/{id}/scheduled-publish-date",
    summary: "Schedule the drop: a future date (a past one is refused: use Publish now); its products not live yet (with hold_back_live, all) publish then",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    body: z.object({ scheduled_publish_date: IsoInput("scheduled_publish_date") }),
    response: DropSchema,
  }),
  dropsNotifyActiveUsers: endpoint({
    method: "POST",
    path: "/drops/{id}/notify-active-users",
    summary: "Email the drop to the given addresses, or to active users (a page of skip/limit)",
    tags: ["Drops"],
    access: access.admin("drops.manage"),
    params: IdParams,
    body: z.object({
      emails: z.array(z.string().trim().toLowerCase().max(254).check(z.email("enter a valid email address"))).max(1000).optional(),
      skip: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    response: NotifyResultSchema,
    status: 202,
  }),
};
