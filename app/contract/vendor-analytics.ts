/**
 * Vendor analytics (issue 17): a vendor's product performance over a date range, for the vendor
 * under /vendors/me/… and for admins under /vendors/{id}/… with the same answers.
 *
 * Every figure is read from the daily stats table (product_daily_stats: one row per product and
 * calendar day, kept up to date as events happen), never from the raw event tables, so an answer
 * costs the days × products of the range, not the events behind them.
 *
 * Days are calendar days in the store's time zone (STORE_TIMEZONE, named in `timeZone`). `from`
 * and `to` (YYYY-MM-DD) are both included; default: the last 30 days up to today in that zone; at
 * most 366 days; `from` after `to` or a longer range answers 400. A range without activity answers
 * zeros (every day present in the series), never an error.
 *
 * Measures (per product and day, counted on the day the event happened):
 * - views, saves, tryOns: product views, saves (un-saves are not subtracted) and try-ons;
 * - addToCarts: units added to carts through the app's cart API (carts built in Shopify's own
 *   storefront are not known to the app);
 * - orders: orders containing the product, placed that day; units: its units ordered;
 * - revenue: price × quantity of its order items that were not cancelled;
 * - returnedUnits: units received back, on the day the return was confirmed;
 * - refunds: amounts refunded for the product, on the refund day;
 * - returnRate: returnedUnits / units of the same range (0 without units; returns come on the day
 *   they are received, so a single day can go above 1);
 * - conversion: orders / views (0 without views; orders placed without a view the app saw can
 *   take it above 1).
 * Rates have four decimals. Amounts are decimal strings with two decimals in `currencyCode`.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { vendorByIdAccess, VendorProductStatusSchema } from "./vendors";
import { ANALYTICS_MAX_DAYS } from "./order-analytics";
import { checkDayRange, DateOnly } from "./date-range";

export const VENDOR_ANALYTICS_DEFAULT_DAYS = 30;
export const VENDOR_ANALYTICS_MAX_DAYS = ANALYTICS_MAX_DAYS;
export const VENDOR_TOP_PRODUCTS_DEFAULT_LIMIT = 10;
export const VENDOR_TOP_PRODUCTS_MAX_LIMIT = 50;
export const VENDOR_PERFORMANCE_DEFAULT_LIMIT = 25;
export const VENDOR_PERFORMANCE_MAX_LIMIT = 100;

const rangeFields = {
  from: DateOnly.optional().describe("first day (YYYY-MM-DD, in the store's time zone); default 29 days before `to`"),
  to: DateOnly.optional().describe("last day, included; default today in the store's time zone"),
};

const checkRange = checkDayRange(VENDOR_ANALYTICS_MAX_DAYS);

/** The measures of the table, in the order the pages show them. */
export const VendorMeasureNames = ["views", "saves", "tryOns", "addToCarts", "orders", "units", "revenue", "returnedUnits", "refunds"] as const;
export type VendorMeasureName = (typeof VendorMeasureNames)[number];

export const VendorTopProductsBy = ["revenue", "units", "views", "saves", "try_ons"] as const;
export type VendorTopProductsBy = (typeof VendorTopProductsBy)[number];

export const VendorPerformanceSort = [
  "views",
  "saves",
  "try_ons",
  "add_to_carts",
  "orders",
  "units",
  "revenue",
  "returned_units",
  "refunds",
  "return_rate",
  "conversion",
  "title",
] as const;
export type VendorPerformanceSort = (typeof VendorPerformanceSort)[number];

const Amount = z.string().describe("decimal amount with two decimals, in currencyCode");
const Rate = z.number().min(0).describe("a fraction with four decimals (0.25 = 25 %)");

export const VendorMeasuresSchema = z.object({
  views: z.number().int(),
  saves: z.number().int(),
  tryOns: z.number().int(),
  addToCarts: z.number().int(),
  orders: z.number().int(),
  units: z.number().int(),
  revenue: Amount,
  returnedUnits: z.number().int(),
  refunds: Amount,
  returnRate: Rate.describe("returnedUnits / units (0 without units)"),
  conversion: Rate.describe("orders / views (0 without views)"),
});
export type VendorMeasures = z.output<typeof VendorMeasuresSchema>;

