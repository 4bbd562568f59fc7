/**
 * The return lifecycle on Shopify, offline: the Admin GraphQL documents the adapter sends for the
 * tracking on the way back, the disposition of what came back, the close after the refund and the
 * order cancel's notify choice (validated against the real Admin schema, exercised through the API
 * against the local Shopify-like server with userErrors and throttling); and the returns webhooks
 * (HMAC, once per webhook id, each topic's effect on the app's two machines, refused and unknown
 * ones answered 200 and ignored).
 */
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Prisma, type ReturnRequestStatus, type ReturnStatus } from "@prisma/client";
import { parse, validate } from "graphql";
import { createTestApp, type TestApp } from "../helpers/app";
import { verifyEmailOf } from "../helpers/email-verification";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { resetConfigCache } from "../../app/config.server";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { createLocalCommerce } from "../../app/providers/commerce/local.server";
import { BACK_IN_STOCK_QUEUE, withNotificationTriggers } from "../../app/services/notification-requests.server";
import * as D from "../../app/providers/commerce/shopify-documents";
import { RETURN_WEBHOOK_TOPICS } from "../../app/services/returns/return-webhooks.server";
import { adminSchema, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { callRouteAction as call, shopifyWebhook, SHOPIFY_TEST_ENV as env, SHOPIFY_TEST_SHOP as SHOP } from "../helpers/shopify-webhook";
import { createProduct, pgid, vgid } from "./products-fixtures";

type Route = { action: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let app: TestApp;
let fake: FakeShopify;
let returnsRoute: Route;
let sleeps: number[] = [];
let ann: { id: string; token: string; email: string | null };
let admin: { id: string; token: string; email: string | null };

const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const rgid = (n: number) => `gid://shopify/Return/${n}`;
const LOCATION = "gid://shopify/Location/1";
const db = () => app.database.db;

/** A delivered order of Ann's: 2 × Oxford Shirt at 50.00, 1 × Linen Trousers at 30.00. */
async function createOrder(n: number, itemStatus: "delivered" | "unfulfilled" = "delivered") {
  await db().order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      user_id: ann.id,
      email: "ann@example.test",
      status: itemStatus === "delivered" ? "closed" : "open",
      financial_status: "PAID",
      fulfillment_status: itemStatus === "delivered" ? "FULFILLED" : "UNFULFILLED",
      total_price: new Prisma.Decimal(130),
      created_at: new Date(Date.now() - 5 * 86_400_000),
      items: {
        create: [
          { id: lid(n, 0), product_id: pgid(601), variant_id: vgid(601, 0), title: "Oxford Shirt", variant_title: "Black / S", quantity: 2, price: new Prisma.Decimal(50), status: itemStatus },
          { id: lid(n, 1), product_id: pgid(602), variant_id: vgid(602, 0), title: "Linen Trousers", variant_title: null, quantity: 1, price: new Prisma.Decimal(30), status: itemStatus },
        ],
      },
    },
  });
}

/** A return of both items that Shopify knows (shopify_return_id), with its request. */
async function seedReturn(n: number, s: { status: ReturnStatus; request: ReturnRequestStatus | null; tracking?: string; received?: boolean }) {
  await createOrder(n);
  const ret = await db().return.create({
    data: {
      order_id: oid(n),
      user_id: ann.id,
      shopify_return_id: rgid(n),
      status: s.status,
      reason: "SIZE_TOO_SMALL",
      tracking_number: s.tracking ?? null,
      tracking_company: s.tracking ? "UPS" : null,
      received_at: s.received ? new Date() : null,
      line_items: {
        create: [
          { order_item_id: lid(n, 0), quantity: 2, reason: "SIZE_TOO_SMALL", received: !!s.received },
          { order_item_id: lid(n, 1), quantity: 1, reason: "SIZE_TOO_SMALL" },
        ],
      },
    },
  });
  const rr = s.request
    ? await db().returnRequest.create({ data: { order_id: oid(n), user_id: ann.id, status: s.request, reason: "SIZE_TOO_SMALL", order_item_ids: [lid(n, 0), lid(n, 1)], return_id: ret.id } })
    : null;
  return { returnId: ret.id, requestId: rr?.id ?? null };
}

