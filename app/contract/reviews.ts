/**
 * Product reviews (SPEC §3 Review and rating summaries, §4 moderation, §5 author name and review by
 * token, §6 reviewable orders for non-guest users, §7 "Reviews", §8 fallbacks, §9 reviewable orders).
 *
 * - Reads are public and show approved reviews only, newest first, with `skip`/`take` (+ `total`);
 *   an unknown product or store answers an empty list with total 0 (§8). Summaries (average,
 *   count, distribution 1..5) come from `review_rating_summaries`, kept in the same transaction as
 *   every change of a review's approved status; no approved review → `null` (§8).
 * - Writing: rating 1–5, optional title, text, up to 5 photos (uploaded through
 *   `POST /product-reviews/images`, or as files in a multipart body). The author name follows §5;
 *   `verified_buyer` is set when the product is in one of the author's orders; one review per
 *   (order, product). New reviews are pending until a moderator publishes them.
 * - Review by token: the review-request email sent once an order is delivered carries a signed
 *   token (only its hash is stored; valid 60 days). `GET /product-reviews/reviewable?token=` lists
 *   what it can review; `POST /product-reviews/create-review/by-token` writes a verified review.
 * - Moderation (`reviews.moderate`): list by status, publish, reject, delete, create, update, add
 *   and remove images. Allowed transitions: app/lib/review-moderation.ts (others → 409). Publishing
 *   or rejecting an unknown review answers `null` and deleting one answers `false` (§8).
 */
import { z } from "zod";
import { access, endpoint, MULTIPART_ROOM_BYTES } from "./endpoint";
import { IdParams, IsoDate, Ok, intParam } from "./common";
import { Messages } from "./messages";
import { ProductIdParams } from "./products";
import { toProductGid } from "../lib/gid";
import { MODERATION_ACTIONS, MODERATION_STATUSES } from "../lib/review-moderation";

/** Page size of review lists unless asked otherwise, and the largest page. */
export const REVIEWS_DEFAULT_TAKE = 10;
export const REVIEWS_MAX_TAKE = 100;
/** Photos per review. */
export const REVIEW_MAX_IMAGES = 5;
export const REVIEW_TITLE_MAX = 150;
export const REVIEW_BODY_MAX = 5000;
/** Review-request links stay valid this long. */
export const REVIEW_INVITATION_TTL_DAYS = 60;
/** SPEC §9: reviewable orders are stale after 5 minutes (client cache). */
export const REVIEWABLE_ORDERS_STALE_MS = 5 * 60_000;

export const ReviewStatusSchema = z.enum(["pending", "approved", "published", "rejected"]);
export const ModerationStatusSchema = z.enum(MODERATION_STATUSES);
export const ModerationActionSchema = z.enum(MODERATION_ACTIONS);

export const RatingDistributionSchema = z.object({
  "1": z.number().int(),
  "2": z.number().int(),
  "3": z.number().int(),
  "4": z.number().int(),
  "5": z.number().int(),
});
export type RatingDistribution = z.output<typeof RatingDistributionSchema>;

/** Approved reviews of a product or a store: average (2 decimals), count, stars → count. */
export const RatingSummarySchema = z.object({
  average: z.number(),
  count: z.number().int(),
  distribution: RatingDistributionSchema,
});
export type RatingSummary = z.output<typeof RatingSummarySchema>;

export const ReviewProductSchema = z.object({ id: z.string(), title: z.string(), handle: z.string(), image_url: z.string().nullable() });

/** A review as shoppers see it (no email, no user id). */
export const PublicReviewSchema = z.object({
  id: z.string(),
  rating: z.number().int(),
  title: z.string().nullable(),
  body: z.string(),
  name: z.string(),
  images: z.array(z.string()),
  verified_buyer: z.boolean(),
  product_id: z.string(),
  store_id: z.string().nullable(),
  product: ReviewProductSchema.nullable(),
  created_at: IsoDate,
  published_at: IsoDate.nullable(),
});
export type PublicReview = z.output<typeof PublicReviewSchema>;

