/**
 * Recommendations (SPEC §7 "Recommendations" and Users "view-product").
 *
 * Every list answers `{results, reasons, source, pagination}`: product cards (visible products
 * only), the strategy behind each card (`reasons[i]` for `results[i]`), the strategy of the list as
 * a whole (`source`), and the pagination in the search shape (SPEC §3: hasNextPage,
 * hasPreviousPage, currentPage, cursor). Lists are paged by `page` (1-based) and `limit`, except
 * the random list, which is paged by `cursor` (keyset over a seeded order; `currentPage` null).
 * Common query: `target_gender` (menswear | womenswear | both: a gender keeps its products and
 * those for both), `limit` (default 20, max 60), `exclude` (product ids, GID or numeric, as
 * `exclude=a,b` or repeated). An unknown product id answers an empty list (SPEC §8 style).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, TargetGender, intParam } from "./common";
import { Messages } from "./messages";
import { ProductCardSchema, ProductIdParams } from "./products";

export const RecommendationSource = z.enum([
  // lists as a whole
  "personalized",
  "cold-start",
  "random",
  "most-viewed",
  "best-sellers",
  "newest",
  "co-viewed",
  "co-purchased",
  "similar",
  "complementary",
  "none",
  // single cards of a blended list
  "followed-store",
  "interest",
  "popular",
  "saved",
  "recently-viewed",
]);
export type RecommendationSource = z.infer<typeof RecommendationSource>;

/** `exclude=a,b`, repeated `exclude`, or `exclude[]`: product ids (GID or numeric). */
const ExcludeIds = z.preprocess(
  (v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(",")).map((x) => x.trim()).filter(Boolean)),
  z.array(z.string().max(200)).max(200, "exclude: at most 200 ids"),
);

export const RecommendationsPageQuery = z.object({
  target_gender: TargetGender.optional(),
  limit: intParam(20, 1, 60),
  page: intParam(1, 1, 500),
  exclude: ExcludeIds,
});
export type RecommendationsPageQuery = z.output<typeof RecommendationsPageQuery>;

export const RecommendationsRandomQuery = z.object({
  target_gender: TargetGender.optional(),
  limit: intParam(20, 1, 60),
  /** The order's seed: the storefront passes its session id. Absent: a new seed is drawn and answered. */
  seed: z.string().trim().min(1).max(200).optional(),
  /** `pagination.cursor` of the previous page (it remembers the seed). */
  cursor: z.string().trim().min(1).max(600).optional(),
  exclude: ExcludeIds,
});
export type RecommendationsRandomQuery = z.output<typeof RecommendationsRandomQuery>;

export const RecommendationsPagination = z.object({
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  /** The page answered (page-based lists), null for the cursor-paged random list. */
  currentPage: z.number().int().nullable(),
  /** The cursor of the next page (random list), else null. */
  cursor: z.string().nullable(),
  limit: z.number().int(),
});

export const RecommendationsResult = z.object({
  results: z.array(ProductCardSchema),
  /** Why each card is there, in the order of `results`. */
  reasons: z.array(RecommendationSource),
  /** The strategy that produced the list. */
  source: RecommendationSource,
  pagination: RecommendationsPagination,
});
export type RecommendationsResult = z.output<typeof RecommendationsResult>;

const Email = z.string().trim().toLowerCase().max(254).check(z.email("Enter a valid email address"));

export const RecommendationsEmailKind = z.enum(["for-you", "most-viewed", "best-sellers"]);

export const RecommendationsProfileSchema = z.object({
  user: z.object({ id: z.string(), email: z.string().nullable(), auth_provider: z.string() }),
  targetGender: TargetGender,
  interests: z.array(z.string()),
  savedProductIds: z.array(z.string()),
  recentlyViewedIds: z.array(z.string()),
  followedStoreIds: z.array(z.string()),
  purchasedProductIds: z.array(z.string()),
  /** True when nothing but the gender is known: for-you answers popular products. */
  coldStart: z.boolean(),
});

const JobAccepted = z.object({ jobId: z.string() });

const ProductPathId = ProductIdParams;