/** The return's reverse fulfilment order as Shopify answers it (with a delivery once the label went out). */
function reverseOrders(n: number, o: { delivery: boolean; disposed?: number }) {
  return {
    return: {
      id: rgid(n),
      reverseFulfillmentOrders: {
        nodes: [
          {
            id: `gid://shopify/ReverseFulfillmentOrder/${n}`,
            lineItems: {
              nodes: [
                { id: `gid://shopify/ReverseFulfillmentOrderLineItem/${n}1`, totalQuantity: 2, fulfillmentLineItem: { lineItem: { id: lid(n, 0) } }, dispositions: o.disposed ? [{ quantity: o.disposed }] : [] },
                { id: `gid://shopify/ReverseFulfillmentOrderLineItem/${n}2`, totalQuantity: 1, fulfillmentLineItem: { lineItem: { id: lid(n, 1) } }, dispositions: [] },
              ],
            },
            reverseDeliveries: { nodes: o.delivery ? [{ id: `gid://shopify/ReverseDelivery/${n}` }] : [] },
          },
        ],
      },
    },
  };
}

const userError = (message: string) => [{ field: ["id"], message, code: "INVALID" }];
const eventsOf = (n: number, kind?: string) => db().orderEvent.findMany({ where: { order_id: oid(n), ...(kind ? { kind } : {}) }, orderBy: { created_at: "asc" } });
const returnOf = (n: number) => db().return.findUniqueOrThrow({ where: { shopify_return_id: rgid(n) }, include: { request: true, line_items: true } });
const status = (returnId: string, body: object) => app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body });

function webhook(topic: string, payload: object, opts: { id?: string; secret?: string } = {}) {
  return call(returnsRoute, shopifyWebhook("/webhooks/returns", topic, payload, opts));
}
const returnPayload = (n: number, extra: object = {}) => ({ id: n, admin_graphql_api_id: rgid(n), order: { id: n, admin_graphql_api_id: oid(n) }, ...extra });

beforeAll(async () => {
  Object.assign(process.env, env);
  resetConfigCache();
  app = await createTestApp({ env });
  fake = await startFakeShopify({ shop: SHOP });
  app.ctx.commerce = createShopifyCommerce({ shop: SHOP, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async (ms: number) => void sleeps.push(ms), log: app.ctx.log });
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  returnsRoute = (await import("../../app/routes/webhooks.returns")) as Route;
  await createProduct(db(), { n: 601, title: "Oxford Shirt", inventory: 3 });
  await createProduct(db(), { n: 602, title: "Linen Trousers", inventory: 0 });
  ann = await app.createUser({ email: "ann@example.test" });
  await verifyEmailOf(app, ann);
  admin = await app.createUser({ role: "ADMIN", permissions: ["returns.manage", "orders.manage"], firstName: "Ada" });
});
afterAll(async () => {
  await fake?.close();
  await app?.close();
});
beforeEach(() => {
  fake.handlers.clear();
  fake.requests.length = 0;
  sleeps = [];
  fake.on("InventoryLocations", { locations: { nodes: [{ id: LOCATION, name: "Warehouse", isActive: true, shipsInventory: true, fulfillsOnlineOrders: true }] } });
});

describe("the documents, against the Admin schema of the pinned version", () => {
  const schema = adminSchema("2026-10");
  const docs = {
    ReturnReverseFulfillmentOrders: D.RETURN_REVERSE_FULFILLMENT_ORDERS,
    ReverseDeliveryShippingUpdate: D.REVERSE_DELIVERY_SHIPPING_UPDATE,
    ReverseDeliveryCreateWithShipping: D.REVERSE_DELIVERY_CREATE_WITH_SHIPPING,
    ReverseFulfillmentOrderDispose: D.REVERSE_FULFILLMENT_ORDER_DISPOSE,
    ReturnProcess: D.RETURN_PROCESS,
    ReturnClose: D.RETURN_CLOSE,
    ReturnGet: D.RETURN_GET,
    OrderCancel: D.ORDER_CANCEL,
  };
  for (const [name, doc] of Object.entries(docs)) {
    it(`${name} validates and is in the adapter's document list`, () => {
      expect(validate(schema, parse(doc)).map((e) => e.message)).toEqual([]);
      expect(D.ADMIN_DOCUMENTS[name]).toBe(doc);
    });
  }

  it("subscribes shopify.app.toml to returns topics that exist in the schema and that the route handles", () => {
    const toml = fs.readFileSync(path.resolve(__dirname, "../../shopify.app.toml"), "utf8");
    const block = /topics = \[([^\]]*)\]\s*\n\s*uri = "\/webhooks\/returns"/.exec(toml);
    expect(block).not.toBeNull();
    const topics = [...block![1].matchAll(/"([^"]+)"/g)].map((m) => m[1].toUpperCase().replace("/", "_"));
    expect(topics.sort()).toEqual([...RETURN_WEBHOOK_TOPICS].sort());
    const enumValues = (schema.getType("WebhookSubscriptionTopic") as unknown as { getValues(): { name: string }[] }).getValues().map((v) => v.name);
    for (const t of topics) expect(enumValues).toContain(t);
  });
});

