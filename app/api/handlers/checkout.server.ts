import type { checkoutEndpoints } from "~/contract/checkout";
import type { AppContext } from "~/context.server";
import type { Logger } from "~/lib/logger.server";
import { completeCheckout, getCheckout, type LocalCheckoutDeps } from "~/services/checkout/local-checkout.server";
import { completeLocalCart } from "~/storefront-api/local-cart.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext, log: Logger): LocalCheckoutDeps => ({ db: ctx.db, config: ctx.config, log, queue: ctx.queue, cart: ctx.storefrontCart, completeCart: completeLocalCart });

/** The local checkout of the embedded default (409 when checkout is Shopify's). */
export const checkoutHandlers: HandlersFor<typeof checkoutEndpoints> = {
  checkoutLocalGet: async ({ input, ctx, log }) => getCheckout(deps(ctx, log), input.query.cartId),
  checkoutLocalComplete: async ({ input, auth, ctx, log }) => completeCheckout(deps(ctx, log), auth.user!, input.body),
};
