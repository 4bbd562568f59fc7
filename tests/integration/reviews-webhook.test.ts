/**
 * From the store's order webhook to the review-request email: a fulfilment whose shipment_status
 * is "delivered" moves its items to delivered in the read model; once every item is delivered the
 * webhook queues `reviews.request`, whose run emails a review link (outbox in local mode).
 * The webhook is HMAC-verified by `authenticate.webhook` (local mode: the secret generated once in DATA_DIR).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../app/config.server";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { REVIEWS_REQUEST_QUEUE } from "../../app/services/review-requests.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { callRouteAction, shopifyWebhook } from "../helpers/shopify-webhook";
import { createProduct, pgid } from "./products-fixtures";

type Route = { action: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let app: TestApp;
let orders: Route;

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  orders = (await import("../../app/routes/webhooks.orders")) as Route;
  await createProduct(app.database.db, { n: 8801, title: "Cord Trousers" });
  await createProduct(app.database.db, { n: 8802, title: "Merino Scarf" });
  await app.database.db.user.create({ data: { email: "buyer@example.com", first_name: "Ada", shopify_customer_id: "401", auth_provider: "shopify" } });
});
afterAll(() => app?.close());

/** shopify.server.ts verifies with getConfig()'s secret (generated in DATA_DIR when none is set). */
function webhook(topic: string, payload: object, secret = getConfig().SHOPIFY_API_SECRET) {
  return shopifyWebhook("http://localhost:3000/webhooks/orders", topic, payload, { secret });
}

const call = (request: Request) => callRouteAction(orders, request);

const order = {
  id: 7701,
  admin_graphql_api_id: "gid://shopify/Order/7701",
  name: "#7701",
  email: "buyer@example.com",
  created_at: "2026-03-01T10:00:00Z",
  financial_status: "paid",
  fulfillment_status: "fulfilled",
  currency: "USD",
  total_price: "120.00",
  customer: { id: 401, email: "buyer@example.com" },
  line_items: [
    { id: 71, product_id: 8801, variant_id: 880100, title: "Cord Trousers", quantity: 1, price: "80.00", fulfillment_status: "fulfilled" },
    { id: 72, product_id: 8802, variant_id: 880200, title: "Merino Scarf", quantity: 1, price: "40.00", fulfillment_status: "fulfilled" },
  ],
};
const fulfilment = (lineId: number, shipment_status: string | null) => ({ tracking_number: `TRK${lineId}`, tracking_company: "UPS", shipment_status, line_items: [{ id: lineId }] });
const requestJobs = () => app.database.db.job.count({ where: { queue: REVIEWS_REQUEST_QUEUE } });
const items = () => app.database.db.orderItem.findMany({ where: { order_id: "gid://shopify/Order/7701" }, orderBy: { id: "asc" } });

describe("order webhooks → review request", () => {
  it("refuses a webhook signed with the former public placeholder secret", async () => {
    expect((await call(webhook("orders/create", order, "local-mode-secret"))).status).toBe(401);
    expect(await app.database.db.order.count()).toBe(0);
  });

  it("moves items forward with the carrier's shipment status and never back", async () => {
    expect((await call(webhook("orders/create", { ...order, fulfillments: [fulfilment(71, "in_transit"), fulfilment(72, null)] }))).status).toBe(200);
    expect((await items()).map((i) => i.status)).toEqual(["shipped", "fulfilled"]);
    expect(await requestJobs()).toBe(0);
    // One delivered, one still fulfilled: not yet.
    expect((await call(webhook("orders/updated", { ...order, fulfillments: [fulfilment(71, "delivered"), fulfilment(72, "in_transit")] }))).status).toBe(200);
    expect((await items()).map((i) => i.status)).toEqual(["delivered", "shipped"]);
    expect(await requestJobs()).toBe(0);
    // An older event arriving late does not move an item back.
    expect((await call(webhook("orders/updated", { ...order, fulfillments: [fulfilment(71, "in_transit"), fulfilment(72, "in_transit")] }))).status).toBe(200);
    expect((await items()).map((i) => i.status)).toEqual(["delivered", "shipped"]);
  });

  it("queues reviews.request once every item is delivered, and the job emails the buyer a review link", async () => {
    expect((await call(webhook("orders/updated", { ...order, fulfillments: [fulfilment(71, "delivered"), fulfilment(72, "delivered")] }))).status).toBe(200);
    expect((await items()).map((i) => i.status)).toEqual(["delivered", "delivered"]);
    expect(await requestJobs()).toBe(1);
    await startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
    const email = await app.database.db.emailOutbox.findFirstOrThrow({ where: { kind: "review_request" } });
    expect(email).toMatchObject({ to: "buyer@example.com", status: "sent" });
    expect(email.text).toContain("Hello Ada,");
    expect(email.text).toContain("Cord Trousers");
    expect(email.text).toContain("Merino Scarf");
    const token = decodeURIComponent(/\/review\?token=(\S+)/.exec(email.text)![1]);
    const r = await app.api("GET", "/product-reviews/reviewable", { query: { token } });
    expect(r.status).toBe(200);
    expect(r.body.products.map((p: { product_id: string }) => p.product_id)).toEqual([pgid(8801), pgid(8802)]);
    expect(r.body.author_name).toBe("Ada");

    // Another delivery of the same state: no second request.
    expect((await call(webhook("orders/updated", { ...order, fulfillments: [fulfilment(71, "delivered"), fulfilment(72, "delivered")] }))).status).toBe(200);
    expect(await requestJobs()).toBe(1);
  });

  it("refuses a webhook with a bad signature", async () => {
    const req = webhook("orders/updated", order);
    req.headers.set("x-shopify-hmac-sha256", "bad");
    expect((await call(req)).status).toBe(401);
  });
});
