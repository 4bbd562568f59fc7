/**
 * POST /search on a small hand-made catalogue whose expected answers are known: ranking, typos,
 * prefixes, word-vector synonyms, parsed filters and chips, facets, sorts, pages and cursors,
 * gender, visibility, the vector index blend; then saved-search notifications, their job and the
 * unsubscribe link.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import type { VectorIndex, VectorMatch, VectorNamespace, VectorQuery, VectorRecord } from "../../app/providers/vector-index/port";
import { textEmbedder } from "../../app/services/search/text-embedding.server";
import { clearSearchCaches } from "../../app/services/search/search.server";
import { SEARCH_NOTIFICATIONS_QUEUE } from "../../app/services/search/notifications.server";
import { rankForPrompt } from "../../app/services/search/rank-for-prompt.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, type ProductFixture } from "./products-fixtures";

let app: TestApp;
let harbour: string;
let fjord: string;
const BASE = new Date("2026-01-01T00:00:00Z").getTime();

type Card = { id: string; title: string; productType: string; target_gender: string; priceRange: { minVariantPrice: { amount: string } }; storeId: string | null };

/** An exact in-memory vector index (cosine over every vector), as a test double of the port. */
class MemoryVectorIndex implements VectorIndex {
  readonly name = "exact" as const;
  readonly data = new Map<string, Map<string, VectorRecord>>();
  calls = 0;
  async upsert(ns: VectorNamespace, records: VectorRecord[]) {
    const m = this.data.get(ns) ?? new Map<string, VectorRecord>();
    for (const r of records) m.set(r.id, r);
    this.data.set(ns, m);
  }
  async remove(ns: VectorNamespace, ids: string[]) {
    for (const id of ids) this.data.get(ns)?.delete(id);
  }
  async query(ns: VectorNamespace, vector: number[], q: VectorQuery): Promise<VectorMatch[]> {
    this.calls++;
    const out: VectorMatch[] = [];
    for (const r of this.data.get(ns)?.values() ?? []) {
      if (q.targetGenders && !q.targetGenders.includes(r.metadata.target_gender)) continue;
      if (q.excludeIds?.includes(r.id)) continue;
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < vector.length; i++) {
        dot += vector[i] * r.values[i];
        na += vector[i] ** 2;
        nb += r.values[i] ** 2;
      }
      out.push({ id: r.id, score: dot / Math.sqrt(na * nb) });
    }
    return out.sort((a, b) => b.score - a.score).slice(0, q.topK);
  }
  async count(ns: VectorNamespace) {
    return this.data.get(ns)?.size ?? 0;
  }
}

const P = (n: number, title: string, productType: string, gender: ProductFixture["gender"], price: number, colours: Record<string, string>, extra: Partial<ProductFixture> = {}): ProductFixture => ({
  n,
  title,
  productType,
  gender,
  price,
  colours,
  sizes: ["S", "M", "L"],
  images: 1,
  companion: false,
  createdAt: new Date(BASE + n * 60_000),
  publishedAt: new Date(BASE + n * 60_000),
  ...extra,
});

