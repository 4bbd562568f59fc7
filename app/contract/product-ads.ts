/**
 * Product ads (issue 18; docs/product-ads.md "Product ads and their moves"; SPEC §4 "Product ad
 * statuses", §7 "Product ads", "Vendors" `/vendors/me/ads`).
 *
 * Who:
 * - the team (an ADMIN with `ads.manage`) creates, edits and deletes ads and may make every move;
 * - a VENDOR user acts on its own vendor's ads only: reads them, approves, sends feedback,
 *   unpublishes (stops spending). Another vendor's ad answers 404, as an unknown id does;
 * - admins without `ads.manage` and shoppers get 403.
 * The moves and their refusals (409 with a reason, 403 "Only the ads team can …") are the state
 * machine of app/lib/product-ad-status.ts; every ad answers `allowedMoves`: the moves the caller
 * may make on it now.
 *
 * Money is a decimal string with two decimals in `currencyCode`; ratios are plain numbers (null
 * when their divisor is 0).
 */
import { z } from "zod";
import { access, endpoint, type Access } from "./endpoint";
import { IsoDate, Ok, RecordId as Id, RecordIdParams as IdParams } from "./common";
import { ImageSchema } from "./products";
import { toProductGid } from "../lib/gid";
import { PRODUCT_AD_MOVES, PRODUCT_AD_STATUSES } from "../lib/product-ad-status";

/** Vendors (confined to their own ads by the service) and admins with `ads.manage`. */
export const productAdsAccess = { kind: "role", roles: ["ADMIN", "VENDOR"], permission: "ads.manage" } as const satisfies Access;
/** Creating, editing and deleting ads: the ads team only. */
export const productAdsTeamAccess = { kind: "role", roles: ["ADMIN"], permission: "ads.manage" } as const satisfies Access;
/**
 * `GET /vendors/{id}/ads` and its metrics: admins with `vendors.manage` or `ads.manage`, a vendor
 * for its own id only (the handler answers 404 for any other).
 */
export const vendorAdsByIdAccess = { kind: "role", roles: ["ADMIN", "VENDOR"], permission: ["vendors.manage", "ads.manage"] } as const satisfies Access;

export const PRODUCT_ADS_PAGE_SIZE = 25;
export const AD_HEADLINE_MAX = 40;
export const AD_PRIMARY_TEXT_MAX = 500;
export const AD_CREATIVES_MAX = 10;
export const AD_FEEDBACK_MAX = 2000;
export const AD_BUDGET_MAX = 10_000;
export const AD_CALL_TO_ACTIONS = ["SHOP_NOW", "LEARN_MORE", "SIGN_UP"] as const;

export const ProductAdStatusSchema = z.enum(PRODUCT_AD_STATUSES);
export const ProductAdMoveSchema = z.enum(PRODUCT_AD_MOVES);
export const CallToActionSchema = z.enum(AD_CALL_TO_ACTIONS);

export const ProductAdMessages = {
  NOT_FOUND: "Product ad not found",
  REQUEST_NOT_FOUND: "Ad request not found",
  UNKNOWN_PRODUCT: "Unknown product",
  PRODUCT_NOT_IN_REQUEST: "This product is not one of the ad request's products",
  PRODUCT_NOT_VENDORS: "This product is not the vendor's",
  ARCHIVED_PRODUCT: "An archived product cannot be advertised",
  VENDOR_REQUIRED: "vendor_id is required when the ad is not made from an ad request",
  VENDOR_NOT_FOUND: "Vendor not found",
  VENDOR_NOT_REQUESTS: "vendor_id is not the ad request's vendor",
  REQUEST_COMPLETED: "This ad request is completed: make new ads from an open request",
  NOTHING_TO_CHANGE: "Nothing to change",
} as const;

const Amount = z.string().describe("decimal amount with two decimals, in currencyCode");
const ProductIdField = z
  .string()
  .trim()
  .min(1, "A product id is required")
  .max(300, "must be at most 300 characters")
  .refine((v) => v !== "undefined" && v !== "null", "A product id is required")
  .transform(toProductGid);

const isWebUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
};
/** An image of the app (`/uploads/…`, made absolute when sent to the ads platform) or an http(s) URL. */
const CreativeUrl = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(2000, "must be at most 2000 characters")
  .refine((v) => (v.startsWith("/") && !v.startsWith("//")) || isWebUrl(v), "must be an http(s) URL or a path of this app");
