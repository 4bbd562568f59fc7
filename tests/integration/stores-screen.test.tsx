/**
 * The Stores admin screens (app/routes/app.stores.tsx and app.stores.$id.tsx) through their loaders
 * and actions in local mode: the catalog.edit guard (signed out, other admins, vendors), the list
 * with search, gender filter and pages, every list action (create, update, delete with and
 * without force), the detail with its product picker and every detail action (rename, size
 * recommendation, featured products), and both pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetGender } from "../../app/contract/common";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";

type ListRoute = typeof import("../../app/routes/app.stores");
type DetailRoute = typeof import("../../app/routes/app.stores.$id");
let list: ListRoute;
let detail: DetailRoute;
let app: TestApp;
let editor: { token: string };
let importer: { token: string };
let vendorUser: { token: string };
let vendorA: string;
let vendorB: string;
const s: Record<string, string> = {};
const gid = (n: number) => `gid://shopify/Product/${n}`;

async function loadList(query = "", token: string | null = editor.token) {
  const data = await list.loader({ request: req(`/app/stores${query}`, token), params: {}, context: {} });
  if (!data.list) throw new Error("no list in the answer");
  return { ...data, list: data.list };
}
const actList = (fields: Record<string, string>, token: string | null = editor.token) => list.action({ request: form("/app/stores", token, fields), params: {}, context: {} });
const loadDetail = (id: string, query = "", token: string | null = editor.token) => detail.loader({ request: req(`/app/stores/${id}${query}`, token), params: { id }, context: {} });
const actDetail = (id: string, fields: Record<string, string>, token: string | null = editor.token) => detail.action({ request: form(`/app/stores/${id}`, token, fields), params: { id }, context: {} });
const names = (data: Awaited<ReturnType<typeof loadList>>) => data.list.stores.map((x) => x.name);

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.stores");
  detail = await import("../../app/routes/app.stores.$id");
  const db = app.database.db;
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  importer = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.sync"] });
  vendorA = (await db.vendor.create({ data: { name: "Atlas Vendor", handle: "atlas" } })).id;
  vendorB = (await db.vendor.create({ data: { name: "Birch Vendor", handle: "birch" } })).id;
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendorA });
  const mk = async (key: string, name: string, handle: string, target_gender: TargetGender, vendor_id: string, sort_order: number) => {
    s[key] = (await db.store.create({ data: { name, handle, target_gender, vendor_id, sort_order, size_recommendation: key === "north" ? "Runs small" : null } })).id;
  };
  await mk("north", "North Menswear", "north-menswear", "menswear", vendorA, 0);
  await mk("rose", "Rose Atelier", "rose-atelier", "womenswear", vendorB, 1);
  await mk("common", "Common Goods", "common-goods", "both", vendorA, 2);
  await mk("empty", "Empty Shop", "empty-shop", "both", vendorB, 3);
  const base = Date.now() - 100_000;
  const products: { n: number; title: string; store: string; status?: "draft" }[] = [
    { n: 1, title: "Oxford Shirt", store: "north" },
    { n: 2, title: "Chino Trousers", store: "north" },
    { n: 3, title: "Draft Blazer", store: "north", status: "draft" },
    { n: 11, title: "Silk Blouse", store: "rose" },
    { n: 21, title: "Canvas Tote", store: "common" },
  ];
  for (const p of products) {
    await db.product.create({
      data: {
        id: gid(p.n),
        title: p.title,
        handle: p.title.toLowerCase().replace(/\s+/g, "-"),
        vendor: "Test",
        productType: "Shirts",
        priceMin: 10 + p.n,
        priceMax: 20 + p.n,
        status: p.status ?? "active",
        store_id: s[p.store],
        created_at: new Date(base + p.n * 1000),
      },
    });
  }
  await db.storeFeaturedProduct.createMany({
    data: [
      { store_id: s.north, product_id: gid(2), sort_order: 0 },
      { store_id: s.north, product_id: gid(1), sort_order: 1 },
    ],
  });
  for (let i = 0; i < 2; i++) {
    const u = await app.createUser();
    await db.userFavoriteStore.create({ data: { user_id: u.id, store_id: s.rose } });
  }
});
afterAll(() => app?.close());

describe("guard", () => {
  it("signed out, both pages and both actions send to the login", async () => {
    const res = await thrown(loadList("?q=rose", null));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fstores%3Fq%3Drose");
    expect((await thrown(actList({ intent: "delete", id: s.empty }, null))).headers.get("location")).toBe("/app/login?next=%2Fapp%2Fstores");
    const d = await thrown(loadDetail(s.north, "", null));
    expect(d.status).toBe(302);
    expect(d.headers.get("location")).toBe(`/app/login?next=${encodeURIComponent(`/app/stores/${s.north}`)}`);
    expect((await thrown(actDetail(s.north, { intent: "size", size_recommendation: "x" }, null))).status).toBe(302);
  });

  it("an admin without catalog.edit and a vendor get the 403 page; nothing changes", async () => {
    for (const token of [importer.token, vendorUser.token]) {
      const res = await thrown(loadList("", token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
      expect((await thrown(actList({ intent: "delete", id: s.empty }, token))).status).toBe(403);
      expect((await thrown(actList({ intent: "create", name: "Sneaky", vendor_id: vendorA }, token))).status).toBe(403);
      expect((await thrown(loadDetail(s.north, "", token))).status).toBe(403);
      expect((await thrown(actDetail(s.north, { intent: "rename", name: "Hacked" }, token))).status).toBe(403);
    }
    expect(await app.database.db.store.count()).toBe(4);
    expect((await app.database.db.store.findUniqueOrThrow({ where: { id: s.north } })).name).toBe("North Menswear");
  });
});

describe("the list", () => {
  it("shows the stores in their order with active products, followers and the vendors", async () => {
    const data = await loadList();
    expect(data).toMatchObject({ page: 0, q: "", gender: "" });
    expect(data.list.total).toBe(4);
    expect(data.list.stores.map((x) => [x.name, x.handle, x.target_gender, x.vendor_id, x.productCount, x.followerCount])).toEqual([
      ["North Menswear", "north-menswear", "menswear", vendorA, 2, 0],
      ["Rose Atelier", "rose-atelier", "womenswear", vendorB, 1, 2],
      ["Common Goods", "common-goods", "both", vendorA, 1, 0],
      ["Empty Shop", "empty-shop", "both", vendorB, 0, 0],
    ]);
    expect(data.vendors).toEqual([
      { id: vendorA, name: "Atlas Vendor" },
      { id: vendorB, name: "Birch Vendor" },
    ]);
  });

  it("searches names and handles, filters on the exact gender, and ignores bad values", async () => {
    const searched = await loadList("?q=%20ROSE%20");
    expect(searched.q).toBe("ROSE");
    expect(names(searched)).toEqual(["Rose Atelier"]);
    expect(names(await loadList("?q=-shop"))).toEqual(["Empty Shop"]);
    const both = await loadList("?gender=both");
    expect(both.gender).toBe("both");
    expect(names(both)).toEqual(["Common Goods", "Empty Shop"]);
    expect(names(await loadList("?gender=menswear&q=north"))).toEqual(["North Menswear"]);
    expect(names(await loadList("?gender=womenswear&q=north"))).toEqual([]);
    const bad = await loadList("?gender=kids&page=-1");
    expect(bad).toMatchObject({ gender: "", page: 0 });
    expect(bad.list.total).toBe(4);
  });

  it("pages by 20", async () => {
    const data = await loadList("?page=2");
    expect(data.page).toBe(2);
    expect(data.list).toMatchObject({ skip: 40, take: 20, total: 4, stores: [] });
  });

  it("under a detail page the list loads nothing", async () => {
    const data = await list.loader({ request: req(`/app/stores/${s.north}`, editor.token), params: { id: s.north }, context: {} });
    expect(data).toEqual({ list: null, vendors: [], page: 0, q: "", gender: "" });
    expect(list.shouldRevalidate({ currentParams: { id: s.north }, nextParams: {}, defaultShouldRevalidate: false } as never)).toBe(true);
    expect(list.shouldRevalidate({ currentParams: {}, nextParams: {}, defaultShouldRevalidate: false } as never)).toBe(false);
  });

  it("server-renders the page: heading, Add store, rows with vendor names and buttons, the range and the chart", async () => {
    const data = await loadList();
    const html = await renderRoute({ id: "routes/app.stores", path: "/app/stores", url: "/app/stores", data, Component: list.default });
    expect(html).toMatch(/<h1[^>]*>(<[^>]+>)*Stores</);
    expect(html).toContain("Stores group products by vendor; shoppers follow them.");
    expect(html).toContain("Add store");
    expect(html).toContain('placeholder="Search stores by name or handle"');
    expect(html).toContain(`href="/app/stores/${s.rose}"`);
    expect(html).toContain("rose-atelier");
    expect(html).toContain("Birch Vendor");
    expect(html).toContain("Womenswear");
    expect(html).toContain('aria-label="Edit Rose Atelier"');
    expect(html).toContain('aria-label="Delete Empty Shop"');
    expect(html).toContain("1–4 of 4");
    expect(html).toContain("Active products per store (this page)");
    expect(html).toContain('aria-label="North Menswear: 2, Rose Atelier: 1, Common Goods: 1, Empty Shop: 0"');
  });

  it("server-renders an empty search and the applied gender filter", async () => {
    const data = await loadList("?q=zzz&gender=menswear");
    const html = await renderRoute({ id: "routes/app.stores", path: "/app/stores", url: "/app/stores?q=zzz&gender=menswear", data, Component: list.default });
    expect(html).toContain("No stores match.");
    expect(html).toContain("Gender: Menswear");
    expect(html).toContain('value="zzz"');
    expect(html).toContain("0–0 of 0");
    expect(html).not.toContain("Active products per store (this page)");
  });
});

describe("list actions", () => {
  let created: string;

  it("creates a store, making a handle from the name", async () => {
    const r = await actList({ intent: "create", name: " Harbour Knits ", handle: "", description: "Wool", logo_url: "", banner_url: "", size_recommendation: "", target_gender: "womenswear", vendor_id: vendorB });
    expect(r).toEqual({ ok: true, intent: "create", message: "Store “Harbour Knits” created." });
    const row = (await loadList("?q=harbour")).list.stores[0];
    expect(row).toMatchObject({ name: "Harbour Knits", handle: "harbour-knits", description: "Wool", logo_url: null, target_gender: "womenswear", vendor_id: vendorB, sort_order: 4 });
    created = row.id;
  });

  it("refuses a creation without a name, with a taken handle or an unknown vendor", async () => {
    expect(await actList({ intent: "create", name: "", vendor_id: vendorA })).toEqual({ ok: false, intent: "create", error: "name: must not be empty" });
    expect(await actList({ intent: "create", name: "Twin", handle: "rose-atelier", vendor_id: vendorA })).toEqual({
      ok: false,
      intent: "create",
      error: 'A store with the handle "rose-atelier" already exists',
      canForce: false,
    });
    expect(await actList({ intent: "create", name: "Ghost", vendor_id: "ghost" })).toEqual({ ok: false, intent: "create", error: "Vendor not found", canForce: false });
    expect(await actList({ intent: "create", name: "Bad Handle", handle: "Not ok!", vendor_id: vendorA })).toEqual({
      ok: false,
      intent: "create",
      error: "handle: handle may only contain lower-case letters, digits and single hyphens",
    });
    expect(await app.database.db.store.count()).toBe(5);
  });

  it("updates a store's fields", async () => {
    const r = await actList({ intent: "update", id: created, name: "Harbour Knitwear", handle: "harbour", description: "", logo_url: "/uploads/logo.png", target_gender: "both", vendor_id: vendorA });
    expect(r).toEqual({ ok: true, intent: "update", message: "Store “Harbour Knitwear” saved." });
    expect((await loadList("?q=harbour")).list.stores[0]).toMatchObject({ name: "Harbour Knitwear", handle: "harbour", description: null, logo_url: "/uploads/logo.png", target_gender: "both", vendor_id: vendorA });
  });

  it("refuses an update of an unknown store or with an empty name", async () => {
    expect(await actList({ intent: "update", id: "ghost", name: "X" })).toEqual({ ok: false, intent: "update", error: "Store not found", canForce: false });
    expect(await actList({ intent: "update", id: created, name: " " })).toEqual({ ok: false, intent: "update", error: "name: must not be empty" });
  });

  it("deletes a store without products", async () => {
    expect(await actList({ intent: "delete", id: created, force: "false" })).toEqual({ ok: true, intent: "delete", message: "Store deleted." });
    expect(names(await loadList("?q=harbour"))).toEqual([]);
    expect(await actList({ intent: "delete", id: created })).toEqual({ ok: false, intent: "delete", error: "Store not found", canForce: false });
  });

  it("refuses to delete a store with products, offering force; forced, its products stay without a store", async () => {
    expect(await actList({ intent: "delete", id: s.common, force: "false" })).toEqual({
      ok: false,
      intent: "delete",
      error: "This store still has 1 product: move or delete them first, or delete with force=true",
      canForce: true,
    });
    expect(names(await loadList("?q=common"))).toEqual(["Common Goods"]);
    expect(await actList({ intent: "delete", id: s.common, force: "true" })).toEqual({ ok: true, intent: "delete", message: "Store deleted; 1 products no longer have a store." });
    expect(names(await loadList("?q=common"))).toEqual([]);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: gid(21) } })).store_id).toBeNull();
  });

  it("answers an unknown intent", async () => {
    expect(await actList({ intent: "bogus" })).toEqual({ ok: false, intent: "bogus", error: "Unknown action" });
  });
});

describe("the detail page", () => {
  it("loads the store, its vendor's name, its featured products (any status) and its products to pick from", async () => {
    const data = await loadDetail(s.north);
    expect(data.store).toMatchObject({ id: s.north, name: "North Menswear", handle: "north-menswear", size_recommendation: "Runs small", productCount: 2 });
    expect(data.vendorName).toBe("Atlas Vendor");
    expect(data.featured.map((p) => [p.id, p.sort_order])).toEqual([
      [gid(2), 0],
      [gid(1), 1],
    ]);
    // The picker: the store's own products, drafts included, newest first.
    expect(data.picker.map((p) => [p.title, p.status])).toEqual([
      ["Draft Blazer", "draft"],
      ["Chino Trousers", "active"],
      ["Oxford Shirt", "active"],
    ]);
  });

  it("the picker searches the store's products (pq) without loading the store", async () => {
    const data = await loadDetail(s.north, "?pq=%20oxford%20");
    expect(data).toMatchObject({ store: null, featured: [], vendorName: "" });
    expect(data.picker.map((p) => p.title)).toEqual(["Oxford Shirt"]);
    expect((await loadDetail(s.north, `?pq=${encodeURIComponent(gid(3))}`)).picker.map((p) => p.title)).toEqual(["Draft Blazer"]);
    expect((await loadDetail(s.north, "?pq=silk")).picker).toEqual([]);
  });

  it("an unknown store is the 404 page", async () => {
    const res = await thrown(loadDetail("ghost"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ staffError: "This store does not exist (any more)." });
  });

  it("server-renders the page: title, facts, rename, size, featured list with move and remove buttons, picker", async () => {
    const data = await loadDetail(s.north);
    const html = await renderRoute({ id: "routes/app.stores.$id", path: "/app/stores/:id", url: `/app/stores/${s.north}`, data, Component: detail.default });
    expect(html).toMatch(/<h1[^>]*>(<[^>]+>)*North Menswear</);
    expect(html).toContain("north-menswear · Atlas Vendor · 2 active products · 0 followers");
    expect(html).toContain("Store name");
    expect(html).toContain("Also change the handle");
    expect(html).toContain(">Rename<");
    expect(html).toContain("Runs small");
    expect(html).toContain("Save featured products");
    expect(html).not.toContain(">Discard<");
    expect(html).toContain('aria-label="Featured products in order"');
    expect(html).toContain('aria-label="Move Chino Trousers down"');
    expect(html).toContain('aria-label="Move Oxford Shirt up"');
    expect(html).toContain('aria-label="Remove Oxford Shirt"');
    // Featured products are not offered again.
    expect(html).toContain('aria-label="Feature Draft Blazer"');
    expect(html).not.toContain('aria-label="Feature Oxford Shirt"');
    expect(html).toContain("Add from this store&#x27;s products");

    const empty = await loadDetail(s.empty);
    const emptyHtml = await renderRoute({ id: "routes/app.stores.$id", path: "/app/stores/:id", url: `/app/stores/${s.empty}`, data: empty, Component: detail.default });
    expect(emptyHtml).toContain("No featured products yet: add some from the store&#x27;s products below.");
    expect(emptyHtml).toContain("No other products match.");
  });
});

describe("detail actions", () => {
  it("renames a store keeping its handle, or changing it", async () => {
    expect(await actDetail(s.rose, { intent: "rename", name: "Rose Atelier Paris", updateHandle: "false" })).toEqual({
      ok: true,
      intent: "rename",
      message: "Renamed to “Rose Atelier Paris” (handle rose-atelier).",
    });
    expect(await actDetail(s.rose, { intent: "rename", name: "Rose Paris", updateHandle: "true" })).toEqual({
      ok: true,
      intent: "rename",
      message: "Renamed to “Rose Paris” (handle rose-paris).",
    });
    expect((await loadDetail(s.rose)).store).toMatchObject({ name: "Rose Paris", handle: "rose-paris" });
  });

  it("refuses an empty name or an unknown store", async () => {
    expect(await actDetail(s.rose, { intent: "rename", name: "  " })).toEqual({ ok: false, intent: "rename", error: "must not be empty" });
    expect(await actDetail("ghost", { intent: "rename", name: "X" })).toEqual({ ok: false, intent: "rename", error: "Store not found" });
  });

  it("saves the size recommendation; empty clears it", async () => {
    expect(await actDetail(s.rose, { intent: "size", size_recommendation: " True to size " })).toEqual({ ok: true, intent: "size", message: "Size recommendation saved." });
    expect((await loadDetail(s.rose)).store!.size_recommendation).toBe("True to size");
    expect(await actDetail(s.rose, { intent: "size", size_recommendation: "" })).toMatchObject({ ok: true });
    expect((await loadDetail(s.rose)).store!.size_recommendation).toBeNull();
  });

  it("refuses a size recommendation that is too long", async () => {
    const r = await actDetail(s.rose, { intent: "size", size_recommendation: "x".repeat(5001) });
    expect(r).toMatchObject({ ok: false, intent: "size", error: expect.stringContaining("5000") });
    expect(await actDetail("ghost", { intent: "size", size_recommendation: "x" })).toEqual({ ok: false, intent: "size", error: "Store not found" });
  });

  it("saves the featured products in the order given (bare ids too)", async () => {
    expect(await actDetail(s.north, { intent: "featured", product_ids: JSON.stringify(["1", gid(3), gid(2)]) })).toEqual({
      ok: true,
      intent: "featured",
      message: "Featured products saved (3).",
    });
    expect((await loadDetail(s.north)).featured.map((p) => p.id)).toEqual([gid(1), gid(3), gid(2)]);
    expect(await actDetail(s.north, { intent: "featured", product_ids: "[]" })).toEqual({ ok: true, intent: "featured", message: "Featured products saved (0)." });
    expect((await loadDetail(s.north)).featured).toEqual([]);
  });

  it("refuses featured lists that are not JSON, repeat a product, or name another store's products", async () => {
    expect(await actDetail(s.north, { intent: "featured", product_ids: "{oops" })).toEqual({ ok: false, intent: "featured", error: "The featured list is not valid" });
    expect(await actDetail(s.north, { intent: "featured", product_ids: JSON.stringify([gid(1), gid(1)]) })).toEqual({
      ok: false,
      intent: "featured",
      error: `product_ids lists a product more than once: ${gid(1)}`,
    });
    expect(await actDetail(s.north, { intent: "featured", product_ids: JSON.stringify([gid(11)]) })).toEqual({
      ok: false,
      intent: "featured",
      error: `These products do not belong to this store: ${gid(11)}`,
    });
    expect(await actDetail(s.north, { intent: "featured", product_ids: JSON.stringify([""]) })).toEqual({ ok: false, intent: "featured", error: "must be a non-empty string" });
    expect(await actDetail(s.north, { intent: "featured", product_ids: JSON.stringify(Array.from({ length: 51 }, (_, i) => String(i + 1))) })).toEqual({
      ok: false,
      intent: "featured",
      error: "A store features at most 50 products",
    });
  });

  it("answers an unknown intent", async () => {
    expect(await actDetail(s.north, { intent: "bogus" })).toEqual({ ok: false, intent: "bogus", error: "Unknown action" });
  });
});
