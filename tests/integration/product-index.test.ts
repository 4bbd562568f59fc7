/**
 * The products.index job: vectors per product (attributes, image, text) stored as ProductEmbedding
 * and in the vector index; enqueued by product writes; hidden and deleted products leave the
 * index; the start-up catch-up; the per-image cache; sync-pinecone; similar products with visual
 * similarity; and the whole demo catalogue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { IMAGE_EMBEDDING_MODEL } from "../../app/providers/image-embedding/features";
import { createPineconeIndex } from "../../app/providers/vector-index/pinecone.server";
import { TEXT_EMBEDDING_MODEL } from "../../app/services/search/text-embedding.server";
import {
  PRODUCT_INDEX_QUEUE,
  enqueueStaleProductIndex,
  imageCacheStats,
  indexProduct,
  indexStaleProducts,
  runProductIndexJob,
} from "../../app/services/product-index.server";
import { createDemoTestApp } from "../helpers/demo-template";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderGarment, writeFixtureImage } from "../helpers/garment-images";
import { PINECONE_TEST_KEY, startFakePinecone } from "../helpers/pinecone-server";
import { createProduct, enc, pgid } from "./products-fixtures";

let app: TestApp;
let editor: string;
const C = "/shopify/companion";
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
/** Index jobs wait for changes to settle: make the queued ones due now. */
const dueNow = () => app.database.db.job.updateMany({ where: { queue: PRODUCT_INDEX_QUEUE, status: "queued" }, data: { run_at: new Date(Date.now() - 1000) } });
const kinds = async (n: number) =>
  (await app.database.db.productEmbedding.findMany({ where: { product_id: pgid(n) }, select: { kind: true, model: true, dimensions: true } })).sort((a, b) => a.kind.localeCompare(b.kind));

beforeAll(async () => {
  app = await createTestApp();
  editor = (await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] })).token;
  const db = app.database.db;
  const tee = await renderGarment("tshirt", "#c0392b");
  const dress = await renderGarment("dress", "#8e44ad");
  const jeans = await renderGarment("jeans", "#34495e");
  await createProduct(db, { n: 801, title: "Red Cotton Tee", productType: "T-Shirts", gender: "menswear", price: 30, colours: { Red: "#c0392b" }, images: 1 });
  await createProduct(db, { n: 802, title: "Red Cotton Tee Twin", productType: "T-Shirts", gender: "menswear", price: 30, colours: { Red: "#c0392b" }, images: 1 });
  await createProduct(db, { n: 803, title: "Purple Dress", productType: "Dresses", gender: "womenswear", price: 90, colours: { Purple: "#8e44ad" }, images: 1 });
  await createProduct(db, { n: 804, title: "Slate Jeans", productType: "Jeans", gender: "menswear", price: 80, colours: { Slate: "#34495e" }, images: 1 });
  await createProduct(db, { n: 805, title: "Imageless Tee", productType: "T-Shirts", gender: "menswear", price: 30, images: 0 });
  await createProduct(db, { n: 806, title: "Draft Tee", productType: "T-Shirts", gender: "menswear", status: "draft", images: 1 });
  // Same attributes as 801, but its picture is the dress.
  await createProduct(db, { n: 807, title: "Red Cotton Tee Other Picture", productType: "T-Shirts", gender: "menswear", price: 30, colours: { Red: "#c0392b" }, images: 1 });
  await writeFixtureImage(app.ctx.config, 801, tee);
  await writeFixtureImage(app.ctx.config, 802, tee); // same picture, another URL: one model run
  await writeFixtureImage(app.ctx.config, 803, dress);
  await writeFixtureImage(app.ctx.config, 804, jeans);
  await writeFixtureImage(app.ctx.config, 806, tee);
  await writeFixtureImage(app.ctx.config, 807, dress);
}, 120_000);
afterAll(() => app?.close());

