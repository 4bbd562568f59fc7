import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetGender } from "../../app/contract/common";
import { createTestApp, type TestApp } from "../helpers/app";
import { createStoreProducts, productGid as gid, type StoreProduct } from "../helpers/store-products";

let app: TestApp;
let editor: { id: string; token: string };
let vendorA: string;
let vendorB: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await createTestApp();
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const db = app.database.db;
  vendorA = (await db.vendor.create({ data: { name: "Vendor A", handle: "vendor-a" } })).id;
  vendorB = (await db.vendor.create({ data: { name: "Vendor B", handle: "vendor-b" } })).id;
  const mk = (name: string, handle: string, target_gender: TargetGender, vendor_id: string, sort_order: number) =>
    db.store.create({ data: { name, handle, target_gender, vendor_id, sort_order, size_recommendation: sort_order === 0 ? "Runs small: size up" : null } });
  ids.north = (await mk("North Menswear", "north-menswear", "menswear", vendorA, 0)).id;
  ids.rose = (await mk("Rose Atelier", "rose-atelier", "womenswear", vendorB, 1)).id;
  ids.common = (await mk("Common Goods", "common-goods", "both", vendorA, 2)).id;
  ids.empty = (await mk("Empty Shop", "empty-shop", "both", vendorB, 3)).id;

  const products: StoreProduct[] = [
    { n: 1, store: "north", gender: "menswear" },
    { n: 2, store: "north", gender: "menswear" },
    { n: 3, store: "north", gender: "both" },
    { n: 4, store: "north", gender: "womenswear" },
    { n: 5, store: "north", gender: "menswear", status: "draft" },
    { n: 6, store: "north", gender: "menswear" },
    { n: 7, store: "north", gender: "menswear" },
    { n: 11, store: "rose", gender: "womenswear" },
    { n: 12, store: "rose", gender: "womenswear" },
    { n: 21, store: "common", gender: "both" },
    { n: 22, store: "common", gender: "menswear" },
  ];
  await createStoreProducts(db, ids, products);
  // Followers: Rose has 2, North 1.
  for (const [store, count] of [
    ["rose", 2],
    ["north", 1],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const u = await app.createUser();
      await db.userFavoriteStore.create({ data: { user_id: u.id, store_id: ids[store] } });
    }
  }
});
afterAll(() => app?.close());

