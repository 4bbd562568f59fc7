/**
 * Creative candidates of a product ad (issue 18; docs/product-ads.md "AI creatives"): images the
 * image-AI port makes from the ad's request images and its product's images (a product shot on a
 * generated background; the product on a public clone through try-on), and headline / primary
 * text variants the language-model port writes. The team picks and edits them into the ad
 * (`PATCH /product-ads/{id}`: creative_urls, headline, primary_text).
 *
 * Who:
 * - reading: the ad's vendor (another vendor's ad answers 404, as an unknown id does) and the
 *   team (ADMIN with `ads.manage`); admins without it and shoppers get 403;
 * - making candidates: the team only, while the ad can still be edited (PENDING, COMPLETED,
 *   FEEDBACK_PENDING); an APPROVED, LIVE or INACTIVE ad answers 409.
 *
 * Image candidates are made by the job `ads.creatives` (202 with the queued candidates and the
 * job's id): each is `queued`, then `ready` with its image (stored under images/) or `failed` with
 * the reason; one failing never stops the others. Copy variants are written at once (201), within
 * the language budget of the caller.
 */
import { z } from "zod";
import { RecordId as Id, RecordIdParams as IdParams } from "./common";
import { endpoint, type Access } from "./endpoint";

/** The ad's vendor (confined by the service) and admins with `ads.manage`. */
const readAccess = { kind: "role", roles: ["ADMIN", "VENDOR"], permission: "ads.manage" } as const satisfies Access;
const teamAccess = { kind: "role", roles: ["ADMIN"], permission: "ads.manage" } as const satisfies Access;

export const AD_CREATIVE_KINDS = ["image", "copy"] as const;
export const AD_CREATIVE_SOURCES = ["product_shot", "on_model", "upload", "template", "language_model"] as const;
export const AD_CREATIVE_STATUSES = ["queued", "ready", "failed"] as const;
/** What the image job can make. */
export const AD_IMAGE_CREATIVE_KINDS = ["product_shot", "on_model"] as const;
export const AD_IMAGE_CANDIDATES_MAX = 4;
export const AD_COPY_VARIANTS_MAX = 5;

export const ProductAdCreativeMessages = {
  AD_NOT_FOUND: "Product ad not found",
  notEditable: (status: string) => `Creatives cannot be made for an ad that is ${status}: an approved ad cannot be edited`,
  NO_IMAGES: "This ad has no image to make creatives from: add images to the product or upload images to the ad request",
  NO_PUBLIC_CLONE: "There is no public model ready to wear the product: add a public clone first",
  CLONE_NOT_FOUND: "Public clone not found",
} as const;


export const ProductAdCreativeSchema = z.object({
  id: z.string(),
  ad_id: z.string(),
  kind: z.enum(AD_CREATIVE_KINDS),
  source: z.enum(AD_CREATIVE_SOURCES),
  status: z.enum(AD_CREATIVE_STATUSES),
  /** Image candidates: the stored image once ready. */
  image_url: z.string().nullable(),
  /** Copy candidates. */
  headline: z.string().nullable(),
  primary_text: z.string().nullable(),
  /** Why a candidate failed. */
  error: z.string().nullable(),
  /** The `ads.creatives` job that makes an image candidate. */
  job_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProductAdCreative = z.output<typeof ProductAdCreativeSchema>;

export const AdCreativesJobSchema = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  /** Candidates done (ready or failed) of the job's, in percent. */
  progress: z.number().int().min(0).max(100),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type AdCreativesJob = z.output<typeof AdCreativesJobSchema>;

export const ProductAdCreativesListSchema = z.object({
  items: z.array(ProductAdCreativeSchema),
  /** The latest image job of the ad (null before the first). */
  job: AdCreativesJobSchema.nullable(),
});

export const AdCreativesQuery = z.object({
  kind: z.enum(AD_CREATIVE_KINDS).optional(),
  status: z.enum(AD_CREATIVE_STATUSES).optional(),
});

export const AdCreativesGenerateBody = z.object({
  kinds: z
    .array(z.enum(AD_IMAGE_CREATIVE_KINDS))
    .min(1, "Choose at least one kind of creative")
    .max(AD_IMAGE_CREATIVE_KINDS.length)
    .refine((ks) => new Set(ks).size === ks.length, "Each kind once")
    .default(["product_shot"]),
  /** Candidates per kind. */
  count: z.number().int().min(1).max(AD_IMAGE_CANDIDATES_MAX).default(1),
  /** The public clone that wears the product (on_model); by default public clones in turn. */
  clone_id: Id.optional(),
  /** Words for the generated background (product shots), e.g. "sunlit beach"; "studio" by default. */
  scene: z.string().trim().min(1).max(300).optional(),
});

export const AdCreativesGenerateResponse = z.object({
  jobId: z.string(),
  items: z.array(ProductAdCreativeSchema),
});

export const AdCopyVariantsBody = z.object({
  count: z.number().int().min(1).max(AD_COPY_VARIANTS_MAX).default(3),
});

export const AdCopyVariantsResponse = z.object({ items: z.array(ProductAdCreativeSchema) });

export const productAdCreativesEndpoints = {
  productAdCreativesList: endpoint({
    method: "GET",
    path: "/product-ads/{id}/creatives",
    summary: "The ad's creative candidates (images and copy), newest first, with the progress of its latest image job; 404 for another vendor's ad",
    tags: ["Product ads"],
    access: readAccess,
    params: IdParams,
    query: AdCreativesQuery,
    response: ProductAdCreativesListSchema,
  }),
  productAdCreativesGenerate: endpoint({
    method: "POST",
    path: "/product-ads/{id}/creatives",
    summary:
      "Make image candidates (1–4 per kind) from the request's uploaded images and the product's images: product shots on a generated background, the product on a public clone (try-on). 202 with the queued candidates and the job id; 409 once the ad is APPROVED, LIVE or INACTIVE",
    tags: ["Product ads"],
    access: teamAccess,
    params: IdParams,
    body: AdCreativesGenerateBody,
    response: AdCreativesGenerateResponse,
    status: 202,
  }),
  productAdCopyVariants: endpoint({
    method: "POST",
    path: "/product-ads/{id}/copy-variants",
    summary: "Write 1–5 headline (≤ 40) and primary-text (≤ 500) variants with the language model, different from each other and from the ad's earlier ones; 409 once the ad is APPROVED, LIVE or INACTIVE",
    tags: ["Product ads"],
    access: teamAccess,
    params: IdParams,
    body: AdCopyVariantsBody,
    response: AdCopyVariantsResponse,
    status: 201,
    rateLimit: "language",
  }),
} as const;