export const VendorMeasuresDaySchema = VendorMeasuresSchema.extend({ date: z.string().describe("YYYY-MM-DD, a calendar day in timeZone") });
export type VendorMeasuresDay = z.output<typeof VendorMeasuresDaySchema>;

const RangeAnswer = {
  vendorId: z.string(),
  from: z.string(),
  to: z.string(),
  timeZone: z.string().describe("the store's IANA time zone the days are counted in"),
  currencyCode: z.string(),
};

// ---- summary -------------------------------------------------------------------------------------

export const VendorAnalyticsSummaryQuery = z
  .object({
    ...rangeFields,
    compare: z.enum(["previous"]).optional().describe("previous: also the figures of the period of the same length just before"),
  })
  .superRefine(checkRange);

export const VendorAnalyticsSummarySchema = z.object({
  ...RangeAnswer,
  totals: VendorMeasuresSchema,
  /** Every day of the range, zeros for days without activity. */
  daily: z.array(VendorMeasuresDaySchema),
  /** With `compare=previous`: the period of the same length ending the day before `from`; else null. */
  compare: z.object({ from: z.string(), to: z.string(), totals: VendorMeasuresSchema, daily: z.array(VendorMeasuresDaySchema) }).nullable(),
});
export type VendorAnalyticsSummary = z.output<typeof VendorAnalyticsSummarySchema>;

// ---- top products --------------------------------------------------------------------------------

export const VendorTopProductsQuery = z
  .object({
    ...rangeFields,
    by: z.enum(VendorTopProductsBy).default("revenue").describe("the measure to rank by (ties: revenue, then units, then title)"),
    limit: z.coerce.number().int().min(1).max(VENDOR_TOP_PRODUCTS_MAX_LIMIT).default(VENDOR_TOP_PRODUCTS_DEFAULT_LIMIT),
  })
  .superRefine(checkRange);

export const VendorProductRefSchema = z.object({
  productId: z.string(),
  title: z.string(),
  handle: z.string().nullable(),
  status: z.string().nullable().describe("active, draft or archived; null when the product is no longer in the catalogue"),
  imageUrl: z.string().nullable(),
});

export const VendorProductPerformanceSchema = VendorProductRefSchema.extend({ measures: VendorMeasuresSchema });
export type VendorProductPerformance = z.output<typeof VendorProductPerformanceSchema>;

export const VendorTopProductsSchema = z.object({
  ...RangeAnswer,
  by: z.enum(VendorTopProductsBy),
  /** Products with a non-zero value of `by`, best first. */
  items: z.array(VendorProductPerformanceSchema),
});
export type VendorTopProducts = z.output<typeof VendorTopProductsSchema>;

// ---- products performance ------------------------------------------------------------------------

export const VendorProductsPerformanceQuery = z
  .object({
    ...rangeFields,
    sort: z.enum(VendorPerformanceSort).default("revenue").describe("ties go by product id"),
    order: z.enum(["asc", "desc"]).optional().describe("default: desc for measures, asc for title"),
    q: z.string().trim().max(200).optional().describe("words of the product title (case-insensitive)"),
    status: VendorProductStatusSchema.optional().describe("only the products with this status in the catalogue now (products no longer in it have none)"),
    cursor: z.string().max(500).optional().describe("nextCursor of the previous page"),
    limit: z.coerce.number().int().min(1).max(VENDOR_PERFORMANCE_MAX_LIMIT).default(VENDOR_PERFORMANCE_DEFAULT_LIMIT),
  })
  .superRefine(checkRange);

