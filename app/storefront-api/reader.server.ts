/**
 * The server's Storefront reader for the configured mode: Shopify's Storefront API when
 * COMMERCE_ADAPTER=shopify and SHOPIFY_STOREFRONT_ACCESS_TOKEN is set; otherwise the local
 * endpoint, called in-process (no HTTP round trip to ourselves). Browsers build their own reader
 * with `createStorefrontReader` from ./client (local mode: `apiUrl: localStorefrontApiUrl(origin)`).
 */
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { appBaseUrl } from "~/lib/app-url";
import { createStorefrontReader, localStorefrontApiUrl, type StorefrontReader } from "./client";
import { createStorefrontCartApi, type StorefrontCartApi } from "./cart-client";
import { handleStorefrontGraphQL } from "./local-endpoint.server";

const LOCAL_ORIGIN = "http://local.storefront";

const usesShopify = (config: AppConfig) => config.COMMERCE_ADAPTER === "shopify" && !!config.SHOPIFY_SHOP && !!config.SHOPIFY_STOREFRONT_ACCESS_TOKEN;

export function storefrontReaderFor(deps: { config: AppConfig; db: Db; log?: Logger }): StorefrontReader {
  const { config } = deps;
  if (usesShopify(config) && config.SHOPIFY_SHOP && config.SHOPIFY_STOREFRONT_ACCESS_TOKEN) {
    return createStorefrontReader({ storeDomain: config.SHOPIFY_SHOP, publicAccessToken: config.SHOPIFY_STOREFRONT_ACCESS_TOKEN, retries: 2 });
  }
  return createStorefrontReader({
    storeDomain: LOCAL_ORIGIN,
    apiUrl: localStorefrontApiUrl(LOCAL_ORIGIN),
    customFetchApi: (url, init) => handleStorefrontGraphQL(new Request(url, init), { db: deps.db, log: deps.log }),
  });
}

/**
 * The server's Storefront cart for the configured mode (same choice as storefrontReaderFor): the
 * cart in Shopify, or the local endpoint's cart store in-process. Local carts' `checkoutUrl` is the
 * local checkout page under `appUrl` (default: appBaseUrl(config)).
 */
export function storefrontCartFor(deps: { config: AppConfig; db: Db; log?: Logger; appUrl?: string }): StorefrontCartApi {
  const { config } = deps;
  if (usesShopify(config) && config.SHOPIFY_SHOP && config.SHOPIFY_STOREFRONT_ACCESS_TOKEN) {
    return createStorefrontCartApi({ storeDomain: config.SHOPIFY_SHOP, publicAccessToken: config.SHOPIFY_STOREFRONT_ACCESS_TOKEN, retries: 2 });
  }
  return createStorefrontCartApi({
    storeDomain: LOCAL_ORIGIN,
    apiUrl: localStorefrontApiUrl(LOCAL_ORIGIN),
    // Read per call: with PORT=0 the server records its real port in the config after listening.
    customFetchApi: (url, init) => handleStorefrontGraphQL(new Request(url, init), { db: deps.db, log: deps.log, appUrl: deps.appUrl ?? appBaseUrl(config) }),
  });
}
