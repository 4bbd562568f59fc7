/**
 * The incremental updates of the recommendation aggregates (views, orders) and the batch rebuild
 * from the events agree, on a deterministic stream of views (users and anonymous sessions,
 * repeats, gaps over 24 hours, more than 10 recent products) and orders (re-deliveries, a
 * cancellation, an order of more than 20 products).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertOrderFromWebhook } from "../../app/services/order-read-model.server";
import { CO_PURCHASE_MAX_PRODUCTS, CO_VIEW_MAX_PARTNERS, rebuildRecommendationAggregates, recordProductView } from "../../app/services/recommendations/aggregates.server";
import { eventWeight } from "../../app/services/recommendations/decay";
import { mulberry32 } from "../../prisma/demo/prng";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const N = 26;
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  for (let i = 1; i <= N; i++) {
    await createProduct(app.database.db, { n: 900 + i, title: `Product ${i}`, productType: i % 2 ? "Shirts" : "Jeans", gender: i % 3 === 0 ? "womenswear" : "menswear", images: 1, sizes: ["M"], companion: false });
  }
});
afterAll(() => app?.close());

async function snapshot() {
  const db = app.database.db;
  return {
    pop: await db.productPopularity.findMany({ orderBy: { product_id: "asc" }, select: { product_id: true, view_count: true, view_score: true, purchase_count: true, purchase_score: true, last_viewed_at: true, last_purchased_at: true } }),
    pairs: await db.productCoOccurrence.findMany({ orderBy: [{ kind: "asc" }, { product_id: "asc" }, { other_id: "asc" }], select: { kind: true, product_id: true, other_id: true, count: true, score: true } }),
  };
}

const rel = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));

describe("recommendation aggregates", () => {
  it("count a repeated view within 30 minutes once, and a later one again", async () => {
    const db = app.database.db;
    const user = await app.createUser({ authProvider: "guest" });
    const t = Date.now() - 20 * DAY;
    expect((await recordProductView(db, { productId: "901", userId: user.id, now: new Date(t) })).recorded).toBe(true);
    expect((await recordProductView(db, { productId: "901", userId: user.id, now: new Date(t + 10 * MIN) })).recorded).toBe(false);
    expect((await recordProductView(db, { productId: "901", userId: user.id, now: new Date(t + 29 * MIN) })).recorded).toBe(false);
    expect((await recordProductView(db, { productId: "901", userId: user.id, now: new Date(t + 40 * MIN) })).recorded).toBe(true);
    const pop = await db.productPopularity.findUniqueOrThrow({ where: { product_id: pgid(901) } });
    expect(pop.view_count).toBe(2);
    expect(pop.view_score).toBeCloseTo(eventWeight(t, "view") + eventWeight(t + 40 * MIN, "view"), 3);
    expect(pop.last_viewed_at?.getTime()).toBe(t + 40 * MIN);
  });

  it("pair a view with at most the 10 most recent other products of the last 24 hours", async () => {
    const db = app.database.db;
    const user = await app.createUser({ authProvider: "guest" });
    const t = Date.now() - 15 * DAY;
    for (let i = 0; i < 12; i++) await recordProductView(db, { productId: String(902 + i), userId: user.id, now: new Date(t + i * MIN) });
    await recordProductView(db, { productId: "920", userId: user.id, now: new Date(t + 30 * MIN) });
    const partners = await db.productCoOccurrence.findMany({ where: { kind: "view", product_id: pgid(920) }, orderBy: { other_id: "asc" } });
    expect(partners).toHaveLength(CO_VIEW_MAX_PARTNERS);
    expect(partners.map((p) => p.other_id)).toEqual(Array.from({ length: 10 }, (_, i) => pgid(904 + i)));
  });

  it("keep anonymous sessions apart", async () => {
    const db = app.database.db;
    const t = Date.now() - 12 * DAY;
    await recordProductView(db, { productId: "921", sessionId: "anon-1", now: new Date(t) });
    await recordProductView(db, { productId: "922", sessionId: "anon-1", now: new Date(t + MIN) });
    await recordProductView(db, { productId: "923", sessionId: "anon-2", now: new Date(t + 2 * MIN) });
    const pairs = await db.productCoOccurrence.findMany({ where: { kind: "view", product_id: { in: [pgid(921), pgid(922), pgid(923)] } }, orderBy: [{ product_id: "asc" }] });
    expect(pairs.map((p) => [p.product_id, p.other_id])).toEqual([
      [pgid(921), pgid(922)],
      [pgid(922), pgid(921)],
    ]);
  });

  it("match a rebuild from the events after a long stream of views and orders", async () => {
    const db = app.database.db;
    const rnd = mulberry32(77);
    const users = [];
    for (let i = 0; i < 6; i++) users.push((await app.createUser({ authProvider: i % 2 ? "guest" : "password" })).id);
    let t = Date.now() - 30 * DAY;
    let recorded = 0;
    let repeated = 0;
    for (let i = 0; i < 300; i++) {
      // Mostly minutes apart, sometimes more than a day.
      t += rnd() < 0.02 ? 26 * HOUR : Math.floor(rnd() * 8) * MIN + 1000;
      const actor = Math.floor(rnd() * 9);
      const product = 901 + Math.floor(rnd() ** 2 * N);
      const r = await recordProductView(db, actor < 6 ? { productId: String(product), userId: users[actor], now: new Date(t) } : { productId: pgid(product), sessionId: `sess-${actor}`, now: new Date(t) });
      if (r.recorded) recorded++;
      else repeated++;
    }
    expect(recorded).toBeGreaterThan(150);
    expect(repeated).toBeGreaterThan(5);

    const line = (id: number, product: number, quantity = 1) => ({ id, product_id: product, variant_id: null, title: `P${product}`, quantity, price: "20.00" });
    const orders = [
      { id: 7001, created_at: new Date(Date.now() - 9 * DAY).toISOString(), line_items: [line(1, 901, 2), line(2, 902), line(3, 903)] },
      { id: 7002, created_at: new Date(Date.now() - 5 * DAY).toISOString(), line_items: [line(4, 901), line(5, 902)] },
      { id: 7003, created_at: new Date(Date.now() - 2 * DAY).toISOString(), line_items: [line(6, 904), line(7, 905), line(8, 999_999)] },
      // More than 20 products: only the first 20 (by id) are paired.
      { id: 7004, created_at: new Date(Date.now() - DAY).toISOString(), line_items: Array.from({ length: 24 }, (_, i) => line(100 + i, 901 + i)) },
    ];
    for (const o of orders) await upsertOrderFromWebhook(db, { ...o, name: `#${o.id}`, total_price: "10.00" });
    for (const o of orders) await upsertOrderFromWebhook(db, { ...o, name: `#${o.id}`, total_price: "10.00" }); // re-delivery
    await upsertOrderFromWebhook(db, { ...orders[1], name: "#7002", total_price: "10.00", cancelled_at: new Date().toISOString() });

    const pairsOf7004 = await db.productCoOccurrence.count({ where: { kind: "purchase", product_id: pgid(901 + 23) } });
    expect(pairsOf7004).toBe(0); // 924 is the 24th product of the big order
    // 905 is paired with the 19 other first products of 7004; 904 is also in 7003: twice.
    expect(await db.productCoOccurrence.count({ where: { kind: "purchase", product_id: pgid(905) } })).toBe(CO_PURCHASE_MAX_PRODUCTS - 1);
    const twice = await db.productCoOccurrence.findUniqueOrThrow({ where: { kind_product_id_other_id: { kind: "purchase", product_id: pgid(905), other_id: pgid(904) } } });
    expect(twice.count).toBe(2);

    const incremental = await snapshot();
    const result = await rebuildRecommendationAggregates(db);
    const rebuilt = await snapshot();
    expect(result.popularity).toBe(rebuilt.pop.length);

    // Popularity rows: same products and counts, scores equal up to float rounding. A product
    // whose only purchases were cancelled and that was never viewed keeps an all-zero row
    // incrementally; the rebuild has no row for it.
    const live = incremental.pop.filter((p) => p.view_count > 0 || p.purchase_count > 0);
    expect(rebuilt.pop.map((p) => [p.product_id, p.view_count, p.purchase_count, p.last_viewed_at?.getTime() ?? null])).toEqual(
      live.map((p) => [p.product_id, p.view_count, p.purchase_count, p.last_viewed_at?.getTime() ?? null]),
    );
    rebuilt.pop.forEach((p, i) => {
      expect(rel(p.view_score, live[i].view_score)).toBeLessThan(1e-9);
      expect(rel(p.purchase_score, live[i].purchase_score)).toBeLessThan(1e-9);
    });
    expect(rebuilt.pairs.map((p) => [p.kind, p.product_id, p.other_id, p.count])).toEqual(incremental.pairs.map((p) => [p.kind, p.product_id, p.other_id, p.count]));
    rebuilt.pairs.forEach((p, i) => expect(rel(p.score, incremental.pairs[i].score)).toBeLessThan(1e-9));
    expect(rebuilt.pairs.filter((p) => p.kind === "view").length).toBeGreaterThan(100);
  });
});
