/**
 * Image sizes made at upload and import (issue 20, performance): after a media upload, a Taobao
 * import or a catalogue sync, the `images.prewarm` job (media lane) has put the variants the
 * pages ask for into the image route's cache, with no request for them: the route's first answer
 * is a cache hit. Widths beyond the original stop at the first one covering it; a file that is
 * gone or not an image is skipped, not retried.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { laneOf } from "../../app/jobs/lanes.server";
import { imageVariantCache } from "../../app/lib/image-route.server";
import { createImageVariants, imageKeyOfPath } from "../../app/services/image-variants.server";
import { IMAGE_PREWARM_QUEUE, PREWARM_PROFILES, enqueueProductImagePrewarm, runImagePrewarm } from "../../app/services/image-prewarm.server";
import { ownStorageKey } from "../../app/lib/image-source.server";
import { CARD_IMAGE_WIDTHS } from "../../storefront/src/lib/image-sizes";
import { createTestApp, type TestApp } from "../helpers/app";
import { DEMO_ITEM, seedStores } from "./taobao-fixtures";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
let admin: { token: string };
/** The imported product and its store (the sync test re-reads them). */
let imported: { productId: string; storeId: string } | null = null;

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.edit", "catalog.sync", "media.manage"] });
});
afterAll(() => app?.close());

/** A product's images in every width and format: a few hundred encodes, slow on a loaded machine. */
const ENCODING_TIMEOUT_MS = 240_000;

/** Runs every due job (the prewarm's settle delay made due first). */
async function drainAll() {
  const worker = startWorker(app.ctx, jobHandlers, { autoStart: false });
  await worker.drain();
  await app.database.db.job.updateMany({ where: { queue: IMAGE_PREWARM_QUEUE, status: "queued" }, data: { run_at: new Date(Date.now() - 1000) } });
  await worker.drain();
}

