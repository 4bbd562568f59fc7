import type { checkoutEndpoints } from "~/contract/checkout";
import type { AppContext } from "~/context.server";
import type { Logger } from "~/lib/logger.server";
import { completeCheckout, getCheckout, type LocalCheckoutDeps } from "~/services/checkout/local-checkout.server";
import { completeLocalCart, lockLocalCart, readLocalCart } from "~/storefront-api/local-cart.server";
import type { Tx } from "~/db/item-lock.server";
import type { HandlersFor } from "../router.server";

/** The local cart store under the checkout's transaction: its lock, then its lines as they are now. */
async function lockCart(tx: Tx, cartId: string) {
  if (!(await lockLocalCart(tx, cartId))) return null;
  const cart = await readLocalCart(tx, cartId);
  return cart ? cart.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity })) : null;
}

const deps = (ctx: AppContext, log: Logger): LocalCheckoutDeps => ({ db: ctx.db, config: ctx.config, log, queue: ctx.queue, cart: ctx.storefrontCart, lockCart, completeCart: completeLocalCart });

/** The local checkout of the embedded default (409 when checkout is Shopify's). */
export const checkoutHandlers: HandlersFor<typeof checkoutEndpoints> = {
  checkoutLocalGet: async ({ input, ctx, log }) => getCheckout(deps(ctx, log), input.query.cartId),
  checkoutLocalComplete: async ({ input, auth, ctx, log }) => completeCheckout(deps(ctx, log), auth.user!, input.body),
};
