/**
 * Full catalogue sync per store: POST /catalog-sync/stores/{id}/sync → a `catalog.sync` job with
 * progress → GET /catalog-sync/jobs/{id}. In local mode the local adapter's catalogue of the store
 * is read; with the Shopify adapter a bulk operation (against a local server answering like Shopify).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import type { CommercePort, ProductInput } from "../../app/providers/commerce/port";
import { fixture, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";

let app: TestApp;
let admin: { token: string };
let editor: { token: string };
let storeId: string;
let vendorId: string;
const localCommerce = () => app.ctx.commerce;

const item = (title: string, price: string, qty: number, storeId: string): ProductInput => ({
  title,
  vendor: "Northwind Atelier",
  productType: "Shirts",
  descriptionHtml: "<p>x</p>",
  status: "active",
  tags: [],
  targetGender: "both",
  options: [{ name: "Size", values: ["S", "M"] }],
  variants: [
    { price, inventoryQuantity: qty, selectedOptions: [{ name: "Size", value: "S" }] },
    { price, inventoryQuantity: 1, selectedOptions: [{ name: "Size", value: "M" }] },
  ],
  images: [{ url: `https://cdn.test/${title}.jpg` }],
  storeId,
});

async function drain() {
  return startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.sync"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Northwind", handle: "northwind" } });
  vendorId = vendor.id;
  storeId = (await app.database.db.store.create({ data: { name: "Northwind Atelier", handle: "northwind-atelier", vendor_id: vendor.id } })).id;
  for (const [i, t] of ["Alpha", "Bravo", "Charlie"].entries()) await localCommerce().createProduct(item(t, `${20 + i}.00`, 2, storeId));
  // A product of another store is not part of this store's sync.
  const other = await app.database.db.store.create({ data: { name: "Other", handle: "other", vendor_id: vendor.id } });
  await localCommerce().createProduct({ ...item("Delta", "9.00", 1, other.id), vendor: "Other" });
});
afterAll(() => app?.close());

describe("local mode", () => {
  it("answers 202 with a job id, runs the job with progress, and reports the summary", async () => {
    // A read-model row out of step with its variants: the sync repairs it.
    const alpha = await app.database.db.product.findFirstOrThrow({ where: { title: "Alpha" } });
    await app.database.db.product.update({ where: { id: alpha.id }, data: { totalInventory: 999, priceMax: "1.00" } });

    const res = await app.api("POST", `/catalog-sync/stores/${storeId}/sync`, { token: admin.token });
    expect(res.status).toBe(202);
    const jobId = res.body.jobId as string;
    expect(jobId).toBeTruthy();
    // A second request while the first is queued answers the same job.
    expect((await app.api("POST", `/catalog-sync/stores/${storeId}/sync`, { token: admin.token })).body.jobId).toBe(jobId);

    const queued = await app.api("GET", `/catalog-sync/jobs/${jobId}`, { token: admin.token });
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ id: jobId, storeId, status: "queued", progress: 0, result: null, error: null });

    const progress: number[] = [];
    const original = app.ctx.queue.progress;
    app.ctx.queue.progress = async (id, p) => {
      progress.push(p);
      return original(id, p);
    };
    try {
      expect(await drain()).toBe(1);
    } finally {
      app.ctx.queue.progress = original;
    }
    expect(progress[0]).toBe(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true);

    const done = await app.api("GET", `/catalog-sync/jobs/${jobId}`, { token: admin.token });
    expect(done.body).toMatchObject({ status: "completed", progress: 100, error: null, result: { storeId, source: "local", total: 3, created: 0, updated: 1, unchanged: 2, removed: 0 } });
    const repaired = await app.database.db.product.findUniqueOrThrow({ where: { id: alpha.id } });
    expect(repaired.totalInventory).toBe(3);
    expect(repaired.priceMax.toFixed(2)).toBe("20.00");
    expect((await app.database.db.store.findUniqueOrThrow({ where: { id: storeId } })).last_synced_at).toBeInstanceOf(Date);
  });

  it("refuses an unknown store (404), an unknown job (404) and callers without catalog.sync (403)", async () => {
    const unknown = await app.api("POST", "/catalog-sync/stores/00000000-0000-0000-0000-000000000000/sync", { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Store not found");
    expect((await app.api("GET", "/catalog-sync/jobs/nope", { token: admin.token })).status).toBe(404);
    expect((await app.api("POST", `/catalog-sync/stores/${storeId}/sync`, { token: editor.token })).status).toBe(403);
    expect((await app.api("POST", `/catalog-sync/stores/${storeId}/sync`)).status).toBe(401);
    // Another queue's job is not a catalogue sync job.
    const ping = await app.ctx.queue.enqueue("system.ping", {});
    expect((await app.api("GET", `/catalog-sync/jobs/${ping.id}`, { token: admin.token })).status).toBe(404);
    await drain();
  });

  it("a job that fails records the error (and is retried later)", async () => {
    const failing = {
      ...localCommerce(),
      kind: "local",
      exportAllProducts: async function* () {
        yield* [];
        throw new Error("Shopify is unreachable: connect ECONNREFUSED");
      },
    } as CommercePort;
    const saved = app.ctx.commerce;
    app.ctx.commerce = failing;
    try {
      const { body } = await app.api("POST", `/catalog-sync/stores/${storeId}/sync`, { token: admin.token });
      await drain();
      const job = await app.api("GET", `/catalog-sync/jobs/${body.jobId}`, { token: admin.token });
      expect(job.body).toMatchObject({ status: "queued", attempts: 1, maxAttempts: 3, result: null, error: "Shopify is unreachable: connect ECONNREFUSED" });
      // Out of attempts, it is failed for good and keeps its error.
      await app.database.db.job.update({ where: { id: body.jobId }, data: { run_at: new Date(), attempts: 2 } });
      await drain();
      const failed = await app.api("GET", `/catalog-sync/jobs/${body.jobId}`, { token: admin.token });
      expect(failed.body).toMatchObject({ status: "failed", error: "Shopify is unreachable: connect ECONNREFUSED" });
      expect(failed.body.completedAt).toBeTruthy();
    } finally {
      app.ctx.commerce = saved;
    }
  });
});

describe("with the Shopify adapter (bulk operation)", () => {
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify();
  });
  afterAll(() => fake?.close());

  it("creates the store's products from the bulk export and removes the ones the store no longer has", async () => {
    const vendor2 = await app.database.db.store.create({ data: { name: "Northwind Atelier II", handle: "nw2", vendor_id: vendorId } });
    // A product of that store the shop deleted meanwhile.
    await app.database.db.product.create({ data: { id: "gid://shopify/Product/6999", title: "Gone", handle: "gone", vendor: "Northwind Atelier", store_id: vendor2.id } });
    fake.files.set("/bulk.jsonl", fixture("bulk-products.jsonl"));
    fake.on("ProductsCount", { productsCount: { count: 2, precision: "EXACT" } });
    fake.on("BulkOperationRunQuery", { bulkOperationRunQuery: { bulkOperation: { id: "gid://shopify/BulkOperation/9", status: "CREATED" }, userErrors: [] } });
    fake.on("BulkOperationStatus", { bulkOperation: { id: "gid://shopify/BulkOperation/9", status: "COMPLETED", errorCode: null, objectCount: "6", rootObjectCount: "2", url: `${fake.origin}/bulk.jsonl`, partialDataUrl: null } });
    fake.on("ProductGet", { product: null });
    const saved = app.ctx.commerce;
    app.ctx.commerce = createShopifyCommerce({ shop: fake.shop, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => undefined, bulkPollMs: 1 });
    try {
      const { status, body } = await app.api("POST", `/catalog-sync/stores/${vendor2.id}/sync`, { token: admin.token });
      expect(status).toBe(202);
      await drain();
      const job = await app.api("GET", `/catalog-sync/jobs/${body.jobId}`, { token: admin.token });
      expect(job.body).toMatchObject({ status: "completed", progress: 100, result: { source: "shopify", total: 2, created: 2, updated: 0, unchanged: 0, removed: 1 } });
      expect(fake.calls("BulkOperationRunQuery")[0].variables.query).toContain("vendor:'Northwind Atelier II'");
      expect(fake.calls("ProductGet")[0].variables).toEqual({ id: "gid://shopify/Product/6999" });
      const coat = await app.database.db.product.findUniqueOrThrow({ where: { id: "gid://shopify/Product/7101" }, include: { variants: true } });
      expect(coat).toMatchObject({ store_id: vendor2.id, vendor_id: vendorId, target_gender: "womenswear", totalInventory: 6, featuredImageUrl: "https://cdn.shopify.test/coat.jpg" });
      expect(coat.priceMin.toFixed(2)).toBe("120.00");
      expect(coat.priceMax.toFixed(2)).toBe("130.00");
      expect(await app.database.db.product.count({ where: { id: "gid://shopify/Product/6999" } })).toBe(0);

      // Run again: nothing changed.
      const again = await app.api("POST", `/catalog-sync/stores/${vendor2.id}/sync`, { token: admin.token });
      await drain();
      const second = await app.api("GET", `/catalog-sync/jobs/${again.body.jobId}`, { token: admin.token });
      expect(second.body.result).toMatchObject({ created: 0, updated: 0, unchanged: 2, removed: 0 });
    } finally {
      app.ctx.commerce = saved;
    }
  });
});