describe("the products.index job", () => {
  it("the start-up catch-up indexes every shown product: attributes, image and text vectors, stored and in the index", async () => {
    const runs = imageCacheStats().modelRuns;
    await enqueueStaleProductIndex(app.ctx);
    expect(await drain()).toBe(1);
    const job = await app.database.db.job.findFirstOrThrow({ where: { queue: PRODUCT_INDEX_QUEUE } });
    expect(job.status).toBe("completed");
    expect(job.result).toMatchObject({ scope: "stale", indexed: 6 });
    expect(await kinds(801)).toEqual([
      { kind: "attributes", model: "attributes-v1", dimensions: 31 },
      { kind: "image", model: IMAGE_EMBEDDING_MODEL, dimensions: 1524 },
      { kind: "text", model: TEXT_EMBEDDING_MODEL, dimensions: 100 },
    ]);
    // No featured image: no image vector. Draft: not indexed at all.
    expect((await kinds(805)).map((k) => k.kind)).toEqual(["attributes", "text"]);
    expect(await kinds(806)).toEqual([]);
    expect(await app.ctx.vectors.count("image")).toBe(5);
    // 801 and 802 show the same picture, 807 the same as 803: one model run per picture (cache by content).
    expect(imageCacheStats().modelRuns - runs).toBe(3);
    const e801 = await app.database.db.productEmbedding.findUniqueOrThrow({ where: { product_id_kind: { product_id: pgid(801), kind: "image" } } });
    const e802 = await app.database.db.productEmbedding.findUniqueOrThrow({ where: { product_id_kind: { product_id: pgid(802), kind: "image" } } });
    expect(e802.embedding).toEqual(e801.embedding);
    // The index answers with the product's neighbours, gender-filtered by metadata.
    const near = await app.ctx.vectors.query("image", e801.embedding, { topK: 3, excludeIds: [pgid(801)] });
    expect(near[0]).toMatchObject({ id: pgid(802) });
    expect(near[0].score).toBeCloseTo(1, 4);
    const women = await app.ctx.vectors.query("image", e801.embedding, { topK: 5, targetGenders: ["womenswear"] });
    expect(women.map((m) => m.id)).toEqual([pgid(803)]);
    // Run again: nothing is stale any more.
    expect(await indexStaleProducts(app.ctx)).toMatchObject({ indexed: 0, imageModelRuns: 0 });
  });

  it("product writes through the commerce port enqueue one job per product, after the changes settle", async () => {
    await app.ctx.commerce.updateProduct(pgid(803), { title: "Purple Midi Dress" });
    await app.ctx.commerce.setTargetGender(pgid(803), "both");
    const queued = await app.database.db.job.findMany({ where: { queue: PRODUCT_INDEX_QUEUE, status: "queued" } });
    expect(queued).toHaveLength(1); // deduplicated
    expect(queued[0].payload).toEqual({ productId: pgid(803) });
    expect(queued[0].run_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(await drain()).toBe(0); // not due yet
    await dueNow();
    expect(await drain()).toBe(1);
    const dressVector = (await app.database.db.productEmbedding.findUniqueOrThrow({ where: { product_id_kind: { product_id: pgid(803), kind: "image" } } })).embedding;
    // 807 shows the same dress picture; 803 is now "both", so men see it too: its metadata followed.
    const men = await app.ctx.vectors.query("image", dressVector, { topK: 2, targetGenders: ["menswear", "both"] });
    expect(men.map((m) => m.id).sort()).toEqual([pgid(803), pgid(807)]);
    const women = await app.ctx.vectors.query("image", dressVector, { topK: 5, targetGenders: ["womenswear"] });
    expect(women.map((m) => m.id)).toEqual([]);
  });

  it("a hidden product leaves every namespace; published again it comes back", async () => {
    await app.ctx.commerce.setProductStatus(pgid(804), "draft");
    await dueNow();
    await drain();
    const job = await app.database.db.job.findFirstOrThrow({ where: { queue: PRODUCT_INDEX_QUEUE, payload: { equals: { productId: pgid(804) } } }, orderBy: { created_at: "desc" } });
    expect(job.result).toMatchObject({ productId: pgid(804), status: "hidden", removedFrom: ["image", "text", "attributes"] });
    const probe = (await app.database.db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: pgid(801), kind: "image" } } }))!.embedding;
    expect((await app.ctx.vectors.query("image", probe, { topK: 10 })).map((m) => m.id)).not.toContain(pgid(804));
    await app.ctx.commerce.setProductStatus(pgid(804), "active");
    await dueNow();
    await drain();
    expect((await app.ctx.vectors.query("image", probe, { topK: 10 })).map((m) => m.id)).toContain(pgid(804));
  });

  it("a deleted product is removed from a Pinecone index too", async () => {
    const pinecone = await startFakePinecone({ dimension: 1536 });
    try {
      const ctx = { ...app.ctx, vectors: createPineconeIndex({ apiKey: PINECONE_TEST_KEY, host: pinecone.url, backoffMs: 5 }) };
      const out = await indexProduct(ctx, pgid(801));
      expect(out).toMatchObject({ status: "indexed", index: "pinecone" });
      expect(pinecone.namespaces.get("image")?.get(pgid(801))?.values).toHaveLength(1536); // padded
      expect(pinecone.namespaces.get("attributes")?.get(pgid(801))?.metadata).toEqual({ target_gender: "menswear" });
      await createProduct(app.database.db, { n: 809, title: "Short-lived Tee", images: 1 });
      await writeFixtureImage(app.ctx.config, 809, await renderGarment("tshirt", "#27ae60"));
      await indexProduct(ctx, pgid(809));
      expect(pinecone.namespaces.get("image")?.has(pgid(809))).toBe(true);
      await app.ctx.commerce.deleteProduct(pgid(809));
      const queued = await app.database.db.job.findFirstOrThrow({ where: { queue: PRODUCT_INDEX_QUEUE, status: "queued" } });
      const result = await runProductIndexJob(ctx, queued.payload, async () => {});
      expect(result).toMatchObject({ productId: pgid(809), status: "deleted" });
      for (const ns of ["image", "text", "attributes"]) expect(pinecone.namespaces.get(ns)?.has(pgid(809)) ?? false).toBe(false);
      await app.database.db.job.deleteMany({ where: { id: queued.id } });
    } finally {
      await pinecone.close();
    }
  });

  it("the catch-up refills an index that lost vectors, from ProductEmbedding, without running the model", async (t) => {
    if (app.ctx.vectors.name !== "pgvector" && (await app.ctx.vectors.resolve?.()) !== "pgvector") return t.skip(); // exact: the rows are the index
    await app.database.db.$executeRawUnsafe(`DELETE FROM vector_index_image`);
    expect(await app.ctx.vectors.count("image")).toBe(0);
    const out = await indexStaleProducts(app.ctx);
    expect(out.imageModelRuns).toBe(0);
    expect(out.refilled.image).toBe(5);
    expect(await app.ctx.vectors.count("image")).toBe(5);
  });

  it("an unreadable image is skipped with its reason; the other kinds are indexed", async () => {
    await app.database.db.product.update({ where: { id: pgid(805) }, data: { featuredImageUrl: "/uploads/images/test/missing.jpg" } });
    const out = await indexProduct(app.ctx, pgid(805));
    expect(out.status).toBe("indexed");
    expect(out.indexed.map((i) => i.kind)).toEqual(["attributes", "text"]);
    expect(out.skipped).toEqual([{ kind: "image", reason: "The image was not found in our storage" }]);
    await app.database.db.product.update({ where: { id: pgid(805) }, data: { featuredImageUrl: null } });
  });
});

