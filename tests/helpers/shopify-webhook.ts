/**
 * Shopify webhooks as the store sends them, for tests that call the webhook routes (in-process or
 * over HTTP), and the settings of a test app running the Shopify commerce adapter.
 */
import crypto from "node:crypto";

export const SHOPIFY_TEST_SHOP = "test-shop.myshopify.com";
export const SHOPIFY_TEST_API_KEY = "testApiKey";
export const SHOPIFY_TEST_SECRET = "testApiSecretKey";
export const SHOPIFY_TEST_APP_URL = "https://my-test-app.myshopify.io";
export const SHOPIFY_TEST_API_VERSION = "2026-10";

/** The env of a test app on the Shopify adapter (for createTestApp and process.env); shop and secret may be another's. */
export function shopifyAdapterEnv(over: { shop?: string; secret?: string } = {}): Record<string, string> {
  return {
    COMMERCE_ADAPTER: "shopify",
    SHOPIFY_API_KEY: SHOPIFY_TEST_API_KEY,
    SHOPIFY_API_SECRET: over.secret ?? SHOPIFY_TEST_SECRET,
    SHOPIFY_APP_URL: SHOPIFY_TEST_APP_URL,
    SHOPIFY_SHOP: over.shop ?? SHOPIFY_TEST_SHOP,
  };
}

export const SHOPIFY_TEST_ENV = shopifyAdapterEnv();

export interface ShopifyWebhookOptions {
  /** The key it is signed with: the test app's secret unless given (a wrong one for forged deliveries). */
  secret?: string;
  /** x-shopify-shop-domain. */
  shop?: string;
  /** x-shopify-webhook-id (what deliveries are deduplicated by): a new one unless given. */
  id?: string;
  apiVersion?: string;
  /** Sends x-shopify-event-id and x-shopify-triggered-at, as Shopify does (default true). */
  deliveryHeaders?: boolean;
  /** More headers (user-agent, origin…). */
  headers?: Record<string, string>;
}

/**
 * A POST of `payload` as JSON to `path` (under the test app's URL; an absolute URL as it is) with
 * Shopify's headers and the body's HMAC-SHA256 signature.
 */
export function shopifyWebhook(path: string, topic: string, payload: object, opts: ShopifyWebhookOptions = {}): Request {
  const body = JSON.stringify(payload);
  return new Request(new URL(path, SHOPIFY_TEST_APP_URL), {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": crypto.createHmac("sha256", opts.secret ?? SHOPIFY_TEST_SECRET).update(body).digest("base64"),
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": opts.shop ?? SHOPIFY_TEST_SHOP,
      "x-shopify-api-version": opts.apiVersion ?? SHOPIFY_TEST_API_VERSION,
      "x-shopify-webhook-id": opts.id ?? crypto.randomUUID(),
      ...(opts.deliveryHeaders === false ? {} : { "x-shopify-event-id": crypto.randomUUID(), "x-shopify-triggered-at": new Date().toISOString() }),
      ...opts.headers,
    },
  });
}

/** A route module's action, called as Remix calls it. */
export type RouteAction = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<Response> | Response;

/** Calls a route's action; a Response it throws (Remix's way for redirects and refusals) is returned. */
export async function callRouteAction(route: { action?: RouteAction }, request: Request, params: Record<string, string> = {}): Promise<Response> {
  if (!route.action) throw new Error("the route has no action");
  try {
    return await route.action({ request, params, context: {} });
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}