describe("the adapter through the admin API (Shopify-like server)", () => {
  it("a tracking number given on the way back updates the reverse delivery's tracking; a refusal keeps the return as it was", async () => {
    const { returnId } = await seedReturn(9101, { status: "LABEL_SENT", request: "OPEN", tracking: "1ZOLD" });
    fake.on("ReturnReverseFulfillmentOrders", reverseOrders(9101, { delivery: true }));
    fake.on("ReverseDeliveryShippingUpdate", { reverseDeliveryShippingUpdate: { reverseDelivery: null, userErrors: userError("Tracking number is invalid") } });
    const refused = await status(returnId, { status: "IN_TRANSIT", trackingNumber: "1ZNEW" });
    expect(refused.status).toBe(422);
    expect(await returnOf(9101)).toMatchObject({ status: "LABEL_SENT", tracking_number: "1ZOLD" });

    fake.on("ReverseDeliveryShippingUpdate", { reverseDeliveryShippingUpdate: { reverseDelivery: { id: "gid://shopify/ReverseDelivery/9101" }, userErrors: [] } });
    const res = await status(returnId, { status: "IN_TRANSIT", trackingNumber: "1ZNEW" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "IN_TRANSIT", tracking_number: "1ZNEW" });
    expect(fake.calls("ReverseDeliveryShippingUpdate").at(-1)!.variables).toEqual({ reverseDeliveryId: "gid://shopify/ReverseDelivery/9101", trackingInput: { number: "1ZNEW" }, notifyCustomer: false });
    expect(fake.calls("ReverseDeliveryCreateWithShipping")).toHaveLength(0);
  });

  it("IN_TRANSIT without new tracking tells the store nothing", async () => {
    const { returnId } = await seedReturn(9102, { status: "LABEL_SENT", request: "OPEN", tracking: "1ZSAME" });
    const res = await status(returnId, { status: "IN_TRANSIT" });
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(0);
  });

  it("a corrected tracking number reaches the store (retried once throttled); a reverse fulfilment order without a delivery gets one", async () => {
    const { returnId } = await seedReturn(9103, { status: "IN_TRANSIT", request: "OPEN", tracking: "1ZOLD" });
    fake.on("ReturnReverseFulfillmentOrders", reverseOrders(9103, { delivery: false }));
    fake.on("ReverseDeliveryCreateWithShipping", (_v, n) =>
      n === 1
        ? { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }], cost: { requested: 110, available: 10, restoreRate: 100 } }
        : { data: { reverseDeliveryCreateWithShipping: { reverseDelivery: { id: "gid://shopify/ReverseDelivery/1" }, userErrors: [] } } },
    );
    const res = await status(returnId, { status: "IN_TRANSIT", trackingNumber: "1ZFIXED" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tracking_number).toBe("1ZFIXED");
    expect(fake.calls("ReverseDeliveryCreateWithShipping")).toHaveLength(2);
    expect(sleeps[0]).toBe(1000); // (110 - 10) / 100 per second
    expect(fake.calls("ReverseDeliveryCreateWithShipping")[1].variables).toMatchObject({ reverseFulfillmentOrderId: "gid://shopify/ReverseFulfillmentOrder/9103", trackingInput: { number: "1ZFIXED" }, notifyCustomer: false });
    expect((await eventsOf(9103, "return.tracking")).length).toBe(1);

    fake.on("ReturnReverseFulfillmentOrders", reverseOrders(9103, { delivery: true }));
    fake.on("ReverseDeliveryShippingUpdate", { reverseDeliveryShippingUpdate: { reverseDelivery: null, userErrors: userError("Reverse delivery is closed") } });
    const refused = await status(returnId, { status: "IN_TRANSIT", trackingNumber: "1ZAGAIN" });
    expect(refused.status).toBe(422);
    expect((await returnOf(9103)).tracking_number).toBe("1ZFIXED");
  });

  it("a second label updates the delivery the first one made instead of adding one", async () => {
    const { returnId } = await seedReturn(9104, { status: "LABEL_SENT", request: "OPEN", tracking: "1ZL1" });
    fake.on("ReturnReverseFulfillmentOrders", reverseOrders(9104, { delivery: true }));
    fake.on("ReverseDeliveryShippingUpdate", { reverseDeliveryShippingUpdate: { reverseDelivery: { id: "gid://shopify/ReverseDelivery/9104" }, userErrors: [] } });
    const res = await status(returnId, { status: "LABEL_SENT", labelUrl: "https://labels.example.test/9104-b.pdf" });
    expect(res.status).toBe(200);
    expect(fake.calls("ReverseDeliveryShippingUpdate")[0].variables).toEqual({
      reverseDeliveryId: "gid://shopify/ReverseDelivery/9104",
      trackingInput: { number: "1ZL1" },
      labelInput: { fileUrl: "https://labels.example.test/9104-b.pdf" },
      notifyCustomer: false,
    });
    expect(fake.calls("ReverseDeliveryCreateWithShipping")).toHaveLength(0);
  });

  it("confirming what came back disposes it in Shopify: received lines RESTOCKED at the inventory location, the rest MISSING; the local stock waits for Shopify's inventory webhook", async () => {
    const { returnId } = await seedReturn(9105, { status: "IN_TRANSIT", request: "OPEN", tracking: "1ZC" });
    fake.on("ReturnReverseFulfillmentOrders", reverseOrders(9105, { delivery: true }));
    fake.on("ReverseFulfillmentOrderDispose", { reverseFulfillmentOrderDispose: { reverseFulfillmentOrderLineItems: [{ id: "x" }], userErrors: [] } });
    const stockBefore = (await db().productVariant.findUniqueOrThrow({ where: { id: vgid(601, 0) } })).inventory_quantity;
    const res = await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [lid(9105, 0)], item_notes: { [lid(9105, 1)]: "Not in the parcel" } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("DELIVERED");
    expect(fake.calls("ReverseFulfillmentOrderDispose")[0].variables).toEqual({
      dispositionInputs: [
        { reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/91051", quantity: 2, dispositionType: "RESTOCKED", locationId: LOCATION },
        { reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/91052", quantity: 1, dispositionType: "MISSING" },
      ],
    });
    expect(fake.calls("InventorySetQuantities")).toHaveLength(0);
    expect((await db().productVariant.findUniqueOrThrow({ where: { id: vgid(601, 0) } })).inventory_quantity).toBe(stockBefore);
  });

  it("a disposition refused by Shopify leaves the confirmation standing (logged for a manual restock); a retry disposes only what is left", async () => {
    const { returnId } = await seedReturn(9106, { status: "IN_TRANSIT", request: "OPEN", tracking: "1ZD" });
    fake.on("ReturnReverseFulfillmentOrders", reverseOrders(9106, { delivery: true, disposed: 2 }));
    fake.on("ReverseFulfillmentOrderDispose", { reverseFulfillmentOrderDispose: { reverseFulfillmentOrderLineItems: null, userErrors: userError("Quantity exceeds") } });
    const res = await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [lid(9106, 0), lid(9106, 1)] } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("DELIVERED");
    // The first line was already disposed (2 of 2): only the second one is sent.
    expect(fake.calls("ReverseFulfillmentOrderDispose")[0].variables.dispositionInputs).toEqual([
      { reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/91062", quantity: 1, dispositionType: "RESTOCKED", locationId: LOCATION },
    ]);
  });

  function refundContext(n: number) {
    return {
      return: {
        id: rgid(n),
        status: "OPEN",
        order: { id: oid(n), transactions: [{ id: "gid://shopify/OrderTransaction/1", kind: "SALE", status: "SUCCESS", gateway: "shopify_payments" }] },
        returnLineItems: {
          nodes: [
            { id: `gid://shopify/ReturnLineItem/${n}1`, quantity: 2, processableQuantity: 2, fulfillmentLineItem: { lineItem: { id: lid(n, 0) } } },
            { id: `gid://shopify/ReturnLineItem/${n}2`, quantity: 1, processableQuantity: 1, fulfillmentLineItem: { lineItem: { id: lid(n, 1) } } },
          ],
        },
      },
    };
  }

  it("a partial refund processes the received lines, then closes the return that processing left OPEN", async () => {
    const { returnId, requestId } = await seedReturn(9107, { status: "DELIVERED", request: "OPEN", received: true });
    fake.on("ReturnRefundContext", refundContext(9107));
    fake.on("ReturnProcess", { returnProcess: { return: { id: rgid(9107), status: "OPEN" }, userErrors: [] } });
    fake.on("ReturnClose", { returnClose: { return: { id: rgid(9107), status: "CLOSED" }, userErrors: [] } });
    const res = await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.refund).toEqual({ amount: "100.00", currencyCode: "USD" });
    expect(fake.calls("ReturnProcess")[0].variables.input.returnLineItems).toEqual([{ id: "gid://shopify/ReturnLineItem/91071", quantity: 2 }]);
    expect(fake.calls("ReturnClose").map((c) => c.variables)).toEqual([{ id: rgid(9107) }]);
    expect((await db().returnRequest.findUniqueOrThrow({ where: { id: requestId! } })).status).toBe("CLOSED");
  });

  it("a refund whose processing closed the return sends no returnClose; a refused close never undoes the refund", async () => {
    const a = await seedReturn(9108, { status: "DELIVERED", request: "OPEN", received: true });
    fake.on("ReturnRefundContext", refundContext(9108));
    fake.on("ReturnProcess", { returnProcess: { return: { id: rgid(9108), status: "CLOSED" }, userErrors: [] } });
    expect((await app.api("POST", `/returns/admin/${a.returnId}/refund`, { token: admin.token, body: {} })).status).toBe(200);
    expect(fake.calls("ReturnClose")).toHaveLength(0);

    const b = await seedReturn(9109, { status: "DELIVERED", request: "OPEN", received: true });
    fake.on("ReturnRefundContext", refundContext(9109));
    fake.on("ReturnProcess", { returnProcess: { return: { id: rgid(9109), status: "OPEN" }, userErrors: [] } });
    fake.on("ReturnClose", { returnClose: { return: null, userErrors: userError("Return cannot be closed") } });
    const res = await app.api("POST", `/returns/admin/${b.returnId}/refund`, { token: admin.token, body: {} });
    expect(res.status).toBe(200);
    expect(await returnOf(9109)).toMatchObject({ status: "REFUNDED" });
    expect((await returnOf(9109)).refunded_at).not.toBeNull();
    expect(fake.calls("ReturnClose")).toHaveLength(1);
  });

  it("the order cancel passes the admin's notify choice to orderCancel", async () => {
    fake.on("OrderCancel", { orderCancel: { job: { id: "gid://shopify/Job/1", done: false }, orderCancelUserErrors: [] } });
    await createOrder(9110, "unfulfilled");
    await createOrder(9111, "unfulfilled");
    const quiet = await app.api("POST", `/orders/admin/${encodeURIComponent(oid(9110))}/cancel`, { token: admin.token, body: { reason: "CUSTOMER", restock: true, refund: true, notify: false } });
    expect(quiet.status, JSON.stringify(quiet.body)).toBe(200);
    const told = await app.api("POST", `/orders/admin/${encodeURIComponent(oid(9111))}/cancel`, { token: admin.token, body: { reason: "CUSTOMER", restock: true, refund: true, notify: true } });
    expect(told.status).toBe(200);
    expect(fake.calls("OrderCancel").map((c) => [c.variables.orderId, c.variables.notifyCustomer])).toEqual([
      [oid(9110), false],
      [oid(9111), true],
    ]);
  });
});

