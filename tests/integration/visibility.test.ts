/**
 * What shoppers see: active and published products only (SPEC: scheduled publishing; Shopify's
 * meaning of publishedAt). Checked through the public API while the local store publishes,
 * schedules and unpublishes a product.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
const ID = "gid://shopify/Product/501";

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "V", handle: "v" } });
  const store = await db.store.create({ data: { name: "S", handle: "s", vendor_id: vendor.id } });
  await db.product.create({ data: { id: ID, title: "Visible Shirt", handle: "visible-shirt", store_id: store.id, vendor_id: vendor.id, vendor: "V", productType: "Shirts", availableForSale: true, priceMin: 10, priceMax: 10 } });
});
afterAll(() => app?.close());

const listed = async () => ((await app.api("GET", "/products")).body.products as { id: string }[]).map((p) => p.id);
const quickSearched = async () => ((await app.api("GET", "/products/search", { query: { q: "visible shirt" } })).body.products as { id: string }[]).map((p) => p.id);
const searched = async () => ((await app.api("POST", "/search", { body: { query: "visible shirt" } })).body.results as { id: string }[]).map((p) => p.id);

describe("catalogue visibility", () => {
  it("a product created without a publication date is published at once", async () => {
    expect(await listed()).toContain(ID);
    expect((await app.api("GET", `/products/${encodeURIComponent(ID)}`)).status).toBe(200);
  });

  it("an unpublished product is hidden from shoppers", async () => {
    expect(await quickSearched()).toContain(ID);
    expect(await searched()).toContain(ID);
    await app.ctx.commerce.unpublishProduct(ID);
    expect(await listed()).not.toContain(ID);
    expect(await quickSearched()).not.toContain(ID);
    expect(await searched()).not.toContain(ID);
    expect((await app.api("GET", `/products/${encodeURIComponent(ID)}`)).status).toBe(404);
  });

  it("a scheduled publication shows the product only from its date", async () => {
    await app.ctx.commerce.publishProduct(ID, { publishDate: new Date(Date.now() + 3_600_000) });
    expect(await listed()).not.toContain(ID);
    await app.ctx.commerce.publishProduct(ID);
    expect(await listed()).toContain(ID);
  });

  it("a draft is hidden even when published", async () => {
    await app.ctx.commerce.setProductStatus(ID, "draft");
    expect(await listed()).not.toContain(ID);
    await app.ctx.commerce.setProductStatus(ID, "active");
    expect(await listed()).toContain(ID);
  });
});