describe("POST /shopify/companion/sync-pinecone/{id}", () => {
  it("re-indexes the product now and answers what it indexed", async () => {
    const res = await app.api("POST", `${C}/sync-pinecone/801`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      productId: pgid(801),
      kind: "attributes",
      model: "attributes-v1",
      dimensions: 31,
      status: "indexed",
      indexed: [
        { kind: "attributes", model: "attributes-v1", dimensions: 31 },
        { kind: "image", model: IMAGE_EMBEDDING_MODEL, dimensions: 1524 },
        { kind: "text", model: TEXT_EMBEDDING_MODEL, dimensions: 100 },
      ],
      skipped: [],
      removedFrom: [],
    });
    expect(["pgvector", "exact"]).toContain(res.body.index);
    expect(Date.parse(res.body.vector_synced_at)).toBeGreaterThan(Date.now() - 60_000);
    const noImage = await app.api("POST", `${C}/sync-pinecone/${enc(pgid(805))}`, { token: editor });
    expect(noImage.body.skipped).toEqual([{ kind: "image", reason: "The product has no featured image" }]);
  });

  it("a hidden product keeps its attribute vector but leaves the index; unknown ids are 404; editors only", async () => {
    const hidden = await app.api("POST", `${C}/sync-pinecone/806`, { token: editor });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ status: "hidden", kind: "attributes", dimensions: 31, indexed: [] });
    expect(await app.database.db.productEmbedding.count({ where: { product_id: pgid(806), kind: "attributes" } })).toBe(1);
    expect((await app.api("POST", `${C}/sync-pinecone/424242`, { token: editor })).status).toBe(404);
    expect((await app.api("POST", `${C}/sync-pinecone/801`, { token: (await app.createUser()).token })).status).toBe(403);
  });
});

