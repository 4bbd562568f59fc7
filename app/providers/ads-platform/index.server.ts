/**
 * Picks the ads platform from configuration (ADS_PLATFORM, docs/product-ads.md):
 * - `local` (default): simulated delivery, no network (./local.server.ts);
 * - `meta`: the Meta Marketing API (./meta.server.ts) with META_ACCESS_TOKEN, META_AD_ACCOUNT_ID
 *   and META_PAGE_ID (the config check at start-up requires all three).
 */
import type { AppConfig } from "~/config.server";
import type { Logger } from "~/lib/logger.server";
import { createLocalAdsPlatform } from "./local.server";
import { createMetaAdsPlatform } from "./meta.server";
import type { AdsPlatformPort } from "./port";

export * from "./port";

type AdsPlatformConfig = Pick<
  AppConfig,
  "ADS_PLATFORM" | "META_ACCESS_TOKEN" | "META_AD_ACCOUNT_ID" | "META_PAGE_ID" | "META_API_VERSION" | "META_GRAPH_URL" | "META_PIXEL_ID" | "META_TARGET_COUNTRIES" | "STORE_TIMEZONE"
>;

export function createAdsPlatform(config: AdsPlatformConfig, log?: Logger): AdsPlatformPort {
  if (config.ADS_PLATFORM !== "meta") return createLocalAdsPlatform({ timeZone: config.STORE_TIMEZONE });
  if (!config.META_ACCESS_TOKEN || !config.META_AD_ACCOUNT_ID || !config.META_PAGE_ID) {
    throw new Error("ADS_PLATFORM=meta needs META_ACCESS_TOKEN, META_AD_ACCOUNT_ID and META_PAGE_ID");
  }
  return createMetaAdsPlatform({
    accessToken: config.META_ACCESS_TOKEN,
    adAccountId: config.META_AD_ACCOUNT_ID,
    pageId: config.META_PAGE_ID,
    apiVersion: config.META_API_VERSION,
    graphUrl: config.META_GRAPH_URL,
    pixelId: config.META_PIXEL_ID,
    countries: config.META_TARGET_COUNTRIES,
    log: log?.child({ adapter: "ads-meta" }),
  });
}
