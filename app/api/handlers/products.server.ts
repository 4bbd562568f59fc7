import type { productsEndpoints } from "~/contract/products";
import {
  appendVariantMedia,
  deleteProduct,
  enqueueInventorySync,
  getInventoryJob,
  getProductByTaobaoId,
  getProductDetail,
  getVariantsMinimal,
  listProductVendors,
  listProducts,
  searchProducts,
  setMediaOrder,
} from "~/services/catalog.server";
import { hasPermission, type AuthState } from "../auth.server";
import type { HandlersFor } from "../router.server";

/** Admins who edit the catalogue also see drafts, archived and scheduled products. */
const seesHidden = (auth: AuthState) => !!auth.user && hasPermission(auth.user, "catalog.edit");

export const productsHandlers: HandlersFor<typeof productsEndpoints> = {
  listProducts: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=30");
    return listProducts(ctx.db, input.query);
  },
  productsGetById: async ({ ctx, input, auth, headers }) => {
    const hidden = seesHidden(auth);
    if (!hidden) headers.set("cache-control", "public, max-age=30");
    return getProductDetail(ctx.db, input.params.id, { includeHidden: hidden });
  },
  productsVariantsMinimal: async ({ ctx, input }) => getVariantsMinimal(ctx.db, input.query.ids),
  productsSearch: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=30");
    return searchProducts(ctx.db, input.query);
  },
  productsByTaobaoId: async ({ ctx, input, auth }) => getProductByTaobaoId(ctx.db, input.params.id, { includeHidden: seesHidden(auth) }),
  productsVendors: async ({ ctx, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return listProductVendors(ctx.db);
  },
  productsDelete: async ({ ctx, input, log, auth }) => {
    const r = await deleteProduct(ctx, input.params.id);
    log.info({ productId: r.id, by: auth.user?.id }, "product deleted");
    return r;
  },
  productsUpdateAllInventories: async ({ ctx }) => enqueueInventorySync(ctx, false),
  productsUpdateOutOfStockInventories: async ({ ctx }) => enqueueInventorySync(ctx, true),
  productsInventoryJob: async ({ ctx, input }) => getInventoryJob(ctx.db, input.params.id),
  productsSetMediaOrder: async ({ ctx, input }) => setMediaOrder(ctx, input.params.id, input.body.mediaIds),
  productsVariantMedia: async ({ ctx, input }) => appendVariantMedia(ctx, input.params.id, input.body.pairs),
};