const CreativeUrls = z
  .array(CreativeUrl)
  .max(AD_CREATIVES_MAX, `at most ${AD_CREATIVES_MAX} creatives`)
  .transform((urls) => [...new Set(urls)]);
const Headline = z.string().trim().max(AD_HEADLINE_MAX, `must be at most ${AD_HEADLINE_MAX} characters`);
const PrimaryText = z.string().trim().max(AD_PRIMARY_TEXT_MAX, `must be at most ${AD_PRIMARY_TEXT_MAX} characters`);
const DestinationUrl = z.string().trim().max(2000, "must be at most 2000 characters").refine(isWebUrl, "must be an http(s) URL");
const Budget = z.coerce
  .number("must be a number")
  .min(1, `must be between 1 and ${AD_BUDGET_MAX}`)
  .max(AD_BUDGET_MAX, `must be between 1 and ${AD_BUDGET_MAX}`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "must have at most two decimals");
const Note = z.string().trim().max(AD_FEEDBACK_MAX, `must be at most ${AD_FEEDBACK_MAX} characters`);

/** `status=LIVE&status=INACTIVE` or `status=LIVE,INACTIVE`. */
const StatusList = z.preprocess(
  (v) =>
    v === undefined
      ? undefined
      : (Array.isArray(v) ? v : [v])
          .flatMap((x) => String(x).split(","))
          .map((x) => x.trim())
          .filter(Boolean),
  z.array(ProductAdStatusSchema).max(PRODUCT_AD_STATUSES.length * 2, "too many statuses").optional(),
);

// ---------------------------------------------------------------------------------------------
// Shapes

/** Totals of the ad's stored daily metrics (docs: CTR = clicks / impressions, CPC = spend / clicks, ROAS = purchase value / spend). */
export const ProductAdMetricsTotalsSchema = z.object({
  impressions: z.number().int(),
  reach: z.number().int(),
  clicks: z.number().int(),
  spend: Amount,
  purchases: z.number().int(),
  purchaseValue: Amount,
  /** clicks / impressions (0.0123 = 1.23 %); null without impressions. */
  ctr: z.number().nullable(),
  /** spend / clicks, two decimals; null without clicks. */
  cpc: Amount.nullable(),
  /** purchase value / spend; null when nothing was spent. */
  roas: z.number().nullable(),
});
export type ProductAdMetricsTotals = z.output<typeof ProductAdMetricsTotalsSchema>;

export const ProductAdSchema = z.object({
  id: z.string(),
  status: ProductAdStatusSchema,
  vendor: z.object({ id: z.string(), name: z.string() }),
  product: z.object({ id: z.string(), title: z.string(), handle: z.string(), featuredImage: ImageSchema.nullable() }),
  request_id: z.string().nullable(),
  /** "" until written. */
  headline: z.string(),
  primary_text: z.string(),
  /** The chosen creatives, the first being the main one. */
  creative_urls: z.array(z.string()),
  call_to_action: CallToActionSchema,
  /** The product's storefront page unless set otherwise. */
  destination_url: z.string(),
  daily_budget: Amount,
  currencyCode: z.string(),
  /** The ads platform's ids, once published. */
  meta_campaign_id: z.string().nullable(),
  meta_adset_id: z.string().nullable(),
  meta_creative_id: z.string().nullable(),
  meta_ad_id: z.string().nullable(),
  /** The last ads-platform error (publish, pause, sync); cleared by the next success. */
  meta_error: z.string().nullable(),
  /** When the ad first went live. */
  published_at: IsoDate.nullable(),
  metrics: ProductAdMetricsTotalsSchema,
  metrics_synced_at: IsoDate.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  /** The moves the caller may make on the ad now (docs/product-ads.md). */
  allowedMoves: z.array(ProductAdMoveSchema),
});
export type ProductAd = z.output<typeof ProductAdSchema>;

export const PRODUCT_AD_EVENT_KINDS = [
  "created",
  "edited",
  "complete",
  "feedback",
  "approve",
  "publish",
  "unpublish",
  "publish_failed",
  "unpublish_failed",
  "platform_error",
] as const;

