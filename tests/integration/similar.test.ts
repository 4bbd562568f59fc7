import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoTestApp } from "../helpers/demo-template";
import { attributeVector, colourSimilarity, priceSimilarity, typeFamily, typeSimilarity } from "../../app/services/similar-products.server";
import { hexToLab } from "../../app/services/color.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, pgid } from "./products-fixtures";

const C = "/shopify/companion";

describe("similar products on fixtures", () => {
  let app: TestApp;
  let editor: string;

  beforeAll(async () => {
    app = await createTestApp();
    const db = app.database.db;
    editor = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
    await createProduct(db, { n: 501, title: "Navy Linen Shirt", productType: "Shirts", gender: "menswear", price: 80, colours: { Navy: "#1f2a44" }, tags: ["linen", "summer"] });
    await createProduct(db, { n: 502, title: "Navy Cotton Shirt", productType: "Shirts", gender: "menswear", price: 75, colours: { Navy: "#1f2a44" }, tags: ["summer"] });
    await createProduct(db, { n: 503, title: "Navy Polo", productType: "Polos", gender: "menswear", price: 70, colours: { Navy: "#223049" }, tags: ["summer"] });
    await createProduct(db, { n: 504, title: "Red Summer Dress", productType: "Dresses", gender: "womenswear", price: 90, colours: { Red: "#b3262e" }, tags: ["summer"] });
    await createProduct(db, { n: 505, title: "Navy Jeans", productType: "Jeans", gender: "menswear", price: 90, colours: { Indigo: "#2d3a5e" }, tags: ["denim"] });
    await createProduct(db, { n: 506, title: "Pink Silk Shirt", productType: "Shirts", gender: "both", price: 300, colours: { Pink: "#e58fb0" }, tags: ["silk"] });
    await createProduct(db, { n: 507, title: "Draft Navy Shirt", productType: "Shirts", gender: "menswear", price: 80, colours: { Navy: "#1f2a44" }, status: "draft" });
    await createProduct(db, { n: 508, title: "Women's Navy Shirt", productType: "Shirts", gender: "womenswear", price: 80, colours: { Navy: "#1f2a44" }, tags: ["summer"] });
  });
  afterAll(() => app?.close());

  const similar = (id: string, query: Record<string, string | number | boolean> = {}) => app.api("GET", `${C}/similar/${enc(id)}`, { query });
  const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

  it("ranks the closest products first and leaves out other genders and hidden products", async () => {
    const res = await similar(pgid(501));
    expect(res.status).toBe(200);
    // Jeans share neither the type group nor a tag with a shirt: not similar at all.
    expect(ids(res.body)).toEqual([pgid(502), pgid(503), pgid(506)]);
    expect(res.body.scores).toHaveLength(3);
    expect([...res.body.scores].sort((a: number, b: number) => b - a)).toEqual(res.body.scores);
    expect(res.body).toMatchObject({ page: 1, limit: 20, total: 3, hasNextPage: false });
    // Cards unless completeProductData.
    expect(res.body.results[0]).not.toHaveProperty("variants");
  });

  it("target_gender widens or narrows the candidates", async () => {
    const women = await similar("501", { target_gender: "womenswear" });
    expect(ids(women.body)).toEqual([pgid(508), pgid(506), pgid(504)]);
    const all = await similar("501", { target_gender: "both" });
    expect(ids(all.body)).toContain(pgid(504));
    expect(ids(all.body)).toContain(pgid(502));
    expect(ids(all.body)).not.toContain(pgid(507));
  });

  it("paginates with page and limit", async () => {
    const first = await similar("501", { limit: 2 });
    expect(ids(first.body)).toEqual([pgid(502), pgid(503)]);
    expect(first.body).toMatchObject({ page: 1, limit: 2, total: 3, hasNextPage: true });
    const second = await similar("501", { limit: 2, page: 2 });
    expect(ids(second.body)).toEqual([pgid(506)]);
    expect(second.body.hasNextPage).toBe(false);
    expect((await similar("501", { limit: 2, page: 9 })).body.results).toEqual([]);
    expect((await similar("501", { limit: 0 })).status).toBe(400);
    expect((await similar("501", { limit: 51 })).status).toBe(400);
  });

  it("completeProductData=true answers full products", async () => {
    const res = await similar("501", { completeProductData: true, limit: 1 });
    expect(res.body.results[0].id).toBe(pgid(502));
    expect(res.body.results[0].variants.length).toBeGreaterThan(0);
    expect(res.body.results[0].options.map((o: { name: string }) => o.name)).toEqual(["Color", "Size"]);
  });

  it("an unknown product answers empty results (SPEC §8)", async () => {
    for (const id of ["424242", "gid://shopify/Product/nope", "undefined"]) {
      const res = await similar(id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ results: [], scores: [], page: 1, limit: 20, total: 0, hasNextPage: false });
    }
  });

  it("stored attribute vectors join the score without breaking the order", async () => {
    for (const n of [501, 502, 503, 504, 505, 506, 508]) expect((await app.api("POST", `${C}/sync-pinecone/${n}`, { token: editor })).status).toBe(200);
    const res = await similar("501");
    expect(ids(res.body)[0]).toBe(pgid(502));
    expect(res.body.scores[0]).toBeGreaterThan(0.9);
  });

  it("scoring parts behave", () => {
    expect(typeFamily("T-Shirts")).toBe("tees");
    expect(typeFamily("Hoodies & Sweatshirts")).toBe("sweats");
    expect(typeFamily("Shirts")).toBe("shirts");
    expect(typeFamily("Skirts")).toBe("skirts");
    expect(typeSimilarity("Shirts", "Shirts")).toBe(1);
    expect(typeSimilarity("Shirts", "Polos")).toBe(0.5);
    expect(typeSimilarity("Jeans", "Denim Jeans")).toBe(0.8);
    expect(typeSimilarity("Shirts", "Jeans")).toBe(0);
    expect(priceSimilarity(100, 100)).toBe(1);
    expect(priceSimilarity(100, 300)).toBeCloseTo(0, 5);
    expect(priceSimilarity(100, 150)).toBeGreaterThan(0.5);
    const navy = hexToLab("#1f2a44")!;
    expect(colourSimilarity([navy], [navy])).toBe(1);
    expect(colourSimilarity([navy], [hexToLab("#f2d23c")!])).toBe(0);
    expect(colourSimilarity([], [navy])).toBeNull();
    const v = attributeVector({ productType: "Shirts", target_gender: "menswear", price: 80, colours: [navy] });
    expect(v).toHaveLength(31);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });
});

describe("similar products on the demo catalogue", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createDemoTestApp();
  });
  afterAll(() => app?.close());

  it("a men's t-shirt's neighbours are mostly tops that suit men, of a similar price", async () => {
    const tee = await app.database.db.product.findFirstOrThrow({ where: { productType: "T-Shirts", target_gender: "menswear", status: "active" }, orderBy: { id: "asc" } });
    const res = await app.api("GET", `${C}/similar/${enc(tee.id)}`, { query: { limit: 12 } });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(12);
    const types = res.body.results.map((p: { productType: string }) => p.productType);
    expect(types.filter((t: string) => ["T-Shirts", "Polos", "Shirts", "Knitwear", "Hoodies & Sweatshirts"].includes(t)).length).toBeGreaterThanOrEqual(10);
    expect(types.filter((t: string) => t === "T-Shirts").length).toBeGreaterThanOrEqual(6);
    for (const p of res.body.results) expect(["menswear", "both"]).toContain(p.target_gender);
    expect(res.body.results.map((p: { id: string }) => p.id)).not.toContain(tee.id);
    expect(res.body.total).toBeGreaterThan(50);
  });
});
