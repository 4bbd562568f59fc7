/**
 * Reviews in the storefront (pure helpers, tested in tests/unit/storefront-reviews.test.ts): query
 * keys, the rating distribution as rows, star text, and the photo checks of the review form.
 */
import type { RatingSummary } from "~/contract";
import { REVIEW_MAX_IMAGES } from "~/contract/reviews";
import { validatePhotoFile, type FileLike } from "./photo";
import { dateTimeFormat } from "./intl-format";

/** Reviews shown at first and added by "More reviews". */
export const REVIEWS_PAGE = 5;

export const reviewKeys = {
  productList: (id: string) => ["reviews", "product", id] as const,
  productSummary: (id: string) => ["reviews", "product-summary", id] as const,
  storeList: (id: string) => ["reviews", "store", id] as const,
  storeSummary: (id: string) => ["reviews", "store-summary", id] as const,
  byToken: (token: string) => ["reviews", "token", token] as const,
  /** Starts with "user": dropped when the shopper signs in or out (lib/session.tsx). */
  reviewableOrders: () => ["user", "reviewable-orders"] as const,
};

export interface DistributionRow {
  stars: 1 | 2 | 3 | 4 | 5;
  count: number;
  /** Share of all reviews, 0–100, rounded. */
  percent: number;
}

/** 5 stars first, with each row's share of the total. */
export function distributionRows(summary: Pick<RatingSummary, "count" | "distribution"> | null | undefined): DistributionRow[] {
  const d = summary?.distribution;
  const total = summary?.count ?? 0;
  return ([5, 4, 3, 2, 1] as const).map((stars) => {
    const count = d ? d[String(stars) as keyof RatingSummary["distribution"]] : 0;
    return { stars, count, percent: total > 0 ? Math.round((count / total) * 100) : 0 };
  });
}

/** "4.3" — one decimal, as shops show it. */
export const formatAverage = (average: number) => (Math.round(average * 10) / 10).toFixed(1);

/** The filled share of five stars for an average (0–100), to draw partial stars. */
export const starFill = (average: number) => Math.max(0, Math.min(100, (average / 5) * 100));

export const reviewCountLabel = (n: number) => `${n.toLocaleString("en")} review${n === 1 ? "" : "s"}`;

export const starsLabel = (n: number) => `${n} star${n === 1 ? "" : "s"}`;

export function formatReviewDate(iso: string, locale = "en-GB"): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : dateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric" }).format(d);
}

/** Why these photos cannot be added to a review that already has `current`, or null. */
export function checkReviewPhotos(files: FileLike[], current: number): string | null {
  if (current + files.length > REVIEW_MAX_IMAGES) return `You can add up to ${REVIEW_MAX_IMAGES} photos.`;
  for (const f of files) {
    const problem = validatePhotoFile(f);
    if (problem) return problem;
  }
  return null;
}

/** Whether more reviews can be loaded after `loaded` of `total`. */
export const hasMoreReviews = (loaded: number, total: number) => loaded < total;
