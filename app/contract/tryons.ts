/**
 * Virtual try-on (SPEC §3 Try-on, SavedTryOn, Virtual try-on request; §4/§5 saved try-ons; §7
 * Try-ons, Virtual try-on, Clones GET/DELETE /clones/{id}/tryons; §9 page sizes).
 *
 * A try-on puts one product (its garment image: the companion's flat image, else the product's
 * first image) onto one clone (the caller's own, or a public house model) through the image-AI
 * port's `vton-flux` operation. It runs in the background: status queued → processing →
 * completed | failed, progress 0–100; the storefront polls GET /try-ons/{id} (SPEC §9: try-on
 * details stale 5 minutes, kept 30, no retry).
 *
 * Who sees what: every try-on, saved try-on and clone try-on list is the caller's own; another
 * shopper's try-on answers 404 (as a missing one: existence is not revealed). Guests may try on
 * (access.user); saving a try-on requires an authenticated user — a caller without a valid token
 * gets 401 "User is not authenticated" (SPEC §5, §8), exactly like saved products.
 *
 * Admin endpoints (permission ai.train) prepare products for try-on: the flat image (garment cut
 * out on a plain background, made by the image-AI port in the background), the garment mask
 * (derived from the flat image), and the companion's try-on flag.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, TargetGender, intParam } from "./common";
import { Messages } from "./messages";
import { ImageSchema, ProductCardSchema } from "./products";
import { toProductGid } from "../lib/gid";

/** SPEC §9: eligible products limit 40 offset 0; user try-ons skip 0 take 10; saved try-ons 20. */
export const TRYONS_ELIGIBLE_LIMIT = 40;
export const TRYONS_USER_TAKE = 10;
export const SAVED_TRYONS_PAGE = 20;
export const TRYONS_BATCH_MAX = 50;
export const TRYONS_CLONE_TAKE = 20;
/** Default prompt strength of a try-on (the port's default). */
export const TRYONS_DEFAULT_PROMPT_STRENGTH = 0.85;

export const TryOnStatusSchema = z.enum(["queued", "processing", "completed", "failed"]);
export type TryOnStatus = z.infer<typeof TryOnStatusSchema>;

/** The port's garment categories. */
export const TryOnCategorySchema = z.enum(["tops", "bottoms", "one-pieces"]);
export type TryOnCategory = z.infer<typeof TryOnCategorySchema>;

const ProductIdField = z
  .string({ error: Messages.NO_PRODUCT_ID })
  .trim()
  .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID)
  .transform(toProductGid);

const CloneIdField = z
  .string({ error: "ai_clone_id is required" })
  .trim()
  .min(1, "ai_clone_id is required")
  .max(200);

const TryOnIdField = z.string({ error: "tryon_id is required" }).trim().min(1, "tryon_id is required").max(200);

export const GeneratedImageSchema = z.object({
  id: z.string(),
  image_url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});

export const TryOnProductSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  productType: z.string(),
  featuredImage: ImageSchema.nullable(),
});

export const TryOnCloneSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  profileImageUrl: z.string().nullable(),
  isPublic: z.boolean(),
});

/** SPEC §3 Try-on: id, user_id, generated_images [{image_url}], created_at — plus its state and what it shows. */
export const TryOnSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  clone_id: z.string(),
  product_id: z.string(),
  status: TryOnStatusSchema,
  /** 0–100. */
  progress: z.number().int(),
  /** Why it failed (for the shopper), null otherwise. */
  error: z.string().nullable(),
  enable_add_details: z.boolean(),
  prompt_strength: z.number().nullable(),
  /** Empty until completed; the storefront shows a placeholder when empty (SPEC §9). */
  generated_images: z.array(GeneratedImageSchema),
  created_at: IsoDate,
  updated_at: IsoDate,
  completed_at: IsoDate.nullable(),
  /** The product tried on (title, image for lists). */
  product: TryOnProductSummarySchema.nullable(),
  clone: TryOnCloneSummarySchema.nullable(),
  /** The image request behind the latest attempt (GET /fal/requests/{id}); on single try-ons only, null elsewhere. */
  request_id: z.string().nullable().optional(),
});
export type TryOnView = z.input<typeof TryOnSchema>;

/** SPEC §3 Virtual try-on request. */
export const VtonRequestSchema = z.object({
  ai_clone_id: CloneIdField,
  shopify_product_id: ProductIdField,
  enable_add_details: z.boolean().default(true),
  prompt_strength: z.number().min(0, "prompt_strength is between 0 and 1").max(1, "prompt_strength is between 0 and 1").optional(),
});
export type VtonRequest = z.output<typeof VtonRequestSchema>;

/** A product offered for try-on: its card plus the garment image and category the try-on will use. */
export const EligibleProductSchema = ProductCardSchema.extend({
  garment_image_url: z.string(),
  tryon_category: TryOnCategorySchema,
});

