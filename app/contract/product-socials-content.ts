/**
 * Product socials content (SPEC §7 "Product socials content"; issue 19): posts about a product for
 * social platforms (caption, hashtags, images), drafted by hand or generated from the product
 * (language-model port: caption and hashtags per platform; image-AI port: a square 1:1 and a
 * vertical 9:16 image from the product's image), edited, scheduled and marked published.
 *
 * Who: a VENDOR user linked to a vendor sees and edits its own vendor's content only (another
 * vendor's answers 404, as an unknown id does); admins with `catalog.edit` see and edit all;
 * other admins and shoppers get 403.
 *
 * States: draft → scheduled (needs a future `scheduled_at`) → published; scheduled → draft (taken
 * off the schedule); draft → published (posted at once). Published content is final: it can only
 * be deleted. `approved` and `archived` exist in the database enum from the first schema and are
 * never set by this API.
 */
import { z } from "zod";
import { endpoint, type Access } from "./endpoint";
import { IsoDate, Ok, RecordId as Id, RecordIdParams as IdParams } from "./common";
import { Hashtag, SOCIAL_PLATFORMS, SocialPlatform } from "./social-platforms";

export { SOCIAL_PLATFORMS, SocialPlatform };
export const socialsAccess = { kind: "role", roles: ["ADMIN", "VENDOR"], permission: "catalog.edit" } as const satisfies Access;

export const SOCIALS_PAGE_SIZE = 25;
export const SOCIALS_MAX_MEDIA = 10;

export const SOCIALS_STATUSES = ["draft", "scheduled", "published"] as const;
export const SocialsStatusSchema = z.enum(SOCIALS_STATUSES);
export type SocialsStatus = z.output<typeof SocialsStatusSchema>;
/** Every value the column can hold (see the file comment). */
const StoredStatus = z.enum(["draft", "scheduled", "published", "approved", "archived"]);

/** Allowed moves; anything else is refused with 409. */
export const SOCIALS_TRANSITIONS: Record<SocialsStatus, readonly SocialsStatus[]> = {
  draft: ["scheduled", "published"],
  scheduled: ["draft", "published"],
  published: [],
};

export const SocialsMessages = {
  NOT_FOUND: "Socials content not found",
  COMPANION_NOT_FOUND: "Product companion not found",
  VENDOR_FORBIDDEN: "Vendors can only list their own socials content",
  PUBLISHED_FINAL: "Published socials content is final: it can only be deleted",
  NEEDS_SCHEDULE: "scheduled_at is required to schedule socials content",
  SCHEDULE_IN_PAST: "scheduled_at must be in the future",
  NO_PRODUCT_IMAGE: "The product has no image to make social images from",
  transition: (from: string, to: string) => `Socials content cannot go from ${from} to ${to}`,
} as const;


/** Our stored images (/uploads/…) or http(s) URLs. */
const MediaUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((v) => v.startsWith("/uploads/") || /^https?:\/\/[^\s]+$/i.test(v), "must be an http(s) URL or one of our /uploads/ URLs");

