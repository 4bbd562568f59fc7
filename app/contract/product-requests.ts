/**
 * Product requests (SPEC §3 "product request", §5 "Product request form: brand and garment
 * non-empty; link a URL or empty; image a string or file"; issue 19): a shopper asks for a product
 * the store does not carry; the sourcing team reviews it, may start a Taobao import from its link,
 * and the shopper is emailed when it is sourced.
 *
 * Who: anyone may send one (guests and anonymous visitors give an email; signed-in shoppers' own
 * address is used), rate limited per address like the other public writes; a signed-in caller
 * lists their own; admins with `catalog.import` list, annotate, move and import them.
 *
 * States: pending → in_review | declined; in_review → pending | sourced | declined;
 * declined → in_review (reopened); sourced is final. Sourced emails the requester.
 */
import { z } from "zod";
import { access, endpoint, MULTIPART_ROOM_BYTES } from "./endpoint";
import { IsoDate, RecordId as Id, RecordIdParams as IdParams } from "./common";

export const PRODUCT_REQUEST_STATUSES = ["pending", "in_review", "sourced", "declined"] as const;
export const ProductRequestStatusSchema = z.enum(PRODUCT_REQUEST_STATUSES);
export type ProductRequestStatus = z.output<typeof ProductRequestStatusSchema>;

export const PRODUCT_REQUEST_STATUS_LABELS: Record<ProductRequestStatus, string> = {
  pending: "Pending",
  in_review: "In review",
  sourced: "Sourced",
  declined: "Declined",
};

/** The allowed moves; anything else is refused with 409. */
export const PRODUCT_REQUEST_TRANSITIONS: Record<ProductRequestStatus, readonly ProductRequestStatus[]> = {
  pending: ["in_review", "declined"],
  in_review: ["pending", "sourced", "declined"],
  declined: ["in_review"],
  sourced: [],
};

export const PRODUCT_REQUESTS_PAGE_SIZE = 25;
export const PRODUCT_REQUEST_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const ProductRequestMessages = {
  BRAND_REQUIRED: "Brand is required",
  GARMENT_REQUIRED: "Garment is required",
  LINK_INVALID: "Link must be a web address (https://…) or left empty",
  IMAGE_INVALID: "Image must be an uploaded photo or a web address (https://…)",
  EMAIL_REQUIRED: "Email is required so we can tell you when we find it",
  EMAIL_INVALID: "Enter a valid email address",
  NOT_FOUND: "Product request not found",
  NOT_TAOBAO: "The request's link is not a Taobao item: start the import from the import screen instead",
  NO_LINK: "The request has no link to import from",
  PRODUCT_NOT_FOUND: "Product not found",
  transition: (from: ProductRequestStatus, to: ProductRequestStatus) =>
    `A ${PRODUCT_REQUEST_STATUS_LABELS[from].toLowerCase()} request cannot be moved to ${PRODUCT_REQUEST_STATUS_LABELS[to].toLowerCase()}`,
} as const;
const M = ProductRequestMessages;

const webUrl = (message: string) =>
  z
    .string()
    .trim()
    .max(2000, "must be at most 2000 characters")
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "https:" || u.protocol === "http:") && !!u.hostname;
      } catch {
        return false;
      }
    }, message);

const Email = z.string().trim().toLowerCase().max(254, M.EMAIL_INVALID).check(z.email(M.EMAIL_INVALID));

const FIELDS = ["brand", "garment", "link", "email"] as const;
/** Multipart forms arrive as FormData: the same fields, the photo as a file (or text) in `image`. */
function formToObject(v: unknown): unknown {
  if (!(v instanceof FormData)) return v;
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const value = v.get(f);
    if (typeof value === "string") out[f] = value;
  }
  const image = v.get("image");
  if (image instanceof Blob ? image.size > 0 : typeof image === "string" && image.trim() !== "") out.image = image;
  return out;
}

export const ProductRequestCreateObject = z.object({
  brand: z.string({ error: M.BRAND_REQUIRED }).trim().min(1, M.BRAND_REQUIRED).max(120, "Brand must be at most 120 characters"),
  garment: z.string({ error: M.GARMENT_REQUIRED }).trim().min(1, M.GARMENT_REQUIRED).max(200, "Garment must be at most 200 characters"),
  /** A web address, or empty. */
  link: z
    .union([z.literal("").transform(() => null), webUrl(M.LINK_INVALID)], { error: M.LINK_INVALID })
    .nullish()
    .transform((v) => v ?? null),
  /** A photo file (multipart), or the web address of one. */
  image: z
    .union([z.instanceof(Blob), z.literal("").transform(() => null), webUrl(M.IMAGE_INVALID)], { error: M.IMAGE_INVALID })
    .nullish()
    .transform((v) => v ?? null),
  /** Required for guests and anonymous visitors; a signed-in shopper's own address is used. */
  email: z
    .union([z.literal("").transform(() => undefined), Email], { error: M.EMAIL_INVALID })
    .optional(),
});
export const ProductRequestCreateBody = z.preprocess(formToObject, ProductRequestCreateObject) as unknown as z.ZodType<
  z.output<typeof ProductRequestCreateObject>,
  z.input<typeof ProductRequestCreateObject> | FormData
