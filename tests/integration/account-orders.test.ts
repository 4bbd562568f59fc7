/**
 * The shopper's orders and returns: GET /users/orders (10 a page, newest first, only the caller's:
 * by user id or, for a verified email, by email), GET /users/orders/{id} (items, statuses,
 * tracking), POST …/cancel, POST …/initiate-return, GET /users/returns (timelines). Ownership:
 * another shopper gets 404 and nothing changes. The local commerce adapter runs the store's side;
 * a last section runs the same calls through the Shopify adapter against the local Shopify-like
 * server (documents validated against the Admin schema).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { verifyEmailOf } from "../helpers/email-verification";
import { startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { createProduct, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let ann: { id: string; token: string; email: string | null };
let ben: { id: string; token: string; email: string | null };
let lea: { id: string; token: string; email: string | null };
let guest: { id: string; token: string };

const NOW = Date.now();
const DAY = 86_400_000;
const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const enc = encodeURIComponent;

interface ItemFixture {
  status: OrderItemStatus;
  product?: number;
  variant?: number;
  qty?: number;
  tracking?: { number: string; url: string | null; provider: string };
}

async function createOrder(o: { n: number; userId?: string | null; email?: string | null; status?: OrderStatus; daysAgo: number; items: ItemFixture[] }) {
  const db = app.database.db;
  const created = new Date(NOW - o.daysAgo * DAY);
  await db.order.create({
    data: {
      id: oid(o.n),
      name: `#${o.n}`,
      user_id: o.userId ?? null,
      email: o.email ?? null,
      status: o.status ?? "open",
      financial_status: "PAID",
      fulfillment_status: o.items.every((i) => i.status === "unfulfilled") ? "UNFULFILLED" : "FULFILLED",
      subtotal_price: new Prisma.Decimal(100),
      total_shipping: new Prisma.Decimal(8),
      total_tax: new Prisma.Decimal(8.25),
      total_price: new Prisma.Decimal(116.25),
      shipping_address: { first_name: "Ann", last_name: "Lee", address1: "1 Main St", city: "Springfield", zip: "12345", country: "US" },
      created_at: created,
      items: {
        create: o.items.map((it, i) => {
          const product = it.product ?? 501;
          return {
            id: lid(o.n, i),
            product_id: pgid(product),
            variant_id: vgid(product, it.variant ?? 0),
            title: product === 501 ? "Oxford Shirt" : "Linen Trousers",
            variant_title: "Black / S",
            quantity: it.qty ?? 1,
            price: new Prisma.Decimal(50),
            status: it.status,
            tracking_number: it.tracking?.number ?? null,
            tracking_url: it.tracking?.url ?? null,
            provider: it.tracking?.provider ?? null,
            created_at: created,
          };
        }),
      },
    },
  });
}

const ups = { number: "1Z999AA10123456784", url: "https://www.ups.com/track?tracknum=1Z999AA10123456784", provider: "UPS" };

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await createProduct(db, { n: 501, title: "Oxford Shirt", inventory: 3 });
  await createProduct(db, { n: 502, title: "Linen Trousers", inventory: 2 });
  ann = await app.createUser({ email: "ann@example.test" });
  // Ann proved her address (the emailed link), so orders placed with it are hers.
  await verifyEmailOf(app, ann);
  ben = await app.createUser({ email: "ben@example.test" });
  lea = await app.createUser({ authProvider: "lead", email: "lea@example.test" });
  guest = await app.createUser({ authProvider: "guest" });

  await createOrder({ n: 9001, userId: ann.id, daysAgo: 1, items: [{ status: "unfulfilled", qty: 2 }, { status: "unfulfilled", product: 502, variant: 1 }] });
  await createOrder({ n: 9002, userId: ann.id, status: "closed", daysAgo: 10, items: [{ status: "delivered", tracking: ups }, { status: "shipped", product: 502, tracking: ups }, { status: "unfulfilled", product: 502, variant: 1 }] });
  // Placed with Ann's email and linked to no one: hers (she verified the address).
  await createOrder({ n: 9003, email: "ann@example.test", status: "closed", daysAgo: 20, items: [{ status: "delivered" }, { status: "returned", product: 502 }] });
  await createOrder({ n: 9004, userId: ben.id, daysAgo: 2, items: [{ status: "unfulfilled" }] });
  await createOrder({ n: 9005, userId: ben.id, status: "closed", daysAgo: 12, items: [{ status: "delivered" }] });
  // Placed with the lead's email: a lead's email was never checked, so it is not theirs.
  await createOrder({ n: 9006, email: "lea@example.test", daysAgo: 3, items: [{ status: "delivered" }] });
  // Placed with Ben's email, but Ben never verified it: typing an address proves nothing, so not his.
  await createOrder({ n: 9009, email: "ben@example.test", daysAgo: 5, items: [{ status: "unfulfilled" }] });
  // Ann's email, but linked to Ben: Ben's.
  await createOrder({ n: 9007, userId: ben.id, email: "ann@example.test", daysAgo: 4, items: [{ status: "unfulfilled" }] });
  for (let i = 0; i < 11; i++) await createOrder({ n: 9100 + i, userId: ann.id, status: "closed", daysAgo: 30 + i, items: [{ status: "delivered" }] });
  await db.productPurchaseEvent.createMany({ data: [{ order_id: oid(9001), user_id: ann.id, product_id: pgid(501), variant_id: vgid(501, 0), quantity: 2, created_at: new Date(NOW - DAY) }] });
});
afterAll(() => app?.close());

describe("GET /users/orders", () => {
  it("answers the caller's orders, 10 first, newest first, then the rest by cursor", async () => {
    const first = await app.api("GET", "/users/orders", { token: ann.token });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(10);
    expect(first.body.items.slice(0, 3).map((o: { name: string }) => o.name)).toEqual(["#9001", "#9002", "#9003"]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await app.api("GET", "/users/orders", { token: ann.token, query: { cursor: first.body.nextCursor } });
    expect(second.status).toBe(200);
    expect(second.body.items).toHaveLength(4);
    expect(second.body.nextCursor).toBeNull();
    const names = [...first.body.items, ...second.body.items].map((o: { name: string }) => o.name);
    expect(new Set(names).size).toBe(14);
    expect(names).not.toContain("#9004");
    expect(names).not.toContain("#9007");
    const created = [...first.body.items, ...second.body.items].map((o: { created_at: string }) => Date.parse(o.created_at));
    expect([...created].sort((a, b) => b - a)).toEqual(created);

    const o = first.body.items[0];
    expect(o).toMatchObject({ id: oid(9001), status: "open", stage: "unfulfilled", can_cancel: true, item_count: 3, total: { amount: "116.25", currencyCode: "USD" } });
    expect(o.items_preview).toEqual([
      { title: "Oxford Shirt", image_url: null },
      { title: "Linen Trousers", image_url: null },
    ]);
    expect(first.body.items[1]).toMatchObject({ stage: "partially_fulfilled", can_cancel: false });
  });

  it("answers only their own orders to others, nothing to a guest, and refuses anonymous callers and bad cursors", async () => {
    const b = await app.api("GET", "/users/orders", { token: ben.token });
    expect(b.body.items.map((o: { name: string }) => o.name)).toEqual(["#9004", "#9007", "#9005"]);
    const l = await app.api("GET", "/users/orders", { token: lea.token });
    expect(l.body).toEqual({ items: [], nextCursor: null });
    const g = await app.api("GET", "/users/orders", { token: guest.token });
    expect(g.body).toEqual({ items: [], nextCursor: null });
    expect((await app.api("GET", "/users/orders")).status).toBe(401);
    const bad = await app.api("GET", "/users/orders", { token: ann.token, query: { cursor: "not-a-cursor" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/cursor/);
    expect((await app.api("GET", "/users/orders", { token: ann.token, query: { limit: 500 } })).status).toBe(400);
  });
});

describe("GET /users/orders/{id}", () => {
  it("answers items with statuses, tracking and what can be done, by GID or bare number", async () => {
    const res = await app.api("GET", `/users/orders/${enc(oid(9002))}`, { token: ann.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: oid(9002),
      name: "#9002",
      status: "closed",
      stage: "partially_fulfilled",
      can_cancel: false,
      cancel_block_reason: "This order is closed and can no longer be cancelled",
      can_return: true,
      subtotal: { amount: "100.00", currencyCode: "USD" },
      shipping_address: { name: "Ann Lee", city: "Springfield", country: "US" },
    });
    const [delivered, shipped, open] = res.body.items;
    expect(delivered).toMatchObject({ id: lid(9002, 0), status: "delivered", tracking: { tracking_number: ups.number, tracking_url: ups.url, provider: "UPS" }, returnable: true, return_block_reason: null, product_handle: "oxford-shirt-501", price: { amount: "50.00", currencyCode: "USD" } });
    expect(shipped).toMatchObject({ status: "shipped", returnable: true });
    expect(open).toMatchObject({ status: "unfulfilled", tracking: null, returnable: false, return_block_reason: "This item has not been sent yet" });

    const bare = await app.api("GET", "/users/orders/9002", { token: ann.token });
    expect(bare.status).toBe(200);
    expect(bare.body.id).toBe(oid(9002));
    const byEmail = await app.api("GET", "/users/orders/9003", { token: ann.token });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.items[1]).toMatchObject({ status: "returned", returnable: false, return_block_reason: "This item has already been returned" });
  });

  it("answers 404 for another shopper's order, an unverified email's match and an unknown id", async () => {
    for (const [token, n] of [
      [ben.token, 9001],
      [ben.token, 9009],
      [ben.token, 9003],
      [ann.token, 9004],
      [ann.token, 9007],
      [lea.token, 9006],
      [guest.token, 9001],
      [ann.token, 123456],
    ] as const) {
      const res = await app.api("GET", `/users/orders/${n}`, { token });
      expect(res.status, `${n}`).toBe(404);
      expect(res.body.error.message).toBe("Order not found");
    }
  });
});

describe("POST /users/orders/{id}/cancel", () => {
  it("refuses another shopper (404, nothing changes), a bad reason, and orders with sent items", async () => {
    const db = app.database.db;
    const other = await app.api("POST", `/users/orders/${enc(oid(9001))}/cancel`, { token: ben.token, body: { reason: "CHANGED_MIND" } });
    expect(other.status).toBe(404);
    expect((await db.order.findUniqueOrThrow({ where: { id: oid(9001) } })).status).toBe("open");

    const bad = await app.api("POST", `/users/orders/${enc(oid(9001))}/cancel`, { token: ann.token, body: { reason: "BORED" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toBeTruthy();

    const sent = await app.api("POST", "/users/orders/9002/cancel", { token: ann.token, body: { reason: "CHANGED_MIND" } });
    expect(sent.status).toBe(409);
    expect(sent.body.error.message).toBe("This order is closed and can no longer be cancelled");
    await createOrder({ n: 9008, userId: ann.id, daysAgo: 5, items: [{ status: "fulfilled", tracking: ups }, { status: "unfulfilled" }] });
    const partly = await app.api("POST", "/users/orders/9008/cancel", { token: ann.token, body: { reason: "CHANGED_MIND" } });
    expect(partly.status).toBe(409);
    expect(partly.body.error.message).toMatch(/already been sent/);
    expect((await db.order.findUniqueOrThrow({ where: { id: oid(9008) } })).status).toBe("open");
  });

  it("cancels an unsent order through the store: refunded, restocked, purchases taken off; a second time is 409", async () => {
    const db = app.database.db;
    const before = await db.productVariant.findUniqueOrThrow({ where: { id: vgid(501, 0) } });
    const res = await app.api("POST", `/users/orders/${enc(oid(9001))}/cancel`, { token: ann.token, body: { reason: "ORDERED_BY_MISTAKE", note: "Wrong size" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: oid(9001), status: "cancelled", stage: "cancelled", can_cancel: false, cancel_reason: "customer", can_return: false });
    expect(res.body.items.every((i: { status: string }) => i.status === "cancelled")).toBe(true);
    expect(res.body.cancelled_at).toEqual(expect.any(String));
    const row = await db.order.findUniqueOrThrow({ where: { id: oid(9001) } });
    expect(row.financial_status).toBe("REFUNDED");
    expect(row.note).toBe("Cancelled by the customer: I ordered by mistake — Wrong size");
    const after = await db.productVariant.findUniqueOrThrow({ where: { id: vgid(501, 0) } });
    expect(after.inventory_quantity).toBe(before.inventory_quantity + 2);
    expect(await db.productPurchaseEvent.count({ where: { order_id: oid(9001) } })).toBe(0);

    const again = await app.api("POST", `/users/orders/${enc(oid(9001))}/cancel`, { token: ann.token, body: { reason: "OTHER" } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This order has already been cancelled");
  });
});

describe("POST /users/orders/{id}/initiate-return and GET /users/returns", () => {
  it("refuses another shopper (404, nothing created), foreign items (422), unsent and returned items (409) and bad input (400)", async () => {
    const db = app.database.db;
    const path = `/users/orders/${enc(oid(9002))}/initiate-return`;
    const other = await app.api("POST", path, { token: ben.token, body: { order_item_ids: [lid(9002, 0)], reason: "SIZE_TOO_SMALL" } });
    expect(other.status).toBe(404);
    const foreign = await app.api("POST", path, { token: ann.token, body: { order_item_ids: [lid(9002, 0), lid(9005, 0)], reason: "SIZE_TOO_SMALL" } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.message).toBe(`Item ${lid(9005, 0)} is not part of this order`);
    const unsent = await app.api("POST", path, { token: ann.token, body: { order_item_ids: [lid(9002, 2)], reason: "SIZE_TOO_SMALL" } });
    expect(unsent.status).toBe(409);
    expect(unsent.body.error.message).toBe("Linen Trousers (Black / S): This item has not been sent yet");
    const returned = await app.api("POST", "/users/orders/9003/initiate-return", { token: ann.token, body: { order_item_ids: [lid(9003, 1)], reason: "DEFECTIVE" } });
    expect(returned.status).toBe(409);
    expect(returned.body.error.message).toMatch(/already been returned/);
    const cancelled = await app.api("POST", `/users/orders/${enc(oid(9001))}/initiate-return`, { token: ann.token, body: { order_item_ids: [lid(9001, 0)], reason: "DEFECTIVE" } });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.message).toMatch(/This order was cancelled/);
    expect((await app.api("POST", path, { token: ann.token, body: { order_item_ids: [lid(9002, 0)], reason: "TOO_UGLY" } })).status).toBe(400);
    expect((await app.api("POST", path, { token: ann.token, body: { order_item_ids: [], reason: "COLOR" } })).status).toBe(400);
    expect(await db.returnRequest.count()).toBe(0);
    expect(await db.return.count()).toBe(0);
  });

  it("creates the store's return and a REQUESTED return request for the chosen items; the same items again are 409", async () => {
    const db = app.database.db;
    const res = await app.api("POST", `/users/orders/${enc(oid(9002))}/initiate-return`, { token: ann.token, body: { order_item_ids: [lid(9002, 0), lid(9002, 1)], reason: "SIZE_TOO_SMALL", note: "Too tight" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "request", order: { id: oid(9002), name: "#9002" }, status: "REQUESTED", return_status: "REQUESTED", reason: "SIZE_TOO_SMALL", note: "Too tight", refund: null, tracking: null });
    expect(res.body.items.map((i: { order_item_id: string }) => i.order_item_id)).toEqual([lid(9002, 0), lid(9002, 1)]);
    expect(res.body.timeline.map((s: { key: string; state: string }) => `${s.key}:${s.state}`)).toEqual([
      "requested:current",
      "approved:upcoming",
      "label_sent:upcoming",
      "in_transit:upcoming",
      "received:upcoming",
      "refunded:upcoming",
    ]);
    const rr = await db.returnRequest.findUniqueOrThrow({ where: { id: res.body.id }, include: { return: { include: { line_items: true } } } });
    expect(rr).toMatchObject({ user_id: ann.id, order_id: oid(9002), status: "REQUESTED", reason: "SIZE_TOO_SMALL", order_item_ids: [lid(9002, 0), lid(9002, 1)] });
    expect(rr.return).toMatchObject({ status: "REQUESTED", user_id: ann.id, reason: "SIZE_TOO_SMALL" });
    expect(rr.return!.line_items.map((l) => [l.order_item_id, l.quantity, l.reason]).sort()).toEqual([
      [lid(9002, 0), 1, "SIZE_TOO_SMALL"],
      [lid(9002, 1), 1, "SIZE_TOO_SMALL"],
    ]);

    const again = await app.api("POST", `/users/orders/${enc(oid(9002))}/initiate-return`, { token: ann.token, body: { order_item_ids: [lid(9002, 1)], reason: "COLOR" } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/A return has already been requested for this item/);
    const detail = await app.api("GET", "/users/orders/9002", { token: ann.token });
    expect(detail.body.items[0]).toMatchObject({ returnable: false, return_request: { id: res.body.id, status: "REQUESTED", return_status: "REQUESTED" } });
    expect(detail.body.can_return).toBe(false);
    expect(await db.returnRequest.count()).toBe(1);
  });

  it("lists the caller's returns with timelines (requests and the store's own returns), newest first, by cursor; others see none", async () => {
    const db = app.database.db;
    // The store made a return for the email-linked order (no request), now refunded.
    const t0 = new Date(NOW - 15 * DAY);
    await db.return.create({
      data: {
        order_id: oid(9003),
        status: "REFUNDED",
        reason: "DEFECTIVE",
        tracking_number: "RET123",
        tracking_company: "UPS",
        refund_amount: new Prisma.Decimal(50),
        received_at: new Date(t0.getTime() + 3 * DAY),
        refunded_at: new Date(t0.getTime() + 4 * DAY),
        created_at: t0,
        line_items: { create: [{ order_item_id: lid(9003, 1), quantity: 1, reason: "DEFECTIVE", received: true }] },
      },
    });
    // Ben's return request: not Ann's.
    await db.returnRequest.create({ data: { order_id: oid(9005), user_id: ben.id, status: "OPEN", reason: "COLOR", order_item_ids: [lid(9005, 0)] } });

    const page1 = await app.api("GET", "/users/returns", { token: ann.token, query: { limit: 1 } });
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.items[0]).toMatchObject({ kind: "request", status: "REQUESTED", order: { name: "#9002" } });
    const page2 = await app.api("GET", "/users/returns", { token: ann.token, query: { limit: 1, cursor: page1.body.nextCursor } });
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.nextCursor).toBeNull();
    const store = page2.body.items[0];
    expect(store).toMatchObject({ kind: "return", status: null, return_status: "REFUNDED", reason: "DEFECTIVE", order: { name: "#9003" }, refund: { amount: "50.00", currencyCode: "USD" }, tracking: { tracking_number: "RET123", tracking_company: "UPS", label_url: null } });
    expect(store.items).toEqual([{ order_item_id: lid(9003, 1), title: "Linen Trousers", variant_title: "Black / S", image_url: null, quantity: 1 }]);
    expect(store.timeline.map((s: { key: string; state: string }) => `${s.key}:${s.state}`)).toEqual([
      "requested:done",
      "approved:done",
      "label_sent:done",
      "in_transit:done",
      "received:done",
      "refunded:current",
    ]);
    expect(Date.parse(store.timeline.at(-1).at)).toBe(t0.getTime() + 4 * DAY);

    const b = await app.api("GET", "/users/returns", { token: ben.token });
    expect(b.body.items.map((e: { order: { name: string } }) => e.order.name)).toEqual(["#9005"]);
    expect((await app.api("GET", "/users/returns", { token: guest.token })).body.items).toEqual([]);
    expect((await app.api("GET", "/users/returns")).status).toBe(401);
  });
});

describe("the store refusing, and the Shopify adapter", () => {
  it("answers the store's refusal as 422 and records nothing", async () => {
    const db = app.database.db;
    await createOrder({ n: 9010, userId: ann.id, status: "closed", daysAgo: 6, items: [{ status: "delivered" }] });
    const commerce = app.ctx.commerce;
    const original = commerce.requestReturn;
    commerce.requestReturn = async () => {
      throw new CommerceError("Return window has passed", [{ field: ["returnLineItems"], message: "Return window has passed" }], 422);
    };
    try {
      const res = await app.api("POST", "/users/orders/9010/initiate-return", { token: ann.token, body: { order_item_ids: [lid(9010, 0)], reason: "UNWANTED" } });
      expect(res.status).toBe(422);
      expect(res.body.error.message).toBe("The store refused: Return window has passed");
    } finally {
      commerce.requestReturn = original;
    }
    expect(await db.returnRequest.count({ where: { order_id: oid(9010) } })).toBe(0);
  });

  describe("through the Shopify adapter (local Shopify-like server)", () => {
    let fake: FakeShopify;
    let local: CommercePort;
    beforeAll(async () => {
      fake = await startFakeShopify();
      local = app.ctx.commerce;
      app.ctx.commerce = createShopifyCommerce({ shop: fake.shop, apiVersion: async () => "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => {} });
    });
    afterAll(async () => {
      app.ctx.commerce = local;
      await fake?.close();
    });

    it("cancels with orderCancel (CUSTOMER, refund, restock, the reason in the staff note) and shows it at once", async () => {
      await createOrder({ n: 9020, userId: ann.id, daysAgo: 1, items: [{ status: "unfulfilled" }] });
      fake.on("OrderCancel", { orderCancel: { job: { id: "gid://shopify/Job/1", done: false }, orderCancelUserErrors: [] } });
      const res = await app.api("POST", "/users/orders/9020/cancel", { token: ann.token, body: { reason: "FOUND_BETTER_PRICE" } });
      expect(res.status).toBe(200);
      expect(fake.calls("OrderCancel")[0].variables).toEqual({
        orderId: oid(9020),
        reason: "CUSTOMER",
        refundMethod: { originalPaymentMethodsRefund: true },
        restock: true,
        staffNote: "Cancelled by the customer: I found a better price",
        notifyCustomer: true,
      });
      expect(res.body).toMatchObject({ status: "cancelled", cancel_reason: "customer" });
      expect((await app.database.db.orderItem.findUniqueOrThrow({ where: { id: lid(9020, 0) } })).status).toBe("cancelled");

      await createOrder({ n: 9021, userId: ann.id, daysAgo: 1, items: [{ status: "unfulfilled" }] });
      fake.on("OrderCancel", { orderCancel: { job: null, orderCancelUserErrors: [{ field: ["orderId"], message: "Order cannot be cancelled", code: "INVALID" }] } });
      const refused = await app.api("POST", "/users/orders/9021/cancel", { token: ann.token, body: { reason: "OTHER" } });
      expect(refused.status).toBe(422);
      expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(9021) } })).status).toBe("open");
    });

    it("requests a return with returnRequest and keeps Shopify's return id on our return", async () => {
      const db = app.database.db;
      await createOrder({ n: 9022, userId: ann.id, status: "closed", daysAgo: 8, items: [{ status: "delivered", tracking: ups }] });
      fake.on("OrderFulfillmentLines", { order: { id: oid(9022), fulfillments: [{ id: "gid://shopify/Fulfillment/5", fulfillmentLineItems: { nodes: [{ id: "gid://shopify/FulfillmentLineItem/66", quantity: 1, lineItem: { id: lid(9022, 0) } }] } }] } });
      fake.on("ReturnRequest", { returnRequest: { return: { id: "gid://shopify/Return/88", status: "REQUESTED" }, userErrors: [] } });
      const res = await app.api("POST", "/users/orders/9022/initiate-return", { token: ann.token, body: { order_item_ids: [lid(9022, 0)], reason: "WRONG_ITEM", note: "Got a blue one" } });
      expect(res.status).toBe(201);
      expect(fake.calls("ReturnRequest")[0].variables.input).toEqual({
        orderId: oid(9022),
        returnLineItems: [{ fulfillmentLineItemId: "gid://shopify/FulfillmentLineItem/66", quantity: 1, returnReason: "WRONG_ITEM", customerNote: "Got a blue one" }],
      });
      const ret = await db.return.findUniqueOrThrow({ where: { shopify_return_id: "gid://shopify/Return/88" }, include: { line_items: true, request: true } });
      expect(ret).toMatchObject({ order_id: oid(9022), user_id: ann.id, status: "REQUESTED", reason: "WRONG_ITEM", reason_note: "Got a blue one" });
      expect(ret.line_items.map((l) => l.order_item_id)).toEqual([lid(9022, 0)]);
      expect(ret.request?.id).toBe(res.body.id);
    });
  });
});