const Caption = z.string().trim().min(1, "A caption is required").max(5000, "must be at most 5000 characters");
/** Hashtags with or without '#', stored without it, duplicates dropped. */
const Hashtags = z
  .array(z.string().trim().transform((h) => h.replace(/^#+/, "")).pipe(Hashtag))
  .max(30, "at most 30 hashtags")
  .transform((hs) => [...new Set(hs)]);
const ScheduledAt = z.iso.datetime({ offset: true, message: "must be an ISO date-time" }).transform((v) => new Date(v));

export const SocialsContentSchema = z.object({
  id: z.string(),
  companion_id: z.string(),
  product: z.object({ id: z.string(), title: z.string(), handle: z.string(), featuredImageUrl: z.string().nullable() }),
  vendor_id: z.string().nullable(),
  store_id: z.string().nullable(),
  platform: z.string(),
  caption: z.string(),
  hashtags: z.array(z.string()),
  media_urls: z.array(z.string()),
  status: StoredStatus,
  /** The moves the content can make now (empty once published). */
  next_statuses: z.array(SocialsStatusSchema),
  scheduled_at: IsoDate.nullable(),
  published_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type SocialsContent = z.output<typeof SocialsContentSchema>;

export const SocialsCreateBody = z.object({
  companion_id: Id,
  platform: SocialPlatform,
  caption: Caption,
  hashtags: Hashtags.default([]),
  media_urls: z.array(MediaUrl).max(SOCIALS_MAX_MEDIA, `at most ${SOCIALS_MAX_MEDIA} images`).default([]),
});

export const SocialsUpdateBody = z
  .object({
    platform: SocialPlatform.optional(),
    caption: Caption.optional(),
    hashtags: Hashtags.optional(),
    media_urls: z.array(MediaUrl).max(SOCIALS_MAX_MEDIA, `at most ${SOCIALS_MAX_MEDIA} images`).optional(),
    status: SocialsStatusSchema.optional(),
    scheduled_at: ScheduledAt.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Nothing to change");

export const SocialsGenerateBody = z.object({
  companion_id: Id,
  platforms: z
    .array(SocialPlatform)
    .min(1, "Choose at least one platform")
    .transform((ps) => [...new Set(ps)])
    .default([...SOCIAL_PLATFORMS]),
  /** false: captions and hashtags only (no image-AI work). */
  images: z.boolean().default(true),
});

export const SocialsVendorQuery = z.object({
  vendorId: Id.optional().describe("admins: one vendor's content (vendors: their own id or nothing)"),
  storeId: Id.optional(),
  status: SocialsStatusSchema.optional(),
  platform: SocialPlatform.optional(),
  cursor: z.string().trim().min(1).max(500).optional(),
  limit: z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(SOCIALS_PAGE_SIZE),
});

export const SocialsPageSchema = z.object({ items: z.array(SocialsContentSchema), nextCursor: z.string().nullable() });

export const productSocialsContentEndpoints = {
  productSocialsContentByCompanion: endpoint({
    method: "GET",
    path: "/product-socials-content/companion/{id}",
    summary: "The socials content of one product companion, newest first (vendors: their own products only, else 404)",
    tags: ["Product socials content"],
    access: socialsAccess,
    params: IdParams,
    response: z.object({ items: z.array(SocialsContentSchema) }),
  }),
  productSocialsContentVendor: endpoint({
    method: "GET",
    path: "/product-socials-content/vendor",
    summary:
      "Socials content newest first, by vendorId and storeId (status, platform filters; cursor paging). Vendors see their own (another vendorId: 403); admins any vendor's or all",
    tags: ["Product socials content"],
    access: socialsAccess,
    query: SocialsVendorQuery,
    response: SocialsPageSchema,
  }),
  productSocialsContentGet: endpoint({
    method: "GET",
    path: "/product-socials-content/{id}",
    summary: "One piece of socials content; 404 for another vendor's",
    tags: ["Product socials content"],
    access: socialsAccess,
    params: IdParams,
    response: SocialsContentSchema,
  }),
  productSocialsContentCreate: endpoint({
    method: "POST",
    path: "/product-socials-content",
    summary: "Write a draft by hand for a product companion (platform, caption, hashtags, images); vendors for their own products only",
    tags: ["Product socials content"],
    access: socialsAccess,
    body: SocialsCreateBody,
    response: SocialsContentSchema,
    status: 201,
  }),
  productSocialsContentGenerate: endpoint({
    method: "POST",
    path: "/product-socials-content/generate",
    summary:
      "Generate one draft per platform from the product: caption and hashtags from the language model, a square (1:1) and a vertical (9:16) image from the product's image through the image-AI port. When the images cannot be made the drafts are still written, with the product's image, and media_error says why",
    tags: ["Product socials content"],
    access: socialsAccess,
    // Image work on request (two product shots): the per-user image budget of the vision calls.
    rateLimit: "image",
    body: SocialsGenerateBody,
    response: z.object({ items: z.array(SocialsContentSchema), media_error: z.string().nullable() }),
    status: 201,
  }),
  productSocialsContentUpdate: endpoint({
    method: "PATCH",
    path: "/product-socials-content/{id}",
    summary:
      "Edit caption, hashtags, images, platform or schedule, and move the status: draft → scheduled (a future scheduled_at) → published, scheduled → draft, draft → published; published content is final (409)",
    tags: ["Product socials content"],
    access: socialsAccess,
    params: IdParams,
    body: SocialsUpdateBody,
    response: SocialsContentSchema,
  }),
  productSocialsContentDelete: endpoint({
    method: "DELETE",
    path: "/product-socials-content/{id}",
    summary: "Delete socials content (any status)",
    tags: ["Product socials content"],
    access: socialsAccess,
    params: IdParams,
    response: Ok,
  }),
};
