/**
 * Shopify configuration, once (app template convention). In local mode no Shopify credentials
 * exist; the object is still built (an inert API key, the local secret of DATA_DIR) so the same
 * routes load, and the embedded-admin paths are only used when COMMERCE_ADAPTER=shopify.
 */
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { getConfig } from "./config.server";
import { stripUnstorableDeep } from "./lib/unstorable-text";
import { MAX_JSON_BODY_BYTES, limitRequestBody, refusingLargeBodies } from "./lib/body-limit.server";
import { APP_SCOPES } from "./lib/app-scopes";

/** The pinned Admin API version; GraphQL documents are validated against its schema in tests. */
export const ADMIN_API_VERSION = ApiVersion.October26;

const config = getConfig();
export const shopifyConfigured = config.COMMERCE_ADAPTER === "shopify";

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY ?? "local-mode",
  // Configured, or (local mode only) generated once in DATA_DIR: never a public constant.
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  scopes: config.SCOPES ? config.SCOPES.split(",").map((s) => s.trim()).filter(Boolean) : [...APP_SCOPES],
  appUrl: config.SHOPIFY_APP_URL ?? config.APP_URL ?? `http://localhost:${config.PORT}`,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
  distribution: AppDistribution.AppStore,
  useOnlineTokens: true,
  logger: { level: config.NODE_ENV === "test" ? LogSeverity.Error : LogSeverity.Info },
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
});

export default shopify;
export const apiVersion = ADMIN_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate: typeof shopify.authenticate = {
  ...shopify.authenticate,
  // Shopify's text is stored as it comes, and PostgreSQL cannot store U+0000 or an unpaired
  // surrogate: one such product title would fail its webhook, and every retry, with a 500.
  // They are stripped once here for every topic.
  webhook: async (request: Request) => {
    // Anyone can post here: the body is counted as it is read for the HMAC check, 413 past the limit.
    const context = await refusingLargeBodies(() => shopify.authenticate.webhook(limitRequestBody(request, MAX_JSON_BODY_BYTES)));
    return { ...context, payload: stripUnstorableDeep(context.payload) };
  },
};
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
