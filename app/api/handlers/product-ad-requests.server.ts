import type { productAdRequestsEndpoints } from "~/contract/product-ad-requests";
import type { HandlersFor } from "../router.server";
import type { AuthState } from "../auth.server";
import { completeAdRequest, countAdRequests, createAdRequest, deleteAdRequest, getAdRequest, listAdRequests, updateAdRequestImages, type AdViewer } from "~/services/product-ads/requests.server";
import { createAdFeature, deleteAdFeature, getAdFeature, listAdFeatures, updateAdFeature } from "~/services/product-ads/features.server";

/**
 * The router let in linked VENDOR users and admins with ads.manage: a vendor is confined to its
 * own vendor, an admin is the team.
 */
function viewerOf(auth: AuthState): AdViewer {
  const user = auth.user!;
  return { userId: user.id, vendorId: user.role === "VENDOR" ? user.vendor_id! : null };
}
const isTeam = (auth: AuthState) => auth.user?.role === "ADMIN";

export const productAdRequestsHandlers: HandlersFor<typeof productAdRequestsEndpoints> = {
  productAdRequestsList: async ({ auth, ctx, input }) => listAdRequests(ctx.db, viewerOf(auth), input.query),
  productAdRequestsCount: async ({ auth, ctx, input }) => countAdRequests(ctx.db, viewerOf(auth), input.query),
  productAdRequestsCreate: async ({ auth, ctx, input }) => createAdRequest(ctx.db, viewerOf(auth), input.body),
  productAdRequestsGet: async ({ auth, ctx, input }) => getAdRequest(ctx.db, viewerOf(auth), input.params.id),
  productAdRequestsUpdate: async ({ auth, ctx, input }) => updateAdRequestImages(ctx.db, viewerOf(auth), input.params.id, input.body.uploaded_image_ids),
  productAdRequestsDelete: async ({ auth, ctx, input }) => deleteAdRequest(ctx.db, viewerOf(auth), input.params.id),
  productAdRequestsComplete: async ({ auth, ctx, input }) => completeAdRequest(ctx.db, viewerOf(auth), input.params.id),
  productAdFeaturesList: async ({ auth, ctx, input }) => listAdFeatures(ctx.db, { team: isTeam(auth) }, input.query),
  productAdFeaturesCreate: async ({ ctx, input }) => createAdFeature(ctx.db, input.body),
  productAdFeaturesGet: async ({ auth, ctx, input }) => getAdFeature(ctx.db, { team: isTeam(auth) }, input.params.id),
  productAdFeaturesUpdate: async ({ ctx, input }) => updateAdFeature(ctx.db, input.params.id, input.body),
  productAdFeaturesDelete: async ({ ctx, input }) => deleteAdFeature(ctx.db, input.params.id),
};
