import type { AppContext } from "~/context.server";
import { appBaseUrl } from "~/lib/app-url";
import type { IdentityDeps } from "./users.server";
import { queueEmail } from "./email.server";

/** Identity services' dependencies from the app context (API handlers and admin pages alike). */
export function identityDeps(ctx: AppContext): IdentityDeps {
  return {
    db: ctx.db,
    mode: ctx.config.APP_MODE,
    loginAccountLimiter: ctx.loginAccountRateLimiter,
    queueEmail: (email) => queueEmail(ctx, email),
    appUrl: appBaseUrl(ctx.config),
    cart: ctx.storefrontCart,
    log: ctx.log,
  };
}
