/**
 * Ad requests and the ad features catalogue (issue 18; docs/product-ads.md "Ad features", "Ad
 * requests"; SPEC §7 "Product ad requests", "Product ad features").
 *
 * Who: a VENDOR user linked to a vendor acts on its own vendor's requests only (any other id
 * answers 404, as an unknown one does) and reads the active features; an ADMIN with `ads.manage`
 * (the team) acts for any vendor and manages the catalogue; admins without it and shoppers get 403.
 *
 * A request: 1–10 of the vendor's own products (not archived), 0–10 uploaded images (uploaded by a
 * user of the same vendor or by an admin), ≥ 1 chosen feature of kind `format` (all active when
 * chosen), a brief, a daily budget and optional dates. `open` → `completed` by the team once an ad
 * made from it is past PENDING; a completed request is read-only.
 */
import { z } from "zod";
import { endpoint, type Access } from "./endpoint";
import { IsoDate, Ok, RecordId as Id, RecordIdParams as IdParams } from "./common";
import { ImageSchema } from "./products";

/** Vendors (their own data; the handler confines them) and admins with `ads.manage`. */
export const adRequestsAccess = { kind: "role", roles: ["ADMIN", "VENDOR"], permission: "ads.manage" } as const satisfies Access;
/** The ads team only. */
export const adsTeamOnlyAccess = { kind: "role", roles: ["ADMIN"], permission: "ads.manage" } as const satisfies Access;

export const AD_REQUESTS_PAGE_SIZE = 25;
export const AD_REQUEST_MAX_PRODUCTS = 10;
export const AD_REQUEST_MAX_IMAGES = 10;
export const AD_REQUEST_MAX_FEATURES = 30;
export const AD_BRIEF_MAX = 2000;
export const AD_DAILY_BUDGET_MAX = 10_000;

export const AD_REQUEST_STATUSES = ["open", "completed"] as const;
export const AdRequestStatusSchema = z.enum(AD_REQUEST_STATUSES);
export type AdRequestStatus = z.output<typeof AdRequestStatusSchema>;

export const AD_FEATURE_KINDS = ["format", "placement", "extra"] as const;
export const AdFeatureKindSchema = z.enum(AD_FEATURE_KINDS);
export type AdFeatureKind = z.output<typeof AdFeatureKindSchema>;

/** The ad statuses (docs/product-ads.md), repeated here for the light ad shape of a request's detail. */
export const AD_REQUEST_AD_STATUSES = ["PENDING", "COMPLETED", "FEEDBACK_PENDING", "APPROVED", "LIVE", "INACTIVE"] as const;

export const AdRequestMessages = {
  NOT_FOUND: "Ad request not found",
  FEATURE_NOT_FOUND: "Ad feature not found",
  FEATURE_UNAVAILABLE: "This ad feature is not available",
  NEEDS_FORMAT: "Choose at least one ad format",
  UNKNOWN_IMAGE: "Unknown uploaded image",
  UNKNOWN_PRODUCT: "Unknown product",
  ARCHIVED_PRODUCT: "An archived product cannot be advertised",
  VENDOR_REQUIRED: "vendor_id is required: the vendor the request is for",
  VENDOR_NOT_FOUND: "Vendor not found",
  COMPLETED_READ_ONLY: "This ad request is completed: it can no longer be changed",
  ALREADY_COMPLETED: "This ad request is already completed",
  NEEDS_AD: "Make at least one ad from this request first",
  HAS_ADS: "Ads were made from this ad request: it can no longer be deleted",
  HAS_LIVE_ADS: "Delete the ads made from this ad request first",
  CODE_TAKEN: "An ad feature with this code already exists",
  featureInUse: (n: number) => `This ad feature is used by ${n} ad request${n === 1 ? "" : "s"}: deactivate it instead`,
} as const;

const Cursor = z.string().trim().min(1).max(500).optional();

const uniqueIds = (label: string, min: number, max: number) =>
  z
    .array(Id)
    .min(min, min === 1 ? `Choose at least one ${label}` : `must have at least ${min} items`)
    .max(max, `at most ${max} ${label}s`)
    .transform((ids) => [...new Set(ids)]);

/** YYYY-MM-DD, a real calendar day. */
const Day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2100;
  }, "must be a real date between 2000 and 2100");

const Budget = z.coerce
  .number("must be a number")
  .min(1, `must be between 1 and ${AD_DAILY_BUDGET_MAX}`)
  .max(AD_DAILY_BUDGET_MAX, `must be between 1 and ${AD_DAILY_BUDGET_MAX}`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "must have at most two decimals");

const Amount = z.string().describe("decimal amount with two decimals, in currencyCode");

// ---------------------------------------------------------------------------------------------
// Ad features

export const AdFeatureSchema = z.object({
  id: z.string(),
  /** Unique slug, e.g. `format.carousel`. */
  code: z.string(),
  kind: AdFeatureKindSchema,
  name: z.string(),
  description: z.string().nullable(),
  /** Per ad, in currencyCode; null when the feature is free. */
  price: Amount.nullable(),
  currencyCode: z.string(),
  active: z.boolean(),
  sort_order: z.number().int(),
});
export type AdFeature = z.output<typeof AdFeatureSchema>;

