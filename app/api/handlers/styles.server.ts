import type { stylesEndpoints } from "~/contract/styles";
import {
  addStyleProducts,
  categorisationQueue,
  createStyle,
  deleteStyle,
  enqueueCategorisation,
  featuredStyles,
  getStyle,
  listStyles,
  randomStyles,
  removeStyleProducts,
  setStyleScore,
  updateStyle,
} from "~/services/styles.server";
import type { HandlersFor } from "../router.server";

export const stylesHandlers: HandlersFor<typeof stylesEndpoints> = {
  stylesList: async ({ ctx, input }) => listStyles(ctx.db, input.query),
  stylesRandom: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "no-store");
    return randomStyles(ctx.db, input.query);
  },
  stylesFeatured: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return featuredStyles(ctx.db, input.query);
  },
  stylesCategorisationQueue: async ({ ctx, input }) => categorisationQueue(ctx.db, input.query),
  stylesGetById: async ({ ctx, input }) => getStyle(ctx.db, input.params.id),
  stylesCreate: async ({ ctx, input }) => createStyle(ctx.db, input.body),
  stylesUpdate: async ({ ctx, input }) => updateStyle(ctx.db, input.params.id, input.body),
  stylesDelete: async ({ ctx, input }) => deleteStyle(ctx.db, input.params.id),
  stylesSetScore: async ({ ctx, input }) => setStyleScore(ctx.db, input.params.id, input.body.score),
  stylesCategorise: async ({ ctx, input }) => enqueueCategorisation(ctx, input.params.id),
  stylesAddProducts: async ({ ctx, input }) => addStyleProducts(ctx.db, input.params.id, input.body.products),
  stylesRemoveProducts: async ({ ctx, input }) => removeStyleProducts(ctx.db, input.params.id, input.body.products),
};