describe("stores: reads", () => {
  it("lists stores in their order with counts, total and paging", async () => {
    const r = await app.api("GET", "/stores");
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(4);
    expect(r.body.stores.map((s: { handle: string }) => s.handle)).toEqual(["north-menswear", "rose-atelier", "common-goods", "empty-shop"]);
    const north = r.body.stores[0];
    expect(north).toMatchObject({
      name: "North Menswear",
      target_gender: "menswear",
      vendor_id: vendorA,
      productCount: 6,
      followerCount: 1,
      size_recommendation: "Runs small: size up",
    });
    expect(typeof north.created_at).toBe("string");

    const page = await app.api("GET", "/stores", { query: { skip: 1, take: 2 } });
    expect(page.body).toMatchObject({ total: 4, skip: 1, take: 2 });
    expect(page.body.stores.map((s: { handle: string }) => s.handle)).toEqual(["rose-atelier", "common-goods"]);
  });

  it('filters by target gender ("both" stores included) and by name', async () => {
    const men = await app.api("GET", "/stores", { query: { target_gender: "menswear" } });
    expect(men.body.stores.map((s: { handle: string }) => s.handle)).toEqual(["north-menswear", "common-goods", "empty-shop"]);
    const q = await app.api("GET", "/stores", { query: { q: "ROSE" } });
    expect(q.body.total).toBe(1);
    expect(q.body.stores[0].id).toBe(ids.rose);
    const bad = await app.api("GET", "/stores", { query: { take: 500 } });
    expect(bad.status).toBe(400);
    const badGender = await app.api("GET", "/stores", { query: { target_gender: "kids" } });
    expect(badGender.status).toBe(400);
  });

  it("gets a store by id; an unknown id is 404", async () => {
    const r = await app.api("GET", `/stores/${ids.rose}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids.rose, followerCount: 2, productCount: 2 });
    const missing = await app.api("GET", "/stores/no-such-store");
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Store not found");
  });

  it("by ids (SPEC §5): keeps the order asked, skips unknown ids, empty list answers empty", async () => {
    const r = await app.api("POST", "/stores/by-ids", { body: { ids: [ids.common, "unknown", ids.north, ids.common] } });
    expect(r.status).toBe(200);
    expect(r.body.stores.map((s: { id: string }) => s.id)).toEqual([ids.common, ids.north]);
    const empty = await app.api("POST", "/stores/by-ids", { body: { ids: [] } });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ stores: [] });
  });

  it("by ids refuses a non-array, a missing list and empty or non-string ids with clear messages", async () => {
    const notArray = await app.api("POST", "/stores/by-ids", { body: { ids: ids.north } });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error.message).toBe("ids must be an array of store ids");
    const missing = await app.api("POST", "/stores/by-ids", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain("ids is required");
    const emptyId = await app.api("POST", "/stores/by-ids", { body: { ids: [ids.north, "  "] } });
    expect(emptyId.status).toBe(400);
    expect(emptyId.body.error.message).toBe("Each id must be a non-empty string (ids[1] is empty)");
    const numberId = await app.api("POST", "/stores/by-ids", { body: { ids: [42] } });
    expect(numberId.status).toBe(400);
    expect(numberId.body.error.message).toBe("Each id must be a non-empty string (ids[0] is 42)");
  });

  it("store names: sorted by name, take 25 by default, filter by q", async () => {
    const r = await app.api("GET", "/stores/names");
    expect(r.status).toBe(200);
    expect(r.body.stores.map((s: { name: string }) => s.name)).toEqual(["Common Goods", "Empty Shop", "North Menswear", "Rose Atelier"]);
    expect(Object.keys(r.body.stores[0]).sort()).toEqual(["handle", "id", "name"]);
    const q = await app.api("GET", "/stores/names", { query: { q: "at", take: 1 } });
    expect(q.body.stores).toEqual([{ id: ids.rose, name: "Rose Atelier", handle: "rose-atelier" }]);
    const bad = await app.api("GET", "/stores/names", { query: { take: 0 } });
    expect(bad.status).toBe(400);
  });

  it("store products: active only, newest first, 12 by default, gender filter includes both", async () => {
    const r = await app.api("GET", `/stores/${ids.north}/products`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 6, skip: 0, take: 12 });
    expect(r.body.products.map((p: { id: string }) => p.id)).toEqual([gid(7), gid(6), gid(4), gid(3), gid(2), gid(1)]);
    expect(r.body.products[0]).toMatchObject({
      title: "Product 7",
      storeId: ids.north,
      priceRange: { minVariantPrice: { amount: "17.00", currencyCode: "USD" } },
    });
    const men = await app.api("GET", `/stores/${ids.north}/products`, { query: { target_gender: "menswear", skip: 1, take: 2 } });
    expect(men.body.total).toBe(5);
    expect(men.body.products.map((p: { id: string }) => p.id)).toEqual([gid(6), gid(3)]);
    const missing = await app.api("GET", "/stores/nope/products");
    expect(missing.status).toBe(404);
  });

  it('stores by target gender: skip 0, take 10, 12 products per store, gender products with "both"', async () => {
    const r = await app.api("GET", "/stores/target-gender/menswear");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 3, skip: 0, take: 10 });
    const [north, common, empty] = r.body.stores;
    expect(north.id).toBe(ids.north);
    expect(north.products.map((p: { id: string }) => p.id)).toEqual([gid(7), gid(6), gid(3), gid(2), gid(1)]);
    expect(common.products.map((p: { id: string }) => p.id)).toEqual([gid(22), gid(21)]);
    expect(empty.products).toEqual([]);

    const few = await app.api("GET", "/stores/target-gender/womenswear", { query: { productsPerStore: 1 } });
    expect(few.body.stores.map((s: { id: string }) => s.id)).toEqual([ids.rose, ids.common, ids.empty]);
    expect(few.body.stores[0].products.map((p: { id: string }) => p.id)).toEqual([gid(12)]);

    const bad = await app.api("GET", "/stores/target-gender/kids");
    expect(bad.status).toBe(400);
  });

  it("insertions: most-followed stores with products for the gender, 4 products each, featured first", async () => {
    await app.database.db.storeFeaturedProduct.create({ data: { store_id: ids.north, product_id: gid(1), sort_order: 0 } });
    const r = await app.api("GET", "/stores/insertions");
    expect(r.status).toBe(200);
    // Rose (2 followers), North (1), then Common; Empty has no products.
    expect(r.body.stores.map((s: { id: string }) => s.id)).toEqual([ids.rose, ids.north, ids.common]);
    const north = r.body.stores[1];
    expect(north.products).toHaveLength(4);
    expect(north.products[0].id).toBe(gid(1));
    expect(north.products.slice(1).map((p: { id: string }) => p.id)).toEqual([gid(7), gid(6), gid(4)]);

    const men = await app.api("GET", "/stores/insertions", { query: { target_gender: "menswear", take: 1, skip: 0 } });
    expect(men.body.stores.map((s: { id: string }) => s.id)).toEqual([ids.north]);
    expect(men.body.stores[0].products.every((p: { target_gender: string }) => p.target_gender !== "womenswear")).toBe(true);
    await app.database.db.storeFeaturedProduct.deleteMany({ where: { store_id: ids.north } });
  });
});

describe("stores: writes (catalog.edit)", () => {
  it("creates a store with a handle made from the name; duplicates get a suffix", async () => {
    const r = await app.api("POST", "/stores", {
      token: editor.token,
      body: { name: "Lumière & Co.", vendor_id: vendorA, target_gender: "womenswear", description: "Silk" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: "Lumière & Co.",
      handle: "lumiere-and-co",
      target_gender: "womenswear",
      productCount: 0,
      followerCount: 0,
      description: "Silk",
    });
    const again = await app.api("POST", "/stores", { token: editor.token, body: { name: "Lumiere and Co", vendor_id: vendorA } });
    expect(again.status).toBe(201);
    expect(again.body.handle).toBe("lumiere-and-co-2");
    expect(again.body.target_gender).toBe("both");
    expect(again.body.sort_order).toBeGreaterThan(r.body.sort_order);
  });

  it("create refuses a missing name, an unknown vendor and a taken handle", async () => {
    const noName = await app.api("POST", "/stores", { token: editor.token, body: { name: " ", vendor_id: vendorA } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toBe("name: must not be empty");
    const noVendor = await app.api("POST", "/stores", { token: editor.token, body: { name: "X", vendor_id: "missing" } });
    expect(noVendor.status).toBe(404);
    expect(noVendor.body.error.message).toBe("Vendor not found");
    const taken = await app.api("POST", "/stores", { token: editor.token, body: { name: "X", vendor_id: vendorA, handle: "rose-atelier" } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('A store with the handle "rose-atelier" already exists');
    const badHandle = await app.api("POST", "/stores", { token: editor.token, body: { name: "X", vendor_id: vendorA, handle: "Not a handle!" } });
    expect(badHandle.status).toBe(400);
  });

  it("writes need catalog.edit", async () => {
    const shopper = await app.createUser();
    expect((await app.api("POST", "/stores", { token: shopper.token, body: { name: "X", vendor_id: vendorA } })).status).toBe(403);
    const other = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
    expect((await app.api("PATCH", `/stores/${ids.north}/rename`, { token: other.token, body: { name: "X" } })).status).toBe(403);
    expect((await app.api("DELETE", `/stores/${ids.empty}`)).status).toBe(401);
  });

  it("updates a store; an empty text clears a field; nothing to update is refused", async () => {
    const r = await app.api("PATCH", `/stores/${ids.common}`, {
      token: editor.token,
      body: { description: "Everyday basics", logo_url: "https://cdn.example.test/l.png", target_gender: "menswear", vendor_id: vendorB },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ description: "Everyday basics", logo_url: "https://cdn.example.test/l.png", target_gender: "menswear", vendor_id: vendorB });
    const cleared = await app.api("PATCH", `/stores/${ids.common}`, { token: editor.token, body: { logo_url: "", target_gender: "both" } });
    expect(cleared.body.logo_url).toBeNull();
    const nothing = await app.api("PATCH", `/stores/${ids.common}`, { token: editor.token, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toBe("Send at least one field to update");
    const handleTaken = await app.api("PATCH", `/stores/${ids.common}`, { token: editor.token, body: { handle: "north-menswear" } });
    expect(handleTaken.status).toBe(409);
    const missing = await app.api("PATCH", "/stores/nope", { token: editor.token, body: { name: "X" } });
    expect(missing.status).toBe(404);
  });

  it("rename keeps the handle unless updateHandle", async () => {
    const keep = await app.api("PATCH", `/stores/${ids.rose}/rename`, { token: editor.token, body: { name: "Rose & Thorn" } });
    expect(keep.status).toBe(200);
    expect(keep.body).toMatchObject({ name: "Rose & Thorn", handle: "rose-atelier" });
    const change = await app.api("PATCH", `/stores/${ids.rose}/rename`, { token: editor.token, body: { name: "Rose & Thorn", updateHandle: true } });
    expect(change.body).toMatchObject({ name: "Rose & Thorn", handle: "rose-and-thorn" });
    const empty = await app.api("PATCH", `/stores/${ids.rose}/rename`, { token: editor.token, body: { name: "" } });
    expect(empty.status).toBe(400);
    const missing = await app.api("PATCH", "/stores/nope/rename", { token: editor.token, body: { name: "X" } });
    expect(missing.status).toBe(404);
  });

  it("featured products: set in order (bare numeric ids accepted), read back active ones in sort order", async () => {
    const put = await app.api("PUT", `/stores/${ids.north}/featured-products`, { token: editor.token, body: { product_ids: ["6", gid(5), gid(1)] } });
    expect(put.status).toBe(200);
    expect(put.body.products.map((p: { id: string; sort_order: number }) => [p.id, p.sort_order])).toEqual([
      [gid(6), 0],
      [gid(5), 1],
      [gid(1), 2],
    ]);
    const get = await app.api("GET", `/stores/${ids.north}/featured-products`);
    expect(get.status).toBe(200);
    // Product 5 is a draft: the public does not see it.
    expect(get.body.products.map((p: { id: string }) => p.id)).toEqual([gid(6), gid(1)]);

    const reorder = await app.api("PUT", `/stores/${ids.north}/featured-products`, { token: editor.token, body: { product_ids: [gid(1), gid(6)] } });
    expect(reorder.body.products.map((p: { id: string }) => p.id)).toEqual([gid(1), gid(6)]);
    const rows = await app.database.db.storeFeaturedProduct.findMany({ where: { store_id: ids.north }, orderBy: { sort_order: "asc" } });
    expect(rows.map((r) => [r.product_id, r.sort_order])).toEqual([
      [gid(1), 0],
      [gid(6), 1],
    ]);
  });

  it("featured products refuse products of another store, unknown ids and duplicates", async () => {
    const foreign = await app.api("PUT", `/stores/${ids.north}/featured-products`, { token: editor.token, body: { product_ids: [gid(1), gid(11)] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe(`These products do not belong to this store: ${gid(11)}`);
    const unknown = await app.api("PUT", `/stores/${ids.north}/featured-products`, { token: editor.token, body: { product_ids: ["999"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(`Unknown product ids: ${gid(999)}`);
    const dupes = await app.api("PUT", `/stores/${ids.north}/featured-products`, { token: editor.token, body: { product_ids: [gid(1), "1"] } });
    expect(dupes.status).toBe(400);
    expect(dupes.body.error.message).toContain("more than once");
    // Nothing changed.
    const get = await app.api("GET", `/stores/${ids.north}/featured-products`);
    expect(get.body.products.map((p: { id: string }) => p.id)).toEqual([gid(1), gid(6)]);
    const missing = await app.api("GET", "/stores/nope/featured-products");
    expect(missing.status).toBe(404);
  });

  it("size recommendation: read, set and clear", async () => {
    const get = await app.api("GET", `/stores/${ids.north}/size-recommendation`);
    expect(get.body).toEqual({ storeId: ids.north, size_recommendation: "Runs small: size up" });
    const put = await app.api("PUT", `/stores/${ids.north}/size-recommendation`, { token: editor.token, body: { size_recommendation: "True to size" } });
    expect(put.status).toBe(200);
    expect(put.body.size_recommendation).toBe("True to size");
    const clear = await app.api("PUT", `/stores/${ids.north}/size-recommendation`, { token: editor.token, body: { size_recommendation: "" } });
    expect(clear.body.size_recommendation).toBeNull();
    const missingField = await app.api("PUT", `/stores/${ids.north}/size-recommendation`, { token: editor.token, body: {} });
    expect(missingField.status).toBe(400);
    expect((await app.api("GET", "/stores/nope/size-recommendation")).status).toBe(404);
  });

  it("delete refuses a store with products (409) unless force=true; products stay without a store", async () => {
    const refused = await app.api("DELETE", `/stores/${ids.rose}`, { token: editor.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This store still has 2 products: move or delete them first, or delete with force=true");
    const forced = await app.api("DELETE", `/stores/${ids.rose}`, { token: editor.token, query: { force: true } });
    expect(forced.status).toBe(200);
    expect(forced.body).toEqual({ ok: true, detachedProducts: 2 });
    const product = await app.database.db.product.findUniqueOrThrow({ where: { id: gid(11) } });
    expect(product.store_id).toBeNull();
    expect(await app.database.db.userFavoriteStore.count({ where: { store_id: ids.rose } })).toBe(0);

    const empty = await app.api("DELETE", `/stores/${ids.empty}`, { token: editor.token });
    expect(empty.body).toEqual({ ok: true, detachedProducts: 0 });
    expect((await app.api("GET", `/stores/${ids.empty}`)).status).toBe(404);
    expect((await app.api("DELETE", `/stores/${ids.empty}`, { token: editor.token })).status).toBe(404);
  });
});
