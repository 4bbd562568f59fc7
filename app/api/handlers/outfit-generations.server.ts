import type { outfitGenerationsEndpoints } from "~/contract/outfit-generations";
import * as outfits from "~/services/outfit-generations/index.server";
import type { HandlersFor } from "../router.server";

/** Generated outfits: always the caller's own (another shopper's answers 404). */
export const outfitGenerationsHandlers: HandlersFor<typeof outfitGenerationsEndpoints> = {
  outfitGenerationsCreate: async ({ ctx, auth, input }) =>
    outfits.startOutfitGeneration(ctx, {
      userId: auth.user!.id,
      cloneId: input.body.clone_id,
      outfitId: input.body.outfit_id,
      productIds: input.body.product_ids,
    }),
  outfitGenerationsList: async ({ ctx, auth, input }) => outfits.listOutfitGenerations(ctx.db, auth.user!.id, input.query),
  outfitGenerationsGet: async ({ ctx, auth, input }) => outfits.getOutfitGeneration(ctx.db, auth.user!.id, input.params.id),
  outfitGenerationsDelete: async ({ ctx, auth, input }) => outfits.deleteOutfitGeneration(ctx.db, auth.user!.id, input.params.id),
  outfitGenerationsRetry: async ({ ctx, auth, input }) => outfits.retryOutfitGeneration(ctx, auth.user!.id, input.params.id),
};