const CATALOGUE = (stores: { harbour: string; fjord: string }): ProductFixture[] => [
  P(1, "Linen Shirt", "Shirts", "menswear", 60, { Navy: "#1f2a44" }, { tags: ["shirt", "linen"], descriptionHtml: "<p>A breathable shirt cut from washed European linen.</p>", storeId: stores.harbour }),
  P(2, "Relaxed Oxford Shirt", "Shirts", "both", 70, { "Sky Blue": "#9cc3e4" }, { tags: ["shirt", "oxford"], storeId: stores.harbour }),
  P(3, "Striped Poplin Shirt", "Shirts", "womenswear", 80, { "Off White": "#f2efe8" }, { tags: ["shirt", "poplin"], storeId: stores.fjord }),
  P(4, "Camp Collar Shirt", "Shirts", "menswear", 55, { Olive: "#5e6b3a" }, { tags: ["shirt"] }),
  P(5, "Cotton Trousers", "Trousers", "menswear", 90, { Stone: "#c8bfae" }, { descriptionHtml: "<p>Easy cotton trousers. Wear them with a linen shirt.</p>", tags: ["trousers"] }),
  P(6, "Bomber Jacket", "Jackets", "menswear", 150, { Black: "#1c1c1e" }, { tags: ["jacket", "nylon"], storeId: stores.harbour }),
  P(7, "Waxed Cotton Field Jacket", "Jackets", "both", 220, { Olive: "#5e6b3a" }, { tags: ["jacket", "waxed-cotton"], storeId: stores.fjord }),
  P(8, "Cropped Denim Jacket", "Jackets", "womenswear", 130, { Indigo: "#2d3a5e" }, { tags: ["jacket", "denim"], storeId: stores.fjord }),
  P(9, "Chunky Merino Sweater", "Knitwear", "both", 120, { Cream: "#f3ead3" }, { tags: ["sweater", "merino"] }),
  P(10, "Cashmere Crew Neck Sweater", "Knitwear", "womenswear", 240, { Camel: "#b5854f" }, { tags: ["sweater", "cashmere"] }),
  P(11, "Lambswool Cardigan", "Knitwear", "womenswear", 140, { Burgundy: "#6d1f2f" }, { tags: ["cardigan", "lambswool"] }),
  P(12, "Silk Slip Dress", "Dresses", "womenswear", 180, { Blush: "#e6b8ae" }, { tags: ["dress", "silk"] }),
  P(13, "Linen Midi Dress", "Dresses", "womenswear", 150, { Sage: "#a3b18a" }, { tags: ["dress", "linen"] }),
  P(14, "Floral Tea Dress", "Dresses", "womenswear", 95, { Red: "#b3262e" }, { tags: ["dress", "floral"] }),
  P(15, "Heavyweight T-Shirt", "T-Shirts", "both", 35, { Black: "#1c1c1e", White: "#ffffff" }, { tags: ["t-shirt", "cotton"] }),
  P(16, "Pocket Tee", "T-Shirts", "menswear", 30, { "Heather Grey": "#9b9ea3" }, { tags: ["t-shirt"] }),
  P(17, "Slim Selvedge Jeans", "Jeans", "menswear", 160, { Indigo: "#2d3a5e" }, { sizes: ["30", "32", "34"], tags: ["jeans", "selvedge-denim"] }),
  P(18, "Wide-Leg Jeans", "Jeans", "womenswear", 140, { "Light Wash": "#8fabcb" }, { sizes: ["26", "28", "30"], tags: ["jeans", "denim"] }),
  P(19, "Pleated Wool Trousers", "Trousers", "womenswear", 170, { Charcoal: "#3a3d42" }, { tags: ["trousers", "wool"] }),
  P(20, "Chino Shorts", "Shorts", "menswear", 45, { Stone: "#c8bfae" }, { tags: ["shorts", "chino"] }),
  P(21, "Wool Overcoat", "Coats", "menswear", 420, { Camel: "#b5854f" }, { tags: ["coat", "wool"] }),
  P(22, "Trench Coat", "Coats", "womenswear", 380, { Stone: "#c8bfae" }, { tags: ["coat", "gabardine"] }),
  P(23, "Fleece Hoodie", "Hoodies & Sweatshirts", "both", 75, { "Forest Green": "#2f4a36" }, { tags: ["hoodie", "fleece"] }),
  P(24, "Pleated Midi Skirt", "Skirts", "womenswear", 110, { Navy: "#1f2a44" }, { tags: ["skirt"] }),
  P(25, "Tailored Blazer", "Blazers", "menswear", 300, { Navy: "#1f2a44" }, { sizes: ["EU 48", "EU 50"], tags: ["blazer", "wool"] }),
  P(26, "Sold Out Linen Shirt", "Shirts", "menswear", 65, { White: "#ffffff" }, { tags: ["shirt", "linen"], inventory: 0 }),
  P(27, "Denim Western Shirt", "Shirts", "both", 85, { Indigo: "#2d3a5e" }, { tags: ["shirt", "denim"] }),
  // Filed under Joggers, not Trousers: "track pants" must still find it.
  P(31, "Jersey Track Pants", "Joggers", "menswear", 40, { Black: "#1c1c1e" }, { tags: ["joggers"], createdAt: new Date(BASE + 13.5 * 60_000) }),
  // Not visible to shoppers:
  P(28, "Draft Linen Shirt", "Shirts", "menswear", 60, { Navy: "#1f2a44" }, { status: "draft", tags: ["linen"] }),
  P(29, "Scheduled Linen Shirt", "Shirts", "menswear", 60, { Navy: "#1f2a44" }, { publishedAt: new Date(Date.now() + 30 * 86_400_000), tags: ["linen"] }),
  P(30, "Unpublished Linen Shirt", "Shirts", "menswear", 60, { Navy: "#1f2a44" }, { publishedAt: null, tags: ["linen"] }),
];
const VISIBLE = 28;
const HIDDEN_IDS = [pgid(28), pgid(29), pgid(30)];

