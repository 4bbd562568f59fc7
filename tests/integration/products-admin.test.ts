import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, mgid, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let editor: string;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  editor = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
  await createProduct(db, { n: 201, title: "Delete Me", images: 1 });
  await createProduct(db, { n: 202, title: "Media Shirt", images: 3, colours: { Navy: "#1f2a44", Sand: "#d6c29f" } });
  await createProduct(db, { n: 203, title: "Stock Tee", inventory: 4 });
  await createProduct(db, { n: 204, title: "Sold Out Tee", inventory: 0 });
  await createProduct(db, { n: 205, title: "Store Refuses", images: 1 });
});
afterAll(() => app?.close());

/** Replaces one commerce method for the duration of `run`. */
async function withCommerce<K extends keyof CommercePort>(name: K, impl: CommercePort[K], run: () => Promise<void>) {
  const commerce = app.ctx.commerce as unknown as Record<string, unknown>;
  const original = commerce[name];
  commerce[name] = impl;
  try {
    await run();
  } finally {
    commerce[name] = original;
  }
}

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

describe("DELETE /products/{id}", () => {
  it("deletes the product in the store and the read model, with its companion", async () => {
    const res = await app.api("DELETE", `/products/${enc(pgid(201))}`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, id: pgid(201) });
    expect(await app.database.db.product.findUnique({ where: { id: pgid(201) } })).toBeNull();
    expect(await app.database.db.productCompanion.count({ where: { shopify_product_id: pgid(201) } })).toBe(0);
    expect((await app.api("GET", `/products/${enc(pgid(201))}`)).status).toBe(404);
  });

  it("answers 404 Product not found for an unknown product", async () => {
    const res = await app.api("DELETE", "/products/987654", { token: editor });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe("Product not found");
  });

  it("answers Failed to delete product when the store refuses, and keeps the product", async () => {
    await withCommerce(
      "deleteProduct",
      async () => {
        throw new CommerceError("Product is part of an open order", [{ field: ["id"], message: "Product is part of an open order" }], 422);
      },
      async () => {
        const res = await app.api("DELETE", `/products/${enc(pgid(205))}`, { token: editor });
        expect(res.status).toBe(422);
        expect(res.body.error.message).toBe("Failed to delete product");
        expect(res.body.error.details.reason).toBe("Product is part of an open order");
      },
    );
    expect(await app.database.db.product.count({ where: { id: pgid(205) } })).toBe(1);
  });

  it("needs catalog.edit", async () => {
    const other = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
    expect((await app.api("DELETE", `/products/${enc(pgid(205))}`, { token: other.token })).status).toBe(403);
    expect((await app.api("DELETE", `/products/${enc(pgid(205))}`)).status).toBe(401);
  });
});

describe("PUT /products/{id}/media-order", () => {
  it("reorders the images and makes the first one featured", async () => {
    const order = [mgid(202, 2), mgid(202, 0), mgid(202, 1)];
    const res = await app.api("PUT", `/products/${enc(pgid(202))}/media-order`, { token: editor, body: { mediaIds: order } });
    expect(res.status).toBe(200);
    expect(res.body.images.map((i: { id: string }) => i.id)).toEqual(order);
    const p = await app.api("GET", "/products/202");
    expect(p.body.images.map((i: { id: string }) => i.id)).toEqual(order);
    expect(p.body.featuredImage.url).toBe("/uploads/images/test/202-2.jpg");
  });

  it("refuses a partial, duplicated or foreign list", async () => {
    const put = (mediaIds: string[]) => app.api("PUT", "/products/202/media-order", { token: editor, body: { mediaIds } });
    const partial = await put([mgid(202, 0), mgid(202, 1)]);
    expect(partial.status).toBe(422);
    expect(partial.body.error.message).toBe("mediaIds must list every image of the product (3), in the new order");
    const twice = await put([mgid(202, 0), mgid(202, 0), mgid(202, 1)]);
    expect(twice.status).toBe(422);
    expect(twice.body.error.message).toContain("listed twice");
    const foreign = await put([mgid(203, 0), mgid(202, 0), mgid(202, 1)]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.message).toBe(`Image ${mgid(203, 0)} is not an image of this product`);
    expect((await put([])).status).toBe(400);
    expect((await app.api("PUT", "/products/99999/media-order", { token: editor, body: { mediaIds: ["x"] } })).status).toBe(404);
  });

  it("answers Failed to set media order when the store refuses", async () => {
    await withCommerce(
      "reorderMedia",
      async () => {
        throw new CommerceError("Throttled", [], 429);
      },
      async () => {
        const res = await app.api("PUT", "/products/202/media-order", { token: editor, body: { mediaIds: [mgid(202, 0), mgid(202, 1), mgid(202, 2)] } });
        expect(res.status).toBe(429);
        expect(res.body.error.message).toBe("Failed to set media order");
      },
    );
  });
});

