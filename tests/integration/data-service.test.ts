/**
 * The data service: POST /api/graphql with an `x-api-key` (SPEC §7, DESIGN.md). Every operation's
 * happy path and failure paths (no key, bad key, missing or unknown user id, unknown ids, another
 * user's records), nextToken pages newest first, the request limits (depth, cost, page size, body),
 * introspection only with a key, and the Remix route.
 */
import crypto from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { getIntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_API_KEY, createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { Messages } from "../../app/contract/messages";
import { DATA_SERVICE_LIMITS, handleDataServiceRequest } from "../../app/services/data-service/graphql.server";
import { createApiKey } from "../../app/services/api-keys.server";
import type { ProductInput } from "../../app/providers/commerce/port";

let app: TestApp;
let key: string;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
let guest: { id: string; token: string };
let products: string[] = [];
let hiddenProduct: string;
let stores: string[] = [];
let aliceTryOns: string[] = [];
let bobTryOn: string;

interface GqlResult {
  status: number;
  body: { data?: any; errors?: { message: string; path?: string[]; extensions: { code: string; field?: string } }[] };
}

async function gql(query: string, variables?: Record<string, unknown>, opts: { key?: string | null; raw?: string; method?: string; headers?: Record<string, string> } = {}): Promise<GqlResult> {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  const k = opts.key === undefined ? key : opts.key;
  if (k !== null) headers["x-api-key"] = k;
  const method = opts.method ?? "POST";
  const body = method === "GET" ? undefined : (opts.raw ?? JSON.stringify({ query, variables }));
  const res = await handleDataServiceRequest(new Request("http://localhost/api/graphql", { method, headers, body }), app.ctx);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The first error of an executed operation (200 with errors). */
async function gqlError(query: string, variables?: Record<string, unknown>) {
  const r = await gql(query, variables);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.errors?.length, JSON.stringify(r.body)).toBeGreaterThan(0);
  return r.body.errors![0];
}

/** The data of an operation that must succeed. */
async function gqlData(query: string, variables?: Record<string, unknown>) {
  const r = await gql(query, variables);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}

const item = (title: string, storeId: string, status: ProductInput["status"] = "active"): ProductInput => ({
  title,
  vendor: "Data Vendor",
  productType: "Shirts",
  descriptionHtml: "<p>x</p>",
  status,
  tags: [],
  targetGender: "womenswear",
  options: [{ name: "Size", values: ["S"] }],
  variants: [{ price: "49.00", inventoryQuantity: 3, selectedOptions: [{ name: "Size", value: "S" }] }],
  images: [],
  storeId,
});

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  const db = app.database.db;
  key = (await createApiKey(db, { name: "Data service tests" })).key;
  alice = await app.createUser({ firstName: "Alice" });
  bob = await app.createUser({ firstName: "Bob" });
  guest = await app.createUser({ authProvider: "guest" });

  const vendor = await db.vendor.create({ data: { name: "Data Vendor", handle: "data-vendor" } });
  for (const n of ["North", "South", "East"]) {
    stores.push((await db.store.create({ data: { name: `${n} Store`, handle: `${n.toLowerCase()}-store`, vendor_id: vendor.id, logo_url: `/uploads/${n}.jpg` } })).id);
  }
  for (const t of ["Linen Shirt", "Wool Coat", "Silk Scarf"]) products.push((await app.ctx.commerce.createProduct(item(t, stores[0]))).id);
  hiddenProduct = (await app.ctx.commerce.createProduct(item("Draft Dress", stores[0], "draft"))).id;

  const clone = await db.clone.create({ data: { name: "Alice clone", user_id: alice.id } });
  const bobClone = await db.clone.create({ data: { name: "Bob clone", user_id: bob.id } });
  for (let i = 0; i < 5; i++) {
    const t = await db.tryOn.create({ data: { user_id: alice.id, clone_id: clone.id, product_id: products[i % 3], input_hash: `h${i}`, status: "completed" } });
    await db.generatedImage.create({ data: { tryon_id: t.id, image_url: `/uploads/tryon-${i}-a.jpg` } });
    await db.generatedImage.create({ data: { tryon_id: t.id, image_url: `/uploads/tryon-${i}-b.jpg` } });
    aliceTryOns.push(t.id);
  }
  bobTryOn = (await db.tryOn.create({ data: { user_id: bob.id, clone_id: bobClone.id, product_id: products[0], input_hash: "hb" } })).id;
});
afterAll(() => app?.close());

