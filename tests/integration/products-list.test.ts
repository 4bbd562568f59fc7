import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let storeId: string;

type Seed = { n: number; title: string; gender: "menswear" | "womenswear" | "both"; price: number; colors: (string | null)[]; status?: "active" | "draft" | "archived"; tags?: string[] };

const SEEDS: Seed[] = [
  { n: 1, title: "Linen Shirt", gender: "menswear", price: 49, colors: ["#FFFFFF", "#000000", "#FFFFFF"], tags: ["summer"] },
  { n: 2, title: "Wool Coat", gender: "womenswear", price: 189, colors: ["#6B4F3A"] },
  { n: 3, title: "Denim Jacket", gender: "both", price: 99.5, colors: ["#1F3A5F", null, "#1F3A5F"] },
  { n: 4, title: "Silk Dress", gender: "womenswear", price: 149, colors: ["#C21E56", "#000000"] },
  { n: 5, title: "Cargo Pants", gender: "menswear", price: 69, colors: [] },
  { n: 6, title: "Canvas Tote", gender: "both", price: 29, colors: ["#F5F5DC"] },
  { n: 7, title: "Linen Trousers", gender: "menswear", price: 79, colors: ["#D2B48C", "#D2B48C"] },
  { n: 8, title: "Draft Linen Hoodie", gender: "menswear", price: 59, colors: ["#808080"], status: "draft" },
  { n: 9, title: "Archived Linen Cap", gender: "both", price: 19, colors: [], status: "archived" },
];
const ACTIVE = SEEDS.filter((s) => (s.status ?? "active") === "active");
const gid = (n: number) => `gid://shopify/Product/${n}`;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Studio North", handle: "studio-north" } });
  const store = await db.store.create({ data: { name: "North Store", handle: "north-store", vendor_id: vendor.id } });
  storeId = store.id;
  const base = Date.now() - 100_000;
  for (const s of SEEDS) {
    await db.product.create({
      data: {
        id: gid(s.n),
        title: s.title,
        handle: s.title.toLowerCase().replace(/\s+/g, "-"),
        vendor: "Studio North",
        productType: "Apparel",
        availableForSale: true,
        priceMin: s.price,
        priceMax: s.price + 10,
        target_gender: s.gender,
        status: s.status ?? "active",
        tags: s.tags ?? [],
        store_id: store.id,
        vendor_id: vendor.id,
        featuredImageUrl: s.n === 1 ? "https://cdn.example.test/linen-shirt.jpg" : null,
        featuredImageAltText: s.n === 1 ? "A linen shirt" : null,
        // Later seeds are newer: the default order (newest first) is 7, 6, 5, …
        created_at: new Date(base + s.n * 1000),
        variants: {
          create: s.colors.map((color_hex, i) => ({
            id: `gid://shopify/ProductVariant/${s.n}${i}`,
            title: `Variant ${i}`,
            price: s.price,
            color_hex,
            position: i,
          })),
        },
      },
    });
  }
});
afterAll(() => app?.close());

const list = (query: Record<string, string | number | boolean | undefined> = {}) => app.api("GET", "/products", { query });
const ids = (body: { products: { id: string }[] }) => body.products.map((p) => p.id);