describe("the local adapter (the same port)", () => {
  it("receiveReturnItems puts the received lines back on sale by increment, and the wired port queues the back-in-stock check", async () => {
    const { returnId } = await seedReturn(9150, { status: "IN_TRANSIT", request: "OPEN", tracking: "1ZL" });
    await db().notificationRequest.create({ data: { kind: "back_in_stock", email: "watcher@example.test", product_id: pgid(602) } });
    const local = withNotificationTriggers(createLocalCommerce(db(), app.ctx.log), { db: db(), queue: app.ctx.queue, log: app.ctx.log });
    const stock = async (v: string) => (await db().productVariant.findUniqueOrThrow({ where: { id: v } })).inventory_quantity;
    const [shirt, trousers] = [await stock(vgid(601, 0)), await stock(vgid(602, 0))];
    await local.receiveReturnItems(returnId, { lines: [{ orderLineId: lid(9150, 0), quantity: 2, received: false }, { orderLineId: lid(9150, 1), quantity: 1, received: true }] });
    expect([await stock(vgid(601, 0)), await stock(vgid(602, 0))]).toEqual([shirt, trousers + 1]);
    expect((await db().productVariant.findUniqueOrThrow({ where: { id: vgid(602, 0) } })).availableForSale).toBe(true);
    expect(await db().job.count({ where: { queue: BACK_IN_STOCK_QUEUE } })).toBeGreaterThanOrEqual(1);
    await expect(local.receiveReturnItems("no-such-return", { lines: [] })).rejects.toMatchObject({ status: 404 });
    const snap = await local.getReturn(returnId);
    expect(snap).toMatchObject({ id: returnId, orderId: oid(9150), status: "OPEN" });
    expect(snap!.lines.map((l) => [l.orderLineId, l.quantity]).sort()).toEqual([[lid(9150, 0), 2], [lid(9150, 1), 1]]);
  });
});

