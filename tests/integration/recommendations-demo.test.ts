/**
 * The embedded default's demo data shows real recommendations: the seed builds popularity and
 * co-occurrences from its view sessions and orders, so most-viewed, best-sellers, customers also
 * viewed and frequently bought together are non-empty, and the demo shopper gets a personal feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";

let app: TestApp;
let shopperToken: string;

beforeAll(async () => {
  const demo = await createDemoTestApp();
  app = demo;
  const report = demo.demoReport;
  expect(report.counts.popularity).toBeGreaterThan(400);
  expect(report.counts.coOccurrences).toBeGreaterThan(1000);
  const login = await app.api("POST", "/auth/login", { body: { email: "shopper@demo.local", password: "demo-password" } });
  expect(login.status).toBe(200);
  shopperToken = login.body.token;
}, 180_000);
afterAll(() => app?.close());

const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

describe("recommendations on the demo data", () => {
  it("most viewed and best sellers are backed by events", async () => {
    const mv = await app.api("GET", "/recommendations/most-viewed", { query: { limit: 12 } });
    expect(mv.status).toBe(200);
    expect(mv.body.source).toBe("most-viewed");
    expect(mv.body.results).toHaveLength(12);
    expect(mv.body.pagination.hasNextPage).toBe(true);
    const bs = await app.api("GET", "/recommendations/best-sellers", { query: { target_gender: "womenswear" } });
    expect(bs.body.source).toBe("best-sellers");
    expect(bs.body.results.length).toBeGreaterThan(5);
    for (const c of bs.body.results) expect(["womenswear", "both"]).toContain(c.target_gender);
  });

  it("customers also viewed comes from the browsing sessions", async () => {
    const top = ids((await app.api("GET", "/recommendations/most-viewed", { query: { limit: 5 } })).body);
    for (const id of top) {
      const r = await app.api("GET", `/recommendations/customers-also-viewed/${encodeURIComponent(id)}`, { query: { limit: 12 } });
      expect(r.status).toBe(200);
      expect(r.body.source).toBe("co-viewed");
      expect(r.body.results).toHaveLength(12);
      expect(r.body.reasons[0]).toBe("co-viewed");
      expect(ids(r.body)).not.toContain(id);
    }
  });

  it("frequently bought together comes from the orders, complementary types first", async () => {
    const bs = ids((await app.api("GET", "/recommendations/best-sellers", { query: { limit: 10 } })).body);
    let withPairs = 0;
    for (const id of bs) {
      const r = await app.api("GET", `/recommendations/frequently-bought-together/${encodeURIComponent(id)}`, { query: { limit: 8 } });
      expect(r.status).toBe(200);
      expect(r.body.results).toHaveLength(8);
      if (r.body.source === "co-purchased") withPairs++;
    }
    expect(withPairs).toBeGreaterThan(0);
  });

  it("the demo shopper gets a personal feed; random pages cover the catalogue without repeats", async () => {
    const fy = await app.api("GET", "/recommendations/for-you", { token: shopperToken });
    expect(fy.status).toBe(200);
    expect(fy.body.source).toBe("personalized");
    expect(fy.body.results).toHaveLength(20);
    for (const c of fy.body.results) expect(["womenswear", "both"]).toContain(c.target_gender);
    expect(fy.body.reasons.filter((r: string) => ["co-viewed", "co-purchased", "followed-store", "interest"].includes(r)).length).toBeGreaterThan(5);

    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await app.api("GET", "/recommendations/random", { query: { seed: "demo-session", limit: 60, ...(cursor ? { cursor } : {}) } });
      for (const id of ids(r.body)) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
      cursor = r.body.pagination.cursor ?? undefined;
      pages++;
    } while (cursor && pages < 30);
    expect(seen.size).toBe(await app.database.db.product.count({ where: { status: "active", publishedAt: { lte: new Date() } } }));
  });
});