/** The author's own review, just written: with its moderation status. */
export const OwnReviewSchema = PublicReviewSchema.extend({ status: ReviewStatusSchema });
export type OwnReview = z.output<typeof OwnReviewSchema>;

/** A review in the moderation screens. */
export const AdminReviewSchema = OwnReviewSchema.extend({
  email: z.string().nullable(),
  user_id: z.string().nullable(),
  shopify_order_id: z.string().nullable(),
  updated_at: IsoDate,
  /** What a moderator may do next (app/lib/review-moderation.ts). */
  allowed_actions: z.array(ModerationActionSchema),
});
export type AdminReview = z.output<typeof AdminReviewSchema>;

export const ReviewListSchema = z.object({
  reviews: z.array(PublicReviewSchema),
  total: z.number().int(),
  skip: z.number().int(),
  take: z.number().int(),
});

const optionalProductId = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v && v !== "undefined" && v !== "null" ? toProductGid(v) : undefined));

export const ReviewListQuery = z.object({
  skip: intParam(0, 0, 1_000_000),
  take: intParam(REVIEWS_DEFAULT_TAKE, 1, REVIEWS_MAX_TAKE),
  /** Leave this product's reviews out (e.g. "more from this store" under a product). */
  excludeProductId: optionalProductId,
});

const StoreIdParams = z.object({ id: z.string().trim().min(1) });

// ---------------------------------------------------------------------------------------------
// Write bodies

const Rating = z.coerce
  .number()
  .int("must be a whole number from 1 to 5")
  .min(1, "must be a whole number from 1 to 5")
  .max(5, "must be a whole number from 1 to 5");
const Title = z
  .string()
  .trim()
  .max(REVIEW_TITLE_MAX, `must be at most ${REVIEW_TITLE_MAX} characters`)
  .nullish()
  .transform((v) => (v ? v : null));
const Body = z
  .string()
  .trim()
  .min(1, "write a few words about the product")
  .max(REVIEW_BODY_MAX, `must be at most ${REVIEW_BODY_MAX} characters`);
const ProductId = z
  .string({ error: Messages.NO_PRODUCT_ID })
  .trim()
  .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID)
  .transform(toProductGid);
/** A photo uploaded through POST /product-reviews/images (its /uploads/… URL). */
export const ReviewImageUrl = z.string().trim().min(1).max(2048);
/** In a multipart body a photo may also be a file (stored like an upload). */
const ImageEntry = z.union([ReviewImageUrl, z.instanceof(Blob)]);
const Images = z.array(ImageEntry).max(REVIEW_MAX_IMAGES, `at most ${REVIEW_MAX_IMAGES} photos`).default([]);

const str = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : undefined);

/** FormData → plain object: text fields by name, `images` (files or URLs, repeated). */
function formToObject(v: unknown, fields: readonly string[]): unknown {
  if (!(v instanceof FormData)) return v;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = str(v.get(f));
    if (value !== undefined) out[f] = value;
  }
  out.images = [...v.getAll("images"), ...v.getAll("images[]")].filter((x) => (typeof x === "string" ? x.trim() !== "" : x instanceof Blob && x.size > 0));
  return out;
}

/** A JSON body, or the same fields as multipart/form-data (photos as `images` files). */
function jsonOrForm<T extends z.ZodObject>(schema: T, fields: readonly string[]) {
  return z.preprocess((v) => formToObject(v, fields), schema) as unknown as z.ZodType<z.output<T>, z.input<T> | FormData>;
}

const ReviewFields = z.object({ product_id: ProductId, rating: Rating, title: Title, body: Body, images: Images });

export const ReviewCreateObject = ReviewFields.extend({
  /** One of the author's orders with this product (else the newest one not reviewed yet, if any). */
  order_id: z.string().trim().min(1).optional(),
});
export const ReviewCreateBody = jsonOrForm(ReviewCreateObject, ["product_id", "rating", "title", "body", "order_id"]);

