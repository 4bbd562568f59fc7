/**
 * The API: every endpoint of the contract with its handler. `AllHandlers` makes a missing
 * handler a compile error.
 */
import { createApiHandler, type AllHandlers } from "./router.server";
import { systemHandlers } from "./handlers/system.server";
import { usersHandlers } from "./handlers/users.server";
import { productsHandlers } from "./handlers/products.server";

export const handlers: AllHandlers = {
  ...systemHandlers,
  ...usersHandlers,
  ...productsHandlers,
};

export const handleApiRequest = createApiHandler(handlers);