describe("POST /products/{id}/variant-media", () => {
  it("attaches images to variants", async () => {
    const res = await app.api("POST", "/products/202/variant-media", {
      token: editor,
      body: { pairs: [{ variantId: vgid(202, 0), mediaId: mgid(202, 2) }, { variantId: "20203", mediaId: mgid(202, 1) }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.variants).toEqual([
      { id: vgid(202, 0), image: { url: "/uploads/images/test/202-2.jpg", altText: "Media Shirt 2" } },
      { id: vgid(202, 3), image: { url: "/uploads/images/test/202-1.jpg", altText: "Media Shirt 1" } },
    ]);
    const p = await app.api("GET", "/products/202");
    expect(p.body.variants[0].image.url).toBe("/uploads/images/test/202-2.jpg");
    expect(p.body.variants[3].image.url).toBe("/uploads/images/test/202-1.jpg");
  });

  it("refuses variants or images of another product", async () => {
    const a = await app.api("POST", "/products/202/variant-media", { token: editor, body: { pairs: [{ variantId: vgid(203, 0), mediaId: mgid(202, 0) }] } });
    expect(a.status).toBe(422);
    expect(a.body.error.message).toBe(`Variant ${vgid(203, 0)} is not a variant of this product`);
    const b = await app.api("POST", "/products/202/variant-media", { token: editor, body: { pairs: [{ variantId: vgid(202, 0), mediaId: mgid(203, 0) }] } });
    expect(b.status).toBe(422);
    expect((await app.api("POST", "/products/202/variant-media", { token: editor, body: { pairs: [] } })).status).toBe(400);
  });

  it("answers Failed to append media to variant when the store refuses", async () => {
    await withCommerce(
      "appendVariantMedia",
      async () => {
        throw new CommerceError("Media is still processing", [], 422);
      },
      async () => {
        const res = await app.api("POST", "/products/202/variant-media", { token: editor, body: { pairs: [{ variantId: vgid(202, 1), mediaId: mgid(202, 0) }] } });
        expect(res.status).toBe(422);
        expect(res.body.error.message).toBe("Failed to append media to variant");
      },
    );
  });
});

describe("inventory updates (jobs)", () => {
  it("update-all-inventories answers 202 with a job that syncs every product from the store", async () => {
    // The store has changed under the read model: 203 sold out, 204 restocked.
    const storeLevels = [
      { productId: pgid(203), variantId: vgid(203, 0), available: 0 },
      { productId: pgid(203), variantId: vgid(203, 1), available: 0 },
      { productId: pgid(204), variantId: vgid(204, 0), available: 7 },
      { productId: pgid(204), variantId: vgid(204, 1), available: 0 },
    ];
    await withCommerce(
      "inventoryLevels",
      async (opts) => storeLevels.filter((l) => (!opts.productIds || opts.productIds.includes(l.productId)) && (!opts.outOfStockOnly || l.available <= 0)),
      async () => {
        const res = await app.api("POST", "/products/update-all-inventories", { token: editor });
        expect(res.status).toBe(202);
        expect(typeof res.body.jobId).toBe("string");
        // A second click while it is queued answers the same job.
        expect((await app.api("POST", "/products/update-all-inventories", { token: editor })).body.jobId).toBe(res.body.jobId);
        const queued = await app.api("GET", `/products/inventory-jobs/${res.body.jobId}`, { token: editor });
        expect(queued.body).toMatchObject({ status: "queued", progress: 0, result: null });
        expect(await drain()).toBeGreaterThanOrEqual(1);
        const done = await app.api("GET", `/products/inventory-jobs/${res.body.jobId}`, { token: editor });
        expect(done.body).toMatchObject({ status: "completed", progress: 100, result: { products: 2, variants: 4, changed: 3 }, error: null });
      },
    );
    const sold = await app.api("GET", "/products/203");
    expect(sold.body.availableForSale).toBe(false);
    expect(sold.body.totalInventory).toBe(0);
    expect(sold.body.variants.map((v: { quantityAvailable: number }) => v.quantityAvailable)).toEqual([0, 0]);
    const back = await app.api("GET", "/products/204");
    expect(back.body.availableForSale).toBe(true);
    expect(back.body.totalInventory).toBe(7);
    expect(back.body.variants.map((v: { availableForSale: boolean }) => v.availableForSale)).toEqual([true, false]);
  });

  it("update-out-of-stock-inventories refreshes products out of stock in the read model or the store", async () => {
    // 203 is out of stock in the read model and restocked in the store; 202 sells out in the store.
    const storeLevels = [
      { productId: pgid(203), variantId: vgid(203, 0), available: 3 },
      { productId: pgid(203), variantId: vgid(203, 1), available: 2 },
      { productId: pgid(202), variantId: vgid(202, 0), available: 0 },
      { productId: pgid(202), variantId: vgid(202, 1), available: 5 },
      { productId: pgid(202), variantId: vgid(202, 2), available: 5 },
      { productId: pgid(202), variantId: vgid(202, 3), available: 5 },
    ];
    const asked: unknown[] = [];
    await withCommerce(
      "inventoryLevels",
      async (opts) => {
        asked.push(opts);
        return storeLevels.filter((l) => (!opts.productIds || opts.productIds.includes(l.productId)) && (!opts.outOfStockOnly || l.available <= 0));
      },
      async () => {
        const res = await app.api("POST", "/products/update-out-of-stock-inventories", { token: editor });
        expect(res.status).toBe(202);
        await drain();
        const done = await app.api("GET", `/products/inventory-jobs/${res.body.jobId}`, { token: editor });
        expect(done.body.status).toBe("completed");
      },
    );
    expect(asked[0]).toEqual({ outOfStockOnly: true });
    const p203 = await app.api("GET", "/products/203");
    expect(p203.body.totalInventory).toBe(5);
    expect(p203.body.availableForSale).toBe(true);
    const p202 = await app.api("GET", "/products/202");
    expect(p202.body.variants[0].availableForSale).toBe(false);
    expect(p202.body.totalInventory).toBe(15);
  });

  it("a failing store fails the job with its message", async () => {
    await withCommerce(
      "inventoryLevels",
      async () => {
        throw new Error("Shopify is unavailable");
      },
      async () => {
        const res = await app.api("POST", "/products/update-all-inventories", { token: editor });
        await app.database.db.job.update({ where: { id: res.body.jobId }, data: { max_attempts: 1 } });
        await drain();
        const job = await app.api("GET", `/products/inventory-jobs/${res.body.jobId}`, { token: editor });
        expect(job.body.status).toBe("failed");
        expect(job.body.error).toContain("Shopify is unavailable");
      },
    );
  });

  it("an unknown job answers 404; a job of another queue is not shown", async () => {
    expect((await app.api("GET", "/products/inventory-jobs/nope", { token: editor })).status).toBe(404);
    const other = await app.ctx.queue.enqueue("system.ping", {});
    expect((await app.api("GET", `/products/inventory-jobs/${other.id}`, { token: editor })).status).toBe(404);
  });
});
