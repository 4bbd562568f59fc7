import type { cartEndpoints } from "~/contract/cart";
import { unavailable } from "~/lib/domain-errors";
import type { HandlersFor } from "../router.server";

// Placeholders while issue 15 is built; replaced by the cart and local-checkout services.
const notYet = async (): Promise<never> => {
  throw unavailable("The cart is not available yet");
};

/** The caller's cart (access.user) and the local checkout. */
export const cartHandlers: HandlersFor<typeof cartEndpoints> = {
  cartGet: notYet,
  cartLinesAdd: notYet,
  cartLinesUpdate: notYet,
  cartLinesRemove: notYet,
  cartDiscountCodesUpdate: notYet,
  usersRefreshCart: notYet,
};