describe("the key", () => {
  it("requests without a valid key are refused with 401 and no data", async () => {
    for (const [k, message] of [
      [null, "A valid x-api-key header is required"],
      ["wrong-key", "The x-api-key header does not hold a valid API key"],
    ] as const) {
      const r = await gql("{ savedProductsByUser(userId: $u) { items { id } } }", undefined, { key: k });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: [{ message, extensions: { code: "UNAUTHENTICATED" } }] });
    }
    // A user's token is no substitute.
    const withToken = await gql("{ __typename }", undefined, { key: null, headers: { authorization: `Bearer ${alice.token}` } });
    expect(withToken.status).toBe(401);
  });

  it("introspection works only with a valid key", async () => {
    const without = await gql(getIntrospectionQuery(), undefined, { key: null });
    expect(without.status).toBe(401);
    expect(without.body).not.toHaveProperty("data");
    const withKey = await gql(getIntrospectionQuery());
    expect(withKey.status).toBe(200);
    const names = withKey.body.data.__schema.types.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["SavedProduct", "SavedTryOn", "UserFavoriteStore", "VisionSearchEntry", "CloneTrainingJob"]));
  });

  it("the operator's DATA_SERVICE_API_KEY works as a key", async () => {
    expect((await gql("{ __typename }", undefined, { key: TEST_API_KEY })).status).toBe(200);
  });

  it("only POST is answered", async () => {
    const r = await gql("", undefined, { method: "GET" });
    expect(r.status).toBe(405);
    expect(r.body.errors?.[0].extensions.code).toBe("METHOD_NOT_ALLOWED");
  });
});

describe("user ids (SPEC §8 messages)", () => {
  const q = "query ($u: ID) { savedProductsByUser(userId: $u) { items { id } } }";
  it("a missing or empty user id answers 'User ID is required'", async () => {
    for (const vars of [{}, { u: null }, { u: "" }, { u: "  " }, { u: "undefined" }]) {
      const e = await gqlError(q, vars);
      expect(e).toMatchObject({ message: Messages.USER_ID_REQUIRED, extensions: { code: "BAD_USER_INPUT" }, path: ["savedProductsByUser"] });
    }
    const mutation = await gqlError(`mutation { createSavedProduct(input: { productId: "${products[0]}" }) { id } }`);
    expect(mutation.message).toBe(Messages.USER_ID_REQUIRED);
  });

  it("an id that is not a user's answers 'Invalid user ID provided'", async () => {
    for (const u of ["not-a-uuid", crypto.randomUUID(), "1; DROP TABLE users"]) {
      const e = await gqlError(q, { u });
      expect(e).toMatchObject({ message: Messages.INVALID_USER_ID, extensions: { code: "BAD_USER_INPUT" } });
    }
  });
});

