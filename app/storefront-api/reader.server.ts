/**
 * The server's Storefront reader for the configured mode: Shopify's Storefront API when
 * COMMERCE_ADAPTER=shopify and SHOPIFY_STOREFRONT_ACCESS_TOKEN is set; otherwise the local
 * endpoint, called in-process (no HTTP round trip to ourselves). Browsers build their own reader
 * with `createStorefrontReader` from ./client (local mode: `apiUrl: localStorefrontApiUrl(origin)`).
 */
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { createStorefrontReader, localStorefrontApiUrl, type StorefrontReader } from "./client";
import { handleStorefrontGraphQL } from "./local-endpoint.server";

const LOCAL_ORIGIN = "http://local.storefront";

export function storefrontReaderFor(deps: { config: AppConfig; db: Db; log?: Logger }): StorefrontReader {
  const { config } = deps;
  if (config.COMMERCE_ADAPTER === "shopify" && config.SHOPIFY_SHOP && config.SHOPIFY_STOREFRONT_ACCESS_TOKEN) {
    return createStorefrontReader({ storeDomain: config.SHOPIFY_SHOP, publicAccessToken: config.SHOPIFY_STOREFRONT_ACCESS_TOKEN, retries: 2 });
  }
  return createStorefrontReader({
    storeDomain: LOCAL_ORIGIN,
    apiUrl: localStorefrontApiUrl(LOCAL_ORIGIN),
    customFetchApi: (url, init) => handleStorefrontGraphQL(new Request(url, init), { db: deps.db, log: deps.log }),
  });
}
