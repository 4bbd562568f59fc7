/**
 * The /fal/* endpoints served by other areas' services (clones: train-flux*, flux-profile-image;
 * try-ons: vton-flux; admin: add-product-generated-image), end to end with a fake provider:
 * 201 with the request, the worker completes it, the area's hook updates its rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, fakePng, type FakeImageAi } from "../helpers/fake-image-ai";

let app: TestApp;
let fake: FakeImageAi;
let admin: { id: string; token: string };
let shopper: { id: string; token: string };
let other: { id: string; token: string };
const photos: string[] = [];
const gid = (n: number) => `gid://shopify/Product/${n}`;

beforeAll(async () => {
  fake = createFakeImageAi();
  app = await createTestApp({ imageAi: fake });
  admin = await app.createUser({ role: "ADMIN", permissions: ["ai.train"] });
  shopper = await app.createUser();
  other = await app.createUser();
  const png = await fakePng();
  for (let i = 0; i < 4; i++) photos.push((await app.ctx.storage.put(`images/clones/test/photo-${i}.png`, png, "image/png")).url);
});
afterAll(() => app?.close());

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

async function clone(o: { userId: string | null; photos?: number; ready?: boolean; product?: boolean; isPublic?: boolean }) {
  return app.database.db.clone.create({
    data: {
      user_id: o.userId,
      name: "Clone",
      gender: "womenswear",
      baseImageUrls: photos.slice(0, o.photos ?? 4),
      isPublic: o.isPublic ?? false,
      is_product_clone: o.product ?? false,
      processing_status: o.ready ? "READY" : "PENDING",
      outfit_generation_status: o.ready ? "COMPLETED" : "PENDING",
    },
  });
}

async function product(n: number) {
  await app.database.db.product.create({
    data: {
      id: gid(n),
      title: `Generated product ${n}`,
      handle: `generated-product-${n}`,
      vendor: "Test",
      productType: "Shirts",
      availableForSale: true,
      priceMin: 10,
      priceMax: 20,
      target_gender: "both",
      status: "active",
      publishedAt: new Date(Date.now() - 86_400_000),
      featuredImageUrl: photos[0],
      images: { create: [{ url: photos[0], position: 0 }] },
    },
  });
  await app.database.db.productCompanion.create({ data: { shopify_product_id: gid(n), tryon_active: true } });
}

describe("POST /fal/train-flux (shopper) and the admin/product variants", () => {
  it("trains the caller's clone: 201 with the request and the training job; the worker completes it", async () => {
    const c = await clone({ userId: shopper.id });
    const res = await app.api("POST", "/fal/train-flux", { token: shopper.token, body: { clone_id: c.id, steps: 500 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ operation: "train-flux", status: "queued", clone_id: c.id, target_type: "clone_training" });
    expect(res.body.job_id).toBeTruthy();
    await drain();
    const req = await app.api("GET", `/fal/requests/${res.body.request_id}`, { token: shopper.token });
    expect(req.body.status).toBe("completed");
    expect(req.body.prepared).toHaveLength(4);
    expect(fake.submits.at(-1)!.input).toMatchObject({ image_urls: photos, steps: 500 });
    const job = await app.database.db.cloneTrainingJob.findUniqueOrThrow({ where: { id: res.body.job_id } });
    expect(job.status).toBe("completed");
  });

  it("another shopper's clone is not found (404); too few photos is 422", async () => {
    const c = await clone({ userId: shopper.id });
    expect((await app.api("POST", "/fal/train-flux", { token: other.token, body: { clone_id: c.id } })).status).toBe(404);
    const few = await clone({ userId: shopper.id, photos: 2 });
    expect((await app.api("POST", "/fal/train-flux", { token: shopper.token, body: { clone_id: few.id } })).status).toBe(422);
  });

  it("train-flux-admin and train-flux-product train admin clones", async () => {
    const house = await clone({ userId: null, isPublic: true });
    const a = await app.api("POST", "/fal/train-flux-admin", { token: admin.token, body: { clone_id: house.id, trigger_word: "HOUSE_1" } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.operation).toBe("train-flux-admin");
    const item = await clone({ userId: null, photos: 1, product: true });
    const p = await app.api("POST", "/fal/train-flux-product", { token: admin.token, body: { clone_id: item.id } });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect(p.body.operation).toBe("train-flux-product");
    await drain();
    expect((await app.api("GET", `/fal/requests/${a.body.request_id}`, { token: admin.token })).body).toMatchObject({ status: "completed", trigger_word: "HOUSE_1" });
  });
});

describe("POST /fal/flux-profile-image/{id}", () => {
  it("makes the profile image of the caller's clone", async () => {
    const c = await clone({ userId: shopper.id, ready: true });
    const res = await app.api("POST", `/fal/flux-profile-image/${c.id}`, { token: shopper.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ operation: "flux-profile-image", clone_id: c.id, target_type: "clone_profile" });
    await drain();
    const req = await app.api("GET", `/fal/requests/${res.body.request_id}`, { token: shopper.token });
    expect(req.body.status).toBe("completed");
    const updated = await app.database.db.clone.findUniqueOrThrow({ where: { id: c.id } });
    expect(updated.profileImageUrl).toBe(req.body.images[0].url);
  });

  it("another user's clone is not found (404)", async () => {
    const c = await clone({ userId: shopper.id, ready: true });
    expect((await app.api("POST", `/fal/flux-profile-image/${c.id}`, { token: other.token })).status).toBe(404);
  });
});

describe("POST /fal/vton-flux", () => {
  it("starts a try-on (201 with tryon_id and request_id) that the worker completes", async () => {
    await product(7001);
    const c = await clone({ userId: shopper.id, ready: true });
    const res = await app.api("POST", "/fal/vton-flux", { token: shopper.token, body: { ai_clone_id: c.id, shopify_product_id: "7001", prompt_strength: 0.6 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "queued", clone_id: c.id, product_id: gid(7001) });
    expect(res.body.tryon_id).toBe(res.body.id);
    expect(res.body.request_id).toBeTruthy();
    await drain();
    const req = await app.api("GET", `/fal/requests/${res.body.request_id}`, { token: shopper.token });
    expect(req.body).toMatchObject({ status: "completed", operation: "vton-flux", target_type: "tryon", target_id: res.body.tryon_id });
    const tryon = await app.database.db.tryOn.findUniqueOrThrow({ where: { id: res.body.tryon_id } });
    expect(tryon.status).toBe("completed");
    expect((await app.api("GET", `/fal/requests/${res.body.request_id}`, { token: other.token })).status).toBe(404);
  });

  it("another shopper's private clone is not found (404)", async () => {
    const c = await clone({ userId: other.id, ready: true });
    expect((await app.api("POST", "/fal/vton-flux", { token: shopper.token, body: { ai_clone_id: c.id, shopify_product_id: "7001" } })).status).toBe(404);
  });
});

describe("POST /fal/add-product-generated-image", () => {
  it("appends an image of ours to the product (201), unknown product 404", async () => {
    await product(7002);
    const url = (await app.ctx.storage.put("images/ai/generated-7002.png", await fakePng(), "image/png")).url;
    const res = await app.api("POST", "/fal/add-product-generated-image", { token: admin.token, body: { product_id: "7002", image_url: url } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ product_id: gid(7002), image: { position: 1 } });
    const missing = await app.api("POST", "/fal/add-product-generated-image", { token: admin.token, body: { shopify_product_id: gid(79999), image_url: url } });
    expect(missing.status).toBe(404);
  });
});

describe("the real local provider behind the router (loaded on first use)", () => {
  it("runs remove-object from a /uploads/ image and stores the result under images/ai/", async () => {
    const real = await createTestApp();
    try {
      const sharp = (await import("sharp")).default;
      const src = await sharp({ create: { width: 128, height: 128, channels: 3, background: { r: 240, g: 240, b: 240 } } })
        .composite([{ input: await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 10, g: 10, b: 10 } } }).png().toBuffer(), left: 50, top: 50 }])
        .png()
        .toBuffer();
      const { url } = await real.ctx.storage.put("images/tools/source.png", new Uint8Array(src), "image/png");
      const boss = await real.createUser({ role: "ADMIN", permissions: ["ai.train"] });
      const res = await real.api("POST", "/fal/remove-object", { token: boss.token, body: { image_url: url, box: { x: 45, y: 45, width: 30, height: 30 } } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await startWorker(real.ctx, jobHandlers, { autoStart: false }).drain();
      const done = await real.api("GET", `/fal/requests/${res.body.request_id}`, { token: boss.token });
      expect(done.body.status, JSON.stringify(done.body)).toBe("completed");
      expect(done.body.images[0].url).toMatch(/^\/uploads\/images\/ai\//);
      expect(await real.ctx.storage.get(done.body.images[0].url.replace("/uploads/", ""))).not.toBeNull();
    } finally {
      await real.close();
    }
  });
});
