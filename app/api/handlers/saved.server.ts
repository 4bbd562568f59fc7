import type { savedEndpoints } from "~/contract/saved";
import * as saved from "~/services/saved.server";
import type { HandlersFor } from "../router.server";

/** Saved products, followed stores and style preferences: always the caller's own (access.user). */
export const savedHandlers: HandlersFor<typeof savedEndpoints> = {
  savedProductsList: async ({ ctx, auth, input }) => saved.listSavedProducts(ctx.db, auth.user!.id, input.query),
  savedProductsToggle: async ({ ctx, auth, input }) => saved.toggleSavedProduct(ctx.db, auth.user!.id, input.body.product_id, input.body.saved),
  savedProductsCheck: async ({ ctx, auth, input }) => saved.checkSavedProducts(ctx.db, auth.user!.id, input.query.ids),
  favoriteStoresList: async ({ ctx, auth, input }) => saved.listFavoriteStores(ctx.db, auth.user!.id, input.query),
  favoriteStoresToggle: async ({ ctx, auth, input }) => saved.toggleFavoriteStore(ctx.db, auth.user!.id, input.body.store_id, input.body.following),
  favoriteStoresCheck: async ({ ctx, auth, input }) => saved.checkFavoriteStores(ctx.db, auth.user!.id, input.query.ids),
  usersStylePreferences: async ({ ctx, auth }) => saved.getStylePreferences(ctx.db, auth.user!.id),
  usersStylePreferencesUpdate: async ({ ctx, auth, input }) => saved.updateStylePreferences(ctx.db, auth.user!.id, input.body),
};
