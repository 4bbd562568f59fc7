import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetGender } from "../../app/contract/common";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let editor: { id: string; token: string };
let vendorId: string;
let otherVendorId: string;
const gid = (n: number) => `gid://shopify/Product/${n}`;
const c: Record<string, string> = {};

const PRODUCTS: { n: number; title: string; gender: TargetGender; status?: "active" | "draft"; type?: string; tags?: string[]; description?: string }[] = [
  { n: 1, title: "Linen Shirt", gender: "menswear", type: "Shirts", tags: ["summer"] },
  { n: 2, title: "Silk Dress", gender: "womenswear", type: "Dresses", description: "A bias-cut midi in washed silk" },
  { n: 3, title: "Denim Jacket", gender: "both", type: "Jackets" },
  { n: 4, title: "Linen Trousers", gender: "menswear", type: "Trousers", tags: ["summer"] },
  { n: 5, title: "Draft Linen Hoodie", gender: "menswear", status: "draft" },
  { n: 6, title: "Wool Coat", gender: "womenswear", type: "Coats" },
];

const ids = (list: { id: string }[]) => list.map((x) => x.id);

beforeAll(async () => {
  app = await createTestApp();
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const db = app.database.db;
  vendorId = (await db.vendor.create({ data: { name: "Partner", handle: "partner" } })).id;
  otherVendorId = (await db.vendor.create({ data: { name: "Other", handle: "other" } })).id;
  const base = Date.now() - 100_000;
  for (const p of PRODUCTS) {
    await db.product.create({
      data: {
        id: gid(p.n),
        title: p.title,
        handle: p.title.toLowerCase().replace(/\s+/g, "-"),
        vendor: "Studio",
        productType: p.type ?? "Apparel",
        description: p.description ?? "",
        tags: p.tags ?? [],
        target_gender: p.gender,
        status: p.status ?? "active",
        priceMin: 10,
        priceMax: 10,
        created_at: new Date(base + p.n * 1000),
      },
    });
  }
  const mk = async (
    key: string,
    data: {
      title: string;
      handle: string;
      status: "draft" | "active" | "archived";
      featured?: boolean;
      target_gender?: TargetGender;
      sort_order: number;
      partner_id?: string;
      products?: number[];
    }
  ) => {
    const row = await db.collection.create({
      data: {
        title: data.title,
        handle: data.handle,
        status: data.status,
        featured: data.featured ?? false,
        target_gender: data.target_gender ?? "both",
        sort_order: data.sort_order,
        partner_id: data.partner_id ?? null,
        published_at: data.status === "active" ? new Date() : null,
        products: { create: (data.products ?? []).map((n, position) => ({ product_id: gid(n), position })) },
      },
    });
    c[key] = row.id;
  };
  await mk("summer", { title: "Summer Linen", handle: "summer-linen", status: "active", featured: true, sort_order: 0, products: [4, 1, 5, 3] });
  await mk("women", { title: "Womenswear Edit", handle: "womenswear-edit", status: "active", target_gender: "womenswear", sort_order: 1, products: [2, 6] });
  await mk("draft", { title: "Secret Draft", handle: "secret-draft", status: "draft", sort_order: 2, products: [] });
  await mk("archived", { title: "Old Stuff", handle: "old-stuff", status: "archived", sort_order: 3, products: [1] });
  await mk("partner", { title: "Partner Picks", handle: "partner-picks", status: "active", sort_order: 4, partner_id: vendorId, products: [3] });
});
afterAll(() => app?.close());

