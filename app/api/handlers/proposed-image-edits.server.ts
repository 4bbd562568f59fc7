import type { proposedImageEditsEndpoints } from "~/contract/proposed-image-edits";
import {
  approveImageEdit,
  createImageEdit,
  deleteImageEdit,
  getImageEdit,
  listImageEdits,
  updateImageEdit,
} from "~/services/proposed-image-edits.server";
import type { HandlersFor } from "../router.server";

export const proposedImageEditsHandlers: HandlersFor<typeof proposedImageEditsEndpoints> = {
  proposedImageEditsList: async ({ ctx, input }) => listImageEdits(ctx.db, input.query),
  proposedImageEditsCreate: async ({ ctx, input }) => createImageEdit(ctx, input.body),
  proposedImageEditsGetById: async ({ ctx, input }) => getImageEdit(ctx.db, input.params.id),
  proposedImageEditsUpdate: async ({ ctx, input, auth }) => updateImageEdit(ctx, input.params.id, input.body, auth.user?.id ?? null),
  proposedImageEditsDelete: async ({ ctx, input }) => deleteImageEdit(ctx, input.params.id),
  proposedImageEditsApprove: async ({ ctx, input, auth }) => approveImageEdit(ctx, input.params.id, auth.user?.id ?? null),
};
