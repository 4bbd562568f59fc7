import type { cartEndpoints } from "~/contract/cart";
import type { AppContext } from "~/context.server";
import * as cart from "~/services/cart.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext): cart.CartDeps => ({ db: ctx.db, cart: ctx.storefrontCart, log: ctx.log });

/** The caller's own cart (access.user: guests included). */
export const cartHandlers: HandlersFor<typeof cartEndpoints> = {
  cartGet: async ({ ctx, auth }) => cart.getCart(deps(ctx), auth.user!),
  cartLinesAdd: async ({ ctx, auth, input }) => cart.addLine(deps(ctx), auth.user!, input.body),
  cartLinesUpdate: async ({ ctx, auth, input }) => cart.updateLine(deps(ctx), auth.user!, input.params.lineId, input.body.quantity),
  cartLinesRemove: async ({ ctx, auth, input }) => cart.removeLine(deps(ctx), auth.user!, input.params.lineId),
  cartDiscountCodesUpdate: async ({ ctx, auth, input }) => cart.updateDiscountCodes(deps(ctx), auth.user!, input.body.codes),
  usersRefreshCart: async ({ ctx, auth }) => cart.refreshCart(deps(ctx), auth.user!),
};
