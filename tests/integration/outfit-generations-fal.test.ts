/**
 * Outfit generation through the fal adapter of the image-AI port, against the local server that
 * speaks fal's queue protocol (tests/helpers/fal-server.ts): each garment is one FASHN try-on at
 * fal (`fal-ai/fashn/tryon/v1.6`), submitted by the image-AI lane and followed by polling; the
 * second garment's model image is the first's result (copied into our storage, then given to fal
 * by its public URL). A fal error fails the outfit with fal's reason; retry completes it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { pollImageAiRequest } from "../../app/services/image-ai/jobs.server";
import { IMAGE_AI_JOBS } from "../../app/services/image-ai/requests.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { FAL_TEST_KEY, startFakeFal, type FakeFal } from "../helpers/fal-server";

const APP_URL = "https://shop.example.test";
const PEOPLE = path.join(__dirname, "..", "fixtures", "people");
const gid = (n: number) => `gid://shopify/Product/${n}`;

let fal: FakeFal;
let app: TestApp;
let shopper: { id: string; token: string };
let cloneId: string;

const drain = () => startWorker(app.ctx, Object.fromEntries(IMAGE_AI_JOBS.map((q) => [q, jobHandlers[q]])), { autoStart: false }).drain();

/** Runs the image-AI lane and polls fal (as image-ai.poll would, without its waits) until the outfit settles. */
async function settle(outfitId: string) {
  for (let i = 0; i < 40; i++) {
    await drain();
    const open = await app.database.db.imageAiRequest.findMany({ where: { target_type: "outfit", target_id: { startsWith: outfitId }, status: { in: ["queued", "in_progress"] }, provider_request_id: { not: null } } });
    for (const r of open) await pollImageAiRequest(app.ctx, { requestId: r.id });
    const o = await app.database.db.outfit.findUniqueOrThrow({ where: { id: outfitId } });
    if (o.processing_status === "READY" || o.processing_status === "ERROR") return o;
  }
  throw new Error("the outfit did not settle");
}

beforeAll(async () => {
  fal = await startFakeFal({ webhookRetries: 0 });
  app = await createTestApp({ env: { IMAGE_AI_ADAPTER: "fal", FAL_KEY: FAL_TEST_KEY, FAL_BASE_URL: fal.baseUrl, APP_URL } });
  shopper = await app.createUser();
  const db = app.database.db;
  const personUrl = (await app.ctx.storage.put("images/clones/fal/person-1.jpg", new Uint8Array(fs.readFileSync(path.join(PEOPLE, "person-1.jpg"))), "image/jpeg")).url;
  for (const [n, title, type] of [[6001, "Pleated skirt", "Skirts"], [6002, "Silk blouse", "Blouses"]] as const) {
    const url = `/uploads/images/test/${n}.jpg`;
    await db.product.create({
      data: { id: gid(n), title, handle: `fal-outfit-${n}`, productType: type, availableForSale: true, publishedAt: new Date(Date.now() - 60_000), featuredImageUrl: url, images: { create: [{ url, position: 0 }] }, companion: { create: { tryon_active: true } } },
    });
  }
  cloneId = (await db.clone.create({ data: { user_id: shopper.id, name: "Me", baseImageUrls: [personUrl], processing_status: "READY", outfit_generation_status: "COMPLETED" } })).id;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await fal?.close();
});

describe("outfit generation through fal's queue", () => {
  it("one FASHN try-on per garment, each on the previous result; READY/COMPLETED with the last image in our storage", async () => {
    fal.reset();
    fal.script("fal-ai/fashn", { queuePolls: 1, progressPolls: 1, completeAfterMs: null, logs: ["50%"] });
    const r = await app.api("POST", "/outfit-generations", { token: shopper.token, body: { clone_id: cloneId, product_ids: [gid(6002), gid(6001)] } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const o = await settle(r.body.id);
    expect(o).toMatchObject({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100, error: null });

    const submits = fal.calls.filter((c) => c.kind === "submit");
    expect(submits.map((s) => s.path)).toEqual(["/fal-ai/fashn/tryon/v1.6", "/fal-ai/fashn/tryon/v1.6"]);
    const inputs = submits.map((s) => s.body as { model_image: string; garment_image: string; category: string });
    expect(inputs.map((i) => i.category)).toEqual(["bottoms", "tops"]); // skirt before blouse
    expect(inputs[0].model_image).toBe(`${APP_URL}/uploads/images/clones/fal/person-1.jpg`);
    expect(inputs[0].garment_image).toBe(`${APP_URL}/uploads/images/test/6001.jpg`);
    // The blouse goes onto the skirt's result, which was copied from fal into our storage first.
    const reqs = await app.database.db.imageAiRequest.findMany({ where: { target_type: "outfit" }, orderBy: { created_at: "asc" } });
    const first = (reqs[0].output as { images: { url: string }[] }).images[0].url;
    expect(first).toMatch(/^\/uploads\/images\/ai\//);
    expect(inputs[1].model_image).toBe(`${APP_URL}${first}`);
    expect(o.image_url).toMatch(/^\/uploads\/images\/ai\//);
    expect(await app.ctx.storage.get(o.image_url!.replace(/^\/uploads\//, ""))).not.toBeNull();
  });

  it("fal's error fails the outfit (ERROR/ERROR) with its reason; retry runs it again to READY", async () => {
    fal.reset();
    fal.script("fal-ai/fashn", { completeAfterMs: null, fail: { status: 422, detail: [{ loc: ["body", "model_image"], msg: "No person detected" }] } });
    const r = await app.api("POST", "/outfit-generations", { token: shopper.token, body: { clone_id: cloneId, product_ids: [gid(6001)] } });
    const failed = await settle(r.body.id);
    expect(failed).toMatchObject({ processing_status: "ERROR", outfit_generation_status: "ERROR" });
    expect(failed.error).toMatch(/^Could not put on Pleated skirt: .*No person detected/);

    fal.reset();
    fal.script("fal-ai/fashn", { completeAfterMs: null });
    expect((await app.api("POST", `/outfit-generations/${r.body.id}/retry`, { token: shopper.token })).status).toBe(202);
    expect(await settle(r.body.id)).toMatchObject({ processing_status: "READY", outfit_generation_status: "COMPLETED", error: null });
  });
});