const search = (body: Record<string, unknown>, token?: string) => app.api("POST", "/search", { body, token });
const titles = (r: { body: { results: Card[] } }) => r.body.results.map((c) => c.title);

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Search Vendor", handle: "search-vendor" } });
  harbour = (await db.store.create({ data: { name: "Harbour Lane", handle: "harbour-lane", vendor_id: vendor.id } })).id;
  fjord = (await db.store.create({ data: { name: "Fjord Studio", handle: "fjord-studio", vendor_id: vendor.id } })).id;
  for (const f of CATALOGUE({ harbour, fjord })) await createProduct(db, f);
}, 120_000);
afterAll(() => app?.close());

describe("POST /search: relevance", () => {
  it("works for anonymous callers and guests, with the answer's shape", async () => {
    const anon = await search({ query: "shirt" });
    expect(anon.status).toBe(200);
    expect(Object.keys(anon.body).sort()).toEqual(["filters", "pagination", "query", "results"]);
    expect(Object.keys(anon.body.pagination).sort()).toEqual(["currentPage", "cursor", "hasNextPage", "hasPreviousPage"]);
    expect(Object.keys(anon.body.query).sort()).toEqual(["corrected", "raw", "searchId", "text"]);
    const guest = await app.createUser({ authProvider: "guest" });
    const r = await search({ query: "shirt" }, guest.token);
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBeGreaterThan(0);
  });

  it("ranks an exact title match first and a description match below title matches", async () => {
    const r = await search({ query: "linen shirt", skipAutoParsing: true });
    expect(r.status).toBe(200);
    const t = titles(r);
    expect(t[0]).toBe("Linen Shirt");
    expect(t).toContain("Sold Out Linen Shirt");
    expect(t).toContain("Cotton Trousers"); // only its description says "linen shirt"
    expect(t.indexOf("Cotton Trousers")).toBeGreaterThan(t.indexOf("Sold Out Linen Shirt"));
    expect(r.body.filters.parsed).toEqual([]);
    expect(r.body.filters.applied).toEqual({});
    expect(r.body.query).toMatchObject({ raw: "linen shirt", text: "linen shirt", corrected: null });
  });

  it("never shows drafts, scheduled or unpublished products", async () => {
    for (const query of ["linen shirt", "linen", "shirt", ""]) {
      const r = await search({ query, limit: 100, skipAutoParsing: true });
      expect(r.status).toBe(200);
      const ids = r.body.results.map((c: Card) => c.id);
      for (const hidden of HIDDEN_IDS) expect(ids).not.toContain(hidden);
    }
    const all = await search({ query: "", limit: 100 });
    expect(all.body.results).toHaveLength(VISIBLE);
    expect(all.body.filters.facets.total).toBe(VISIBLE);
  });

  it("corrects typos against the catalogue's words: \"shrit\" finds shirts", async () => {
    const r = await search({ query: "shrit", skipAutoParsing: true });
    expect(r.status).toBe(200);
    expect(r.body.query.corrected).toBe("shirt");
    expect(r.body.query.text).toBe("shrit");
    const t = titles(r);
    expect(t.length).toBeGreaterThanOrEqual(6);
    expect(t.slice(0, 6).every((x: string) => /shirt/i.test(x))).toBe(true);
    expect(t).toContain("Linen Shirt");
    // Auto-parsing leaves a typo as text too, and still finds them.
    const parsed = await search({ query: "blue shrit" });
    expect(parsed.body.query.corrected).toBe("shirt");
    expect(titles(parsed)).toContain("Relaxed Oxford Shirt");
  });

  it("matches the last word as a prefix: \"jack\" finds jackets", async () => {
    const r = await search({ query: "jack" });
    expect(r.status).toBe(200);
    expect(r.body.query.corrected).toBeNull();
    expect(new Set(titles(r))).toEqual(new Set(["Bomber Jacket", "Waxed Cotton Field Jacket", "Cropped Denim Jacket"]));
    const two = await search({ query: "denim jack", skipAutoParsing: true });
    expect(titles(two)[0]).toBe("Cropped Denim Jacket");
  });

  it("finds synonyms through the word vectors: \"jumper\" finds sweaters, \"pants\" trousers", async () => {
    // No product says "jumper": the vectors relate it to "sweater".
    const r = await search({ query: "jumper", skipAutoParsing: true });
    expect(r.status).toBe(200);
    expect(r.body.query.corrected).toBeNull();
    expect(new Set(titles(r))).toEqual(new Set(["Chunky Merino Sweater", "Cashmere Crew Neck Sweater"]));
    const pants = await search({ query: "pants", skipAutoParsing: true });
    expect(titles(pants)).toEqual(expect.arrayContaining(["Cotton Trousers", "Pleated Wool Trousers"]));
    // Parsed, "jumper" is a garment word: the knitwear filter.
    const parsed = await search({ query: "jumper" });
    expect(parsed.body.filters.parsed).toEqual([{ key: "productTypes", value: "Knitwear", label: "Knitwear" }]);
    expect(new Set(titles(parsed))).toEqual(new Set(["Chunky Merino Sweater", "Cashmere Crew Neck Sweater", "Lambswool Cardigan"]));
  });

  it("searches garment words as words when their type filter would leave nothing", async () => {
    const r = await search({ query: "track pants" });
    expect(titles(r)).toEqual(["Jersey Track Pants"]);
    expect(r.body.filters.parsed).toEqual([]);
    expect(r.body.query.text).toBe("track pants");
    // When the type has matches, it stays a filter.
    const chinos = await search({ query: "wool pants" });
    expect(chinos.body.filters.applied).toMatchObject({ productTypes: ["Trousers"], materials: ["wool"] });
    expect(titles(chinos)).toEqual(["Pleated Wool Trousers"]);
  });

  it("keeps the garment filter when only the price leaves nothing: \"jeans under 60\" shows no other garments", async () => {
    // Both jeans cost more than 60; dropping the Jeans filter would show tees and shorts instead.
    const r = await search({ query: "jeans under 60" });
    expect(r.status).toBe(200);
    expect(r.body.filters.applied).toMatchObject({ productTypes: ["Jeans"], priceMax: 60 });
    expect(r.body.filters.parsed.map((c: { key: string }) => c.key).sort()).toEqual(["priceMax", "productTypes"]);
    expect(r.body.results).toEqual([]);
    // The same garment with a price that fits finds the jeans.
    const fits = await search({ query: "jeans under 150" });
    expect(titles(fits)).toEqual(["Wide-Leg Jeans"]);
  });

  it("falls back to any word when no product has them all", async () => {
    const r = await search({ query: "merino zebra", skipAutoParsing: true });
    expect(titles(r)).toEqual(["Chunky Merino Sweater"]);
    const none = await search({ query: "zzyzx qwxq", skipAutoParsing: true });
    expect(none.status).toBe(200);
    expect(none.body.results).toEqual([]);
    expect(none.body.filters.facets.total).toBe(0);
    expect(none.body.pagination).toEqual({ hasNextPage: false, hasPreviousPage: false, currentPage: 1, cursor: null });
  });
});

