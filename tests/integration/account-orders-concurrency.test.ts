/**
 * Return requests raced for the same order item: the check ("no live request or return holds this
 * item") and the claim are one step under a lock on the order row, so of two (or more) concurrent
 * requests exactly one succeeds and the others get the usual 409; the store is asked once. A store
 * refusal releases the claim.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { CommerceError } from "../../app/providers/commerce/port";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let ann: { id: string; token: string };

const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;

async function createOrder(n: number, userId: string, items: number) {
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
          status: "delivered" as const,
        })),
      },
    },
  });
}

const initiate = (n: number, ids: string[]) =>
  app.api("POST", `/users/orders/${n}/initiate-return`, { token: ann.token, body: { order_item_ids: ids, reason: "SIZE_TOO_SMALL" } });

beforeAll(async () => {
  app = await createTestApp();
  ann = await app.createUser({ email: "ann-race@example.test" });
  await createOrder(9501, ann.id, 2);
  await createOrder(9502, ann.id, 1);
  await createOrder(9503, ann.id, 1);
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
