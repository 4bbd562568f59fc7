/**
 * The staff home pages in local mode, through their loaders: the /app layout (who is signed in and
 * the navigation per role and permission), the admin dashboard (app/routes/app._index.tsx: counts,
 * active products by gender, system health; vendors are sent to their own page) and the vendor
 * home (app/routes/app.vendor.tsx: only the caller's vendor — another vendor's data never shows;
 * its figures in vendor-screens.test.ts). Guards: signed out or a shopper → login, an admin on the vendor page
 * → 403, a vendor user without a vendor → 403. Each page server-rendered with Polaris.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { PermissionNames } from "../../app/contract/permissions";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffRequest as req, thrownResponse as thrown } from "../helpers/route";
import { createProduct } from "./products-fixtures";

type LayoutRoute = typeof import("../../app/routes/app");
type DashboardRoute = typeof import("../../app/routes/app._index");
type VendorRoute = typeof import("../../app/routes/app.vendor");
let layout: LayoutRoute;
let dashboard: DashboardRoute;
let vendorPage: VendorRoute;
let app: TestApp;
type Caller = { id: string; token: string; email: string | null };
let owner: Caller;
let mediaAdmin: Caller;
let bareAdmin: Caller;
let nordUser: Caller;
let bazaarUser: Caller;
let orphanVendor: Caller;
let shopper: Caller;
let nord: { id: string };
let bazaar: { id: string };

const args = (path: string, token: string | null) => ({ request: req(path, token), params: {}, context: {} });
const loadLayout = (token: string | null) => layout.loader(args("/app", token));
const loadDashboard = (token: string | null) => dashboard.loader(args("/app", token));
const loadVendor = (token: string | null) => vendorPage.loader(args("/app/vendor", token));
const urls = (nav: { url: string }[]) => nav.map((n) => n.url);

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  layout = await import("../../app/routes/app");
  dashboard = await import("../../app/routes/app._index");
  vendorPage = await import("../../app/routes/app.vendor");
  const db = app.database.db;

  nord = await db.vendor.create({ data: { name: "Atelier Nord", handle: "atelier-nord", commission_rate: 12.5 } });
  bazaar = await db.vendor.create({ data: { name: "Bazaar Basics", handle: "bazaar-basics" } });
  const nordMen = await db.store.create({ data: { name: "Nord Menswear", handle: "nord-menswear", target_gender: "menswear", vendor_id: nord.id } });
  const nordWomen = await db.store.create({ data: { name: "Nord Womenswear", handle: "nord-womenswear", target_gender: "womenswear", vendor_id: nord.id } });
  const bazaarStore = await db.store.create({ data: { name: "Bazaar Everyday", handle: "bazaar-everyday", target_gender: "both", vendor_id: bazaar.id } });
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
  await createProduct(db, { n: 7101, title: "Nord Wool Overshirt", gender: "menswear", price: 120, storeId: nordMen.id, vendorId: nord.id, createdAt: at(1) });
  await createProduct(db, { n: 7102, title: "Nord Cord Trousers", gender: "menswear", price: 90, storeId: nordMen.id, vendorId: nord.id, createdAt: at(2) });
  await createProduct(db, { n: 7103, title: "Nord Pleated Skirt", gender: "womenswear", status: "draft", storeId: nordWomen.id, vendorId: nord.id, createdAt: at(3), images: 0 });
  await createProduct(db, { n: 7201, title: "Bazaar Canvas Tote", gender: "both", storeId: bazaarStore.id, vendorId: bazaar.id, createdAt: at(4) });
  await createProduct(db, { n: 7202, title: "Bazaar Basic Tee", gender: "both", storeId: bazaarStore.id, vendorId: bazaar.id, createdAt: at(5) });
  await db.collection.create({ data: { title: "Autumn edit", handle: "autumn-edit" } });
  await db.review.create({ data: { rating: 5, body: "Lovely", name: "Ann", product_id: "gid://shopify/Product/7101", status: "pending" } });
  await db.review.create({ data: { rating: 4, body: "Good", name: "Bob", product_id: "gid://shopify/Product/7201", status: "published" } });
  await db.order.create({ data: { id: "gid://shopify/Order/1", name: "#1001", total_price: 120 } });

  owner = await app.createUser({ role: "ADMIN", permissions: [...PermissionNames], email: "owner@staff.test", firstName: "Olga" });
  mediaAdmin = await app.createUser({ role: "ADMIN", permissions: ["media.manage"], email: "media@staff.test" });
  bareAdmin = await app.createUser({ role: "ADMIN", permissions: [], email: "bare@staff.test" });
  nordUser = await app.createUser({ role: "VENDOR", vendorId: nord.id, email: "nord@staff.test", firstName: "Nils" });
  bazaarUser = await app.createUser({ role: "VENDOR", vendorId: bazaar.id, email: "bazaar@staff.test" });
  orphanVendor = await app.createUser({ role: "VENDOR", vendorId: null, email: "orphan@staff.test" });
  shopper = await app.createUser({ role: "SHOPPER", email: "shopper@example.test" });
  await app.createUser({ authProvider: "guest" });
});
afterAll(() => app?.close());

describe("the /app layout", () => {
  it("sends signed-out visitors and shoppers to the login, keeping where they were going", async () => {
    for (const token of [null, shopper.token, "not-a-token"]) {
      const res = await thrown(layout.loader(args("/app/vendor?tab=1", token)));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fvendor%3Ftab%3D1");
    }
  });

  it("gives an admin with every permission every admin area, the vendor page excepted", async () => {
    const data = await loadLayout(owner.token);
    expect(data).toMatchObject({ embedded: false, user: { email: "owner@staff.test", name: "Olga", role: "ADMIN" } });
    const nav = urls(data.nav);
    expect(nav[0]).toBe("/app");
    for (const url of ["/app/admins", "/app/products", "/app/import", "/app/stores", "/app/collections", "/app/media", "/app/proposed-images", "/app/sync", "/app/reviews", "/app/api-keys"]) expect(nav).toContain(url);
    expect(nav).not.toContain("/app/vendor");
    expect(new Set(nav).size).toBe(nav.length);
  });

  it("narrows the admin navigation to the permissions held", async () => {
    expect(urls((await loadLayout(mediaAdmin.token)).nav)).toEqual(["/app", "/app/media", "/app/uploads", "/app/proposed-images", "/app/proposed-edits"]);
    const bare = await loadLayout(bareAdmin.token);
    expect(urls(bare.nav)).toEqual(["/app"]);
    // No name on record: the email stands in.
    expect(bare.user).toEqual({ email: "bare@staff.test", name: "bare@staff.test", role: "ADMIN" });
  });

  it("gives a vendor only their vendor pages", async () => {
    const data = await loadLayout(nordUser.token);
    expect(urls(data.nav)).toEqual(["/app/vendor", "/app/vendor/products", "/app/vendor/stores", "/app/vendor/payouts", "/app/vendor/ads", "/app/vendor/socials"]);
    expect(data.user).toEqual({ email: "nord@staff.test", name: "Nils", role: "VENDOR" });
  });

  it("renders the local frame with the navigation of the signed-in staff member", async () => {
    const html = await renderRoute({ id: "routes/app", path: "/app", url: "/app", data: await loadLayout(mediaAdmin.token), Component: layout.default });
    expect(html).toContain("Signed in as media@staff.test");
    expect(html).toContain("Internal media");
    expect(html).toContain("Proposed images");
    expect(html).not.toContain("Admin users");
    expect(html).toContain("Sign out");
    const vendorHtml = await renderRoute({ id: "routes/app", path: "/app", url: "/app", data: await loadLayout(nordUser.token), Component: layout.default });
    expect(vendorHtml).toContain("Payouts");
    expect(vendorHtml).not.toContain("Dashboard");
  });
});

describe("the admin dashboard", () => {
  it("is for signed-in admins: login otherwise, vendors go to their own page", async () => {
    const out = await thrown(loadDashboard(null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp");
    expect((await thrown(loadDashboard(shopper.token))).headers.get("location")).toBe("/app/login?next=%2Fapp");
    for (const token of [nordUser.token, orphanVendor.token]) {
      const res = await thrown(loadDashboard(token));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/app/vendor");
    }
  });

  it("counts the catalogue, people, orders and reviews for any admin", async () => {
    // Guests and leads (an email for notifications, no account) are not registered shoppers.
    await app.database.db.user.createMany({ data: [{ role: "SHOPPER", auth_provider: "guest" }, { role: "SHOPPER", auth_provider: "lead", email: "lead@shopper.test" }] });
    const data = await loadDashboard(bareAdmin.token);
    expect(data.overview.counts).toEqual({ products: 5, activeProducts: 4, stores: 3, vendors: 2, orders: 1, shoppers: 1, pendingReviews: 1, collections: 1 });
    expect(data.overview.productsByGender).toEqual({ menswear: 2, both: 2 });
    expect(data.health).toMatchObject({ status: "degraded", mode: "local", database: { ok: true }, storage: { ok: true }, worker: { ok: false, lastSeenAt: null, detail: "never started" } });
    expect((await loadDashboard(owner.token)).overview).toEqual(data.overview);
  });

  it("renders the counts, the gender chart and the system state", async () => {
    const html = await renderRoute({ id: "routes/app._index", path: "/app", url: "/app", data: await loadDashboard(owner.token), Component: dashboard.default });
    expect(html).toContain("Dashboard");
    expect(html).toContain('data-testid="stat-activeProducts">4<');
    expect(html).toContain('data-testid="stat-stores">3<');
    expect(html).toContain('data-testid="stat-vendors">2<');
    expect(html).toContain('data-testid="stat-shoppers">1<');
    expect(html).toContain('data-testid="stat-pendingReviews">1<');
    expect(html).toContain("Reviews awaiting moderation");
    expect(html).toContain('aria-label="Menswear: 2, Womenswear: 0, Both: 2"');
    expect(html).toContain("never started");
    expect(html).toContain("Down");
    expect(html).toContain("Mode: local");
  });

  it("shows the worker running once it has a fresh heartbeat", async () => {
    await app.database.db.workerHeartbeat.upsert({ where: { id: "worker" }, create: { id: "worker", last_seen_at: new Date() }, update: { last_seen_at: new Date() } });
    const data = await loadDashboard(owner.token);
    expect(data.health).toMatchObject({ status: "ok", worker: { ok: true, detail: "running" } });
    const html = await renderRoute({ id: "routes/app._index", path: "/app", url: "/app", data, Component: dashboard.default });
    expect(html).toContain("running");
    expect(html).not.toContain(">Down<");
  });
});

describe("the vendor page", () => {
  it("is for vendor accounts: login when signed out, 403 for admins and for a vendor user without a vendor", async () => {
    const out = await thrown(loadVendor(null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fvendor");
    expect((await thrown(loadVendor(shopper.token))).status).toBe(302);
    for (const token of [owner.token, bareAdmin.token, orphanVendor.token]) {
      const res = await thrown(loadVendor(token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ staffError: "This page is for vendor accounts" });
    }
  });

  it("shows only the caller's vendor (the home's figures are tested in vendor-screens.test.ts)", async () => {
    const data = await loadVendor(nordUser.token);
    expect(data.vendor).toMatchObject({ id: nord.id, name: "Atelier Nord", handle: "atelier-nord", commission_rate: "12.50", storeCount: 2, productCount: 3 });
    expect(data.scope).toEqual({ vendorId: nord.id, base: "/app/vendor", asAdmin: false });
    expect(JSON.stringify(data)).not.toMatch(/Bazaar/);
    const other = await loadVendor(bazaarUser.token);
    expect(other.vendor.name).toBe("Bazaar Basics");
    expect(JSON.stringify(other)).not.toMatch(/Nord/);
  });

  it("renders the vendor's own page without the other vendor's data", async () => {
    const render = async (token: string) => renderRoute({ id: "routes/app.vendor", path: "/app/vendor", url: "/app/vendor", data: await loadVendor(token), Component: vendorPage.default });
    const html = await render(nordUser.token);
    expect(html).toContain("Atelier Nord");
    expect(html).toContain("Commission 12.50%");
    expect(html).not.toContain("Bazaar");
    const other = await render(bazaarUser.token);
    expect(other).toContain("Bazaar Basics");
    expect(other).not.toContain("Nord");
  });

  it("renders a vendor without stores or products (every figure zero)", async () => {
    const empty = await app.database.db.vendor.create({ data: { name: "Cove Studio", handle: "cove-studio" } });
    const user = await app.createUser({ role: "VENDOR", vendorId: empty.id });
    const data = await loadVendor(user.token);
    expect(data).toMatchObject({ vendor: { name: "Cove Studio", commission_rate: "15.00", storeCount: 0, productCount: 0 }, error: null });
    expect(data.summary?.totals).toMatchObject({ views: 0, orders: 0, revenue: "0.00" });
    const html = await renderRoute({ id: "routes/app.vendor", path: "/app/vendor", url: "/app/vendor", data, Component: vendorPage.default });
    expect(html).toContain("Cove Studio");
    expect(html).toContain('data-testid="analytics-empty"');
    expect(html).not.toContain("Nord");
    expect(html).not.toContain("Bazaar");
  });
});