describe("saved products", () => {
  it("create (GID or bare number), check, list newest first with the product, delete", async () => {
    const db = app.database.db;
    const create = `mutation ($u: ID, $p: ID!) { createSavedProduct(input: { userId: $u, productId: $p }) { id user_id product_id createdAt product { id title priceRange { minVariantPrice { amount currencyCode } } } } }`;
    const first = (await gqlData(create, { u: alice.id, p: products[0] })).createSavedProduct;
    expect(first).toMatchObject({ user_id: alice.id, product_id: products[0], product: { id: products[0], title: "Linen Shirt", priceRange: { minVariantPrice: { amount: "49.00" } } } });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    // The bare number is the same product.
    const bare = products[1].split("/").pop()!;
    const second = (await gqlData(create, { u: alice.id, p: bare })).createSavedProduct;
    expect(second.product_id).toBe(products[1]);
    await db.savedProduct.update({ where: { id: second.id }, data: { createdAt: new Date(Date.parse(first.createdAt) + 1000) } });
    // Saving again answers the same record.
    const again = (await gqlData(create, { u: alice.id, p: products[0] })).createSavedProduct;
    expect(again.id).toBe(first.id);
    expect(await db.savedProduct.count({ where: { user_id: alice.id } })).toBe(2);

    const check = `query ($u: ID, $p: ID!) { checkSavedProduct(userId: $u, productId: $p) }`;
    expect((await gqlData(check, { u: alice.id, p: products[0] })).checkSavedProduct).toBe(true);
    expect((await gqlData(check, { u: alice.id, p: products[2] })).checkSavedProduct).toBe(false);
    expect((await gqlData(check, { u: bob.id, p: products[0] })).checkSavedProduct).toBe(false);

    const list = `query ($u: ID) { savedProductsByUser(userId: $u) { items { product_id product { title } } nextToken } }`;
    expect((await gqlData(list, { u: alice.id })).savedProductsByUser).toEqual({
      items: [
        { product_id: products[1], product: { title: "Wool Coat" } },
        { product_id: products[0], product: { title: "Linen Shirt" } },
      ],
      nextToken: null,
    });
    // Another user sees nothing of Alice's.
    expect((await gqlData(list, { u: bob.id })).savedProductsByUser).toEqual({ items: [], nextToken: null });

    const del = `mutation ($u: ID, $p: ID!) { deleteSavedProduct(input: { userId: $u, productId: $p }) { id product_id } }`;
    // Bob deleting Alice's product deletes nothing of hers.
    expect((await gqlData(del, { u: bob.id, p: products[0] })).deleteSavedProduct).toBeNull();
    expect((await gqlData(del, { u: alice.id, p: products[0] })).deleteSavedProduct).toEqual({ id: first.id, product_id: products[0] });
    expect((await gqlData(del, { u: alice.id, p: products[0] })).deleteSavedProduct).toBeNull();
    expect((await gqlData(check, { u: alice.id, p: products[0] })).checkSavedProduct).toBe(false);
  });

  it("a product that is not in the visible catalogue cannot be saved; a saved product that is hidden later shows product null", async () => {
    const create = `mutation ($u: ID, $p: ID!) { createSavedProduct(input: { userId: $u, productId: $p }) { id } }`;
    for (const p of [hiddenProduct, "gid://shopify/Product/999999999"]) {
      const e = await gqlError(create, { u: bob.id, p });
      expect(e).toMatchObject({ message: "Product not found", extensions: { code: "NOT_FOUND" } });
    }
    const missing = await gqlError(create, { u: bob.id, p: "" });
    expect(missing.message).toBe(Messages.NO_PRODUCT_ID);
    const bad = await gqlError(create, { u: bob.id, p: "gid://shopify/Collection/1" });
    expect(bad.extensions.code).toBe("BAD_USER_INPUT");
    expect(await app.database.db.savedProduct.count({ where: { user_id: bob.id } })).toBe(0);

    await app.database.db.savedProduct.create({ data: { user_id: bob.id, product_id: hiddenProduct } });
    const list = await gqlData(`query ($u: ID) { savedProductsByUser(userId: $u) { items { product_id product { id } } } }`, { u: bob.id });
    expect(list.savedProductsByUser.items).toEqual([{ product_id: hiddenProduct, product: null }]);
    await app.database.db.savedProduct.deleteMany({ where: { user_id: bob.id } });
  });
});