>;

/** What the requester sees. */
export const OwnProductRequestSchema = z.object({
  id: z.string(),
  brand: z.string(),
  garment: z.string(),
  link: z.string().nullable(),
  image_url: z.string().nullable(),
  status: ProductRequestStatusSchema,
  /** The product it became, once sourced. */
  product: z.object({ id: z.string(), title: z.string(), handle: z.string() }).nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type OwnProductRequest = z.output<typeof OwnProductRequestSchema>;

export const ProductRequestSchema = OwnProductRequestSchema.extend({
  email: z.string().nullable(),
  user: z.object({ id: z.string(), email: z.string().nullable(), name: z.string(), auth_provider: z.string() }).nullable(),
  notes: z.string().nullable(),
  import_batch_id: z.string().nullable(),
  /** Whether the link is a Taobao item (an import can start from it). */
  taobao: z.boolean(),
  status_changed_at: IsoDate.nullable(),
  /** The states it may move to now. */
  next_statuses: z.array(ProductRequestStatusSchema),
});
export type ProductRequest = z.output<typeof ProductRequestSchema>;

const Notes = z.string().trim().max(5000, "Notes must be at most 5000 characters");
const requestsAdmin = access.admin("catalog.import");

export const productRequestsEndpoints = {
  productRequestsCreate: endpoint({
    method: "POST",
    path: "/product-requests",
    summary:
      "Ask for a product the store does not carry (JSON, or multipart/form-data with the photo as an `image` file): brand and garment required, link a web address or empty, image a photo file or a web address, email required for guests and anonymous visitors",
    tags: ["Product requests"],
    access: access.public,
    rateLimit: "auth",
    body: ProductRequestCreateBody,
    maxBodyBytes: PRODUCT_REQUEST_IMAGE_MAX_BYTES + MULTIPART_ROOM_BYTES,
    multipart: {
      brand: { kind: "text", required: true },
      garment: { kind: "text", required: true },
      link: { kind: "text" },
      email: { kind: "text", description: "required for guests and anonymous visitors" },
      image: { kind: "file", description: "JPEG, PNG or WebP, at most 10 MB and 40 megapixels (or a web address as text)" },
    },
    response: OwnProductRequestSchema,
    status: 201,
  }),
  productRequestsMine: endpoint({
    method: "GET",
    path: "/product-requests/mine",
    summary: "The caller's own product requests, newest first",
    tags: ["Product requests"],
    access: access.user,
    response: z.object({ requests: z.array(OwnProductRequestSchema) }),
  }),
  productRequestsList: endpoint({
    method: "GET",
    path: "/product-requests",
    summary: "Product requests for the sourcing team, newest first, by status and text (brand, garment, email), with counts per status",
    tags: ["Product requests"],
    access: requestsAdmin,
    query: z.object({
      status: ProductRequestStatusSchema.optional(),
      q: z.string().trim().max(200).optional(),
      page: z.coerce.number().int().min(1).max(10_000).default(1),
      limit: z.coerce.number().int().min(1).max(100).default(PRODUCT_REQUESTS_PAGE_SIZE),
    }),
    response: z.object({
      requests: z.array(ProductRequestSchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      counts: z.record(ProductRequestStatusSchema, z.number().int()),
    }),
  }),
  productRequestsGet: endpoint({
    method: "GET",
    path: "/product-requests/{id}",
    summary: "A product request",
    tags: ["Product requests"],
    access: requestsAdmin,
    params: IdParams,
    response: ProductRequestSchema,
  }),
  productRequestsUpdate: endpoint({
    method: "PATCH",
    path: "/product-requests/{id}",
    summary: "The team's notes on a product request",
    tags: ["Product requests"],
    access: requestsAdmin,
    params: IdParams,
    body: z.object({ notes: Notes.nullable() }),
    response: ProductRequestSchema,
  }),
  productRequestsStatus: endpoint({
    method: "POST",
    path: "/product-requests/{id}/status",
    summary:
      "Move a product request (pending → in_review | declined; in_review → pending | sourced | declined; declined → in_review); sourced may name the product it became and emails the requester; 409 for any other move",
    tags: ["Product requests"],
    access: requestsAdmin,
    params: IdParams,
    body: z.object({ status: ProductRequestStatusSchema, product_id: Id.optional(), notes: Notes.optional() }),
    response: ProductRequestSchema,
  }),
  productRequestsImport: endpoint({
    method: "POST",
    path: "/product-requests/{id}/import",
    summary:
      "Start a Taobao import from the request's link (a Taobao item URL) into a store; a pending request moves to in review. 422 when the link is not a Taobao item (use the import screen, prefilled)",
    tags: ["Product requests"],
    access: requestsAdmin,
    params: IdParams,
    body: z.object({ store_id: Id }),
    response: z.object({ request: ProductRequestSchema, batch_id: z.string(), jobs: z.number().int() }),
    status: 201,
  }),
};