/** The variant files in the cache for a stored image URL (`<hash>-<w>.<fm>`), as `<w>.<fm>`. */
function cachedVariants(url: string): string[] {
  const dir = path.join(app.dataDir, "image-cache", "variants", url.replace(/^\/uploads\//, ""));
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => f.replace(/^[0-9a-f]{16}-/, "")).sort() : [];
}

/** What the image route answers (the same cache): `cached` true when no encode was needed. */
const routeAnswer = (url: string, w: number, fm?: "avif" | "webp") =>
  createImageVariants({ storage: app.ctx.storage, cache: imageVariantCache(app.ctx.config) }).get({ path: url.replace(/^\/uploads\/images\//, ""), query: { w: String(w), ...(fm ? { fm } : {}) } });

describe("images.prewarm", () => {
  it("runs in the media lane", () => {
    expect(laneOf(IMAGE_PREWARM_QUEUE)).toBe("media");
  });

  it("a media upload: the library's 160 and 320 px WebP thumbnails are in the cache before anyone asks", async () => {
    const png = await sharp({ create: { width: 900, height: 1200, channels: 3, background: "#336699" } }).png().toBuffer();
    const fd = new FormData();
    fd.set("file", new File([new Uint8Array(png)], "poster.png", { type: "image/png" }));
    fd.set("type", "image");
    const res = await app.api("POST", "/internal-media", { token: admin.token, body: fd });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(cachedVariants(res.body.url)).toEqual([]);
    await drainAll();
    expect(cachedVariants(res.body.url)).toEqual(["160.webp", "320.webp"]);
    expect((await routeAnswer(res.body.url, 160, "webp")).cached).toBe(true);
    const job = await app.database.db.job.findFirstOrThrow({ where: { queue: IMAGE_PREWARM_QUEUE, status: "completed", payload: { path: ["profile"], equals: "media" } } });
    expect(job.result).toMatchObject({ images: 1, made: 2, cached: 0, skipped: 0 });
  });

  it("a Taobao import: every product image in the card and page widths, AVIF, WebP and its own format (the <img> fallback), up to the width covering the original", async () => {
    const stores = await seedStores(app);
    const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { store_id: stores.menswear.id, store_name: stores.menswear.name, taobao_product_id: DEMO_ITEM } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await drainAll();
    const importJob = await app.database.db.importJob.findUniqueOrThrow({ where: { id: r.body.jobs[0].id } });
    expect(importJob.status).toBe("completed");
    const images = await app.database.db.productImage.findMany({ where: { product_id: importJob.product_id! } });
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) {
      const width = (await sharp(fs.readFileSync(path.join(app.dataDir, img.url.replace(/^\//, "")))).metadata()).width!;
      const variants = cachedVariants(img.url);
      const profileWidths = [...new Set(PREWARM_PROFILES.product.map((t) => t.w))].sort((a, b) => a - b);
      const cover = profileWidths.find((w) => w >= width);
      const { originalFormat } = imageKeyOfPath(img.url.replace(/^\/uploads\/images\//, ""));
      const expected = new Set(PREWARM_PROFILES.product.filter((t) => t.w <= width || t.w === cover).map((t) => `${t.w}.${t.fm === "original" ? originalFormat : t.fm}`));
      expect(variants.sort(), img.url).toEqual([...expected].sort());
      // The `<img>` fallback (no fm: the original's format) is made ahead too, for the card and page widths.
      expect(variants.filter((v) => v.endsWith(`.${originalFormat}`)).length, img.url).toBeGreaterThan(0);
      // The storefront card's first candidates and the admin thumbnail: no encode on the first request.
      for (const w of CARD_IMAGE_WIDTHS.filter((x) => x <= width)) {
        expect((await routeAnswer(img.url, w, "avif")).cached, `${img.url} ${w}`).toBe(true);
        expect((await routeAnswer(img.url, w)).cached, `${img.url} ${w} original format`).toBe(true);
      }
      expect((await routeAnswer(img.url, 160, "webp")).cached).toBe(true);
    }
    // One run per product however many images the import added one by one.
    const runs = await app.database.db.job.count({ where: { queue: IMAGE_PREWARM_QUEUE, payload: { equals: { productIds: [importJob.product_id!] } } } });
    expect(runs).toBe(1);
    imported = { productId: importJob.product_id!, storeId: stores.menswear.id };
  }, ENCODING_TIMEOUT_MS);

  it("a catalogue sync: a changed product's images are warmed again (an emptied cache is refilled)", async () => {
    expect(imported).not.toBeNull();
    const { productId, storeId } = imported!;
    fs.rmSync(path.join(app.dataDir, "image-cache"), { recursive: true, force: true });
    // A read-model row out of step with its variants: the sync repairs it, so the product counts as changed.
    await app.database.db.product.update({ where: { id: productId }, data: { totalInventory: 999, priceMax: "1.00" } });
    const res = await app.api("POST", `/catalog-sync/stores/${storeId}/sync`, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await drainAll();
    const sync = await app.api("GET", `/catalog-sync/jobs/${res.body.jobId}`, { token: admin.token });
    expect(sync.body.result.updated, JSON.stringify(sync.body)).toBeGreaterThanOrEqual(1);
    const [featured] = await app.database.db.productImage.findMany({ where: { product_id: productId }, orderBy: { position: "asc" }, take: 1 });
    expect(cachedVariants(featured.url)).toContain("320.avif");
    expect((await routeAnswer(featured.url, 320, "webp")).cached).toBe(true);
  }, ENCODING_TIMEOUT_MS);

  it("skips images that are gone or not images (no retry), and ignores URLs that are not ours", async () => {
    await createProduct(app.database.db, { n: 951, title: "Ghost Tee", productType: "T-Shirt", gender: "both", images: 1 });
    await app.ctx.storage.put("images/test/951-0.jpg", new TextEncoder().encode("<html>not an image</html>"), "image/jpeg");
    await app.database.db.productImage.create({ data: { product_id: pgid(951), url: "/uploads/images/test/missing.jpg", position: 5 } });
    await app.database.db.productImage.create({ data: { product_id: pgid(951), url: "https://cdn.shopify.com/s/files/a.jpg", position: 6 } });
    const out = await runImagePrewarm(
      { db: app.database.db, variants: createImageVariants({ storage: app.ctx.storage, cache: imageVariantCache(app.ctx.config) }), ownKey: (u) => ownStorageKey(app.ctx, u) },
      { productIds: [pgid(951)] },
    );
    expect(out).toEqual({ images: 0, made: 0, cached: 0, skipped: 2 });
    await expect(runImagePrewarm({ db: app.database.db, variants: { warm: async () => ({ made: 0, cached: 0 }) }, ownKey: () => null }, { productIds: [] })).rejects.toThrow();
  });

  it("enqueues one job per product, deduplicated while it waits", async () => {
    await enqueueProductImagePrewarm({ queue: app.ctx.queue }, [pgid(952), pgid(952)]);
    await enqueueProductImagePrewarm({ queue: app.ctx.queue }, [pgid(952)]);
    expect(await app.database.db.job.count({ where: { queue: IMAGE_PREWARM_QUEUE, status: "queued", dedupe_key: `${IMAGE_PREWARM_QUEUE}:product:${pgid(952)}` } })).toBe(1);
  });
});
