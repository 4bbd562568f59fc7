/**
 * POST /collections/generate-suggestions against the demo catalogue (640 products): a real
 * ranking by PostgreSQL text matching (pg_trgm), gender words filtering target_gender.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrompt, stem } from "../../app/services/collections.server";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await createDemoTestApp();
  token = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
}, 180_000);
afterAll(() => app?.close());

type Card = { id: string; title: string; productType: string; target_gender: string; score: number };

describe("collection suggestions", () => {
  it("parses prompts: stop words out, plurals stemmed, gender words become a filter", () => {
    expect(parsePrompt("Linen shirts for men")).toMatchObject({ words: ["linen", "shirt"], gender: "menswear" });
    expect(parsePrompt("Women's summer dresses")).toMatchObject({ words: ["summer", "dress"], gender: "womenswear" });
    expect(parsePrompt("denim for men and women").gender).toBeNull();
    expect(stem("glasses")).toBe("glass");
    expect(stem("jeans")).toBe("jean");
  });

  it("ranks products for the prompt with defaults productCount 20 and topKProducts 5", async () => {
    const r = await app.api("POST", "/collections/generate-suggestions", { token, body: { prompt: "linen shirts for men" } });
    expect(r.status).toBe(200);
    const [main] = r.body.suggestions;
    expect(main.title).toBe("Linen Shirts for Men");
    expect(main.handle).toBe("linen-shirts-for-men");
    expect(main.target_gender).toBe("menswear");
    expect(main.keywords).toEqual(["linen", "shirt"]);
    expect(main.products).toHaveLength(20);
    expect(main.topProducts).toHaveLength(5);
    expect(main.topProducts).toEqual(main.products.slice(0, 5));
    const products = main.products as Card[];
    // Gender filter: menswear and unisex only.
    expect(products.every((p) => p.target_gender !== "womenswear")).toBe(true);
    // Sorted by score; the best ones match both words.
    const scores = products.map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const p of main.topProducts as Card[]) {
      expect(p.title.toLowerCase()).toMatch(/linen/);
      expect(`${p.title} ${p.productType}`.toLowerCase()).toMatch(/shirt/);
    }
    // Every suggested product is active.
    const rows = await app.database.db.product.findMany({ where: { id: { in: products.map((p) => p.id) } }, select: { status: true } });
    expect(rows.every((row) => row.status === "active")).toBe(true);
  });

  it("honours productCount and topKProducts, and splits a mixed result by product type", async () => {
    const r = await app.api("POST", "/collections/generate-suggestions", {
      token,
      body: { prompt: "Women's summer linen", productCount: 12, topKProducts: 3 },
    });
    expect(r.status).toBe(200);
    const [main, ...byType] = r.body.suggestions;
    expect(main.products).toHaveLength(12);
    expect(main.topProducts).toHaveLength(3);
    expect(main.target_gender).toBe("womenswear");
    expect(main.handle).toBe("womens-summer-linen");
    expect((main.products as Card[]).every((p) => p.target_gender !== "menswear")).toBe(true);
    expect(byType.length).toBeGreaterThan(0);
    for (const s of byType) {
      const type = s.title.split(": ")[1];
      expect((s.products as Card[]).every((p) => p.productType === type)).toBe(true);
      expect(s.handle).not.toBe(main.handle);
    }
  });

  it("suggests a free handle when a collection already uses it", async () => {
    const r = await app.api("POST", "/collections/generate-suggestions", { token, body: { prompt: "Denim shop" } });
    expect(r.status).toBe(200);
    // The demo data has a "denim-shop" collection.
    expect(r.body.suggestions[0].handle).toBe("denim-shop-2");
  });

  it("answers no suggestions when nothing matches; refuses an empty prompt", async () => {
    const none = await app.api("POST", "/collections/generate-suggestions", { token, body: { prompt: "zzyzx qwxq" } });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ suggestions: [] });
    const stop = await app.api("POST", "/collections/generate-suggestions", { token, body: { prompt: "the best of all" } });
    expect(stop.status).toBe(400);
    expect(stop.body.error.message).toContain("prompt needs at least one descriptive word");
    const missing = await app.api("POST", "/collections/generate-suggestions", { token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("prompt is required");
    const tooMany = await app.api("POST", "/collections/generate-suggestions", { token, body: { prompt: "denim", productCount: 1000 } });
    expect(tooMany.status).toBe(400);
  });

  it("is for catalogue editors only", async () => {
    const shopper = await app.createUser();
    expect((await app.api("POST", "/collections/generate-suggestions", { token: shopper.token, body: { prompt: "denim" } })).status).toBe(403);
  });
});