export const VendorProductsPerformanceSchema = z.object({
  ...RangeAnswer,
  /** Every product of the vendor (matching q), with zeros for those without activity in the range. */
  items: z.array(VendorProductPerformanceSchema),
  /** The products matching q and status, all pages. */
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type VendorProductsPerformance = z.output<typeof VendorProductsPerformanceSchema>;

// ---- timeseries ----------------------------------------------------------------------------------

export const VendorPerformanceTimeseriesQuery = z
  .object({
    ...rangeFields,
    productId: z.string().trim().min(1).max(300).optional().describe("one product of the vendor; all its products when absent (another vendor's product answers 404)"),
  })
  .superRefine(checkRange);

export const VendorPerformanceTimeseriesSchema = z.object({
  ...RangeAnswer,
  productId: z.string().nullable(),
  totals: VendorMeasuresSchema,
  daily: z.array(VendorMeasuresDaySchema),
});
export type VendorPerformanceTimeseries = z.output<typeof VendorPerformanceTimeseriesSchema>;

// ---- endpoints -----------------------------------------------------------------------------------

const VendorIdParams = z.object({ id: z.string().trim().min(1).max(100) });
const DEFS = "Definitions in app/contract/vendor-analytics.ts.";
const RANGE = "from/to as YYYY-MM-DD, calendar days in the store's time zone, both included; default the last 30 days, at most 366";

export const vendorAnalyticsEndpoints = {
  vendorsMeAnalyticsSummary: endpoint({
    method: "GET",
    path: "/vendors/me/analytics/summary",
    summary: `The signed-in vendor's totals (views, saves, try-ons, add-to-carts, orders, units, revenue, returned units, refunds, return rate, conversion) and daily series over a range (${RANGE}); compare=previous adds the period of the same length just before. ${DEFS}`,
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorAnalyticsSummaryQuery,
    response: VendorAnalyticsSummarySchema,
  }),
  vendorsMeTopProducts: endpoint({
    method: "GET",
    path: "/vendors/me/analytics/top-products",
    summary: `The signed-in vendor's best products over a range (${RANGE}) by revenue, units, views, saves or try-ons (limit ≤ 50), with all their measures. ${DEFS}`,
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorTopProductsQuery,
    response: VendorTopProductsSchema,
  }),
  vendorsMeProductsPerformance: endpoint({
    method: "GET",
    path: "/vendors/me/products/performance",
    summary: `Every product of the signed-in vendor with its measures over a range (${RANGE}), sorted by any measure, searchable by title, cursor-paged. ${DEFS}`,
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorProductsPerformanceQuery,
    response: VendorProductsPerformanceSchema,
  }),
  vendorsMeProductsPerformanceTimeseries: endpoint({
    method: "GET",
    path: "/vendors/me/products/performance/timeseries",
    summary: `Daily series of every measure over a range (${RANGE}) for all the signed-in vendor's products, or one (productId; another vendor's product answers 404). ${DEFS}`,
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorPerformanceTimeseriesQuery,
    response: VendorPerformanceTimeseriesSchema,
  }),
  vendorsAnalyticsSummary: endpoint({
    method: "GET",
    path: "/vendors/{id}/analytics/summary",
    summary: `For admins (vendors.manage): a vendor's analytics summary, as GET /vendors/me/analytics/summary answers it to the vendor. ${DEFS}`,
    tags: ["Vendors"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    query: VendorAnalyticsSummaryQuery,
    response: VendorAnalyticsSummarySchema,
  }),
  vendorsTopProducts: endpoint({
    method: "GET",
    path: "/vendors/{id}/top-products",
    summary: `For admins (vendors.manage): a vendor's best products, as GET /vendors/me/analytics/top-products answers them to the vendor. ${DEFS}`,
    tags: ["Vendors"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    query: VendorTopProductsQuery,
    response: VendorTopProductsSchema,
  }),
  vendorsProductsPerformance: endpoint({
    method: "GET",
    path: "/vendors/{id}/products/performance",
    summary: `For admins (vendors.manage): a vendor's products with their measures, as GET /vendors/me/products/performance answers them to the vendor. ${DEFS}`,
    tags: ["Vendors"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    query: VendorProductsPerformanceQuery,
    response: VendorProductsPerformanceSchema,
  }),
  vendorsProductsPerformanceTimeseries: endpoint({
    method: "GET",
    path: "/vendors/{id}/products/performance/timeseries",
    summary: `For admins (vendors.manage): a vendor's daily series, as GET /vendors/me/products/performance/timeseries answers it to the vendor. ${DEFS}`,
    tags: ["Vendors"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    query: VendorPerformanceTimeseriesQuery,
    response: VendorPerformanceTimeseriesSchema,
  }),
};