describe("GET /products", () => {
  it("lists active products, newest first, in the Storefront card shape", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([...ACTIVE].reverse().map((s) => gid(s.n)));
    expect(res.body.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    const shirt = res.body.products.find((p: { id: string }) => p.id === gid(1));
    expect(shirt).toEqual({
      id: gid(1),
      title: "Linen Shirt",
      handle: "linen-shirt",
      vendor: "Studio North",
      productType: "Apparel",
      availableForSale: true,
      featuredImage: { url: "https://cdn.example.test/linen-shirt.jpg", altText: "A linen shirt" },
      priceRange: { minVariantPrice: { amount: "49.00", currencyCode: "USD" }, maxVariantPrice: { amount: "59.00", currencyCode: "USD" } },
      target_gender: "menswear",
      colorHexes: ["#FFFFFF", "#000000"],
      storeId,
    });
    expect(res.body.products.find((p: { id: string }) => p.id === gid(2)).featuredImage).toBeNull();
  });

  it("hides draft and archived products", async () => {
    const all = ids((await list({ limit: 100 })).body);
    expect(all).not.toContain(gid(8));
    expect(all).not.toContain(gid(9));
    const linen = ids((await list({ query: "linen" })).body);
    expect(linen).not.toContain(gid(8));
    expect(linen).not.toContain(gid(9));
  });

  it("colour hexes are unique per product, in variant order, without empty values", async () => {
    const res = await list({ limit: 100 });
    const byId = new Map(res.body.products.map((p: { id: string; colorHexes: string[] }) => [p.id, p.colorHexes]));
    expect(byId.get(gid(1))).toEqual(["#FFFFFF", "#000000"]);
    expect(byId.get(gid(3))).toEqual(["#1F3A5F"]);
    expect(byId.get(gid(5))).toEqual([]);
    expect(byId.get(gid(7))).toEqual(["#D2B48C"]);
    for (const hexes of byId.values()) expect(new Set(hexes as string[]).size).toBe((hexes as string[]).length);
  });

  it("paginates with limit and cursor without duplicates", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: { count: number; hasNextPage: boolean }[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await list({ limit: 3, cursor });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      pages.push({ count: res.body.products.length, hasNextPage: res.body.pageInfo.hasNextPage });
      if (!res.body.pageInfo.hasNextPage) {
        expect(res.body.pageInfo.endCursor).toBeNull();
        break;
      }
      expect(typeof res.body.pageInfo.endCursor).toBe("string");
      cursor = res.body.pageInfo.endCursor;
    }
    expect(pages).toEqual([
      { count: 3, hasNextPage: true },
      { count: 3, hasNextPage: true },
      { count: 1, hasNextPage: false },
    ]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...ACTIVE].reverse().map((s) => gid(s.n)));
  });

  it("a page that ends exactly at the last product has no next page", async () => {
    const first = await list({ limit: ACTIVE.length });
    expect(first.body.products).toHaveLength(ACTIVE.length);
    expect(first.body.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
  });

  it("target_gender keeps that gender and 'both'", async () => {
    const men = await list({ target_gender: "menswear", limit: 100 });
    expect(men.status).toBe(200);
    expect(ids(men.body).sort()).toEqual([1, 3, 5, 6, 7].map(gid).sort());
    for (const p of men.body.products) expect(["menswear", "both"]).toContain(p.target_gender);

    const women = await list({ target_gender: "womenswear", limit: 100 });
    expect(ids(women.body).sort()).toEqual([2, 3, 4, 6].map(gid).sort());

    const both = await list({ target_gender: "both", limit: 100 });
    expect(both.body.products).toHaveLength(ACTIVE.length);

    expect((await list({ target_gender: "kidswear" })).status).toBe(400);
  });

  it("filters by a case-insensitive text query", async () => {
    const res = await list({ query: "LINEN" });
    expect(res.status).toBe(200);
    expect(ids(res.body).sort()).toEqual([gid(1), gid(7)].sort());
    expect(ids((await list({ query: "dress" })).body)).toEqual([gid(4)]);
    expect(ids((await list({ query: "summer" })).body)).toEqual([gid(1)]);
    expect((await list({ query: "no such garment" })).body.products).toEqual([]);
    // Combined with the gender filter and pagination.
    const page = await list({ query: "linen", target_gender: "womenswear" });
    expect(page.body.products).toEqual([]);
  });

  it("sorts by price and title, and reverses", async () => {
    const byPrice = ids((await list({ sortKey: "PRICE", limit: 100 })).body);
    expect(byPrice).toEqual([...ACTIVE].sort((a, b) => a.price - b.price).map((s) => gid(s.n)));
    const byPriceDesc = ids((await list({ sortKey: "PRICE", reverse: true, limit: 100 })).body);
    expect(byPriceDesc).toEqual([...byPrice].reverse());
    const byTitle = (await list({ sortKey: "TITLE", limit: 100 })).body.products.map((p: { title: string }) => p.title);
    expect(byTitle).toEqual([...byTitle].sort());
    const oldest = ids((await list({ reverse: true, limit: 2 })).body);
    expect(oldest).toEqual([gid(1), gid(2)]);
    expect((await list({ sortKey: "RANDOM" })).status).toBe(400);
  });

  it("rejects an invalid cursor", async () => {
    for (const cursor of ["not-a-cursor", Buffer.from(JSON.stringify({ o: -3 })).toString("base64url"), Buffer.from('{"o":1.5}').toString("base64url")]) {
      const res = await list({ cursor });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("cursor is invalid");
    }
  });

  it("rejects a limit outside 1..100", async () => {
    for (const limit of [0, 101, -1]) {
      const res = await list({ limit });
      expect(res.status, `limit ${limit}`).toBe(400);
      expect(res.body.error.details.issues[0].path).toBe("limit");
    }
    expect((await list({ limit: 100 })).status).toBe(200);
    expect((await list({ limit: 1 })).body.products).toHaveLength(1);
  });

  it("is cacheable and public", async () => {
    const res = await list();
    expect(res.headers.get("cache-control")).toContain("public");
  });
});