describe("saved try-ons", () => {
  const list = `query ($u: ID, $limit: Int, $next: String, $dir: SortDirection) {
    savedTryOnsByUser(userId: $u, limit: $limit, nextToken: $next, sortDirection: $dir) { items { id tryon_id createdAt } nextToken }
  }`;

  it("create (own try-ons only), check, delete", async () => {
    const create = `mutation ($u: ID, $t: ID!) { createSavedTryOn(input: { userId: $u, tryonId: $t }) { id user_id tryon_id tryon { id status product_id generated_images { image_url } product { title } } } }`;
    const saved = (await gqlData(create, { u: alice.id, t: aliceTryOns[0] })).createSavedTryOn;
    expect(saved).toMatchObject({
      user_id: alice.id,
      tryon_id: aliceTryOns[0],
      tryon: { id: aliceTryOns[0], status: "completed", product_id: products[0], generated_images: [{ image_url: "/uploads/tryon-0-a.jpg" }, { image_url: "/uploads/tryon-0-b.jpg" }], product: { title: "Linen Shirt" } },
    });
    expect((await gqlData(create, { u: alice.id, t: aliceTryOns[0] })).createSavedTryOn.id).toBe(saved.id);

    // Another user's try-on, or an unknown one, is not found; a malformed id is bad input.
    for (const t of [bobTryOn, crypto.randomUUID()]) {
      const e = await gqlError(create, { u: alice.id, t });
      expect(e).toMatchObject({ message: "Try-on not found", extensions: { code: "NOT_FOUND" } });
    }
    expect((await gqlError(create, { u: alice.id, t: "nope" })).message).toBe("tryonId is not a valid id");
    expect((await gqlError(create, { u: alice.id, t: "" })).message).toBe("tryonId is required");

    const check = `query ($u: ID, $t: ID!) { checkSavedTryOn(userId: $u, tryonId: $t) }`;
    expect((await gqlData(check, { u: alice.id, t: aliceTryOns[0] })).checkSavedTryOn).toBe(true);
    expect((await gqlData(check, { u: alice.id, t: aliceTryOns[1] })).checkSavedTryOn).toBe(false);
    expect((await gqlData(check, { u: bob.id, t: aliceTryOns[0] })).checkSavedTryOn).toBe(false);

    const del = `mutation ($u: ID, $t: ID!) { deleteSavedTryOn(input: { userId: $u, tryonId: $t }) { id } }`;
    expect((await gqlData(del, { u: bob.id, t: aliceTryOns[0] })).deleteSavedTryOn).toBeNull();
    expect((await gqlData(del, { u: alice.id, t: aliceTryOns[0] })).deleteSavedTryOn).toEqual({ id: saved.id });
    expect((await gqlData(del, { u: alice.id, t: aliceTryOns[0] })).deleteSavedTryOn).toBeNull();
  });

  it("list by user with nextToken, newest first (ties broken by id), every item once", async () => {
    const db = app.database.db;
    await db.savedTryOn.deleteMany({});
    const base = Date.UTC(2026, 10, 1);
    // Two saved at the same instant: the id breaks the tie, and no page skips or repeats one.
    const times = [base, base + 60_000, base + 120_000, base + 120_000, base + 180_000];
    const rows = [];
    for (const [i, t] of aliceTryOns.entries()) rows.push(await db.savedTryOn.create({ data: { user_id: alice.id, tryon_id: t, createdAt: new Date(times[i]) } }));
    await db.savedTryOn.create({ data: { user_id: bob.id, tryon_id: bobTryOn } });
    const expected = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);

    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const page: { items: { id: string }[]; nextToken: string | null } = (await gqlData(list, { u: alice.id, limit: 2, next })).savedTryOnsByUser;
      seen.push(...page.items.map((i) => i.id));
      next = page.nextToken;
      pages++;
    } while (next && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);

    // A page that ends exactly at the last item has no next token.
    expect((await gqlData(list, { u: alice.id, limit: 5 })).savedTryOnsByUser.nextToken).toBeNull();
    // Default page: 20, newest first.
    const all = (await gqlData(list, { u: alice.id })).savedTryOnsByUser;
    expect(all.items.map((i: { id: string }) => i.id)).toEqual(expected);
    const dates = all.items.map((i: { createdAt: string }) => Date.parse(i.createdAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    // Oldest first on request.
    const asc = (await gqlData(list, { u: alice.id, dir: "ASC", limit: 3 })).savedTryOnsByUser;
    const asc2 = (await gqlData(list, { u: alice.id, dir: "ASC", limit: 3, next: asc.nextToken })).savedTryOnsByUser;
    expect([...asc.items, ...asc2.items].map((i: { id: string }) => i.id)).toEqual([...expected].reverse());
    // Bob's token does not open Alice's list: pages are always the named user's.
    expect((await gqlData(list, { u: bob.id, next: asc.nextToken })).savedTryOnsByUser.items).toEqual([]);
  });

  it("refuses a bad nextToken and page sizes outside 1…100", async () => {
    expect(await gqlError(list, { u: alice.id, next: "garbage" })).toMatchObject({ message: expect.stringContaining("nextToken is not valid"), extensions: { code: "BAD_USER_INPUT" } });
    expect((await gqlError(list, { u: alice.id, limit: DATA_SERVICE_LIMITS.maxPageSize + 1 })).message).toBe("limit must be at most 100");
    expect((await gqlError(list, { u: alice.id, limit: 0 })).message).toBe("limit must be at least 1");
    expect((await gqlData(list, { u: alice.id, limit: 100 })).savedTryOnsByUser.items.length).toBe(5);
  });
});

