/**
 * Order analytics for admins (issue 16): totals and daily series over a date range, top products
 * and top vendors. One model with the rest of the orders API: the figures are read from the same
 * orders, items, returns and return requests the order pages show.
 *
 * Days are calendar days in the store's time zone (STORE_TIMEZONE, default UTC; named in the
 * answer's `timeZone`), as Shopify's own reports count them: an order placed at 23:30 UTC belongs to
 * the next day in Tokyo. `from` and `to` are both included. Default: the last 30 days up to today
 * in that zone. At most 366 days; `from` after `to`, or a longer range, answers 400.
 * `compare=previous` adds the same figures for the period of the same length just before (the 30
 * days before a 30-day range), for the change of each figure.
 *
 * Definitions (an order belongs to the day it was placed, `created_at`):
 * - orders: every order placed that day, cancelled ones included;
 * - cancelledOrders / cancelRate: orders placed that day whose status is cancelled, over orders;
 * - revenue: the sum of the order totals (`total_price`: items, shipping and tax, after discounts)
 *   of orders that are not cancelled; refunds of returns are not deducted (see refunded);
 * - averageOrderValue: revenue / orders not cancelled (0 when there are none);
 * - units: quantities of the items of orders not cancelled, items cancelled on their own left out;
 * - returnedUnits: of those units, the ones in a live return (a return not CANCELED whose return
 *   request, if any, is not DECLINED or CANCELED) or whose item status is `returned`, counted once
 *   per item and at most its quantity; attributed to the day the order was placed (a cohort view:
 *   the return rate of a day can still rise later);
 * - returnRate: returnedUnits / units (0 when no units);
 * - refunded: refund amounts of the returns of those orders that were refunded.
 * Rates are fractions between 0 and 1 (four decimals). Amounts are decimal strings with two
 * decimals, in `currencyCode` (the store's currency: the one most orders of the range use; a store
 * sells in one currency, so amounts are summed as they are).
 * Top products and vendors: by item revenue (price × quantity of the units above), then units;
 * the first 10. Items without a vendor count for their product but no vendor.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { checkDayRange, DateOnly } from "./date-range";

export { analyticsRangeDays } from "./date-range";

export const ANALYTICS_DEFAULT_DAYS = 30;
export const ANALYTICS_MAX_DAYS = 366;
export const ANALYTICS_TOP_LIMIT = 10;

export const OrderAnalyticsQuery = z
  .object({
    from: DateOnly.optional(),
    to: DateOnly.optional(),
    compare: z.enum(["previous"]).optional().describe("previous: also the figures of the period of the same length just before"),
  })
  .superRefine(checkDayRange(ANALYTICS_MAX_DAYS));

const Amount = z.string().describe("decimal amount with two decimals, in currencyCode");
const Rate = z.number().min(0).max(1);

export const AnalyticsFiguresSchema = z.object({
  orders: z.number().int(),
  cancelledOrders: z.number().int(),
  revenue: Amount,
  averageOrderValue: Amount,
  units: z.number().int(),
  returnedUnits: z.number().int(),
  refunded: Amount,
  returnRate: Rate,
  cancelRate: Rate,
});
export type AnalyticsFigures = z.output<typeof AnalyticsFiguresSchema>;

export const AnalyticsDaySchema = AnalyticsFiguresSchema.extend({ date: z.string().describe("YYYY-MM-DD, a calendar day in timeZone") });

export const AnalyticsTopProductSchema = z.object({
  productId: z.string().nullable(),
  title: z.string(),
  vendorId: z.string().nullable(),
  vendorName: z.string().nullable(),
  units: z.number().int(),
  revenue: Amount,
});
export const AnalyticsTopVendorSchema = z.object({
  vendorId: z.string(),
  name: z.string(),
  units: z.number().int(),
  revenue: Amount,
});

export const OrderAnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string().describe("the store's IANA time zone the days are counted in"),
  currencyCode: z.string(),
  totals: AnalyticsFiguresSchema,
  daily: z.array(AnalyticsDaySchema),
  topProducts: z.array(AnalyticsTopProductSchema),
  topVendors: z.array(AnalyticsTopVendorSchema),
  /** With `compare=previous`: the period of the same length ending the day before `from`; else null. */
  compare: z
    .object({ from: z.string(), to: z.string(), totals: AnalyticsFiguresSchema, daily: z.array(AnalyticsDaySchema) })
    .nullable(),
});
export type OrderAnalytics = z.output<typeof OrderAnalyticsSchema>;

export const orderAnalyticsEndpoints = {
  ordersAdminAnalytics: endpoint({
    method: "GET",
    path: "/orders/admin/analytics",
    summary:
      "Order analytics for a date range (from/to as YYYY-MM-DD, calendar days in the store's time zone, both included; default the last 30 days, at most 366): totals and a daily series (every day, zeros for days without orders) of orders, revenue, average order value, units, return rate and cancel rate, and the top 10 products and vendors by revenue; with compare=previous, also the totals and days of the period of the same length just before. Definitions in app/contract/order-analytics.ts.",
    tags: ["Orders"],
    access: access.admin("orders.manage"),
    query: OrderAnalyticsQuery,
    response: OrderAnalyticsSchema,
  }),
};