export const ReviewByTokenObject = ReviewFields.extend({ token: z.string().trim().min(1, "must not be empty") });
export const ReviewByTokenBody = jsonOrForm(ReviewByTokenObject, ["token", "product_id", "rating", "title", "body"]);

/** Multipart: the photo in `image` (or `file`). */
export const ReviewImageUploadBody = z
  .instanceof(FormData, { message: 'Send the photo as multipart/form-data in an "image" field' })
  .transform((fd, ctx): unknown => {
    const file = fd.get("image") ?? fd.get("file");
    if (!(file instanceof Blob)) {
      ctx.issues.push({ code: "custom", message: 'image is required: attach the photo in an "image" field', input: file });
      return z.NEVER;
    }
    return { image: file };
  })
  .pipe(z.object({ image: z.instanceof(Blob) }));

export const UploadedReviewImageSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() });

const Name = z.string().trim().min(1, "must not be empty").max(100);
const Email = z.string().trim().toLowerCase().max(254).check(z.email("Enter a valid email address"));

export const ReviewAdminCreateObject = z.object({
  product_id: ProductId,
  rating: Rating,
  title: Title,
  body: Body,
  /** The name shown; without it the §5 rule applies to `email` ("Anonymous" without either). */
  name: Name.optional(),
  email: Email.nullish(),
  images: z.array(ReviewImageUrl).max(REVIEW_MAX_IMAGES, `at most ${REVIEW_MAX_IMAGES} photos`).default([]),
  /** Publish at once (pending → approved), else the review waits in the pending tab. */
  publish: z.boolean().default(false),
});

export const ReviewAdminUpdateObject = z
  .object({ rating: Rating.optional(), title: Title.optional(), body: Body.optional(), name: Name.optional(), email: Email.nullish() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Give rating, title, body, name or email to update");

/** Add a photo: a file in `image` (multipart) or the URL of an uploaded review photo. */
export const ReviewAdminImageBody = z.preprocess(
  (v) => (v instanceof FormData ? { image: v.get("image") ?? v.get("file") ?? undefined, url: str(v.get("url")) } : v),
  z
    .object({ image: z.instanceof(Blob).optional(), url: ReviewImageUrl.optional() })
    .refine((b) => !!b.image || !!b.url, 'Attach the photo in an "image" field, or give the url of an uploaded photo'),
) as unknown as z.ZodType<{ image?: Blob; url?: string }, { url?: string } | FormData>;

export const AdminReviewListSchema = z.object({
  reviews: z.array(AdminReviewSchema),
  total: z.number().int(),
  skip: z.number().int(),
  take: z.number().int(),
  /** Reviews per status (for the tabs), whatever the status filter. */
  counts: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int(), all: z.number().int() }),
});

// ---------------------------------------------------------------------------------------------
// Review by token, reviewable orders

export const ReviewableItemSchema = z.object({
  product_id: z.string(),
  title: z.string(),
  handle: z.string(),
  image_url: z.string().nullable(),
  variant_title: z.string().nullable(),
});

export const ReviewableByTokenSchema = z.object({
  order: z.object({ id: z.string(), name: z.string(), created_at: IsoDate }),
  /** The name the reviews will carry (§5). */
  author_name: z.string(),
  expires_at: IsoDate,
  /** Delivered products of the order, each with whether it was reviewed already. */
  products: z.array(ReviewableItemSchema.extend({ reviewed: z.boolean() })),
  /** With `product_id`: whether that product can be reviewed with this token; else whether any can. */
  reviewable: z.boolean(),
});

export const ReviewableOrdersSchema = z.object({
  orders: z.array(
    z.object({
      order_id: z.string(),
      name: z.string(),
      created_at: IsoDate,
      items: z.array(ReviewableItemSchema),
    }),
  ),
  total_items: z.number().int(),
});

export const ReviewableDismissBody = z.object({
  order_id: z.string().trim().min(1, "must not be empty"),
  product_id: ProductId,
});

