/**
 * The catalogue webhooks (products, inventory, orders), offline: HMAC verified by
 * `authenticate.webhook`, idempotent by webhook id, and their effect on the read model. Product
 * webhooks re-read the product through the commerce port (the Shopify adapter, talking to a local
 * server that answers like the Admin API).
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { resetConfigCache } from "../../app/config.server";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { jsonFixture, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { callRouteAction as call, shopifyWebhook, SHOPIFY_TEST_ENV as env, SHOPIFY_TEST_SHOP as SHOP } from "../helpers/shopify-webhook";

type Route = { action: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let app: TestApp;
let fake: FakeShopify;
let products: Route;
let inventory: Route;
let orders: Route;
let storeId: string;
const product = jsonFixture("product.json");

beforeAll(async () => {
  Object.assign(process.env, env);
  resetConfigCache();
  app = await createTestApp({ env });
  fake = await startFakeShopify({ shop: SHOP });
  app.ctx.commerce = createShopifyCommerce({ shop: SHOP, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => undefined });
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  products = (await import("../../app/routes/webhooks.products")) as Route;
  inventory = (await import("../../app/routes/webhooks.inventory")) as Route;
  orders = (await import("../../app/routes/webhooks.orders")) as Route;
  const vendor = await app.database.db.vendor.create({ data: { name: "Northwind", handle: "northwind" } });
  storeId = (await app.database.db.store.create({ data: { name: "Northwind Atelier", handle: "northwind-atelier", vendor_id: vendor.id } })).id;
});
afterAll(async () => {
  await fake?.close();
  await app?.close();
});
beforeEach(() => {
  fake.handlers.clear();
  fake.requests.length = 0;
});

function webhook(pathName: string, topic: string, payload: object, opts: { id?: string; secret?: string } = {}) {
  return shopifyWebhook(`/webhooks/${pathName}`, topic, payload, opts);
}

const restProduct = { id: 7001, admin_graphql_api_id: "gid://shopify/Product/7001", title: "Linen Shirt (partial payload)" };

describe("signatures", () => {
  it("refuses deliveries with a wrong HMAC on every catalogue webhook", async () => {
    expect((await call(products, webhook("products", "products/update", restProduct, { secret: "wrong" }))).status).toBe(401);
    expect((await call(inventory, webhook("inventory", "inventory_levels/update", { inventory_item_id: 1 }, { secret: "wrong" }))).status).toBe(401);
    expect((await call(orders, webhook("orders", "orders/create", { id: 1 }, { secret: "wrong" }))).status).toBe(401);
    expect(fake.requests).toHaveLength(0);
    expect(await app.database.db.webhookDelivery.count()).toBe(0);
  });
});

describe("products webhooks", () => {
  it("products/create re-reads the product through the commerce port and writes the read model", async () => {
    fake.on("ProductGet", { product });
    const id = crypto.randomUUID();
    const res = await call(products, webhook("products", "products/create", restProduct, { id }));
    expect(res.status).toBe(200);
    expect(fake.calls("ProductGet")[0].variables).toEqual({ id: "gid://shopify/Product/7001" });
    const row = await app.database.db.product.findUniqueOrThrow({ where: { id: product.id }, include: { variants: { orderBy: { position: "asc" } }, images: { orderBy: { position: "asc" } }, options: true } });
    expect(row).toMatchObject({ title: "Linen Shirt", handle: "linen-shirt", target_gender: "menswear", currencyCode: "EUR", totalInventory: 3, availableForSale: true, featuredImageUrl: "https://cdn.shopify.test/white.jpg", store_id: storeId });
    expect(row.priceMin.toFixed(2)).toBe("40.00");
    expect(row.priceMax.toFixed(2)).toBe("45.50");
    expect(row.variants.map((v) => [v.id, v.color_hex, v.inventory_quantity])).toEqual([["gid://shopify/ProductVariant/71", "#ffffff", 3], ["gid://shopify/ProductVariant/72", null, 0]]);
    expect(row.images.map((i) => i.id)).toEqual(["gid://shopify/MediaImage/91", "gid://shopify/MediaImage/92"]);
    expect(row.options).toHaveLength(2);

    // The same delivery again is acknowledged without work.
    expect((await call(products, webhook("products", "products/create", restProduct, { id }))).status).toBe(200);
    expect(fake.calls("ProductGet")).toHaveLength(1);
  });

  it("products/update updates in place: removed variants and images go, the companion stays", async () => {
    await app.database.db.productCompanion.create({ data: { shopify_product_id: product.id, status: "active", taobao_id: "tb-1" } });
    const updated = structuredClone(product);
    updated.title = "Linen Shirt II";
    updated.variants.nodes = updated.variants.nodes.slice(0, 1);
    updated.variants.nodes[0].inventoryQuantity = 9;
    updated.media.nodes = [updated.media.nodes[2]];
    fake.on("ProductGet", { product: updated });
    expect((await call(products, webhook("products", "products/update", restProduct))).status).toBe(200);
    const row = await app.database.db.product.findUniqueOrThrow({ where: { id: product.id }, include: { variants: true, images: true, companion: true } });
    expect(row).toMatchObject({ title: "Linen Shirt II", totalInventory: 9, featuredImageUrl: "https://cdn.shopify.test/navy.jpg" });
    expect(row.priceMax.toFixed(2)).toBe("40.00");
    expect(row.variants.map((v) => v.id)).toEqual(["gid://shopify/ProductVariant/71"]);
    expect(row.images.map((i) => i.id)).toEqual(["gid://shopify/MediaImage/92"]);
    expect(row.companion?.taobao_id).toBe("tb-1");
  });

  it("a failed re-read answers 500 and forgets the delivery, so Shopify's retry is processed", async () => {
    fake.on("ProductGet", () => ({ errors: [{ message: "Internal error" }] }));
    const id = crypto.randomUUID();
    expect((await call(products, webhook("products", "products/update", restProduct, { id }))).status).toBe(500);
    expect(await app.database.db.webhookDelivery.count({ where: { id } })).toBe(0);
    const changed = { ...structuredClone(product), title: "Linen Shirt III" };
    fake.on("ProductGet", { product: changed });
    expect((await call(products, webhook("products", "products/update", restProduct, { id }))).status).toBe(200);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: product.id } })).title).toBe("Linen Shirt III");
    expect(await app.database.db.webhookDelivery.count({ where: { id } })).toBe(1);
  });

  it("inventory_levels/update finds the item's product and refreshes its inventory", async () => {
    const stocked = structuredClone(product);
    stocked.variants.nodes[0].inventoryQuantity = 0;
    stocked.variants.nodes[0].availableForSale = false;
    stocked.variants.nodes[1].inventoryQuantity = 12;
    stocked.variants.nodes[1].availableForSale = true;
    fake.on("InventoryItemProduct", { inventoryItem: { id: "gid://shopify/InventoryItem/8072", variants: { nodes: [{ id: "gid://shopify/ProductVariant/72", product: { id: product.id } }] } } });
    fake.on("ProductGet", { product: stocked });
    const res = await call(inventory, webhook("inventory", "inventory_levels/update", { inventory_item_id: 8072, location_id: 1, available: 12, updated_at: new Date().toISOString() }));
    expect(res.status).toBe(200);
    expect(fake.calls("InventoryItemProduct")[0].variables).toEqual({ id: "gid://shopify/InventoryItem/8072" });
    const row = await app.database.db.product.findUniqueOrThrow({ where: { id: product.id }, include: { variants: { orderBy: { position: "asc" } } } });
    expect(row.totalInventory).toBe(12);
    expect(row.variants.map((v) => v.inventory_quantity)).toEqual([0, 12]);
  });

  it("products/delete removes the product from the read model (without asking the store)", async () => {
    expect((await call(products, webhook("products", "products/delete", { id: 7001 }))).status).toBe(200);
    expect(await app.database.db.product.count({ where: { id: product.id } })).toBe(0);
    expect(await app.database.db.productCompanion.count({ where: { shopify_product_id: product.id } })).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("orders webhooks", () => {
  const restOrder = {
    id: 5001,
    admin_graphql_api_id: "gid://shopify/Order/5001",
    name: "#5001",
    order_number: 5001,
    email: "Buyer@Example.com",
    created_at: "2026-02-01T10:00:00Z",
    cancelled_at: null,
    cancel_reason: null,
    closed_at: null,
    financial_status: "paid",
    fulfillment_status: null,
    currency: "USD",
    total_price: "85.50",
    subtotal_price: "85.50",
    total_tax: "0.00",
    customer: { id: 301, email: "buyer@example.com" },
    line_items: [
      { id: 11, admin_graphql_api_id: "gid://shopify/LineItem/11", product_id: 7001, variant_id: 71, title: "Linen Shirt", variant_title: "White / S", sku: "LS-W-S", quantity: 1, price: "40.00", fulfillment_status: null },
      { id: 12, admin_graphql_api_id: "gid://shopify/LineItem/12", product_id: 7001, variant_id: 72, title: "Linen Shirt", variant_title: "Navy / S", sku: null, quantity: 2, price: "22.75", fulfillment_status: null },
    ],
    fulfillments: [],
  };

  it("orders/create writes the order, its items and purchase events, mapped to the customer's user", async () => {
    const user = await app.database.db.user.create({ data: { email: "someone@example.com", shopify_customer_id: "301", auth_provider: "shopify" } });
    const id = crypto.randomUUID();
    expect((await call(orders, webhook("orders", "orders/create", restOrder, { id }))).status).toBe(200);
    const o = await app.database.db.order.findUniqueOrThrow({ where: { id: "gid://shopify/Order/5001" }, include: { items: { orderBy: { id: "asc" } }, purchase_events: true } });
    expect(o).toMatchObject({ name: "#5001", user_id: user.id, email: "buyer@example.com", status: "open", financial_status: "PAID", fulfillment_status: "UNFULFILLED", shopify_customer_id: "301" });
    expect(o.total_price.toFixed(2)).toBe("85.50");
    expect(o.items.map((i) => [i.id, i.product_id, i.variant_id, i.quantity, i.status])).toEqual([
      ["gid://shopify/LineItem/11", "gid://shopify/Product/7001", "gid://shopify/ProductVariant/71", 1, "unfulfilled"],
      ["gid://shopify/LineItem/12", "gid://shopify/Product/7001", "gid://shopify/ProductVariant/72", 2, "unfulfilled"],
    ]);
    expect(o.purchase_events.map((e) => [e.product_id, e.quantity, e.user_id])).toEqual(
      expect.arrayContaining([["gid://shopify/Product/7001", 1, user.id], ["gid://shopify/Product/7001", 2, user.id]]),
    );
    // Repeat delivery: no duplicate events.
    expect((await call(orders, webhook("orders", "orders/create", restOrder, { id }))).status).toBe(200);
    expect(await app.database.db.productPurchaseEvent.count({ where: { order_id: o.id } })).toBe(2);
  });

  it("orders/updated records fulfilment tracking, then a cancellation (items cancelled, purchase events removed)", async () => {
    const fulfilled = {
      ...restOrder,
      fulfillment_status: "partial",
      line_items: [{ ...restOrder.line_items[0], fulfillment_status: "fulfilled" }, restOrder.line_items[1]],
      fulfillments: [{ tracking_number: "1Z999", tracking_url: "https://ups.test/1Z999", tracking_company: "UPS", line_items: [{ id: 11 }] }],
    };
    expect((await call(orders, webhook("orders", "orders/updated", fulfilled))).status).toBe(200);
    let item = await app.database.db.orderItem.findUniqueOrThrow({ where: { id: "gid://shopify/LineItem/11" } });
    expect(item).toMatchObject({ status: "fulfilled", tracking_number: "1Z999", provider: "UPS" });
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: "gid://shopify/Order/5001" } })).fulfillment_status).toBe("PARTIALLY_FULFILLED");
    expect(await app.database.db.productPurchaseEvent.count({ where: { order_id: "gid://shopify/Order/5001" } })).toBe(2);

    const cancelled = { ...restOrder, cancelled_at: "2026-02-02T10:00:00Z", cancel_reason: "customer", financial_status: "refunded" };
    expect((await call(orders, webhook("orders", "orders/updated", cancelled))).status).toBe(200);
    const o = await app.database.db.order.findUniqueOrThrow({ where: { id: "gid://shopify/Order/5001" }, include: { items: true } });
    expect(o).toMatchObject({ status: "cancelled", cancel_reason: "customer", financial_status: "REFUNDED" });
    expect(o.items.every((i) => i.status === "cancelled")).toBe(true);
    item = o.items.find((i) => i.id === "gid://shopify/LineItem/11")!;
    expect(item.tracking_number).toBe("1Z999"); // kept
    expect(await app.database.db.productPurchaseEvent.count({ where: { order_id: o.id } })).toBe(0);
  });
});