export const recommendationsEndpoints = {
  recommendationsViewProduct: endpoint({
    method: "POST",
    path: "/users/view-product",
    summary:
      "Record that the current user viewed a product (guests included). Updates the product's popularity and the \"viewed together\" pairs with the user's other views of the last 24 hours; a repeated view of the same product within 30 minutes counts once (recorded: false). 404 for an unknown or hidden product.",
    tags: ["Recommendations"],
    access: access.user,
    body: z.object({
      product_id: z.preprocess(
        (v) => (typeof v === "number" ? String(v) : v),
        z
          .string({ error: Messages.NO_PRODUCT_ID })
          .trim()
          .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID),
      ),
      session_id: z.string().trim().max(200).optional(),
    }),
    response: z.object({ recorded: z.boolean(), productId: z.string() }),
    status: 201,
  }),
  recommendationsForYou: endpoint({
    method: "GET",
    path: "/recommendations/for-you",
    summary:
      "Personalised products for the current user (guests included), page-based: co-occurrence with recent views and saved products, taste-vector similarity, followed stores and interests, blended with popularity; popular products for the gender when nothing is known yet (source cold-start). Stable for a user within a day.",
    tags: ["Recommendations"],
    access: access.user,
    query: RecommendationsPageQuery,
    response: RecommendationsResult,
  }),
  recommendationsRandom: endpoint({
    method: "GET",
    path: "/recommendations/random",
    summary:
      "The visible catalogue in a random order that is stable per `seed` (pass the session id): page with `pagination.cursor`; pages never repeat a product and together cover the catalogue. Without a seed one is drawn and answered in `seed`.",
    tags: ["Recommendations"],
    access: access.public,
    query: RecommendationsRandomQuery,
    response: RecommendationsResult.extend({ seed: z.string().nullable() }),
  }),
  recommendationsMostViewed: endpoint({
    method: "GET",
    path: "/recommendations/most-viewed",
    summary: "Most viewed products by decayed views (half-life 14 days), page-based; the newest products when nothing was viewed yet (source newest).",
    tags: ["Recommendations"],
    access: access.public,
    query: RecommendationsPageQuery,
    response: RecommendationsResult,
  }),
  recommendationsBestSellers: endpoint({
    method: "GET",
    path: "/recommendations/best-sellers",
    summary:
      "Best sellers by decayed units sold (half-life 30 days), then units, page-based; most viewed (then newest) products when nothing was sold yet.",
    tags: ["Recommendations"],
    access: access.public,
    query: RecommendationsPageQuery,
    response: RecommendationsResult,
  }),
  recommendationsCustomersAlsoViewed: endpoint({
    method: "GET",
    path: "/recommendations/customers-also-viewed/{id}",
    summary:
      "Products viewed in the same sessions as this product (decayed), filled with similar products by attributes when there are few; page-based. An unknown product answers an empty list.",
    tags: ["Recommendations"],
    access: access.public,
    params: ProductPathId,
    query: RecommendationsPageQuery,
    response: RecommendationsResult,
  }),
  recommendationsFrequentlyBoughtTogether: endpoint({
    method: "GET",
    path: "/recommendations/frequently-bought-together/{id}",
    summary:
      "Products bought in the same orders as this product, complementary types first (a top suggests bottoms, outerwear, footwear, accessories), filled with popular complementary products of a compatible gender and price range; page-based. An unknown product answers an empty list.",
    tags: ["Recommendations"],
    access: access.public,
    params: ProductPathId,
    query: RecommendationsPageQuery,
    response: RecommendationsResult,
  }),
  recommendationsAdminForYouByEmail: endpoint({
    method: "GET",
    path: "/recommendations/admin/for-you/by-email",
    summary: "The for-you list of the user with this email, as that user would see it now. 404 when no user has the email.",
    tags: ["Recommendations admin"],
    access: access.admin("recommendations.manage"),
    query: RecommendationsPageQuery.extend({ email: Email }),
    response: RecommendationsResult.extend({ user: z.object({ id: z.string(), email: z.string().nullable() }) }),
  }),
  recommendationsAdminProfileByEmail: endpoint({
    method: "GET",
    path: "/recommendations/admin/profile/by-email",
    summary: "What the recommendations know about the user with this email: gender preference, interests, saved, recently viewed and purchased products, followed stores. 404 when no user has the email.",
    tags: ["Recommendations admin"],
    access: access.admin("recommendations.manage"),
    query: z.object({ email: Email }),
    response: RecommendationsProfileSchema,
  }),
  recommendationsTestEmail: endpoint({
    method: "POST",
    path: "/recommendations/test-email",
    summary:
      "Render a recommendations email (for-you, most-viewed or best-sellers) for the user with this email and queue it to that address (outbox in local mode). 404 when no user has the email; 422 when there is nothing to recommend.",
    tags: ["Recommendations admin"],
    access: access.admin("recommendations.manage"),
    body: z.object({ email: Email, kind: RecommendationsEmailKind.default("for-you") }),
    response: z.object({ emailId: z.string(), to: z.string(), subject: z.string(), kind: RecommendationsEmailKind, productCount: z.number().int() }),
    status: 202,
  }),
  recommendationsAdminRebuild: endpoint({
    method: "POST",
    path: "/recommendations/admin/rebuild",
    summary: "Recompute popularity and co-occurrences from every view and purchase event, as a job (202 {jobId}; status at GET /recommendations/admin/jobs/{id}).",
    tags: ["Recommendations admin"],
    access: access.admin("recommendations.manage"),
    response: JobAccepted,
    status: 202,
  }),
  recommendationsAdminJob: endpoint({
    method: "GET",
    path: "/recommendations/admin/jobs/{id}",
    summary: "Status, progress and result of a recommendations rebuild job.",
    tags: ["Recommendations admin"],
    access: access.admin("recommendations.manage"),
    params: z.object({ id: z.string().min(1) }),
    response: z.object({
      id: z.string(),
      status: z.enum(["queued", "running", "completed", "failed", "cancelled"]),
      progress: z.number().int(),
      result: z.object({ popularity: z.number().int(), viewPairs: z.number().int(), purchasePairs: z.number().int(), ms: z.number().int() }).nullable(),
      error: z.string().nullable(),
      createdAt: IsoDate,
      completedAt: IsoDate.nullable(),
    }),
  }),
};
