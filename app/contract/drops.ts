/**
 * Drops (SPEC §3 Drop, §7 Drops, §9 "Drop companions: skip 0, take 60"): a named set of products
 * published together on a date. Status: draft → scheduled (a date is set) → published (the date
 * has passed), or cancelled. Everything needs `drops.manage`, except reading published drops.
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
  image_url: z.string().nullable(),
  shopify_products_ids: z.array(z.string()),
  scheduled_publish_date: IsoDate.nullable(),
  status: DropStatusSchema,
  notified_at: IsoDate.nullable(),
  product_count: z.number().int(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Drop = z.output<typeof DropSchema>;

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
  image_url: ImageUrl.nullable().optional(),
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
    summary: "Schedule the drop: a future date, which schedules the publishing of every product of the drop",
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
