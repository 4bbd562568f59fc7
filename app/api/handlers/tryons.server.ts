import type { tryonsEndpoints } from "~/contract/tryons";
import * as tryons from "~/services/tryons/index.server";
import * as products from "~/services/tryons/products.server";
import * as saved from "~/services/tryons/saved.server";
import type { HandlersFor } from "../router.server";

/** Try-ons, virtual try-on, clone try-ons and saved try-ons: always the caller's own. Admin: product preparation. */
export const tryonsHandlers: HandlersFor<typeof tryonsEndpoints> = {
  tryonsEligibleProducts: async ({ ctx, input }) => products.listEligibleProducts(ctx.db, input.query),
  tryonsBasicClones: async ({ ctx, input }) => tryons.listBasicClones(ctx.db, input.query),
  tryonsCreate: async ({ ctx, auth, input }) =>
    tryons.startTryOn(ctx, {
      userId: auth.user!.id,
      cloneId: input.body.ai_clone_id,
      productId: input.body.shopify_product_id,
      enableAddDetails: input.body.enable_add_details,
      promptStrength: input.body.prompt_strength,
      force: true,
    }),
  tryonsUser: async ({ ctx, auth, input }) => tryons.listUserTryOns(ctx.db, auth.user!.id, input.query),
  tryonsBatch: async ({ ctx, auth, input }) => tryons.batchTryOns(ctx.db, auth.user!.id, input.body.ids),
  tryonsGet: async ({ ctx, auth, input }) => tryons.getTryOn(ctx.db, auth.user!.id, input.params.id),
  tryonsProcessFlatImage: async ({ ctx, auth, input }) =>
    products.processFlatImage(ctx, { productId: input.body.product_id, imageUrl: input.body.image_url, userId: auth.user!.id }),
  tryonsProcessMaskImage: async ({ ctx, input }) => products.processMaskImage(ctx, input.body.product_id),
  tryonsRemoveImageType: async ({ ctx, input }) => {
    const { productId, type } = products.requireProductAndType(input.query, input.body);
    return products.removeTryOnImage(ctx.db, productId, type);
  },
  tryonsCompanionStatus: async ({ ctx, input }) => products.setTryOnActive(ctx.db, input.body.product_id, input.body.tryon_active),

  vtonGetOrGenerate: async ({ ctx, auth, input }) =>
    tryons.startTryOn(ctx, {
      userId: auth.user!.id,
      cloneId: input.body.ai_clone_id,
      productId: input.body.shopify_product_id,
      enableAddDetails: input.body.enable_add_details,
      promptStrength: input.body.prompt_strength,
    }),
  vtonGenerate: async ({ ctx, auth, input }) =>
    tryons.startTryOn(ctx, {
      userId: auth.user!.id,
      cloneId: input.body.ai_clone_id,
      productId: input.body.shopify_product_id,
      enableAddDetails: input.body.enable_add_details,
      promptStrength: input.body.prompt_strength,
      force: true,
    }),
  vtonGet: async ({ ctx, auth, input }) => tryons.latestTryOn(ctx.db, auth.user!.id, input.query.ai_clone_id, input.query.shopify_product_id),

  tryonsCloneList: async ({ ctx, auth, input }) => tryons.listCloneTryOns(ctx.db, auth.user!.id, input.params.id, input.query),
  tryonsCloneDeleteImage: async ({ ctx, auth, input }) =>
    tryons.deleteCloneTryOnImage(ctx, auth.user!.id, input.params.id, input.body.imageUrl ?? input.query.imageUrl),

  savedTryOnsList: async ({ ctx, auth, input }) => saved.listSavedTryOns(ctx.db, auth.user!.id, input.query),
  savedTryOnsToggle: async ({ ctx, auth, input }) => saved.toggleSavedTryOn(ctx.db, auth.user!.id, input.body.tryon_id, input.body.saved),
  savedTryOnsCheck: async ({ ctx, auth, input }) => saved.checkSavedTryOns(ctx.db, auth.user!.id, input.query.ids),
};