export const ProductAdTimelineEntrySchema = z.object({
  id: z.string(),
  /** created | edited | complete | feedback | approve | publish | unpublish | publish_failed | unpublish_failed | platform_error */
  kind: z.string(),
  from_status: ProductAdStatusSchema.nullable(),
  to_status: ProductAdStatusSchema.nullable(),
  /** null for the system (a sync's platform error) or a deleted user. */
  author: z.object({ id: z.string(), name: z.string(), role: z.enum(["SHOPPER", "VENDOR", "ADMIN"]) }).nullable(),
  /** Feedback, a note, what an edit changed, or the platform's error. */
  text: z.string().nullable(),
  created_at: IsoDate,
});
export type ProductAdTimelineEntry = z.output<typeof ProductAdTimelineEntrySchema>;

export const ProductAdDetailSchema = ProductAdSchema.extend({
  /** Oldest first. */
  timeline: z.array(ProductAdTimelineEntrySchema),
});
export type ProductAdDetail = z.output<typeof ProductAdDetailSchema>;

export const ProductAdsPageSchema = z.object({ items: z.array(ProductAdSchema), nextCursor: z.string().nullable() });
export type ProductAdsPage = z.output<typeof ProductAdsPageSchema>;

export const ProductAdCountsSchema = z.object({
  all: z.number().int(),
  PENDING: z.number().int(),
  COMPLETED: z.number().int(),
  FEEDBACK_PENDING: z.number().int(),
  APPROVED: z.number().int(),
  LIVE: z.number().int(),
  INACTIVE: z.number().int(),
});
export type ProductAdCounts = z.output<typeof ProductAdCountsSchema>;

// ---------------------------------------------------------------------------------------------
// Requests

export const ProductAdsQuery = z.object({
  status: StatusList.describe("repeatable (status=LIVE&status=INACTIVE) or comma-separated"),
  vendorId: Id.optional().describe("team: one vendor's ads (a vendor's list is always its own)"),
  requestId: Id.optional(),
  productId: ProductIdField.optional(),
  q: z.string().trim().max(200, "must be at most 200 characters").optional().describe("headline, primary text, product title or vendor name contains"),
  cursor: z.string().trim().min(1).max(500).optional(),
  limit: z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(PRODUCT_ADS_PAGE_SIZE),
});
export type ProductAdsQueryInput = z.output<typeof ProductAdsQuery>;
export const ProductAdsCountQuery = ProductAdsQuery.omit({ status: true, cursor: true, limit: true });
export const VendorAdsQuery = ProductAdsQuery.omit({ vendorId: true });

export const ProductAdCreateBody = z.object({
  request_id: Id.optional().describe("the ad request it is made from: its vendor, and one of its products"),
  vendor_id: Id.optional().describe("without a request: the vendor (the product must be the vendor's)"),
  product_id: ProductIdField,
  headline: Headline.optional(),
  primary_text: PrimaryText.optional(),
  creative_urls: CreativeUrls.optional(),
  call_to_action: CallToActionSchema.optional(),
  daily_budget: Budget.optional().describe("default: the request's budget, else 10.00"),
  destination_url: DestinationUrl.optional().describe("default: the product's storefront page"),
});

export const ProductAdUpdateBody = z
  .object({
    headline: Headline.optional(),
    primary_text: PrimaryText.optional(),
    creative_urls: CreativeUrls.optional(),
    call_to_action: CallToActionSchema.optional(),
    daily_budget: Budget.optional(),
    destination_url: DestinationUrl.nullable().optional().describe("null: back to the product's storefront page"),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), ProductAdMessages.NOTHING_TO_CHANGE);

export const ProductAdNoteBody = z.object({ note: Note.optional().describe("kept on the timeline") });
export const ProductAdFeedbackBody = z.object({
  text: z.string().trim().min(1, "Feedback text is required").max(AD_FEEDBACK_MAX, `must be at most ${AD_FEEDBACK_MAX} characters`),
});

const moveSummary = (what: string) => `${what} Moves run under a lock on the ad: of two at once one is made, the other answers 409.`;

