import type { productAdsEndpoints } from "~/contract/product-ads";
import type { HandlersFor } from "../router.server";
import { hasPermission, type AuthState } from "../auth.server";
import { forbidden, notFound } from "../errors.server";
import {
  countProductAds,
  createProductAd,
  deleteProductAd,
  getProductAd,
  listProductAds,
  listVendorAds,
  moveProductAd,
  platformMoveProductAd,
  productAdsByRequest,
  updateProductAd,
  type AdsCaller,
} from "~/services/product-ads/ads.server";
import { ProductAdMessages } from "~/contract/product-ads";

/**
 * The caller as the ads service sees it (the router let in only vendors linked to a vendor and
 * admins with the endpoint's permission): vendors are confined to their own vendor; admins act as
 * the team when they hold ads.manage, else (vendors.manage on the vendor mirror) they only read.
 */
function callerOf(auth: AuthState): AdsCaller {
  const user = auth.user!;
  if (user.role === "VENDOR") return { userId: user.id, actor: "vendor", vendorId: user.vendor_id! };
  return { userId: user.id, actor: hasPermission(user, "ads.manage") ? "team" : null, vendorId: null };
}

/** GET /vendors/{id}/ads: admins need vendors.manage or ads.manage; a vendor reads its own id only (404 otherwise). */
function vendorAdsCaller(auth: AuthState, vendorId: string): AdsCaller {
  const user = auth.user!;
  if (user.role === "VENDOR") {
    if (user.vendor_id !== vendorId) throw notFound(ProductAdMessages.VENDOR_NOT_FOUND);
  } else if (!hasPermission(user, "vendors.manage") && !hasPermission(user, "ads.manage")) {
    throw forbidden();
  }
  return callerOf(auth);
}

export const productAdsHandlers: HandlersFor<typeof productAdsEndpoints> = {
  productAdsList: async ({ auth, ctx, input }) => listProductAds(ctx, callerOf(auth), input.query),
  productAdsCount: async ({ auth, ctx, input }) => countProductAds(ctx, callerOf(auth), input.query),
  productAdsCreate: async ({ auth, ctx, input }) => createProductAd(ctx, callerOf(auth), input.body),
  productAdsByRequest: async ({ auth, ctx, input }) => productAdsByRequest(ctx, callerOf(auth), input.params.id),
  productAdsGet: async ({ auth, ctx, input }) => getProductAd(ctx, callerOf(auth), input.params.id),
  productAdsUpdate: async ({ auth, ctx, input }) => updateProductAd(ctx, callerOf(auth), input.params.id, input.body),
  productAdsDelete: async ({ auth, ctx, input }) => deleteProductAd(ctx, callerOf(auth), input.params.id),
  productAdsComplete: async ({ auth, ctx, input }) => moveProductAd(ctx, callerOf(auth), input.params.id, "complete", input.body.note),
  productAdsApprove: async ({ auth, ctx, input }) => moveProductAd(ctx, callerOf(auth), input.params.id, "approve", input.body.note),
  productAdsFeedback: async ({ auth, ctx, input }) => moveProductAd(ctx, callerOf(auth), input.params.id, "feedback", input.body.text),
  productAdsPublish: async ({ auth, ctx, input }) => platformMoveProductAd(ctx, callerOf(auth), input.params.id, "publish"),
  productAdsUnpublish: async ({ auth, ctx, input }) => platformMoveProductAd(ctx, callerOf(auth), input.params.id, "unpublish"),
  vendorsMeAds: async ({ auth, ctx, input }) => {
    const caller = callerOf(auth);
    return listVendorAds(ctx, caller, caller.vendorId!, input.query);
  },
  vendorsAds: async ({ auth, ctx, input }) => listVendorAds(ctx, vendorAdsCaller(auth, input.params.id), input.params.id, input.query),
};