describe("POST /search: parsed filters and chips", () => {
  it("parses gender, colour, material, garment and price into filters, chips and the text left", async () => {
    const r = await search({ query: "navy linen shirt for men under $80" });
    expect(r.status).toBe(200);
    expect(r.body.query.text).toBe("");
    expect(r.body.filters.applied).toEqual({ target_gender: "menswear", colors: ["navy"], materials: ["linen"], productTypes: ["Shirts"], priceMax: 80 });
    const chips = r.body.filters.parsed as { key: string; value: unknown; label: string }[];
    expect(chips).toEqual(
      expect.arrayContaining([
        { key: "target_gender", value: "menswear", label: "Men" },
        { key: "colors", value: "navy", label: "Navy" },
        { key: "materials", value: "linen", label: "Linen" },
        { key: "productTypes", value: "Shirts", label: "Shirts" },
        { key: "priceMax", value: 80, label: "Under $80" },
      ]),
    );
    expect(chips).toHaveLength(5);
    expect(titles(r)).toEqual(["Linen Shirt"]);

    // Removing the colour chip: the remaining filters and text, without parsing again.
    const { colors: _removed, ...rest } = r.body.filters.applied;
    const again = await search({ query: r.body.query.text, filters: rest, skipAutoParsing: true });
    expect(again.body.filters.parsed).toEqual([]);
    expect(again.body.filters.applied).toEqual(rest);
    expect(new Set(titles(again))).toEqual(new Set(["Linen Shirt", "Sold Out Linen Shirt"]));
  });

  it("keeps the text that is not a filter, and the caller's filters", async () => {
    const r = await search({ query: "women's floral dress", filters: { priceMax: 100 } });
    expect(r.body.query.text).toBe("floral");
    expect(r.body.filters.applied).toEqual({ target_gender: "womenswear", productTypes: ["Dresses"], priceMax: 100 });
    expect(titles(r)).toEqual(["Floral Tea Dress"]);
  });

  it("parses sizes, price ranges, stores and availability", async () => {
    const size = await search({ query: "jeans size 32" });
    expect(size.body.filters.applied).toMatchObject({ sizes: ["32"], productTypes: ["Jeans"] });
    expect(titles(size)).toEqual(["Slim Selvedge Jeans"]);
    const range = await search({ query: "dress between 100 and 160" });
    expect(range.body.filters.applied).toMatchObject({ priceMin: 100, priceMax: 160 });
    expect(new Set(titles(range))).toEqual(new Set(["Linen Midi Dress"]));
    const store = await search({ query: "harbour lane jacket" });
    expect(store.body.filters.parsed).toEqual(expect.arrayContaining([{ key: "storeIds", value: harbour, label: "Harbour Lane" }]));
    expect(titles(store)).toEqual(["Bomber Jacket"]);
    const stock = await search({ query: "linen shirt in stock" });
    expect(stock.body.filters.applied.available).toBe(true);
    expect(titles(stock)).toEqual(["Linen Shirt"]);
  });

  it("blue selects the catalogue's blue colours (navy, sky blue, indigo…)", async () => {
    const r = await search({ query: "blue shirt" });
    expect(r.body.filters.applied.colors).toEqual(["blue"]);
    expect(new Set(titles(r))).toEqual(new Set(["Linen Shirt", "Relaxed Oxford Shirt", "Denim Western Shirt"]));
  });

  it("skipAutoParsing searches the whole text and applies only the given filters", async () => {
    const r = await search({ query: "navy shirt", skipAutoParsing: true, filters: { target_gender: "womenswear" } });
    expect(r.body.filters.parsed).toEqual([]);
    expect(r.body.filters.applied).toEqual({ target_gender: "womenswear" });
    expect(r.body.query.text).toBe("navy shirt");
    expect(r.body.results.every((c: Card) => c.target_gender !== "menswear")).toBe(true);
  });
});

