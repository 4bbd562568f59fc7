/**
 * The vendor portal's API (app/contract/vendors.ts): /vendors/me, its stores and products, the
 * product status change through the commerce port, payouts (JSON and CSV) and the admin mirrors.
 * Isolation: a second vendor tries the first one's product, payout and vendor ids and gets 404
 * (403 on the admin-only acts), a shopper gets 403, an admin without vendors.manage gets 403.
 * Payout figures are checked against numbers computed by hand below, in Asia/Tokyo months (an
 * order at 16:00 UTC on 30 September is 1 October there).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import { createTestApp, type TestApp } from "../helpers/app";
import { todayIn } from "../../app/lib/store-time-zone";

let app: TestApp;
let vendorA: { token: string };
let vendorB: { token: string };
let manager: { token: string };
let otherAdmin: { token: string };
let shopper: { token: string };
const A = "vendor-api-a";
const B = "vendor-api-b";
const PA1 = "gid://shopify/Product/9101";
const PA2 = "gid://shopify/Product/9102";
const PA3 = "gid://shopify/Product/9103";
const PB1 = "gid://shopify/Product/9201";
const VENDOR_OF: Record<string, string> = { [PA1]: A, [PA2]: A, [PA3]: A, [PB1]: B };
const ZONE = "Asia/Tokyo";

let seq = 0;
async function order(o: { at: Date | string; status?: OrderStatus; items: { product: string; qty: number; price: string; status?: OrderItemStatus; noVendor?: boolean }[] }) {
  const n = ++seq;
  const id = `gid://shopify/Order/${910_000 + n}`;
  const created = new Date(o.at);
  await app.database.db.order.create({
    data: {
      id,
      name: `#V${n}`,
      status: o.status ?? "open",
      total_price: new Prisma.Decimal(0),
      created_at: created,
      items: {
        create: o.items.map((it, i) => ({
          id: `gid://shopify/LineItem/${910_000 + n}${i}`,
          product_id: it.product,
          vendor_id: it.noVendor ? null : VENDOR_OF[it.product],
          title: it.product,
          quantity: it.qty,
          price: new Prisma.Decimal(it.price),
          status: it.status ?? "delivered",
          created_at: created,
        })),
      },
    },
  });
  return { id, line: (i: number) => `gid://shopify/LineItem/${910_000 + n}${i}` };
}

const asVendorA = (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | undefined> } = {}) => app.api(method, path, { ...opts, token: vendorA.token });

beforeAll(async () => {
  app = await createTestApp({ env: { STORE_TIMEZONE: ZONE } });
  const db = app.database.db;
  await db.vendor.create({ data: { id: A, name: "Alder & Co", handle: "alder-co", email: "alder@example.com", commission_rate: new Prisma.Decimal("10.00") } });
  await db.vendor.create({ data: { id: B, name: "Birch Studio", handle: "birch-studio", commission_rate: new Prisma.Decimal("20.00") } });
  await db.store.create({ data: { id: "store-a1", name: "Alder Main", handle: "alder-main", vendor_id: A, sort_order: 1 } });
  await db.store.create({ data: { id: "store-a0", name: "Alder Outlet", handle: "alder-outlet", vendor_id: A, sort_order: 0 } });
  await db.store.create({ data: { id: "store-b1", name: "Birch Main", handle: "birch-main", vendor_id: B } });
  const product = (id: string, title: string, handle: string, status: "active" | "draft" | "archived", store: string, updated: string) =>
    db.product.create({
      data: { id, title, handle, status, store_id: store, vendor_id: VENDOR_OF[id], priceMin: new Prisma.Decimal("10.00"), priceMax: new Prisma.Decimal("25.50"), totalInventory: 7, created_at: new Date(updated), updated_at: new Date(updated) },
    });
  await product(PA1, "Alpha Coat", "alpha-coat", "active", "store-a1", "2026-09-01T00:00:00Z");
  await product(PA2, "Beta Dress", "beta-dress", "draft", "store-a1", "2026-09-03T00:00:00Z");
  await product(PA3, "Gamma Scarf", "gamma-scarf", "archived", "store-a0", "2026-09-02T00:00:00Z");
  await product(PB1, "Birch Boot", "birch-boot", "active", "store-b1", "2026-09-04T00:00:00Z");
  await db.productCompanion.create({ data: { shopify_product_id: PA2, status: "draft" } });

  vendorA = await app.createUser({ role: "VENDOR", vendorId: A });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B });
  manager = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage", "returns.manage"] });
  shopper = await app.createUser();

  // September (Tokyo): O1 PA1 2 × 50.00 and PB1 1 × 80.00; O3 cancelled (left out); O4 with a
  // cancelled PA1 item (left out) and PA2 3 × 10.00. A: gross 130.00, 5 units.
  const o1 = await order({ at: "2026-09-10T03:00:00Z", items: [{ product: PA1, qty: 2, price: "50.00" }, { product: PB1, qty: 1, price: "80.00" }] });
  await order({ at: "2026-09-20T00:00:00Z", status: "cancelled", items: [{ product: PA1, qty: 1, price: "70.00", status: "cancelled" }] });
  await order({ at: "2026-09-21T00:00:00Z", items: [{ product: PA1, qty: 1, price: "30.00", status: "cancelled" }, { product: PA2, qty: 3, price: "10.00" }] });
  // 30 September 16:00 UTC = 1 October 01:00 in Tokyo: A's October gross 40.00.
  await order({ at: "2026-09-30T16:00:00Z", items: [{ product: PA2, qty: 1, price: "40.00", status: "unfulfilled" }] });
  // O1's return: PA1 × 1 (50.00) and PB1 × 1 (80.00) received on 4 October, 90.00 refunded on 5
  // October: A's share 90 × 50 / 130 = 34.615… → 34.62, B's 55.38.
  await db.return.create({
    data: {
      id: "ret-vendor-api-1",
      order_id: o1.id,
      status: "REFUNDED",
      refund_amount: new Prisma.Decimal("90.00"),
      received_at: new Date("2026-10-04T00:00:00Z"),
      refunded_at: new Date("2026-10-05T00:00:00Z"),
      line_items: { create: [{ order_item_id: o1.line(0), quantity: 1, received: true }, { order_item_id: o1.line(1), quantity: 1, received: true }] },
    },
  });
  // This month (still open): PA1 1 × 20.00 a second ago.
  await order({ at: new Date(Date.now() - 1000), items: [{ product: PA1, qty: 1, price: "20.00", status: "unfulfilled" }] });
});
afterAll(async () => {
  await app?.close();
});

describe("GET /vendors/me", () => {
  it("answers the caller's vendor with its counts", async () => {
    const r = await asVendorA("GET", "/vendors/me");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: A, name: "Alder & Co", handle: "alder-co", email: "alder@example.com", commission_rate: "10.00", storeCount: 2, productCount: 3, productCounts: { active: 1, draft: 1, archived: 1 } });
  });
  it("refuses shoppers, admins and vendor users without a vendor", async () => {
    expect((await app.api("GET", "/vendors/me", { token: shopper.token })).status).toBe(403);
    expect((await app.api("GET", "/vendors/me", { token: manager.token })).status).toBe(403);
    const unlinked = await app.createUser({ role: "VENDOR", vendorId: null });
    expect((await app.api("GET", "/vendors/me", { token: unlinked.token })).status).toBe(403);
    expect((await app.api("GET", "/vendors/me")).status).toBe(401);
  });
});

describe("GET /vendors/me/stores", () => {
  it("lists only the vendor's stores, by sort order", async () => {
    const r = await asVendorA("GET", "/vendors/me/stores");
    expect(r.status).toBe(200);
    expect(r.body.items.map((s: { id: string }) => s.id)).toEqual(["store-a0", "store-a1"]);
    expect(r.body.items[1]).toMatchObject({ name: "Alder Main", vendor_id: A, productCount: 1 });
    const b = await app.api("GET", "/vendors/me/stores", { token: vendorB.token });
    expect(b.body.items.map((s: { id: string }) => s.id)).toEqual(["store-b1"]);
  });
  it("refuses a shopper", async () => {
    expect((await app.api("GET", "/vendors/me/stores", { token: shopper.token })).status).toBe(403);
  });
});

describe("GET /vendors/me/products", () => {
  it("lists the vendor's products, last updated first, with counts per status", async () => {
    const r = await asVendorA("GET", "/vendors/me/products");
    expect(r.status).toBe(200);
    expect(r.body.items.map((p: { id: string }) => p.id)).toEqual([PA2, PA3, PA1]);
    expect(r.body.counts).toEqual({ all: 3, active: 1, draft: 1, archived: 1 });
    expect(r.body.items[2]).toMatchObject({ title: "Alpha Coat", status: "active", priceMin: "10.00", priceMax: "25.50", currencyCode: "USD", totalInventory: 7, store: { id: "store-a1", name: "Alder Main", handle: "alder-main" } });
    expect(r.body.nextCursor).toBeNull();
  });
  it("searches title and handle, filters by status, sorts by title and created, pages with the cursor", async () => {
    expect((await asVendorA("GET", "/vendors/me/products", { query: { q: "BETA" } })).body.items.map((p: { id: string }) => p.id)).toEqual([PA2]);
    expect((await asVendorA("GET", "/vendors/me/products", { query: { q: "scarf" } })).body.items.map((p: { id: string }) => p.id)).toEqual([PA3]);
    // B's product never shows, even searched for.
    expect((await asVendorA("GET", "/vendors/me/products", { query: { q: "birch" } })).body).toMatchObject({ items: [], counts: { all: 0 } });
    const archived = await asVendorA("GET", "/vendors/me/products", { query: { status: "archived" } });
    expect(archived.body.items.map((p: { id: string }) => p.id)).toEqual([PA3]);
    expect(archived.body.counts.all).toBe(3);
    const created = await asVendorA("GET", "/vendors/me/products", { query: { sort: "created" } });
    expect(created.body.items.map((p: { id: string }) => p.id)).toEqual([PA2, PA3, PA1]);
    const first = await asVendorA("GET", "/vendors/me/products", { query: { sort: "title", limit: "2" } });
    expect(first.body.items.map((p: { title: string }) => p.title)).toEqual(["Alpha Coat", "Beta Dress"]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await asVendorA("GET", "/vendors/me/products", { query: { sort: "title", limit: "2", cursor: first.body.nextCursor } });
    expect(second.body.items.map((p: { title: string }) => p.title)).toEqual(["Gamma Scarf"]);
    expect(second.body.nextCursor).toBeNull();
  });
  it("answers 400 for a bad status, sort, limit or cursor (a cursor of another sort included)", async () => {
    for (const query of [{ status: "deleted" }, { sort: "price" }, { limit: "0" }, { cursor: "nonsense" }]) {
      const r = await asVendorA("GET", "/vendors/me/products", { query });
      expect(r.status, JSON.stringify(query)).toBe(400);
    }
    const first = await asVendorA("GET", "/vendors/me/products", { query: { sort: "title", limit: "1" } });
    expect((await asVendorA("GET", "/vendors/me/products", { query: { sort: "updated", cursor: first.body.nextCursor } })).status).toBe(400);
  });
});

describe("PATCH /vendors/me/products/{id}/status", () => {
  it("changes the status in the store and the catalogue, the companion following; the same status again is 200", async () => {
    const calls: [string, string][] = [];
    const original = app.ctx.commerce.setProductStatus.bind(app.ctx.commerce);
    app.ctx.commerce.setProductStatus = async (id, status) => {
      calls.push([id, status]);
      return original(id, status);
    };
    try {
      const r = await asVendorA("PATCH", `/vendors/me/products/${encodeURIComponent(PA2)}/status`, { body: { status: "active" } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: PA2, status: "active" });
      expect(calls).toEqual([[PA2, "active"]]);
      expect((await app.database.db.product.findUniqueOrThrow({ where: { id: PA2 } })).status).toBe("active");
      expect((await app.database.db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: PA2 } })).status).toBe("active");
      // The bare numeric id works too; the same status calls nobody.
      const again = await asVendorA("PATCH", "/vendors/me/products/9102/status", { body: { status: "active" } });
      expect(again.status).toBe(200);
      expect(calls).toHaveLength(1);
      const back = await asVendorA("PATCH", `/vendors/me/products/${encodeURIComponent(PA2)}/status`, { body: { status: "draft" } });
      expect(back.body.status).toBe("draft");
      expect((await app.database.db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: PA2 } })).status).toBe("draft");
    } finally {
      app.ctx.commerce.setProductStatus = original;
    }
  });
  it("answers 400 for a status outside active, draft, archived", async () => {
    expect((await asVendorA("PATCH", `/vendors/me/products/${encodeURIComponent(PA1)}/status`, { body: { status: "deleted" } })).status).toBe(400);
    expect((await asVendorA("PATCH", `/vendors/me/products/${encodeURIComponent(PA1)}/status`, { body: {} })).status).toBe(400);
  });
  it("ISOLATION: another vendor's product is 404 and stays as it was; an unknown one is 404; a shopper 403", async () => {
    const r = await app.api("PATCH", `/vendors/me/products/${encodeURIComponent(PA1)}/status`, { token: vendorB.token, body: { status: "archived" } });
    expect(r.status).toBe(404);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: PA1 } })).status).toBe("active");
    expect((await asVendorA("PATCH", "/vendors/me/products/999999/status", { body: { status: "draft" } })).status).toBe(404);
    expect((await app.api("PATCH", `/vendors/me/products/${encodeURIComponent(PA1)}/status`, { token: shopper.token, body: { status: "draft" } })).status).toBe(403);
  });
  it("the store's refusal is answered with its message", async () => {
    const original = app.ctx.commerce.setProductStatus;
    const { CommerceError } = await import("../../app/providers/commerce/port");
    app.ctx.commerce.setProductStatus = async () => {
      throw new CommerceError("Product can't be archived while it is in a draft order", [{ message: "in a draft order" }], 422);
    };
    try {
      const r = await asVendorA("PATCH", `/vendors/me/products/${encodeURIComponent(PA1)}/status`, { body: { status: "archived" } });
      expect(r.status).toBe(422);
      expect(r.body.error.message).toContain("draft order");
      expect((await app.database.db.product.findUniqueOrThrow({ where: { id: PA1 } })).status).toBe("active");
    } finally {
      app.ctx.commerce.setProductStatus = original;
    }
  });
});

describe("PATCH /vendors/{id}/products/{productId}/status", () => {
  const path = (vendor: string, product: string) => `/vendors/${encodeURIComponent(vendor)}/products/${encodeURIComponent(product)}/status`;
  it("an admin with vendors.manage changes a vendor's product (the same answer as /vendors/me); the vendor for its own id too", async () => {
    const mine = await asVendorA("PATCH", `/vendors/me/products/${encodeURIComponent(PA1)}/status`, { body: { status: "active" } });
    const r = await app.api("PATCH", path(A, PA2), { token: manager.token, body: { status: "archived" } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(mine.body).sort());
    expect(r.body).toMatchObject({ id: PA2, status: "archived" });
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: PA2 } })).status).toBe("archived");
    expect((await app.database.db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: PA2 } })).status).toBe("archived");
    const own = await app.api("PATCH", path(A, "9102"), { token: vendorA.token, body: { status: "draft" } });
    expect([own.status, own.body.status]).toEqual([200, "draft"]);
    expect((await app.api("PATCH", path(A, PA2), { token: manager.token, body: { status: "draft" } })).status).toBe(200);
  });
  it("answers 400 for a bad status, and the store's refusal with its message", async () => {
    expect((await app.api("PATCH", path(A, PA1), { token: manager.token, body: { status: "deleted" } })).status).toBe(400);
    const original = app.ctx.commerce.setProductStatus;
    const { CommerceError } = await import("../../app/providers/commerce/port");
    app.ctx.commerce.setProductStatus = async () => {
      throw new CommerceError("Product can't be archived while it is in a draft order", [{ message: "in a draft order" }], 422);
    };
    try {
      const r = await app.api("PATCH", path(A, PA1), { token: manager.token, body: { status: "archived" } });
      expect([r.status, r.body.error.message]).toEqual([422, expect.stringContaining("draft order")]);
    } finally {
      app.ctx.commerce.setProductStatus = original;
    }
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: PA1 } })).status).toBe("active");
  });
  it("ISOLATION: another vendor's product by this vendor's id, an unknown vendor or product, another vendor's id: 404; a shopper and an admin without vendors.manage: 403", async () => {
    expect((await app.api("PATCH", path(B, PA1), { token: manager.token, body: { status: "archived" } })).status).toBe(404);
    expect((await app.api("PATCH", path("no-such-vendor", PA1), { token: manager.token, body: { status: "archived" } })).status).toBe(404);
    expect((await app.api("PATCH", path(A, "999999"), { token: manager.token, body: { status: "archived" } })).status).toBe(404);
    expect((await app.api("PATCH", path(A, PA1), { token: vendorB.token, body: { status: "archived" } })).status).toBe(404);
    expect((await app.api("PATCH", path(B, PA1), { token: vendorB.token, body: { status: "archived" } })).status).toBe(404);
    expect((await app.api("PATCH", path(A, PA1), { token: shopper.token, body: { status: "archived" } })).status).toBe(403);
    expect((await app.api("PATCH", path(A, PA1), { token: otherAdmin.token, body: { status: "archived" } })).status).toBe(403);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: PA1 } })).status).toBe("active");
  });
});

describe("payouts", () => {
  const current = () => todayIn(ZONE).slice(0, 7);

  it("PATCH /vendors/{id} sets the rate; closed months keep the rate they were earned under", async () => {
    // Before anyone read A's payouts: the change makes September's and October's rows first, at 10 %.
    const r = await app.api("PATCH", `/vendors/${A}`, { token: manager.token, body: { commission_rate: 12.5 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: A, commission_rate: "12.50" });
    const rows = await app.database.db.vendorPayout.findMany({ where: { vendor_id: A }, orderBy: { period_start: "asc" } });
    expect(rows.map((p) => [p.commission_rate?.toFixed(2), p.status])).toEqual([
      ["10.00", "pending"],
      ["10.00", "pending"],
    ]);
  });

  it("PATCH /vendors/{id} refuses rates outside 0–100 or with more than two decimals, and unknown vendors", async () => {
    for (const commission_rate of [-1, 100.01, 12.345, "abc"]) {
      expect((await app.api("PATCH", `/vendors/${A}`, { token: manager.token, body: { commission_rate } })).status, String(commission_rate)).toBe(400);
    }
    expect((await app.api("PATCH", "/vendors/nope", { token: manager.token, body: { commission_rate: 5 } })).status).toBe(404);
    expect((await app.api("PATCH", `/vendors/${A}`, { token: vendorA.token, body: { commission_rate: 0 } })).status).toBe(403);
    expect((await app.api("PATCH", `/vendors/${A}`, { token: otherAdmin.token, body: { commission_rate: 0 } })).status).toBe(403);
  });

  it("GET /vendors/me/analytics/payouts: the hand-computed figures per Tokyo month", async () => {
    const r = await asVendorA("GET", "/vendors/me/analytics/payouts", { query: { from: "2026-08", to: current() } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ vendorId: A, timeZone: ZONE, from: "2026-08", to: current(), currencyCode: "USD" });
    const byPeriod = Object.fromEntries(r.body.items.map((p: { period: string }) => [p.period, p]));
    // August: nothing sold, no row.
    expect(Object.keys(byPeriod).sort()).toEqual(["2026-09", "2026-10", current()].sort());
    // September: 130.00 gross, 10 % → 13.00, net 117.00.
    expect(byPeriod["2026-09"]).toMatchObject({ status: "pending", gross: "130.00", refunds: "0.00", returns: "0.00", returnedUnits: 0, units: 5, commissionRate: "10.00", commission: "13.00", net: "117.00", paid_at: null, reference: null });
    expect(byPeriod["2026-09"].id).toEqual(expect.any(String));
    expect(byPeriod["2026-09"].period_start).toBe("2026-08-31T15:00:00.000Z");
    expect(byPeriod["2026-09"].period_end).toBe("2026-09-30T15:00:00.000Z");
    // October: 40.00 gross, 34.62 refunded, 50.00 (1 unit) back; (40 − 34.62) × 10 % = 0.538 → 0.54; net 4.84.
    expect(byPeriod["2026-10"]).toMatchObject({ status: "pending", gross: "40.00", refunds: "34.62", returns: "50.00", returnedUnits: 1, units: 1, commissionRate: "10.00", commission: "0.54", net: "4.84" });
    // This month, live at the new rate: 20.00 × 12.5 % = 2.50, net 17.50.
    expect(byPeriod[current()]).toMatchObject({ id: null, status: "open", gross: "20.00", refunds: "0.00", commissionRate: "12.50", commission: "2.50", net: "17.50" });
    expect(r.body.items[0].period).toBe(current());
    expect(r.body.totals).toEqual({ gross: "190.00", refunds: "34.62", commission: "16.04", net: "139.34", paid: "0.00", pending: "121.84" });
    // B's share of the same refund: 55.38 in October; its September gross 80.00 at 20 %.
    const b = await app.api("GET", "/vendors/me/analytics/payouts", { token: vendorB.token, query: { from: "2026-09", to: "2026-10" } });
    expect(b.body.items.map((p: { period: string; gross: string; refunds: string; commission: string; net: string }) => [p.period, p.gross, p.refunds, p.commission, p.net])).toEqual([
      ["2026-10", "0.00", "55.38", "-11.08", "-44.30"],
      ["2026-09", "80.00", "0.00", "16.00", "64.00"],
    ]);
  });

  it("an empty range answers zeros, not an error; a bad range 400", async () => {
    const r = await asVendorA("GET", "/vendors/me/analytics/payouts", { query: { from: "2020-01", to: "2020-03" } });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
    expect(r.body.totals).toMatchObject({ gross: "0.00", net: "0.00" });
    for (const query of [{ from: "2026-10", to: "2026-09" }, { from: "2020-01", to: "2026-10" }, { from: "2026-13" }, { to: "26-10" }, { format: "xml" }]) {
      expect((await asVendorA("GET", "/vendors/me/analytics/payouts", { query })).status, JSON.stringify(query)).toBe(400);
    }
    expect((await app.api("GET", "/vendors/me/analytics/payouts", { token: shopper.token })).status).toBe(403);
  });

  it("format=csv answers the periods as a text/csv attachment with a header row", async () => {
    const r = await asVendorA("GET", "/vendors/me/analytics/payouts", { query: { from: "2026-09", to: "2026-10", format: "csv" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="payouts-alder-co-2026-09-to-2026-10.csv"');
    const text = typeof r.body === "string" ? r.body : String(r.body);
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("period,period_start,period_end,status,gross,refunds,returns,returned_units,units,commission_rate,commission,net,currency,paid_at,reference");
    expect(lines.slice(1)).toEqual([
      "2026-10,2026-09-30T15:00:00.000Z,2026-10-31T15:00:00.000Z,pending,40.00,34.62,50.00,1,1,10.00,0.54,4.84,USD,,",
      "2026-09,2026-08-31T15:00:00.000Z,2026-09-30T15:00:00.000Z,pending,130.00,0.00,0.00,0,5,10.00,13.00,117.00,USD,,",
    ]);
    // The OpenAPI document names both answers.
    const doc = await app.api("GET", "/openapi.json");
    for (const path of ["/vendors/me/analytics/payouts", "/vendors/{id}/payouts"]) {
      expect(Object.keys(doc.body.paths[path].get.responses["200"].content).sort(), path).toEqual(["application/json", "text/csv"]);
    }
  });

  it("POST mark-paid: pending → paid once with its reference, which the vendor then sees; again 409", async () => {
    const list = await app.api("GET", `/vendors/${A}/payouts`, { token: manager.token, query: { from: "2026-09", to: "2026-09" } });
    expect(list.status).toBe(200);
    const sept = list.body.items[0];
    expect(sept).toMatchObject({ period: "2026-09", status: "pending" });
    const r = await app.api("POST", `/vendors/${A}/payouts/${sept.id}/mark-paid`, { token: manager.token, body: { reference: "  TR-2026-09  " } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: sept.id, status: "paid", reference: "TR-2026-09", net: "117.00", paid_at: expect.any(String) });
    const again = await app.api("POST", `/vendors/${A}/payouts/${sept.id}/mark-paid`, { token: manager.token, body: { reference: "TR-other" } });
    expect(again.status).toBe(409);
    const seen = await asVendorA("GET", "/vendors/me/analytics/payouts", { query: { from: "2026-09", to: "2026-10" } });
    expect(seen.body.items.find((p: { period: string }) => p.period === "2026-09")).toMatchObject({ status: "paid", reference: "TR-2026-09" });
    expect(seen.body.totals).toMatchObject({ paid: "117.00", pending: "4.84" });
  });

  it("mark-paid refuses a missing reference (400), unknown payouts (404), vendors and admins without the permission (403)", async () => {
    const oct = (await app.database.db.vendorPayout.findMany({ where: { vendor_id: A, status: "pending" } }))[0];
    expect((await app.api("POST", `/vendors/${A}/payouts/${oct.id}/mark-paid`, { token: manager.token, body: { reference: "  " } })).status).toBe(400);
    expect((await app.api("POST", `/vendors/${A}/payouts/nope/mark-paid`, { token: manager.token, body: { reference: "X" } })).status).toBe(404);
    expect((await app.api("POST", `/vendors/${A}/payouts/${oct.id}/mark-paid`, { token: vendorA.token, body: { reference: "X" } })).status).toBe(403);
    expect((await app.api("POST", `/vendors/${A}/payouts/${oct.id}/mark-paid`, { token: otherAdmin.token, body: { reference: "X" } })).status).toBe(403);
    expect((await app.database.db.vendorPayout.findUniqueOrThrow({ where: { id: oct.id } })).status).toBe("pending");
    // A failed payout is not marked paid either (only pending → paid).
    const failed = await app.database.db.vendorPayout.create({
      data: { vendor_id: A, period_start: new Date("2020-01-01T00:00:00Z"), period_end: new Date("2020-02-01T00:00:00Z"), amount: new Prisma.Decimal("1.00"), status: "failed" },
    });
    expect((await app.api("POST", `/vendors/${A}/payouts/${failed.id}/mark-paid`, { token: manager.token, body: { reference: "X" } })).status).toBe(409);
    await app.database.db.vendorPayout.delete({ where: { id: failed.id } });
  });

  it("a late refund changes a pending period and leaves a paid one as it was paid", async () => {
    const db = app.database.db;
    // PA2 × 3 of the 21 September order (30.00), refunded 15.00 in September (already paid) and
    // a second 6.00 refund in October (pending): October refunds 34.62 + 6.00 = 40.62.
    const item = await db.orderItem.findFirstOrThrow({ where: { product_id: PA2, quantity: 3 } });
    await db.return.create({
      data: {
        id: "ret-vendor-api-late-1",
        order_id: item.order_id,
        status: "REFUNDED",
        refund_amount: new Prisma.Decimal("15.00"),
        received_at: new Date("2026-09-25T00:00:00Z"),
        refunded_at: new Date("2026-09-26T00:00:00Z"),
        line_items: { create: [{ order_item_id: item.id, quantity: 1, received: true }] },
      },
    });
    // Recorded without a vendor on the item: its product's vendor counts.
    const other = await order({ at: "2026-10-10T00:00:00Z", items: [{ product: PA3, qty: 1, price: "6.00", noVendor: true }] });
    await db.return.create({
      data: {
        id: "ret-vendor-api-late-2",
        order_id: other.id,
        status: "REFUNDED",
        refund_amount: new Prisma.Decimal("6.00"),
        received_at: new Date("2026-10-11T00:00:00Z"),
        refunded_at: new Date("2026-10-12T00:00:00Z"),
        line_items: { create: [{ order_item_id: other.line(0), quantity: 1, received: true }] },
      },
    });
    const r = await asVendorA("GET", "/vendors/me/analytics/payouts", { query: { from: "2026-09", to: "2026-10" } });
    const byPeriod = Object.fromEntries(r.body.items.map((p: { period: string }) => [p.period, p]));
    expect(byPeriod["2026-09"]).toMatchObject({ status: "paid", gross: "130.00", refunds: "0.00", commission: "13.00", net: "117.00", reference: "TR-2026-09" });
    // October: gross 40.00 + 6.00 = 46.00; refunds 40.62; (46 − 40.62) × 10 % = 0.538 → 0.54; net 4.84.
    expect(byPeriod["2026-10"]).toMatchObject({ status: "pending", gross: "46.00", refunds: "40.62", returns: "56.00", returnedUnits: 2, commission: "0.54", net: "4.84" });
    const row = await db.vendorPayout.findUniqueOrThrow({ where: { id: byPeriod["2026-10"].id } });
    expect([row.gross_sales.toFixed(2), row.refunds.toFixed(2), row.commission.toFixed(2), row.amount.toFixed(2)]).toEqual(["46.00", "40.62", "0.54", "4.84"]);
  });

  it("reads at once make one row per period; two admins marking the same payout paid: one 200, one 409", async () => {
    const before = await app.database.db.vendorPayout.count({ where: { vendor_id: B } });
    await Promise.all([1, 2, 3].map(() => app.api("GET", `/vendors/${B}/payouts`, { token: manager.token, query: { from: "2026-09", to: "2026-10" } })));
    const rows = await app.database.db.vendorPayout.findMany({ where: { vendor_id: B } });
    expect(rows).toHaveLength(Math.max(before, 2));
    const target = rows.find((p) => p.status === "pending")!;
    const results = await Promise.all(["R-1", "R-2"].map((reference) => app.api("POST", `/vendors/${B}/payouts/${target.id}/mark-paid`, { token: manager.token, body: { reference } })));
    expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
    const paid = await app.database.db.vendorPayout.findUniqueOrThrow({ where: { id: target.id } });
    expect(paid.status).toBe("paid");
    expect(paid.reference).toBe(results.find((x) => x.status === 200)!.body.reference);
  });

  it("ISOLATION: A's payout under B's vendor id is 404; B cannot read A's payouts by id", async () => {
    const oct = (await app.database.db.vendorPayout.findMany({ where: { vendor_id: A, status: "pending" } }))[0];
    expect((await app.api("POST", `/vendors/${B}/payouts/${oct.id}/mark-paid`, { token: manager.token, body: { reference: "X" } })).status).toBe(404);
    expect((await app.api("GET", `/vendors/${A}/payouts`, { token: vendorB.token })).status).toBe(404);
    expect((await app.api("POST", `/vendors/${A}/payouts/${oct.id}/mark-paid`, { token: vendorB.token, body: { reference: "X" } })).status).toBe(403);
    expect((await app.database.db.vendorPayout.findUniqueOrThrow({ where: { id: oct.id } })).status).toBe("pending");
  });
});

describe("admin mirrors", () => {
  it("GET /vendors lists vendors by name with counts, searches and pages", async () => {
    const r = await app.api("GET", "/vendors", { token: manager.token });
    expect(r.status).toBe(200);
    expect(r.body.items.map((v: { id: string }) => v.id)).toEqual([A, B]);
    expect(r.body.items[0]).toMatchObject({ storeCount: 2, productCount: 3 });
    expect((await app.api("GET", "/vendors", { token: manager.token, query: { q: "birch" } })).body.items.map((v: { id: string }) => v.id)).toEqual([B]);
    expect((await app.api("GET", "/vendors", { token: manager.token, query: { q: "alder@example" } })).body.items.map((v: { id: string }) => v.id)).toEqual([A]);
    const first = await app.api("GET", "/vendors", { token: manager.token, query: { limit: "1" } });
    expect(first.body.items.map((v: { id: string }) => v.id)).toEqual([A]);
    const second = await app.api("GET", "/vendors", { token: manager.token, query: { limit: "1", cursor: first.body.nextCursor } });
    expect(second.body.items.map((v: { id: string }) => v.id)).toEqual([B]);
    expect(second.body.nextCursor).toBeNull();
    expect((await app.api("GET", "/vendors", { token: manager.token, query: { cursor: "%%%" } })).status).toBe(400);
  });
  it("GET /vendors refuses vendors, shoppers and admins without vendors.manage", async () => {
    for (const who of [vendorA, shopper, otherAdmin]) expect((await app.api("GET", "/vendors", { token: who.token })).status).toBe(403);
  });
  it("GET /vendors/{id}, /stores, /products, /payouts answer as the /vendors/me routes do", async () => {
    const me = await asVendorA("GET", "/vendors/me");
    const byId = await app.api("GET", `/vendors/${A}`, { token: manager.token });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(me.body);
    expect((await app.api("GET", `/vendors/${A}/stores`, { token: manager.token })).body).toEqual((await asVendorA("GET", "/vendors/me/stores")).body);
    expect((await app.api("GET", `/vendors/${A}/products`, { token: manager.token, query: { sort: "title" } })).body).toEqual(
      (await asVendorA("GET", "/vendors/me/products", { query: { sort: "title" } })).body,
    );
    const q = { from: "2026-09", to: "2026-10" };
    expect((await app.api("GET", `/vendors/${A}/payouts`, { token: manager.token, query: q })).body).toEqual((await asVendorA("GET", "/vendors/me/analytics/payouts", { query: q })).body);
    // A vendor reaches its own id.
    expect((await asVendorA("GET", `/vendors/${A}`)).body).toEqual(me.body);
  });
  it("unknown vendor ids are 404 for admins", async () => {
    for (const path of ["/vendors/nope", "/vendors/nope/stores", "/vendors/nope/products", "/vendors/nope/payouts"]) {
      expect((await app.api("GET", path, { token: manager.token })).status, path).toBe(404);
    }
  });
  it("ISOLATION: B asking for A's id on every read route is 404; a shopper and an admin without vendors.manage 403", async () => {
    for (const path of [`/vendors/${A}`, `/vendors/${A}/stores`, `/vendors/${A}/products`, `/vendors/${A}/payouts`]) {
      expect((await app.api("GET", path, { token: vendorB.token })).status, `${path} as B`).toBe(404);
      expect((await app.api("GET", path, { token: shopper.token })).status, `${path} as a shopper`).toBe(403);
      expect((await app.api("GET", path, { token: otherAdmin.token })).status, `${path} as an admin without vendors.manage`).toBe(403);
    }
  });
});