/** A product's try-on preparation (admin). */
export const TryOnProductStateSchema = z.object({
  product_id: z.string(),
  tryon_active: z.boolean(),
  flat_image_url: z.string().nullable(),
  mask_image_url: z.string().nullable(),
  /** What a try-on would use now: the flat image, else the first product image; null when none. */
  garment_image_url: z.string().nullable(),
  tryon_category: TryOnCategorySchema,
});
export type TryOnProductState = z.input<typeof TryOnProductStateSchema>;

export const BasicCloneSchema = z.object({
  id: z.string(),
  name: z.string(),
  gender: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  /** A photo of the model (the first base image), for cards without a profile image. */
  previewImageUrl: z.string().nullable(),
  isPublic: z.literal(true),
});

export const SavedTryOnItemSchema = z.object({
  tryon_id: z.string(),
  createdAt: IsoDate,
  tryon: TryOnSchema,
});

/** `ids=a,b` or `ids=a&ids=b`: trimmed, empty entries dropped, at most `max`. */
const IdList = (max: number) =>
  z.preprocess(
    (v) =>
      v === undefined
        ? []
        : (Array.isArray(v) ? v : [v])
            .flatMap((x) => String(x).split(","))
            .map((x) => x.trim())
            .filter(Boolean),
    z.array(z.string()).max(max, `At most ${max} ids at a time`),
  );

const ImageUrlField = z.string().trim().min(1, "imageUrl is required").max(2048);

