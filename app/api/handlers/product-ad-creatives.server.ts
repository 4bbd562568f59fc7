import type { productAdCreativesEndpoints } from "~/contract/product-ad-creatives";
import type { HandlersFor } from "../router.server";
import type { AuthState } from "../auth.server";
import { generateImageCreatives, listCreatives, writeCopyVariants, type CreativesCaller } from "~/services/product-ads/creatives.server";

/** A vendor reads its own vendor's ads only (the router let in only linked vendors); the team reads all. */
const callerOf = (auth: AuthState): CreativesCaller => ({ vendorId: auth.user?.role === "VENDOR" ? auth.user.vendor_id! : null });

export const productAdCreativesHandlers: HandlersFor<typeof productAdCreativesEndpoints> = {
  productAdCreativesList: async ({ auth, ctx, input }) => listCreatives(ctx, callerOf(auth), input.params.id, input.query),
  productAdCreativesGenerate: async ({ ctx, input }) => generateImageCreatives(ctx, input.params.id, input.body),
  productAdCopyVariants: async ({ ctx, input }) => writeCopyVariants(ctx, input.params.id, input.body.count),
};
