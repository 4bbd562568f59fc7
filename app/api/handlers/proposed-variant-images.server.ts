import type { proposedVariantImagesEndpoints } from "~/contract/proposed-variant-images";
import {
  approveProposal,
  bulkReview,
  createProposal,
  deleteProposal,
  getProposal,
  listProposals,
  proposalStats,
  proposalsByProduct,
  rejectProposal,
  updateProposal,
} from "~/services/proposed-variant-images.server";
import { proposeFromTaobao } from "~/services/proposed-variant-images-taobao.server";
import type { HandlersFor } from "../router.server";

export const proposedVariantImagesHandlers: HandlersFor<typeof proposedVariantImagesEndpoints> = {
  proposedVariantImagesList: async ({ ctx, input }) => listProposals(ctx.db, input.query),
  proposedVariantImagesByProduct: async ({ ctx, input }) => proposalsByProduct(ctx.db, input.params.id, input.query.status),
  proposedVariantImagesStats: async ({ ctx, input }) => proposalStats(ctx.db, input.query.days),
  proposedVariantImagesGetById: async ({ ctx, input }) => getProposal(ctx.db, input.params.id),
  proposedVariantImagesUpdate: async ({ ctx, input, auth }) => updateProposal(ctx, input.params.id, input.body, auth.user?.id ?? null),
  proposedVariantImagesDelete: async ({ ctx, input }) => deleteProposal(ctx, input.params.id),
  proposedVariantImagesCreate: async ({ ctx, input }) => createProposal(ctx, input.body),
  proposedVariantImagesApprove: async ({ ctx, input, auth }) => approveProposal(ctx, input.params.id, auth.user?.id ?? null),
  proposedVariantImagesReject: async ({ ctx, input, auth }) => rejectProposal(ctx, input.params.id, auth.user?.id ?? null),
  proposedVariantImagesBulk: async ({ ctx, input, auth }) => bulkReview(ctx, input.body.action, input.body.ids, auth.user?.id ?? null),
  proposedVariantImagesFromTaobao: async ({ ctx, input }) => proposeFromTaobao(ctx, input.params.id),
};
