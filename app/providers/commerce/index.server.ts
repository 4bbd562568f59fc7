/**
 * Chooses the commerce adapter from configuration: `local` (the app's own tables) or `shopify`
 * (Admin GraphQL API of the pinned version, with the shop's offline access token).
 */
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import type { CommercePort } from "./port";
import { createLocalCommerce } from "./local.server";
import { createShopifyCommerce } from "./shopify.server";

export * from "./port";

export function createCommerce(config: AppConfig, db: Db, log: Logger): CommercePort {
  if (config.COMMERCE_ADAPTER !== "shopify") return createLocalCommerce(db, log);
  const shop = config.SHOPIFY_SHOP!;
  // shopify.server builds the Shopify app object (session storage on Prisma): load it only when
  // the Shopify adapter is first used, so local mode and unit tests never construct it.
  const shopifyModule = () => import("~/shopify.server");
  return createShopifyCommerce({
    shop,
    apiVersion: async () => (await shopifyModule()).ADMIN_API_VERSION,
    accessToken: async () => {
      if (config.SHOPIFY_ADMIN_ACCESS_TOKEN) return config.SHOPIFY_ADMIN_ACCESS_TOKEN;
      // The offline session stored at install (refreshed by the library when it expires).
      const { session } = await (await shopifyModule()).unauthenticated.admin(shop);
      if (!session.accessToken) throw new Error(`No offline access token for ${shop}: install the app on the shop first`);
      return session.accessToken;
    },
    log: log.child({ adapter: "shopify-commerce" }),
  });
}
