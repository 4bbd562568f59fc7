/**
 * GET /api/orders/admin/analytics: totals and daily series on known orders (a cancelled order, an
 * item cancelled on its own, items returned through a refunded return, a return that was cancelled,
 * a declined return request, an item marked returned), UTC day boundaries, days without orders as
 * zeros, top products and vendors, the default range, 400 for bad ranges, 401/403 for callers
 * without `orders.manage`; days in the store's time zone (STORE_TIMEZONE: the 23:30 UTC order is
 * the next day in Tokyo, the same day in New York; New York's 25-hour day) and the previous period
 * of `compare=previous`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus, type ReturnRequestStatus, type ReturnStatus } from "@prisma/client";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let manager: { token: string };
let otherAdmin: { token: string };
let shopper: { token: string };
const V1 = "vendor-analytics-1";
const V2 = "vendor-analytics-2";
const P1 = "gid://shopify/Product/7001";
const P2 = "gid://shopify/Product/7002";
const P3 = "gid://shopify/Product/7003";
const TITLES: Record<string, string> = { [P1]: "Alpha Coat", [P2]: "Beta Dress", [P3]: "Gamma Scarf" };
const VENDOR_OF: Record<string, string | null> = { [P1]: V1, [P2]: V2, [P3]: null };

let seq = 0;
async function order(o: {
  at: string;
  status?: OrderStatus;
  total: string;
  items: { product: string; qty: number; price: string; status: OrderItemStatus }[];
  returns?: { item: number; qty: number; status: ReturnStatus; refund?: string; request?: ReturnRequestStatus }[];
}) {
  const db = app.database.db;
  const n = ++seq;
  const id = `gid://shopify/Order/${880_000 + n}`;
  const created = new Date(o.at);
  await db.order.create({
    data: {
      id,
      name: `#A${n}`,
      status: o.status ?? "open",
      total_price: new Prisma.Decimal(o.total),
      cancelled_at: o.status === "cancelled" ? created : null,
      created_at: created,
      items: {
        create: o.items.map((it, i) => ({
          id: `gid://shopify/LineItem/${880_000 + n}${i}`,
          product_id: it.product,
          vendor_id: VENDOR_OF[it.product],
          title: TITLES[it.product],
          quantity: it.qty,
          price: new Prisma.Decimal(it.price),
          status: it.status,
          created_at: created,
        })),
      },
    },
  });
  for (const [k, r] of (o.returns ?? []).entries()) {
    const returnId = `ret-${n}-${k}`;
    await db.return.create({
      data: {
        id: returnId,
        order_id: id,
        status: r.status,
        refund_amount: r.refund ? new Prisma.Decimal(r.refund) : null,
        refunded_at: r.status === "REFUNDED" ? created : null,
        line_items: { create: [{ order_item_id: `gid://shopify/LineItem/${880_000 + n}${r.item}`, quantity: r.qty }] },
      },
    });
    if (r.request) await db.returnRequest.create({ data: { order_id: id, status: r.request, return_id: returnId, order_item_ids: [`gid://shopify/LineItem/${880_000 + n}${r.item}`] } });
  }
}

const get = (token: string | null, query: Record<string, string> = {}) => app.api("GET", "/orders/admin/analytics", { token, query });

/** Runs `work` with the app configured for the store time zone `zone` (STORE_TIMEZONE). */
async function inZone<T>(zone: string, work: () => Promise<T>): Promise<T> {
  const before = app.ctx.config.STORE_TIMEZONE;
  app.ctx.config.STORE_TIMEZONE = zone;
  try {
    return await work();
  } finally {
    app.ctx.config.STORE_TIMEZONE = before;
  }
}
type Day = { date: string; orders: number; cancelledOrders: number };
const perDay = (body: { daily: Day[] }) => body.daily.map((d) => [d.date, d.orders, d.cancelledOrders]);

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await db.vendor.create({ data: { id: V1, name: "Northwind", handle: "northwind-analytics" } });
  await db.vendor.create({ data: { id: V2, name: "Southwind", handle: "southwind-analytics" } });
  manager = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["returns.manage", "products.manage"] });
  shopper = await app.createUser();

  // Outside the range, one second either side of it.
  await order({ at: "2026-10-04T23:59:59Z", total: "999.00", items: [{ product: P1, qty: 5, price: "199.80", status: "delivered" }] });
  await order({ at: "2026-10-09T00:00:00Z", total: "999.00", items: [{ product: P1, qty: 5, price: "199.80", status: "unfulfilled" }] });
  // 5 October: A (P1 ×2 marked returned, P2 in a declined request) and B cancelled, late in the UTC day.
  await order({
    at: "2026-10-05T10:00:00Z",
    total: "100.00",
    items: [
      { product: P1, qty: 2, price: "30.00", status: "returned" },
      { product: P2, qty: 1, price: "30.00", status: "delivered" },
    ],
    returns: [{ item: 1, qty: 1, status: "REQUESTED", request: "DECLINED" }],
  });
  await order({ at: "2026-10-05T23:30:00Z", status: "cancelled", total: "50.00", items: [{ product: P1, qty: 1, price: "50.00", status: "cancelled" }] });
  // 7 October: C (P2 refunded through a return, P3's return cancelled) and D (its P1 item cancelled alone).
  await order({
    at: "2026-10-07T00:10:00Z",
    status: "closed",
    total: "80.00",
    items: [
      { product: P2, qty: 1, price: "40.00", status: "delivered" },
      { product: P3, qty: 1, price: "40.00", status: "delivered" },
    ],
    returns: [
      { item: 0, qty: 1, status: "REFUNDED", refund: "40.00", request: "CLOSED" },
      { item: 1, qty: 1, status: "CANCELED" },
    ],
  });
  await order({
    at: "2026-10-07T18:00:00Z",
    total: "20.00",
    items: [
      { product: P1, qty: 1, price: "20.00", status: "cancelled" },
      { product: P3, qty: 1, price: "20.00", status: "unfulfilled" },
    ],
  });
});
afterAll(async () => {
  await app?.close();
});