export const tryonsEndpoints = {
  tryonsEligibleProducts: endpoint({
    method: "GET",
    path: "/try-ons/eligible-products",
    summary:
      "Products that can be tried on (try-on active on the companion, a garment image: the flat image or the first product image), shown to shoppers only; newest first (limit 40, offset 0)",
    tags: ["Try-ons"],
    access: access.public,
    query: z.object({
      limit: intParam(TRYONS_ELIGIBLE_LIMIT, 1, 100),
      offset: intParam(0, 0, 100_000),
      /** menswear/womenswear also include products for both. */
      target_gender: TargetGender.optional(),
    }),
    response: z.object({ products: z.array(EligibleProductSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
  }),
  tryonsBasicClones: endpoint({
    method: "GET",
    path: "/try-ons/basic-clones",
    summary: "Public house models anyone signed in can try clothes on (ready ones only), newest first",
    tags: ["Try-ons"],
    access: access.public,
    query: z.object({ gender: z.string().trim().max(40).optional(), limit: intParam(20, 1, 100) }),
    response: z.object({ clones: z.array(BasicCloneSchema) }),
  }),
  tryonsCreate: endpoint({
    method: "POST",
    path: "/try-ons",
    summary:
      "Start a try-on of a product on a clone (own or public; 409 while the clone is not ready, 422 when the product cannot be tried on, 501 when the image provider cannot do try-ons); answered queued",
    tags: ["Try-ons"],
    access: access.user,
    body: VtonRequestSchema,
    response: TryOnSchema,
    status: 201,
  }),
  tryonsUser: endpoint({
    method: "GET",
    path: "/try-ons/user",
    summary: "The caller's try-ons, newest first (skip 0, take 10)",
    tags: ["Try-ons"],
    access: access.user,
    query: z.object({ skip: intParam(0, 0, 100_000), take: intParam(TRYONS_USER_TAKE, 1, 100) }),
    response: z.object({ tryons: z.array(TryOnSchema), total: z.number().int() }),
  }),
  tryonsBatch: endpoint({
    method: "POST",
    path: "/try-ons/batch",
    summary: "Several of the caller's try-ons by id, in the order asked (others' and unknown ids are left out; at most 50)",
    tags: ["Try-ons"],
    access: access.user,
    body: z.object({ ids: z.array(z.string().trim().min(1).max(200)).max(TRYONS_BATCH_MAX, `At most ${TRYONS_BATCH_MAX} ids at a time`) }),
    response: z.array(TryOnSchema),
  }),
  tryonsGet: endpoint({
    method: "GET",
    path: "/try-ons/{id}",
    summary: "One of the caller's try-ons (404 when missing or someone else's)",
    tags: ["Try-ons"],
    access: access.user,
    params: z.object({ id: z.string().trim().min(1) }),
    response: TryOnSchema,
  }),
  tryonsProcessFlatImage: endpoint({
    method: "POST",
    path: "/try-ons/process-flat-image",
    summary:
      "Make the product's flat image (the garment cut out on a plain white background) from its first image or `image_url`, in the background; stored on the companion when done (202 with the image request id)",
    tags: ["Try-ons admin"],
    access: access.admin("ai.train"),
    body: z.object({ product_id: ProductIdField, image_url: z.string().trim().min(1).max(2048).optional() }),
    response: TryOnProductStateSchema.extend({ request_id: z.string(), request_status: z.string() }),
    status: 202,
  }),
  tryonsProcessMaskImage: endpoint({
    method: "POST",
    path: "/try-ons/process-mask-image",
    summary: "Make the garment mask (white garment on black) from the product's flat image and store it on the companion (409 without a flat image)",
    tags: ["Try-ons admin"],
    access: access.admin("ai.train"),
    body: z.object({ product_id: ProductIdField }),
    response: TryOnProductStateSchema,
  }),
  tryonsRemoveImageType: endpoint({
    method: "DELETE",
    path: "/try-ons/remove-image-type",
    summary: "Clear the product's flat or mask image (product_id and type, in the body or the query)",
    tags: ["Try-ons admin"],
    access: access.admin("ai.train"),
    query: z.object({ product_id: ProductIdField.optional(), type: z.enum(["flat", "mask"]).optional() }),
    body: z.object({ product_id: ProductIdField.optional(), type: z.enum(["flat", "mask"]).optional() }),
    response: TryOnProductStateSchema,
  }),
  tryonsCompanionStatus: endpoint({
    method: "PATCH",
    path: "/try-ons/companion-status",
    summary: "Turn try-on on or off for a product (creates its companion when missing; turning on needs a garment image, 422 otherwise)",
    tags: ["Try-ons admin"],
    access: access.admin("ai.train"),
    body: z.object({ product_id: ProductIdField, tryon_active: z.boolean({ error: "tryon_active must be true or false" }) }),
    response: TryOnProductStateSchema,
  }),

  vtonGetOrGenerate: endpoint({
    method: "POST",
    path: "/vton/get-or-generate",
    summary:
      "The caller's try-on for these exact inputs (clone, product, enable_add_details, prompt_strength) unless it failed, else a new one (queued)",
    tags: ["Virtual try-on"],
    access: access.user,
    body: VtonRequestSchema,
    response: TryOnSchema,
  }),
  vtonGenerate: endpoint({
    method: "POST",
    path: "/vton/generate",
    summary: "Always start a new try-on for these inputs (queued)",
    tags: ["Virtual try-on"],
    access: access.user,
    body: VtonRequestSchema,
    response: TryOnSchema,
    status: 201,
  }),
  vtonGet: endpoint({
    method: "GET",
    path: "/vton",
    summary: "The caller's latest try-on of this product on this clone; null when there is none",
    tags: ["Virtual try-on"],
    access: access.user,
    query: z.object({ ai_clone_id: CloneIdField, shopify_product_id: ProductIdField }),
    response: TryOnSchema.nullable(),
  }),

  tryonsCloneList: endpoint({
    method: "GET",
    path: "/clones/{id}/tryons",
    summary: "The caller's try-ons on one clone, newest first (404 when the clone is neither the caller's nor public)",
    tags: ["Try-ons"],
    access: access.user,
    params: z.object({ id: z.string().trim().min(1) }),
    query: z.object({ skip: intParam(0, 0, 100_000), take: intParam(TRYONS_CLONE_TAKE, 1, 100) }),
    response: z.object({ tryons: z.array(TryOnSchema), total: z.number().int() }),
  }),
  tryonsCloneDeleteImage: endpoint({
    method: "DELETE",
    path: "/clones/{id}/tryons",
    summary:
      "Delete one generated image (imageUrl in the body or the query) of the caller's try-ons on this clone; a try-on left without images is deleted too (404 when no such image)",
    tags: ["Try-ons"],
    access: access.user,
    params: z.object({ id: z.string().trim().min(1) }),
    query: z.object({ imageUrl: ImageUrlField.optional() }),
    body: z.object({ imageUrl: ImageUrlField.optional() }),
    response: z.object({ deleted: z.literal(true), image_url: z.string(), tryon_id: z.string(), tryon_deleted: z.boolean() }),
  }),

  savedTryOnsList: endpoint({
    method: "GET",
    path: "/users/saved-tryons",
    summary: "The caller's saved try-ons, newest first (cursor pages of 20)",
    tags: ["Saved"],
    access: access.user,
    query: z.object({ cursor: z.string().trim().max(500).optional(), limit: intParam(SAVED_TRYONS_PAGE, 1, 100) }),
    response: z.object({ items: z.array(SavedTryOnItemSchema), nextCursor: z.string().nullable() }),
  }),
  savedTryOnsToggle: endpoint({
    method: "POST",
    path: "/users/saved-tryons/toggle",
    summary: "Save or unsave one of the caller's try-ons (toggles; with `saved` it sets that state)",
    tags: ["Saved"],
    access: access.user,
    body: z.object({ tryon_id: TryOnIdField, saved: z.boolean().optional() }),
    response: z.object({ tryon_id: z.string(), saved: z.boolean() }),
  }),
  savedTryOnsCheck: endpoint({
    method: "GET",
    path: "/users/saved-tryons/check",
    summary: "Which of these try-ons the caller saved (ids comma-separated, at most 100)",
    tags: ["Saved"],
    access: access.user,
    query: z.object({ ids: IdList(100) }),
    response: z.object({ saved: z.array(z.string()) }),
  }),
};
