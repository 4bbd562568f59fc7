import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, mgid, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let editor: string;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  editor = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
  await createProduct(db, {
    n: 101,
    title: "Relaxed Linen Shirt",
    productType: "Shirts",
    vendor: "Northwind Atelier",
    gender: "menswear",
    price: 80,
    colours: { Navy: "#1f2a44", White: "#f2efe8" },
    sizes: ["S", "M", "L"],
    tags: ["linen", "summer"],
    images: 3,
    companion: { taobao_id: "640000101000", taobao_title: "亚麻衬衫" },
  });
  await createProduct(db, { n: 102, title: "Wool Overcoat", productType: "Coats", vendor: "Harbour & Pine", gender: "womenswear", price: 300, tags: ["outerwear"] });
  await createProduct(db, { n: 103, title: "Denim Jacket", productType: "Jackets", vendor: "Northwind Atelier", gender: "both", price: 120, tags: ["denim"] });
  await createProduct(db, { n: 104, title: "Draft Linen Trousers", productType: "Trousers", vendor: "Northwind Atelier", status: "draft", tags: ["linen"] });
  await createProduct(db, { n: 105, title: "Scheduled Linen Dress", productType: "Dresses", vendor: "Harbour & Pine", publishedAt: new Date(Date.now() + 86_400_000), tags: ["linen"] });
  await createProduct(db, { n: 106, title: "Oxford Shirt", productType: "Shirts", vendor: "Harbour & Pine", gender: "menswear", price: 70, tags: ["cotton"], publishedAt: new Date(Date.now() - 86_400_000) });
  await createProduct(db, { n: 107, title: "Many Images Tee", productType: "T-Shirts", images: 55, sizes: ["S"] });
});
afterAll(() => app?.close());

describe("GET /products/{id}", () => {
  it("answers the Storefront shape with options, images, variants, Money prices and colour hexes", async () => {
    const res = await app.api("GET", `/products/${enc(pgid(101))}`);
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p).toMatchObject({
      id: pgid(101),
      title: "Relaxed Linen Shirt",
      handle: "relaxed-linen-shirt-101",
      vendor: "Northwind Atelier",
      productType: "Shirts",
      availableForSale: true,
      target_gender: "menswear",
      status: "active",
      tags: ["linen", "summer"],
      priceRange: { minVariantPrice: { amount: "80.00", currencyCode: "USD" }, maxVariantPrice: { amount: "82.00", currencyCode: "USD" } },
      featuredImage: { url: "/uploads/images/test/101-0.jpg", altText: "Relaxed Linen Shirt 0" },
      colorHexes: ["#1f2a44", "#f2efe8"],
    });
    expect(p.options).toEqual([
      { id: "gid://shopify/ProductOption/10101", name: "Color", values: ["Navy", "White"] },
      { id: "gid://shopify/ProductOption/10102", name: "Size", values: ["S", "M", "L"] },
    ]);
    expect(p.images.map((i: { id: string }) => i.id)).toEqual([mgid(101, 0), mgid(101, 1), mgid(101, 2)]);
    expect(p.variants).toHaveLength(6);
    expect(p.variants[0]).toEqual({
      id: vgid(101, 0),
      title: "Navy / S",
      sku: "SKU-101-0",
      availableForSale: true,
      quantityAvailable: 5,
      image: { url: "/uploads/images/test/101-0.jpg", altText: "Relaxed Linen Shirt 0" },
      price: { amount: "80.00", currencyCode: "USD" },
      compareAtPrice: { amount: "100.00", currencyCode: "USD" },
      selectedOptions: [
        { name: "Color", value: "Navy" },
        { name: "Size", value: "S" },
      ],
      colorHex: "#1f2a44",
      product: { id: pgid(101), handle: "relaxed-linen-shirt-101", title: "Relaxed Linen Shirt" },
    });
    expect(p.variants[1].compareAtPrice).toBeNull();
  });

  it("accepts the bare numeric id", async () => {
    const res = await app.api("GET", "/products/101");
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(pgid(101));
  });

  it("keeps at most 50 images", async () => {
    const res = await app.api("GET", "/products/107");
    expect(res.body.images).toHaveLength(50);
  });

  it("answers 404 Product not found for unknown, draft and scheduled products", async () => {
    for (const id of [pgid(999), pgid(104), pgid(105), "not-a-product"]) {
      const res = await app.api("GET", `/products/${enc(id)}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.message).toBe("Product not found");
    }
  });

  it("admins with catalog.edit also see drafts and scheduled products", async () => {
    expect((await app.api("GET", "/products/104", { token: editor })).body.status).toBe("draft");
    expect((await app.api("GET", "/products/105", { token: editor })).status).toBe(200);
    const shopper = await app.createUser();
    expect((await app.api("GET", "/products/104", { token: shopper.token })).status).toBe(404);
  });

  it("answers 400 No product ID provided without an id", async () => {
    for (const id of ["undefined", "null", "%20"]) {
      const res = await app.api("GET", `/products/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body.error.message).toBe("No product ID provided");
    }
  });
});

