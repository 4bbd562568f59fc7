import type { vendorsEndpoints } from "~/contract/vendors";
import type { AppContext } from "~/context.server";
import type { HandlersFor } from "../router.server";
import type { AuthState } from "../auth.server";
import { notFound } from "../errors.server";
import { getVendor, listVendorProducts, mustFindVendor, listVendors, listVendorStores, setVendorProductStatus, VENDOR_NOT_FOUND } from "~/services/vendors/portal.server";
import { markPayoutPaid, payoutsCsv, setCommissionRate, vendorPayouts, type PayoutsRange } from "~/services/vendors/payouts.server";

/** The caller's own vendor (the router let only linked VENDOR users in). */
const ownVendor = (auth: AuthState): string => auth.user!.vendor_id!;

/**
 * The vendor a by-id route may read: any for an admin (the router checked vendors.manage); for a
 * vendor only its own, every other id being as unknown as a missing one.
 */
function vendorById(auth: AuthState, id: string): string {
  if (auth.user?.role === "VENDOR" && auth.user.vendor_id !== id) throw notFound(VENDOR_NOT_FOUND);
  return id;
}

async function payouts(ctx: AppContext, vendorId: string, query: PayoutsRange & { format: "json" | "csv" }) {
  const result = await vendorPayouts({ db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE }, vendorId, query);
  if (query.format !== "csv") return result;
  const vendor = await ctx.db.vendor.findUnique({ where: { id: vendorId }, select: { handle: true } });
  const name = `payouts-${(vendor?.handle ?? "vendor").replace(/[^a-z0-9-]/gi, "")}-${result.from}-to-${result.to}.csv`;
  return new Response(payoutsCsv(result), {
    status: 200,
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" },
  });
}

export const vendorsHandlers: HandlersFor<typeof vendorsEndpoints> = {
  vendorsMe: async ({ auth, ctx }) => getVendor(ctx.db, ownVendor(auth)),
  vendorsMeStores: async ({ auth, ctx }) => listVendorStores(ctx.db, ownVendor(auth)),
  vendorsMeProducts: async ({ auth, ctx, input }) => listVendorProducts(ctx.db, ownVendor(auth), input.query),
  vendorsMeProductStatus: async ({ auth, ctx, input }) => setVendorProductStatus(ctx, ownVendor(auth), input.params.id, input.body.status),
  vendorsMePayouts: async ({ auth, ctx, input }) => payouts(ctx, ownVendor(auth), input.query),
  vendorsList: async ({ ctx, input }) => listVendors(ctx.db, input.query),
  vendorsGet: async ({ auth, ctx, input }) => getVendor(ctx.db, vendorById(auth, input.params.id)),
  vendorsUpdate: async ({ ctx, input }) => {
    await setCommissionRate({ db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE }, input.params.id, input.body.commission_rate);
    return getVendor(ctx.db, input.params.id);
  },
  vendorsStores: async ({ auth, ctx, input }) => listVendorStores(ctx.db, vendorById(auth, input.params.id)),
  vendorsProducts: async ({ auth, ctx, input }) => listVendorProducts(ctx.db, vendorById(auth, input.params.id), input.query),
  vendorsProductStatus: async ({ auth, ctx, input }) => {
    const vendorId = vendorById(auth, input.params.id);
    await mustFindVendor(ctx.db, vendorId);
    return setVendorProductStatus(ctx, vendorId, input.params.productId, input.body.status);
  },
  vendorsPayouts: async ({ auth, ctx, input }) => payouts(ctx, vendorById(auth, input.params.id), input.query),
  vendorsPayoutMarkPaid: async ({ ctx, input }) => markPayoutPaid({ db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE }, input.params.id, input.params.payoutId, input.body.reference),
};