// ---------------------------------------------------------------------------------------------

const ReviewIdParams = IdParams;
const adminQuery = z.object({
  status: z.enum(["pending", "approved", "rejected", "all"]).default("all"),
  skip: intParam(0, 0, 1_000_000),
  take: intParam(20, 1, REVIEWS_MAX_TAKE),
  product_id: optionalProductId,
  store_id: z.string().trim().min(1).optional(),
  /** Text in the title, body, name or email. */
  q: z.string().trim().max(200).optional(),
});
export type AdminReviewListQuery = z.output<typeof adminQuery>;

export const reviewsEndpoints = {
  reviewsByProduct: endpoint({
    method: "GET",
    path: "/product-reviews/product/{id}",
    summary: "Approved reviews of a product, newest first (skip, take, excludeProductId); an unknown product answers an empty list",
    tags: ["Reviews"],
    access: access.public,
    params: ProductIdParams,
    query: ReviewListQuery,
    response: ReviewListSchema,
  }),
  reviewsByStore: endpoint({
    method: "GET",
    path: "/product-reviews/store/{id}",
    summary: "Approved reviews of a store's products, newest first (skip, take, excludeProductId); an unknown store answers an empty list",
    tags: ["Reviews"],
    access: access.public,
    params: StoreIdParams,
    query: ReviewListQuery,
    response: ReviewListSchema,
  }),
  reviewsProductSummary: endpoint({
    method: "GET",
    path: "/product-reviews/product/{id}/summary",
    summary: "Rating summary of a product's approved reviews (average, count, distribution 1..5), or null when it has none",
    tags: ["Reviews"],
    access: access.public,
    params: ProductIdParams,
    response: RatingSummarySchema.nullable(),
  }),
  reviewsStoreSummary: endpoint({
    method: "GET",
    path: "/product-reviews/store/{id}/summary",
    summary: "Rating summary of a store's approved reviews, or null when it has none",
    tags: ["Reviews"],
    access: access.public,
    params: StoreIdParams,
    response: RatingSummarySchema.nullable(),
  }),
  reviewsCreate: endpoint({
    method: "POST",
    path: "/product-reviews",
    summary:
      "Write a review (JSON with uploaded photo URLs, or multipart/form-data with photos as `images` files): rating 1–5, title, text; pending until published; verified buyer when the product is in one of your orders",
    tags: ["Reviews"],
    access: access.user,
    body: ReviewCreateBody,
    // Up to REVIEW_MAX_IMAGES photo files of 10 MB each, plus the text fields.
    maxBodyBytes: REVIEW_MAX_IMAGES * 10 * 1024 * 1024 + MULTIPART_ROOM_BYTES,
    response: OwnReviewSchema,
    status: 201,
  }),
  reviewsUploadImage: endpoint({
    method: "POST",
    path: "/product-reviews/images",
    summary: "Upload a review photo (multipart `image`: JPEG, PNG or WebP, at most 10 MB and 40 megapixels); stored as a .jpg under images/reviews/",
    tags: ["Reviews"],
    access: access.user,
    body: ReviewImageUploadBody,
    maxBodyBytes: 10 * 1024 * 1024 + MULTIPART_ROOM_BYTES,
    multipart: { image: { kind: "file", required: true, description: "JPEG, PNG or WebP, at most 10 MB and 40 megapixels (compress to 1024 px first)" } },
    response: UploadedReviewImageSchema,
    status: 201,
  }),
  reviewsReviewable: endpoint({
    method: "GET",
    path: "/product-reviews/reviewable",
    summary: "What a review-request token can review: the order's delivered products (and, with product_id, whether that one is reviewable)",
    tags: ["Reviews"],
    access: access.public,
    query: z.object({ token: z.string().trim().min(1, "must not be empty"), product_id: optionalProductId }),
    response: ReviewableByTokenSchema,
  }),
  reviewsCreateByToken: endpoint({
    method: "POST",
    path: "/product-reviews/create-review/by-token",
    summary: "Write a review with the token of a review-request email (verified buyer; one review per order and product)",
    tags: ["Reviews"],
    access: access.public,
    body: ReviewByTokenBody,
    response: OwnReviewSchema,
    status: 201,
  }),
  reviewableOrders: endpoint({
    method: "GET",
    path: "/users/reviewable-orders",
    summary: "Your delivered order items not reviewed or dismissed yet, newest order first (full users only: guests and leads get 403)",
    tags: ["Reviews"],
    access: access.fullUser,
    response: ReviewableOrdersSchema,
  }),
  reviewableOrdersDismiss: endpoint({
    method: "POST",
    path: "/users/reviewable-orders/dismiss",
    summary: "Stop asking you to review a product of one of your orders (full users only: guests and leads get 403)",
    tags: ["Reviews"],
    access: access.fullUser,
    body: ReviewableDismissBody,
    response: Ok,
  }),

  // --- Moderation ------------------------------------------------------------------------------
  reviewsAdminList: endpoint({
    method: "GET",
    path: "/product-reviews/admin",
    summary: "Reviews by status (pending, approved, rejected, all), newest first, with counts per status",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    query: adminQuery,
    response: AdminReviewListSchema,
  }),
  reviewsAdminGet: endpoint({
    method: "GET",
    path: "/product-reviews/admin/{id}",
    summary: "A review with its moderation details",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    response: AdminReviewSchema,
  }),
  reviewsAdminCreate: endpoint({
    method: "POST",
    path: "/product-reviews/admin",
    summary: "Create a review as an admin (pending, or published at once with publish: true)",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    body: ReviewAdminCreateObject,
    response: AdminReviewSchema,
    status: 201,
  }),
  reviewsAdminUpdate: endpoint({
    method: "PATCH",
    path: "/product-reviews/admin/{id}",
    summary: "Edit a review's rating, title, text, name or email (its status changes only through publish, reject and delete)",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    body: ReviewAdminUpdateObject,
    response: AdminReviewSchema,
  }),
  reviewsAdminPublish: endpoint({
    method: "POST",
    path: "/product-reviews/admin/{id}/publish",
    summary: "Publish a pending review (pending → approved); other statuses are refused with 409; an unknown review answers null",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    response: AdminReviewSchema.nullable(),
  }),
  reviewsAdminReject: endpoint({
    method: "POST",
    path: "/product-reviews/admin/{id}/reject",
    summary: "Reject a pending review (pending → rejected); other statuses are refused with 409; an unknown review answers null",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    response: AdminReviewSchema.nullable(),
  }),
  reviewsAdminDelete: endpoint({
    method: "DELETE",
    path: "/product-reviews/admin/{id}",
    summary: "Delete a review in any status (and its uploaded photos); answers false for an unknown review",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    response: z.boolean(),
  }),
  reviewsAdminAddImage: endpoint({
    method: "POST",
    path: "/product-reviews/admin/{id}/images",
    summary: `Add a photo to a review (multipart \`image\`, or JSON {url} of an uploaded review photo); at most ${REVIEW_MAX_IMAGES}`,
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    body: ReviewAdminImageBody,
    response: AdminReviewSchema,
  }),
  reviewsAdminRemoveImage: endpoint({
    method: "DELETE",
    path: "/product-reviews/admin/{id}/images",
    summary: "Remove a photo (by its url) from a review",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    query: z.object({ url: z.string().trim().min(1, "must not be empty") }),
    response: AdminReviewSchema,
  }),
  reviewsAdminSendRequest: endpoint({
    method: "POST",
    path: "/product-reviews/admin/orders/{id}/request-reviews",
    summary: "Send (again) the review-request email of a delivered order: queues the reviews.request job",
    tags: ["Reviews (admin)"],
    access: access.admin("reviews.moderate"),
    params: ReviewIdParams,
    response: z.object({ jobId: z.string(), orderId: z.string() }),
    status: 202,
  }),
};
