/**
 * Proposed variant images (SPEC §7 "Proposed variant images: GET /proposed-variant-images (paged);
 * GET by-product/{id}; GET stats; GET, PATCH, DELETE /{id}; POST; POST /{id}/approve", and the
 * companion call "POST /uploaded-images/proposed-variant-images/taobao/{id}").
 *
 * A proposal suggests a new image for one product variant (from a Taobao import, an AI edit or an
 * admin). It is `pending` until reviewed: approving writes the image to the variant through the
 * commerce port (the store's product media, then the read model); rejecting only records the
 * decision. Every call needs `media.manage` ("Manage internal media and proposed images").
 *
 * Decisions the spec leaves open (docs/proposed-variant-images.md has the whole list):
 * - the proposed image is copied into our storage (`images/proposed-variant-images/<sha256>.jpg`)
 *   when it comes from another address, so the store can fetch it later and it cannot vanish;
 * - reject is `PATCH {status: "rejected"}` or `POST /{id}/reject`; `PATCH {status: "approved"}`
 *   approves exactly like `POST /{id}/approve`; an approved proposal cannot be changed (its image
 *   is on the variant: propose another image instead);
 * - approving a proposal rejects the variant's other pending proposals (a variant shows one image);
 * - bulk approve/reject: `POST /proposed-variant-images/bulk` with up to 100 ids, answered per id.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, Ok, intParam } from "./common";
import { ImageSchema, ProductIdParams } from "./products";

export const ProposalStatusSchema = z.enum(["pending", "approved", "rejected"]);
export type ProposalStatus = z.infer<typeof ProposalStatusSchema>;

/** Where a proposal came from: a short lowercase word (`taobao`, `manual`, `ai`, …). */
export const ProposalSourceSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "source must not be empty")
  .max(40, "source is at most 40 characters")
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "source is a short word: letters, digits, - and _");

export const KNOWN_PROPOSAL_SOURCES = ["taobao", "manual", "ai"] as const;

/** Our upload path (`/uploads/images/…`) or an http(s) URL of an image. */
export const ProposedImageUrlSchema = z.string().trim().min(1, "proposed_image_url is required").max(2048, "proposed_image_url is at most 2048 characters");

export const MAX_BULK_PROPOSALS = 100;

const SelectedOptionSchema = z.object({ name: z.string(), value: z.string() });

export const ProposalProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  status: z.enum(["active", "draft", "archived"]),
  featuredImage: ImageSchema.nullable(),
});

export const ProposalVariantSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The variant's image now (the read model). */
  image_url: z.string().nullable(),
  selectedOptions: z.array(SelectedOptionSchema),
  color_hex: z.string().nullable(),
  position: z.number().int(),
});

export const ProposedVariantImageSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  variant_id: z.string(),
  /** The variant's image when the proposal was made; once approved, the image it replaced. */
  current_image_url: z.string().nullable(),
  proposed_image_url: z.string(),
  source: z.string(),
  status: ProposalStatusSchema,
  reviewer_id: z.string().nullable(),
  reviewed_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  product: ProposalProductSchema,
  variant: ProposalVariantSchema,
});
export type ProposedVariantImage = z.output<typeof ProposedVariantImageSchema>;

export const ProposalSortSchema = z.enum(["newest", "oldest"]);

export const ProposalListQuery = z.object({
  page: intParam(1, 1, 100_000),
  limit: intParam(20, 1, 100),
  status: ProposalStatusSchema.optional(),
  source: ProposalSourceSchema.optional(),
  /** A product id (GID or bare number). */
  product_id: z.string().trim().min(1).max(200).optional(),
  /** Text in the product's title or handle, or the variant's title. */
  q: z.string().trim().max(200).optional(),
  sort: ProposalSortSchema.default("newest"),
});

export const ProposalCreateBody = z.object({
  product_id: z.string().trim().min(1, "product_id is required").max(200),
  variant_id: z.string().trim().min(1, "variant_id is required").max(200),
  proposed_image_url: ProposedImageUrlSchema,
  source: ProposalSourceSchema.default("manual"),
});

export const ProposalUpdateBody = z
  .object({
    proposed_image_url: ProposedImageUrlSchema.optional(),
    /** `rejected` rejects, `pending` reopens a rejected proposal, `approved` approves (as POST /{id}/approve). */
    status: ProposalStatusSchema.optional(),
    source: ProposalSourceSchema.optional(),
  })
  .refine((b) => b.proposed_image_url !== undefined || b.status !== undefined || b.source !== undefined, "Give proposed_image_url, status or source to update");

export const ProposalBulkBody = z.object({
  action: z.enum(["approve", "reject"], { error: 'action is "approve" or "reject"' }),
  ids: z
    .array(z.string().trim().min(1))
    .min(1, "ids must list at least one proposal")
    .max(MAX_BULK_PROPOSALS, `at most ${MAX_BULK_PROPOSALS} proposals at a time`),
});

export const ProposalBulkResultSchema = z.object({
  action: z.enum(["approve", "reject"]),
  /** How many proposals were approved / rejected by this call. */
  succeeded: z.number().int(),
  failed: z.number().int(),
  results: z.array(
    z.object({
      id: z.string(),
      ok: z.boolean(),
      status: ProposalStatusSchema.nullable(),
      /** HTTP status the single call would have answered, and its message. */
      error: z.object({ status: z.number().int(), message: z.string() }).nullable(),
    }),
  ),
});

