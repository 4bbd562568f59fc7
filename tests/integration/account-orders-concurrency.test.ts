/**
 * Return requests raced for the same order item: the check ("no live request or return holds this
 * item") and the claim are one step under a lock on the order row, so of two (or more) concurrent
 * requests exactly one succeeds and the others get the usual 409; the store is asked once. A store
 * refusal releases the claim.
 *
 * Cancels raced with return requests (and with each other) take the same lock: a cancel with the
 * store holds a claim on the order that refuses a return request arriving meanwhile, a return
 * request under way refuses the cancel, and the end state is never "cancelled with a live return".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { CommerceError } from "../../app/providers/commerce/port";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let ann: { id: string; token: string };

const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;

async function createOrder(n: number, userId: string, items: number, status: "delivered" | "unfulfilled" = "delivered") {
  await app.database.db.order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      user_id: userId,
      status: "open",
      financial_status: "PAID",
      fulfillment_status: "FULFILLED",
      subtotal_price: new Prisma.Decimal(100),
      total_price: new Prisma.Decimal(100),
      items: {
        create: Array.from({ length: items }, (_, i) => ({
          id: lid(n, i),
          product_id: "gid://shopify/Product/501",
          variant_id: "gid://shopify/ProductVariant/50100",
          title: "Oxford Shirt",
          variant_title: "Black / S",
          quantity: 2,
          price: new Prisma.Decimal(50),
          status,
        })),
      },
    },
  });
}

const initiate = (n: number, ids: string[]) =>
  app.api("POST", `/users/orders/${n}/initiate-return`, { token: ann.token, body: { order_item_ids: ids, reason: "SIZE_TOO_SMALL" } });
const cancel = (n: number) => app.api("POST", `/users/orders/${n}/cancel`, { token: ann.token, body: { reason: "CHANGED_MIND" } });

/** A store call that waits until the test lets it go (`called` resolves when it starts). */
function gate() {
  let release!: () => void;
  let started!: () => void;
  const open = new Promise<void>((r) => (release = r));
  const called = new Promise<void>((r) => (started = r));
  return { open, called, release, started };
}

beforeAll(async () => {
  app = await createTestApp();
  ann = await app.createUser({ email: "ann-race@example.test" });
  await createOrder(9501, ann.id, 2);
  await createOrder(9502, ann.id, 1);
  await createOrder(9503, ann.id, 1);
  await createOrder(9511, ann.id, 2, "unfulfilled");
  await createOrder(9512, ann.id, 1);
  await createOrder(9513, ann.id, 2, "unfulfilled");
  await createOrder(9514, ann.id, 1, "unfulfilled");
  await createOrder(9515, ann.id, 1, "unfulfilled");
}, 120_000);
afterAll(() => app?.close());

describe("concurrent return requests", () => {
  it("two requests for the same item at once: exactly one succeeds, the other gets the clear 409; one return in the store", async () => {
    const db = app.database.db;
    const requestReturn = app.ctx.commerce.requestReturn.bind(app.ctx.commerce);
    let storeCalls = 0;
    app.ctx.commerce.requestReturn = async (...args) => {
      storeCalls++;
      // The store takes its time (as Shopify does), widening the window between check and insert.
      await new Promise((r) => setTimeout(r, 50));
      return requestReturn(...args);
    };
    try {
      const results = await Promise.all([initiate(9501, [lid(9501, 0)]), initiate(9501, [lid(9501, 0), lid(9501, 1)])]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      const refused = results.find((r) => r.status === 409)!;
      expect(refused.body.error.message).toMatch(/A return has already been requested for this item/);
      expect(storeCalls).toBe(1);
      expect(await db.returnRequest.count({ where: { order_id: oid(9501) } })).toBe(1);
      expect(await db.return.count({ where: { order_id: oid(9501) } })).toBe(1);
      const lines = await db.returnLineItem.findMany({ where: { return: { order_id: oid(9501) } } });
      expect(lines.filter((l) => l.order_item_id === lid(9501, 0)).map((l) => l.quantity)).toEqual([2]);
      const rr = await db.returnRequest.findFirstOrThrow({ where: { order_id: oid(9501) } });
      expect(rr.return_id).not.toBeNull();

      // Five at once on another order: still exactly one.
      const five = await Promise.all(Array.from({ length: 5 }, () => initiate(9502, [lid(9502, 0)])));
      expect(five.filter((r) => r.status === 201)).toHaveLength(1);
      expect(five.filter((r) => r.status === 409)).toHaveLength(4);
      expect(await db.returnRequest.count({ where: { order_id: oid(9502) } })).toBe(1);
      expect(await db.return.count({ where: { order_id: oid(9502) } })).toBe(1);
    } finally {
      app.ctx.commerce.requestReturn = requestReturn;
    }
  });

  it("a store refusal releases the item: nothing is left behind and a later request succeeds", async () => {
    const db = app.database.db;
    const requestReturn = app.ctx.commerce.requestReturn.bind(app.ctx.commerce);
    app.ctx.commerce.requestReturn = async () => {
      throw new CommerceError("Return window closed", [{ field: ["returnLineItems"], message: "Return window closed" }], 409);
    };
    try {
      const refused = await initiate(9503, [lid(9503, 0)]);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await db.returnRequest.count({ where: { order_id: oid(9503) } })).toBe(0);
    } finally {
      app.ctx.commerce.requestReturn = requestReturn;
    }
    const ok = await initiate(9503, [lid(9503, 0)]);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ status: "REQUESTED", return_status: "REQUESTED" });
  });
});

