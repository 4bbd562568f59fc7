/**
 * TAOBAO_IMPORT_STATUS=draft: imported products wait for review instead of going live — a draft
 * product in the store, its companion pending review, and nothing visible to shoppers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { DEMO_ITEM, drain, seedStores } from "./taobao-fixtures";

let app: TestApp;
let admin: { token: string };
let stores: Awaited<ReturnType<typeof seedStores>>;

beforeAll(async () => {
  app = await createTestApp({ env: { TAOBAO_IMPORT_STATUS: "draft" } });
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.edit"] });
  stores = await seedStores(app);
});
afterAll(() => app?.close());

describe("importing with TAOBAO_IMPORT_STATUS=draft", () => {
  it("creates a draft product whose companion is pending review, hidden from shoppers", async () => {
    const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: DEMO_ITEM, store_id: stores.menswear.id, store_name: stores.menswear.name } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await drain(app);

    const job = (await app.api("GET", `/shopify/admin/products/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
    expect(job.status).toBe("completed");

    const companion = await app.database.db.productCompanion.findUniqueOrThrow({ where: { taobao_id: DEMO_ITEM }, include: { product: true } });
    expect(companion.status).toBe("pending_review");
    expect(companion.product.status).toBe("draft");

    // Shoppers do not see it: the public product read answers 404 for a draft.
    const pub = await app.api("GET", `/products/${encodeURIComponent(companion.shopify_product_id)}`);
    expect(pub.status).toBe(404);
    // …and the same read finds it once it is published (so the 404 above is the draft status).
    await app.database.db.product.update({ where: { id: companion.shopify_product_id }, data: { status: "active" } });
    expect((await app.api("GET", `/products/${encodeURIComponent(companion.shopify_product_id)}`)).status).toBe(200);
  });
});
