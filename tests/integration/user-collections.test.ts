/**
 * A shopper's own collections (SPEC §7 "User collections (responses wrapped in data)"): create,
 * list (AI-generated ones too), get, rename, delete, products, add and remove — and ownership:
 * another shopper gets 404 for every call on your collection, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Messages } from "../../app/contract/messages";
import { USER_COLLECTIONS_MAX } from "../../app/contract/user-collections";
import { createUserCollection } from "../../app/services/user-collections.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
const gid = (n: number) => `gid://shopify/Product/${n}`;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  for (let n = 1; n <= 30; n++) {
    await db.product.create({
      data: {
        id: gid(n),
        title: `Collection test product ${n}`,
        handle: `uc-test-${n}`,
        vendor: "Test",
        productType: "Knitwear",
        availableForSale: true,
        priceMin: 30,
        priceMax: 30,
        featuredImageUrl: n % 5 === 0 ? null : `/uploads/images/uc${n}.jpg`,
        status: n === 30 ? "draft" : "active",
      },
    });
  }
});
afterAll(() => app?.close());

const create = (token: string, body: unknown) => app.api("POST", "/user-collections", { token, body });

describe("user collections: access", () => {
  const calls: [string, string, unknown?][] = [
    ["POST", "/user-collections", { name: "x" }],
    ["GET", "/user-collections"],
    ["GET", "/user-collections/x"],
    ["PATCH", "/user-collections/x", { name: "y" }],
    ["DELETE", "/user-collections/x"],
    ["GET", "/user-collections/x/products"],
    ["POST", "/user-collections/x/products", { product_ids: [gid(1)] }],
    ["DELETE", "/user-collections/x/products", { product_ids: [gid(1)] }],
  ];
  it.each(calls)('%s %s without a session: 401 "User is not authenticated"', async (method, path, body) => {
    const r = await app.api(method, path, { body });
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe(Messages.USER_NOT_AUTHENTICATED);
  });

  it("a guest may keep collections", async () => {
    const guest = await app.createUser({ authProvider: "guest" });
    const r = await create(guest.token, { name: "Guest picks" });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ name: "Guest picks", productCount: 0, is_ai_generated: false });
  });
});

describe("user collections: create, read, rename, delete", () => {
  it("creates a collection with products (wrapped in data), in the order given, with preview images", async () => {
    const u = await app.createUser();
    const r = await create(u.token, { name: "  Winter knits ", description: "Warm things", product_ids: ["3", gid(1), gid(5), gid(2), gid(1)] });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      name: "Winter knits",
      description: "Warm things",
      is_ai_generated: false,
      prompt: null,
      productCount: 4,
      image_url: "/uploads/images/uc3.jpg",
    });
    // Product 5 has no image: previews skip it
    expect(r.body.data.previewImages.map((i: { url: string }) => i.url)).toEqual([
      "/uploads/images/uc3.jpg",
      "/uploads/images/uc1.jpg",
      "/uploads/images/uc2.jpg",
    ]);
    const products = await app.api("GET", `/user-collections/${r.body.data.id}/products`, { token: u.token });
    expect(products.status).toBe(200);
    expect(products.body.data.items.map((i: { product_id: string }) => i.product_id)).toEqual([gid(3), gid(1), gid(5), gid(2)]);
    expect(products.body.data.items[0].product).toMatchObject({ id: gid(3), title: "Collection test product 3" });
  });

  it("refuses a missing or empty name, a too long one, unknown or hidden products", async () => {
    const u = await app.createUser();
    for (const body of [{}, { name: "   " }, { name: "x".repeat(101) }, { name: "ok", description: "d".repeat(1001) }, { name: "ok", product_ids: "nope" }]) {
      expect((await create(u.token, body)).status, JSON.stringify(body).slice(0, 50)).toBe(400);
    }
    const unknown = await create(u.token, { name: "ok", product_ids: [gid(1), gid(999), gid(30)] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(`Products not found: ${gid(999)}, ${gid(30)}`);
    expect(await app.database.db.userCollection.count({ where: { user_id: u.id } })).toBe(0);
  });

  it("lists the caller's collections newest first, AI-generated ones included, and marks those holding a product", async () => {
    const u = await app.createUser();
    const a = (await create(u.token, { name: "First", product_ids: [gid(1)] })).body.data;
    await new Promise((r) => setTimeout(r, 5));
    // What the personalised-collection generator stores (assistant area)
    const ai = await createUserCollection(app.database.db, u.id, {
      name: "For your weekend",
      product_ids: [gid(2), gid(3)],
      is_ai_generated: true,
      prompt: "relaxed weekend looks",
    });
    await new Promise((r) => setTimeout(r, 5));
    const c = (await create(u.token, { name: "Third" })).body.data;
    const list = await app.api("GET", "/user-collections", { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, ai.id, a.id]);
    expect(list.body.data[1]).toMatchObject({ is_ai_generated: true, prompt: "relaxed weekend looks", productCount: 2 });
    expect(list.body.data[0].containsProduct).toBeUndefined();
    expect(list.body.nextCursor).toBeNull();

    const marked = await app.api("GET", "/user-collections", { token: u.token, query: { product_id: "2" } });
    expect(marked.body.data.map((x: { containsProduct: boolean }) => x.containsProduct)).toEqual([false, true, false]);

    const page1 = await app.api("GET", "/user-collections", { token: u.token, query: { limit: 2 } });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await app.api("GET", "/user-collections", { token: u.token, query: { limit: 2, cursor: page1.body.nextCursor } });
    expect(page2.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await app.api("GET", "/user-collections", { token: u.token, query: { cursor: "bad" } })).status).toBe(400);
  });

  it("gets, renames and deletes a collection", async () => {
    const u = await app.createUser();
    const c = (await create(u.token, { name: "Old name", description: "text" })).body.data;
    const got = await app.api("GET", `/user-collections/${c.id}`, { token: u.token });
    expect(got.body).toEqual({ data: expect.objectContaining({ id: c.id, name: "Old name" }) });
    const renamed = await app.api("PATCH", `/user-collections/${c.id}`, { token: u.token, body: { name: "New name" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "New name", description: "text" });
    const cleared = await app.api("PATCH", `/user-collections/${c.id}`, { token: u.token, body: { description: "" } });
    expect(cleared.body.data).toMatchObject({ name: "New name", description: null });
    expect((await app.api("PATCH", `/user-collections/${c.id}`, { token: u.token, body: {} })).status).toBe(400);
    expect((await app.api("PATCH", `/user-collections/${c.id}`, { token: u.token, body: { name: "" } })).status).toBe(400);

    const del = await app.api("DELETE", `/user-collections/${c.id}`, { token: u.token });
    expect(del.body).toEqual({ data: { id: c.id, deleted: true } });
    expect((await app.api("GET", `/user-collections/${c.id}`, { token: u.token })).status).toBe(404);
    expect((await app.api("DELETE", `/user-collections/${c.id}`, { token: u.token })).status).toBe(404);
    // Products stay in the catalogue
    expect(await app.database.db.product.count({ where: { id: gid(1) } })).toBe(1);
  });

  it(`keeps at most ${USER_COLLECTIONS_MAX} collections per shopper`, async () => {
    const u = await app.createUser();
    await app.database.db.userCollection.createMany({ data: Array.from({ length: USER_COLLECTIONS_MAX }, (_, i) => ({ user_id: u.id, name: `c${i}` })) });
    const r = await create(u.token, { name: "one too many" });
    expect(r.status).toBe(422);
    expect(r.body.error.message).toMatch(/at most 200 collections/);
  });
});

describe("user collections: products", () => {
  it("adds products at the end (ones already in it stay), lists them by pages, removes them", async () => {
    const u = await app.createUser();
    const c = (await create(u.token, { name: "Mix", product_ids: [gid(1), gid(2)] })).body.data;
    const add = await app.api("POST", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [gid(2), "4", gid(3), gid(4)] } });
    expect(add.status).toBe(200);
    expect(add.body.data.added).toEqual([gid(4), gid(3)]);
    expect(add.body.data.collection.productCount).toBe(4);
    const again = await app.api("POST", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [gid(1)] } });
    expect(again.body.data.added).toEqual([]);

    for (let n = 6; n <= 29; n++) await app.api("POST", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [gid(n)] } });
    const first = await app.api("GET", `/user-collections/${c.id}/products`, { token: u.token });
    expect(first.body.data.items).toHaveLength(20);
    expect(first.body.data.items.slice(0, 5).map((i: { product_id: string }) => i.product_id)).toEqual([gid(1), gid(2), gid(4), gid(3), gid(6)]);
    const second = await app.api("GET", `/user-collections/${c.id}/products`, { token: u.token, query: { cursor: first.body.data.nextCursor } });
    // 28 in all: 1, 2, 4, 3, then 6…29; the second page holds the last 8
    expect(second.body.data.items.map((i: { product_id: string }) => i.product_id)).toEqual([22, 23, 24, 25, 26, 27, 28, 29].map(gid));
    expect(second.body.data.nextCursor).toBeNull();

    const removed = await app.api("DELETE", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [gid(2), gid(999), "3"] } });
    expect(removed.status).toBe(200);
    expect(removed.body.data.removed.sort()).toEqual([gid(2), gid(3)].sort());
    expect(removed.body.data.collection.productCount).toBe(26);
  });

  it('refuses unknown and hidden products, and an empty list ("No product ID provided")', async () => {
    const u = await app.createUser();
    const c = (await create(u.token, { name: "Strict" })).body.data;
    const hidden = await app.api("POST", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [gid(30)] } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe(`Product not found: ${gid(30)}`);
    const empty = await app.api("POST", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe(Messages.NO_PRODUCT_ID);
    const blank = await app.api("POST", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [""] } });
    expect(blank.body.error.message).toBe(Messages.NO_PRODUCT_ID);
    expect((await app.api("GET", `/user-collections/${c.id}`, { token: u.token })).body.data.productCount).toBe(0);
  });

  it("a product taken down after it was added is listed as null and can be removed", async () => {
    const u = await app.createUser();
    const c = (await create(u.token, { name: "Changing", product_ids: [gid(8), gid(9)] })).body.data;
    await app.database.db.product.update({ where: { id: gid(9) }, data: { status: "archived" } });
    try {
      const list = await app.api("GET", `/user-collections/${c.id}/products`, { token: u.token });
      expect(list.body.data.items.map((i: { product: unknown }) => i.product === null)).toEqual([false, true]);
      const rm = await app.api("DELETE", `/user-collections/${c.id}/products`, { token: u.token, body: { product_ids: [gid(9)] } });
      expect(rm.body.data.removed).toEqual([gid(9)]);
    } finally {
      await app.database.db.product.update({ where: { id: gid(9) }, data: { status: "active" } });
    }
  });
});

describe("user collections: ownership", () => {
  it("another shopper gets 404 for every call on your collection, and nothing changes", async () => {
    const a = await app.createUser();
    const b = await app.createUser();
    const c = (await create(a.token, { name: "Private", description: "mine", product_ids: [gid(1), gid(2)] })).body.data;
    const attempts: [string, string, unknown?][] = [
      ["GET", `/user-collections/${c.id}`],
      ["PATCH", `/user-collections/${c.id}`, { name: "Hijacked" }],
      ["GET", `/user-collections/${c.id}/products`],
      ["POST", `/user-collections/${c.id}/products`, { product_ids: [gid(3)] }],
      ["DELETE", `/user-collections/${c.id}/products`, { product_ids: [gid(1)] }],
      ["DELETE", `/user-collections/${c.id}`],
    ];
    for (const [method, path, body] of attempts) {
      const r = await app.api(method, path, { token: b.token, body });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.message).toBe("Collection not found");
    }
    // A guest is another shopper too
    const guest = await app.createUser({ authProvider: "guest" });
    expect((await app.api("GET", `/user-collections/${c.id}`, { token: guest.token })).status).toBe(404);

    expect((await app.api("GET", "/user-collections", { token: b.token })).body.data).toEqual([]);
    expect((await app.api("GET", "/user-collections", { token: b.token, query: { product_id: gid(1) } })).body.data).toEqual([]);
    const still = await app.api("GET", `/user-collections/${c.id}`, { token: a.token });
    expect(still.body.data).toMatchObject({ name: "Private", description: "mine", productCount: 2 });
    const items = await app.api("GET", `/user-collections/${c.id}/products`, { token: a.token });
    expect(items.body.data.items.map((i: { product_id: string }) => i.product_id)).toEqual([gid(1), gid(2)]);
  });

  it("deleting the account deletes its collections", async () => {
    const a = await app.createUser();
    const c = (await create(a.token, { name: "Gone soon", product_ids: [gid(1)] })).body.data;
    expect((await app.api("DELETE", "/users/me", { token: a.token })).status).toBe(200);
    expect(await app.database.db.userCollection.count({ where: { id: c.id } })).toBe(0);
    expect(await app.database.db.userCollectionProduct.count({ where: { user_collection_id: c.id } })).toBe(0);
  });
});
