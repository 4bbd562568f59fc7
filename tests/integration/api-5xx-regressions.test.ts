/**
 * 5xx that fuzzing the API once found (issue 14 item 12), each pinned by a test: deleting an
 * unknown product, proposing Taobao SKU images when the source no longer has the item, a style
 * score past any sensible bound. (Path ids with line breaks: api-paths-remix.test.ts; NUL and
 * lone surrogates: unstorable-text.test.ts; every endpoint: api-fuzz.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { STYLE_SCORE_MAX } from "../../app/contract/styles";

let app: TestApp;
let admin: { token: string };

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "catalog.import", "media.manage"] });
});
afterAll(async () => {
  await app?.close();
});

const expectError = (res: { status: number; body: any }, status: number) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
};

it("DELETE /products/{unknown} is 404, whatever form the id takes", async () => {
  for (const id of ["gid://shopify/Product/424242", "424242", "not-a-product", "gid://shopify/Product/99999999999999999999"]) {
    expectError(await app.api("DELETE", `/products/${encodeURIComponent(id)}`, { token: admin.token }), 404);
  }
});

it("proposing Taobao SKU images when the source no longer has the item is 404 with the reason", async () => {
  const db = app.database.db;
  await db.product.create({
    data: { id: "gid://shopify/Product/515151", title: "Gone at the source", handle: "gone-at-the-source", vendor: "T", productType: "Shirts", availableForSale: true, priceMin: 1, priceMax: 1, status: "active" },
  });
  await db.productCompanion.create({ data: { shopify_product_id: "gid://shopify/Product/515151", taobao_id: "9999999999990" } });
  for (const id of ["gid://shopify/Product/515151", "9999999999990"]) {
    const res = await app.api("POST", `/uploaded-images/proposed-variant-images/taobao/${encodeURIComponent(id)}`, { token: admin.token });
    expectError(res, 404);
    expect(res.body.error.message).toMatch(/was not found at the source/);
  }
});

it("a style score is bounded in the contract: 1.7e308 is a 400, the bound itself is fine", async () => {
  const created = await app.api("POST", "/styles", { token: admin.token, body: { name: "Bounded" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  for (const score of [1.7e308, -1.7e308, STYLE_SCORE_MAX + 1]) expectError(await app.api("PATCH", `/styles/${id}/score`, { token: admin.token, body: { score } }), 400);
  expectError(await app.api("POST", "/styles", { token: admin.token, body: { name: "Huge", score: 1.7e308 } }), 400);
  const ok = await app.api("PATCH", `/styles/${id}/score`, { token: admin.token, body: { score: STYLE_SCORE_MAX } });
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  expect(ok.body.score).toBe(STYLE_SCORE_MAX);
  expect((await app.api("GET", "/styles", { query: { sort: "score" } })).status).toBe(200);
});
