import type { userCollectionsEndpoints } from "~/contract/user-collections";
import * as uc from "~/services/user-collections.server";
import type { HandlersFor } from "../router.server";

/** The caller's own collections (access.user); responses wrapped in `data` (SPEC §7). */
export const userCollectionsHandlers: HandlersFor<typeof userCollectionsEndpoints> = {
  userCollectionsCreate: async ({ ctx, auth, input }) => ({ data: await uc.createUserCollection(ctx.db, auth.user!.id, input.body) }),
  userCollectionsList: async ({ ctx, auth, input }) => uc.listUserCollections(ctx.db, auth.user!.id, input.query),
  userCollectionsGet: async ({ ctx, auth, input }) => ({ data: await uc.getUserCollection(ctx.db, auth.user!.id, input.params.id) }),
  userCollectionsUpdate: async ({ ctx, auth, input }) => ({ data: await uc.updateUserCollection(ctx.db, auth.user!.id, input.params.id, input.body) }),
  userCollectionsDelete: async ({ ctx, auth, input }) => ({ data: await uc.deleteUserCollection(ctx.db, auth.user!.id, input.params.id) }),
  userCollectionsProducts: async ({ ctx, auth, input }) => ({ data: await uc.listUserCollectionProducts(ctx.db, auth.user!.id, input.params.id, input.query) }),
  userCollectionsAddProducts: async ({ ctx, auth, input }) => ({
    data: await uc.addUserCollectionProducts(ctx.db, auth.user!.id, input.params.id, input.body.product_ids),
  }),
  userCollectionsRemoveProducts: async ({ ctx, auth, input }) => ({
    data: await uc.removeUserCollectionProducts(ctx.db, auth.user!.id, input.params.id, input.body.product_ids),
  }),
};