describe("collections: public reads", () => {
  it("lists active collections only, in sort order, with total and product counts", async () => {
    const r = await app.api("GET", "/collections");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 3, skip: 0, take: 20 });
    expect(ids(r.body.collections)).toEqual([c.summer, c.women, c.partner]);
    expect(r.body.collections[0]).toMatchObject({ title: "Summer Linen", status: "active", featured: true, version: 1, view_count: 0, productCount: 4 });
    const page = await app.api("GET", "/collections", { query: { skip: 1, take: 1 } });
    expect(ids(page.body.collections)).toEqual([c.women]);
    const men = await app.api("GET", "/collections", { query: { target_gender: "menswear" } });
    expect(ids(men.body.collections)).toEqual([c.summer, c.partner]);
  });

  it("a status filter is for catalogue editors; the public gets 403 for drafts", async () => {
    const pub = await app.api("GET", "/collections", { query: { status: "draft" } });
    expect(pub.status).toBe(403);
    const drafts = await app.api("GET", "/collections", { token: editor.token, query: { status: "draft" } });
    expect(ids(drafts.body.collections)).toEqual([c.draft]);
    const all = await app.api("GET", "/collections", { token: editor.token, query: { status: "all" } });
    expect(all.body.total).toBe(5);
    const bad = await app.api("GET", "/collections", { token: editor.token, query: { status: "deleted" } });
    expect(bad.status).toBe(400);
  });

  it("gets by id, handle and name; drafts are 404 to the public, visible to editors", async () => {
    expect((await app.api("GET", `/collections/${c.summer}`)).body.handle).toBe("summer-linen");
    const draft = await app.api("GET", `/collections/${c.draft}`);
    expect(draft.status).toBe(404);
    expect(draft.body.error.message).toBe("Collection not found");
    expect((await app.api("GET", `/collections/${c.draft}`, { token: editor.token })).status).toBe(200);
    expect((await app.api("GET", "/collections/handle/summer-linen")).body.id).toBe(c.summer);
    expect((await app.api("GET", "/collections/handle/secret-draft")).status).toBe(404);
    expect((await app.api("GET", `/collections/name/${encodeURIComponent("summer LINEN")}`)).body.id).toBe(c.summer);
    expect((await app.api("GET", "/collections/name/Secret%20Draft")).status).toBe(404);
  });

  it("with-products: first 20 active products in collection order with their total", async () => {
    const r = await app.api("GET", "/collections/handle/summer-linen/with-products");
    expect(r.status).toBe(200);
    expect(r.body.collection.id).toBe(c.summer);
    expect(ids(r.body.products)).toEqual([gid(4), gid(1), gid(3)]);
    expect(r.body.total).toBe(3);
    expect(r.body.products[0]).toMatchObject({ title: "Linen Trousers", priceRange: { minVariantPrice: { amount: "10.00" } } });
    const one = await app.api("GET", "/collections/handle/summer-linen/with-products", { query: { take: 1 } });
    expect(one.body.products).toHaveLength(1);
    expect(one.body.total).toBe(3);
    expect((await app.api("GET", "/collections/handle/secret-draft/with-products")).status).toBe(404);
  });

  it("admin by handle: any status, every product in order (drafts too)", async () => {
    const r = await app.api("GET", "/collections/admin/handle/summer-linen", { token: editor.token });
    expect(ids(r.body.products)).toEqual([gid(4), gid(1), gid(5), gid(3)]);
    expect(r.body.total).toBe(4);
    const draft = await app.api("GET", "/collections/admin/handle/secret-draft", { token: editor.token });
    expect(draft.status).toBe(200);
    expect(draft.body.collection.status).toBe("draft");
    expect((await app.api("GET", "/collections/admin/handle/nope", { token: editor.token })).status).toBe(404);
  });

  it("featured and by target gender", async () => {
    const f = await app.api("GET", "/collections/featured");
    expect(ids(f.body.collections)).toEqual([c.summer]);
    const w = await app.api("GET", "/collections/target_gender/womenswear");
    expect(ids(w.body.collections)).toEqual([c.summer, c.women, c.partner]);
    const m = await app.api("GET", "/collections/target_gender/menswear", { query: { take: 1 } });
    expect(m.body).toMatchObject({ total: 2, take: 1 });
    expect((await app.api("GET", "/collections/target_gender/kids")).status).toBe(400);
  });

  it("insertions and featured insertions: collections with 4 products for the gender", async () => {
    const all = await app.api("GET", "/collections/insertions");
    expect(all.status).toBe(200);
    expect(ids(all.body.collections)).toEqual([c.summer, c.women, c.partner]);
    expect(ids(all.body.collections[0].products)).toEqual([gid(4), gid(1), gid(3)]);
    const men = await app.api("GET", "/collections/insertions", { query: { target_gender: "menswear" } });
    expect(ids(men.body.collections)).toEqual([c.summer, c.partner]);
    const featured = await app.api("GET", "/collections/featured-insertions", { query: { target_gender: "womenswear" } });
    expect(ids(featured.body.collections)).toEqual([c.summer]);
    // Womenswear sees the "both" product only.
    expect(ids(featured.body.collections[0].products)).toEqual([gid(3)]);
    expect((await app.api("GET", "/collections/insertions", { query: { take: 0 } })).status).toBe(400);
  });

  it("products paginated (skip, take, target_gender) and search inside a collection", async () => {
    const page = await app.api("GET", `/collections/${c.summer}/products/paginated`, { query: { skip: 1, take: 1 } });
    expect(page.body).toMatchObject({ total: 3, skip: 1, take: 1 });
    expect(ids(page.body.products)).toEqual([gid(1)]);
    const women = await app.api("GET", `/collections/${c.summer}/products/paginated`, { query: { target_gender: "womenswear" } });
    expect(ids(women.body.products)).toEqual([gid(3)]);
    expect((await app.api("GET", `/collections/${c.draft}/products/paginated`)).status).toBe(404);

    const search = await app.api("GET", `/collections/${c.summer}/products/search`, { query: { q: "linen" } });
    expect(ids(search.body.products)).toEqual([gid(4), gid(1)]);
    const tag = await app.api("GET", `/collections/${c.summer}/products/search`, { query: { q: "summer shirt" } });
    expect(ids(tag.body.products)).toEqual([gid(1)]);
    const desc = await app.api("GET", `/collections/${c.women}/products/search`, { query: { q: "midi" } });
    expect(ids(desc.body.products)).toEqual([gid(2)]);
    const noQ = await app.api("GET", `/collections/${c.summer}/products/search`);
    expect(noQ.status).toBe(400);
    expect(noQ.body.error.message).toBe("q is required");
  });

  it("increment-view counts atomically and answers the new count; drafts are 404", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => app.api("POST", `/collections/${c.women}/increment-view`)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.map((r) => r.body.view_count).sort()).toEqual([1, 2, 3, 4, 5]);
    const next = await app.api("POST", `/collections/${c.women}/increment-view`);
    expect(next.body).toEqual({ id: c.women, view_count: 6 });
    expect((await app.api("POST", `/collections/${c.draft}/increment-view`)).status).toBe(404);
    expect((await app.api("POST", "/collections/nope/increment-view")).status).toBe(404);
  });
});