describe("similar products with image vectors", () => {
  it("of two products with the same attributes, the one with the same picture ranks first", async () => {
    const { similarProducts } = await import("../../app/services/similar-products.server");
    // Attributes alone: 802 and 807 are the same to 801.
    const plain = await similarProducts(app.database.db, pgid(801), { page: 1, limit: 20, completeProductData: false });
    const plainScore = (n: number) => plain.scores[plain.results.findIndex((r) => r.id === pgid(n))];
    expect(plainScore(802)).toBe(plainScore(807));
    // With the image vectors from the index: 802 shows the same picture, 807 a dress.
    const res = await app.api("GET", `${C}/similar/801`);
    expect(res.status).toBe(200);
    const ids = res.body.results.map((r: { id: string }) => r.id);
    const score = (n: number) => res.body.scores[ids.indexOf(pgid(n))];
    expect(ids[0]).toBe(pgid(802));
    expect(score(802)).toBeGreaterThan(score(807));
    expect(score(807)).toBeLessThan(plainScore(807));
    expect([...res.body.scores].sort((a: number, b: number) => b - a)).toEqual(res.body.scores);
  });
});

describe("the demo catalogue", () => {
  it("indexes 640 products with one model run per distinct image", async () => {
    const demo = await createDemoTestApp();
    try {
      const distinct = (await demo.database.db.product.findMany({ where: { status: "active", publishedAt: { not: null } }, distinct: ["featuredImageUrl"], select: { featuredImageUrl: true } })).length;
      const shown = await demo.database.db.product.count({ where: { status: "active", publishedAt: { not: null } } });
      const runs = imageCacheStats().modelRuns;
      const started = performance.now();
      const out = await indexStaleProducts(demo.ctx);
      const ms = performance.now() - started;
      expect(out.indexed).toBe(shown);
      expect(imageCacheStats().modelRuns - runs).toBeLessThanOrEqual(distinct);
      expect(await demo.database.db.productEmbedding.count({ where: { kind: "image" } })).toBe(shown);
      expect(await demo.ctx.vectors.count("image")).toBe(shown);
      console.info(
        `[product-index] demo catalogue: ${shown} products, ${distinct} distinct images, ${imageCacheStats().modelRuns - runs} model runs, ${Math.round(ms)} ms (${(await demo.ctx.vectors.resolve?.()) ?? demo.ctx.vectors.name})`,
      );
      // A demo render finds its own products first.
      const someone = await demo.database.db.product.findFirstOrThrow({ where: { status: "active", publishedAt: { not: null }, featuredImageUrl: { not: null } }, orderBy: { id: "asc" } });
      const photo = await demo.ctx.storage.get(someone.featuredImageUrl!.replace("/uploads/", ""));
      const q0 = performance.now();
      const fd = new FormData();
      fd.append("image", new Blob([new Uint8Array(photo!)], { type: "image/jpeg" }), "p.jpg");
      const res = await demo.api("POST", "/vision/product-search", { body: fd });
      expect(res.status).toBe(200);
      const sameImage = await demo.database.db.product.findMany({ where: { featuredImageUrl: someone.featuredImageUrl, status: "active", publishedAt: { not: null } }, select: { id: true } });
      expect(sameImage.map((p) => p.id)).toContain(res.body.results[0].id);
      expect(res.body.scores[0]).toBeGreaterThan(0.999);
      console.info(`[product-index] search on the demo catalogue: ${Math.round(performance.now() - q0)} ms (embed ${res.body.timings.embedMs} ms, query+cards ${res.body.timings.queryMs} ms)`);
    } finally {
      await demo.close();
    }
  }, 600_000);
});
