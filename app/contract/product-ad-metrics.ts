/**
 * Product ad metrics (issue 18; docs/product-ads.md "The ads platform", "Vendor mirrors"): the
 * sync from the ads platform (a job) and the reads of the stored daily metrics.
 *
 * - `POST /product-ads/sync-meta-performance` `{from?, to?, ad_ids?}` → 202 `{jobId}`: the team
 *   (admins with `ads.manage`). Without `ad_ids`, every ad that was LIVE at some point of the
 *   range; with them, those ads (each must exist and have been published: 422 otherwise). Default
 *   range: the last 30 days to today (store time zone). The same sync already queued or running
 *   answers its job. Progress (ads done / ads to do, as 0–100) at `GET /product-ads/sync-jobs/{id}`.
 *   A daily job syncs the last 3 days of every ad that was LIVE in them.
 * - `GET /product-ads/{id}/metrics` (`from`, `to`): the ad's vendor or the team; another vendor's
 *   ad answers 404.
 * - `GET /vendors/me/ads/metrics` (a vendor) and `GET /vendors/{id}/ads/metrics` (admins with
 *   `vendors.manage` or `ads.manage`; a vendor for its own id only, 404 for any other).
 *
 * Ranges are calendar days (YYYY-MM-DD, both included, at most 366 days; default the last 30).
 * Every day of the range is in `daily`, zeros where nothing was delivered. CTR = clicks /
 * impressions, CPC = spend / clicks, ROAS = purchase value / spend: null when the divisor is 0.
 * Money: decimal strings with two decimals in `currencyCode`.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, RecordId as Id, RecordIdParams as IdParams } from "./common";
import { checkDayRange, DateOnly } from "./date-range";
import { ProductAdMetricsTotalsSchema, ProductAdStatusSchema, productAdsAccess, productAdsTeamAccess, vendorAdsByIdAccess } from "./product-ads";

export const AD_METRICS_MAX_DAYS = 366;
export const AD_METRICS_DEFAULT_DAYS = 30;
export const AD_SYNC_MAX_ADS = 500;


export const AdMetricsRangeQuery = z
  .object({
    from: DateOnly.optional().describe(`first day (YYYY-MM-DD); default: ${AD_METRICS_DEFAULT_DAYS - 1} days before \`to\``),
    to: DateOnly.optional().describe("last day (YYYY-MM-DD); default: today in the store's time zone"),
  })
  .superRefine(checkDayRange(AD_METRICS_MAX_DAYS));

export const SyncAdMetricsBody = z
  .object({
    from: DateOnly.optional(),
    to: DateOnly.optional(),
    ad_ids: z
      .array(Id)
      .min(1, "give at least one ad id, or leave ad_ids out to sync every ad live in the range")
      .max(AD_SYNC_MAX_ADS, `at most ${AD_SYNC_MAX_ADS} ads`)
      .optional(),
  })
  .superRefine(checkDayRange(AD_METRICS_MAX_DAYS));

export const AdMetricsDaySchema = ProductAdMetricsTotalsSchema.extend({ date: z.string().describe("YYYY-MM-DD") });

export const ProductAdMetricsSchema = z.object({
  adId: z.string(),
  status: ProductAdStatusSchema,
  from: z.string(),
  to: z.string(),
  currencyCode: z.string(),
  totals: ProductAdMetricsTotalsSchema,
  /** Every day of the range, oldest first. */
  daily: z.array(AdMetricsDaySchema),
  /** The ad's last successful sync. */
  syncedAt: IsoDate.nullable(),
  /** The last ads-platform error of the ad (publish, pause, sync), cleared by the next success. */
  metaError: z.string().nullable(),
});
export type ProductAdMetrics = z.output<typeof ProductAdMetricsSchema>;

export const VendorAdMetricsRowSchema = z.object({
  id: z.string(),
  status: ProductAdStatusSchema,
  headline: z.string(),
  product: z.object({ id: z.string(), title: z.string() }),
  totals: ProductAdMetricsTotalsSchema,
  syncedAt: IsoDate.nullable(),
});