const zeroDay = { orders: 0, cancelledOrders: 0, revenue: "0.00", averageOrderValue: "0.00", units: 0, returnedUnits: 0, refunded: "0.00", returnRate: 0, cancelRate: 0 };

describe("GET /orders/admin/analytics", () => {
  it("adds up the range: cancelled orders out of revenue, returned units over sold units, every day present", async () => {
    const res = await get(manager.token, { from: "2026-10-05", to: "2026-10-08" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: "2026-10-05", to: "2026-10-08", timeZone: "UTC", currencyCode: "USD" });
    expect(res.body.totals).toEqual({
      orders: 4,
      cancelledOrders: 1,
      revenue: "200.00",
      averageOrderValue: "66.67",
      units: 6,
      returnedUnits: 3,
      refunded: "40.00",
      returnRate: 0.5,
      cancelRate: 0.25,
    });
    expect(res.body.daily).toEqual([
      { date: "2026-10-05", orders: 2, cancelledOrders: 1, revenue: "100.00", averageOrderValue: "100.00", units: 3, returnedUnits: 2, refunded: "0.00", returnRate: 0.6667, cancelRate: 0.5 },
      { date: "2026-10-06", ...zeroDay },
      { date: "2026-10-07", orders: 2, cancelledOrders: 0, revenue: "100.00", averageOrderValue: "50.00", units: 3, returnedUnits: 1, refunded: "40.00", returnRate: 0.3333, cancelRate: 0 },
      { date: "2026-10-08", ...zeroDay },
    ]);
  });

  it("ranks products and vendors by item revenue, then units", async () => {
    const res = await get(manager.token, { from: "2026-10-05", to: "2026-10-08" });
    expect(res.body.topProducts).toEqual([
      { productId: P2, title: "Beta Dress", vendorId: V2, vendorName: "Southwind", units: 2, revenue: "70.00" },
      { productId: P1, title: "Alpha Coat", vendorId: V1, vendorName: "Northwind", units: 2, revenue: "60.00" },
      { productId: P3, title: "Gamma Scarf", vendorId: null, vendorName: null, units: 2, revenue: "60.00" },
    ]);
    expect(res.body.topVendors).toEqual([
      { vendorId: V2, name: "Southwind", units: 2, revenue: "70.00" },
      { vendorId: V1, name: "Northwind", units: 2, revenue: "60.00" },
    ]);
  });

  it("keeps the first 10 products and vendors", async () => {
    const db = app.database.db;
    for (let k = 0; k < 12; k++) {
      const vendor = `vendor-top-${k}`;
      await db.vendor.create({ data: { id: vendor, name: `Top ${String(k).padStart(2, "0")}`, handle: `top-${k}` } });
      await db.order.create({
        data: {
          id: `gid://shopify/Order/89${k}`,
          name: `#T${k}`,
          total_price: new Prisma.Decimal(10 + k),
          created_at: new Date("2025-06-01T12:00:00Z"),
          items: { create: [{ id: `gid://shopify/LineItem/89${k}`, product_id: `gid://shopify/Product/89${k}`, vendor_id: vendor, title: `Top product ${k}`, quantity: 1, price: new Prisma.Decimal(10 + k) }] },
        },
      });
    }
    const res = await get(manager.token, { from: "2025-06-01", to: "2025-06-01" });
    expect(res.body.totals).toMatchObject({ orders: 12, units: 12, revenue: "186.00" });
    expect(res.body.topProducts.map((p: { title: string }) => p.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Top product ${11 - i}`));
    expect(res.body.topVendors.map((v: { name: string }) => v.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Top ${String(11 - i).padStart(2, "0")}`));
  });

  it("a single day counts up to the last second of that UTC day", async () => {
    const res = await get(manager.token, { from: "2026-10-04", to: "2026-10-04" });
    expect(res.status).toBe(200);
    expect(res.body.daily).toHaveLength(1);
    expect(res.body.totals).toMatchObject({ orders: 1, revenue: "999.00", units: 5, returnedUnits: 0 });
  });

  it("a range without orders answers zeros for every day and empty tops", async () => {
    const res = await get(manager.token, { from: "2025-01-01", to: "2025-03-01" });
    expect(res.status).toBe(200);
    expect(res.body.daily).toHaveLength(60);
    for (const d of res.body.daily) expect(d).toEqual({ date: d.date, ...zeroDay });
    expect(res.body.daily[0].date).toBe("2025-01-01");
    expect(res.body.daily[59].date).toBe("2025-03-01");
    expect(res.body.totals).toEqual(zeroDay);
    expect(res.body.topProducts).toEqual([]);
    expect(res.body.topVendors).toEqual([]);
  });

  it("defaults to the last 30 days up to today (UTC); only `to` gives the 30 days before it", async () => {
    const res = await get(manager.token);
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.to).toBe(today);
    expect(res.body.daily).toHaveLength(30);
    expect(res.body.daily[29].date).toBe(today);
    const only = await get(manager.token, { to: "2026-10-08" });
    expect(only.body).toMatchObject({ from: "2026-09-09", to: "2026-10-08" });
    expect(only.body.totals.orders).toBe(5);
  });

  it("accepts 366 days", async () => {
    const res = await get(manager.token, { from: "2026-01-01", to: "2027-01-01" });
    expect(res.status).toBe(200);
    expect(res.body.daily).toHaveLength(366);
    expect(res.body.totals.orders).toBe(6);
  });

  it.each([
    [{ from: "2026-10-08", to: "2026-10-05" }, /after/],
    [{ from: "2025-01-01", to: "2026-01-02" }, /366/],
    [{ from: "2026-02-30", to: "2026-03-01" }, /calendar date/],
    [{ from: "yesterday" }, /YYYY-MM-DD/],
    [{ from: "2099-01-01" }, /after/], // `to` defaults to today: the service refuses it
    [{ from: "2020-01-01" }, /366/],
  ])("answers 400 for a bad range %j", async (query, message) => {
    const res = await get(manager.token, query);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(message);
  });

  it("is refused to an admin without orders.manage (403), a shopper (403) and an anonymous caller (401)", async () => {
    expect((await get(otherAdmin.token, { from: "2026-10-05", to: "2026-10-08" })).status).toBe(403);
    expect((await get(shopper.token, { from: "2026-10-05", to: "2026-10-08" })).status).toBe(403);
    expect((await get(null, { from: "2026-10-05", to: "2026-10-08" })).status).toBe(401);
  });

  it("counts days in the store's time zone: the order of 23:30 UTC on 5 October is the 6th in Tokyo and the 5th in New York", async () => {
    const q = { from: "2026-10-05", to: "2026-10-08" };
    // Tokyo (+9): 4 Oct 23:59:59 UTC is the 5th there, 9 Oct 00:00 UTC the 9th (outside), 7 Oct 18:00 UTC the 8th.
    const tokyo = await inZone("Asia/Tokyo", () => get(manager.token, q));
    expect(tokyo.status).toBe(200);
    expect(tokyo.body).toMatchObject({ from: "2026-10-05", to: "2026-10-08", timeZone: "Asia/Tokyo" });
    expect(perDay(tokyo.body)).toEqual([
      ["2026-10-05", 2, 0],
      ["2026-10-06", 1, 1],
      ["2026-10-07", 1, 0],
      ["2026-10-08", 1, 0],
    ]);
    expect(tokyo.body.totals).toMatchObject({ orders: 5, cancelledOrders: 1, revenue: "1199.00", units: 11 });
    // New York (−4): 4 Oct 23:59:59 UTC is still the 4th (outside), 9 Oct 00:00 UTC the 8th, 7 Oct 00:10 UTC the 6th.
    const newYork = await inZone("America/New_York", () => get(manager.token, q));
    expect(newYork.body.timeZone).toBe("America/New_York");
    expect(perDay(newYork.body)).toEqual([
      ["2026-10-05", 2, 1],
      ["2026-10-06", 1, 0],
      ["2026-10-07", 1, 0],
      ["2026-10-08", 1, 0],
    ]);
    expect(newYork.body.totals).toMatchObject({ orders: 5, cancelledOrders: 1, revenue: "1199.00" });
    // The default range ends today in the zone.
    const today = await inZone("Asia/Tokyo", () => get(manager.token));
    expect(today.body.to).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(new Date()));
  });

  it("New York's fall-back day (2 November 2025) lasts 25 hours: 04:00 UTC on the 2nd to 05:00 UTC on the 3rd", async () => {
    for (const at of ["2025-11-02T03:59:59Z", "2025-11-02T04:00:00Z", "2025-11-03T04:59:59Z", "2025-11-03T05:00:00Z"]) {
      await order({ at, total: "10.00", items: [{ product: P3, qty: 1, price: "10.00", status: "unfulfilled" }] });
    }
    const res = await inZone("America/New_York", () => get(manager.token, { from: "2025-11-01", to: "2025-11-03" }));
    expect(perDay(res.body)).toEqual([
      ["2025-11-01", 1, 0],
      ["2025-11-02", 2, 0],
      ["2025-11-03", 1, 0],
    ]);
    const utc = await get(manager.token, { from: "2025-11-01", to: "2025-11-03" });
    expect(perDay(utc.body)).toEqual([
      ["2025-11-01", 0, 0],
      ["2025-11-02", 2, 0],
      ["2025-11-03", 2, 0],
    ]);
  });

  it("compare=previous adds the period of the same length just before; without it compare is null", async () => {
    const res = await get(manager.token, { from: "2026-10-09", to: "2026-10-12", compare: "previous" });
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({ orders: 1, revenue: "999.00" });
    expect(res.body.compare).toMatchObject({ from: "2026-10-05", to: "2026-10-08", totals: { orders: 4, cancelledOrders: 1, revenue: "200.00", units: 6, returnRate: 0.5 } });
    expect(res.body.compare.daily.map((d: Day) => d.date)).toEqual(["2026-10-05", "2026-10-06", "2026-10-07", "2026-10-08"]);
    expect((await get(manager.token, { from: "2026-10-09", to: "2026-10-12" })).body.compare).toBeNull();
    const bad = await get(manager.token, { from: "2026-10-09", to: "2026-10-12", compare: "next" });
    expect(bad.status).toBe(400);
  });
});
