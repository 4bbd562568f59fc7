/**
 * Proposed image edits (SPEC §7 "Proposed image edits: GET and POST /proposed-image-edits; GET,
 * PATCH, DELETE /proposed-image-edits/{id}; POST /proposed-image-edits/{id}/approve").
 *
 * A proposed edit suggests replacing one of a product's images (`image_url`, the image as it is on
 * the product) with an edited one (`proposed_image_url`, e.g. the output of an AI tool: a product
 * shot, a removed object, an edit by a model). It is `pending` until reviewed:
 * - approve (POST /{id}/approve) writes the image to the product through the commerce port: the
 *   proposed image takes the original's place (same position) and the original is removed; when
 *   the original is no longer on the product the proposed image is appended;
 * - reject is PATCH {status: "rejected"};
 * - approved and rejected are final: any other status change is refused with 409
 *   (app/lib/proposed-image-edit-status.ts has the table).
 * A commerce failure on approve leaves the edit pending and answers 502 with the store's reason.
 * Every call needs `media.manage`.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, Ok, intParam } from "./common";
import { ImageSchema } from "./products";
import { EDIT_STATUSES } from "../lib/proposed-image-edit-status";

export const ImageEditStatusSchema = z.enum(EDIT_STATUSES);
export type ImageEditStatus = z.infer<typeof ImageEditStatusSchema>;

/** Our upload path (`/uploads/…`) or an http(s) URL of an image. */
const ImageUrl = (field: string) =>
  z
    .string()
    .trim()
    .min(1, `${field} is required`)
    .max(2048, `${field} is at most 2048 characters`)
    .refine((v) => /^https?:\/\//i.test(v) || v.startsWith("/uploads/"), `${field} must be an http(s) URL or one of our /uploads/ paths`);

/** What made the edit: an image operation (`generate-flux-product-shot`, `remove-object`, …) or a word such as `manual`. */
export const ImageEditOperationSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "operation is required")
  .max(60, "operation is at most 60 characters")
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "operation is a short word: letters, digits, - and _");

export const ImageEditPromptSchema = z.string().trim().max(2000, "prompt is at most 2000 characters");

export const ImageEditProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  status: z.enum(["active", "draft", "archived"]),
  featuredImage: ImageSchema.nullable(),
});

export const ProposedImageEditSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  /** The product image the edit replaces (as it was when proposed). */
  image_url: z.string(),
  proposed_image_url: z.string(),
  prompt: z.string().nullable(),
  operation: z.string(),
  status: ImageEditStatusSchema,
  reviewer_id: z.string().nullable(),
  reviewed_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  /** Whether `image_url` is still one of the product's images (approving replaces it in place; otherwise the image is appended). */
  original_on_product: z.boolean(),
  product: ImageEditProductSchema,
});
export type ProposedImageEdit = z.output<typeof ProposedImageEditSchema>;

export const ImageEditListQuery = z.object({
  page: intParam(1, 1, 100_000),
  limit: intParam(20, 1, 100),
  status: ImageEditStatusSchema.optional(),
  /** A product id (GID or bare number). */
  product_id: z.string().trim().min(1).max(200).optional(),
  operation: ImageEditOperationSchema.optional(),
  sort: z.enum(["newest", "oldest"]).default("newest"),
});

export const ImageEditCreateBody = z.object({
  product_id: z.string().trim().min(1, "product_id is required").max(200),
  /** The product image the edit replaces (any image URL: an edit of an uploaded photo is appended on approval). */
  image_url: ImageUrl("image_url"),
  proposed_image_url: ImageUrl("proposed_image_url"),
  prompt: ImageEditPromptSchema.nullish(),
  operation: ImageEditOperationSchema,
});

export const ImageEditUpdateBody = z
  .object({
    /** `rejected` rejects a pending edit; other changes of status are refused (409): approve with POST /{id}/approve. */
    status: ImageEditStatusSchema.optional(),
    prompt: ImageEditPromptSchema.nullable().optional(),
    proposed_image_url: ImageUrl("proposed_image_url").optional(),
  })
  .refine((b) => b.status !== undefined || b.prompt !== undefined || b.proposed_image_url !== undefined, "Give status, prompt or proposed_image_url to update");

export const ImageEditCountsSchema = z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() });

const tags = ["Proposed image edits"] as const;
const guard = access.admin("media.manage");

export const proposedImageEditsEndpoints = {
  proposedImageEditsList: endpoint({
    method: "GET",
    path: "/proposed-image-edits",
    summary: "Proposed image edits, paged (page, limit ≤ 100), filtered by status, product or operation, newest first; with counts by status",
    tags,
    access: guard,
    query: ImageEditListQuery,
    response: z.object({
      items: z.array(ProposedImageEditSchema),
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
      /** Over the other filters (product, operation), whatever the status filter. */
      counts: ImageEditCountsSchema,
    }),
  }),
  proposedImageEditsCreate: endpoint({
    method: "POST",
    path: "/proposed-image-edits",
    summary: "Propose an edited image for a product image (our upload path or an http(s) URL, copied into our storage)",
    tags,
    access: guard,
    body: ImageEditCreateBody,
    response: ProposedImageEditSchema,
    status: 201,
  }),
  proposedImageEditsGetById: endpoint({
    method: "GET",
    path: "/proposed-image-edits/{id}",
    summary: "A proposed image edit",
    tags,
    access: guard,
    params: IdParams,
    response: ProposedImageEditSchema,
  }),
  proposedImageEditsUpdate: endpoint({
    method: "PATCH",
    path: "/proposed-image-edits/{id}",
    summary: "Reject a pending edit (status rejected) or change its prompt or proposed image; other status changes are refused (409)",
    tags,
    access: guard,
    params: IdParams,
    body: ImageEditUpdateBody,
    response: ProposedImageEditSchema,
  }),
  proposedImageEditsDelete: endpoint({
    method: "DELETE",
    path: "/proposed-image-edits/{id}",
    summary: "Delete a proposed edit (an approved image stays on the product)",
    tags,
    access: guard,
    params: IdParams,
    response: Ok,
  }),
  proposedImageEditsApprove: endpoint({
    method: "POST",
    path: "/proposed-image-edits/{id}/approve",
    summary: "Approve a pending edit: the proposed image replaces the original on the product (same position), or is appended when the original is gone",
    tags,
    access: guard,
    params: IdParams,
    response: ProposedImageEditSchema,
  }),
};