describe("favourite stores", () => {
  it("create, get, list newest first with the store, delete", async () => {
    const db = app.database.db;
    const create = `mutation ($u: ID, $s: ID!) { createUserFavoriteStore(input: { userId: $u, storeId: $s }) { id user_id store_id created_at store { name logo_url target_gender } } }`;
    const a = (await gqlData(create, { u: alice.id, s: stores[0] })).createUserFavoriteStore;
    expect(a).toMatchObject({ user_id: alice.id, store_id: stores[0], store: { name: "North Store", logo_url: "/uploads/North.jpg", target_gender: "both" } });
    const b = (await gqlData(create, { u: alice.id, s: stores[1] })).createUserFavoriteStore;
    await db.userFavoriteStore.update({ where: { id: b.id }, data: { created_at: new Date(Date.parse(a.created_at) + 1000) } });
    expect((await gqlData(create, { u: alice.id, s: stores[0] })).createUserFavoriteStore.id).toBe(a.id);

    const list = `query ($u: ID, $limit: Int, $next: String) { favoriteStoresByUser(userId: $u, limit: $limit, nextToken: $next) { items { store_id store { name } } nextToken } }`;
    const page1 = (await gqlData(list, { u: alice.id, limit: 1 })).favoriteStoresByUser;
    expect(page1.items).toEqual([{ store_id: stores[1], store: { name: "South Store" } }]);
    const page2 = (await gqlData(list, { u: alice.id, limit: 1, next: page1.nextToken })).favoriteStoresByUser;
    expect(page2).toEqual({ items: [{ store_id: stores[0], store: { name: "North Store" } }], nextToken: null });
    expect((await gqlData(list, { u: bob.id })).favoriteStoresByUser.items).toEqual([]);

    const get = `query ($u: ID, $s: ID!) { userFavoriteStore(userId: $u, storeId: $s) { id } }`;
    expect((await gqlData(get, { u: alice.id, s: stores[0] })).userFavoriteStore).toEqual({ id: a.id });
    expect((await gqlData(get, { u: alice.id, s: stores[2] })).userFavoriteStore).toBeNull();
    expect((await gqlData(get, { u: bob.id, s: stores[0] })).userFavoriteStore).toBeNull();

    const del = `mutation ($u: ID, $s: ID!) { deleteUserFavoriteStore(input: { userId: $u, storeId: $s }) { id store_id } }`;
    expect((await gqlData(del, { u: bob.id, s: stores[0] })).deleteUserFavoriteStore).toBeNull();
    expect((await gqlData(del, { u: alice.id, s: stores[0] })).deleteUserFavoriteStore).toEqual({ id: a.id, store_id: stores[0] });
    expect((await gqlData(del, { u: alice.id, s: stores[0] })).deleteUserFavoriteStore).toBeNull();
    expect((await gqlData(get, { u: alice.id, s: stores[0] })).userFavoriteStore).toBeNull();
  });

  it("an unknown store is not found; a missing user id is required", async () => {
    const create = `mutation ($u: ID, $s: ID!) { createUserFavoriteStore(input: { userId: $u, storeId: $s }) { id } }`;
    const unknown = crypto.randomUUID();
    expect(await gqlError(create, { u: bob.id, s: unknown })).toMatchObject({ message: "Store not found", extensions: { code: "NOT_FOUND" } });
    expect((await gqlError(create, { s: stores[0] })).message).toBe(Messages.USER_ID_REQUIRED);
    expect((await gqlError(create, { u: crypto.randomUUID(), s: stores[0] })).message).toBe(Messages.INVALID_USER_ID);
    expect(await app.database.db.userFavoriteStore.count({ where: { user_id: bob.id } })).toBe(0);
  });
});

