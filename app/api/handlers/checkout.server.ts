import type { checkoutEndpoints } from "~/contract/checkout";
import { unavailable } from "~/lib/domain-errors";
import type { HandlersFor } from "../router.server";

// Placeholders while issue 15 is built; replaced by the local-checkout service.
const notYet = async (): Promise<never> => {
  throw unavailable("The checkout is not available yet");
};

/** The local checkout of the embedded default. */
export const checkoutHandlers: HandlersFor<typeof checkoutEndpoints> = {
  checkoutLocalGet: notYet,
  checkoutLocalComplete: notYet,
};
