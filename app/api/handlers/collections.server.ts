import type { collectionsEndpoints } from "~/contract/collections";
import { COLLECTION_INSERTION_PRODUCTS } from "~/contract/collections";
import * as collections from "~/services/collections.server";
import { isCatalogEditor } from "~/services/collections.server";
import type { HandlersFor } from "../router.server";

/** Public reads are cacheable only when they cannot show an editor's drafts. */
const cachePublic = (headers: Headers) => headers.set("cache-control", "public, max-age=30");

export const collectionsHandlers: HandlersFor<typeof collectionsEndpoints> = {
  collectionsCreate: async ({ ctx, input }) => collections.createCollection(ctx.db, input.body),
  collectionsList: async ({ ctx, input, auth, headers }) => {
    const editor = isCatalogEditor(auth.user);
    if (!editor) cachePublic(headers);
    return collections.listCollections(ctx.db, input.query, { editor });
  },
  collectionsFeatured: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return collections.featuredCollections(ctx.db, input.query);
  },
  collectionsInsertions: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return collections.collectionInsertions(ctx.db, input.query, { featuredOnly: false, productsPerCollection: COLLECTION_INSERTION_PRODUCTS });
  },
  collectionsFeaturedInsertions: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return collections.collectionInsertions(ctx.db, input.query, { featuredOnly: true, productsPerCollection: COLLECTION_INSERTION_PRODUCTS });
  },
  collectionsByTargetGender: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return collections.collectionsByTargetGender(ctx.db, input.params.gender, input.query);
  },
  collectionsByName: async ({ ctx, input }) => collections.getCollectionByName(ctx.db, input.params.name),
  collectionsGetByHandle: async ({ ctx, input }) => collections.getCollectionByHandle(ctx.db, input.params.handle, { editor: false }),
  collectionsGetByHandleWithProducts: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return collections.collectionWithProductsByHandle(ctx.db, input.params.handle, input.query);
  },
  collectionsAdminGetByHandle: async ({ ctx, input }) => collections.adminCollectionByHandle(ctx.db, input.params.handle),
  collectionsGetById: async ({ ctx, input, auth }) => collections.getCollection(ctx.db, input.params.id, { editor: isCatalogEditor(auth.user) }),
  collectionsAdminUpdate: async ({ ctx, input }) => collections.updateCollection(ctx.db, input.params.id, input.body),
  collectionsAdminDelete: async ({ ctx, input }) => collections.deleteCollection(ctx.db, input.params.id),
  collectionsPublish: async ({ ctx, input }) => collections.publishCollection(ctx.db, input.params.id),
  collectionsIncrementView: async ({ ctx, input }) => collections.incrementView(ctx.db, input.params.id),
  collectionsProductsPaginated: async ({ ctx, input, auth }) =>
    collections.collectionProducts(ctx.db, input.params.id, input.query, { editor: isCatalogEditor(auth.user) }),
  collectionsProductsSearch: async ({ ctx, input, auth }) =>
    collections.collectionProducts(ctx.db, input.params.id, input.query, { editor: isCatalogEditor(auth.user) }),
  collectionsAdminAddProducts: async ({ ctx, input }) => collections.addProducts(ctx.db, input.params.id, input.body.products),
  collectionsAdminRemoveProducts: async ({ ctx, input }) => collections.removeProducts(ctx.db, input.params.id, input.body.products),
  collectionsAdminReorderProducts: async ({ ctx, input }) => collections.reorderProducts(ctx.db, input.params.id, input.body.products),
  collectionsAdminSetVersion: async ({ ctx, input }) => collections.bumpVersion(ctx.db, input.params.id, input.body.version),
  collectionsAdminSetStatus: async ({ ctx, input }) => collections.setStatus(ctx.db, input.params.id, input.body.status),
  collectionsAdminSetFeatured: async ({ ctx, input }) => collections.setFeatured(ctx.db, input.params.id, input.body.featured),
  collectionsAdminOrder: async ({ ctx, input }) => collections.orderCollections(ctx.db, input.body.ids),
  collectionsGenerateSuggestions: async ({ ctx, input }) => collections.generateSuggestions(ctx.db, input.body),
  collectionsPartnerList: async ({ ctx, input, auth }) => collections.listPartnerCollections(ctx.db, auth.user!, input.params.partnerId, input.query),
  collectionsPartnerUpdate: async ({ ctx, input, auth }) =>
    collections.updatePartnerCollection(ctx.db, auth.user!, input.params.partnerId, input.params.id, input.body),
  collectionsPartnerDelete: async ({ ctx, input, auth }) => collections.deletePartnerCollection(ctx.db, auth.user!, input.params.partnerId, input.params.id),
};
