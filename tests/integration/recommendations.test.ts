/**
 * Recommendations on a small fixture catalogue: view-product, the lists of SPEC §7, their
 * fallbacks, incremental updates from views and orders, admin variants and the test email.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { upsertOrderFromWebhook, type WebhookOrder } from "../../app/services/order-read-model.server";
import { forYou, mostViewed, recordProductView } from "../../app/services/recommendations.server";
import type { VectorIndex } from "../../app/providers/vector-index/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, pgid } from "./products-fixtures";

const DAY = 86_400_000;
let app: TestApp;
let storeA: string;
let storeB: string;
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

const VISIBLE = [801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 813].map(pgid);

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Rec Vendor", handle: "rec-vendor" } });
  storeA = (await db.store.create({ data: { name: "North Store", handle: "north-store", vendor_id: vendor.id, target_gender: "menswear" } })).id;
  storeB = (await db.store.create({ data: { name: "Lumiere", handle: "lumiere-rec", vendor_id: vendor.id, target_gender: "womenswear" } })).id;
  const day = (n: number) => new Date(Date.now() - n * DAY);
  await createProduct(db, { n: 801, title: "Black Tee", productType: "T-Shirts", gender: "menswear", price: 30, tags: ["minimalist"], storeId: storeA, createdAt: day(13) });
  await createProduct(db, { n: 802, title: "White Tee", productType: "T-Shirts", gender: "menswear", price: 32, createdAt: day(12) });
  await createProduct(db, { n: 803, title: "Navy Jeans", productType: "Jeans", gender: "menswear", price: 80, tags: ["denim"], createdAt: day(11) });
  await createProduct(db, { n: 804, title: "Grey Trousers", productType: "Trousers", gender: "menswear", price: 70, createdAt: day(10) });
  await createProduct(db, { n: 805, title: "Wool Coat", productType: "Coats", gender: "both", price: 200, createdAt: day(9) });
  await createProduct(db, { n: 806, title: "Leather Sneakers", productType: "Sneakers", gender: "both", price: 90, createdAt: day(8) });
  await createProduct(db, { n: 807, title: "Canvas Tote", productType: "Bags", gender: "both", price: 25, createdAt: day(7) });
  await createProduct(db, { n: 808, title: "Floral Dress", productType: "Dresses", gender: "womenswear", price: 90, createdAt: day(6) });
  await createProduct(db, { n: 809, title: "Silk Blouse", productType: "Blouses", gender: "womenswear", price: 60, storeId: storeB, createdAt: day(5) });
  await createProduct(db, { n: 810, title: "Pleated Skirt", productType: "Skirts", gender: "womenswear", price: 55, createdAt: day(4) });
  await createProduct(db, { n: 811, title: "Draft Shirt", productType: "Shirts", gender: "menswear", status: "draft", createdAt: day(3) });
  await createProduct(db, { n: 812, title: "Scheduled Hoodie", productType: "Hoodies", gender: "both", publishedAt: new Date(Date.now() + 5 * DAY), createdAt: day(2) });
  await createProduct(db, { n: 813, title: "Minimal Knit", productType: "Sweaters", gender: "womenswear", price: 65, tags: ["minimalist"], storeId: storeB, createdAt: day(1) });
});
afterAll(() => app?.close());

const view = async (token: string, productId: string | number) => app.api("POST", "/users/view-product", { token, body: { product_id: productId } });
const guest = () => app.createUser({ authProvider: "guest" });

describe("before any event", () => {
  it("most-viewed and best-sellers answer the newest visible products; for-you starts cold", async () => {
    const mv = await app.api("GET", "/recommendations/most-viewed");
    expect(mv.status).toBe(200);
    expect(mv.body.source).toBe("newest");
    expect(ids(mv.body)).toEqual([...VISIBLE].reverse());
    expect(mv.body.reasons.every((r: string) => r === "newest")).toBe(true);
    expect(mv.body.pagination).toEqual({ hasNextPage: false, hasPreviousPage: false, currentPage: 1, cursor: null, limit: 20 });

    const bs = await app.api("GET", "/recommendations/best-sellers", { query: { target_gender: "womenswear", limit: 2 } });
    expect(bs.body.source).toBe("newest");
    expect(ids(bs.body)).toEqual([pgid(813), pgid(810)]);
    expect(bs.body.pagination.hasNextPage).toBe(true);

    const g = await guest();
    const fy = await app.api("GET", "/recommendations/for-you", { token: g.token });
    expect(fy.status).toBe(200);
    expect(fy.body.source).toBe("cold-start");
    expect(ids(fy.body).length).toBe(VISIBLE.length);
  });
});

describe("POST /users/view-product", () => {
  it("refuses anonymous callers, a missing id, and unknown or hidden products", async () => {
    expect((await app.api("POST", "/users/view-product", { body: { product_id: 801 } })).status).toBe(401);
    const g = await guest();
    for (const body of [{}, { product_id: "" }, { product_id: null }, { product_id: "undefined" }]) {
      const r = await app.api("POST", "/users/view-product", { token: g.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toBe("No product ID provided");
    }
    expect((await view(g.token, 999999)).status).toBe(404);
    expect((await view(g.token, pgid(811))).status).toBe(404); // draft
    expect((await view(g.token, "812")).status).toBe(404); // scheduled
    expect((await app.api("POST", "/users/view-product", { token: g.token, body: { product_id: 801, session_id: "x".repeat(201) } })).status).toBe(400);
  });

  it("records a view (GID or number), counting a repeat within 30 minutes once", async () => {
    const g = await guest();
    const r = await app.api("POST", "/users/view-product", { token: g.token, body: { product_id: 807, session_id: "s-1" } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ recorded: true, productId: pgid(807) });
    const again = await view(g.token, pgid(807));
    expect(again.status).toBe(201);
    expect(again.body.recorded).toBe(false);
    const db = app.database.db;
    expect(await db.productViewEvent.count({ where: { user_id: g.id, product_id: pgid(807) } })).toBe(1);
    expect((await db.productViewEvent.findFirstOrThrow({ where: { user_id: g.id } })).session_id).toBe("s-1");
    const pop = await db.productPopularity.findUniqueOrThrow({ where: { product_id: pgid(807) } });
    expect(pop.view_count).toBe(1);
    expect(pop.view_score).toBeGreaterThan(0);
    expect(pop.last_viewed_at).not.toBeNull();
  });
});

describe("customers also viewed", () => {
  it("two sessions viewing A then B make B appear for A (and A for B)", async () => {
    for (let i = 0; i < 2; i++) {
      const g = await guest();
      expect((await view(g.token, 803)).body.recorded).toBe(true);
      expect((await view(g.token, 804)).body.recorded).toBe(true);
    }
    const g3 = await guest();
    await view(g3.token, 803);
    await view(g3.token, 806);

    const db = app.database.db;
    const pair = await db.productCoOccurrence.findUniqueOrThrow({ where: { kind_product_id_other_id: { kind: "view", product_id: pgid(803), other_id: pgid(804) } } });
    expect(pair.count).toBe(2);
    expect((await db.productCoOccurrence.findUniqueOrThrow({ where: { kind_product_id_other_id: { kind: "view", product_id: pgid(804), other_id: pgid(803) } } })).count).toBe(2);

    const r = await app.api("GET", `/recommendations/customers-also-viewed/${enc(pgid(803))}`);
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("co-viewed");
    expect(ids(r.body).slice(0, 2)).toEqual([pgid(804), pgid(806)]);
    expect(r.body.reasons.slice(0, 2)).toEqual(["co-viewed", "co-viewed"]);
    // Filled with similar products after the co-viewed ones, without repeats or the product itself.
    expect(r.body.reasons.slice(2).every((x: string) => x === "similar")).toBe(true);
    expect(new Set(ids(r.body)).size).toBe(ids(r.body).length);
    expect(ids(r.body)).not.toContain(pgid(803));
    for (const id of ids(r.body)) expect(VISIBLE).toContain(id);

    const back = await app.api("GET", "/recommendations/customers-also-viewed/804");
    expect(ids(back.body)[0]).toBe(pgid(803));

    const paged = await app.api("GET", "/recommendations/customers-also-viewed/803", { query: { limit: 1, page: 2 } });
    expect(ids(paged.body)).toEqual([pgid(806)]);
    expect(paged.body.pagination).toMatchObject({ currentPage: 2, hasPreviousPage: true, limit: 1 });
    const excluded = await app.api("GET", "/recommendations/customers-also-viewed/803", { query: { exclude: `${pgid(804)},806` } });
    expect(ids(excluded.body)).not.toContain(pgid(804));
    expect(ids(excluded.body)).not.toContain(pgid(806));
  });

  it("views more than 24 hours apart are not paired", async () => {
    const g = await guest();
    const t0 = new Date(Date.now() - 3 * DAY);
    await recordProductView(app.database.db, { productId: "801", userId: g.id, now: t0 });
    await recordProductView(app.database.db, { productId: "802", userId: g.id, now: new Date(t0.getTime() + 25 * 3_600_000) });
    expect(await app.database.db.productCoOccurrence.count({ where: { kind: "view", product_id: pgid(801), other_id: pgid(802) } })).toBe(0);
  });

  it("answers an empty list for an unknown product and 400 for a missing id", async () => {
    const r = await app.api("GET", "/recommendations/customers-also-viewed/123456789");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ results: [], reasons: [], source: "none", pagination: { hasNextPage: false } });
    const missing = await app.api("GET", "/recommendations/customers-also-viewed/undefined");
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("No product ID provided");
  });

  it("fills from attribute similarity when nobody viewed the product with others", async () => {
    const r = await app.api("GET", "/recommendations/customers-also-viewed/802");
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("similar");
    expect(ids(r.body)[0]).toBe(pgid(801)); // the other tee
    expect(r.body.reasons.every((x: string) => x === "similar")).toBe(true);
  });
});

describe("most viewed", () => {
  it("ranks by decayed views: older views weigh less", async () => {
    const db = app.database.db;
    const old = new Date(Date.now() - 70 * DAY);
    for (let i = 0; i < 3; i++) await recordProductView(db, { productId: "808", userId: (await guest()).id, now: old });
    for (let i = 0; i < 2; i++) await view((await guest()).token, 809);
    const counts = await db.productPopularity.findMany({ where: { product_id: { in: [pgid(808), pgid(809)] } } });
    expect(counts.find((c) => c.product_id === pgid(808))!.view_count).toBe(3);
    expect(counts.find((c) => c.product_id === pgid(809))!.view_count).toBe(2);

    const r = await app.api("GET", "/recommendations/most-viewed", { query: { target_gender: "womenswear" } });
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("most-viewed");
    const order = ids(r.body);
    expect(order.indexOf(pgid(809))).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(pgid(809))).toBeLessThan(order.indexOf(pgid(808)));
    // Gender: womenswear and both only; nothing viewed is missing, nothing unviewed is listed.
    for (const c of r.body.results) expect(["womenswear", "both"]).toContain(c.target_gender);
    expect(order).not.toContain(pgid(810));
  });

  it("pages, excludes and validates its query", async () => {
    const all = ids((await app.api("GET", "/recommendations/most-viewed")).body);
    expect(all.length).toBeGreaterThan(3);
    const p2 = await app.api("GET", "/recommendations/most-viewed", { query: { limit: 2, page: 2 } });
    expect(ids(p2.body)).toEqual(all.slice(2, 4));
    expect(p2.body.pagination).toMatchObject({ currentPage: 2, hasPreviousPage: true, hasNextPage: all.length > 4 });
    const ex = await app.api("GET", "/recommendations/most-viewed", { query: { exclude: all[0] } });
    expect(ids(ex.body)).toEqual(all.slice(1));
    const beyond = await app.api("GET", "/recommendations/most-viewed", { query: { page: 50 } });
    expect(beyond.body).toMatchObject({ results: [], source: "most-viewed", pagination: { hasNextPage: false } });
    // Hidden products never show, however popular (a draft and a scheduled one).
    const db = app.database.db;
    for (const n of [811, 812]) {
      await db.productPopularity.create({ data: { product_id: pgid(n), view_count: 1000, view_score: 1e300, purchase_count: 1000, purchase_score: 1e300 } });
      await db.productCoOccurrence.create({ data: { kind: "view", product_id: pgid(803), other_id: pgid(n), count: 1000, score: 1e300 } });
      await db.productCoOccurrence.create({ data: { kind: "purchase", product_id: pgid(801), other_id: pgid(n), count: 1000, score: 1e300 } });
    }
    for (const path of ["/recommendations/most-viewed", "/recommendations/best-sellers", "/recommendations/customers-also-viewed/803", "/recommendations/frequently-bought-together/801"]) {
      const r = await app.api("GET", path, { query: { limit: 60 } });
      expect(r.status).toBe(200);
      expect(ids(r.body), path).not.toContain(pgid(811));
      expect(ids(r.body), path).not.toContain(pgid(812));
    }
    await db.productPopularity.deleteMany({ where: { product_id: { in: [pgid(811), pgid(812)] } } });
    await db.productCoOccurrence.deleteMany({ where: { other_id: { in: [pgid(811), pgid(812)] } } });
    for (const query of [{ limit: 61 }, { limit: 0 }, { page: 0 }, { limit: "abc" }, { target_gender: "kids" }]) {
      const r = await app.api("GET", "/recommendations/most-viewed", { query });
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.error.code).toBe("bad_request");
    }
  });
});

// ---------------------------------------------------------------------------------------------

const order = (n: number, lines: [number, number][], extra: Partial<WebhookOrder> = {}): WebhookOrder => ({
  id: 9_000 + n,
  name: `#R${n}`,
  email: `buyer${n}@example.com`,
  created_at: new Date(Date.now() - DAY).toISOString(),
  currency: "USD",
  total_price: "100.00",
  financial_status: "paid",
  line_items: lines.map(([product, quantity], i) => ({ id: n * 100 + i, product_id: product, variant_id: null, title: `Item ${product}`, quantity, price: "10.00" })),
  ...extra,
});

describe("purchases and best sellers", () => {
  it("an order updates purchase popularity and bought-together pairs once, even when re-delivered", async () => {
    const db = app.database.db;
    const a = order(1, [[801, 2], [803, 1], [806, 1]]);
    await upsertOrderFromWebhook(db, a);
    await upsertOrderFromWebhook(db, order(2, [[801, 1], [804, 1]]));
    const snapshot = async () => ({
      pop: await db.productPopularity.findMany({ where: { purchase_count: { gt: 0 } }, orderBy: { product_id: "asc" }, select: { product_id: true, purchase_count: true, purchase_score: true } }),
      pairs: await db.productCoOccurrence.findMany({ where: { kind: "purchase" }, orderBy: [{ product_id: "asc" }, { other_id: "asc" }], select: { product_id: true, other_id: true, count: true, score: true } }),
    });
    const first = await snapshot();
    expect(first.pop.find((p) => p.product_id === pgid(801))!.purchase_count).toBe(3);
    expect(first.pairs.filter((p) => p.product_id === pgid(801)).map((p) => [p.other_id, p.count])).toEqual([
      [pgid(803), 1],
      [pgid(804), 1],
      [pgid(806), 1],
    ]);
    expect(first.pairs).toHaveLength(2 * 3 + 2);

    // orders/create delivered again, then orders/updated with the same lines.
    await upsertOrderFromWebhook(db, a);
    await upsertOrderFromWebhook(db, { ...a, fulfillment_status: "fulfilled" });
    expect(await snapshot()).toEqual(first);

    const best = await app.api("GET", "/recommendations/best-sellers");
    expect(best.status).toBe(200);
    expect(best.body.source).toBe("best-sellers");
    expect(ids(best.body)[0]).toBe(pgid(801));
    expect(ids(best.body).sort()).toEqual([801, 803, 804, 806].map(pgid).sort());
    expect(best.body.reasons.every((r: string) => r === "best-sellers")).toBe(true);
  });

  it("a cancellation takes the order off (once)", async () => {
    const db = app.database.db;
    const cancelled = order(2, [[801, 1], [804, 1]], { cancelled_at: new Date().toISOString(), cancel_reason: "customer" });
    await upsertOrderFromWebhook(db, cancelled);
    await upsertOrderFromWebhook(db, cancelled);
    const p801 = await db.productPopularity.findUniqueOrThrow({ where: { product_id: pgid(801) } });
    expect(p801.purchase_count).toBe(2);
    const p804 = await db.productPopularity.findUniqueOrThrow({ where: { product_id: pgid(804) } });
    expect(p804.purchase_count).toBe(0);
    expect(p804.purchase_score).toBe(0);
    expect(await db.productCoOccurrence.count({ where: { kind: "purchase", OR: [{ product_id: pgid(804) }, { other_id: pgid(804) }] } })).toBe(0);
    const best = await app.api("GET", "/recommendations/best-sellers");
    expect(ids(best.body)).not.toContain(pgid(804));
  });
});

describe("frequently bought together", () => {
  it("prefers complementary types over co-purchased products of the same kind", async () => {
    const db = app.database.db;
    // Two more orders pair the black tee with the white tee: more often, but a second tee.
    await upsertOrderFromWebhook(db, order(3, [[801, 1], [802, 1]]));
    await upsertOrderFromWebhook(db, order(4, [[801, 1], [802, 1]]));
    const r = await app.api("GET", `/recommendations/frequently-bought-together/${enc(pgid(801))}`);
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("co-purchased");
    const list = ids(r.body);
    expect(list.slice(0, 3)).toEqual([pgid(803), pgid(806), pgid(802)]);
    expect(r.body.reasons.slice(0, 3)).toEqual(["co-purchased", "co-purchased", "co-purchased"]);
    // Then popular complementary products of a compatible gender (menswear or both).
    const fill = r.body.results.slice(3);
    expect(fill.length).toBeGreaterThan(0);
    expect(r.body.reasons.slice(3).every((x: string) => x === "complementary")).toBe(true);
    for (const c of fill) {
      expect(["menswear", "both"]).toContain(c.target_gender);
      expect(["Jeans", "Trousers", "Coats", "Sneakers", "Bags"]).toContain(c.productType);
    }
    expect(list).not.toContain(pgid(801));
    // In the price range first: the 200 coat comes after the tote and trousers.
    expect(list.indexOf(pgid(805))).toBeGreaterThan(list.indexOf(pgid(807)));
  });

  it("fills with complementary products when nothing was bought with the product", async () => {
    const r = await app.api("GET", "/recommendations/frequently-bought-together/808");
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("complementary");
    const types = r.body.results.map((c: { productType: string }) => c.productType);
    expect(types.sort()).toEqual(["Bags", "Coats", "Sneakers"]);
    // Round-robin over groups: outerwear, footwear, accessories.
    expect(ids(r.body)).toEqual([pgid(805), pgid(806), pgid(807)]);
  });

  it("answers an empty list for an unknown product and 400 for a missing id", async () => {
    const r = await app.api("GET", "/recommendations/frequently-bought-together/gid%3A%2F%2Fshopify%2FProduct%2F4242");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ results: [], source: "none" });
    expect((await app.api("GET", "/recommendations/frequently-bought-together/null")).status).toBe(400);
    expect((await app.api("GET", "/recommendations/frequently-bought-together/801", { query: { limit: 100 } })).status).toBe(400);
  });
});

// ---------------------------------------------------------------------------------------------

describe("random", () => {
  const walk = async (query: Record<string, string | number>) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const r = await app.api("GET", "/recommendations/random", { query: { ...query, ...(cursor ? { cursor } : {}) } });
      expect(r.status).toBe(200);
      expect(r.body.source).toBe("random");
      seen.push(...ids(r.body));
      if (!r.body.pagination.hasNextPage) {
        expect(r.body.pagination.cursor).toBeNull();
        break;
      }
      cursor = r.body.pagination.cursor;
      expect(cursor).toBeTruthy();
    }
    return seen;
  };

  it("is stable per seed, never repeats across pages and covers the visible catalogue", async () => {
    const a = await walk({ seed: "session-aaa", limit: 3 });
    expect(new Set(a).size).toBe(a.length);
    expect([...a].sort()).toEqual([...VISIBLE].sort());
    expect(await walk({ seed: "session-aaa", limit: 3 })).toEqual(a);
    expect(await walk({ seed: "session-aaa", limit: 5 })).toEqual(a);
    const b = await walk({ seed: "session-bbb", limit: 3 });
    expect([...b].sort()).toEqual([...a].sort());
    expect(b).not.toEqual(a);
  });

  it("draws a seed when none is given, filters by gender and validates cursors", async () => {
    const first = await app.api("GET", "/recommendations/random", { query: { limit: 4 } });
    expect(first.body.seed).toEqual(expect.any(String));
    expect(first.body.pagination).toMatchObject({ currentPage: null, hasPreviousPage: false, hasNextPage: true });
    const next = await app.api("GET", "/recommendations/random", { query: { limit: 4, cursor: first.body.pagination.cursor } });
    expect(next.status).toBe(200);
    expect(next.body.pagination.hasPreviousPage).toBe(true);
    for (const id of ids(next.body)) expect(ids(first.body)).not.toContain(id);
    const same = await app.api("GET", "/recommendations/random", { query: { limit: 4, seed: first.body.seed } });
    expect(ids(same.body)).toEqual(ids(first.body));

    const women = await walk({ seed: "w", target_gender: "womenswear", limit: 4 });
    expect(women.sort()).toEqual([805, 806, 807, 808, 809, 810, 813].map(pgid).sort());
    const ex = await walk({ seed: "session-aaa", limit: 4, exclude: "801,802" });
    expect(ex).toHaveLength(VISIBLE.length - 2);

    expect((await app.api("GET", "/recommendations/random", { query: { cursor: "garbage" } })).status).toBe(400);
    const mismatch = await app.api("GET", "/recommendations/random", { query: { seed: "other", cursor: first.body.pagination.cursor } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toBe("cursor belongs to another seed");
    expect((await app.api("GET", "/recommendations/random", { query: { limit: 61 } })).status).toBe(400);
  });
});

// ---------------------------------------------------------------------------------------------

describe("for you", () => {
  let shopper: { id: string; token: string; email: string | null };

  beforeAll(async () => {
    const db = app.database.db;
    shopper = await app.createUser({ email: "fy-shopper@example.test", firstName: "Ada" });
    await db.user.update({ where: { id: shopper.id }, data: { metadata: { interests: "womenswear,minimalist" } } });
    await db.savedProduct.create({ data: { user_id: shopper.id, product_id: pgid(809) } });
    await db.userFavoriteStore.create({ data: { user_id: shopper.id, store_id: storeB } });
    // Others who looked at the dress also looked at the skirt.
    for (let i = 0; i < 2; i++) {
      const g = await guest();
      await view(g.token, 808);
      await view(g.token, 810);
    }
    await view(shopper.token, 808);
  });

  it("refuses anonymous callers", async () => {
    expect((await app.api("GET", "/recommendations/for-you")).status).toBe(401);
  });

  it("starts cold with the popular products of the gender", async () => {
    const g = await guest();
    const r = await app.api("GET", "/recommendations/for-you", { token: g.token, query: { target_gender: "menswear" } });
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("cold-start");
    expect(r.body.reasons.every((x: string) => x === "popular")).toBe(true);
    for (const c of r.body.results) expect(["menswear", "both"]).toContain(c.target_gender);
    const again = await app.api("GET", "/recommendations/for-you", { token: g.token, query: { target_gender: "menswear" } });
    expect(ids(again.body)).toEqual(ids(r.body));
  });

  it("personalises from views, saved products, followed stores and interests", async () => {
    const r = await app.api("GET", "/recommendations/for-you", { token: shopper.token });
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("personalized");
    const list = ids(r.body);
    const reasonOf = (id: string) => r.body.reasons[list.indexOf(id)];
    // Womenswear (from the interests) and both only.
    for (const c of r.body.results) expect(["womenswear", "both"]).toContain(c.target_gender);
    expect(reasonOf(pgid(810))).toBe("co-viewed");
    expect(list).toContain(pgid(813)); // followed store + minimalist
    expect(["followed-store", "interest"]).toContain(reasonOf(pgid(813)));
    // The saved blouse and the dress just viewed come last.
    expect(list.slice(-2).sort()).toEqual([pgid(808), pgid(809)]);
    expect(reasonOf(pgid(809))).toBe("saved");
    expect(reasonOf(pgid(808))).toBe("recently-viewed");
    expect(list.indexOf(pgid(810))).toBeLessThan(list.indexOf(pgid(808)));
    // Stable within the day.
    const again = await app.api("GET", "/recommendations/for-you", { token: shopper.token });
    expect(ids(again.body)).toEqual(list);
    // exclude and pages.
    const ex = await app.api("GET", "/recommendations/for-you", { token: shopper.token, query: { exclude: "810" } });
    expect(ids(ex.body)).not.toContain(pgid(810));
    const p2 = await app.api("GET", "/recommendations/for-you", { token: shopper.token, query: { limit: 2, page: 2 } });
    expect(ids(p2.body)).toEqual(list.slice(2, 4));
  });

  it("uses the vector index when there is one, and does without when it fails", async () => {
    const db = app.database.db;
    for (const n of [808, 809]) {
      await db.productEmbedding.create({ data: { product_id: pgid(n), kind: "attributes", model: "attributes-v1", dimensions: 3, embedding: [n === 808 ? 1 : 0.8, 0.2, 0] } });
    }
    const calls: { ns: string; genders?: string[]; exclude?: string[] }[] = [];
    const fake: VectorIndex = {
      name: "pgvector",
      async upsert() {},
      async remove() {},
      async count() {
        return 2;
      },
      async query(ns, _v, q) {
        calls.push({ ns, genders: q.targetGenders, exclude: q.excludeIds });
        return ns === "attributes" ? [{ id: pgid(805), score: 0.99 }] : [];
      },
    };
    const r = await forYou({ db, vectors: fake }, shopper.id, { limit: 20, page: 1, exclude: [] });
    expect(calls.map((c) => c.ns)).toEqual(["attributes"]); // no "image" vectors for these products: not asked
    expect(calls[0].genders).toEqual(["womenswear", "both"]);
    expect(calls[0].exclude).toEqual(expect.arrayContaining([pgid(808), pgid(809)]));
    expect(ids(r)).toContain(pgid(805));

    const broken: VectorIndex = { ...fake, query: async () => Promise.reject(new Error("index down")) };
    const ok = await forYou({ db, vectors: broken }, shopper.id, { limit: 20, page: 1, exclude: [] });
    expect(ok.source).toBe("personalized");
    expect(ok.results.length).toBeGreaterThan(0);
    // An index that does not answer in time is skipped (the request does not wait for it).
    const hanging: VectorIndex = { ...fake, query: () => new Promise(() => undefined) };
    const started = Date.now();
    const late = await forYou({ db, vectors: hanging }, shopper.id, { limit: 20, page: 1, exclude: [] });
    expect(late.results.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(5000);
    // Image vectors are asked for too when the products have them.
    await db.productEmbedding.create({ data: { product_id: pgid(808), kind: "image", model: "test", dimensions: 2, embedding: [1, 0] } });
    calls.length = 0;
    await forYou({ db, vectors: fake }, shopper.id, { limit: 20, page: 1, exclude: [] });
    expect(calls.map((c) => c.ns).sort()).toEqual(["attributes", "image"]);
    // The exact scan (no pgvector) reads the whole catalogue per query: not on the request path.
    calls.length = 0;
    await forYou({ db, vectors: { ...fake, name: "exact" } }, shopper.id, { limit: 20, page: 1, exclude: [] });
    await forYou({ db, vectors: { ...fake, name: "auto", resolve: async () => "exact" } }, shopper.id, { limit: 20, page: 1, exclude: [] });
    expect(calls).toEqual([]);
    await forYou({ db, vectors: { ...fake, name: "auto", resolve: async () => "pinecone" } }, shopper.id, { limit: 20, page: 1, exclude: [] });
    expect(calls.map((c) => c.ns).sort()).toEqual(["attributes", "image"]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("admin", () => {
  let admin: string;
  beforeAll(async () => {
    admin = (await app.createUser({ role: "ADMIN", permissions: ["recommendations.manage"] })).token;
  });

  it("reads a user's for-you list and profile by email", async () => {
    const r = await app.api("GET", "/recommendations/admin/for-you/by-email", { token: admin, query: { email: "FY-Shopper@example.test" } });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe("fy-shopper@example.test");
    expect(r.body.source).toBe("personalized");
    const p = await app.api("GET", "/recommendations/admin/profile/by-email", { token: admin, query: { email: "fy-shopper@example.test" } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ targetGender: "womenswear", interests: ["minimalist"], savedProductIds: [pgid(809)], followedStoreIds: [storeB], coldStart: false });
    expect(p.body.recentlyViewedIds).toEqual([pgid(808)]);
  });

  it("refuses shoppers (403), anonymous callers (401) and admins without the permission; 404 for an unknown email", async () => {
    const path = "/recommendations/admin/for-you/by-email";
    const query = { email: "fy-shopper@example.test" };
    expect((await app.api("GET", path, { query })).status).toBe(401);
    expect((await app.api("GET", path, { query, token: (await app.createUser()).token })).status).toBe(403);
    expect((await app.api("GET", path, { query, token: (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token })).status).toBe(403);
    const unknown = await app.api("GET", path, { token: admin, query: { email: "nobody@example.test" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("No user with this email");
    expect((await app.api("GET", path, { token: admin, query: { email: "not-an-email" } })).status).toBe(400);
    expect((await app.api("GET", path, { token: admin })).status).toBe(400);
  });

  it("renders a recommendations email and delivers it to the outbox", async () => {
    const r = await app.api("POST", "/recommendations/test-email", { token: admin, body: { email: "fy-shopper@example.test", kind: "for-you" } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ to: "fy-shopper@example.test", subject: "Picked for you", kind: "for-you" });
    expect(r.body.productCount).toBeGreaterThan(0);
    const trending = await app.api("POST", "/recommendations/test-email", { token: admin, body: { email: "fy-shopper@example.test", kind: "most-viewed" } });
    expect(trending.status).toBe(202);
    await drain();
    const dir = path.join(app.dataDir, "outbox");
    const records = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")));
    const mail = records.find((m) => m.id === r.body.emailId);
    expect(mail).toMatchObject({ to: "fy-shopper@example.test", subject: "Picked for you" });
    expect(mail.html).toContain("Hello Ada,");
    expect(mail.html).toContain("Pleated Skirt");
    expect(mail.html).toMatch(/src="http:\/\/127\.0\.0\.1:\d+\/uploads\/images\/test\//);
    expect(mail.text).toContain("/products/pleated-skirt-810");
    expect(records.find((m) => m.id === trending.body.emailId)?.subject).toBe("Trending now");
    expect((await app.database.db.emailOutbox.findUniqueOrThrow({ where: { id: r.body.emailId } })).status).toBe("sent");
  });

  it("refuses the test email to shoppers and anonymous callers, and unknown emails or kinds", async () => {
    const body = { email: "fy-shopper@example.test", kind: "for-you" };
    expect((await app.api("POST", "/recommendations/test-email", { body })).status).toBe(401);
    expect((await app.api("POST", "/recommendations/test-email", { body, token: (await app.createUser()).token })).status).toBe(403);
    expect((await app.api("POST", "/recommendations/test-email", { body: { ...body, email: "nobody@example.test" }, token: admin })).status).toBe(404);
    expect((await app.api("POST", "/recommendations/test-email", { body: { ...body, kind: "weekly" }, token: admin })).status).toBe(400);
    expect((await app.api("POST", "/recommendations/test-email", { body: {}, token: admin })).status).toBe(400);
  });

  it("rebuilds the aggregates from the events as a job, matching the incremental ones", async () => {
    const db = app.database.db;
    const read = async () => ({
      pop: await db.productPopularity.findMany({ orderBy: { product_id: "asc" }, select: { product_id: true, view_count: true, view_score: true, purchase_count: true, purchase_score: true } }),
      pairs: await db.productCoOccurrence.findMany({ orderBy: [{ kind: "asc" }, { product_id: "asc" }, { other_id: "asc" }], select: { kind: true, product_id: true, other_id: true, count: true, score: true } }),
    });
    const before = await read();
    const r = await app.api("POST", "/recommendations/admin/rebuild", { token: admin });
    expect(r.status).toBe(202);
    expect((await app.api("POST", "/recommendations/admin/rebuild", { token: (await app.createUser()).token })).status).toBe(403);
    await drain();
    const job = await app.api("GET", `/recommendations/admin/jobs/${r.body.jobId}`, { token: admin });
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ status: "completed", progress: 100, result: { popularity: before.pop.filter((p) => p.view_count > 0 || p.purchase_count > 0).length } });
    expect((await app.api("GET", "/recommendations/admin/jobs/nope", { token: admin })).status).toBe(404);

    const after = await read();
    // Rows whose purchases were all cancelled are not recreated by the rebuild.
    const live = before.pop.filter((p) => p.view_count > 0 || p.purchase_count > 0);
    expect(after.pop.map((p) => [p.product_id, p.view_count, p.purchase_count])).toEqual(live.map((p) => [p.product_id, p.view_count, p.purchase_count]));
    after.pop.forEach((p, i) => {
      expect(p.view_score).toBeCloseTo(live[i].view_score, 0);
      expect(p.purchase_score / (live[i].purchase_score || 1)).toBeCloseTo(p.purchase_score ? 1 : 0, 9);
    });
    expect(after.pairs.map((p) => [p.kind, p.product_id, p.other_id, p.count])).toEqual(before.pairs.map((p) => [p.kind, p.product_id, p.other_id, p.count]));
    after.pairs.forEach((p, i) => expect(p.score / before.pairs[i].score).toBeCloseTo(1, 9));
  });
});

describe("service defaults", () => {
  it("most-viewed with an explicit clock gives the same order later on", async () => {
    const q = { limit: 20, page: 1, exclude: [] };
    const now = await mostViewed({ db: app.database.db }, q);
    const later = await mostViewed({ db: app.database.db }, q, new Date(Date.now() + 30 * DAY));
    expect(ids(later)).toEqual(ids(now));
  });
});
