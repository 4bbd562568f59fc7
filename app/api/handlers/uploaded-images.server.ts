import type { uploadedImagesEndpoints } from "~/contract/uploaded-images";
import type { HandlersFor } from "../router.server";
import { hasPermission, type AuthState } from "../auth.server";
import {
  cropUploadedImage,
  deleteUploadedImage,
  getUploadedImage,
  listUploadedImages,
  removeUploadedImageBackground,
  replaceUploadedImage,
  rotateUploadedImage,
  type UploadViewer,
} from "~/services/uploaded-image-edits.server";

/** Any signed-in user on their own uploads; admins with media.manage on everyone's. */
function viewerOf(auth: AuthState): UploadViewer {
  const user = auth.user!;
  return { userId: user.id, admin: hasPermission(user, "media.manage") };
}

export const uploadedImagesHandlers: HandlersFor<typeof uploadedImagesEndpoints> = {
  uploadedImagesList: async ({ auth, ctx, input }) => listUploadedImages(ctx.db, viewerOf(auth), input.query),
  uploadedImagesGet: async ({ auth, ctx, input }) => getUploadedImage(ctx.db, viewerOf(auth), input.params.id),
  uploadedImagesCrop: async ({ auth, ctx, input }) => cropUploadedImage(ctx, viewerOf(auth), input.params.id, input.body),
  uploadedImagesRotate: async ({ auth, ctx, input }) => rotateUploadedImage(ctx, viewerOf(auth), input.params.id, input.body.degrees),
  uploadedImagesRemoveBackground: async ({ auth, ctx, input }) => removeUploadedImageBackground(ctx, viewerOf(auth), input.params.id, input.body.background),
  uploadedImagesReplace: async ({ auth, ctx, input }) => replaceUploadedImage(ctx, viewerOf(auth), input.params.id, input.body.file),
  uploadedImagesDelete: async ({ auth, ctx, input }) => deleteUploadedImage(ctx, viewerOf(auth), input.params.id),
};
