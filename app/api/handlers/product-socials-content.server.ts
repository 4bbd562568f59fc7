import type { productSocialsContentEndpoints } from "~/contract/product-socials-content";
import type { HandlersFor } from "../router.server";
import type { AuthState } from "../auth.server";
import {
  createSocialsContent,
  deleteSocialsContent,
  generateSocialsDrafts,
  getSocialsContent,
  listByCompanion,
  listForVendor,
  updateSocialsContent,
  type SocialsViewer,
} from "~/services/product-socials-content.server";

/** The router let in linked VENDOR users and admins with catalog.edit: a vendor is confined to its own vendor. */
function viewerOf(auth: AuthState): SocialsViewer {
  const user = auth.user!;
  return { vendorId: user.role === "VENDOR" ? user.vendor_id! : null };
}

export const productSocialsContentHandlers: HandlersFor<typeof productSocialsContentEndpoints> = {
  productSocialsContentByCompanion: async ({ auth, ctx, input }) => listByCompanion(ctx.db, viewerOf(auth), input.params.id),
  productSocialsContentVendor: async ({ auth, ctx, input }) => listForVendor(ctx.db, viewerOf(auth), input.query),
  productSocialsContentGet: async ({ auth, ctx, input }) => getSocialsContent(ctx.db, viewerOf(auth), input.params.id),
  productSocialsContentCreate: async ({ auth, ctx, input }) => createSocialsContent(ctx.db, viewerOf(auth), input.body),
  productSocialsContentGenerate: async ({ auth, ctx, input }) => generateSocialsDrafts(ctx, viewerOf(auth), input.body),
  productSocialsContentUpdate: async ({ auth, ctx, input }) => updateSocialsContent(ctx.db, viewerOf(auth), input.params.id, input.body),
  productSocialsContentDelete: async ({ auth, ctx, input }) => deleteSocialsContent(ctx.db, viewerOf(auth), input.params.id),
};