describe("vision-search entries", () => {
  const fields = "id user_id image_url result is_temporary created_at updated_at";

  it("create, get, list by user with nextToken (10 by default), update", async () => {
    const create = `mutation ($in: CreateVisionSearchEntryInput!) { createVisionSearchEntry(input: $in) { ${fields} } }`;
    const result = JSON.stringify({ results: [{ id: products[0] }], scores: [0.91] });
    const entry = (await gqlData(create, { in: { userId: alice.id, image_url: "/uploads/images/photo.jpg", result } })).createVisionSearchEntry;
    expect(entry).toMatchObject({ user_id: alice.id, image_url: "/uploads/images/photo.jpg", is_temporary: false });
    expect(JSON.parse(entry.result)).toEqual(JSON.parse(result));
    const stored = await app.database.db.visionSearchEntry.findUniqueOrThrow({ where: { id: entry.id } });
    expect(stored.result).toEqual(JSON.parse(result));

    const get = `query ($u: ID, $id: ID!) { visionSearchEntry(userId: $u, id: $id) { id result } }`;
    expect((await gqlData(get, { u: alice.id, id: entry.id })).visionSearchEntry).toEqual({ id: entry.id, result: entry.result });
    expect((await gqlData(get, { u: bob.id, id: entry.id })).visionSearchEntry).toBeNull();
    expect((await gqlData(get, { u: alice.id, id: crypto.randomUUID() })).visionSearchEntry).toBeNull();

    const db = app.database.db;
    for (let i = 0; i < 11; i++) {
      await db.visionSearchEntry.create({ data: { user_id: alice.id, image_url: `https://img.example.test/${i}.jpg`, created_at: new Date(Date.UTC(2026, 0, 1 + i)) } });
    }
    const list = `query ($u: ID, $next: String) { visionSearchEntriesByUser(userId: $u, nextToken: $next) { items { id image_url result } nextToken } }`;
    const p1 = (await gqlData(list, { u: alice.id })).visionSearchEntriesByUser;
    expect(p1.items).toHaveLength(10);
    expect(p1.items[0].id).toBe(entry.id); // created now: the newest
    expect(p1.items[1].image_url).toBe("https://img.example.test/10.jpg");
    const p2 = (await gqlData(list, { u: alice.id, next: p1.nextToken })).visionSearchEntriesByUser;
    expect(p2.items.map((i: { image_url: string }) => i.image_url)).toEqual(["https://img.example.test/1.jpg", "https://img.example.test/0.jpg"]);
    expect(p2.nextToken).toBeNull();
    expect(p2.items[0].result).toBeNull();

    const update = `mutation ($in: UpdateVisionSearchEntryInput!) { updateVisionSearchEntry(input: $in) { id image_url result } }`;
    const changed = (await gqlData(update, { in: { userId: alice.id, id: entry.id, image_url: "https://img.example.test/new.jpg" } })).updateVisionSearchEntry;
    expect(changed).toEqual({ id: entry.id, image_url: "https://img.example.test/new.jpg", result: entry.result });
    const newResult = (await gqlData(update, { in: { userId: alice.id, id: entry.id, result: '{"results":[]}' } })).updateVisionSearchEntry;
    expect(newResult).toEqual({ id: entry.id, image_url: "https://img.example.test/new.jpg", result: '{"results":[]}' });
    const cleared = (await gqlData(update, { in: { userId: alice.id, id: entry.id, result: null } })).updateVisionSearchEntry;
    expect(cleared.result).toBeNull();
  });

  it("failure paths: another user's entry, a guest, a bad image URL or result", async () => {
    const entry = await app.database.db.visionSearchEntry.create({ data: { user_id: alice.id, image_url: "/uploads/a.jpg" } });
    const update = `mutation ($in: UpdateVisionSearchEntryInput!) { updateVisionSearchEntry(input: $in) { id } }`;
    for (const id of [entry.id, crypto.randomUUID()]) {
      const e = await gqlError(update, { in: { userId: bob.id, id, image_url: "/uploads/b.jpg" } });
      expect(e).toMatchObject({ message: Messages.FAILED_TO_UPDATE_VISION_ENTRY, extensions: { code: "NOT_FOUND" } });
    }
    expect((await app.database.db.visionSearchEntry.findUniqueOrThrow({ where: { id: entry.id } })).image_url).toBe("/uploads/a.jpg");

    const create = `mutation ($in: CreateVisionSearchEntryInput!) { createVisionSearchEntry(input: $in) { id } }`;
    expect(await gqlError(create, { in: { userId: guest.id, image_url: "/uploads/g.jpg" } })).toMatchObject({ message: Messages.SEARCH_ENTRY_CREATE_LOGIN, extensions: { code: "UNAUTHENTICATED" } });
    const guestEntry = await app.database.db.visionSearchEntry.create({ data: { user_id: guest.id, image_url: "/uploads/g.jpg", is_temporary: true } });
    expect((await gqlError(update, { in: { userId: guest.id, id: guestEntry.id, image_url: "/uploads/h.jpg" } })).message).toBe(Messages.SEARCH_ENTRY_UPDATE_LOGIN);
    expect(await gqlError(create, { in: { userId: alice.id, image_url: "javascript:alert(1)" } })).toMatchObject({ message: "image_url: must be an http(s) URL or one of our /uploads/ URLs", extensions: { code: "BAD_USER_INPUT", field: "image_url" } });
    expect((await gqlError(create, { in: { userId: alice.id, image_url: "/uploads/x.jpg", result: "{not json" } })).message).toBe("result must be JSON text");
    expect((await gqlError(create, { in: { image_url: "/uploads/x.jpg" } })).message).toBe(Messages.USER_ID_REQUIRED);
    expect(await app.database.db.visionSearchEntry.count({ where: { image_url: "/uploads/x.jpg" } })).toBe(0);
  });
});

