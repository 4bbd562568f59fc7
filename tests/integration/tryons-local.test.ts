/**
 * One try-on end to end on the REAL local image-AI provider (app/providers/image-ai/local: person
 * keypoints, garment cut-out, geometric transfer on CPU): POST /vton/get-or-generate → the worker
 * → a completed try-on whose image is a real JPEG the size of the person photo. Slow (models load:
 * 10–60 s). Skipped, saying why, when the local provider is not available in this checkout.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderGarment } from "../helpers/garment-images";

const PEOPLE = path.join(__dirname, "..", "fixtures", "people");
const localProvider = path.join(__dirname, "..", "..", "app", "providers", "image-ai", "local", "index.server.ts");
const available = fs.existsSync(localProvider) && fs.existsSync(path.join(PEOPLE, "person-1.jpg"));
if (!available) console.warn("tryons-local: the local image-AI provider or tests/fixtures/people is missing; skipping the real try-on");

let app: TestApp;
const gid = "gid://shopify/Product/4242";

describe.skipIf(!available)("try-on on the real local provider", () => {
  beforeAll(async () => {
    app = await createTestApp(); // IMAGE_AI_ADAPTER defaults to local
  }, 60_000);
  afterAll(() => app?.close());

  it("completes a try-on of a t-shirt on a clone photo", async () => {
    const db = app.database.db;
    const shopper = await app.createUser();
    const person = new Uint8Array(fs.readFileSync(path.join(PEOPLE, "person-1.jpg")));
    const personUrl = (await app.ctx.storage.put("images/clones/local/person-1.jpg", person, "image/jpeg")).url;
    const garmentUrl = (await app.ctx.storage.put("images/test/tshirt-red.jpg", new Uint8Array(await renderGarment("tshirt", "#c0392b")), "image/jpeg")).url;
    await db.product.create({
      data: {
        id: gid,
        title: "Red tee",
        handle: "red-tee-local",
        productType: "T-Shirts",
        availableForSale: true,
        publishedAt: new Date(Date.now() - 60_000),
        featuredImageUrl: garmentUrl,
        images: { create: [{ url: garmentUrl, position: 0 }] },
        companion: { create: { tryon_active: true } },
      },
    });
    const clone = await db.clone.create({
      data: { user_id: shopper.id, name: "Me", baseImageUrls: [personUrl], processing_status: "READY", outfit_generation_status: "COMPLETED" },
    });

    const r = await app.api("POST", "/vton/get-or-generate", { token: shopper.token, body: { ai_clone_id: clone.id, shopify_product_id: gid } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe("queued");

    const started = Date.now();
    await startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
    const done = await app.api("GET", `/try-ons/${r.body.id}`, { token: shopper.token });
    expect(done.body.error).toBeNull();
    expect(done.body).toMatchObject({ status: "completed", progress: 100 });
    expect(done.body.generated_images).toHaveLength(1);
    const url: string = done.body.generated_images[0].image_url;
    const bytes = await app.ctx.storage.get(url.replace(/^\/uploads\//, ""));
    expect(bytes).not.toBeNull();
    const meta = await sharp(bytes!).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.height! / meta.width!).toBeCloseTo(1100 / 550, 1);
    // The result differs from the clone photo (the garment went on).
    const [a, b] = await Promise.all(
      [person, bytes!].map((x) => sharp(x).resize(55, 110, { fit: "fill" }).greyscale().raw().toBuffer()),
    );
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
    expect(diff / a.length).toBeGreaterThan(2);
    console.info(`tryons-local: real local try-on took ${Date.now() - started} ms`);

    // Same inputs again: the finished try-on, no new work.
    const again = await app.api("POST", "/vton/get-or-generate", { token: shopper.token, body: { ai_clone_id: clone.id, shopify_product_id: gid, enable_add_details: true } });
    expect(again.body).toMatchObject({ id: r.body.id, status: "completed" });
  }, 240_000);
});