describe("POST /search: facets, gender, sorts", () => {
  it("counts facets over the matched products", async () => {
    const r = await search({ query: "", filters: { productTypes: ["Jackets"] } });
    const f = r.body.filters.facets;
    expect(f.total).toBe(3);
    expect(f.gender).toEqual([
      { value: "menswear", label: "Men", count: 2 },
      { value: "womenswear", label: "Women", count: 2 },
      { value: "both", label: "All", count: 3 },
    ]);
    expect(f.productTypes).toEqual([{ value: "Jackets", label: "Jackets", count: 3 }]);
    expect(f.price.find((b: { key: string }) => b.key === "100-200")).toEqual({ key: "100-200", label: "$100 – $200", min: 100, max: 199.99, count: 2 });
    expect(f.price.find((b: { key: string }) => b.key === "200-500").count).toBe(1);
    expect(f.price.find((b: { key: string }) => b.key === "0-50")).toMatchObject({ label: "Under $50", count: 0 });
    expect(new Set(f.colors.map((c: { value: string; count: number }) => `${c.value}:${c.count}`))).toEqual(new Set(["black:1", "green:1", "blue:1"]));
    expect(f.sizes.map((s: { value: string }) => s.value)).toEqual(["S", "M", "L"]);
    expect(new Set(f.stores.map((s: { name: string; count: number }) => `${s.name}:${s.count}`))).toEqual(new Set(["Harbour Lane:1", "Fjord Studio:2"]));
    expect(f.availability).toEqual({ inStock: 3, outOfStock: 0 });

    const shirts = await search({ query: "shirt", skipAutoParsing: true, limit: 1 });
    expect(shirts.body.filters.facets.availability.outOfStock).toBe(1);
    expect(shirts.body.filters.facets.total).toBeGreaterThan(1);
  });

  it("filters by gender: unisex products suit both; \"both\" restricts nothing", async () => {
    const men = await search({ query: "", limit: 100, filters: { target_gender: "menswear" } });
    const genders = new Set(men.body.results.map((c: Card) => c.target_gender));
    expect(genders).toEqual(new Set(["menswear", "both"]));
    expect(men.body.results.map((c: Card) => c.title)).toContain("Fleece Hoodie");
    const women = await search({ query: "", limit: 100, filters: { target_gender: "womenswear" } });
    expect(new Set(women.body.results.map((c: Card) => c.target_gender))).toEqual(new Set(["womenswear", "both"]));
    expect(men.body.results.length + women.body.results.length).toBe(VISIBLE + 6); // 6 unisex products in both
    const both = await search({ query: "", limit: 100, filters: { target_gender: "both" } });
    expect(both.body.results).toHaveLength(VISIBLE);
    expect(both.body.filters.applied).toEqual({});
  });

  it("sorts by price both ways and by newest, ties by id", async () => {
    const price = (c: Card) => Number(c.priceRange.minVariantPrice.amount);
    const asc = await search({ query: "", limit: 100, sort: "Price low to high" });
    const ascPrices = asc.body.results.map(price);
    expect(ascPrices).toEqual([...ascPrices].sort((a, b) => a - b));
    expect(asc.body.results[0].title).toBe("Pocket Tee");
    const desc = await search({ query: "", limit: 100, sort: "Price high to low" });
    expect(desc.body.results.map(price)).toEqual([...ascPrices].sort((a, b) => b - a));
    expect(desc.body.results[0].title).toBe("Wool Overcoat");
    // Equal prices (three products at 60/65…): ties in id order.
    const sixty = asc.body.results.filter((c: Card) => price(c) === 150).map((c: Card) => c.id);
    expect(sixty).toEqual([...sixty].sort());
    const newest = await search({ query: "", limit: 100, sort: "Newest" });
    expect(newest.body.results[0].title).toBe("Denim Western Shirt"); // n = 27, created last
    expect(newest.body.results.at(-1).title).toBe("Linen Shirt");
    const rel = await search({ query: "shirt", skipAutoParsing: true, sort: "Newest" });
    expect(rel.body.results[0].title).toBe("Denim Western Shirt");
  });
});