describe("GET /products/variants/minimal", () => {
  it("answers variants in the order asked, from a comma list or repeated ids", async () => {
    const a = await app.api("GET", `/products/variants/minimal?ids=${enc(`${vgid(103, 1)},${vgid(101, 0)}`)}`);
    expect(a.status).toBe(200);
    expect(a.body).toEqual([
      {
        id: vgid(103, 1),
        title: "Black / M",
        price: { amount: "121.00", currencyCode: "USD" },
        availableForSale: true,
        productId: pgid(103),
        productTitle: "Denim Jacket",
        image: { url: "/uploads/images/test/103-0.jpg", altText: null },
      },
      expect.objectContaining({ id: vgid(101, 0), productId: pgid(101), title: "Navy / S" }),
    ]);
    const b = await app.api("GET", `/products/variants/minimal?ids=${enc(vgid(101, 0))}&ids=${enc(vgid(101, 3))}&ids=10100`);
    // 10100 is the first id again (bare number): asked twice, answered once.
    expect(b.body.map((v: { id: string }) => v.id)).toEqual([vgid(101, 0), vgid(101, 3)]);
  });

  it("accepts bare numeric ids and leaves unknown ids out", async () => {
    const res = await app.api("GET", `/products/variants/minimal?ids=10101,999999,${enc("gid://shopify/ProductVariant/nope")}`);
    expect(res.status).toBe(200);
    expect(res.body.map((v: { id: string }) => v.id)).toEqual([vgid(101, 1)]);
  });

  it("answers [] without ids and 400 for more than 250", async () => {
    expect((await app.api("GET", "/products/variants/minimal")).body).toEqual([]);
    const many = Array.from({ length: 251 }, (_, i) => String(i + 1)).join(",");
    const res = await app.api("GET", `/products/variants/minimal?ids=${many}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("At most 250 ids");
  });
});

describe("GET /products/search", () => {
  const search = (q: Record<string, string | number>) => app.api("GET", "/products/search", { query: q });

  it("ranks title matches first and finds type, vendor and tag matches", async () => {
    const res = await search({ q: "linen" });
    expect(res.status).toBe(200);
    expect(res.body.query).toBe("linen");
    const ids = res.body.products.map((p: { id: string }) => p.id);
    expect(ids[0]).toBe(pgid(101));
    // Draft and scheduled products stay hidden.
    expect(ids).not.toContain(pgid(104));
    expect(ids).not.toContain(pgid(105));
    expect((await search({ q: "coats" })).body.products.map((p: { id: string }) => p.id)).toEqual([pgid(102)]);
    expect((await search({ q: "harbour" })).body.products.map((p: { id: string }) => p.id).sort()).toEqual([pgid(102), pgid(106)].sort());
    expect((await search({ q: "denim" })).body.products[0].id).toBe(pgid(103));
  });

  it("tolerates a typo through trigram similarity and needs every word otherwise", async () => {
    expect((await search({ q: "linnen shirt" })).body.products.map((p: { id: string }) => p.id)).toContain(pgid(101));
    expect((await search({ q: "oxford shirt" })).body.products[0].id).toBe(pgid(106));
    expect((await search({ q: "wool shirt" })).body.products.map((p: { id: string }) => p.id)).not.toContain(pgid(106));
  });

  it("filters by gender, limits, and treats % and _ literally", async () => {
    // Men's shirts are left out for womenswear; the unisex tee ("T-Shirts") stays.
    const women = await search({ q: "shirt", target_gender: "womenswear" });
    expect(women.body.products.map((p: { id: string }) => p.id)).toEqual([pgid(107)]);
    expect((await search({ q: "shirt", limit: 1 })).body.products).toHaveLength(1);
    expect((await search({ q: "%" })).body.products).toEqual([]);
    expect((await search({ q: "_" })).body.products).toEqual([]);
  });

  it("answers 400 without q", async () => {
    const res = await app.api("GET", "/products/search");
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("q is required");
    const blank = await search({ q: "   " });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe("q: must not be empty");
  });
});

describe("GET /products/taobao-id/{id}", () => {
  it("answers the product imported from a Taobao item, or null", async () => {
    const res = await app.api("GET", "/products/taobao-id/640000101000");
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(pgid(101));
    expect(res.body.variants).toHaveLength(6);
    const none = await app.api("GET", "/products/taobao-id/1234");
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
  });
});

describe("GET /products/vendors", () => {
  it("lists vendors of visible products with counts", async () => {
    const res = await app.api("GET", "/products/vendors");
    expect(res.status).toBe(200);
    expect(res.body.vendors).toEqual([
      { name: "Harbour & Pine", productCount: 2 },
      { name: "Northwind Atelier", productCount: 2 },
      { name: "Studio North", productCount: 1 },
    ]);
  });
});
