import type { productAdMetricsEndpoints } from "~/contract/product-ad-metrics";
import type { HandlersFor } from "../router.server";
import { hasPermission, type AuthState } from "../auth.server";
import { forbidden, notFound } from "../errors.server";
import { enqueueMetricsSync, getAdMetrics, getMetricsSyncJob, getVendorAdMetrics, MetricsMessages, type MetricsScope } from "~/services/product-ads/metrics.server";

/** Vendors read their own vendor's ads only (the router let in linked VENDOR users and admins with the permission). */
const scopeOf = (auth: AuthState): MetricsScope => (auth.user!.role === "VENDOR" ? { vendorId: auth.user!.vendor_id! } : { vendorId: null });

/** /vendors/{id}/ads/metrics: admins with vendors.manage or ads.manage; a vendor its own id only (404 for any other). */
function vendorById(auth: AuthState, id: string): string {
  const user = auth.user!;
  if (user.role === "VENDOR") {
    if (user.vendor_id !== id) throw notFound(MetricsMessages.VENDOR_NOT_FOUND);
  } else if (!hasPermission(user, "vendors.manage") && !hasPermission(user, "ads.manage")) {
    throw forbidden();
  }
  return id;
}

export const productAdMetricsHandlers: HandlersFor<typeof productAdMetricsEndpoints> = {
  productAdsSyncMetaPerformance: async ({ ctx, input }) => enqueueMetricsSync(ctx, input.body),
  productAdsSyncJob: async ({ ctx, input }) => getMetricsSyncJob(ctx.db, input.params.id),
  productAdsMetrics: async ({ auth, ctx, input }) => getAdMetrics(ctx, scopeOf(auth), input.params.id, input.query),
  vendorsMeAdsMetrics: async ({ auth, ctx, input }) => getVendorAdMetrics(ctx, auth.user!.vendor_id!, input.query),
  vendorsAdsMetrics: async ({ auth, ctx, input }) => getVendorAdMetrics(ctx, vendorById(auth, input.params.id), input.query),
};