describe("POST /search: pages and cursors", () => {
  it("pages with page and limit", async () => {
    const p1 = await search({ query: "", limit: 10 });
    expect(p1.body.results).toHaveLength(10);
    expect(p1.body.pagination).toMatchObject({ hasPreviousPage: false, hasNextPage: true, currentPage: 1 });
    expect(typeof p1.body.pagination.cursor).toBe("string");
    const p3 = await search({ query: "", limit: 10, page: 3 });
    expect(p3.body.results).toHaveLength(VISIBLE - 20);
    expect(p3.body.pagination).toEqual({ hasPreviousPage: true, hasNextPage: false, currentPage: 3, cursor: null });
    const past = await search({ query: "", limit: 10, page: 9 });
    expect(past.status).toBe(200);
    expect(past.body.results).toEqual([]);
    expect(past.body.pagination).toMatchObject({ hasNextPage: false, hasPreviousPage: true, currentPage: 9 });
    const p2 = await search({ query: "", limit: 10, page: 2 });
    const ids = [...p1.body.results, ...p2.body.results, ...p3.body.results].map((c: Card) => c.id);
    expect(new Set(ids).size).toBe(VISIBLE);
    // Default page size: 20.
    expect((await search({})).body.results).toHaveLength(20);
  });

  it("refuses bad pages and limits with 400", async () => {
    for (const body of [{ limit: 0 }, { limit: 101 }, { page: 0 }, { limit: 2.5 }]) {
      const r = await search({ query: "shirt", ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await search({ limit: 101 })).body.error.message).toBe("limit: must be between 1 and 100");
    expect((await search({ limit: 100 })).status).toBe(200);
    expect((await search({ limit: 1 })).status).toBe(200);
  });

  it("round-trips the cursor", async () => {
    const p1 = await search({ query: "shirt", limit: 3, skipAutoParsing: true });
    const p2 = await search({ query: "shirt", limit: 3, page: 2, skipAutoParsing: true });
    const viaCursor = await search({ query: "shirt", limit: 3, cursor: p1.body.pagination.cursor, skipAutoParsing: true });
    expect(viaCursor.status).toBe(200);
    expect(viaCursor.body.results).toEqual(p2.body.results);
    expect(viaCursor.body.pagination).toEqual(p2.body.pagination);
    // A cursor of another search, or garbage, is refused.
    const other = await search({ query: "jacket", limit: 3, cursor: p1.body.pagination.cursor });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain("cursor belongs to another search");
    expect((await search({ query: "shirt", cursor: "not-a-cursor" })).body.error.message).toBe("cursor is invalid");
  });
});

describe("POST /search: validation", () => {
  it("answers 400 with clear messages", async () => {
    const long = await search({ query: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe("query: must be at most 200 characters");
    const sort = await search({ sort: "Cheapest" });
    expect(sort.status).toBe(400);
    expect(sort.body.error.message).toBe("sort: must be one of: Relevance, Price low to high, Price high to low, Newest");
    const key = await search({ filters: { colours: ["red"] } });
    expect(key.status).toBe(400);
    expect(key.body.error.message).toContain("colours");
    const price = await search({ filters: { priceMin: 100, priceMax: 10 } });
    expect(price.status).toBe(400);
    expect(price.body.error.message).toBe("filters.priceMin must not be more than filters.priceMax");
    expect((await search({ filters: { priceMin: -1 } })).status).toBe(400);
    expect((await search({ filters: { target_gender: "kids" } })).status).toBe(400);
    expect((await search({ query: 5 })).status).toBe(400);
  });
});

describe("POST /search: the vector index", () => {
  it("blends text-vector similarity in and finds close products that share no word", async () => {
    const db = app.database.db;
    const index = new MemoryVectorIndex();
    const rows = await db.product.findMany({ select: { id: true, title: true, productType: true, tags: true, target_gender: true } });
    for (const p of rows) {
      const values = await textEmbedder.embed(p);
      if (values) await index.upsert("text", [{ id: p.id, values, metadata: { target_gender: p.target_gender } }]);
    }
    expect(await index.count("text")).toBe(31);
    const ctx = app.ctx as unknown as { vectors?: VectorIndex };
    const original = ctx.vectors;
    ctx.vectors = index;
    try {
      clearSearchCaches(db);
      const r = await search({ query: "sweatshirt", skipAutoParsing: true });
      expect(index.calls).toBeGreaterThan(0);
      expect(titles(r)[0]).toBe("Fleece Hoodie");
      const linen = await search({ query: "linen shirt", skipAutoParsing: true });
      expect(titles(linen)[0]).toBe("Linen Shirt");
      for (const hidden of HIDDEN_IDS) expect(linen.body.results.map((c: Card) => c.id)).not.toContain(hidden);

      // A product the index finds very close joins the results without a shared word.
      const close: VectorIndex = { ...index, name: "exact", query: async () => [{ id: pgid(14), score: 0.95 }, { id: pgid(21), score: 0.3 }], upsert: index.upsert, remove: index.remove, count: index.count };
      ctx.vectors = close;
      const withClose = await search({ query: "shirt", skipAutoParsing: true, limit: 50 });
      expect(titles(withClose)).toContain("Floral Tea Dress");
      expect(titles(withClose)).not.toContain("Wool Overcoat");
      expect(titles(withClose).indexOf("Floral Tea Dress")).toBeGreaterThan(titles(withClose).indexOf("Linen Shirt"));

      // A failing index leaves the lexical search working.
      const broken: VectorIndex = { ...close, query: async () => Promise.reject(new Error("index down")) };
      ctx.vectors = broken;
      const still = await search({ query: "linen shirt", skipAutoParsing: true });
      expect(still.status).toBe(200);
      expect(titles(still)[0]).toBe("Linen Shirt");
    } finally {
      ctx.vectors = original;
      clearSearchCaches(db);
    }
  });
});

describe("ranking for a prompt (collections)", () => {
  it("restricts by the prompt's gender and ranks its garment, material and words", async () => {
    const { ranked, parsed } = await rankForPrompt({ db: app.database.db }, "linen shirts for men", { limit: 10 });
    expect(parsed.filters).toMatchObject({ target_gender: "menswear", materials: ["linen"], productTypes: ["Shirts"] });
    const byId = new Map(CATALOGUE({ harbour, fjord }).map((f) => [pgid(f.n), f]));
    const rankedTitles = ranked.map((r) => byId.get(r.id)!.title);
    expect(rankedTitles.slice(0, 2).sort()).toEqual(["Linen Shirt", "Sold Out Linen Shirt"]);
    expect(ranked.every((r) => byId.get(r.id)!.gender !== "womenswear")).toBe(true);
    expect(rankedTitles).not.toContain("Draft Linen Shirt");
    const scores = ranked.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Colours and types do not exclude: other shirts follow.
    expect(rankedTitles).toContain("Camp Collar Shirt");
    expect((await rankForPrompt({ db: app.database.db }, "zzyzx qwxq", { limit: 10 })).ranked).toEqual([]);
  });
});

describe("search notifications", () => {
  const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
  const notify = (body: unknown, token?: string) => app.api("POST", "/users/notification-requests/search", { body, token });

  it("refuses a missing or empty searchId, anonymous callers, guests without email and a searchId of another search", async () => {
    const user = await app.createUser();
    for (const body of [{}, { searchId: "" }, { searchId: "   " }, { query: "linen" }]) {
      const r = await notify(body, user.token);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe("searchId is required");
    }
    const anon = await notify({ searchId: "s_x", query: "linen" });
    expect(anon.status).toBe(401);
    const guest = await app.createUser({ authProvider: "guest" });
    const s = await search({ query: "linen" });
    const g = await notify({ searchId: s.body.query.searchId, query: "linen" }, guest.token);
    expect(g.status).toBe(422);
    expect(g.body.error.message).toBe("Add an email address to your account to be told about new products for this search");
    const wrong = await notify({ searchId: s.body.query.searchId, query: "wool" }, user.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain("searchId does not match");
    expect((await app.api("DELETE", `/users/notification-requests/search/${s.body.query.searchId}`)).status).toBe(401);
    const none = await app.api("DELETE", `/users/notification-requests/search/${s.body.query.searchId}`, { token: user.token });
    expect(none.status).toBe(404);
  });

  it("saves a search idempotently, emails new matches with an unsubscribe link, and stops after unsubscribing", async () => {
    const db = app.database.db;
    const user = await app.createUser({ email: "saver@example.test" });
    const s = await search({ query: "linen for men" });
    expect(s.body.filters.applied).toMatchObject({ target_gender: "menswear", materials: ["linen"] });
    const { searchId } = s.body.query;

    // The raw query, or the text left with the applied filters: both name the same search.
    const created = await notify({ searchId, query: "linen for men" }, user.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: "search", searchId, query: "", filters: { target_gender: "menswear", materials: ["linen"] }, email: "saver@example.test", status: "active" });
    const again = await notify({ searchId, query: s.body.query.text, filters: s.body.filters.applied }, user.token);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(created.body.id);
    expect(await db.notificationRequest.count({ where: { kind: "search", user_id: user.id } })).toBe(1);

    // New products: a matching one, one for women, one without linen.
    const later = new Date(Date.now() + 1000);
    await createProduct(db, P(40, "Linen Overshirt", "Shirts", "menswear", 99, { Sand: "#d6c29f" }, { tags: ["linen"], publishedAt: later, createdAt: later }));
    await createProduct(db, P(41, "Linen Wrap Skirt", "Skirts", "womenswear", 99, { Sand: "#d6c29f" }, { tags: ["linen"], publishedAt: later, createdAt: later }));
    await createProduct(db, P(42, "Corduroy Overshirt", "Shirts", "menswear", 99, { Sand: "#d6c29f" }, { tags: ["corduroy"], publishedAt: later, createdAt: later }));
    await new Promise((r) => setTimeout(r, 1100));

    // The hourly check is scheduled; publishing scheduled drops runs one at once.
    const scheduled = await db.job.findFirst({ where: { queue: SEARCH_NOTIFICATIONS_QUEUE, status: "queued" } });
    expect(scheduled!.run_at.getTime()).toBeGreaterThan(Date.now());
    await app.ctx.queue.enqueue("drops.publish-due", {});
    await drain();
    const mails = await db.emailOutbox.findMany({ where: { kind: "search_notification", to: "saver@example.test" } });
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.status).toBe("sent");
    expect(mail.text).toContain("Linen Overshirt");
    expect(mail.text).not.toContain("Linen Wrap Skirt");
    expect(mail.text).not.toContain("Corduroy Overshirt");
    expect(mail.text).not.toContain("Linen Shirt ("); // published before the request
    const row = await db.notificationRequest.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.sent_at!.getTime()).toBeGreaterThan(later.getTime());
    expect(row.checked_until!.getTime()).toBe(row.sent_at!.getTime());
    expect(row.search_query).toBe("");
    expect(row.search_filters).toEqual({ target_gender: "menswear", materials: ["linen"] });
    const link = new RegExp(`/api/notifications/unsubscribe/${row.unsubscribe_token}`);
    expect(mail.text).toMatch(link);
    expect(mail.html).toMatch(link);
    const files = fs.readdirSync(path.join(app.dataDir, "outbox")).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThan(0);

    // Nothing new: no second email.
    await app.ctx.queue.enqueue(SEARCH_NOTIFICATIONS_QUEUE, { reason: "test" });
    await drain();
    expect(await db.emailOutbox.count({ where: { kind: "search_notification", to: "saver@example.test" } })).toBe(1);

    // The unsubscribe link stops it.
    const unsub = await app.api("GET", `/notifications/unsubscribe/${row.unsubscribe_token}`);
    expect(unsub.status).toBe(200);
    expect(unsub.body).toEqual({ ok: true, kind: "search", status: "unsubscribed", message: "You will no longer get emails with new products for your saved search." });
    expect((await db.notificationRequest.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("unsubscribed");
    const more = new Date(Date.now() + 500);
    await createProduct(db, P(43, "Linen Camp Shirt", "Shirts", "menswear", 70, { Sand: "#d6c29f" }, { tags: ["linen"], publishedAt: more, createdAt: more }));
    await new Promise((r) => setTimeout(r, 600));
    await app.ctx.queue.enqueue(SEARCH_NOTIFICATIONS_QUEUE, { reason: "test" });
    await drain();
    expect(await db.emailOutbox.count({ where: { kind: "search_notification", to: "saver@example.test" } })).toBe(1);
    expect((await app.api("GET", "/notifications/unsubscribe/not-a-token")).status).toBe(404);

    // Saving it again re-activates it; deleting it removes it.
    const back = await notify({ searchId, query: "linen for men" }, user.token);
    expect(back.body).toMatchObject({ id: created.body.id, status: "active" });
    const del = await app.api("DELETE", `/users/notification-requests/search/${encodeURIComponent(searchId)}`, { token: user.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true, searchId });
    expect(await db.notificationRequest.count({ where: { kind: "search", user_id: user.id } })).toBe(0);
  });
});
