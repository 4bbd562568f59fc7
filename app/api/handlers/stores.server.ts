import type { storesEndpoints } from "~/contract/stores";
import { STORE_INSERTION_PRODUCTS } from "~/contract/stores";
import * as stores from "~/services/stores.server";
import type { HandlersFor } from "../router.server";

const cachePublic = (headers: Headers) => headers.set("cache-control", "public, max-age=30");

export const storesHandlers: HandlersFor<typeof storesEndpoints> = {
  storesList: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return stores.listStores(ctx.db, input.query);
  },
  storesCreate: async ({ ctx, input }) => stores.createStore(ctx.db, input.body),
  storesByIds: async ({ ctx, input }) => stores.storesByIds(ctx.db, input.body.ids),
  storesInsertions: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return stores.storeInsertions(ctx.db, input.query, STORE_INSERTION_PRODUCTS);
  },
  storesNames: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return stores.storeNames(ctx.db, input.query);
  },
  storesByTargetGender: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return stores.storesByTargetGender(ctx.db, input.params.gender, input.query);
  },
  storesGetById: async ({ ctx, input }) => stores.getStore(ctx.db, input.params.id),
  storesUpdate: async ({ ctx, input }) => stores.updateStore(ctx.db, input.params.id, input.body),
  storesDelete: async ({ ctx, input }) => stores.deleteStore(ctx.db, input.params.id, { force: input.query.force }),
  storesRename: async ({ ctx, input }) => stores.renameStore(ctx.db, input.params.id, input.body),
  storesGetFeaturedProducts: async ({ ctx, input }) => stores.featuredProducts(ctx.db, input.params.id),
  storesSetFeaturedProducts: async ({ ctx, input }) => stores.setFeaturedProducts(ctx.db, input.params.id, input.body.product_ids),
  storesGetSizeRecommendation: async ({ ctx, input }) => stores.sizeRecommendation(ctx.db, input.params.id),
  storesSetSizeRecommendation: async ({ ctx, input }) => stores.setSizeRecommendation(ctx.db, input.params.id, input.body.size_recommendation),
  storesProducts: async ({ ctx, input, headers }) => {
    cachePublic(headers);
    return stores.storeProducts(ctx.db, input.params.id, input.query);
  },
};
