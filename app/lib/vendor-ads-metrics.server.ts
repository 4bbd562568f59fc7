/**
 * The vendor ad pages' metrics reads (docs/product-ads.md "metrics"): the vendor's totals, daily
 * series and per-ad rows over a range (as GET /vendors/me/ads/metrics), and one ad's since it went
 * live (as GET /product-ads/{id}/metrics), mapped to the pages' view shapes. The range goes through
 * the API's zod query first, so a range the API refuses shows the API's message as `error` instead
 * of failing the page.
 */
import type { AdFigures, AdMetricsView } from "~/components/vendor/ad-views";
import { getAppContext } from "~/context.server";
import { AD_METRICS_MAX_DAYS, AdMetricsRangeQuery } from "~/contract/product-ad-metrics";
import type { ProductAdMetricsTotals } from "~/contract/product-ads";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { addDays, todayIn } from "~/lib/store-time-zone";
import { getAdMetrics, getVendorAdMetrics } from "~/services/product-ads/metrics.server";

export interface VendorAdMetricsRead {
  view: { metrics: AdMetricsView; perAd: { id: string; figures: AdFigures }[] } | null;
  error: string | null;
}

const figures = (t: ProductAdMetricsTotals): AdFigures => ({
  impressions: t.impressions,
  clicks: t.clicks,
  spend: t.spend,
  purchases: t.purchases,
  purchaseValue: t.purchaseValue,
  ctr: t.ctr,
  roas: t.roas,
});

const view = (m: { from: string; to: string; currencyCode: string; totals: ProductAdMetricsTotals; daily: (ProductAdMetricsTotals & { date: string })[] }): AdMetricsView => ({
  from: m.from,
  to: m.to,
  currencyCode: m.currencyCode,
  totals: figures(m.totals),
  daily: m.daily.map((d) => ({ date: d.date, impressions: d.impressions, clicks: d.clicks, spend: d.spend })),
});

const deps = () => {
  const ctx = getAppContext();
  return { db: ctx.db, config: ctx.config };
};

export async function loadVendorAdMetrics(vendorId: string, asked: { from?: string; to?: string }): Promise<VendorAdMetricsRead> {
  const parsed = AdMetricsRangeQuery.safeParse(asked);
  if (!parsed.success) return { view: null, error: issuesMessage(parsed.error) };
  try {
    const m = await getVendorAdMetrics(deps(), vendorId, parsed.data);
    return { view: { metrics: view(m), perAd: m.ads.map((a) => ({ id: a.id, figures: figures(a.totals) })) }, error: null };
  } catch (e) {
    return { view: null, error: refusalOf(e).message };
  }
}

/** The ad's delivery from the day it first went live (at most the API's widest range) to today. */
export async function loadAdMetrics(scope: { caller: { vendorId: string | null } }, adId: string, publishedAt: string | null): Promise<{ view: AdMetricsView | null; error: string | null }> {
  if (!publishedAt) return { view: null, error: null };
  const ctx = getAppContext();
  const to = todayIn(ctx.config.STORE_TIMEZONE ?? "UTC");
  const earliest = addDays(to, -(AD_METRICS_MAX_DAYS - 1));
  // A day early: the UTC day of the first publish may be the store's day after.
  const live = addDays(publishedAt.slice(0, 10), -1);
  const from = live > to ? to : live < earliest ? earliest : live;
  try {
    return { view: view(await getAdMetrics(deps(), { vendorId: scope.caller.vendorId }, adId, { from, to })), error: null };
  } catch (e) {
    return { view: null, error: refusalOf(e).message };
  }
}