const StatusCounts = z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() });

export const ProposalStatsSchema = z.object({
  total: z.number().int(),
  byStatus: StatusCounts,
  bySource: z.array(StatusCounts.extend({ source: z.string(), total: z.number().int() })),
  /** Products with at least one pending proposal. */
  productsWithPending: z.number().int(),
  /** approved / (approved + rejected) over every reviewed proposal; null before any review. */
  approvalRate: z.number().nullable(),
  days: z.number().int(),
  /** Per UTC day, oldest first: proposals made, and reviews done that day. */
  daily: z.array(z.object({ date: z.string(), proposed: z.number().int(), approved: z.number().int(), rejected: z.number().int() })),
});

export const ProposalsByProductSchema = z.object({
  product: ProposalProductSchema,
  counts: StatusCounts,
  /** Every variant of the product, in position order, with its proposals (newest first). */
  variants: z.array(ProposalVariantSchema.extend({ proposals: z.array(ProposedVariantImageSchema.omit({ product: true, variant: true })) })),
});

export const TaobaoProposalResultSchema = z.object({
  product_id: z.string(),
  taobao_id: z.string(),
  /** Proposals made by this call. */
  created: z.array(ProposedVariantImageSchema),
  /** Variants given no proposal, with the reason (no SKU image, same image already, already proposed…). */
  skipped: z.array(z.object({ variant_id: z.string(), variant_title: z.string(), reason: z.string() })),
});

const tags = ["Proposed variant images"] as const;
const guard = access.admin("media.manage");

export const proposedVariantImagesEndpoints = {
  proposedVariantImagesList: endpoint({
    method: "GET",
    path: "/proposed-variant-images",
    summary: "Proposed variant images, paged (page, limit ≤ 100), filtered by status, source, product or text, newest first",
    tags,
    access: guard,
    query: ProposalListQuery,
    response: z.object({
      items: z.array(ProposedVariantImageSchema),
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    }),
  }),
  proposedVariantImagesByProduct: endpoint({
    method: "GET",
    path: "/proposed-variant-images/by-product/{id}",
    summary: "A product's variants with their proposed images (optionally only one status)",
    tags,
    access: guard,
    params: ProductIdParams,
    query: z.object({ status: ProposalStatusSchema.optional() }),
    response: ProposalsByProductSchema,
  }),
  proposedVariantImagesStats: endpoint({
    method: "GET",
    path: "/proposed-variant-images/stats",
    summary: "Counts by status and source, approval rate, and proposals and reviews per day over the last `days` (default 14, at most 90)",
    tags,
    access: guard,
    query: z.object({ days: intParam(14, 1, 90) }),
    response: ProposalStatsSchema,
  }),
  proposedVariantImagesGetById: endpoint({
    method: "GET",
    path: "/proposed-variant-images/{id}",
    summary: "A proposed variant image",
    tags,
    access: guard,
    params: IdParams,
    response: ProposedVariantImageSchema,
  }),
  proposedVariantImagesUpdate: endpoint({
    method: "PATCH",
    path: "/proposed-variant-images/{id}",
    summary: "Change a proposal's image or source, reject it (status rejected), reopen it (pending) or approve it (approved)",
    tags,
    access: guard,
    params: IdParams,
    body: ProposalUpdateBody,
    response: ProposedVariantImageSchema,
  }),
  proposedVariantImagesDelete: endpoint({
    method: "DELETE",
    path: "/proposed-variant-images/{id}",
    summary: "Delete a proposal (an approved image stays on the variant)",
    tags,
    access: guard,
    params: IdParams,
    response: Ok,
  }),
  proposedVariantImagesCreate: endpoint({
    method: "POST",
    path: "/proposed-variant-images",
    summary: "Propose an image for a variant: our upload path or an http(s) image URL (copied into our storage)",
    tags,
    access: guard,
    body: ProposalCreateBody,
    response: ProposedVariantImageSchema,
    status: 201,
  }),
  proposedVariantImagesApprove: endpoint({
    method: "POST",
    path: "/proposed-variant-images/{id}/approve",
    summary: "Approve: the image becomes the variant's image in the store (commerce port) and the read model",
    tags,
    access: guard,
    params: IdParams,
    response: ProposedVariantImageSchema,
  }),
  proposedVariantImagesReject: endpoint({
    method: "POST",
    path: "/proposed-variant-images/{id}/reject",
    summary: "Reject a pending proposal (same as PATCH with status rejected)",
    tags,
    access: guard,
    params: IdParams,
    response: ProposedVariantImageSchema,
  }),
  proposedVariantImagesBulk: endpoint({
    method: "POST",
    path: "/proposed-variant-images/bulk",
    summary: "Approve or reject up to 100 proposals; answered per proposal (one failure does not stop the others)",
    tags,
    access: guard,
    body: ProposalBulkBody,
    response: ProposalBulkResultSchema,
  }),
  proposedVariantImagesFromTaobao: endpoint({
    method: "POST",
    path: "/uploaded-images/proposed-variant-images/taobao/{id}",
    summary:
      "Propose each variant's Taobao SKU image (the colour swatch of its SKU) for an imported product; {id} is the product id or its Taobao item id. Variants already showing that image, or with it pending or approved, are skipped",
    tags,
    access: guard,
    params: ProductIdParams,
    response: TaobaoProposalResultSchema,
  }),
};
