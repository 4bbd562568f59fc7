/**
 * Toggles and other read-then-write changes under parallel calls (issue 14 item 13): N parallel
 * toggles of one item alternate (the final state is the initial one flipped N times, and the
 * answers are half "on", half "off"); with an explicit desired state they are idempotent. Also
 * the caps and positions of a shopper's collections and review dismissals. The race shows on
 * PostgreSQL (several connections); the embedded database runs one statement at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { USER_COLLECTIONS_MAX } from "../../app/contract/user-collections";
import { userForShopifyCustomer } from "../../app/services/proxy-customers.server";

let app: TestApp;
let productSeq = 0;
const N = 8;

async function product() {
  const n = ++productSeq;
  const id = `gid://shopify/Product/${880_000 + n}`;
  await app.database.db.product.create({
    data: { id, title: `Toggle product ${n}`, handle: `toggle-product-${n}`, vendor: "Test", productType: "Shirts", availableForSale: true, priceMin: 10, priceMax: 10, status: "active", publishedAt: new Date(Date.now() - 86_400_000) },
  });
  return id;
}

const parallel = <T,>(n: number, call: () => Promise<T>) => Promise.all(Array.from({ length: n }, () => call()));

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe("saved products", () => {
  it(`${N} parallel toggles alternate: half saved, half unsaved, and the product ends as it began`, async () => {
    const shopper = await app.createUser();
    const id = await product();
    const answers = await parallel(N, () => app.api("POST", "/users/saved-products/toggle", { token: shopper.token, body: { product_id: id } }));
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    expect(answers.filter((a) => a.body.saved === true)).toHaveLength(N / 2);
    expect(await app.database.db.savedProduct.count({ where: { user_id: shopper.id, product_id: id } })).toBe(0);
    // An odd number leaves it saved.
    await parallel(N - 1, () => app.api("POST", "/users/saved-products/toggle", { token: shopper.token, body: { product_id: id } }));
    expect(await app.database.db.savedProduct.count({ where: { user_id: shopper.id, product_id: id } })).toBe(1);
  });

  it("with an explicit state, parallel calls are idempotent", async () => {
    const shopper = await app.createUser();
    const id = await product();
    const on = await parallel(N, () => app.api("POST", "/users/saved-products/toggle", { token: shopper.token, body: { product_id: id, saved: true } }));
    expect(on.map((a) => [a.status, a.body.saved])).toEqual(Array(N).fill([200, true]));
    expect(await app.database.db.savedProduct.count({ where: { user_id: shopper.id, product_id: id } })).toBe(1);
    const off = await parallel(N, () => app.api("POST", "/users/saved-products/toggle", { token: shopper.token, body: { product_id: id, saved: false } }));
    expect(off.map((a) => [a.status, a.body.saved])).toEqual(Array(N).fill([200, false]));
    expect(await app.database.db.savedProduct.count({ where: { user_id: shopper.id, product_id: id } })).toBe(0);
  });

  it("toggles of different shoppers and products do not interfere", async () => {
    const [a, b] = [await app.createUser(), await app.createUser()];
    const [p1, p2] = [await product(), await product()];
    await Promise.all([a, b].flatMap((u) => [p1, p2].map((p) => app.api("POST", "/users/saved-products/toggle", { token: u.token, body: { product_id: p } }))));
    expect(await app.database.db.savedProduct.count({ where: { product_id: { in: [p1, p2] } } })).toBe(4);
  });
});

describe("followed stores", () => {
  it(`${N} parallel toggles alternate and the follower count matches the rows`, async () => {
    const shopper = await app.createUser();
    const vendor = await app.database.db.vendor.create({ data: { name: "Toggle Vendor", handle: `toggle-vendor-${Date.now()}` } });
    const store = await app.database.db.store.create({ data: { name: "Toggle Store", handle: `toggle-store-${Date.now()}`, vendor_id: vendor.id } });
    const answers = await parallel(N, () => app.api("POST", "/users/favorite-stores/toggle", { token: shopper.token, body: { store_id: store.id } }));
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    expect(answers.filter((a) => a.body.following === true)).toHaveLength(N / 2);
    for (const a of answers) expect(a.body.followerCount).toBe(a.body.following ? 1 : 0);
    expect(await app.database.db.userFavoriteStore.count({ where: { store_id: store.id } })).toBe(0);
    const on = await parallel(N, () => app.api("POST", "/users/favorite-stores/toggle", { token: shopper.token, body: { store_id: store.id, following: true } }));
    expect(on.map((a) => a.body.following)).toEqual(Array(N).fill(true));
    expect(await app.database.db.userFavoriteStore.count({ where: { store_id: store.id } })).toBe(1);
  });
});

describe("saved try-ons", () => {
  it(`${N} parallel toggles alternate`, async () => {
    const shopper = await app.createUser();
    const db = app.database.db;
    const clone = await db.clone.create({ data: { user_id: shopper.id, name: "Me" } });
    const tryon = await db.tryOn.create({ data: { user_id: shopper.id, clone_id: clone.id, product_id: await product(), input_hash: "toggle-test", status: "completed" } });
    const answers = await parallel(N, () => app.api("POST", "/users/saved-tryons/toggle", { token: shopper.token, body: { tryon_id: tryon.id } }));
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    expect(answers.filter((a) => a.body.saved === true)).toHaveLength(N / 2);
    expect(await db.savedTryOn.count({ where: { tryon_id: tryon.id } })).toBe(0);
    const on = await parallel(N, () => app.api("POST", "/users/saved-tryons/toggle", { token: shopper.token, body: { tryon_id: tryon.id, saved: true } }));
    expect(on.map((a) => a.body.saved)).toEqual(Array(N).fill(true));
    expect(await db.savedTryOn.count({ where: { tryon_id: tryon.id } })).toBe(1);
  });
});

describe("a shopper's collections", () => {
  it("parallel adds of different products give each its own position", async () => {
    const shopper = await app.createUser();
    const created = await app.api("POST", "/user-collections", { token: shopper.token, body: { name: "Parallel" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ids = await Promise.all(Array.from({ length: N }, () => product()));
    const answers = await Promise.all(ids.map((p) => app.api("POST", `/user-collections/${created.body.data.id}/products`, { token: shopper.token, body: { product_ids: [p] } })));
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    const rows = await app.database.db.userCollectionProduct.findMany({ where: { user_collection_id: created.body.data.id }, select: { position: true } });
    expect(new Set(rows.map((r) => r.position)).size).toBe(N);
  });

  it(`parallel creations cannot pass the cap of ${USER_COLLECTIONS_MAX}`, async () => {
    const shopper = await app.createUser();
    const db = app.database.db;
    for (let i = 0; i < USER_COLLECTIONS_MAX - 2; i++) await db.userCollection.create({ data: { user_id: shopper.id, name: `Pre ${i}` } });
    const answers = await parallel(6, () => app.api("POST", "/user-collections", { token: shopper.token, body: { name: "Racing" } }));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(4);
    expect(await db.userCollection.count({ where: { user_id: shopper.id } })).toBe(USER_COLLECTIONS_MAX);
  });
});

describe("review dismissals", () => {
  it("parallel dismissals of one item all succeed and keep one row", async () => {
    const shopper = await app.createUser();
    const db = app.database.db;
    const productId = await product();
    const order = await db.order.create({ data: { id: `gid://shopify/Order/${Date.now()}`, name: "#9901", user_id: shopper.id, email: shopper.email, total_price: 10 } });
    await db.orderItem.create({ data: { order_id: order.id, product_id: productId, title: "Item", quantity: 1, price: 10 } });
    const answers = await parallel(N, () => app.api("POST", "/users/reviewable-orders/dismiss", { token: shopper.token, body: { order_id: order.id, product_id: productId } }));
    expect(answers.map((a) => [a.status, JSON.stringify(a.body).slice(0, 200)])).toEqual(Array(N).fill([200, JSON.stringify({ ok: true })]));
    expect(await db.reviewDismissal.count({ where: { user_id: shopper.id, order_id: order.id } })).toBe(1);
  });
});

describe("App Proxy customers", () => {
  it("a customer's parallel first requests map to one user, without a unique-constraint error", async () => {
    const users = await parallel(N, () => userForShopifyCustomer(app.database.db, "7700123"));
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(await app.database.db.user.count({ where: { shopify_customer_id: "7700123" } })).toBe(1);
  });
});