describe("clone training jobs", () => {
  it("list by user newest first with nextToken, get one; another user's job is null", async () => {
    const db = app.database.db;
    const jobs = [];
    for (let i = 0; i < 3; i++) {
      jobs.push(
        await db.cloneTrainingJob.create({
          data: { user_id: alice.id, status: i === 2 ? "training" : "completed", progress: i === 2 ? 40 : 100, duration: i === 2 ? null : 600 + i, completed_at: i === 2 ? null : new Date(Date.UTC(2026, 1, 1 + i, 1)), created_at: new Date(Date.UTC(2026, 1, 1 + i)) },
        }),
      );
    }
    const bobJob = await db.cloneTrainingJob.create({ data: { user_id: bob.id, status: "failed", error: "Not enough photos" } });
    const list = `query ($u: ID, $limit: Int, $next: String) { cloneTrainingJobsByUser(userId: $u, limit: $limit, nextToken: $next) { items { id status progress duration completed_at error is_product_clone clone_id } nextToken } }`;
    const p1 = (await gqlData(list, { u: alice.id, limit: 2 })).cloneTrainingJobsByUser;
    expect(p1.items.map((j: { id: string }) => j.id)).toEqual([jobs[2].id, jobs[1].id]);
    expect(p1.items[0]).toMatchObject({ status: "training", progress: 40, duration: null, completed_at: null, is_product_clone: false, clone_id: null });
    expect(p1.items[1]).toMatchObject({ status: "completed", progress: 100, duration: 601, completed_at: "2026-02-02T01:00:00.000Z" });
    const p2 = (await gqlData(list, { u: alice.id, limit: 2, next: p1.nextToken })).cloneTrainingJobsByUser;
    expect(p2).toMatchObject({ items: [{ id: jobs[0].id }], nextToken: null });

    const get = `query ($u: ID, $id: ID!) { cloneTrainingJob(userId: $u, id: $id) { id status error } }`;
    expect((await gqlData(get, { u: bob.id, id: bobJob.id })).cloneTrainingJob).toEqual({ id: bobJob.id, status: "failed", error: "Not enough photos" });
    expect((await gqlData(get, { u: alice.id, id: bobJob.id })).cloneTrainingJob).toBeNull();
    expect((await gqlError(get, { u: alice.id, id: "42" })).message).toBe("id is not a valid id");
    expect((await gqlError(get, { id: bobJob.id })).message).toBe(Messages.USER_ID_REQUIRED);
  });
});