const FeatureCode = z
  .string()
  .trim()
  .min(1, "A code is required")
  .max(80, "must be at most 80 characters")
  .regex(/^[a-z0-9_.-]+$/, "must use only a–z, 0–9, '_', '.' and '-'");
const FeatureName = z.string().trim().min(1, "A name is required").max(120, "must be at most 120 characters");
const FeatureDescription = z.string().trim().max(1000, "must be at most 1000 characters");
const Price = z.coerce
  .number("must be a number")
  .min(0, "must be between 0 and 100000")
  .max(100_000, "must be between 0 and 100000")
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "must have at most two decimals");
const Currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, "must be a three-letter currency code");
const SortOrder = z.coerce.number("must be a number").int("must be a whole number").min(-100_000).max(100_000);
const BoolParam = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .transform((v) => v === true || v === "true");

export const AdFeaturesQuery = z.object({
  kind: AdFeatureKindSchema.optional(),
  active: BoolParam.optional().describe("team only: true or false (vendors always see the active ones)"),
});

export const AdFeatureCreateBody = z.object({
  code: FeatureCode,
  kind: AdFeatureKindSchema,
  name: FeatureName,
  description: FeatureDescription.nullable().optional(),
  price: Price.nullable().optional(),
  currencyCode: Currency.optional(),
  active: z.boolean().default(true),
  sort_order: SortOrder.default(0),
});

export const AdFeatureUpdateBody = z
  .object({
    code: FeatureCode.optional(),
    kind: AdFeatureKindSchema.optional(),
    name: FeatureName.optional(),
    description: FeatureDescription.nullable().optional(),
    price: Price.nullable().optional(),
    currencyCode: Currency.optional(),
    active: z.boolean().optional(),
    sort_order: SortOrder.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Nothing to change");

// ---------------------------------------------------------------------------------------------
// Ad requests

export const AdRequestProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  featuredImage: ImageSchema.nullable(),
});

export const AdRequestImageSchema = z.object({
  id: z.string(),
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});