export const VendorAdMetricsSchema = z.object({
  vendorId: z.string(),
  from: z.string(),
  to: z.string(),
  currencyCode: z.string(),
  totals: ProductAdMetricsTotalsSchema,
  daily: z.array(AdMetricsDaySchema),
  /** Ads with delivery in the range and ads LIVE now, most spend first. */
  ads: z.array(VendorAdMetricsRowSchema),
});
export type VendorAdMetrics = z.output<typeof VendorAdMetricsSchema>;

export const AdMetricsSyncJobSchema = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "completed", "failed", "cancelled"]),
  /** 0–100: ads done of the ads to do. */
  progress: z.number().int(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The daily sync (not one the team asked for). */
  scheduled: z.boolean(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  result: z
    .object({
      /** Ads to sync, and ads done. */
      total: z.number().int(),
      done: z.number().int(),
      /** Daily rows written, and rows removed (days the platform no longer reports). */
      rows: z.number().int(),
      removed: z.number().int(),
      /** Ads the platform refused to report, with its reason. */
      failed: z.array(z.object({ adId: z.string(), error: z.string() })),
      platform: z.string(),
    })
    .nullable(),
  /** The last failure (a queued job with an error is waiting for its retry). */
  error: z.string().nullable(),
  runAt: IsoDate,
  createdAt: IsoDate,
  completedAt: IsoDate.nullable(),
});
export type AdMetricsSyncJob = z.output<typeof AdMetricsSyncJobSchema>;

const RANGE_NOTE = `Days are YYYY-MM-DD in the store's time zone, both included (at most ${AD_METRICS_MAX_DAYS}; default the last ${AD_METRICS_DEFAULT_DAYS}); every day of the range is answered, zeros where nothing was delivered. CTR = clicks / impressions, CPC = spend / clicks, ROAS = purchase value / spend (null when the divisor is 0).`;

export const productAdMetricsEndpoints = {
  productAdsSyncMetaPerformance: endpoint({
    method: "POST",
    path: "/product-ads/sync-meta-performance",
    summary:
      "Read the ads' delivery from the ads platform into the daily metrics, as a job (202 {jobId}; progress at GET /product-ads/sync-jobs/{id}). Without ad_ids: every ad LIVE at some point of the range (default the last 30 days). The same sync already queued or running answers its job.",
    tags: ["Product ads"],
    access: productAdsTeamAccess,
    body: SyncAdMetricsBody,
    response: z.object({ jobId: z.string() }),
    status: 202,
  }),
  productAdsSyncJob: endpoint({
    method: "GET",
    path: "/product-ads/sync-jobs/{id}",
    summary: "Status, progress (ads done of ads to do, 0–100) and result of a metrics sync job (the team)",
    tags: ["Product ads"],
    access: productAdsTeamAccess,
    params: IdParams,
    response: AdMetricsSyncJobSchema,
  }),
  productAdsMetrics: endpoint({
    method: "GET",
    path: "/product-ads/{id}/metrics",
    summary: `One ad's totals and daily series (the ad's vendor, or the team; another vendor's ad: 404). ${RANGE_NOTE}`,
    tags: ["Product ads"],
    access: productAdsAccess,
    params: IdParams,
    query: AdMetricsRangeQuery,
    response: ProductAdMetricsSchema,
  }),
  vendorsMeAdsMetrics: endpoint({
    method: "GET",
    path: "/vendors/me/ads/metrics",
    summary: `The caller's vendor's ads: totals, daily series and one row per ad. ${RANGE_NOTE}`,
    tags: ["Vendors"],
    access: access.vendor,
    query: AdMetricsRangeQuery,
    response: VendorAdMetricsSchema,
  }),
  vendorsAdsMetrics: endpoint({
    method: "GET",
    path: "/vendors/{id}/ads/metrics",
    summary: `A vendor's ads metrics, as /vendors/me/ads/metrics answers them (admins with vendors.manage or ads.manage; a vendor for its own id only); 404 for an unknown vendor. ${RANGE_NOTE}`,
    tags: ["Vendors (admin)"],
    access: vendorAdsByIdAccess,
    params: IdParams,
    query: AdMetricsRangeQuery,
    response: VendorAdMetricsSchema,
  }),
};
