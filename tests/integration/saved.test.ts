/**
 * Saved products, followed stores and style preferences (SPEC §3–§5, §8, §9): toggles, lists,
 * checks, the spec's messages, and ownership (a shopper only ever sees and changes their own).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetGender } from "../../app/contract/common";
import { Messages } from "../../app/contract/messages";
import { createApiHandler } from "../../app/api/router.server";
import { handlers } from "../../app/api/index.server";
import { loadShopperProfile } from "../../app/services/recommendations/for-you.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
const gid = (n: number) => `gid://shopify/Product/${n}`;
const stores: Record<string, string> = {};

async function product(n: number, o: { gender?: TargetGender; status?: "active" | "draft"; publishedAt?: Date | null; tags?: string[]; store?: string } = {}) {
  await app.database.db.product.create({
    data: {
      id: gid(n),
      title: `Saved test product ${n}`,
      handle: `saved-test-${n}`,
      vendor: "Test",
      productType: "Shirts",
      availableForSale: true,
      priceMin: 10 + n,
      priceMax: 20 + n,
      target_gender: o.gender ?? "both",
      status: o.status ?? "active",
      publishedAt: o.publishedAt === undefined ? new Date(Date.now() - 86_400_000) : o.publishedAt,
      tags: o.tags ?? [],
      store_id: o.store ?? null,
      featuredImageUrl: `/uploads/images/p${n}.jpg`,
    },
  });
}

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Saved Vendor", handle: "saved-vendor" } });
  for (let i = 0; i < 25; i++) {
    stores[`s${i}`] = (
      await db.store.create({ data: { name: `Store ${String(i).padStart(2, "0")}`, handle: `saved-store-${i}`, vendor_id: vendor.id, sort_order: i } })
    ).id;
  }
  // 1..30 visible, of mixed genders; 31 draft; 32 scheduled for the future; 33 unpublished.
  for (let n = 1; n <= 30; n++) {
    await product(n, {
      gender: n % 3 === 0 ? "menswear" : n % 3 === 1 ? "womenswear" : "both",
      tags: n <= 4 ? ["streetwear", "minimalist"] : n <= 8 ? ["workwear"] : ["menswear"],
      store: stores.s0,
    });
  }
  await product(31, { status: "draft" });
  await product(32, { publishedAt: new Date(Date.now() + 86_400_000) });
  await product(33, { publishedAt: null });
});
afterAll(() => app?.close());

const post = (path: string, token: string | undefined, body: unknown) => app.api("POST", path, { token, body });
const get = (path: string, token: string | undefined, query?: Record<string, string | number>) => app.api("GET", path, { token, query });

describe("who may save, follow and set preferences", () => {
  const calls: [string, string, unknown?][] = [
    ["GET", "/users/saved-products"],
    ["POST", "/users/saved-products/toggle", { product_id: gid(1) }],
    ["GET", "/users/saved-products/check?ids=1"],
    ["GET", "/users/favorite-stores"],
    ["POST", "/users/favorite-stores/toggle", { store_id: "x" }],
    ["GET", "/users/favorite-stores/check?ids=x"],
    ["GET", "/users/style-preferences"],
    ["PATCH", "/users/style-preferences", { interests: "a" }],
  ];

  it.each(calls)('%s %s without a session answers 401 "User is not authenticated" (SPEC §5, §8)', async (method, path, body) => {
    const r = await app.api(method, path, { body });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: "unauthenticated", message: Messages.USER_NOT_AUTHENTICATED });
    const forged = await app.api(method, path, { body, token: "fd_not-a-real-token" });
    expect(forged.status).toBe(401);
  });

  it("a guest (authenticated by the guest token) may save and follow; it moves into the account on sign-in", async () => {
    const guest = await app.api("POST", "/users/guest");
    const token = guest.body.token as string;
    expect((await post("/users/saved-products/toggle", token, { product_id: gid(2) })).body).toEqual({ product_id: gid(2), saved: true });
    expect((await post("/users/favorite-stores/toggle", token, { store_id: stores.s1 })).body).toMatchObject({ following: true });
    const account = await app.createUser({ password: "a-good-password" });
    await app.api("POST", "/auth/login", { token, body: { email: account.email, password: "a-good-password" } });
    const list = await get("/users/saved-products", account.token);
    expect(list.body.items.map((i: { product_id: string }) => i.product_id)).toEqual([gid(2)]);
    expect((await get("/users/favorite-stores", account.token)).body.items.map((i: { store_id: string }) => i.store_id)).toEqual([stores.s1]);
  });
});

describe("saved products", () => {
  it("toggles: saved, then unsaved; a numeric id is the product's GID", async () => {
    const u = await app.createUser();
    const on = await post("/users/saved-products/toggle", u.token, { product_id: "3" });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ product_id: gid(3), saved: true });
    expect((await get("/users/saved-products/check", u.token, { ids: `${gid(3)},4` })).body).toEqual({ saved: [gid(3)] });
    const off = await post("/users/saved-products/toggle", u.token, { product_id: gid(3) });
    expect(off.body).toEqual({ product_id: gid(3), saved: false });
    expect(await app.database.db.savedProduct.count({ where: { user_id: u.id } })).toBe(0);
  });

  it("with `saved` it sets the state, so a repeated request changes nothing", async () => {
    const u = await app.createUser();
    for (let i = 0; i < 2; i++) expect((await post("/users/saved-products/toggle", u.token, { product_id: gid(5), saved: true })).body.saved).toBe(true);
    expect(await app.database.db.savedProduct.count({ where: { user_id: u.id } })).toBe(1);
    for (let i = 0; i < 2; i++) expect((await post("/users/saved-products/toggle", u.token, { product_id: gid(5), saved: false })).body.saved).toBe(false);
    expect(await app.database.db.savedProduct.count({ where: { user_id: u.id } })).toBe(0);
  });

  it("concurrent saves of one product keep one row", async () => {
    const u = await app.createUser();
    const rs = await Promise.all([1, 2, 3].map(() => post("/users/saved-products/toggle", u.token, { product_id: gid(6), saved: true })));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await app.database.db.savedProduct.count({ where: { user_id: u.id } })).toBe(1);
  });

  it('refuses a missing id ("No product ID provided"), an unknown product and products shoppers cannot see', async () => {
    const u = await app.createUser();
    for (const body of [{}, { product_id: "" }, { product_id: "undefined" }]) {
      const r = await post("/users/saved-products/toggle", u.token, body);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe(Messages.NO_PRODUCT_ID);
    }
    for (const id of [gid(999), gid(31), gid(32), gid(33)]) {
      const r = await post("/users/saved-products/toggle", u.token, { product_id: id });
      expect(r.status, id).toBe(404);
      expect(r.body.error.message).toBe("Product not found");
    }
    expect(await app.database.db.savedProduct.count({ where: { user_id: u.id } })).toBe(0);
  });

  it("a product taken down after it was saved shows as null in the list and can still be unsaved", async () => {
    const u = await app.createUser();
    await post("/users/saved-products/toggle", u.token, { product_id: gid(7) });
    await app.database.db.product.update({ where: { id: gid(7) }, data: { status: "draft" } });
    try {
      const list = await get("/users/saved-products", u.token);
      expect(list.body.items).toEqual([expect.objectContaining({ product_id: gid(7), product: null })]);
      expect((await post("/users/saved-products/toggle", u.token, { product_id: gid(7) })).body.saved).toBe(false);
    } finally {
      await app.database.db.product.update({ where: { id: gid(7) }, data: { status: "active" } });
    }
  });

  it("lists 20 a page, newest first, with a cursor to the rest (SPEC §9)", async () => {
    const u = await app.createUser();
    const base = Date.now() - 100_000;
    // Saved at known times: product n at base + n seconds (25 products; two share a timestamp).
    await app.database.db.savedProduct.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({ user_id: u.id, product_id: gid(i + 1), createdAt: new Date(base + Math.min(i + 1, 24) * 1000) })),
    });
    const first = await get("/users/saved-products", u.token);
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.items[0].product).toMatchObject({
      id: expect.stringMatching(/Product\/2[45]$/),
      title: expect.any(String),
      priceRange: expect.any(Object),
    });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await get("/users/saved-products", u.token, { cursor: first.body.nextCursor });
    expect(second.body.items).toHaveLength(5);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.items, ...second.body.items];
    expect(new Set(all.map((i) => i.product_id)).size).toBe(25);
    const times = all.map((i) => Date.parse(i.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.slice(-3).map((i) => i.product_id)).toEqual([gid(3), gid(2), gid(1)]);

    expect((await get("/users/saved-products", u.token, { limit: 5 })).body.items).toHaveLength(5);
    expect((await get("/users/saved-products", u.token, { cursor: "garbage" })).status).toBe(400);
    expect((await get("/users/saved-products", u.token, { limit: 500 })).status).toBe(400);
  });

  it("check answers the saved ones among at most 100 ids; an empty list is empty", async () => {
    const u = await app.createUser();
    await post("/users/saved-products/toggle", u.token, { product_id: gid(8) });
    expect((await get("/users/saved-products/check", u.token, { ids: "" })).body).toEqual({ saved: [] });
    expect((await get("/users/saved-products/check", u.token, { ids: `8,${gid(8)},9` })).body).toEqual({ saved: [gid(8)] });
    const tooMany = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    expect((await get("/users/saved-products/check", u.token, { ids: tooMany })).status).toBe(400);
  });

  it("ownership: another shopper neither sees nor changes your saved products", async () => {
    const a = await app.createUser();
    const b = await app.createUser();
    await post("/users/saved-products/toggle", a.token, { product_id: gid(10) });
    expect((await get("/users/saved-products", b.token)).body.items).toEqual([]);
    expect((await get("/users/saved-products/check", b.token, { ids: gid(10) })).body.saved).toEqual([]);
    // B's toggle of the same product is B's own save: A's stays.
    expect((await post("/users/saved-products/toggle", b.token, { product_id: gid(10) })).body.saved).toBe(true);
    expect((await post("/users/saved-products/toggle", b.token, { product_id: gid(10) })).body.saved).toBe(false);
    expect((await get("/users/saved-products/check", a.token, { ids: gid(10) })).body.saved).toEqual([gid(10)]);
    // A body naming another user is not a way in: the caller is always the token's user.
    await post("/users/saved-products/toggle", b.token, { product_id: gid(11), user_id: a.id });
    expect((await get("/users/saved-products/check", a.token, { ids: gid(11) })).body.saved).toEqual([]);
  });
});

describe("followed stores", () => {
  it("toggles: creates the favourite when absent, deletes it when present (SPEC §4), with the follower count", async () => {
    const u = await app.createUser();
    const on = await post("/users/favorite-stores/toggle", u.token, { store_id: stores.s2 });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ store_id: stores.s2, following: true, followerCount: 1 });
    expect((await app.api("GET", `/stores/${stores.s2}`)).body.followerCount).toBe(1);
    expect((await get("/users/favorite-stores/check", u.token, { ids: `${stores.s2},${stores.s3}` })).body).toEqual({ following: [stores.s2] });
    const off = await post("/users/favorite-stores/toggle", u.token, { store_id: stores.s2 });
    expect(off.body).toEqual({ store_id: stores.s2, following: false, followerCount: 0 });
    // With `following`, a repeat changes nothing
    await post("/users/favorite-stores/toggle", u.token, { store_id: stores.s2, following: true });
    expect((await post("/users/favorite-stores/toggle", u.token, { store_id: stores.s2, following: true })).body.following).toBe(true);
    expect(await app.database.db.userFavoriteStore.count({ where: { user_id: u.id } })).toBe(1);
  });

  it("refuses an unknown store and a missing store_id", async () => {
    const u = await app.createUser();
    const unknown = await post("/users/favorite-stores/toggle", u.token, { store_id: "no-such-store" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Store not found");
    const missing = await post("/users/favorite-stores/toggle", u.token, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("store_id is required");
    const empty = await post("/users/favorite-stores/toggle", u.token, { store_id: " " });
    expect(empty.body.error.message).toBe("store_id: must not be empty");
  });

  it("lists 20 a page, newest first, with the stores' details", async () => {
    const u = await app.createUser();
    const base = Date.now() - 100_000;
    await app.database.db.userFavoriteStore.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({ user_id: u.id, store_id: stores[`s${i}`], created_at: new Date(base + i * 1000) })),
    });
    const first = await get("/users/favorite-stores", u.token);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.items[0]).toMatchObject({ store_id: stores.s22, store: { id: stores.s22, name: "Store 22", followerCount: 1 } });
    expect(first.body.items[19].store_id).toBe(stores.s3);
    const second = await get("/users/favorite-stores", u.token, { cursor: first.body.nextCursor });
    expect(second.body.items.map((i: { store_id: string }) => i.store_id)).toEqual([stores.s2, stores.s1, stores.s0]);
    expect(second.body.nextCursor).toBeNull();
    expect(first.body.items[19].store.productCount).toBe(0);
    expect(second.body.items[2].store.productCount).toBe(30);
  });

  it("ownership: another shopper neither sees nor removes your follows", async () => {
    const a = await app.createUser();
    const b = await app.createUser();
    await post("/users/favorite-stores/toggle", a.token, { store_id: stores.s4 });
    expect((await get("/users/favorite-stores", b.token)).body.items).toEqual([]);
    expect((await get("/users/favorite-stores/check", b.token, { ids: stores.s4 })).body.following).toEqual([]);
    // B toggling the store follows it for B: A still follows.
    expect((await post("/users/favorite-stores/toggle", b.token, { store_id: stores.s4, following: false })).body.following).toBe(false);
    expect((await get("/users/favorite-stores/check", a.token, { ids: stores.s4 })).body.following).toEqual([stores.s4]);
  });

  it("database failures answer the spec's favourite-store messages (SPEC §8)", async () => {
    const u = await app.createUser();
    await post("/users/favorite-stores/toggle", u.token, { store_id: stores.s5 });
    const db = app.database.db;
    /** The app's database (and its transactions: the toggle runs in one) with some userFavoriteStore methods failing. */
    const broken = <C extends object>(client: C, methods: string[]): C => {
      const model = (client as unknown as { userFavoriteStore: object }).userFavoriteStore;
      const fake = new Proxy(model, {
        get: (t, k) => (typeof k === "string" && methods.includes(k) ? () => Promise.reject(new Error("connection lost")) : Reflect.get(t, k)),
      });
      return new Proxy(client, {
        get: (t, k) => {
          if (k === "userFavoriteStore") return fake;
          if (k === "$transaction") return (work: (tx: object) => Promise<unknown>, opts?: unknown) => db.$transaction((tx) => work(broken(tx, methods)), opts as never);
          const v = Reflect.get(t, k, t);
          return typeof v === "function" ? v.bind(t) : v;
        },
      });
    };
    const handle = createApiHandler(handlers);
    const call = async (methods: string[], method: string, path: string, body?: unknown) => {
      const res = await handle(
        new Request(`http://localhost/api${path}`, {
          method,
          headers: { authorization: `Bearer ${u.token}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
        { ...app.ctx, db: broken(db, methods) },
        { clientIp: "127.0.0.1" }
      );
      return { status: res.status, body: await res.json() };
    };
    const list = await call(["findMany"], "GET", "/users/favorite-stores");
    expect(list).toMatchObject({ status: 500, body: { error: { message: Messages.FAILED_TO_FETCH_FAVORITE_STORES } } });
    const check = await call(["findMany"], "GET", `/users/favorite-stores/check?ids=${stores.s5}`);
    expect(check.body.error.message).toBe(Messages.FAILED_TO_FETCH_FAVORITE_STORE);
    const one = await call(["findFirst"], "POST", "/users/favorite-stores/toggle", { store_id: stores.s6 });
    expect(one.body.error.message).toBe(Messages.FAILED_TO_FETCH_FAVORITE_STORE);
    const create = await call(["createMany"], "POST", "/users/favorite-stores/toggle", { store_id: stores.s6 });
    expect(create).toMatchObject({ status: 500, body: { error: { message: Messages.FAILED_TO_CREATE_FAVORITE_STORE } } });
    const del = await call(["deleteMany"], "POST", "/users/favorite-stores/toggle", { store_id: stores.s5 });
    expect(del).toMatchObject({ status: 500, body: { error: { message: Messages.FAILED_TO_DELETE_FAVORITE_STORE } } });
    // Nothing changed
    expect((await get("/users/favorite-stores/check", u.token, { ids: `${stores.s5},${stores.s6}` })).body.following).toEqual([stores.s5]);
  });
});

describe("style preferences (interests and the gender they carry)", () => {
  it("reads empty preferences with suggestions drawn from the catalogue's tags", async () => {
    const u = await app.createUser();
    const r = await get("/users/style-preferences", u.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ interests: "", interestList: [], gender: "both", stylePreferences: [] });
    expect(r.body.suggestions).toEqual(expect.arrayContaining(["streetwear", "minimalist", "workwear"]));
    expect(r.body.suggestions).not.toContain("menswear");
  });

  it("replaces interests (comma-separated or a list), sets the gender, keeps other metadata; /users/me shows metadata.interests", async () => {
    const u = await app.createUser();
    await app.database.db.user.update({ where: { id: u.id }, data: { metadata: { origin: "newsletter" } } });
    const a = await app.api("PATCH", "/users/style-preferences", { token: u.token, body: { interests: " Streetwear, minimalist ,streetwear" } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ interests: "streetwear,minimalist", interestList: ["streetwear", "minimalist"], gender: "both" });
    const b = await app.api("PATCH", "/users/style-preferences", { token: u.token, body: { gender: "womenswear" } });
    expect(b.body).toMatchObject({ interests: "womenswear,streetwear,minimalist", gender: "womenswear" });
    const c = await app.api("PATCH", "/users/style-preferences", { token: u.token, body: { gender: "menswear" } });
    expect(c.body).toMatchObject({ interests: "menswear,streetwear,minimalist", gender: "menswear" });
    const me = await get("/users/me", u.token);
    expect(me.body.metadata).toMatchObject({ interests: "menswear,streetwear,minimalist", origin: "newsletter" });
    const d = await app.api("PATCH", "/users/style-preferences", { token: u.token, body: { interests: ["womenswear", "menswear", "workwear"] } });
    expect(d.body).toMatchObject({ interests: "womenswear,menswear,workwear", gender: "both" });
    const e = await app.api("PATCH", "/users/style-preferences", { token: u.token, body: { gender: "both", stylePreferences: ["relaxed fit"] } });
    expect(e.body).toMatchObject({ interests: "workwear", gender: "both", stylePreferences: ["relaxed fit"] });
    expect((await get("/users/style-preferences", u.token)).body).toMatchObject({ interests: "workwear", stylePreferences: ["relaxed fit"] });
  });

  it("refuses an empty update, a too long interest, too many interests and a bad gender", async () => {
    const u = await app.createUser();
    const bodies = [{}, { interests: "x".repeat(41) }, { interests: Array.from({ length: 31 }, (_, i) => `i${i}`) }, { gender: "kids" }];
    for (const body of bodies)
      expect((await app.api("PATCH", "/users/style-preferences", { token: u.token, body })).status, JSON.stringify(body).slice(0, 40)).toBe(400);
    expect((await get("/users/style-preferences", u.token)).body.interests).toBe("");
  });

  it("feeds the for-you feed: gender rule from the interests, interest terms, saved products and followed stores", async () => {
    const u = await app.createUser();
    await app.api("PATCH", "/users/style-preferences", { token: u.token, body: { interests: "womenswear,streetwear" } });
    await post("/users/saved-products/toggle", u.token, { product_id: gid(1) });
    await post("/users/favorite-stores/toggle", u.token, { store_id: stores.s0 });
    const profile = await loadShopperProfile(app.database.db, u.id);
    expect(profile).toMatchObject({ targetGender: "womenswear", interests: ["streetwear"], saved: [gid(1)], followedStores: [stores.s0], coldStart: false });
    const feed = await get("/recommendations/for-you", u.token, { limit: 30 });
    expect(feed.status).toBe(200);
    expect(feed.body.results.length).toBeGreaterThan(0);
    for (const p of feed.body.results) expect(["womenswear", "both"]).toContain(p.target_gender);
    // The interest "streetwear" is the tag of products 1–4: the visible womenswear/both ones are recommended.
    const ids = feed.body.results.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([gid(2), gid(4)]));
  });
});
