import type { internalMediaEndpoints } from "~/contract/internal-media";
import { deleteInternalMedia, getInternalMedia, listInternalMedia, updateInternalMedia, uploadInternalMedia } from "~/services/internal-media.server";
import type { HandlersFor } from "../router.server";

export const internalMediaHandlers: HandlersFor<typeof internalMediaEndpoints> = {
  internalMediaUpload: async ({ ctx, input }) => uploadInternalMedia(ctx, input.body),
  internalMediaList: async ({ ctx, input }) => listInternalMedia(ctx.db, input.query),
  internalMediaGetById: async ({ ctx, input }) => getInternalMedia(ctx.db, input.params.id),
  internalMediaUpdate: async ({ ctx, input }) => updateInternalMedia(ctx.db, input.params.id, input.body),
  internalMediaDelete: async ({ ctx, input }) => deleteInternalMedia(ctx, input.params.id),
};
