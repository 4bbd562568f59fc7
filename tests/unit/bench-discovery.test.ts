/**
 * The discovery benchmark's pure parts (scripts/bench): the catalogue generator is deterministic
 * and consistent, the labelled set holds enough queries with correct labels, the metrics and the
 * bulk-insert literals are right, and the flags parse.
 */
import { describe, expect, it } from "vitest";
import { buildDemoData } from "../../prisma/demo/generate";
import { parseArgs } from "../../scripts/bench/args";
import { buildBenchCatalog } from "../../scripts/bench/catalog";
import { aggregate, buildLabelledQueries, scoreQuery } from "../../scripts/bench/relevance";
import { mixedQueries, resultIds } from "../../scripts/bench/search";

const demoFiles = new Set(buildDemoData("x").imageJobs.map((j) => j.file));
const NOW = Date.UTC(2026, 10, 22, 12);
const build = (products: number) => buildBenchCatalog({ products, demoImageFiles: demoFiles, now: NOW });

describe("bench catalogue", () => {
  it("is deterministic", () => {
    const a = build(300);
    const b = build(300);
    expect(a.tables.map(([t, rows]) => [t, rows.length])).toEqual(b.tables.map(([t, rows]) => [t, rows.length]));
    expect(a.facts.map((f) => [f.id, f.title, f.priceMin, f.colours.join("/")])).toEqual(b.facts.map((f) => [f.id, f.title, f.priceMin, f.colours.join("/")]));
    expect(JSON.stringify(a.tables.find(([t]) => t === "product_view_events")![1].slice(0, 50))).toBe(JSON.stringify(b.tables.find(([t]) => t === "product_view_events")![1].slice(0, 50)));
  });

  it("has unique handles and ids, variants matching the facts, and demo renders only", () => {
    const c = build(2000);
    const products = c.tables.find(([t]) => t === "products")![1];
    expect(new Set(products.map((p) => p.handle)).size).toBe(products.length);
    expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
    const variants = c.tables.find(([t]) => t === "product_variants")![1];
    expect(new Set(variants.map((v) => v.id)).size).toBe(variants.length);
    for (const f of c.facts.slice(0, 200)) {
      const own = variants.filter((v) => v.product_id === f.id);
      expect(own.length).toBe(f.colours.length * f.type.sizes[f.gender].length);
      expect(Math.min(...own.map((v) => Number(v.price)))).toBe(f.priceMin);
    }
    for (const file of c.imageFiles) expect(demoFiles.has(file)).toBe(true);
    expect(c.tables.find(([t]) => t === "orders")![1].length).toBe(500);
  });
});

describe("labelled relevance set", () => {
  const c = build(2000);
  const { queries } = buildLabelledQueries(c.facts);

  it("has at least 50 queries of every kind, each with relevant visible products", () => {
    expect(queries.length).toBeGreaterThanOrEqual(50);
    for (const k of ["plain", "typo", "prefix", "parsed", "gendered"]) expect(queries.some((q) => q.kind === k)).toBe(true);
    const visible = new Set(c.facts.filter((f) => f.visible).map((f) => f.id));
    for (const q of queries) for (const id of q.relevant) expect(visible.has(id)).toBe(true);
  });

  it("labels by the attributes the query names", () => {
    const byId = new Map(c.facts.map((f) => [f.id, f]));
    const q = queries.find((x) => x.q === "black jeans under 100")!;
    for (const id of q.relevant) {
      const f = byId.get(id)!;
      expect(f.type.key).toBe("jeans");
      expect(f.colours.some((col) => /black/i.test(col))).toBe(true);
      expect(f.priceMin).toBeLessThanOrEqual(100);
    }
    const mens = queries.find((x) => x.q === "men's hoodie")!;
    for (const id of mens.relevant) expect(["menswear", "both"]).toContain(byId.get(id)!.gender);
    // A typo carries the labels of the word it stands for: every visible shirt (and blouse).
    const shirts = new Set(c.facts.filter((f) => f.visible && ["shirt", "blouse"].includes(f.type.key)).map((f) => f.id));
    expect(queries.find((x) => x.q === "shrit")!.relevant).toEqual(shirts);
  });

  it("computes capped recall@10 and reciprocal rank", () => {
    const lq = { q: "x", kind: "plain" as const, relevant: new Set(["a", "b", "c"]) };
    const s = scoreQuery(lq, ["z", "a", "y", "b"]);
    expect(s.hitsAt10).toBe(2);
    expect(s.recallAt10).toBeCloseTo(2 / 3);
    expect(s.rrAt10).toBe(0.5);
    const broad = { q: "y", kind: "plain" as const, relevant: new Set(Array.from({ length: 50 }, (_, i) => `p${i}`)) };
    expect(scoreQuery(broad, Array.from({ length: 10 }, (_, i) => `p${i}`)).recallAt10).toBe(1);
    expect(aggregate([s, scoreQuery(lq, [])])).toMatchObject({ n: 2, zeroResults: 1, mrrAt10: 0.25 });
  });

  it("mixes 200 queries of every kind", () => {
    const mix = mixedQueries(queries, 200);
    expect(mix).toHaveLength(200);
    expect(new Set(mix.map((m) => m.kind))).toEqual(new Set(["plain", "typo", "prefix", "filtered", "parsed"]));
  });
});

describe("bench helpers", () => {
  it("reads product ids of a search answer", () => {
    expect(resultIds({ results: [{ id: "gid://shopify/Product/1" }, { id: "2" }, { product: { id: "gid://shopify/Product/3" } }] })).toEqual([
      "gid://shopify/Product/1",
      "gid://shopify/Product/2",
      "gid://shopify/Product/3",
    ]);
    expect(resultIds({ error: {} })).toEqual([]);
  });

  it("parses the flags", () => {
    expect(parseArgs(["--only=search,throughput", "--products=2000"])).toMatchObject({ products: 2000, sections: new Set(["search", "throughput"]) });
    expect(parseArgs(["--only=discovery"])).toMatchObject({ sections: new Set(["search", "recs", "photo", "throughput"]) });
    expect(parseArgs(["--only=nope"])).toHaveProperty("error");
    expect(parseArgs(["--products=abc"])).toHaveProperty("error");
    expect(parseArgs(["--help"])).toEqual({ help: true });
  });
});
