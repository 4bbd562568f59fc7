import type { productsEndpoints } from "~/contract/products";
import { listProducts } from "~/services/catalog.server";
import type { HandlersFor } from "../router.server";

export const productsHandlers: HandlersFor<typeof productsEndpoints> = {
  listProducts: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=30");
    return listProducts(ctx.db, input.query);
  },
};