describe("returns webhooks", () => {
  /** Shopify's return as ReturnGet answers it. */
  function storeReturn(n: number, s: "REQUESTED" | "OPEN" = "REQUESTED", orderN = n) {
    return {
      return: {
        id: rgid(n),
        name: `#${orderN}-R1`,
        status: s,
        order: { id: oid(orderN) },
        decline: null,
        returnLineItems: {
          nodes: [{ id: `gid://shopify/ReturnLineItem/${n}1`, quantity: 1, customerNote: "Too small", returnReasonNote: "", returnReasonDefinition: { handle: "size-too-small" }, fulfillmentLineItem: { lineItem: { id: lid(orderN, 0) } } }],
        },
      },
    };
  }

  it("refuses a delivery with a bad HMAC (401) and records nothing", async () => {
    const res = await webhook("returns/request", returnPayload(9200), { secret: "wrong" });
    expect(res.status).toBe(401);
    expect(fake.requests).toHaveLength(0);
    expect(await db().webhookDelivery.count({ where: { topic: { startsWith: "RETURNS" } } })).toBe(0);
  });

  it("returns/request: a return requested in Shopify's customer accounts appears as a REQUESTED request on the order; a replay is processed once, another delivery of it changes nothing", async () => {
    await createOrder(9201);
    fake.on("ReturnGet", storeReturn(9201));
    const id = crypto.randomUUID();
    expect((await webhook("returns/request", returnPayload(9201), { id })).status).toBe(200);
    expect((await webhook("returns/request", returnPayload(9201), { id })).status).toBe(200);
    expect(fake.calls("ReturnGet")).toHaveLength(1);
    const ret = await returnOf(9201);
    expect(ret).toMatchObject({ status: "REQUESTED", user_id: ann.id, reason: "SIZE_TOO_SMALL" });
    expect(ret.line_items.map((l) => [l.order_item_id, l.quantity, l.note])).toEqual([[lid(9201, 0), 1, "Too small"]]);
    expect(ret.request).toMatchObject({ status: "REQUESTED", user_id: ann.id, order_item_ids: [lid(9201, 0)] });
    expect((await eventsOf(9201, "return.requested")).map((e) => e.actor_label)).toEqual(["Shopify"]);
    // The shopper sees it with their returns; the admin's list of requests too.
    const mine = await app.api("GET", "/users/returns", { token: ann.token, query: { limit: 50 } });
    expect(mine.body.items.some((e: { id: string }) => e.id === ret.request!.id)).toBe(true);

    expect((await webhook("returns/request", returnPayload(9201))).status).toBe(200);
    expect(await db().returnRequest.count({ where: { order_id: oid(9201) } })).toBe(1);
  });

  it("returns/request for the shopper's own request made through the app links that request (no second one), even when it arrives before the app stored Shopify's answer", async () => {
    await createOrder(9202);
    fake.on("OrderFulfillmentLines", {
      order: { id: oid(9202), fulfillments: [{ id: "gid://shopify/Fulfillment/1", fulfillmentLineItems: { nodes: [{ id: "gid://shopify/FulfillmentLineItem/1", quantity: 2, lineItem: { id: lid(9202, 0) } }] } }] },
    });
    fake.on("ReturnGet", { return: { ...storeReturn(9202).return, returnLineItems: { nodes: [{ ...storeReturn(9202).return.returnLineItems.nodes[0], quantity: 2 }] } } });
    fake.on("ReturnRequest", async () => {
      // Shopify delivers returns/request before answering the mutation.
      expect((await webhook("returns/request", returnPayload(9202))).status).toBe(200);
      return { data: { returnRequest: { return: { id: rgid(9202), status: "REQUESTED" }, userErrors: [] } } };
    });
    const res = await app.api("POST", "/users/orders/9202/initiate-return", { token: ann.token, body: { order_item_ids: [lid(9202, 0)], reason: "SIZE_TOO_SMALL" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const requests = await db().returnRequest.findMany({ where: { order_id: oid(9202) } });
    expect(requests).toHaveLength(1);
    expect(await db().return.count({ where: { order_id: oid(9202) } })).toBe(1);
    expect(requests[0].return_id).toBe((await returnOf(9202)).id);
    // Only the shopper's own event: the webhook added none.
    expect((await eventsOf(9202, "return.requested")).map((e) => e.actor_label)).toEqual(["ann@example.test"]);
  });

  it("returns/approve moves REQUESTED → OPEN once; a return made in the Shopify admin (approved from the start) appears without a request", async () => {
    const { requestId } = await seedReturn(9203, { status: "REQUESTED", request: "REQUESTED" });
    expect((await webhook("returns/approve", returnPayload(9203))).status).toBe(200);
    expect((await webhook("returns/approve", returnPayload(9203))).status).toBe(200);
    expect((await db().returnRequest.findUniqueOrThrow({ where: { id: requestId! } })).status).toBe("OPEN");
    expect(await eventsOf(9203, "return.approved")).toHaveLength(1);
    // The admin can now send the label.
    const detail = await app.api("GET", `/returns/admin/${(await returnOf(9203)).id}`, { token: admin.token });
    expect(detail.body.allowed_statuses).toContain("LABEL_SENT");

    await createOrder(9204);
    fake.on("ReturnGet", storeReturn(9214, "OPEN", 9204));
    expect((await webhook("returns/approve", returnPayload(9214))).status).toBe(200);
    const made = await returnOf(9214);
    expect(made).toMatchObject({ order_id: oid(9204), status: "REQUESTED", request: null });
    expect(await eventsOf(9204, "return.created")).toHaveLength(1);
  });

  it("returns/decline declines the request with Shopify's note (shown as the decline reason) and cancels its return", async () => {
    const { requestId } = await seedReturn(9205, { status: "REQUESTED", request: "REQUESTED" });
    expect((await webhook("returns/decline", returnPayload(9205, { decline: { reason: "final_sale", note: "Final sale item" } }))).status).toBe(200);
    const ret = await returnOf(9205);
    expect(ret.status).toBe("CANCELED");
    expect(ret.request!.status).toBe("DECLINED");
    const list = await app.api("GET", "/returns/admin/requests", { token: admin.token, query: { status: "DECLINED" } });
    expect(list.body.items.find((r: { id: string }) => r.id === requestId)).toMatchObject({ decline_reason: "Final sale item" });
    expect(fake.calls("ReturnGet")).toHaveLength(0);

    // A payload without the decline: the reason is read from the store.
    const b = await seedReturn(9215, { status: "REQUESTED", request: "REQUESTED" });
    fake.on("ReturnGet", { return: { ...storeReturn(9215).return, status: "DECLINED", decline: { reason: "RETURN_PERIOD_ENDED", note: "Past 30 days" } } });
    expect((await webhook("returns/decline", returnPayload(9215))).status).toBe(200);
    const again = await app.api("GET", "/returns/admin/requests", { token: admin.token, query: { status: "DECLINED" } });
    expect(again.body.items.find((r: { id: string }) => r.id === b.requestId)).toMatchObject({ decline_reason: "Past 30 days" });
  });

  it("returns/cancel cancels a return on its way and closes its approved request; after the parcel was received it is refused, logged and answered 200", async () => {
    await seedReturn(9206, { status: "LABEL_SENT", request: "OPEN", tracking: "1Z" });
    expect((await webhook("returns/cancel", returnPayload(9206))).status).toBe(200);
    const a = await returnOf(9206);
    expect([a.status, a.request!.status]).toEqual(["CANCELED", "CLOSED"]);
    expect((await eventsOf(9206, "return.status")).map((e) => e.data)).toEqual([expect.objectContaining({ from: "LABEL_SENT", to: "CANCELED" })]);

    await seedReturn(9207, { status: "DELIVERED", request: "OPEN", received: true });
    expect((await webhook("returns/cancel", returnPayload(9207))).status).toBe(200);
    const b = await returnOf(9207);
    expect([b.status, b.request!.status]).toEqual(["DELIVERED", "OPEN"]);
    expect(await eventsOf(9207)).toHaveLength(0);
  });

  it("returns/close closes an open request (on the timeline); the close that follows the app's own refund adds nothing", async () => {
    await seedReturn(9208, { status: "IN_TRANSIT", request: "OPEN", tracking: "1Z" });
    expect((await webhook("returns/close", returnPayload(9208))).status).toBe(200);
    expect((await returnOf(9208)).request!.status).toBe("CLOSED");
    expect(await eventsOf(9208, "return.closed")).toHaveLength(1);

    await seedReturn(9209, { status: "REFUNDED", request: "CLOSED", received: true });
    expect((await webhook("returns/close", returnPayload(9209))).status).toBe(200);
    expect(await eventsOf(9209)).toHaveLength(0);
  });

  it("returns/reopen is a backward move: logged and ignored", async () => {
    await seedReturn(9210, { status: "REFUNDED", request: "CLOSED", received: true });
    expect((await webhook("returns/reopen", returnPayload(9210))).status).toBe(200);
    const r = await returnOf(9210);
    expect([r.status, r.request!.status]).toEqual(["REFUNDED", "CLOSED"]);
  });

  it("returns/process marks a return on its way as delivered; the process that follows the app's own refund changes nothing", async () => {
    await seedReturn(9211, { status: "IN_TRANSIT", request: "OPEN", tracking: "1Z" });
    expect((await webhook("returns/process", returnPayload(9211))).status).toBe(200);
    expect((await returnOf(9211)).status).toBe("DELIVERED");
    await seedReturn(9212, { status: "REFUNDED", request: "CLOSED", received: true });
    expect((await webhook("returns/process", returnPayload(9212))).status).toBe(200);
    expect((await returnOf(9212)).status).toBe("REFUNDED");
    // Not approved in the app: refused.
    await seedReturn(9213, { status: "REQUESTED", request: "REQUESTED" });
    expect((await webhook("returns/process", returnPayload(9213))).status).toBe(200);
    expect((await returnOf(9213)).status).toBe("REQUESTED");
  });

  it("ignores (200) an unknown return, a return of an order the app does not know, and a payload without a return id", async () => {
    const before = await db().return.count();
    expect((await webhook("returns/decline", returnPayload(9290))).status).toBe(200);
    expect((await webhook("returns/cancel", returnPayload(9291))).status).toBe(200);
    fake.on("ReturnGet", storeReturn(9292, "REQUESTED", 9299));
    expect((await webhook("returns/request", returnPayload(9292))).status).toBe(200);
    fake.on("ReturnGet", { return: null });
    expect((await webhook("returns/request", returnPayload(9293))).status).toBe(200);
    expect((await webhook("returns/approve", { note: "no id" })).status).toBe(200);
    expect(await db().return.count()).toBe(before);
  });

  it("a failure is answered 500 and the delivery is not recorded, so Shopify's retry is processed", async () => {
    await createOrder(9294);
    const id = crypto.randomUUID();
    fake.handlers.set("ReturnGet", () => ({ status: 400 }));
    expect((await webhook("returns/request", returnPayload(9294), { id })).status).toBe(500);
    expect(await db().webhookDelivery.count({ where: { id } })).toBe(0);
    fake.on("ReturnGet", storeReturn(9294));
    expect((await webhook("returns/request", returnPayload(9294), { id })).status).toBe(200);
    expect((await returnOf(9294)).request!.status).toBe("REQUESTED");
  });
});
