/**
 * Shopify's own text with U+0000 or an unpaired surrogate (a product title, an order's name) is
 * stored without those characters instead of failing the webhook, and each of Shopify's retries,
 * with a 500: stripped once for every webhook payload (app/shopify.server.ts) and every Admin API
 * answer (the Shopify commerce adapter), which catalogue sync and product webhooks read.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { resetConfigCache } from "../../app/config.server";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { jsonFixture, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { callRouteAction as call, shopifyAdapterEnv, shopifyWebhook } from "../helpers/shopify-webhook";

const SHOP = "nul-shop.myshopify.com";
const SECRET = "testApiSecretKeyForNulText";
const env = shopifyAdapterEnv({ shop: SHOP, secret: SECRET });

type Route = { action: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let app: TestApp;
let fake: FakeShopify;
let products: Route;
let orders: Route;

beforeAll(async () => {
  Object.assign(process.env, env);
  resetConfigCache();
  app = await createTestApp({ env });
  fake = await startFakeShopify({ shop: SHOP });
  app.ctx.commerce = createShopifyCommerce({ shop: SHOP, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => undefined });
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  products = (await import("../../app/routes/webhooks.products")) as Route;
  orders = (await import("../../app/routes/webhooks.orders")) as Route;
});
afterAll(async () => {
  await fake?.close();
  await app?.close();
});

function webhook(pathName: string, topic: string, payload: object) {
  return shopifyWebhook(`/webhooks/${pathName}`, topic, payload, { shop: SHOP, secret: SECRET });
}

it("a product whose title from the Admin API holds NUL and a lone surrogate is stored without them", async () => {
  const product = jsonFixture("product.json") as { id: string; title: string; description?: string };
  fake.on("ProductGet", { product: { ...product, title: "Linen\u0000 Shirt\ud800" } });
  const res = await call(products, webhook("products", "products/update", { id: 7001, admin_graphql_api_id: product.id, title: "Linen\u0000 Shirt" }));
  expect(res.status).toBe(200);
  const row = await app.database.db.product.findUniqueOrThrow({ where: { id: product.id } });
  expect(row.title).toBe("Linen Shirt");
});

it("an order webhook whose text holds NUL is stored without it", async () => {
  const order = {
    id: 6001,
    admin_graphql_api_id: "gid://shopify/Order/6001",
    name: "#60\u000001",
    order_number: 6001,
    email: "nul@example.com",
    created_at: "2026-02-01T10:00:00Z",
    cancelled_at: null,
    financial_status: "paid",
    fulfillment_status: null,
    currency: "USD",
    total_price: "10.00",
    subtotal_price: "10.00",
    total_tax: "0.00",
    line_items: [{ id: 61, admin_graphql_api_id: "gid://shopify/LineItem/61", product_id: 7001, variant_id: 71, title: "Linen\u0000 Shirt", variant_title: "White\udc00 / S", sku: null, quantity: 1, price: "10.00", fulfillment_status: null }],
    fulfillments: [],
  };
  const res = await call(orders, webhook("orders", "orders/create", order));
  expect(res.status).toBe(200);
  const row = await app.database.db.order.findUniqueOrThrow({ where: { id: "gid://shopify/Order/6001" } });
  expect(row.name).toBe("#6001");
});
