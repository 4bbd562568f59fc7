/**
 * Outfit generation on a clone (SPEC §3 "Outfit generation status", §4 outfit generation, §7
 * "outfit generation"; issue 19).
 *
 * A shopper picks a look (a curated outfit, `outfit_id`) or any 1–6 products (`product_ids`) and a
 * clone (their own, or a public house model, as try-on does). POST creates a generated outfit
 * (the caller's) and renders it in the background: garment by garment through the image-AI port's
 * try-on, bottoms before one-pieces before tops before outerwear, each garment put on the previous
 * one's image. Status fields move exactly as §4 reads them:
 *
 *   PENDING / PENDING (queued) → PROCESSING_IMAGES / PROCESSING (progress per garment)
 *   → READY / COMPLETED (image_url, progress 100), or ERROR / ERROR with `error`.
 *
 * `completed` is §4's done flag (READY+COMPLETED or an ERROR): clients poll every 5 s while it is
 * false. A failed generation can be retried (409 otherwise). Products of a look that cannot be
 * tried on (no try-on flag or garment image) are left out; none left → 422.
 *
 * Every read is the caller's own: another shopper's generation answers 404 like a missing one.
 * GET /clones/outfit-generation-status (clones contract) answers for a generation too.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, intParam } from "./common";
import { CloneOutfitGenerationStatusSchema, CloneProcessingStatusSchema } from "./clones";
import { Messages } from "./messages";
import { toProductGid } from "../lib/gid";

/** At most this many products in one generated outfit (one try-on pass each). */
export const OUTFIT_GENERATION_MAX_PRODUCTS = 6;
export const OUTFIT_GENERATIONS_TAKE = 10;

const ProductIdField = z
  .string({ error: Messages.NO_PRODUCT_ID })
  .trim()
  .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID)
  .transform(toProductGid);

export const OutfitGenerationStartSchema = z
  .object({
    /** The clone to dress: the caller's own or a public one. */
    clone_id: z.string({ error: "clone_id is required" }).trim().min(1, "clone_id is required").max(200),
    /** A curated look to render… */
    outfit_id: z.string().trim().min(1).max(200).optional(),
    /** …or any products (1–6). With outfit_id, these are ignored. */
    product_ids: z.array(ProductIdField).min(1, "Choose at least one product").max(OUTFIT_GENERATION_MAX_PRODUCTS, `At most ${OUTFIT_GENERATION_MAX_PRODUCTS} products`).optional(),
  })
  .refine((v) => v.outfit_id || (v.product_ids && v.product_ids.length > 0), { message: "outfit_id or product_ids is required", path: ["outfit_id"] });

export const OutfitGenerationProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  featuredImage: z.object({ url: z.string(), altText: z.string().nullable() }).nullable(),
});

export const OutfitGenerationSchema = z.object({
  id: z.string(),
  name: z.string(),
  user_id: z.string(),
  clone_id: z.string().nullable(),
  clone: z.object({ id: z.string(), name: z.string(), profileImageUrl: z.string().nullable(), isPublic: z.boolean() }).nullable(),
  /** The curated look it was made from, if any. */
  source_outfit_id: z.string().nullable(),
  /** The garments in the order they are put on. */
  product_ids: z.array(z.string()),
  products: z.array(OutfitGenerationProductSchema),
  image_url: z.string().nullable(),
  processing_status: CloneProcessingStatusSchema,
  outfit_generation_status: CloneOutfitGenerationStatusSchema,
  processing_progress: z.number().int(),
  error: z.string().nullable(),
  /** SPEC §4 done: READY with COMPLETED, or either value ERROR. */
  completed: z.boolean(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type OutfitGenerationView = z.input<typeof OutfitGenerationSchema>;

export const outfitGenerationsEndpoints = {
  outfitGenerationsCreate: endpoint({
    method: "POST",
    path: "/outfit-generations",
    summary: "Generate a look (curated outfit_id, or 1–6 product_ids) on a clone; rendered in the background (202)",
    tags: ["Outfit generation"],
    access: access.user,
    // Up to six model calls each: counted against the caller's image-work budget.
    rateLimit: "image",
    body: OutfitGenerationStartSchema,
    response: OutfitGenerationSchema,
    status: 202,
  }),
  outfitGenerationsList: endpoint({
    method: "GET",
    path: "/outfit-generations",
    summary: "The caller's generated outfits, newest first (skip, take)",
    tags: ["Outfit generation"],
    access: access.user,
    query: z.object({ skip: intParam(0, 0, 100_000), take: intParam(OUTFIT_GENERATIONS_TAKE, 1, 50) }),
    response: z.object({ outfits: z.array(OutfitGenerationSchema), total: z.number().int() }),
  }),
  outfitGenerationsGet: endpoint({
    method: "GET",
    path: "/outfit-generations/{id}",
    summary: "One of the caller's generated outfits (404 for another shopper's)",
    tags: ["Outfit generation"],
    access: access.user,
    params: IdParams,
    response: OutfitGenerationSchema,
  }),
  outfitGenerationsDelete: endpoint({
    method: "DELETE",
    path: "/outfit-generations/{id}",
    summary: "Deletes one of the caller's generated outfits (a running one stops after its current garment)",
    tags: ["Outfit generation"],
    access: access.user,
    params: IdParams,
    response: z.object({ deleted: z.literal(true), id: z.string() }),
  }),
  outfitGenerationsRetry: endpoint({
    method: "POST",
    path: "/outfit-generations/{id}/retry",
    summary: "Starts a failed generation again from its first garment (409 unless it failed)",
    tags: ["Outfit generation"],
    access: access.user,
    rateLimit: "image",
    params: IdParams,
    response: OutfitGenerationSchema,
    status: 202,
  }),
};
