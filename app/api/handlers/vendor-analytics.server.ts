import type { vendorAnalyticsEndpoints } from "~/contract/vendor-analytics";
import {
  requireVendorExists,
  vendorAnalyticsSummary,
  vendorPerformanceTimeseries,
  vendorProductsPerformance,
  vendorTopProducts,
  type VendorAnalyticsDeps,
} from "~/services/vendors/analytics.server";
import type { AppContext } from "~/context.server";
import { hasPermission, type AuthState } from "../auth.server";
import { forbidden, notFound } from "../errors.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext): VendorAnalyticsDeps => ({ db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE });

/** The signed-in vendor's id (the access rule let in only vendors linked to one). */
function ownVendor(auth: AuthState): string {
  const id = auth.user?.role === "VENDOR" ? auth.user.vendor_id : null;
  if (!id) throw forbidden();
  return id;
}

/**
 * The vendor a route by id may read: any existing vendor for admins with vendors.manage; for a
 * vendor, its own id only — any other id is answered as if it did not exist.
 */
async function vendorById(ctx: AppContext, auth: AuthState, id: string): Promise<string> {
  const user = auth.user;
  if (user?.role === "VENDOR") {
    if (user.vendor_id !== id) throw notFound("Vendor not found");
    return id;
  }
  if (!user || !hasPermission(user, "vendors.manage")) throw forbidden();
  await requireVendorExists(ctx.db, id);
  return id;
}

export const vendorAnalyticsHandlers: HandlersFor<typeof vendorAnalyticsEndpoints> = {
  vendorsMeAnalyticsSummary: async ({ ctx, auth, input }) => vendorAnalyticsSummary(deps(ctx), ownVendor(auth), input.query),
  vendorsMeTopProducts: async ({ ctx, auth, input }) => vendorTopProducts(deps(ctx), ownVendor(auth), input.query),
  vendorsMeProductsPerformance: async ({ ctx, auth, input }) => vendorProductsPerformance(deps(ctx), ownVendor(auth), input.query),
  vendorsMeProductsPerformanceTimeseries: async ({ ctx, auth, input }) => vendorPerformanceTimeseries(deps(ctx), ownVendor(auth), input.query),
  vendorsAnalyticsSummary: async ({ ctx, auth, input }) => vendorAnalyticsSummary(deps(ctx), await vendorById(ctx, auth, input.params.id), input.query),
  vendorsTopProducts: async ({ ctx, auth, input }) => vendorTopProducts(deps(ctx), await vendorById(ctx, auth, input.params.id), input.query),
  vendorsProductsPerformance: async ({ ctx, auth, input }) => vendorProductsPerformance(deps(ctx), await vendorById(ctx, auth, input.params.id), input.query),
  vendorsProductsPerformanceTimeseries: async ({ ctx, auth, input }) =>
    vendorPerformanceTimeseries(deps(ctx), await vendorById(ctx, auth, input.params.id), input.query),
};
