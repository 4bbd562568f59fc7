/**
 * The Collections admin screens (app/routes/app.collections.tsx and app.collections.$id.tsx) through
 * their loaders and actions in local mode: the catalog.edit guard (signed out, other admins,
 * vendors), the list with status tabs, search and pages, every list action (create, featured,
 * order), the detail with its product picker and every detail action (update with the version
 * check, publish, status, featured, add, remove, order, delete), and both pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { PUBLISH_NEEDS_PRODUCTS } from "../../app/services/collections.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";

type ListRoute = typeof import("../../app/routes/app.collections");
type DetailRoute = typeof import("../../app/routes/app.collections.$id");
let list: ListRoute;
let detail: DetailRoute;
let app: TestApp;
let editor: { token: string };
let importer: { token: string };
let vendorUser: { token: string };
let partnerId: string;
const c: Record<string, string> = {};
const gid = (n: number) => `gid://shopify/Product/${n}`;

const PRODUCTS = [
  { n: 1, title: "Linen Shirt", gender: "menswear" },
  { n: 2, title: "Silk Dress", gender: "womenswear" },
  { n: 3, title: "Denim Jacket", gender: "both" },
  { n: 4, title: "Linen Trousers", gender: "menswear" },
  { n: 5, title: "Wool Coat", gender: "womenswear" },
] as const;

async function loadList(query = "", token: string | null = editor.token) {
  const data = await list.loader({ request: req(`/app/collections${query}`, token), params: {}, context: {} });
  if (!data.list) throw new Error("no list in the answer");
  return { ...data, list: data.list };
}
const actList = (fields: Record<string, string>, token: string | null = editor.token) => list.action({ request: form("/app/collections", token, fields), params: {}, context: {} });
const loadDetail = (id: string, query = "", token: string | null = editor.token) =>
  detail.loader({ request: req(`/app/collections/${id}${query}`, token), params: { id }, context: {} });
const actDetail = (id: string, fields: Record<string, string>, token: string | null = editor.token) =>
  detail.action({ request: form(`/app/collections/${id}`, token, fields), params: { id }, context: {} });
const memberIds = async (id: string) => (await loadDetail(id)).detail!.products.map((p) => p.id);

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.collections");
  detail = await import("../../app/routes/app.collections.$id");
  const db = app.database.db;
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  importer = await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] });
  partnerId = (await db.vendor.create({ data: { name: "Partner Studio", handle: "partner-studio" } })).id;
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: partnerId });
  const base = Date.now() - 100_000;
  for (const p of PRODUCTS) {
    await db.product.create({
      data: {
        id: gid(p.n),
        title: p.title,
        handle: p.title.toLowerCase().replace(/\s+/g, "-"),
        vendor: "Studio",
        productType: "Apparel",
        target_gender: p.gender,
        priceMin: 10 + p.n,
        priceMax: 10 + p.n,
        created_at: new Date(base + p.n * 1000),
      },
    });
  }
  const mk = async (key: string, data: { title: string; handle: string; status: "draft" | "active" | "archived"; featured?: boolean; sort_order: number; view_count?: number; products?: number[] }) => {
    const row = await db.collection.create({
      data: {
        title: data.title,
        handle: data.handle,
        status: data.status,
        featured: data.featured ?? false,
        sort_order: data.sort_order,
        view_count: data.view_count ?? 0,
        published_at: data.status === "active" ? new Date() : null,
        products: { create: (data.products ?? []).map((n, position) => ({ product_id: gid(n), position })) },
      },
    });
    c[key] = row.id;
  };
  await mk("summer", { title: "Summer Linen", handle: "summer-linen", status: "active", featured: true, sort_order: 0, view_count: 1234, products: [4, 1, 3] });
  await mk("women", { title: "Womenswear Edit", handle: "womenswear-edit", status: "active", sort_order: 1, view_count: 56, products: [2] });
  await mk("draft", { title: "Secret Draft", handle: "secret-draft", status: "draft", sort_order: 2 });
  await mk("archived", { title: "Old Stuff", handle: "old-stuff", status: "archived", sort_order: 3, products: [5] });
});
afterAll(() => app?.close());

describe("guard", () => {
  it("signed out, both pages and both actions send to the login", async () => {
    const res = await thrown(loadList("?status=draft", null));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fcollections%3Fstatus%3Ddraft");
    expect((await thrown(actList({ intent: "featured", id: c.draft, featured: "true" }, null))).headers.get("location")).toBe("/app/login?next=%2Fapp%2Fcollections");
    const d = await thrown(loadDetail(c.summer, "", null));
    expect(d.status).toBe(302);
    expect(d.headers.get("location")).toBe(`/app/login?next=${encodeURIComponent(`/app/collections/${c.summer}`)}`);
    expect((await thrown(actDetail(c.summer, { intent: "publish" }, null))).status).toBe(302);
  });

  it("an admin without catalog.edit and a vendor get the 403 page; nothing changes", async () => {
    for (const token of [importer.token, vendorUser.token]) {
      const res = await thrown(loadList("", token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
      expect((await thrown(actList({ intent: "featured", id: c.draft, featured: "true" }, token))).status).toBe(403);
      expect((await thrown(actList({ intent: "create", title: "Sneaky" }, token))).status).toBe(403);
      expect((await thrown(loadDetail(c.summer, "", token))).status).toBe(403);
      expect((await thrown(actDetail(c.summer, { intent: "delete" }, token))).status).toBe(403);
    }
    expect(await app.database.db.collection.count()).toBe(4);
    expect((await app.database.db.collection.findUniqueOrThrow({ where: { id: c.draft } })).featured).toBe(false);
  });
});

describe("the list", () => {
  it("shows every collection in the shoppers' order with counts, and all of them for the reorder dialog", async () => {
    const data = await loadList();
    expect(data).toMatchObject({ tab: "all", page: 0, q: "" });
    expect(data.list.total).toBe(4);
    expect(data.list.collections.map((x) => [x.title, x.status, x.productCount, x.featured])).toEqual([
      ["Summer Linen", "active", 3, true],
      ["Womenswear Edit", "active", 1, false],
      ["Secret Draft", "draft", 0, false],
      ["Old Stuff", "archived", 1, false],
    ]);
    expect(data.all).toEqual([
      { id: c.summer, title: "Summer Linen", status: "active" },
      { id: c.women, title: "Womenswear Edit", status: "active" },
      { id: c.draft, title: "Secret Draft", status: "draft" },
      { id: c.archived, title: "Old Stuff", status: "archived" },
    ]);
  });

  it("filters by status tab and by title or handle; a bad tab or page falls back to the defaults", async () => {
    expect((await loadList("?status=draft")).list.collections.map((x) => x.title)).toEqual(["Secret Draft"]);
    expect((await loadList("?status=active")).list.collections.map((x) => x.title)).toEqual(["Summer Linen", "Womenswear Edit"]);
    const searched = await loadList("?q=%20linen%20");
    expect(searched.q).toBe("linen");
    expect(searched.list.collections.map((x) => x.title)).toEqual(["Summer Linen"]);
    expect((await loadList("?q=old-stu")).list.collections.map((x) => x.title)).toEqual(["Old Stuff"]);
    const bad = await loadList("?status=bogus&page=-2");
    expect(bad).toMatchObject({ tab: "all", page: 0 });
    expect(bad.list.total).toBe(4);
    // The dialog's list ignores the filters.
    expect((await loadList("?status=draft")).all).toHaveLength(4);
  });

  it("pages by 20", async () => {
    const data = await loadList("?page=1");
    expect(data.page).toBe(1);
    expect(data.list).toMatchObject({ skip: 20, take: 20, total: 4, collections: [] });
  });

  it("under a detail page the list loads nothing", async () => {
    const data = await list.loader({ request: req(`/app/collections/${c.summer}`, editor.token), params: { id: c.summer }, context: {} });
    expect(data).toEqual({ list: null, all: [], tab: "all", page: 0, q: "" });
    // Coming back from a detail page loads the list again.
    expect(list.shouldRevalidate({ currentParams: { id: c.summer }, nextParams: {}, defaultShouldRevalidate: false } as never)).toBe(true);
    expect(list.shouldRevalidate({ currentParams: {}, nextParams: {}, defaultShouldRevalidate: false } as never)).toBe(false);
  });

  it("server-renders the page: heading, actions, tabs, rows with their feature buttons, the chart", async () => {
    const data = await loadList();
    const html = await renderRoute({ id: "routes/app.collections", path: "/app/collections", url: "/app/collections", data, Component: list.default });
    expect(html).toMatch(/<h1[^>]*>(<[^>]+>)*Collections</);
    expect(html).toContain("Curated product lists shown to shoppers in their order.");
    expect(html).toContain("Create collection");
    expect(html).toContain("Reorder collections");
    for (const tab of ["All", "Active", "Drafts", "Archived"]) expect(html).toContain(`>${tab}<`);
    expect(html).toContain(`href="/app/collections/${c.summer}"`);
    expect(html).toContain("summer-linen");
    expect(html).toContain("1,234");
    expect(html).toContain('aria-label="Unfeature Summer Linen"');
    expect(html).toContain('aria-label="Feature Secret Draft"');
    expect(html).toContain("Views per collection (this page)");
    expect(html).toContain("1–4 of 4");
  });
});

describe("list actions", () => {
  it("features and unfeatures a collection", async () => {
    expect(await actList({ intent: "featured", id: c.draft, featured: "true" })).toEqual({ ok: true, message: "“Secret Draft” is now featured." });
    expect((await loadList("?status=draft")).list.collections[0].featured).toBe(true);
    expect(await actList({ intent: "featured", id: c.draft, featured: "false" })).toEqual({ ok: true, message: "“Secret Draft” is no longer featured." });
    expect((await loadList("?status=draft")).list.collections[0].featured).toBe(false);
  });

  it("refuses to feature an unknown collection with the server's message", async () => {
    expect(await actList({ intent: "featured", id: "nope", featured: "true" })).toEqual({ ok: false, error: "Collection not found" });
  });

  it("saves the order of the collections: the ones given first, the others after", async () => {
    expect(await actList({ intent: "order", ids: JSON.stringify([c.draft, c.women]) })).toEqual({ ok: true, message: "Collection order saved." });
    expect((await loadList()).list.collections.map((x) => x.id)).toEqual([c.draft, c.women, c.summer, c.archived]);
    await actList({ intent: "order", ids: JSON.stringify([c.summer, c.women, c.draft, c.archived]) });
    expect((await loadList()).all.map((x) => x.id)).toEqual([c.summer, c.women, c.draft, c.archived]);
  });

  it("refuses an order with unknown or repeated ids, or that is not a list", async () => {
    expect(await actList({ intent: "order", ids: JSON.stringify([c.draft, "ghost"]) })).toEqual({ ok: false, error: "Unknown collection ids: ghost" });
    expect(await actList({ intent: "order", ids: JSON.stringify([c.draft, c.draft]) })).toEqual({ ok: false, error: `ids lists a collection more than once: ${c.draft}` });
    expect(await actList({ intent: "order", ids: JSON.stringify("x") })).toEqual({ ok: false, error: "must be an array of collection ids" });
    // A field that is not JSON is refused the same way (it used to fail the page with a 500).
    expect(await actList({ intent: "order", ids: "[oops" })).toEqual({ ok: false, error: "must be an array of collection ids" });
    expect((await loadList()).all.map((x) => x.id)).toEqual([c.summer, c.women, c.draft, c.archived]);
  });

  it("creates a draft and opens its page", async () => {
    const res = await actList({ intent: "create", title: "  Autumn Layers ", description: "Coats and knits", target_gender: "womenswear" });
    expect(res).toBeInstanceOf(Response);
    const r = res as Response;
    expect(r.status).toBe(302);
    const id = r.headers.get("location")!.split("/").pop()!;
    expect(r.headers.get("location")).toBe(`/app/collections/${id}`);
    const created = (await loadDetail(id)).detail!.collection;
    expect(created).toMatchObject({ title: "Autumn Layers", handle: "autumn-layers", description: "Coats and knits", target_gender: "womenswear", status: "draft", featured: false });
    // Last in the order.
    expect((await loadList()).all.map((x) => x.id).at(-1)).toBe(id);
    await actDetail(id, { intent: "delete" });
  });

  it("refuses a creation without a title or with a bad gender, with the schema's message", async () => {
    expect(await actList({ intent: "create", title: "  " })).toEqual({ ok: false, error: "title: must not be empty" });
    const bad = await actList({ intent: "create", title: "X", target_gender: "kids" });
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/^target_gender: /) });
    expect(await app.database.db.collection.count()).toBe(4);
  });

  it("answers an unknown intent", async () => {
    expect(await actList({ intent: "bogus" })).toEqual({ ok: false, error: "Unknown action" });
  });
});

describe("the detail page", () => {
  it("loads the collection, its products in order (any status), the vendors and the picker", async () => {
    const data = await loadDetail(c.summer);
    expect(data.detail!.collection).toMatchObject({ id: c.summer, title: "Summer Linen", status: "active", featured: true, view_count: 1234 });
    expect(data.detail!.products.map((p) => p.title)).toEqual(["Linen Trousers", "Linen Shirt", "Denim Jacket"]);
    expect(data.vendors).toEqual([{ id: partnerId, name: "Partner Studio" }]);
    // The picker: the visible catalogue, newest first.
    expect(data.picker.map((p) => p.title)).toEqual(PRODUCTS.map((p) => p.title).reverse());
  });

  it("the picker searches the catalogue (pq) without loading the collection", async () => {
    const data = await loadDetail(c.summer, "?pq=%20linen%20");
    expect(data.detail).toBeNull();
    expect(data.vendors).toEqual([]);
    expect(data.picker.map((p) => p.title)).toEqual(["Linen Trousers", "Linen Shirt"]);
  });

  it("an unknown collection is the 404 page", async () => {
    const res = await thrown(loadDetail("nope"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ staffError: "This collection does not exist (any more)." });
  });

  it("server-renders the page: title, status, publish, products with move and remove buttons, picker, details", async () => {
    const data = await loadDetail(c.women);
    const html = await renderRoute({ id: "routes/app.collections.$id", path: "/app/collections/:id", url: `/app/collections/${c.women}`, data, Component: detail.default });
    expect(html).toMatch(/<h1[^>]*>(<[^>]+>)*Womenswear Edit</);
    expect(html).toContain("womenswear-edit · version 1 · 56 views · published");
    expect(html).toContain("Unpublish (draft)");
    expect(html).toContain("Products (1)");
    expect(html).toContain("Save order");
    expect(html).not.toContain("Discard order");
    expect(html).toContain('aria-label="Products in collection order"');
    expect(html).toContain('aria-label="Move Silk Dress up"');
    expect(html).toContain('aria-label="Remove Silk Dress"');
    // Members are not offered again.
    expect(html).toContain('aria-label="Add Linen Shirt"');
    expect(html).not.toContain('aria-label="Add Silk Dress"');
    expect(html).toContain("Save details");
    expect(html).toContain("Partner (vendor)");

    const empty = await loadDetail(c.draft);
    const draftHtml = await renderRoute({ id: "routes/app.collections.$id", path: "/app/collections/:id", url: `/app/collections/${c.draft}`, data: empty, Component: detail.default });
    expect(draftHtml).toContain("No products yet: search the catalogue below and add some.");
    expect(draftHtml).toMatch(/<button[^>]*>(<[^>]+>)*Publish</);
  });
});

describe("detail actions", () => {
  it("saves the details with the version check; a stale version is refused", async () => {
    const before = (await loadDetail(c.women)).detail!.collection;
    const r = await actDetail(c.women, {
      intent: "update",
      title: "Womenswear Edit",
      handle: "women-edit",
      description: "Picked for her",
      image_url: "",
      target_gender: "womenswear",
      partner_id: partnerId,
      version: String(before.version),
    });
    expect(r).toEqual({ ok: true, intent: "update", message: "Details saved." });
    const after = (await loadDetail(c.women)).detail!.collection;
    expect(after).toMatchObject({ handle: "women-edit", description: "Picked for her", partner_id: partnerId, version: before.version + 1 });

    const stale = await actDetail(c.women, { intent: "update", title: "Other", version: String(before.version) });
    expect(stale).toEqual({
      ok: false,
      intent: "update",
      error: `This collection was changed by someone else (it is at version ${before.version + 1}, you sent ${before.version}): reload it and try again`,
    });
    // Clearing the partner.
    expect(await actDetail(c.women, { intent: "update", partner_id: "", version: String(after.version) })).toMatchObject({ ok: true });
    expect((await loadDetail(c.women)).detail!.collection.partner_id).toBeNull();
  });

  it("refuses invalid details with the schema's or the server's message", async () => {
    expect(await actDetail(c.women, { intent: "update", title: " " })).toEqual({ ok: false, intent: "update", error: "title: must not be empty" });
    expect(await actDetail(c.women, { intent: "update", handle: "summer-linen" })).toEqual({
      ok: false,
      intent: "update",
      error: 'A collection with the handle "summer-linen" already exists',
    });
    expect(await actDetail(c.women, { intent: "update", partner_id: "ghost" })).toEqual({ ok: false, intent: "update", error: "Vendor not found" });
  });

  it("publishing needs products; adding one makes it possible", async () => {
    expect(await actDetail(c.draft, { intent: "publish" })).toEqual({ ok: false, intent: "publish", error: PUBLISH_NEEDS_PRODUCTS });
    expect(await actDetail(c.draft, { intent: "add", products: JSON.stringify(["2", gid(5)]) })).toEqual({ ok: true, intent: "add", message: "Added 2 products." });
    expect(await memberIds(c.draft)).toEqual([gid(2), gid(5)]);
    expect(await actDetail(c.draft, { intent: "add", products: JSON.stringify([gid(2)]) })).toEqual({ ok: true, intent: "add", message: "Already in the collection." });
    expect(await actDetail(c.draft, { intent: "add", products: JSON.stringify([gid(1)]) })).toEqual({ ok: true, intent: "add", message: "Added 1 product." });
    expect(await actDetail(c.draft, { intent: "publish" })).toEqual({ ok: true, intent: "publish", message: "Published: shoppers can see this collection." });
    expect((await loadDetail(c.draft)).detail!.collection).toMatchObject({ status: "active", published_at: expect.any(Date) });
  });

  it("refuses to add unknown products, an empty list or a list that is not JSON", async () => {
    expect(await actDetail(c.draft, { intent: "add", products: JSON.stringify([gid(999)]) })).toEqual({ ok: false, intent: "add", error: `Unknown product ids: ${gid(999)}` });
    expect(await actDetail(c.draft, { intent: "add", products: "[]" })).toEqual({ ok: false, intent: "add", error: "products must list at least one product id" });
    expect(await actDetail(c.draft, { intent: "add", products: "not json" })).toEqual({ ok: false, intent: "add", error: "products: must be an array of product ids" });
    expect(await actDetail(c.draft, { intent: "add", products: JSON.stringify([""]) })).toEqual({ ok: false, intent: "add", error: "products.0: must be a non-empty string" });
  });

  it("saves the product order; an order that misses a member is refused", async () => {
    expect(await actDetail(c.draft, { intent: "order", products: JSON.stringify([gid(1), gid(2), gid(5)]) })).toEqual({ ok: true, intent: "order", message: "Product order saved." });
    expect(await memberIds(c.draft)).toEqual([gid(1), gid(2), gid(5)]);
    expect(await actDetail(c.draft, { intent: "order", products: JSON.stringify([gid(5), gid(1)]) })).toEqual({
      ok: false,
      intent: "order",
      error: `The order must list every product of the collection; missing: ${gid(2)}`,
    });
    expect(await actDetail(c.draft, { intent: "order", products: JSON.stringify([gid(5), gid(1), gid(2), gid(3)]) })).toEqual({
      ok: false,
      intent: "order",
      error: `These products are not in the collection: ${gid(3)}`,
    });
    expect(await memberIds(c.draft)).toEqual([gid(1), gid(2), gid(5)]);
  });

  it("removes a product", async () => {
    expect(await actDetail(c.draft, { intent: "remove", products: JSON.stringify([gid(2)]) })).toEqual({ ok: true, intent: "remove", message: "Removed 1 product." });
    expect(await memberIds(c.draft)).toEqual([gid(1), gid(5)]);
    expect(await actDetail(c.draft, { intent: "remove", products: JSON.stringify([gid(2)]) })).toEqual({ ok: true, intent: "remove", message: "Removed 0 products." });
    expect(await actDetail(c.draft, { intent: "remove", products: JSON.stringify([gid(998)]) })).toEqual({ ok: false, intent: "remove", error: `Unknown product ids: ${gid(998)}` });
  });

  it("changes the status; an unknown status is refused", async () => {
    expect(await actDetail(c.draft, { intent: "status", status: "draft" })).toEqual({ ok: true, intent: "status", message: "Status: draft." });
    expect(await actDetail(c.draft, { intent: "status", status: "archived" })).toEqual({ ok: true, intent: "status", message: "Status: archived." });
    expect((await loadList("?status=archived")).list.collections.map((x) => x.id)).toContain(c.draft);
    const bad = await actDetail(c.draft, { intent: "status", status: "gone" });
    expect(bad).toMatchObject({ ok: false, intent: "status", error: expect.stringMatching(/^status: Invalid option/) });
  });

  it("features and unfeatures; an unknown collection is refused with the server's message", async () => {
    expect(await actDetail(c.draft, { intent: "featured", featured: "true" })).toEqual({ ok: true, intent: "featured", message: "Featured." });
    expect(await actDetail(c.draft, { intent: "featured", featured: "false" })).toEqual({ ok: true, intent: "featured", message: "No longer featured." });
    expect(await actDetail("nope", { intent: "featured", featured: "true" })).toEqual({ ok: false, intent: "featured", error: "Collection not found" });
    expect(await actDetail("nope", { intent: "publish" })).toEqual({ ok: false, intent: "publish", error: "Collection not found" });
  });

  it("answers an unknown intent", async () => {
    expect(await actDetail(c.draft, { intent: "bogus" })).toEqual({ ok: false, intent: "bogus", error: "Unknown action" });
  });

  it("deletes the collection and goes back to the list; a second delete is refused", async () => {
    const res = await actDetail(c.archived, { intent: "delete" });
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(302);
    expect((res as Response).headers.get("location")).toBe("/app/collections");
    expect((await thrown(loadDetail(c.archived))).status).toBe(404);
    expect(await app.database.db.product.count({ where: { id: gid(5) } })).toBe(1);
    expect(await actDetail(c.archived, { intent: "delete" })).toEqual({ ok: false, intent: "delete", error: "Collection not found" });
  });
});
