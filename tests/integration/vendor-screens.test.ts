/**
 * The vendor portal's pages (issue 17) through their loaders and actions, server-rendered with
 * Polaris: the vendor's own pages (/app/vendor, /products, /stores, /payouts) and the admins' view
 * of any vendor (/app/vendors, /app/vendors/:id…). Figures come from product_daily_stats rows
 * written here by hand, so the expected values are computed by hand, not by the code under test.
 * Guards: a shopper is sent away, a signed-out caller to the login, another vendor on
 * /app/vendors/:A is refused (403, before the id is read), an admin without vendors.manage 403,
 * an unknown vendor id 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { addDays, todayIn } from "../../app/lib/store-time-zone";
import { navigationFor } from "../../app/services/staff.server";
import { bumpProductDay } from "../../app/services/vendor-stats/daily-stats.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { Prisma } from "@prisma/client";
import { CommerceError } from "../../app/providers/commerce/port";
import { refusal, renderRoute, staffForm, staffRequest as req, thrownResponse } from "../helpers/route";
import { createProduct, pgid } from "./products-fixtures";

type HomeRoute = typeof import("../../app/routes/app.vendor");
type ProductsRoute = typeof import("../../app/routes/app.vendor_.products");
type StoresRoute = typeof import("../../app/routes/app.vendor_.stores");
type PayoutsRoute = typeof import("../../app/routes/app.vendor_.payouts");
type AdminPayoutsRoute = typeof import("../../app/routes/app.vendors_.$id_.payouts");
type AdminHomeRoute = typeof import("../../app/routes/app.vendors_.$id");
type CsvRoute = typeof import("../../app/routes/app.vendor_.payouts_.csv");
type VendorsRoute = typeof import("../../app/routes/app.vendors");
let home: HomeRoute;
let products: ProductsRoute;
let stores: StoresRoute;
let payouts: PayoutsRoute;
let adminPayouts: AdminPayoutsRoute;
let adminHome: AdminHomeRoute;
let csv: CsvRoute;
let vendors: VendorsRoute;
let app: TestApp;
type Caller = { id: string; token: string };
let vendorA: Caller;
let vendorB: Caller;
let admin: Caller;
let adminNoPerm: Caller;
let shopper: Caller;
let A: { id: string };
let B: { id: string };

const today = () => todayIn("UTC");
const noon = (daysAgo: number) => new Date(`${addDays(today(), -daysAgo)}T12:00:00Z`);
const args = (path: string, token: string | null, params: Record<string, string> = {}) => ({ request: req(path, token), params, context: {} });
const kpi = (html: string, key: string) => html.match(new RegExp(`data-testid="kpi-${key}">([^<]*)<`))?.[1];

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  home = await import("../../app/routes/app.vendor");
  products = await import("../../app/routes/app.vendor_.products");
  stores = await import("../../app/routes/app.vendor_.stores");
  payouts = await import("../../app/routes/app.vendor_.payouts");
  adminPayouts = await import("../../app/routes/app.vendors_.$id_.payouts");
  adminHome = await import("../../app/routes/app.vendors_.$id");
  csv = await import("../../app/routes/app.vendor_.payouts_.csv");
  vendors = await import("../../app/routes/app.vendors");
  const db = app.database.db;
  A = await db.vendor.create({ data: { name: "Atelier Aster", handle: "atelier-aster", commission_rate: 12.5 } });
  B = await db.vendor.create({ data: { name: "Brume Basics", handle: "brume-basics" } });
  const storeA = await db.store.create({ data: { name: "Aster Womenswear", handle: "aster-womenswear", target_gender: "womenswear", vendor_id: A.id } });
  const storeB = await db.store.create({ data: { name: "Brume Everyday", handle: "brume-everyday", target_gender: "both", vendor_id: B.id } });
  await createProduct(db, { n: 8101, title: "Aster Linen Dress", gender: "womenswear", price: 75, storeId: storeA.id, vendorId: A.id });
  await createProduct(db, { n: 8102, title: "Aster Silk Scarf", gender: "womenswear", price: 40, storeId: storeA.id, vendorId: A.id });
  await createProduct(db, { n: 8103, title: "Aster Wool Cape", gender: "womenswear", status: "draft", storeId: storeA.id, vendorId: A.id });
  await createProduct(db, { n: 8201, title: "Brume Canvas Tote", storeId: storeB.id, vendorId: B.id });
  vendorA = await app.createUser({ role: "VENDOR", vendorId: A.id });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B.id });
  admin = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  adminNoPerm = await app.createUser({ role: "ADMIN", permissions: ["orders.manage", "catalog.edit"] });
  shopper = await app.createUser();

  // The last 7 days of A: the dress viewed 20 times, 2 orders of 3 units for 225.00, 1 unit back;
  // the scarf viewed 10 times, saved twice, tried on 4 times.
  const bump = (n: number, daysAgo: number, vendorId: string, delta: Record<string, number | string>) => bumpProductDay(db, { productId: pgid(n), at: noon(daysAgo), vendorId, delta, timeZone: "UTC" });
  await bump(8101, 1, A.id, { views: 12, orders: 1, units: 2, revenue: "150.00" });
  await bump(8101, 2, A.id, { views: 8, orders: 1, units: 1, revenue: "75.00", returnedUnits: 1 });
  await bump(8102, 3, A.id, { views: 10, saves: 2, tryOns: 4 });
  // The 7 days before: the dress viewed 5 times, 1 order of 1 unit for 75.00.
  await bump(8101, 9, A.id, { views: 5, orders: 1, units: 1, revenue: "75.00" });
  // B's activity never shows on A's pages.
  await bump(8201, 1, B.id, { views: 99, orders: 7, units: 7, revenue: "700.00" });

  // Last month (a closed period): one order of A's dress, 2 × 100.00 → gross 200.00; at 12.5 %
  // commission 25.00, net 175.00. B sold 1 × 80.00 the same month.
  const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 10, 12));
  const sale = (n: number, vendorId: string, product: number, quantity: number, price: number) =>
    db.order.create({
      data: {
        id: `gid://shopify/Order/88${n}`,
        name: `#V${n}`,
        status: "open",
        total_price: new Prisma.Decimal(quantity * price),
        created_at: lastMonth,
        items: { create: [{ id: `gid://shopify/LineItem/88${n}`, product_id: pgid(product), vendor_id: vendorId, title: "Item", quantity, price: new Prisma.Decimal(price), created_at: lastMonth }] },
      },
    });
  await sale(1, A.id, 8101, 2, 100);
  await sale(2, B.id, 8201, 1, 80);
});
afterAll(() => app?.close());

describe("navigation", () => {
  it("gives vendors their five pages and admins with vendors.manage the vendors list", () => {
    expect(navigationFor({ role: "VENDOR", permissions: [] }).map((n) => n.url)).toEqual(["/app/vendor", "/app/vendor/products", "/app/vendor/stores", "/app/vendor/payouts", "/app/vendor/ads", "/app/vendor/socials"]);
    expect(navigationFor({ role: "ADMIN", permissions: ["vendors.manage"] }).map((n) => n.url)).toContain("/app/vendors");
    expect(navigationFor({ role: "ADMIN", permissions: ["orders.manage"] }).map((n) => n.url)).not.toContain("/app/vendors");
  });
});

describe("vendor home", () => {
  const load = (query: string, token: string | null) => home.loader(args(`/app/vendor${query}`, token));
  const render = (query: string, data: object) => renderRoute({ id: "routes/app.vendor", path: "/app/vendor", url: `/app/vendor${query}`, data, Component: home.default });

  it("shows the vendor's own KPIs over the last 7 days against the 7 days before", async () => {
    const d = await load("?days=7", vendorA.token);
    expect(d.error).toBeNull();
    expect(d.scope).toEqual({ vendorId: A.id, base: "/app/vendor", asAdmin: false });
    expect(d.range).toEqual({ preset: "7", from: addDays(today(), -6), to: today() });
    expect(d.summary?.totals).toMatchObject({ views: 30, saves: 2, tryOns: 4, orders: 2, units: 3, revenue: "225.00", returnedUnits: 1, returnRate: 0.3333, conversion: 0.0667 });
    expect(d.summary?.compare?.totals).toMatchObject({ views: 5, orders: 1, units: 1, revenue: "75.00" });
    expect(d.summary?.daily).toHaveLength(7);
    expect(d.top?.items.map((p) => [p.title, p.measures.revenue])).toEqual([["Aster Linen Dress", "225.00"]]);
    const html = await render("?days=7", d);
    expect(html).toContain("Atelier Aster");
    expect(html).toContain("Commission 12.50%");
    expect([kpi(html, "revenue"), kpi(html, "orders"), kpi(html, "units"), kpi(html, "views"), kpi(html, "tryOns"), kpi(html, "conversion"), kpi(html, "returnRate")]).toEqual([
      "$225.00",
      "2",
      "3",
      "30",
      "4",
      "6.7%",
      "33.3%",
    ]);
    expect([kpi(html, "revenue-change"), kpi(html, "orders-change"), kpi(html, "views-change"), kpi(html, "tryOns-change")]).toEqual(["+200.0%", "+100.0%", "+500.0%", "New"]);
    expect(html).toContain('data-testid="chart-vendor-daily"');
    expect(html).not.toContain("Brume");
  });

  it("answers zeros for a range without activity, and the API's message for a refused range", async () => {
    const empty = await load(`?from=${addDays(today(), -60)}&to=${addDays(today(), -50)}`, vendorA.token);
    expect(empty.error).toBeNull();
    expect(empty.summary?.totals).toMatchObject({ views: 0, orders: 0, revenue: "0.00" });
    expect(await render(`?from=${addDays(today(), -60)}&to=${addDays(today(), -50)}`, empty)).toContain('data-testid="analytics-empty"');
    const refused = await load(`?from=${today()}&to=${addDays(today(), -3)}`, vendorA.token);
    expect(refused.summary).toBeNull();
    expect(refused.error).toContain("from: must not be after to");
    expect(await render(`?from=${today()}&to=${addDays(today(), -3)}`, refused)).toContain('data-testid="analytics-error"');
  });

  it("shows another vendor its own figures only", async () => {
    const d = await load("?days=7", vendorB.token);
    expect(d.summary?.totals).toMatchObject({ views: 99, revenue: "700.00" });
    expect(JSON.stringify(d)).not.toContain("Aster");
  });

  it("is for vendor accounts: an admin is refused, a shopper sent away, signed out to the login", async () => {
    expect(await refusal(load("", admin.token))).toBe(403);
    const away = await thrownResponse(load("", shopper.token));
    expect(away.status).toBe(302);
    expect(away.headers.get("location")).not.toContain("/app/vendor");
    expect(await refusal(load("", null))).toBe("login");
  });
});

describe("vendor products", () => {
  const load = (query: string, token: string | null) => products.loader(args(`/app/vendor/products${query}`, token));
  const render = (query: string, data: object) => renderRoute({ id: "routes/app.vendor_.products", path: "/app/vendor/products", url: `/app/vendor/products${query}`, data, Component: products.default });

  it("lists every product of the vendor with its measures, by revenue", async () => {
    const d = await load("?days=7", vendorA.token);
    expect(d.error).toBeNull();
    expect(d.performance?.items.map((p) => [p.title, p.status, p.measures.views, p.measures.units, p.measures.revenue])).toEqual([
      ["Aster Linen Dress", "active", 20, 3, "225.00"],
      ["Aster Silk Scarf", "active", 10, 0, "0.00"],
      ["Aster Wool Cape", "draft", 0, 0, "0.00"],
    ]);
    const html = await render("?days=7", d);
    expect(html).toContain("Aster Linen Dress");
    expect(html).toContain("$225.00");
    expect(html).toContain("33.3%");
    expect(html).not.toContain("Brume");
  });

  it("searches, sorts and filters by status", async () => {
    expect((await load("?days=7&q=scarf", vendorA.token)).performance?.items.map((p) => p.title)).toEqual(["Aster Silk Scarf"]);
    expect((await load("?days=7&sort=views&order=asc", vendorA.token)).performance?.items.map((p) => p.title)).toEqual(["Aster Wool Cape", "Aster Silk Scarf", "Aster Linen Dress"]);
    expect((await load("?days=7&status=draft", vendorA.token)).performance?.items.map((p) => p.title)).toEqual(["Aster Wool Cape"]);
    expect((await load("?days=7&status=archived", vendorA.token)).performance?.items).toEqual([]);
  });

  it("pages with the API's cursor, the trail leading back; a status filter fills its page across the API's pages", async () => {
    // Cirrus: 30 products, product k earning k × 10.00 (so revenue order is k descending), every third one a draft.
    const db = app.database.db;
    const C = await db.vendor.create({ data: { name: "Cirrus Co", handle: "cirrus-co" } });
    const user = await app.createUser({ role: "VENDOR", vendorId: C.id });
    for (let k = 1; k <= 30; k++) {
      await createProduct(db, { n: 8300 + k, title: `Cirrus Piece ${String(k).padStart(2, "0")}`, status: k % 3 === 0 ? "draft" : "active", vendorId: C.id, images: 0, companion: false });
      await bumpProductDay(db, { productId: pgid(8300 + k), at: noon(1), vendorId: C.id, delta: { views: 1, orders: 1, units: 1, revenue: (k * 10).toFixed(2) }, timeZone: "UTC" });
    }
    const titles = (d: { performance: { items: { title: string }[] } | null }) => d.performance?.items.map((p) => p.title.slice(-2));
    const first = await load("?days=7", user.token);
    expect(first.performance?.total).toBe(30);
    expect(titles(first)).toEqual(Array.from({ length: 25 }, (_, i) => String(30 - i).padStart(2, "0")));
    expect(first.cursor).toBeNull();
    const next = first.performance?.nextCursor;
    expect(next).toBeTruthy();
    const second = await load(`?days=7&cursor=${next}&trail=`, user.token);
    expect(titles(second)).toEqual(["05", "04", "03", "02", "01"]);
    expect(second.performance?.nextCursor).toBeNull();
    expect([second.cursor, second.trail]).toEqual([next, [""]]);
    const html = await render(`?days=7&cursor=${next}&trail=`, second);
    expect(html).toContain("Cirrus Piece 05");
    // The 20 active ones, by revenue: more than the first API page holds, assembled from two calls.
    const active = await load("?days=7&status=active", user.token);
    expect(titles(active)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i).filter((k) => k % 3 !== 0).map((k) => String(k).padStart(2, "0")));
    expect(active.performance?.nextCursor).toBeNull();
    expect(titles(await load("?days=7&status=draft", user.token))).toEqual(["30", "27", "24", "21", "18", "15", "12", "09", "06", "03"]);
  });

  it("is for vendor accounts", async () => {
    expect(await refusal(load("", admin.token))).toBe(403);
    expect((await thrownResponse(load("", shopper.token))).status).toBe(302);
  });
});

describe("admins' view of a vendor", () => {
  const loadHome = (id: string, query: string, token: string | null) => home.loader(args(`/app/vendors/${encodeURIComponent(id)}${query}`, token, { id }));
  const loadProducts = (id: string, token: string | null) => products.loader(args(`/app/vendors/${encodeURIComponent(id)}/products?days=7`, token, { id }));

  it("opens the same home and products for any vendor", async () => {
    const d = await loadHome(A.id, "?days=7", admin.token);
    expect(d.scope).toEqual({ vendorId: A.id, base: `/app/vendors/${A.id}`, asAdmin: true });
    expect(d.summary?.totals).toMatchObject({ views: 30, revenue: "225.00" });
    expect((await loadProducts(A.id, admin.token)).performance?.items.map((p) => p.title)).toEqual(["Aster Linen Dress", "Aster Silk Scarf", "Aster Wool Cape"]);
    expect((await loadHome(B.id, "?days=7", admin.token)).summary?.totals).toMatchObject({ views: 99 });
  });

  it("refuses another vendor (403), an admin without vendors.manage (403) and a shopper; an unknown vendor is 404", async () => {
    expect(await refusal(loadHome(A.id, "", vendorB.token))).toBe(403);
    expect(await refusal(loadProducts(A.id, vendorB.token))).toBe(403);
    expect(await refusal(loadHome(A.id, "", adminNoPerm.token))).toBe(403);
    expect((await thrownResponse(loadHome(A.id, "", shopper.token))).status).toBe(302);
    expect(await refusal(loadHome("no-such-vendor", "", admin.token))).toBe(404);
  });
});

describe("stores", () => {
  it("shows the vendor its own stores, and admins any vendor's", async () => {
    const own = await stores.loader(args("/app/vendor/stores", vendorA.token));
    expect(own.stores.map((s) => [s.name, s.productCount])).toEqual([["Aster Womenswear", 2]]);
    const html = await renderRoute({ id: "routes/app.vendor_.stores", path: "/app/vendor/stores", url: "/app/vendor/stores", data: own, Component: stores.default });
    expect(html).toContain("Aster Womenswear");
    expect(html).not.toContain("Brume");
    const asAdmin = await stores.loader(args(`/app/vendors/${B.id}/stores`, admin.token, { id: B.id }));
    expect(asAdmin.stores.map((s) => s.name)).toEqual(["Brume Everyday"]);
    expect(await refusal(stores.loader(args(`/app/vendors/${A.id}/stores`, vendorB.token, { id: A.id })))).toBe(403);
    expect((await thrownResponse(stores.loader(args("/app/vendor/stores", shopper.token)))).status).toBe(302);
  });
});

describe("product status change", () => {
  const post = (token: string | null, fields: Record<string, string>, path = "/app/vendor/products", params: Record<string, string> = {}) =>
    products.action({ request: staffForm(path, token, { intent: "status", ...fields }), params, context: {} });

  it("sets the vendor's own product to draft", async () => {
    const r = await post(vendorA.token, { id: pgid(8102), status: "draft" });
    expect(r).toEqual({ ok: true, intent: "status", message: "“Aster Silk Scarf” is draft now." });
    expect((await app.database.db.product.findUnique({ where: { id: pgid(8102) } }))?.status).toBe("draft");
    const d = await products.loader(args("/app/vendor/products?days=7&status=draft", vendorA.token));
    expect(d.performance?.items.map((p) => p.title)).toEqual(["Aster Silk Scarf", "Aster Wool Cape"]);
  });

  it("refuses another vendor's product as not found, a bad status, and answers the store's refusal", async () => {
    expect(await post(vendorA.token, { id: pgid(8201), status: "draft" })).toEqual({ ok: false, intent: "status", error: "Product not found" });
    expect((await app.database.db.product.findUnique({ where: { id: pgid(8201) } }))?.status).toBe("active");
    const bad = await post(vendorA.token, { id: pgid(8101), status: "deleted" });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toContain("status");
    const commerce = app.ctx.commerce;
    const original = commerce.setProductStatus;
    commerce.setProductStatus = async () => {
      throw new CommerceError("Product can't be archived while it is in a running drop", [{ field: ["status"], message: "in a drop" }], 422);
    };
    try {
      expect(await post(vendorA.token, { id: pgid(8101), status: "archived" })).toEqual({ ok: false, intent: "status", error: "Product can't be archived while it is in a running drop" });
    } finally {
      commerce.setProductStatus = original;
    }
    expect((await app.database.db.product.findUnique({ where: { id: pgid(8101) } }))?.status).toBe("active");
  });

  it("admins with vendors.manage change it from their view of the vendor (the page offers it); refused elsewhere", async () => {
    const adminProducts = await import("../../app/routes/app.vendors_.$id_.products");
    const adminPost = (token: string | null, id: string, fields: Record<string, string>) =>
      adminProducts.action({ request: staffForm(`/app/vendors/${id}/products`, token, { intent: "status", ...fields }), params: { id }, context: {} });
    const view = await adminProducts.loader(args(`/app/vendors/${A.id}/products?days=7`, admin.token, { id: A.id }));
    const html = await renderRoute({ id: "routes/app.vendors_.$id_.products", path: "/app/vendors/:id/products", url: `/app/vendors/${A.id}/products?days=7`, data: view, Component: adminProducts.default });
    expect(html.match(/<select/g)?.length ?? 0).toBeGreaterThanOrEqual(view.performance?.items.length ?? 99);
    expect(await adminPost(admin.token, A.id, { id: pgid(8101), status: "draft" })).toEqual({ ok: true, intent: "status", message: "“Aster Linen Dress” is draft now." });
    expect((await app.database.db.product.findUnique({ where: { id: pgid(8101) } }))?.status).toBe("draft");
    expect(await adminPost(admin.token, A.id, { id: pgid(8101), status: "active" })).toMatchObject({ ok: true });
    // A's product through B's page is not B's.
    expect(await adminPost(admin.token, B.id, { id: pgid(8101), status: "draft" })).toEqual({ ok: false, intent: "status", error: "Product not found" });
    expect(await refusal(adminPost(vendorB.token, A.id, { id: pgid(8101), status: "draft" }))).toBe(403);
    expect(await refusal(adminPost(adminNoPerm.token, A.id, { id: pgid(8101), status: "draft" }))).toBe(403);
    expect((await thrownResponse(post(shopper.token, { id: pgid(8101), status: "draft" }))).status).toBe(302);
    expect((await app.database.db.product.findUnique({ where: { id: pgid(8101) } }))?.status).toBe("active");
  });
});

describe("payouts, commission and mark paid", () => {
  const lastMonth = () => {
    const d = new Date();
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  };
  const adminPost = (path: string, fields: Record<string, string>, token: string | null = admin.token) =>
    adminPayouts.action({ request: staffForm(path, token, fields), params: { id: A.id }, context: {} });

  it("shows the vendor its periods: last month pending at its rate, this month open", async () => {
    const d = await payouts.loader(args("/app/vendor/payouts", vendorA.token));
    expect(d.error).toBeNull();
    const closed = d.payouts?.items.find((p) => p.period === lastMonth());
    expect(closed).toMatchObject({ status: "pending", gross: "200.00", commissionRate: "12.50", commission: "25.00", net: "175.00", paid_at: null });
    expect(d.payouts?.items[0]).toMatchObject({ status: "open", id: null });
    const html = await renderRoute({ id: "routes/app.vendor_.payouts", path: "/app/vendor/payouts", url: "/app/vendor/payouts", data: d, Component: payouts.default });
    expect(html).toContain("$175.00");
    expect(html).toContain('data-testid="chart-payouts-net"');
    expect(html).toContain("Download CSV");
    expect(html).not.toContain("Mark paid");
    expect(JSON.stringify(d)).not.toContain("80.00");
  });

  it("shows the months picked (vendor and admin), the CSV following them; a refused range shows the API's message", async () => {
    const m = lastMonth();
    const d = await payouts.loader(args(`/app/vendor/payouts?from=${m}&to=${m}`, vendorA.token));
    expect([d.error, d.range, d.payouts?.from, d.payouts?.to, d.payouts?.items.map((p) => p.period)]).toEqual([null, { from: m, to: m }, m, m, [m]]);
    const html = await renderRoute({ id: "routes/app.vendor_.payouts", path: "/app/vendor/payouts", url: `/app/vendor/payouts?from=${m}&to=${m}`, data: d, Component: payouts.default });
    expect(html).toContain(`data-csv-url="/app/vendor/payouts/csv?from=${m}&amp;to=${m}"`);
    expect(html).toMatch(new RegExp(`name="from"[^>]*value="${m}"|value="${m}"[^>]*name="from"`));
    expect(html).toContain("From month");
    const res = await csv.loader(args(`/app/vendor/payouts/csv?from=${m}&to=${m}`, vendorA.token));
    const rows = (await res.text()).trim().split("\r\n");
    expect([rows.length, rows[1]?.startsWith(`${m},`)]).toEqual([2, true]);
    // No months asked: the fields show the range the answer covers (the last 12 months), the CSV the same.
    const plain = await payouts.loader(args("/app/vendor/payouts", vendorA.token));
    expect(plain.range).toEqual({ from: "", to: "" });
    const plainHtml = await renderRoute({ id: "routes/app.vendor_.payouts", path: "/app/vendor/payouts", url: "/app/vendor/payouts", data: plain, Component: payouts.default });
    expect(plainHtml).toContain(`data-csv-url="/app/vendor/payouts/csv?from=${plain.payouts?.from}&amp;to=${plain.payouts?.to}"`);
    const asAdmin = await adminPayouts.loader(args(`/app/vendors/${A.id}/payouts?from=${m}&to=${m}`, admin.token, { id: A.id }));
    expect(asAdmin.payouts?.items.map((p) => [p.period, p.net])).toEqual([[m, "175.00"]]);
    const adminHtml = await renderRoute({ id: "routes/app.vendors_.$id_.payouts", path: "/app/vendors/:id/payouts", url: `/app/vendors/${A.id}/payouts?from=${m}&to=${m}`, data: asAdmin, Component: adminPayouts.default });
    expect(adminHtml).toContain(`data-csv-url="/app/vendors/${A.id}/payouts/csv?from=${m}&amp;to=${m}"`);
    const refused = await payouts.loader(args(`/app/vendor/payouts?from=2026-05&to=2026-01`, vendorA.token));
    expect([refused.payouts, refused.range]).toEqual([null, { from: "2026-05", to: "2026-01" }]);
    expect(refused.error).toContain("must not be after to");
  });

  it("downloads the payouts as CSV; another vendor cannot download A's", async () => {
    const res = await csv.loader(args("/app/vendor/payouts/csv", vendorA.token));
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="payouts-\d{4}-\d{2}-\d{4}-\d{2}\.csv"$/);
    const text = await res.text();
    expect(text.split("\r\n")[0]).toBe("period,period_start,period_end,status,gross,refunds,returns,returned_units,units,commission_rate,commission,net,currency,paid_at,reference");
    expect(text).toContain(`${lastMonth()},`);
    expect(text).toContain(",175.00,");
    const adminCsv = await import("../../app/routes/app.vendors_.$id_.payouts_.csv");
    const asAdmin = await adminCsv.loader(args(`/app/vendors/${A.id}/payouts/csv`, admin.token, { id: A.id }));
    expect(await asAdmin.text()).toBe(text);
    expect(await refusal(adminCsv.loader(args(`/app/vendors/${A.id}/payouts/csv`, vendorB.token, { id: A.id })))).toBe(403);
    expect(await refusal(adminCsv.loader(args(`/app/vendors/${A.id}/payouts/csv`, adminNoPerm.token, { id: A.id })))).toBe(403);
  });

  it("lets an admin mark a pending payout paid with a reference, once; the vendor sees it paid", async () => {
    const view = await adminPayouts.loader(args(`/app/vendors/${A.id}/payouts`, admin.token, { id: A.id }));
    const pending = view.payouts?.items.find((p) => p.status === "pending");
    expect(pending?.id).toBeTruthy();
    const html = await renderRoute({ id: "routes/app.vendors_.$id_.payouts", path: "/app/vendors/:id/payouts", url: `/app/vendors/${A.id}/payouts`, data: view, Component: adminPayouts.default });
    expect(html).toContain("Mark paid");
    expect(html).toContain("Atelier Aster · Payouts");

    const empty = await adminPost(`/app/vendors/${A.id}/payouts`, { intent: "mark-paid", id: pending!.id!, reference: "  " });
    expect(empty).toMatchObject({ ok: false, intent: "mark-paid" });
    expect(!empty.ok && empty.error).toContain("A reference is required");
    // Another vendor and an admin without vendors.manage are refused before anything is read.
    expect(await refusal(adminPost(`/app/vendors/${A.id}/payouts`, { intent: "mark-paid", id: pending!.id!, reference: "TR-1" }, vendorB.token))).toBe(403);
    expect(await refusal(adminPost(`/app/vendors/${A.id}/payouts`, { intent: "mark-paid", id: pending!.id!, reference: "TR-1" }, adminNoPerm.token))).toBe(403);

    expect(await adminPost(`/app/vendors/${A.id}/payouts`, { intent: "mark-paid", id: pending!.id!, reference: "TR-1" })).toEqual({
      ok: true,
      intent: "mark-paid",
      message: `Payout of ${lastMonth()} marked paid (reference TR-1).`,
    });
    const again = await adminPost(`/app/vendors/${A.id}/payouts`, { intent: "mark-paid", id: pending!.id!, reference: "TR-2" });
    expect(again).toMatchObject({ ok: false, intent: "mark-paid" });
    expect(!again.ok && again.error).toContain("already paid");

    const seen = await payouts.loader(args("/app/vendor/payouts", vendorA.token));
    expect(seen.payouts?.items.find((p) => p.period === lastMonth())).toMatchObject({ status: "paid", reference: "TR-1", net: "175.00" });
    expect(seen.payouts?.totals).toMatchObject({ paid: "175.00", pending: "0.00" });
  });

  it("lets an admin set the commission rate (closed periods keep theirs); refuses a bad rate and anyone else", async () => {
    const post = (fields: Record<string, string>, token: string | null = admin.token, id = A.id) =>
      adminHome.action({ request: staffForm(`/app/vendors/${id}`, token, { intent: "commission", ...fields }), params: { id }, context: {} });
    const bad = await post({ commission_rate: "150" });
    expect(bad).toMatchObject({ ok: false, intent: "commission" });
    expect(!bad.ok && bad.error).toContain("must be between 0 and 100");
    expect(await refusal(post({ commission_rate: "5" }, vendorB.token))).toBe(403);
    expect(await refusal(post({ commission_rate: "5" }, adminNoPerm.token))).toBe(403);
    // The vendor's own home has no admin action.
    expect(await home.action({ request: staffForm("/app/vendor", vendorA.token, { intent: "commission", commission_rate: "5" }), params: {}, context: {} })).toMatchObject({
      ok: false,
      error: "This action is for admins",
    });

    expect(await post({ commission_rate: "10" })).toEqual({ ok: true, intent: "commission", message: "Commission rate set to 10.00%. Periods not yet closed use it." });
    const d = await home.loader(args("/app/vendor?days=7", vendorA.token));
    expect(d.vendor.commission_rate).toBe("10.00");
    const seen = await payouts.loader(args("/app/vendor/payouts", vendorA.token));
    expect(seen.payouts?.items.find((p) => p.period === lastMonth())).toMatchObject({ commissionRate: "12.50", net: "175.00" });
    expect(seen.payouts?.items[0]).toMatchObject({ status: "open", commissionRate: "10.00" });
    const html = await renderRoute({ id: "routes/app.vendors_.$id", path: "/app/vendors/:id", url: `/app/vendors/${A.id}`, data: await adminHome.loader(args(`/app/vendors/${A.id}`, admin.token, { id: A.id })), Component: adminHome.default });
    expect(html).toContain("Commission 10.00%");
    expect(html).toContain("Commission rate");
  });
});

describe("admin vendors list", () => {
  const load = (query: string, token: string | null) => vendors.loader(args(`/app/vendors${query}`, token));

  it("lists vendors with their counts, searches, and links each to its pages", async () => {
    const d = await load("", admin.token);
    expect(d.list?.items.map((v) => v.name)).toEqual(["Atelier Aster", "Brume Basics", "Cirrus Co"]);
    expect(d.list?.items[0]).toMatchObject({ storeCount: 1, productCounts: { active: 1, draft: 2, archived: 0 } });
    expect((await load("?q=brume", admin.token)).list?.items.map((v) => v.name)).toEqual(["Brume Basics"]);
    const html = await renderRoute({ id: "routes/app.vendors", path: "/app/vendors", url: "/app/vendors", data: d, Component: vendors.default });
    expect(html).toContain(`href="/app/vendors/${A.id}"`);
    expect(html).toContain("Brume Basics");
  });

  it("needs vendors.manage: other admins 403, vendors 403, shoppers sent away", async () => {
    expect(await refusal(load("", adminNoPerm.token))).toBe(403);
    expect(await refusal(load("", vendorA.token))).toBe(403);
    expect((await thrownResponse(load("", shopper.token))).status).toBe(302);
    expect(await refusal(load("", null))).toBe("login");
  });
});