describe("a cancel racing a return request on the same order", () => {
  it("cancel first: while the store cancels, a return request (for an item just sent) is refused; the order ends cancelled with no return", async () => {
    const db = app.database.db;
    const original = app.ctx.commerce.cancelOrder;
    const g = gate();
    let storeCalls = 0;
    // Shopify-like: the store accepts and the read model changes later (webhook), not in our tables.
    app.ctx.commerce.cancelOrder = async () => {
      storeCalls++;
      g.started();
      await g.open;
    };
    try {
      const cancelling = cancel(9511);
      await g.called;
      // A fulfilment lands meanwhile (webhook), which makes the item returnable by the rules alone.
      await db.orderItem.update({ where: { id: lid(9511, 0) }, data: { status: "delivered" } });
      const during = await initiate(9511, [lid(9511, 0)]);
      expect(during.status).toBe(409);
      expect(during.body.error.message).toMatch(/This order is being cancelled/);
      const detail = await app.api("GET", `/users/orders/9511`, { token: ann.token });
      expect(detail.body).toMatchObject({ can_cancel: false, cancel_block_reason: "This order is being cancelled", can_return: false });
      g.release();
      const done = await cancelling;
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: "cancelled", can_cancel: false, can_return: false });
      expect(storeCalls).toBe(1);
    } finally {
      app.ctx.commerce.cancelOrder = original;
    }
    const order = await db.order.findUniqueOrThrow({ where: { id: oid(9511) } });
    expect(order).toMatchObject({ status: "cancelled", cancel_requested_at: null });
    expect(await db.returnRequest.count({ where: { order_id: oid(9511) } })).toBe(0);
    expect(await db.return.count({ where: { order_id: oid(9511) } })).toBe(0);
  });

  it("return first: while the store records the return, a cancel is refused; the order stays open with its return", async () => {
    const db = app.database.db;
    const original = app.ctx.commerce.requestReturn;
    const g = gate();
    app.ctx.commerce.requestReturn = async (...args) => {
      g.started();
      await g.open;
      return original.apply(app.ctx.commerce, args);
    };
    try {
      const returning = initiate(9512, [lid(9512, 0)]);
      await g.called;
      const during = await cancel(9512);
      expect(during.status).toBe(409);
      expect(during.body.error.message).toBe("A return is under way for this order, so it can no longer be cancelled");
      g.release();
      expect((await returning).status).toBe(201);
    } finally {
      app.ctx.commerce.requestReturn = original;
    }
    const order = await db.order.findUniqueOrThrow({ where: { id: oid(9512) } });
    expect(order).toMatchObject({ status: "open", cancelled_at: null, cancel_requested_at: null });
    expect(await db.returnRequest.count({ where: { order_id: oid(9512), status: "REQUESTED" } })).toBe(1);
  });

  it("two cancels and a return request at the same instant: one cancel wins, the store is asked once, nothing else changes", async () => {
    const db = app.database.db;
    const original = app.ctx.commerce.cancelOrder;
    let storeCalls = 0;
    app.ctx.commerce.cancelOrder = async (...args) => {
      storeCalls++;
      await new Promise((r) => setTimeout(r, 50));
      return original.apply(app.ctx.commerce, args);
    };
    try {
      const [a, b, r] = await Promise.all([cancel(9513), cancel(9513), initiate(9513, [lid(9513, 0)])]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const refused = [a, b].find((x) => x.status === 409)!;
      expect(refused.body.error.message).toMatch(/This order is being cancelled|This order has already been cancelled/);
      expect(r.status).toBe(409);
      expect(storeCalls).toBe(1);
    } finally {
      app.ctx.commerce.cancelOrder = original;
    }
    expect(await db.order.findUniqueOrThrow({ where: { id: oid(9513) } })).toMatchObject({ status: "cancelled", cancel_requested_at: null });
    expect(await db.returnRequest.count({ where: { order_id: oid(9513) } })).toBe(0);
  });

  it("a store refusal releases the cancel's claim; a claim left by a crashed process expires", async () => {
    const db = app.database.db;
    const original = app.ctx.commerce.cancelOrder;
    app.ctx.commerce.cancelOrder = async () => {
      throw new CommerceError("Order is being fulfilled", [{ field: ["orderId"], message: "Order is being fulfilled" }], 409);
    };
    try {
      const refused = await cancel(9514);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe("Order is being fulfilled");
    } finally {
      app.ctx.commerce.cancelOrder = original;
    }
    expect(await db.order.findUniqueOrThrow({ where: { id: oid(9514) } })).toMatchObject({ status: "open", cancel_requested_at: null });
    expect((await cancel(9514)).status).toBe(200);

    // A fresh claim blocks; one older than the claim's lifetime (its process died) does not.
    await db.order.update({ where: { id: oid(9515) }, data: { cancel_requested_at: new Date() } });
    const blocked = await cancel(9515);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toBe("This order is being cancelled");
    await db.order.update({ where: { id: oid(9515) }, data: { cancel_requested_at: new Date(Date.now() - 10 * 60_000) } });
    const ok = await cancel(9515);
    expect(ok.status).toBe(200);
    expect(await db.order.findUniqueOrThrow({ where: { id: oid(9515) } })).toMatchObject({ status: "cancelled", cancel_requested_at: null });
  });
});
