/**
 * Outfit generation on a clone (app/contract/outfit-generations.ts): start from products or a
 * curated look, garment-by-garment rendering through the image-AI queue with §4's status pair and
 * progress, the status endpoint (GET /clones/outfit-generation-status), failure and retry,
 * list/get/delete, and ownership (a second shopper gets 404 / null / nothing). Model calls go to
 * the fake image-AI provider; outfit-generations-local.test.ts runs the real local one.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { pollImageAiRequest } from "../../app/services/image-ai/jobs.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, type FakeImageAi } from "../helpers/fake-image-ai";

const PEOPLE = path.join(__dirname, "..", "fixtures", "people");

let app: TestApp;
let fake: FakeImageAi;
type U = { id: string; token: string };
let alice: U, bob: U;
let personUrl: string;
let garmentUrl: string;
const clones: Record<string, string> = {};
const gid = (n: number) => `gid://shopify/Product/${n}`;
let lookId: string;
let draftLookId: string;

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
type Gen = {
  id: string;
  processing_status: string;
  outfit_generation_status: string;
  processing_progress: number;
  completed: boolean;
  image_url: string | null;
  error: string | null;
  product_ids: string[];
  source_outfit_id: string | null;
  name: string;
};

async function product(n: number, title: string, type: string, o: { tryon?: boolean } = {}) {
  await app.database.db.product.create({
    data: {
      id: gid(n),
      title,
      handle: `outfit-product-${n}`,
      vendor: "Test",
      productType: type,
      availableForSale: true,
      priceMin: 10,
      priceMax: 20,
      status: "active",
      publishedAt: new Date(Date.now() - 86_400_000),
      featuredImageUrl: garmentUrl,
      images: { create: [{ url: garmentUrl, position: 0 }] },
      companion: { create: { tryon_active: o.tryon ?? true } },
    },
  });
}

async function clone(key: string, o: { userId: string | null; status?: "READY" | "PROCESSING_IMAGES"; isPublic?: boolean }) {
  const c = await app.database.db.clone.create({
    data: {
      user_id: o.userId,
      name: `Clone ${key}`,
      gender: "womenswear",
      baseImageUrls: [personUrl],
      isPublic: o.isPublic ?? false,
      processing_status: o.status ?? "READY",
      outfit_generation_status: (o.status ?? "READY") === "READY" ? "COMPLETED" : "PROCESSING",
    },
  });
  clones[key] = c.id;
}

async function start(user: U, body: Record<string, unknown>, status = 202) {
  const r = await app.api("POST", "/outfit-generations", { token: user.token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body as Gen;
}
const get = async (user: U, id: string) => (await app.api("GET", `/outfit-generations/${id}`, { token: user.token })).body as Gen;
const statusOf = async (user: U, query = "") => (await app.api("GET", `/clones/outfit-generation-status${query}`, { token: user.token })).body;
const pair = (g: { processing_status: string; outfit_generation_status: string }) => `${g.processing_status}/${g.outfit_generation_status}`;
const vtonSubmits = () => fake.submits.filter((s) => s.op === "vton-flux");

beforeAll(async () => {
  fake = createFakeImageAi();
  app = await createTestApp({ imageAi: fake });
  alice = await app.createUser();
  bob = await app.createUser();
  personUrl = (await app.ctx.storage.put("images/clones/test/person-1.jpg", new Uint8Array(fs.readFileSync(path.join(PEOPLE, "person-1.jpg"))), "image/jpeg")).url;
  const jpeg = await sharp({ create: { width: 60, height: 80, channels: 3, background: { r: 30, g: 60, b: 160 } } }).jpeg().toBuffer();
  garmentUrl = (await app.ctx.storage.put("images/test/outfit-garment.jpg", new Uint8Array(jpeg), "image/jpeg")).url;

  await product(2001, "Wool coat", "Coats");
  await product(2002, "Linen shirt", "Shirts");
  await product(2003, "Slim jeans", "Jeans");
  await product(2004, "Leather belt", "Belts", { tryon: false });
  await clone("alice", { userId: alice.id });
  await clone("bob", { userId: bob.id });
  await clone("house", { userId: null, isPublic: true });
  await clone("alicePending", { userId: alice.id, status: "PROCESSING_IMAGES" });

  const db = app.database.db;
  lookId = (await db.outfit.create({ data: { name: "Weekend layers", source: "curated", status: "published", product_ids: [gid(2001), gid(2004), gid(2003)] } })).id;
  draftLookId = (await db.outfit.create({ data: { name: "Unpublished", source: "curated", status: "draft", product_ids: [gid(2002)] } })).id;
}, 60_000);
afterAll(() => app?.close());
beforeEach(() => {
  fake.reset();
  fake.options.fail = undefined;
  fake.options.unsupported = undefined;
  fake.options.mode = "complete";
  fake.options.progress = undefined;
});

describe("starting and rendering", () => {
  it("renders products on the caller's clone garment by garment, bottoms → tops → outerwear, each on the previous image", async () => {
    const g = await start(alice, { clone_id: clones.alice, product_ids: [gid(2001), gid(2002), "2003"] });
    expect(pair(g)).toBe("PENDING/PENDING");
    expect(g).toMatchObject({ processing_progress: 0, completed: false, image_url: null, error: null, source_outfit_id: null });
    expect(g.product_ids).toEqual([gid(2003), gid(2002), gid(2001)]);

    await drain();
    const done = await get(alice, g.id);
    expect(pair(done)).toBe("READY/COMPLETED");
    expect(done).toMatchObject({ processing_progress: 100, completed: true, error: null });
    const calls = vtonSubmits();
    expect(calls).toHaveLength(3);
    const inputs = calls.map((c) => c.input as { person_image_url: string; category: string });
    expect(inputs.map((i) => i.category)).toEqual(["bottoms", "tops", "tops"]);
    expect(inputs[0].person_image_url).toBe(personUrl);
    // Garment 2 goes onto garment 1's result, and so on; the last result is the outfit's image.
    const outputs = await app.database.db.imageAiRequest.findMany({ where: { target_type: "outfit" }, orderBy: { created_at: "asc" } });
    const urls = outputs.map((o) => (o.output as { images: { url: string }[] }).images[0].url);
    expect(inputs[1].person_image_url).toBe(urls[0]);
    expect(inputs[2].person_image_url).toBe(urls[1]);
    expect(done.image_url).toBe(urls[2]);
  });

  it("moves PENDING → PROCESSING_IMAGES/PROCESSING with progress per garment → READY/COMPLETED, as the status endpoint reads it", async () => {
    fake.options.mode = "submitted";
    fake.options.progress = [];
    const g = await start(alice, { clone_id: clones.house, product_ids: [gid(2002), gid(2003)] });
    await drain(); // garment 1 submitted to the provider
    const s0 = await statusOf(alice, `?outfit_id=${g.id}`);
    expect(s0).toMatchObject({ processing_status: "PENDING", outfit_generation_status: "PENDING", processing_progress: 0, outfit_id: g.id, completed: false });

    const req1 = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_id: `${g.id}:0:0` } });
    fake.setProgress(undefined, 50, "Rendering");
    await pollImageAiRequest(app.ctx, { requestId: req1.id });
    expect(await statusOf(alice, `?outfit_id=${g.id}`)).toMatchObject({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PROCESSING", processing_progress: 25, completed: false });

    await fake.complete();
    await pollImageAiRequest(app.ctx, { requestId: req1.id });
    const mid = await get(alice, g.id);
    expect(pair(mid)).toBe("PROCESSING_IMAGES/PROCESSING");
    expect(mid.processing_progress).toBe(50);
    expect(mid.image_url).not.toBeNull(); // the look so far

    await drain(); // garment 2 submitted
    const req2 = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_id: `${g.id}:0:1` } });
    await fake.complete();
    await pollImageAiRequest(app.ctx, { requestId: req2.id });
    const done = await statusOf(alice); // default: the caller's newest generation
    expect(done).toMatchObject({ outfit_id: g.id, processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100, completed: true });
    expect(done.image_url).toBeTruthy();
  });

  it("renders a published curated look, leaving out its products that cannot be tried on", async () => {
    const g = await start(alice, { clone_id: clones.alice, outfit_id: lookId });
    expect(g).toMatchObject({ name: "Weekend layers", source_outfit_id: lookId, product_ids: [gid(2003), gid(2001)] });
    await drain();
    expect(pair(await get(alice, g.id))).toBe("READY/COMPLETED");
  });

  it("refuses what cannot be generated: bad input 400, unknown or unpublished look 404, nothing wearable 422, clone not ready 409, no try-on provider 501", async () => {
    expect((await app.api("POST", "/outfit-generations", { body: { clone_id: clones.alice, product_ids: [gid(2002)] } })).status).toBe(401);
    await start(alice, { clone_id: clones.alice }, 400);
    await start(alice, { clone_id: clones.alice, product_ids: [] }, 400);
    await start(alice, { clone_id: clones.alice, product_ids: [1, 2, 3, 4, 5, 6, 7].map((n) => gid(3000 + n)) }, 400);
    await start(alice, { clone_id: clones.alice, outfit_id: draftLookId }, 404);
    await start(alice, { clone_id: clones.alice, outfit_id: "00000000-0000-4000-8000-000000000000" }, 404);
    const none = await start(alice, { clone_id: clones.alice, product_ids: [gid(2004), gid(9999)] }, 422);
    expect(JSON.stringify(none)).toContain("can be tried on");
    await start(alice, { clone_id: clones.alicePending, product_ids: [gid(2002)] }, 409);
    const before = await app.database.db.outfit.count({ where: { source: "generated" } });
    fake.options.unsupported = ["vton-flux"];
    await start(alice, { clone_id: clones.alice, product_ids: [gid(2002)] }, 501);
    expect(await app.database.db.outfit.count({ where: { source: "generated" } })).toBe(before);
  });
});

describe("failure and retry", () => {
  it("a provider failure is ERROR/ERROR with a clear message; retry starts a new run that completes; only a failed one can be retried", async () => {
    fake.options.fail = { message: "GPU out of memory", retryable: false };
    const g = await start(alice, { clone_id: clones.alice, product_ids: [gid(2002), gid(2003)] });
    await drain();
    const failed = await get(alice, g.id);
    expect(pair(failed)).toBe("ERROR/ERROR");
    expect(failed.completed).toBe(true);
    expect(failed.error).toBe("Could not put on Slim jeans: GPU out of memory");
    expect(await statusOf(alice, `?outfit_id=${g.id}`)).toMatchObject({ processing_status: "ERROR", completed: true, error: failed.error });

    fake.options.fail = undefined;
    const retried = await app.api("POST", `/outfit-generations/${g.id}/retry`, { token: alice.token });
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect(retried.body).toMatchObject({ processing_status: "PENDING", outfit_generation_status: "PENDING", processing_progress: 0, error: null, completed: false });
    await drain();
    expect(pair(await get(alice, g.id))).toBe("READY/COMPLETED");

    const again = await app.api("POST", `/outfit-generations/${g.id}/retry`, { token: alice.token });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("Only a failed outfit generation can be retried");
  });

  it("a late result of a run given up does not touch the retried run", async () => {
    fake.options.mode = "submitted";
    const g = await start(alice, { clone_id: clones.alice, product_ids: [gid(2002)] });
    await drain();
    const old = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_id: `${g.id}:0:0` } });
    await app.database.db.outfit.update({ where: { id: g.id }, data: { processing_status: "ERROR", outfit_generation_status: "ERROR", error: "x" } });
    expect((await app.api("POST", `/outfit-generations/${g.id}/retry`, { token: alice.token })).status).toBe(202);
    await fake.complete(fake.submitted[0]);
    await pollImageAiRequest(app.ctx, { requestId: old.id });
    const after = await get(alice, g.id);
    expect(pair(after)).toBe("PENDING/PENDING");
    expect(after.image_url).toBeNull();
  });
});

describe("reads, delete and ownership", () => {
  it("lists, gets and deletes the caller's own; another shopper gets 404, null and an empty list", async () => {
    const g = await start(alice, { clone_id: clones.alice, product_ids: [gid(2002)] });
    await drain();
    const list = await app.api("GET", "/outfit-generations?take=50", { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.outfits[0].id).toBe(g.id);
    expect(list.body.total).toBeGreaterThan(1);
    expect(list.body.outfits.every((o: Gen) => o.id !== lookId)).toBe(true); // curated looks are not generations

    expect((await app.api("GET", `/outfit-generations/${g.id}`, { token: bob.token })).status).toBe(404);
    expect((await app.api("POST", `/outfit-generations/${g.id}/retry`, { token: bob.token })).status).toBe(404);
    expect((await app.api("DELETE", `/outfit-generations/${g.id}`, { token: bob.token })).status).toBe(404);
    expect((await app.api("GET", `/outfit-generations/${lookId}`, { token: alice.token })).status).toBe(404);
    expect((await app.api("GET", "/outfit-generations/not-a-uuid", { token: alice.token })).status).toBe(404);
    expect(await statusOf(bob, `?outfit_id=${g.id}`)).toBeNull();
    expect((await app.api("GET", "/outfit-generations", { token: bob.token })).body).toEqual({ outfits: [], total: 0 });
    // Bob cannot dress Alice's private clone.
    await start(bob, { clone_id: clones.alice, product_ids: [gid(2002)] }, 404);

    const del = await app.api("DELETE", `/outfit-generations/${g.id}`, { token: alice.token });
    expect(del.body).toEqual({ deleted: true, id: g.id });
    expect((await app.api("GET", `/outfit-generations/${g.id}`, { token: alice.token })).status).toBe(404);
  });

  it("the status endpoint keeps its clone answers: clone_id reads the clone, no generation falls back to the newest clone", async () => {
    expect(await statusOf(bob, `?clone_id=${clones.bob}`)).toEqual({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 0 });
    expect(await statusOf(bob)).toMatchObject({ processing_status: "READY", outfit_generation_status: "COMPLETED" });
    expect(await statusOf(bob, "?outfit_id=nope")).toBeNull();
  });
});