export const productAdsEndpoints = {
  productAdsList: endpoint({
    method: "GET",
    path: "/product-ads",
    summary: "Product ads, newest first: a vendor's own, or any vendor's for the team (filter by status (repeatable), vendorId, requestId, productId, q; cursor paging)",
    tags: ["Product ads"],
    access: productAdsAccess,
    query: ProductAdsQuery,
    response: ProductAdsPageSchema,
  }),
  productAdsCount: endpoint({
    method: "GET",
    path: "/product-ads/count",
    summary: "Product ads per status and in all, with the list's filters",
    tags: ["Product ads"],
    access: productAdsAccess,
    query: ProductAdsCountQuery,
    response: ProductAdCountsSchema,
  }),
  productAdsCreate: endpoint({
    method: "POST",
    path: "/product-ads",
    summary:
      "Make an ad (team), PENDING: from an open ad request (its vendor, one of its products) or for a vendor_id and one of its products; the destination defaults to the product's storefront page",
    tags: ["Product ads"],
    access: productAdsTeamAccess,
    body: ProductAdCreateBody,
    response: ProductAdDetailSchema,
    status: 201,
  }),
  productAdsByRequest: endpoint({
    method: "GET",
    path: "/product-ads/by-request/{id}",
    summary: "The ads made from an ad request, oldest first; 404 for another vendor's request",
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    response: z.object({ items: z.array(ProductAdSchema) }),
  }),
  productAdsGet: endpoint({
    method: "GET",
    path: "/product-ads/{id}",
    summary: "One ad with its timeline (oldest first) and metrics totals; 404 for another vendor's",
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    response: ProductAdDetailSchema,
  }),
  productAdsUpdate: endpoint({
    method: "PATCH",
    path: "/product-ads/{id}",
    summary: "Edit an ad (team) while PENDING, COMPLETED or FEEDBACK_PENDING (a COMPLETED ad stays COMPLETED); 409 once approved",
    tags: ["Product ads"],
    access: productAdsTeamAccess,
    params: IdParams,
    body: ProductAdUpdateBody,
    response: ProductAdDetailSchema,
  }),
  productAdsDelete: endpoint({
    method: "DELETE",
    path: "/product-ads/{id}",
    summary: "Delete an ad (team); 409 while LIVE (unpublish it first)",
    tags: ["Product ads"],
    access: productAdsTeamAccess,
    params: IdParams,
    response: Ok,
  }),
  productAdsComplete: endpoint({
    method: "POST",
    path: "/product-ads/{id}/complete",
    summary: moveSummary("PENDING or FEEDBACK_PENDING → COMPLETED (team): the ad is ready for the vendor's review. Needs a headline, a primary text and a creative (422)."),
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    body: ProductAdNoteBody,
    response: ProductAdDetailSchema,
  }),
  productAdsApprove: endpoint({
    method: "POST",
    path: "/product-ads/{id}/approve",
    summary: moveSummary("COMPLETED → APPROVED (the ad's vendor or the team)."),
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    body: ProductAdNoteBody,
    response: ProductAdDetailSchema,
  }),
  productAdsFeedback: endpoint({
    method: "POST",
    path: "/product-ads/{id}/feedback",
    summary: moveSummary("COMPLETED → FEEDBACK_PENDING with the changes asked for (the ad's vendor or the team); the text joins the timeline."),
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    body: ProductAdFeedbackBody,
    response: ProductAdDetailSchema,
  }),
  productAdsPublish: endpoint({
    method: "POST",
    path: "/product-ads/{id}/publish",
    summary: moveSummary(
      "APPROVED or INACTIVE → LIVE (team) on the ads platform (first time: created; then resumed). When the platform refuses: 502 with its reason, the status unchanged, the failure on the timeline and in meta_error.",
    ),
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    response: ProductAdDetailSchema,
  }),
  productAdsUnpublish: endpoint({
    method: "POST",
    path: "/product-ads/{id}/unpublish",
    summary: moveSummary("LIVE → INACTIVE (team, or the ad's vendor to stop spending): paused on the ads platform; 502 with its reason when it refuses, nothing moves."),
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    response: ProductAdDetailSchema,
  }),
  vendorsMeAds: endpoint({
    method: "GET",
    path: "/vendors/me/ads",
    summary: "The caller's vendor's product ads, as GET /product-ads answers them (same filters but vendorId)",
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorAdsQuery,
    response: ProductAdsPageSchema,
  }),
  vendorsAds: endpoint({
    method: "GET",
    path: "/vendors/{id}/ads",
    summary: "A vendor's product ads, as /vendors/me/ads answers them (admins with vendors.manage or ads.manage; a vendor for its own id only); 404 for an unknown vendor",
    tags: ["Vendors (admin)"],
    access: vendorAdsByIdAccess,
    params: IdParams,
    query: VendorAdsQuery,
    response: ProductAdsPageSchema,
  }),
};
