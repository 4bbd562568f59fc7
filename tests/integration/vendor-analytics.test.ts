/**
 * Vendor analytics (GET /api/vendors/me/analytics/summary, /analytics/top-products,
 * /products/performance, /products/performance/timeseries and the admin mirrors under
 * /vendors/{id}/…) on product_daily_stats rows of a hand-computed fixture: two vendors, a product
 * with activity on two days, one with activity the day before the range (the previous period) and
 * the day after it, an idle product, a product that left the catalogue (titled from its order
 * line), and another vendor's busy product on a day in the range. Every expected figure below is
 * worked out by hand from the rows, not by the code under test.
 * Isolation: vendor B gets 404 on A's product and on /vendors/{A}/…, a shopper 403, an admin
 * without vendors.manage 403. Bad ranges, limits and cursors: 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { createTestApp, type TestApp } from "../helpers/app";
import { todayIn } from "../../app/lib/store-time-zone";

let app: TestApp;
let vendorA: { token: string };
let vendorB: { token: string };
let admin: { token: string };
let adminWithout: { token: string };
let shopper: { token: string };

const VA = "vendor-stats-a";
const VB = "vendor-stats-b";
const SHIRT = "gid://shopify/Product/9901"; // A
const COAT = "gid://shopify/Product/9902"; // A
const SCARF = "gid://shopify/Product/9903"; // A, idle
const GONE = "gid://shopify/Product/9904"; // A's, no longer in the catalogue
const JACKET = "gid://shopify/Product/9905"; // B

const RANGE = { from: "2026-03-01", to: "2026-03-03" };

type Row = { product: string; day: string; vendor: string; views?: number; saves?: number; tryOns?: number; atc?: number; orders?: number; units?: number; revenue?: string; returned?: number; refunds?: string };
const ROWS: Row[] = [
  { product: SHIRT, day: "2026-03-01", vendor: VA, views: 100, saves: 10, tryOns: 5, atc: 8, orders: 4, units: 5, revenue: "250.00" },
  { product: SHIRT, day: "2026-03-03", vendor: VA, views: 50, saves: 2, tryOns: 1, atc: 3, orders: 2, units: 2, revenue: "99.90", returned: 1, refunds: "49.95" },
  { product: COAT, day: "2026-03-01", vendor: VA, views: 40, saves: 8, tryOns: 12, atc: 1, orders: 1, units: 1, revenue: "120.00", returned: 1, refunds: "120.00" },
  { product: COAT, day: "2026-02-27", vendor: VA, views: 30, saves: 1, orders: 1, units: 2, revenue: "80.00" },
  { product: COAT, day: "2026-03-04", vendor: VA, views: 999, saves: 99, tryOns: 99, orders: 9, units: 9, revenue: "999.00" },
  { product: GONE, day: "2026-03-02", vendor: VA, orders: 1, units: 1, revenue: "10.05" },
  { product: JACKET, day: "2026-03-02", vendor: VB, views: 500, saves: 50, tryOns: 20, orders: 9, units: 9, revenue: "900.00" },
];

const m = (x: Partial<Record<string, number | string>>) => ({
  views: 0,
  saves: 0,
  tryOns: 0,
  addToCarts: 0,
  orders: 0,
  units: 0,
  revenue: "0.00",
  returnedUnits: 0,
  refunds: "0.00",
  returnRate: 0,
  conversion: 0,
  ...x,
});

// Hand-computed from ROWS.
const TOTALS_A = m({ views: 190, saves: 20, tryOns: 18, addToCarts: 12, orders: 8, units: 9, revenue: "479.95", returnedUnits: 2, refunds: "169.95", returnRate: 0.2222, conversion: 0.0421 });
const DAILY_A = [
  { date: "2026-03-01", ...m({ views: 140, saves: 18, tryOns: 17, addToCarts: 9, orders: 5, units: 6, revenue: "370.00", returnedUnits: 1, refunds: "120.00", returnRate: 0.1667, conversion: 0.0357 }) },
  { date: "2026-03-02", ...m({ orders: 1, units: 1, revenue: "10.05" }) },
  { date: "2026-03-03", ...m({ views: 50, saves: 2, tryOns: 1, addToCarts: 3, orders: 2, units: 2, revenue: "99.90", returnedUnits: 1, refunds: "49.95", returnRate: 0.5, conversion: 0.04 }) },
];
const SHIRT_M = m({ views: 150, saves: 12, tryOns: 6, addToCarts: 11, orders: 6, units: 7, revenue: "349.90", returnedUnits: 1, refunds: "49.95", returnRate: 0.1429, conversion: 0.04 });
const COAT_M = m({ views: 40, saves: 8, tryOns: 12, addToCarts: 1, orders: 1, units: 1, revenue: "120.00", returnedUnits: 1, refunds: "120.00", returnRate: 1, conversion: 0.025 });
const GONE_M = m({ orders: 1, units: 1, revenue: "10.05" });

const get = (token: string | null, path: string, query: Record<string, string | number> = {}) => app.api("GET", path, { token, query });
const ids = (body: { items: { productId: string }[] }) => body.items.map((i) => i.productId);

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await db.vendor.create({ data: { id: VA, name: "Atelier A", handle: "atelier-a-stats" } });
  await db.vendor.create({ data: { id: VB, name: "Bureau B", handle: "bureau-b-stats" } });
  const product = (id: string, title: string, vendor: string, currencyCode = "EUR") =>
    db.product.create({ data: { id, title, handle: `stats-${id.split("/").pop()}`, vendor_id: vendor, currencyCode, featuredImageUrl: `https://img.test/${title}.jpg` } });
  await product(SHIRT, "Linen Shirt", VA);
  await product(COAT, "Wool Coat", VA);
  await product(SCARF, "Silk Scarf", VA);
  await product(JACKET, "Denim Jacket", VB, "GBP");
  await db.order.create({
    data: {
      id: "gid://shopify/Order/990001",
      name: "#S1",
      total_price: new Prisma.Decimal("10.05"),
      created_at: new Date("2026-03-02T10:00:00Z"),
      items: { create: [{ id: "gid://shopify/LineItem/990001", product_id: GONE, vendor_id: VA, title: "Retired Tote", quantity: 1, price: new Prisma.Decimal("10.05"), status: "delivered" }] },
    },
  });
  for (const r of ROWS) {
    await db.$executeRaw`
      INSERT INTO product_daily_stats (product_id, day, vendor_id, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds)
      VALUES (${r.product}, ${r.day}::date, ${r.vendor}, ${r.views ?? 0}, ${r.saves ?? 0}, ${r.tryOns ?? 0}, ${r.atc ?? 0}, ${r.orders ?? 0}, ${r.units ?? 0},
        ${r.revenue ?? "0"}::numeric, ${r.returned ?? 0}, ${r.refunds ?? "0"}::numeric)`;
  }
  vendorA = await app.createUser({ role: "VENDOR", vendorId: VA });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: VB });
  admin = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  adminWithout = await app.createUser({ role: "ADMIN", permissions: ["orders.manage", "returns.manage"] });
  shopper = await app.createUser();
});
afterAll(async () => {
  await app?.close();
});

describe("summary", () => {
  it("sums the vendor's rows of the range per day and in total, every day present", async () => {
    const res = await get(vendorA.token, "/vendors/me/analytics/summary", RANGE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ vendorId: VA, ...RANGE, timeZone: "UTC", currencyCode: "EUR", totals: TOTALS_A, daily: DAILY_A, compare: null });
  });

  it("compare=previous adds the three days before", async () => {
    const res = await get(vendorA.token, "/vendors/me/analytics/summary", { ...RANGE, compare: "previous" });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual(TOTALS_A);
    expect(res.body.compare).toEqual({
      from: "2026-02-26",
      to: "2026-02-28",
      totals: m({ views: 30, saves: 1, orders: 1, units: 2, revenue: "80.00", conversion: 0.0333 }),
      daily: [
        { date: "2026-02-26", ...m({}) },
        { date: "2026-02-27", ...m({ views: 30, saves: 1, orders: 1, units: 2, revenue: "80.00", conversion: 0.0333 }) },
        { date: "2026-02-28", ...m({}) },
      ],
    });
  });

  it("an empty range answers zeros for every day", async () => {
    const res = await get(vendorA.token, "/vendors/me/analytics/summary", { from: "2025-01-01", to: "2025-01-02" });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual(m({}));
    expect(res.body.daily).toEqual([
      { date: "2025-01-01", ...m({}) },
      { date: "2025-01-02", ...m({}) },
    ]);
  });

  it("defaults to the last 30 days up to today in the store's time zone", async () => {
    const before = app.ctx.config.STORE_TIMEZONE;
    app.ctx.config.STORE_TIMEZONE = "Pacific/Kiritimati";
    try {
      const res = await get(vendorA.token, "/vendors/me/analytics/summary");
      expect(res.status).toBe(200);
      expect(res.body.timeZone).toBe("Pacific/Kiritimati");
      expect(res.body.to).toBe(todayIn("Pacific/Kiritimati"));
      expect(res.body.daily).toHaveLength(30);
      expect(res.body.daily[29].date).toBe(res.body.to);
    } finally {
      app.ctx.config.STORE_TIMEZONE = before;
    }
  });

  it("the other vendor sees only its own rows", async () => {
    const res = await get(vendorB.token, "/vendors/me/analytics/summary", RANGE);
    expect(res.status).toBe(200);
    expect(res.body.currencyCode).toBe("GBP");
    expect(res.body.totals).toEqual(m({ views: 500, saves: 50, tryOns: 20, orders: 9, units: 9, revenue: "900.00", conversion: 0.018 }));
  });

  it.each([
    [{ from: "2026-03-04", to: "2026-03-03" }, "from"],
    [{ from: "2025-01-01", to: "2026-01-02" }, "to"],
    [{ from: "2026-02-30", to: "2026-03-03" }, "from"],
    [{ from: "03/01/2026" }, "from"],
    [{ compare: "next" }, "compare"],
  ])("a bad range %j answers 400", async (query, field) => {
    const res = await get(vendorA.token, "/vendors/me/analytics/summary", query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toContain(field);
  });

  it("366 days is the longest range", async () => {
    const res = await get(vendorA.token, "/vendors/me/analytics/summary", { from: "2025-03-03", to: "2026-03-03" });
    expect(res.status).toBe(200);
    expect(res.body.daily).toHaveLength(366);
    expect(res.body.totals.revenue).toBe("559.95");
  });
});

describe("top products", () => {
  it("ranks by revenue by default, leaving out products without any", async () => {
    const res = await get(vendorA.token, "/vendors/me/analytics/top-products", RANGE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      vendorId: VA,
      ...RANGE,
      timeZone: "UTC",
      currencyCode: "EUR",
      by: "revenue",
      items: [
        { productId: SHIRT, title: "Linen Shirt", handle: "stats-9901", status: "active", imageUrl: "https://img.test/Linen Shirt.jpg", measures: SHIRT_M },
        { productId: COAT, title: "Wool Coat", handle: "stats-9902", status: "active", imageUrl: "https://img.test/Wool Coat.jpg", measures: COAT_M },
        { productId: GONE, title: "Retired Tote", handle: null, status: null, imageUrl: null, measures: GONE_M },
      ],
    });
  });

  it.each([
    ["views", [SHIRT, COAT]],
    ["saves", [SHIRT, COAT]],
    ["try_ons", [COAT, SHIRT]],
    // COAT and GONE tie on one unit each: the higher revenue first.
    ["units", [SHIRT, COAT, GONE]],
  ])("by %s", async (by, expected) => {
    const res = await get(vendorA.token, "/vendors/me/analytics/top-products", { ...RANGE, by });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected);
  });

  it("limit cuts the list; more than 50 or an unknown measure answers 400", async () => {
    const one = await get(vendorA.token, "/vendors/me/analytics/top-products", { ...RANGE, limit: 1 });
    expect(ids(one.body)).toEqual([SHIRT]);
    expect((await get(vendorA.token, "/vendors/me/analytics/top-products", { limit: 51 })).status).toBe(400);
    expect((await get(vendorA.token, "/vendors/me/analytics/top-products", { by: "refunds" })).status).toBe(400);
  });

  it("an empty range answers no products", async () => {
    const res = await get(vendorA.token, "/vendors/me/analytics/top-products", { from: "2025-01-01", to: "2025-01-31" });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });
});

describe("products performance", () => {
  it("status keeps the products with that status now (a product gone from the catalogue has none); total counts them; an unknown status is 400", async () => {
    await app.database.db.product.update({ where: { id: SCARF }, data: { status: "draft" } });
    try {
      const draft = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, status: "draft" });
      expect(draft.status).toBe(200);
      expect([ids(draft.body), draft.body.total, draft.body.items[0].status]).toEqual([[SCARF], 1, "draft"]);
      const active = await get(admin.token, `/vendors/${VA}/products/performance`, { ...RANGE, status: "active", limit: 1 });
      expect([ids(active.body), active.body.total]).toEqual([[SHIRT], 2]);
      const next = await get(admin.token, `/vendors/${VA}/products/performance`, { ...RANGE, status: "active", limit: 1, cursor: active.body.nextCursor });
      expect([ids(next.body), next.body.nextCursor]).toEqual([[COAT], null]);
      const archived = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, status: "archived" });
      expect([archived.body.items, archived.body.total]).toEqual([[], 0]);
      const bad = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, status: "deleted" });
      expect([bad.status, bad.body.error.details?.fields?.status ?? bad.body.error.message]).toEqual([400, expect.any(String)]);
    } finally {
      await app.database.db.product.update({ where: { id: SCARF }, data: { status: "active" } });
    }
  });

  it("ranges of whole months (read from the monthly rollup) with partial months at their edges (read by day) sum the same days", async () => {
    const COAT_FEB_MAR = m({ views: 1069, saves: 108, tryOns: 111, addToCarts: 1, orders: 11, units: 12, revenue: "1199.00", returnedUnits: 1, refunds: "120.00", returnRate: 0.0833, conversion: 0.0103 });
    const COAT_MAR2_APR = m({ views: 999, saves: 99, tryOns: 99, orders: 9, units: 9, revenue: "999.00", conversion: 0.009 });
    const measuresOf = async (query: Record<string, string>) => {
      const res = await get(vendorA.token, "/vendors/me/products/performance", { ...query, sort: "title" });
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.items.map((i: { productId: string; measures: unknown }) => [i.productId, i.measures]));
    };
    for (const range of [{ from: "2026-02-01", to: "2026-03-31" }, { from: "2026-02-27", to: "2026-03-31" }, { from: "2026-02-15", to: "2026-04-10" }]) {
      expect(await measuresOf(range), JSON.stringify(range)).toEqual({ [SHIRT]: SHIRT_M, [COAT]: COAT_FEB_MAR, [SCARF]: m({}), [GONE]: GONE_M });
    }
    const tail = await measuresOf({ from: "2026-03-02", to: "2026-04-30" });
    expect(tail[COAT]).toEqual(COAT_MAR2_APR);
    const top = await get(vendorA.token, "/vendors/me/analytics/top-products", { from: "2026-02-01", to: "2026-04-30", by: "views" });
    expect(top.body.items.map((i: { productId: string; measures: { views: number } }) => [i.productId, i.measures.views])).toEqual([
      [COAT, 1069],
      [SHIRT, 150],
    ]);
  });

  it("lists every product of the vendor, idle ones with zeros, sorted by revenue, in pages", async () => {
    const first = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.items.map((i: { productId: string; measures: unknown }) => [i.productId, i.measures])).toEqual([
      [SHIRT, SHIRT_M],
      [COAT, COAT_M],
    ]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, limit: 2, cursor: first.body.nextCursor });
    expect(second.status).toBe(200);
    expect(second.body.items.map((i: { productId: string; measures: unknown }) => [i.productId, i.measures])).toEqual([
      [GONE, GONE_M],
      [SCARF, m({})],
    ]);
    expect(second.body.nextCursor).toBeNull();
  });

  // Ties (GONE and SCARF at 0) go by product id, whatever the order.
  it.each([
    ["title", undefined, [SHIRT, GONE, SCARF, COAT]],
    ["title", "desc", [COAT, SCARF, GONE, SHIRT]],
    ["conversion", undefined, [SHIRT, COAT, SCARF, GONE]],
    ["return_rate", undefined, [COAT, SHIRT, SCARF, GONE]],
    ["return_rate", "asc", [SCARF, GONE, SHIRT, COAT]],
    ["try_ons", undefined, [COAT, SHIRT, SCARF, GONE]],
    ["refunds", undefined, [COAT, SHIRT, SCARF, GONE]],
    ["add_to_carts", undefined, [SHIRT, COAT, SCARF, GONE]],
  ])("sort %s %s", async (sort, order, expected) => {
    const res = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, sort, ...(order ? { order } : {}) });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected);
  });

  it("pages of one walk the whole sorted list without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, sort: "conversion", limit: 1, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      cursor = res.body.nextCursor ?? undefined;
    } while (cursor);
    // GONE and SCARF tie on 0: the product id decides.
    expect(seen).toEqual([SHIRT, COAT, SCARF, GONE]);
  });

  it("q searches the titles", async () => {
    const res = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, q: "wool  COAT" });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.items).toEqual([{ productId: COAT, title: "Wool Coat", handle: "stats-9902", status: "active", imageUrl: "https://img.test/Wool Coat.jpg", measures: COAT_M }]);
    const none = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, q: "jacket" });
    expect(none.body).toMatchObject({ total: 0, items: [], nextCursor: null });
  });

  it("a cursor of another sort, or not a cursor, answers 400", async () => {
    const first = await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, limit: 1 });
    expect((await get(vendorA.token, "/vendors/me/products/performance", { ...RANGE, sort: "views", cursor: first.body.nextCursor })).status).toBe(400);
    expect((await get(vendorA.token, "/vendors/me/products/performance", { cursor: "nope" })).status).toBe(400);
    expect((await get(vendorA.token, "/vendors/me/products/performance", { sort: "price" })).status).toBe(400);
    expect((await get(vendorA.token, "/vendors/me/products/performance", { limit: 0 })).status).toBe(400);
  });
});

describe("timeseries", () => {
  it("all the vendor's products: the summary's days", async () => {
    const res = await get(vendorA.token, "/vendors/me/products/performance/timeseries", RANGE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ vendorId: VA, ...RANGE, timeZone: "UTC", currencyCode: "EUR", productId: null, totals: TOTALS_A, daily: DAILY_A });
  });

  it("one product", async () => {
    const res = await get(vendorA.token, "/vendors/me/products/performance/timeseries", { from: "2026-02-27", to: "2026-03-01", productId: COAT });
    expect(res.status).toBe(200);
    expect(res.body.productId).toBe(COAT);
    expect(res.body.totals).toEqual(
      m({ views: 70, saves: 9, tryOns: 12, addToCarts: 1, orders: 2, units: 3, revenue: "200.00", returnedUnits: 1, refunds: "120.00", returnRate: 0.3333, conversion: 0.0286 }),
    );
    expect(res.body.daily.map((d: { date: string; views: number }) => [d.date, d.views])).toEqual([
      ["2026-02-27", 30],
      ["2026-02-28", 0],
      ["2026-03-01", 40],
    ]);
  });

  it("a product that left the catalogue stays the vendor's", async () => {
    const res = await get(vendorA.token, "/vendors/me/products/performance/timeseries", { ...RANGE, productId: GONE });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual(GONE_M);
  });

  it("another vendor's product or an unknown one answers 404; a bad range 400", async () => {
    expect((await get(vendorA.token, "/vendors/me/products/performance/timeseries", { ...RANGE, productId: JACKET })).status).toBe(404);
    expect((await get(vendorB.token, "/vendors/me/products/performance/timeseries", { ...RANGE, productId: COAT })).status).toBe(404);
    expect((await get(vendorB.token, "/vendors/me/products/performance/timeseries", { ...RANGE, productId: SCARF })).status).toBe(404);
    expect((await get(vendorA.token, "/vendors/me/products/performance/timeseries", { ...RANGE, productId: "gid://shopify/Product/1" })).status).toBe(404);
    const own = await get(vendorB.token, "/vendors/me/products/performance/timeseries", { ...RANGE, productId: JACKET });
    expect(own.status).toBe(200);
    expect(own.body.totals.views).toBe(500);
    expect((await get(vendorA.token, "/vendors/me/products/performance/timeseries", { from: "2026-03-03", to: "2026-03-01" })).status).toBe(400);
  });
});

const MIRRORS: [string, string, Record<string, string>][] = [
  ["/vendors/me/analytics/summary", "/vendors/{id}/analytics/summary", { ...RANGE, compare: "previous" }],
  ["/vendors/me/analytics/top-products", "/vendors/{id}/top-products", { ...RANGE, by: "views" }],
  ["/vendors/me/products/performance", "/vendors/{id}/products/performance", { ...RANGE, sort: "title" }],
  ["/vendors/me/products/performance/timeseries", "/vendors/{id}/products/performance/timeseries", { ...RANGE, productId: SHIRT }],
];

describe.each(MIRRORS)("%s and its admin mirror %s", (mePath, byIdPath, query) => {
  const byId = (id: string) => byIdPath.replace("{id}", encodeURIComponent(id));

  it("an admin with vendors.manage gets the vendor's own answer", async () => {
    const mine = await get(vendorA.token, mePath, query);
    expect(mine.status).toBe(200);
    const theirs = await get(admin.token, byId(VA), query);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual(mine.body);
  });

  it("a vendor reaches its own id, and another vendor's id is 404", async () => {
    const own = await get(vendorA.token, byId(VA), query);
    expect(own.status).toBe(200);
    const other = await get(vendorB.token, byId(VA), query);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain("Linen");
  });

  it("an unknown vendor is 404 for admins", async () => {
    expect((await get(admin.token, byId("no-such-vendor"), query)).status).toBe(404);
  });

  it("a shopper gets 403, an admin without vendors.manage 403, nobody 401", async () => {
    expect((await get(shopper.token, mePath, query)).status).toBe(403);
    expect((await get(shopper.token, byId(VA), query)).status).toBe(403);
    expect((await get(adminWithout.token, byId(VA), query)).status).toBe(403);
    expect((await get(admin.token, mePath, query)).status).toBe(403);
    expect((await get(null, mePath, query)).status).toBe(401);
    expect((await get(null, byId(VA), query)).status).toBe(401);
  });

  it("a bad range is 400 on the mirror too", async () => {
    expect((await get(admin.token, byId(VA), { from: "2026-03-02", to: "2026-03-01" })).status).toBe(400);
  });
});