export const AdRequestSchema = z.object({
  id: z.string(),
  vendor: z.object({ id: z.string(), name: z.string() }),
  status: AdRequestStatusSchema,
  /** In the order chosen; a product deleted since is left out. */
  products: z.array(AdRequestProductSchema),
  /** In the order chosen; an image deleted since is left out. */
  uploaded_images: z.array(AdRequestImageSchema),
  /** The chosen features (inactive ones included: they stay on the requests that chose them), by kind then sort order. */
  features: z.array(AdFeatureSchema),
  /** Audience, message, offer. */
  brief: z.string(),
  daily_budget: Amount.nullable(),
  currencyCode: z.string(),
  /** YYYY-MM-DD */
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Ads made from the request. */
  adsCount: z.number().int(),
  completed_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type AdRequest = z.output<typeof AdRequestSchema>;

/** An ad made from a request, in a light shape (the full ad is /product-ads/{id}). */
export const AdRequestAdSchema = z.object({
  id: z.string(),
  status: z.enum(AD_REQUEST_AD_STATUSES),
  headline: z.string(),
  product: z.object({ id: z.string(), title: z.string() }),
  created_at: IsoDate,
});

export const AdRequestDetailSchema = AdRequestSchema.extend({
  /** Oldest first. */
  ads: z.array(AdRequestAdSchema),
});
export type AdRequestDetail = z.output<typeof AdRequestDetailSchema>;

export const AdRequestsQuery = z.object({
  status: AdRequestStatusSchema.optional(),
  vendorId: Id.optional().describe("team only (a vendor's own requests are always its own)"),
  q: z.string().trim().max(200, "must be at most 200 characters").optional().describe("brief, vendor name or a product title contains"),
  cursor: Cursor,
  limit: z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(AD_REQUESTS_PAGE_SIZE),
});
export const AdRequestsCountQuery = AdRequestsQuery.omit({ cursor: true, limit: true, status: true });

export const AdRequestsPageSchema = z.object({ items: z.array(AdRequestSchema), nextCursor: z.string().nullable() });
export const AdRequestsCountSchema = z.object({ all: z.number().int(), open: z.number().int(), completed: z.number().int() });

export const AdRequestCreateBody = z
  .object({
    vendor_id: Id.optional().describe("team: the vendor the request is for (required); a vendor files for itself"),
    product_ids: uniqueIds("product", 1, AD_REQUEST_MAX_PRODUCTS),
    uploaded_image_ids: uniqueIds("image", 0, AD_REQUEST_MAX_IMAGES).default([]),
    feature_ids: uniqueIds("feature", 1, AD_REQUEST_MAX_FEATURES),
    brief: z.string().trim().min(1, "A brief is required").max(AD_BRIEF_MAX, `must be at most ${AD_BRIEF_MAX} characters`),
    daily_budget: Budget,
    start_date: Day.nullable().optional(),
    end_date: Day.nullable().optional(),
  })
  .superRefine((b, c) => {
    if (b.start_date && b.end_date && b.end_date < b.start_date) c.addIssue({ code: "custom", path: ["end_date"], message: "end_date must not be before start_date" });
  });

export const AdRequestUpdateBody = z.object({ uploaded_image_ids: uniqueIds("image", 0, AD_REQUEST_MAX_IMAGES) });

export const productAdRequestsEndpoints = {
  productAdRequestsList: endpoint({
    method: "GET",
    path: "/product-ad-requests",
    summary: "Ad requests, newest first: a vendor's own, or any vendor's for the team (filter by status, vendorId, a search in the brief, vendor name and product titles; cursor paging)",
    tags: ["Product ad requests"],
    access: adRequestsAccess,
    query: AdRequestsQuery,
    response: AdRequestsPageSchema,
  }),
  productAdRequestsCount: endpoint({
    method: "GET",
    path: "/product-ad-requests/count",
    summary: "Ad requests per status (all, open, completed) with the list's filters",
    tags: ["Product ad requests"],
    access: adRequestsAccess,
    query: AdRequestsCountQuery,
    response: AdRequestsCountSchema,
  }),
  productAdRequestsCreate: endpoint({
    method: "POST",
    path: "/product-ad-requests",
    summary:
      "File an ad request: 1–10 of the vendor's own products (not archived), 0–10 uploaded images (uploaded by a user of the vendor or by the team), features (at least one active format), a brief, a daily budget (1–10,000) and optional dates. A vendor files for itself; the team names vendor_id",
    tags: ["Product ad requests"],
    access: adRequestsAccess,
    body: AdRequestCreateBody,
    response: AdRequestDetailSchema,
    status: 201,
  }),
  productAdRequestsGet: endpoint({
    method: "GET",
    path: "/product-ad-requests/{id}",
    summary: "One ad request with its products, images, features and the ads made from it; 404 for another vendor's",
    tags: ["Product ad requests"],
    access: adRequestsAccess,
    params: IdParams,
    response: AdRequestDetailSchema,
  }),
  productAdRequestsUpdate: endpoint({
    method: "PATCH",
    path: "/product-ad-requests/{id}",
    summary: "Replace an open request's uploaded images (0–10); 409 once completed",
    tags: ["Product ad requests"],
    access: adRequestsAccess,
    params: IdParams,
    body: AdRequestUpdateBody,
    response: AdRequestDetailSchema,
  }),
  productAdRequestsDelete: endpoint({
    method: "DELETE",
    path: "/product-ad-requests/{id}",
    summary:
      "Delete an open request: a vendor while no ad was made from it, the team once every ad made from it is deleted; 409 otherwise and once completed",
    tags: ["Product ad requests"],
    access: adRequestsAccess,
    params: IdParams,
    response: Ok,
  }),
  productAdRequestsComplete: endpoint({
    method: "POST",
    path: "/product-ad-requests/{id}/complete",
    summary: "Mark an open request completed (team), once at least one ad made from it is past PENDING; 409 otherwise and when already completed",
    tags: ["Product ad requests"],
    access: adsTeamOnlyAccess,
    params: IdParams,
    response: AdRequestDetailSchema,
  }),
  productAdFeaturesList: endpoint({
    method: "GET",
    path: "/product-ad-features",
    summary: "The ad features catalogue by kind and sort order: the active ones for vendors, all for the team (filter by kind, active)",
    tags: ["Product ad features"],
    access: adRequestsAccess,
    query: AdFeaturesQuery,
    response: z.object({ items: z.array(AdFeatureSchema) }),
  }),
  productAdFeaturesCreate: endpoint({
    method: "POST",
    path: "/product-ad-features",
    summary: "Add an ad feature (unique code: a–z, 0–9, _ . -); 409 for a code in use",
    tags: ["Product ad features"],
    access: adsTeamOnlyAccess,
    body: AdFeatureCreateBody,
    response: AdFeatureSchema,
    status: 201,
  }),
  productAdFeaturesGet: endpoint({
    method: "GET",
    path: "/product-ad-features/{id}",
    summary: "One ad feature (vendors: active ones only, else 404)",
    tags: ["Product ad features"],
    access: adRequestsAccess,
    params: IdParams,
    response: AdFeatureSchema,
  }),
  productAdFeaturesUpdate: endpoint({
    method: "PATCH",
    path: "/product-ad-features/{id}",
    summary: "Change an ad feature (deactivate it to stop offering it: requests that chose it keep it)",
    tags: ["Product ad features"],
    access: adsTeamOnlyAccess,
    params: IdParams,
    body: AdFeatureUpdateBody,
    response: AdFeatureSchema,
  }),
  productAdFeaturesDelete: endpoint({
    method: "DELETE",
    path: "/product-ad-features/{id}",
    summary: "Delete an ad feature no request chose; 409 when requests use it (deactivate it instead)",
    tags: ["Product ad features"],
    access: adsTeamOnlyAccess,
    params: IdParams,
    response: Ok,
  }),
};
