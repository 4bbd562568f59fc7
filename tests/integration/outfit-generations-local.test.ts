/**
 * One outfit generation end to end on the REAL local image-AI provider (person analysis, garment
 * cut-out, geometric transfer on CPU): jeans and a jacket on a clone photo, POST
 * /outfit-generations → the image-AI lane's jobs → READY/COMPLETED with a real JPEG, the jacket
 * put on the jeans' result. Garment renders are small (300×400). Slow the first time (models load).
 * Skipped, saying why, when the local provider is not available in this checkout.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { IMAGE_AI_JOBS } from "../../app/services/image-ai/requests.server";
import { startWorker } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderGarment } from "../helpers/garment-images";

const PEOPLE = path.join(__dirname, "..", "fixtures", "people");
const localProvider = path.join(__dirname, "..", "..", "app", "providers", "image-ai", "local", "index.server.ts");
const available = fs.existsSync(localProvider) && fs.existsSync(path.join(PEOPLE, "person-1.jpg"));
if (!available) console.warn("outfit-generations-local: the local image-AI provider or tests/fixtures/people is missing; skipping");

let app: TestApp;

async function garment(kind: "jeans" | "jacket", hex: string) {
  return new Uint8Array(await sharp(await renderGarment(kind, hex)).resize(300, 400).jpeg({ quality: 85 }).toBuffer());
}

describe.skipIf(!available)("outfit generation on the real local provider", () => {
  beforeAll(async () => {
    app = await createTestApp(); // IMAGE_AI_ADAPTER defaults to local
  }, 60_000);
  afterAll(() => app?.close());

  it("puts jeans, then a jacket over them, on a clone photo", async () => {
    const db = app.database.db;
    const shopper = await app.createUser();
    const person = new Uint8Array(fs.readFileSync(path.join(PEOPLE, "person-1.jpg")));
    const personUrl = (await app.ctx.storage.put("images/clones/outfit-local/person-1.jpg", person, "image/jpeg")).url;
    const items = [
      { id: "gid://shopify/Product/5101", title: "Navy jacket", type: "Jackets", image: await garment("jacket", "#1f3a5f") },
      { id: "gid://shopify/Product/5102", title: "Blue jeans", type: "Jeans", image: await garment("jeans", "#3b5b8c") },
    ];
    for (const it of items) {
      const url = (await app.ctx.storage.put(`images/test/${it.id.split("/").pop()}.jpg`, it.image, "image/jpeg")).url;
      await db.product.create({
        data: {
          id: it.id,
          title: it.title,
          handle: `outfit-local-${it.id.split("/").pop()}`,
          productType: it.type,
          availableForSale: true,
          publishedAt: new Date(Date.now() - 60_000),
          featuredImageUrl: url,
          images: { create: [{ url, position: 0 }] },
          companion: { create: { tryon_active: true } },
        },
      });
    }
    const clone = await db.clone.create({
      data: { user_id: shopper.id, name: "Me", baseImageUrls: [personUrl], processing_status: "READY", outfit_generation_status: "COMPLETED" },
    });

    const r = await app.api("POST", "/outfit-generations", { token: shopper.token, body: { clone_id: clone.id, product_ids: items.map((i) => i.id) } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.product_ids).toEqual(["gid://shopify/Product/5102", "gid://shopify/Product/5101"]); // jeans first

    const started = Date.now();
    // Only the image-AI lane's jobs: the try-on of each garment and nothing else of the app.
    await startWorker(app.ctx, Object.fromEntries(IMAGE_AI_JOBS.map((q) => [q, jobHandlers[q]])), { autoStart: false }).drain();
    const done = await app.api("GET", `/outfit-generations/${r.body.id}`, { token: shopper.token });
    expect(done.body.error).toBeNull();
    expect(done.body).toMatchObject({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100, completed: true });
    const url: string = done.body.image_url;
    const bytes = await app.ctx.storage.get(url.replace(/^\/uploads\//, ""));
    expect(bytes).not.toBeNull();
    const meta = await sharp(bytes!).metadata();
    expect(meta.format).toBe("jpeg");

    // The jacket went onto the jeans' result: the second request's person image is the first's output.
    const reqs = await db.imageAiRequest.findMany({ where: { target_type: "outfit" }, orderBy: { created_at: "asc" } });
    expect(reqs.map((q) => q.status)).toEqual(["completed", "completed"]);
    const firstOut = (reqs[0].output as { images: { url: string }[] }).images[0].url;
    expect((reqs[1].input as { person_image_url: string }).person_image_url).toBe(firstOut);
    expect(url).toBe((reqs[1].output as { images: { url: string }[] }).images[0].url);

    // The result differs from the clone photo (garments went on).
    const [a, b] = await Promise.all([person, bytes!].map((x) => sharp(x).resize(55, 110, { fit: "fill" }).greyscale().raw().toBuffer()));
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
    expect(diff / a.length).toBeGreaterThan(2);
    console.info(`outfit-generations-local: two garments on the local provider took ${Date.now() - started} ms`);
  }, 300_000);
});