describe("collections: admin writes", () => {
  let created: string;

  it("creates a draft with a handle from the title and optional products", async () => {
    const r = await app.api("POST", "/collections", {
      token: editor.token,
      body: { title: "Autumn Layers", products: ["3", gid(6), gid(3)], target_gender: "womenswear" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      title: "Autumn Layers",
      handle: "autumn-layers",
      status: "draft",
      featured: false,
      version: 1,
      productCount: 2,
      target_gender: "womenswear",
      published_at: null,
    });
    created = r.body.id;
    const dup = await app.api("POST", "/collections", { token: editor.token, body: { title: "Autumn layers" } });
    expect(dup.body.handle).toBe("autumn-layers-2");
    await app.api("DELETE", `/collections/admin/${dup.body.id}`, { token: editor.token });
  });

  it("create refuses a missing title, unknown products, an unknown partner and a taken handle", async () => {
    const noTitle = await app.api("POST", "/collections", { token: editor.token, body: {} });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.error.message).toBe("title is required");
    const blank = await app.api("POST", "/collections", { token: editor.token, body: { title: "  " } });
    expect(blank.body.error.message).toBe("title: must not be empty");
    const unknown = await app.api("POST", "/collections", { token: editor.token, body: { title: "X", products: [gid(1), "777"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(`Unknown product ids: ${gid(777)}`);
    const partner = await app.api("POST", "/collections", { token: editor.token, body: { title: "X", partner_id: "nope" } });
    expect(partner.status).toBe(404);
    const taken = await app.api("POST", "/collections", { token: editor.token, body: { title: "X", handle: "summer-linen" } });
    expect(taken.status).toBe(409);
    const anon = await app.api("POST", "/collections", { body: { title: "X" } });
    expect(anon.status).toBe(401);
  });

  it("publish refuses a collection without products (422), then publishes", async () => {
    const empty = await app.api("POST", `/collections/${c.draft}/publish`, { token: editor.token });
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toBe("A collection needs at least one product before it can be published");
    const ok = await app.api("POST", `/collections/${created}/publish`, { token: editor.token });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("active");
    expect(Date.parse(ok.body.published_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await app.api("GET", "/collections/handle/autumn-layers")).status).toBe(200);
    expect((await app.api("POST", "/collections/nope/publish", { token: editor.token })).status).toBe(404);
  });

  it("adds products idempotently at the end; unknown ids are refused and listed", async () => {
    const add = await app.api("POST", `/collections/admin/${created}/products`, { token: editor.token, body: { products: [gid(1), "3"] } });
    expect(add.status).toBe(200);
    expect(add.body.changed).toBe(1);
    expect(add.body.collection).toMatchObject({ productCount: 3, version: 2 });
    const again = await app.api("POST", `/collections/admin/${created}/products`, { token: editor.token, body: { products: [gid(1)] } });
    expect(again.body).toMatchObject({ changed: 0, collection: { productCount: 3, version: 2 } });
    const unknown = await app.api("POST", `/collections/admin/${created}/products`, { token: editor.token, body: { products: [gid(1), "888", "999"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(`Unknown product ids: ${gid(888)}, ${gid(999)}`);
    expect(unknown.body.error.details).toEqual({ unknown: [gid(888), gid(999)] });
    const notArray = await app.api("POST", `/collections/admin/${created}/products`, { token: editor.token, body: { products: gid(1) } });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error.message).toBe("products: must be an array of product ids");
    const noList = await app.api("POST", `/collections/admin/${created}/products`, { token: editor.token, body: {} });
    expect(noList.body.error.message).toBe("products is required");
    const admin = await app.api("GET", "/collections/admin/handle/autumn-layers", { token: editor.token });
    expect(ids(admin.body.products)).toEqual([gid(3), gid(6), gid(1)]);
  });

  it("reorders products with the full new order; a partial or foreign list is refused", async () => {
    const r = await app.api("PUT", `/collections/admin/${created}/products/order`, { token: editor.token, body: { products: [gid(1), gid(3), "6"] } });
    expect(r.status).toBe(200);
    expect(r.body.products).toEqual([gid(1), gid(3), gid(6)]);
    const admin = await app.api("GET", "/collections/admin/handle/autumn-layers", { token: editor.token });
    expect(ids(admin.body.products)).toEqual([gid(1), gid(3), gid(6)]);
    const partial = await app.api("PUT", `/collections/admin/${created}/products/order`, { token: editor.token, body: { products: [gid(1), gid(3)] } });
    expect(partial.status).toBe(400);
    expect(partial.body.error.message).toBe(`The order must list every product of the collection; missing: ${gid(6)}`);
    const foreign = await app.api("PUT", `/collections/admin/${created}/products/order`, {
      token: editor.token,
      body: { products: [gid(1), gid(3), gid(6), gid(2)] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe(`These products are not in the collection: ${gid(2)}`);
    const dupes = await app.api("PUT", `/collections/admin/${created}/products/order`, {
      token: editor.token,
      body: { products: [gid(1), gid(1), gid(3), gid(6)] },
    });
    expect(dupes.status).toBe(400);
  });

  it("removes products idempotently", async () => {
    const r = await app.api("DELETE", `/collections/admin/${created}/products`, { token: editor.token, body: { products: [gid(3), gid(2)] } });
    expect(r.status).toBe(200);
    expect(r.body.changed).toBe(1);
    expect(r.body.collection.productCount).toBe(2);
    const again = await app.api("DELETE", `/collections/admin/${created}/products`, { token: editor.token, body: { products: [gid(3)] } });
    expect(again.body.changed).toBe(0);
    const unknown = await app.api("DELETE", `/collections/admin/${created}/products`, { token: editor.token, body: { products: ["12345"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(`Unknown product ids: ${gid(12345)}`);
    expect((await app.api("DELETE", "/collections/admin/nope/products", { token: editor.token, body: { products: [gid(1)] } })).status).toBe(404);
  });

  it("updates details (version increments; a stale version is 409)", async () => {
    const before = (await app.api("GET", `/collections/${created}`, { token: editor.token })).body;
    const r = await app.api("PATCH", `/collections/admin/${created}`, {
      token: editor.token,
      body: { title: "Autumn Layers 2025", description: "Coats", version: before.version },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Autumn Layers 2025", handle: "autumn-layers", description: "Coats", version: before.version + 1 });
    const stale = await app.api("PATCH", `/collections/admin/${created}`, { token: editor.token, body: { title: "Lost update", version: before.version } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toContain(`it is at version ${before.version + 1}`);
    const empty = await app.api("PATCH", `/collections/admin/${created}`, { token: editor.token, body: { version: 3 } });
    expect(empty.status).toBe(400);
    expect((await app.api("PATCH", "/collections/admin/nope", { token: editor.token, body: { title: "X" } })).status).toBe(404);
  });

  it("version: optimistic bump", async () => {
    const current = (await app.api("GET", `/collections/${created}`, { token: editor.token })).body.version;
    const ok = await app.api("PATCH", `/collections/admin/${created}/version`, { token: editor.token, body: { version: current } });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(current + 1);
    const stale = await app.api("PATCH", `/collections/admin/${created}/version`, { token: editor.token, body: { version: current } });
    expect(stale.status).toBe(409);
    const missing = await app.api("PATCH", `/collections/admin/${created}/version`, { token: editor.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("version is required");
    expect((await app.api("PATCH", "/collections/admin/nope/version", { token: editor.token, body: { version: 1 } })).status).toBe(404);
  });

  it("status and featured", async () => {
    const archived = await app.api("PATCH", `/collections/admin/${created}/status`, { token: editor.token, body: { status: "archived" } });
    expect(archived.body.status).toBe("archived");
    expect((await app.api("GET", `/collections/${created}`)).status).toBe(404);
    const active = await app.api("PATCH", `/collections/admin/${created}/status`, { token: editor.token, body: { status: "active" } });
    expect(active.body.status).toBe("active");
    const noProducts = await app.api("PATCH", `/collections/admin/${c.draft}/status`, { token: editor.token, body: { status: "active" } });
    expect(noProducts.status).toBe(422);
    const bad = await app.api("PATCH", `/collections/admin/${created}/status`, { token: editor.token, body: { status: "published" } });
    expect(bad.status).toBe(400);

    const f = await app.api("PATCH", `/collections/admin/${created}/featured`, { token: editor.token, body: { featured: true } });
    expect(f.body.featured).toBe(true);
    expect(ids((await app.api("GET", "/collections/featured")).body.collections)).toContain(created);
    const badF = await app.api("PATCH", `/collections/admin/${created}/featured`, { token: editor.token, body: { featured: "yes" } });
    expect(badF.status).toBe(400);
  });

  it("orders collections: listed ids first, the rest after in their order; unknown ids refused", async () => {
    const r = await app.api("PUT", "/collections/admin/order", { token: editor.token, body: { ids: [c.partner, c.women] } });
    expect(r.status).toBe(200);
    expect(r.body.ids.slice(0, 4)).toEqual([c.partner, c.women, c.summer, c.draft]);
    const list = await app.api("GET", "/collections");
    expect(ids(list.body.collections).slice(0, 3)).toEqual([c.partner, c.women, c.summer]);
    const unknown = await app.api("PUT", "/collections/admin/order", { token: editor.token, body: { ids: [c.partner, "nope"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe("Unknown collection ids: nope");
    const empty = await app.api("PUT", "/collections/admin/order", { token: editor.token, body: { ids: [] } });
    expect(empty.status).toBe(400);
  });

  it("deletes a collection; its products stay", async () => {
    const r = await app.api("DELETE", `/collections/admin/${created}`, { token: editor.token });
    expect(r.body).toEqual({ ok: true });
    expect((await app.api("GET", `/collections/${created}`, { token: editor.token })).status).toBe(404);
    expect(await app.database.db.product.count({ where: { id: gid(1) } })).toBe(1);
    expect((await app.api("DELETE", `/collections/admin/${created}`, { token: editor.token })).status).toBe(404);
  });

  it("admin writes need catalog.edit", async () => {
    const other = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
    expect((await app.api("PATCH", `/collections/admin/${c.summer}/featured`, { token: other.token, body: { featured: false } })).status).toBe(403);
    const shopper = await app.createUser();
    expect((await app.api("POST", `/collections/${c.summer}/publish`, { token: shopper.token })).status).toBe(403);
  });
});

describe("partner collections", () => {
  it("a vendor lists, updates and deletes their own partner collections", async () => {
    const vendor = await app.createUser({ role: "VENDOR", vendorId });
    const list = await app.api("GET", `/collections/partner/${vendorId}/collections`, { token: vendor.token });
    expect(list.status).toBe(200);
    expect(ids(list.body.collections)).toEqual([c.partner]);
    const upd = await app.api("PATCH", `/collections/partner/${vendorId}/collections/${c.partner}`, { token: vendor.token, body: { title: "Our Picks" } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ title: "Our Picks", partner_id: vendorId });
    // Not a partner collection of this vendor: 404.
    const notTheirs = await app.api("PATCH", `/collections/partner/${vendorId}/collections/${c.summer}`, { token: vendor.token, body: { title: "Mine now" } });
    expect(notTheirs.status).toBe(404);
  });

  it("a vendor may not use another vendor's id (403); an unknown partner is 404", async () => {
    const vendor = await app.createUser({ role: "VENDOR", vendorId });
    const other = await app.api("GET", `/collections/partner/${otherVendorId}/collections`, { token: vendor.token });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe("Vendors may only manage their own collections");
    expect((await app.api("DELETE", `/collections/partner/${otherVendorId}/collections/${c.partner}`, { token: vendor.token })).status).toBe(403);
    expect((await app.api("GET", "/collections/partner/nope/collections", { token: vendor.token })).status).toBe(404);
    const shopper = await app.createUser();
    expect((await app.api("GET", `/collections/partner/${vendorId}/collections`, { token: shopper.token })).status).toBe(403);
  });

  it("an admin uses any partner id; writes need catalog.edit; delete removes the collection", async () => {
    const viewer = await app.createUser({ role: "ADMIN", permissions: [] });
    expect((await app.api("GET", `/collections/partner/${vendorId}/collections`, { token: viewer.token })).status).toBe(200);
    expect((await app.api("DELETE", `/collections/partner/${vendorId}/collections/${c.partner}`, { token: viewer.token })).status).toBe(403);
    const del = await app.api("DELETE", `/collections/partner/${vendorId}/collections/${c.partner}`, { token: editor.token });
    expect(del.status).toBe(200);
    expect((await app.api("GET", `/collections/partner/${vendorId}/collections`, { token: editor.token })).body.total).toBe(0);
  });
});