describe("request limits and errors", () => {
  it("refuses a query nested too deep", async () => {
    const deep = `{ ${"a { ".repeat(DATA_SERVICE_LIMITS.maxDepth + 1)}b${" }".repeat(DATA_SERVICE_LIMITS.maxDepth + 1)} }`;
    const r = await gql(deep);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].extensions.code).toBe("QUERY_TOO_DEEP");
    expect(r.body).not.toHaveProperty("data");
    // Through fragments too.
    const frag = `query { ...F0 } ${Array.from({ length: 10 }, (_, i) => `fragment F${i} on Query { a${i} { ${i < 9 ? `...F${i + 1}` : "x"} } }`).join(" ")}`;
    expect((await gql(frag)).body.errors?.[0].extensions.code).toBe("QUERY_TOO_DEEP");
  });

  it("refuses a query that costs too much, and accepts a full page", async () => {
    const page = `savedTryOnsByUser(userId: "${alice.id}", limit: 100) { items { id tryon { id generated_images { image_url } product { id title priceRange { minVariantPrice { amount } } } } } nextToken }`;
    const one = await gql(`{ ${page} }`);
    expect(one.status).toBe(200);
    const many = await gql(`{ ${Array.from({ length: 6 }, (_, i) => `p${i}: ${page}`).join(" ")} }`);
    expect(many.status).toBe(400);
    expect(many.body.errors?.[0]).toMatchObject({ extensions: { code: "QUERY_TOO_COMPLEX" }, message: expect.stringContaining("more than the limit of 5000") });
  });

  it("answers 400 to documents that do not parse or validate, and to bad bodies", async () => {
    expect(await gql("{ savedProductsByUser(")).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: "GRAPHQL_PARSE_FAILED" } }] } });
    const invalid = await gql("{ users { email password_hash } }");
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect((await gql("", undefined, { raw: "not json" })).status).toBe(400);
    expect((await gql("", undefined, { raw: JSON.stringify({ variables: {} }) })).body.errors?.[0].message).toBe("The request body must have a `query` string");
    expect((await gql("", undefined, { raw: JSON.stringify({ query: "{ __typename }", variables: [1] }) })).status).toBe(400);
    expect((await gql("{ __typename }", undefined, { headers: { "content-type": "text/plain" } })).status).toBe(415);
    const big = await gql(`{ __typename } # ${"x".repeat(DATA_SERVICE_LIMITS.maxBodyBytes)}`);
    expect(big.status).toBe(413);
    const twoOps = await gql("query A { __typename } query B { __typename }");
    expect(twoOps.status).toBe(400);
    const named = await gql("query A { __typename } query B { __typename }", undefined, { raw: JSON.stringify({ query: "query A { __typename } query B { __typename }", operationName: "B" }) });
    expect(named).toMatchObject({ status: 200, body: { data: { __typename: "Query" } } });
  });

  it("an unexpected failure is logged and answered without internals", async () => {
    const broken = { ...app.ctx, db: new Proxy(app.database.db, { get: (t, p) => (p === "userFavoriteStore" ? { findMany: () => Promise.reject(new Error("connection reset by peer")) } : Reflect.get(t, p)) }) };
    const res = await handleDataServiceRequest(
      new Request("http://localhost/api/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ query: `{ favoriteStoresByUser(userId: "${alice.id}") { items { id } } }` }),
      }),
      broken as typeof app.ctx,
    );
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.errors[0]).toMatchObject({ message: Messages.FAILED_TO_FETCH_FAVORITE_STORES, extensions: { code: "INTERNAL_SERVER_ERROR" } });
    expect(JSON.stringify(body)).not.toContain("connection reset");
  });
});

describe("the Remix route", () => {
  it("POST /api/graphql goes to the data service", async () => {
    const route = await import("../../app/routes/api.graphql");
    const call = (headers: Record<string, string>) =>
      route.action({
        request: new Request("http://localhost/api/graphql", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query: `{ checkSavedProduct(userId: "${alice.id}", productId: "${products[1]}") }` }) }),
        params: {},
        context: {},
      } as ActionFunctionArgs);
    const ok = await call({ "x-api-key": key });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ data: { checkSavedProduct: true } });
    const refused = await call({});
    expect(refused.status).toBe(401);
    const get = await route.loader({ request: new Request("http://localhost/api/graphql"), params: {}, context: {} } as ActionFunctionArgs);
    expect(get.status).toBe(405);
  });
});
