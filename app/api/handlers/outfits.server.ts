import type { outfitsEndpoints } from "~/contract/outfits";
import {
  createOutfit,
  deleteOutfit,
  getAdminOutfit,
  getPublishedOutfit,
  listAdminOutfits,
  listPublishedOutfits,
  setOutfitStatus,
  updateOutfit,
} from "~/services/outfits/curated.server";
import { acceptProposal, listProposals, rejectProposal } from "~/services/outfits/proposals.server";
import { completeTheLook } from "~/services/outfits/complete-the-look.server";
import { addCollectionOutfit, listCollectionOutfits, removeCollectionOutfit } from "~/services/outfits/saved.server";
import type { HandlersFor } from "../router.server";

export const outfitsHandlers: HandlersFor<typeof outfitsEndpoints> = {
  outfitsList: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return listPublishedOutfits(ctx.db, input.query);
  },
  outfitsCompleteTheLook: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return completeTheLook(ctx.db, input.query);
  },
  outfitsGetById: async ({ ctx, input }) => getPublishedOutfit(ctx.db, input.params.id),
  outfitsAdminList: async ({ ctx, input }) => listAdminOutfits(ctx.db, input.query),
  outfitsAdminGet: async ({ ctx, input }) => getAdminOutfit(ctx.db, input.params.id),
  outfitsCreate: async ({ auth, ctx, input }) => createOutfit(ctx.db, input.body, { userId: auth.user?.id ?? null }),
  outfitsUpdate: async ({ ctx, input }) => updateOutfit(ctx.db, input.params.id, input.body),
  outfitsSetStatus: async ({ ctx, input }) => setOutfitStatus(ctx.db, input.params.id, input.body.status),
  outfitsDelete: async ({ ctx, input }) => deleteOutfit(ctx.db, input.params.id),
  outfitsProposals: async ({ ctx, input }) => listProposals(ctx.db, input.query),
  outfitsProposalsAccept: async ({ auth, ctx, input }) => acceptProposal(ctx.db, input.body, { userId: auth.user?.id ?? null }),
  outfitsProposalsReject: async ({ ctx, input }) => rejectProposal(ctx.db, input.body),
  userCollectionsOutfits: async ({ auth, ctx, input }) => listCollectionOutfits(ctx.db, auth.user!.id, input.params.id),
  userCollectionsAddOutfit: async ({ auth, ctx, input }) => addCollectionOutfit(ctx.db, auth.user!.id, input.params.id, input.body.outfit_id),
  userCollectionsRemoveOutfit: async ({ auth, ctx, input }) => removeCollectionOutfit(ctx.db, auth.user!.id, input.params.id, input.params.outfitId),
};
