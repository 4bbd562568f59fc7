/**
 * Try-ons (app/contract/tryons.ts): eligible products, basic clones, starting try-ons through the
 * image-AI queue (queued → processing → completed | failed), get-or-generate reuse, ownership
 * (a second shopper gets 404 / empty results), clone try-ons and image deletion, saved try-ons,
 * and the admin's product preparation (try-on flag, flat image, mask). Model calls go to the fake
 * image-AI provider (tests/helpers/fake-image-ai.ts); tryons-local.test.ts runs the real one.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TargetGender } from "../../app/contract/common";
import { Messages } from "../../app/contract/messages";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { pollImageAiRequest } from "../../app/services/image-ai/jobs.server";
import { tryOnCategoryOf } from "../../app/services/tryons/products.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, type FakeImageAi } from "../helpers/fake-image-ai";

const PEOPLE = path.join(__dirname, "..", "fixtures", "people");

let app: TestApp;
let fake: FakeImageAi;
type U = { id: string; token: string };
let alice: U, bob: U, guest: U, admin: U, catalogAdmin: U;
let personUrl: string;
let garmentUrl: string;
const clones: Record<string, string> = {};
const gid = (n: number) => `gid://shopify/Product/${n}`;

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

async function garmentJpeg(): Promise<Uint8Array> {
  const rect = await sharp({ create: { width: 200, height: 300, channels: 3, background: { r: 200, g: 30, b: 40 } } }).png().toBuffer();
  return new Uint8Array(
    await sharp({ create: { width: 400, height: 500, channels: 3, background: { r: 255, g: 255, b: 255 } } })
      .composite([{ input: rect, left: 100, top: 100 }])
      .jpeg({ quality: 95 })
      .toBuffer(),
  );
}

async function product(
  n: number,
  o: {
    title?: string;
    type?: string;
    gender?: TargetGender;
    status?: "active" | "draft";
    tryon?: boolean | null;
    image?: boolean;
    flat?: string | null;
    createdAt?: Date;
  } = {},
) {
  const db = app.database.db;
  await db.product.create({
    data: {
      id: gid(n),
      title: o.title ?? `Try-on product ${n}`,
      handle: `tryon-product-${n}`,
      vendor: "Test",
      productType: o.type ?? "Shirts",
      availableForSale: true,
      priceMin: 10,
      priceMax: 20,
      target_gender: o.gender ?? "both",
      status: o.status ?? "active",
      publishedAt: new Date(Date.now() - 86_400_000),
      created_at: o.createdAt ?? new Date(Date.now() - 1000 * (10_000 - n)),
      featuredImageUrl: o.image === false ? null : garmentUrl,
      ...(o.image === false ? {} : { images: { create: [{ url: garmentUrl, position: 0 }] } }),
    },
  });
  if (o.tryon !== null) {
    await db.productCompanion.create({ data: { shopify_product_id: gid(n), tryon_active: o.tryon ?? true, flat_image_url: o.flat ?? null } });
  }
}

async function clone(key: string, o: { userId: string | null; status?: "READY" | "PENDING" | "ERROR" | "PROCESSING_IMAGES"; isPublic?: boolean; gender?: string }) {
  const c = await app.database.db.clone.create({
    data: {
      user_id: o.userId,
      name: `Clone ${key}`,
      gender: o.gender ?? "womenswear",
      baseImageUrls: [personUrl],
      isPublic: o.isPublic ?? false,
      processing_status: o.status ?? "READY",
      outfit_generation_status: o.status === "READY" || !o.status ? "COMPLETED" : "PENDING",
    },
  });
  clones[key] = c.id;
  return c.id;
}

const body = (cloneKey: string, productN: number, extra: Record<string, unknown> = {}) => ({ ai_clone_id: clones[cloneKey], shopify_product_id: gid(productN), ...extra });

async function startTryOn(user: U, cloneKey: string, productN: number, extra: Record<string, unknown> = {}) {
  const r = await app.api("POST", "/try-ons", { token: user.token, body: body(cloneKey, productN, extra) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; status: string };
}

beforeAll(async () => {
  fake = createFakeImageAi();
  app = await createTestApp({ imageAi: fake });
  alice = await app.createUser();
  bob = await app.createUser();
  guest = await app.createUser({ authProvider: "guest" });
  admin = await app.createUser({ role: "ADMIN", permissions: ["ai.train"] });
  catalogAdmin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });

  personUrl = (await app.ctx.storage.put("images/clones/test/person-1.jpg", new Uint8Array(fs.readFileSync(path.join(PEOPLE, "person-1.jpg"))), "image/jpeg")).url;
  garmentUrl = (await app.ctx.storage.put("images/test/garment.jpg", await garmentJpeg(), "image/jpeg")).url;
  const flatUrl = (await app.ctx.storage.put("images/test/dress-flat.jpg", await garmentJpeg(), "image/jpeg")).url;

  await product(1001, { title: "Linen shirt", type: "Shirts", gender: "womenswear" });
  await product(1002, { title: "Slim jeans", type: "Jeans", gender: "menswear" });
  await product(1003, { title: "Summer dress", type: "Dresses", gender: "both", flat: flatUrl });
  await product(1004, { title: "Not for try-on", tryon: false });
  await product(1005, { title: "Draft", status: "draft" });
  await product(1006, { title: "No image", image: false });
  await product(1007, { title: "No companion", tryon: null });
  await product(1008, { title: "Prep target", tryon: false });
  await product(1009, { title: "Flat and mask", tryon: true });

  await clone("alice", { userId: alice.id });
  await clone("alicePending", { userId: alice.id, status: "PROCESSING_IMAGES" });
  await clone("aliceError", { userId: alice.id, status: "ERROR" });
  await clone("bob", { userId: bob.id });
  await clone("house", { userId: null, isPublic: true, gender: "menswear" });
  await clone("housePending", { userId: null, isPublic: true, status: "PENDING" });
}, 60_000);
afterAll(() => app?.close());
beforeEach(() => {
  fake.reset();
  fake.options.fail = undefined;
  fake.options.unsupported = undefined;
  fake.options.mode = undefined;
  fake.options.output = undefined;
});

describe("GET /try-ons/eligible-products", () => {
  it("lists visible products with try-on active and a garment image, newest first", async () => {
    const r = await app.api("GET", "/try-ons/eligible-products");
    expect(r.status).toBe(200);
    const ids = r.body.products.map((p: { id: string }) => p.id);
    expect(ids).toEqual([gid(1009), gid(1003), gid(1002), gid(1001)]);
    expect(r.body).toMatchObject({ total: 4, limit: 40, offset: 0 });
    const dress = r.body.products.find((p: { id: string }) => p.id === gid(1003));
    expect(dress.garment_image_url).toMatch(/dress-flat\.jpg$/);
    expect(dress.tryon_category).toBe("one-pieces");
    expect(r.body.products.find((p: { id: string }) => p.id === gid(1002)).tryon_category).toBe("bottoms");
    expect(r.body.products.find((p: { id: string }) => p.id === gid(1001))).toMatchObject({ tryon_category: "tops", garment_image_url: garmentUrl, title: "Linen shirt" });
  });

  it("filters by target gender (products for both included) and pages with limit/offset", async () => {
    const men = await app.api("GET", "/try-ons/eligible-products", { query: { target_gender: "menswear" } });
    expect(men.body.products.map((p: { id: string }) => p.id)).toEqual([gid(1009), gid(1003), gid(1002)]);
    const page = await app.api("GET", "/try-ons/eligible-products", { query: { limit: 1, offset: 1 } });
    expect(page.body.products.map((p: { id: string }) => p.id)).toEqual([gid(1003)]);
    expect(page.body.total).toBe(4);
  });

  it("rejects bad paging and genders", async () => {
    expect((await app.api("GET", "/try-ons/eligible-products", { query: { limit: 0 } })).status).toBe(400);
    expect((await app.api("GET", "/try-ons/eligible-products", { query: { target_gender: "kids" } })).status).toBe(400);
  });

  it("maps product types to the port's garment categories", () => {
    expect(tryOnCategoryOf({ productType: "Trousers" })).toBe("bottoms");
    expect(tryOnCategoryOf({ productType: "Shorts" })).toBe("bottoms");
    expect(tryOnCategoryOf({ productType: "Skirt" })).toBe("bottoms");
    expect(tryOnCategoryOf({ productType: "Dress" })).toBe("one-pieces");
    expect(tryOnCategoryOf({ productType: "Jumpsuits" })).toBe("one-pieces");
    expect(tryOnCategoryOf({ productType: "", title: "Wide-leg jeans" })).toBe("bottoms");
    expect(tryOnCategoryOf({ productType: "Hoodies" })).toBe("tops");
  });
});

describe("GET /try-ons/basic-clones", () => {
  it("lists ready public clones only", async () => {
    const r = await app.api("GET", "/try-ons/basic-clones");
    expect(r.status).toBe(200);
    expect(r.body.clones.map((c: { id: string }) => c.id)).toEqual([clones.house]);
    expect(r.body.clones[0]).toMatchObject({ isPublic: true, previewImageUrl: personUrl, gender: "menswear" });
    const women = await app.api("GET", "/try-ons/basic-clones", { query: { gender: "womenswear" } });
    expect(women.body.clones).toEqual([]);
  });

  it("rejects a bad limit", async () => {
    expect((await app.api("GET", "/try-ons/basic-clones", { query: { limit: 1000 } })).status).toBe(400);
  });
});

describe("POST /try-ons", () => {
  it("starts a try-on (queued), then the worker completes it with a generated image", async () => {
    const r = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1001) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      user_id: alice.id,
      clone_id: clones.alice,
      product_id: gid(1001),
      status: "queued",
      progress: 0,
      generated_images: [],
      enable_add_details: true,
      prompt_strength: 0.85,
      product: { id: gid(1001), title: "Linen shirt" },
      clone: { id: clones.alice, name: "Clone alice" },
    });
    expect(r.body.request_id).toEqual(expect.any(String));

    expect(await drain()).toBeGreaterThan(0);
    expect(fake.submits).toHaveLength(1);
    expect(fake.submits[0].op).toBe("vton-flux");
    expect(fake.submits[0].input).toMatchObject({ person_image_url: personUrl, garment_image_url: garmentUrl, category: "tops", enable_add_details: true, prompt_strength: 0.85 });

    const done = await app.api("GET", `/try-ons/${r.body.id}`, { token: alice.token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "completed", progress: 100, error: null });
    expect(done.body.completed_at).toEqual(expect.any(String));
    expect(done.body.generated_images).toHaveLength(1);
    const url = done.body.generated_images[0].image_url as string;
    expect(url).toMatch(/^\/uploads\/images\//);
    expect(fs.existsSync(storedFile(url))).toBe(true);
    const rows = await app.database.db.generatedImage.findMany({ where: { tryon_id: r.body.id } });
    expect(rows.map((g) => g.kind)).toEqual(["tryon"]);
  });

  it("uses the flat image and the category of the product", async () => {
    await startTryOn(alice, "alice", 1003, { enable_add_details: false, prompt_strength: 0.5 });
    await startTryOn(alice, "alice", 1002);
    await drain();
    expect(fake.submits.map((s) => s.input)).toEqual([
      expect.objectContaining({ garment_image_url: expect.stringMatching(/dress-flat\.jpg$/), category: "one-pieces", enable_add_details: false, prompt_strength: 0.5 }),
      expect.objectContaining({ garment_image_url: garmentUrl, category: "bottoms" }),
    ]);
  });

  it("lets anyone signed in, guests included, use a public clone", async () => {
    const t = await startTryOn(guest, "house", 1001);
    expect(t).toMatchObject({ user_id: guest.id, clone_id: clones.house });
    const b = await startTryOn(bob, "house", 1001);
    expect(b.id).not.toBe(t.id);
  });

  it("refuses clones that are not usable or not ready", async () => {
    const bobs = await app.api("POST", "/try-ons", { token: alice.token, body: body("bob", 1001) });
    expect(bobs.status).toBe(404);
    expect(bobs.body.error.message).toBe("Clone not found");
    const unknown = await app.api("POST", "/try-ons", { token: alice.token, body: { ai_clone_id: "00000000-0000-4000-8000-000000000000", shopify_product_id: gid(1001) } });
    expect(unknown.status).toBe(404);
    const pending = await app.api("POST", "/try-ons", { token: alice.token, body: body("alicePending", 1001) });
    expect(pending.status).toBe(409);
    expect(pending.body.error.message).toBe("This clone is still being prepared");
    const housePending = await app.api("POST", "/try-ons", { token: alice.token, body: body("housePending", 1001) });
    expect(housePending.status).toBe(409);
    const failed = await app.api("POST", "/try-ons", { token: alice.token, body: body("aliceError", 1001) });
    expect(failed.status).toBe(409);
    expect(failed.body.error.message).toMatch(/training failed/);
  });

  it("refuses products that cannot be tried on", async () => {
    const inactive = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1004) });
    expect(inactive.status).toBe(422);
    expect(inactive.body.error.message).toBe("This product is not available for try-on");
    const draft = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1005) });
    expect(draft.status).toBe(404);
    expect(draft.body.error.message).toBe("Product not found");
    const noImage = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1006) });
    expect(noImage.status).toBe(422);
    expect(noImage.body.error.message).toMatch(/no garment image/);
    const noCompanion = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1007) });
    expect(noCompanion.status).toBe(422);
    expect(fake.submits).toHaveLength(0);
  });

  it("validates the request and needs a session", async () => {
    const noProduct = await app.api("POST", "/try-ons", { token: alice.token, body: { ai_clone_id: clones.alice } });
    expect(noProduct.status).toBe(400);
    expect(noProduct.body.error.message).toBe(Messages.NO_PRODUCT_ID);
    const noClone = await app.api("POST", "/try-ons", { token: alice.token, body: { shopify_product_id: gid(1001) } });
    expect(noClone.status).toBe(400);
    expect(noClone.body.error.message).toMatch(/ai_clone_id is required/);
    const strength = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1001, { prompt_strength: 2 }) });
    expect(strength.status).toBe(400);
    const anonymous = await app.api("POST", "/try-ons", { body: body("alice", 1001) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe(Messages.USER_NOT_AUTHENTICATED);
  });

  it("accepts a bare numeric product id", async () => {
    const r = await app.api("POST", "/try-ons", { token: alice.token, body: { ai_clone_id: clones.alice, shopify_product_id: "1001" } });
    expect(r.status).toBe(201);
    expect(r.body.product_id).toBe(gid(1001));
  });

  it("answers 501 (naming fal) when the provider cannot do try-ons, leaving no try-on behind", async () => {
    fake.options.unsupported = ["vton-flux"];
    const before = await app.database.db.tryOn.count();
    const r = await app.api("POST", "/try-ons", { token: alice.token, body: body("alice", 1001) });
    expect(r.status).toBe(501);
    expect(r.body.error.message).toMatch(/fal/);
    expect(await app.database.db.tryOn.count()).toBe(before);
  });
});

describe("try-on states", () => {
  it("goes queued → processing → completed with a provider that answers later", async () => {
    fake.options.mode = "submitted";
    const t = await startTryOn(alice, "alice", 1009);
    expect(t.status).toBe("queued");
    await drain();
    const running = await app.api("GET", `/try-ons/${t.id}`, { token: alice.token });
    expect(running.body).toMatchObject({ status: "processing", progress: 50, generated_images: [] });

    await fake.complete();
    const request = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_type: "tryon", target_id: t.id } });
    expect(running.body.request_id).toBe(request.id);
    await pollImageAiRequest(app.ctx, { requestId: request.id, attempt: 0 });
    const done = await app.api("GET", `/try-ons/${t.id}`, { token: alice.token });
    expect(done.body).toMatchObject({ status: "completed", progress: 100 });
    expect(done.body.generated_images).toHaveLength(1);
  });

  it("goes to failed with the provider's error", async () => {
    fake.options.mode = "submitted";
    const t = await startTryOn(alice, "alice", 1009, { prompt_strength: 0.3 });
    await drain();
    fake.failRequest(undefined, "The model could not find the person");
    const request = await app.database.db.imageAiRequest.findFirstOrThrow({ where: { target_type: "tryon", target_id: t.id } });
    await pollImageAiRequest(app.ctx, { requestId: request.id, attempt: 0 });
    const failed = await app.api("GET", `/try-ons/${t.id}`, { token: alice.token });
    expect(failed.body).toMatchObject({ status: "failed", error: "The model could not find the person", generated_images: [] });
  });

  it("fails when the provider fails at submit", async () => {
    fake.options.fail = { message: "GPU out of memory", retryable: false };
    const t = await startTryOn(alice, "alice", 1009, { prompt_strength: 0.31 });
    await drain();
    const failed = await app.api("GET", `/try-ons/${t.id}`, { token: alice.token });
    expect(failed.body.status).toBe("failed");
    expect(failed.body.error).toMatch(/GPU out of memory/);
  });
});

describe("POST /vton/get-or-generate, POST /vton/generate, GET /vton", () => {
  it("answers the same try-on for the same inputs (default prompt strength included)", async () => {
    const a = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1002, { prompt_strength: 0.6 }) });
    expect(a.status).toBe(200);
    const again = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1002, { prompt_strength: 0.6, enable_add_details: true }) });
    expect(again.body.id).toBe(a.body.id);
    expect(fake.submits).toHaveLength(0); // not run yet: only one request queued
    const other = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1002, { prompt_strength: 0.7 }) });
    expect(other.body.id).not.toBe(a.body.id);
    await drain();
    expect(fake.submits).toHaveLength(2);

    const d1 = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1001, { enable_add_details: false }) });
    const d2 = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1001, { enable_add_details: false, prompt_strength: 0.85 }) });
    expect(d2.body.id).toBe(d1.body.id);
  });

  it("starts a new one after a failure, and /vton/generate always starts a new one", async () => {
    fake.options.fail = { message: "boom" };
    const first = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1003, { prompt_strength: 0.2 }) });
    await drain();
    expect((await app.api("GET", `/try-ons/${first.body.id}`, { token: alice.token })).body.status).toBe("failed");
    fake.options.fail = undefined;
    const retry = await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1003, { prompt_strength: 0.2 }) });
    expect(retry.status).toBe(200);
    expect(retry.body.id).not.toBe(first.body.id);
    expect(retry.body.status).toBe("queued");
    await drain();

    const forced = await app.api("POST", "/vton/generate", { token: alice.token, body: body("alice", 1003, { prompt_strength: 0.2 }) });
    expect(forced.status).toBe(201);
    expect(forced.body.id).not.toBe(retry.body.id);
    // The other shopper's identical request never reuses Alice's try-on.
    const bobs = await app.api("POST", "/vton/get-or-generate", { token: bob.token, body: body("house", 1003, { prompt_strength: 0.2 }) });
    expect(bobs.body.user_id).toBe(bob.id);
  });

  it("GET /vton reads the latest try-on for a clone and product, null when none", async () => {
    const forced = await app.api("POST", "/vton/generate", { token: alice.token, body: body("alice", 1001, { prompt_strength: 0.11 }) });
    const latest = await app.api("GET", "/vton", { token: alice.token, query: { ai_clone_id: clones.alice, shopify_product_id: gid(1001) } });
    expect(latest.status).toBe(200);
    expect(latest.body.id).toBe(forced.body.id);
    const none = await app.api("GET", "/vton", { token: alice.token, query: { ai_clone_id: clones.alice, shopify_product_id: gid(1004) } });
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
    const bobs = await app.api("GET", "/vton", { token: bob.token, query: { ai_clone_id: clones.alice, shopify_product_id: gid(1001) } });
    expect(bobs.body).toBeNull();
    const missing = await app.api("GET", "/vton", { token: alice.token, query: { ai_clone_id: clones.alice } });
    expect(missing.status).toBe(400);
    expect((await app.api("GET", "/vton", { query: { ai_clone_id: clones.alice, shopify_product_id: gid(1001) } })).status).toBe(401);
  });

  it("identical calls at the same instant (2, then 5) start one try-on, and every answer names it and its image request", async () => {
    const db = app.database.db;
    for (const [n, strength] of [
      [2, 0.61],
      [5, 0.62],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: n }, () => app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("alice", 1009, { prompt_strength: strength }) })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
      const rows = await db.tryOn.findMany({ where: { user_id: alice.id, product_id: gid(1009), prompt_strength: strength } });
      expect(rows).toHaveLength(1);
      expect(new Set(answers.map((a) => a.body.id))).toEqual(new Set([rows[0].id]));
      const requests = await db.imageAiRequest.findMany({ where: { target_type: "tryon", target_id: rows[0].id } });
      expect(requests).toHaveLength(1);
      // Every answer names the image request too: a waiting call answers once the first has started it.
      expect(answers.map((a) => a.body.request_id)).toEqual(Array(n).fill(requests[0].id));
    }
    // The same race on a public clone by two shoppers gives each their own (one each).
    const both = await Promise.all(
      [alice, bob, alice, bob].map((u) => app.api("POST", "/vton/get-or-generate", { token: u.token, body: body("house", 1009, { prompt_strength: 0.63 }) })),
    );
    expect(both.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(both[0].body.id).toBe(both[2].body.id);
    expect(both[1].body.id).toBe(both[3].body.id);
    expect(both[0].body.id).not.toBe(both[1].body.id);
    expect(await db.tryOn.count({ where: { clone_id: clones.house, product_id: gid(1009), prompt_strength: 0.63 } })).toBe(2);
    await drain();
    const ours = fake.submits.filter((s) => s.op === "vton-flux" && [0.61, 0.62, 0.63].includes((s.input as { prompt_strength: number }).prompt_strength));
    expect(ours).toHaveLength(4);
  });

  it("refuses what POST /try-ons refuses", async () => {
    expect((await app.api("POST", "/vton/get-or-generate", { token: alice.token, body: body("bob", 1001) })).status).toBe(404);
    expect((await app.api("POST", "/vton/generate", { token: alice.token, body: body("alice", 1004) })).status).toBe(422);
    expect((await app.api("POST", "/vton/generate", { body: body("alice", 1001) })).status).toBe(401);
  });
});

describe("GET /try-ons/{id}, POST /try-ons/batch, GET /try-ons/user", () => {
  let aliceIds: string[] = [];
  let bobId = "";
  beforeAll(async () => {
    aliceIds = [];
    for (const n of [1001, 1002, 1003]) aliceIds.push((await startTryOn(alice, "alice", n, { prompt_strength: 0.42 })).id);
    bobId = (await startTryOn(bob, "bob", 1001)).id;
    await drain();
  });

  it("reads one's own try-on; another shopper's or an unknown one is 404", async () => {
    expect((await app.api("GET", `/try-ons/${aliceIds[0]}`, { token: alice.token })).status).toBe(200);
    const bobs = await app.api("GET", `/try-ons/${aliceIds[0]}`, { token: bob.token });
    expect(bobs.status).toBe(404);
    expect(bobs.body.error.message).toBe("Try-on not found");
    expect((await app.api("GET", "/try-ons/00000000-0000-4000-8000-000000000000", { token: alice.token })).status).toBe(404);
    expect((await app.api("GET", "/try-ons/not-a-uuid", { token: alice.token })).status).toBe(404);
    expect((await app.api("GET", `/try-ons/${aliceIds[0]}`)).status).toBe(401);
  });

  it("batch answers only the caller's try-ons, in the order asked", async () => {
    const r = await app.api("POST", "/try-ons/batch", { token: alice.token, body: { ids: [aliceIds[2], bobId, "unknown", aliceIds[0]] } });
    expect(r.status).toBe(200);
    expect(r.body.map((t: { id: string }) => t.id)).toEqual([aliceIds[2], aliceIds[0]]);
    expect((await app.api("POST", "/try-ons/batch", { token: alice.token, body: { ids: [] } })).body).toEqual([]);
    const tooMany = await app.api("POST", "/try-ons/batch", { token: alice.token, body: { ids: Array.from({ length: 51 }, (_, i) => `id-${i}`) } });
    expect(tooMany.status).toBe(400);
    expect((await app.api("POST", "/try-ons/batch", { token: alice.token, body: {} })).status).toBe(400);
    expect((await app.api("POST", "/try-ons/batch", { body: { ids: [aliceIds[0]] } })).status).toBe(401);
  });

  it("lists the caller's try-ons newest first with skip and take (10 by default)", async () => {
    const all = await app.api("GET", "/try-ons/user", { token: alice.token, query: { take: 100 } });
    expect(all.status).toBe(200);
    const total = await app.database.db.tryOn.count({ where: { user_id: alice.id } });
    expect(all.body.total).toBe(total);
    expect(all.body.tryons.every((t: { user_id: string }) => t.user_id === alice.id)).toBe(true);
    const times = all.body.tryons.map((t: { created_at: string }) => t.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = await app.api("GET", "/try-ons/user", { token: alice.token });
    expect(first.body.tryons).toHaveLength(Math.min(10, total));
    const page = await app.api("GET", "/try-ons/user", { token: alice.token, query: { skip: 1, take: 2 } });
    expect(page.body.tryons.map((t: { id: string }) => t.id)).toEqual(all.body.tryons.slice(1, 3).map((t: { id: string }) => t.id));
    const bobs = await app.api("GET", "/try-ons/user", { token: bob.token, query: { take: 100 } });
    expect(bobs.body.tryons.map((t: { id: string }) => t.id)).not.toContain(aliceIds[0]);
    expect((await app.api("GET", "/try-ons/user", { token: alice.token, query: { take: 0 } })).status).toBe(400);
    expect((await app.api("GET", "/try-ons/user")).status).toBe(401);
  });
});

describe("GET and DELETE /clones/{id}/tryons", () => {
  it("lists the caller's try-ons on a clone (own or public); others' clones are 404", async () => {
    const mine = await startTryOn(alice, "house", 1002, { prompt_strength: 0.77 });
    await startTryOn(bob, "house", 1002, { prompt_strength: 0.77 });
    await drain();
    const r = await app.api("GET", `/clones/${clones.house}/tryons`, { token: alice.token });
    expect(r.status).toBe(200);
    expect(r.body.tryons.every((t: { user_id: string; clone_id: string }) => t.user_id === alice.id && t.clone_id === clones.house)).toBe(true);
    expect(r.body.tryons.map((t: { id: string }) => t.id)).toContain(mine.id);
    const own = await app.api("GET", `/clones/${clones.alice}/tryons`, { token: alice.token, query: { take: 2 } });
    expect(own.body.tryons).toHaveLength(2);
    expect(own.body.total).toBeGreaterThan(2);
    const bobs = await app.api("GET", `/clones/${clones.alice}/tryons`, { token: bob.token });
    expect(bobs.status).toBe(404);
    expect(bobs.body.error.message).toBe("Clone not found");
    expect((await app.api("GET", `/clones/${clones.alice}/tryons`)).status).toBe(401);
  });

  it("deletes one generated image; the try-on goes when its last image goes", async () => {
    fake.options.output = async (_op, _input, opts) => {
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#00f" } }).png().toBuffer();
      const a = await app.ctx.storage.put(`images/ai/two-${opts.requestId}-a.png`, new Uint8Array(png), "image/png");
      const b = await app.ctx.storage.put(`images/ai/two-${opts.requestId}-b.png`, new Uint8Array(png), "image/png");
      return { images: [{ url: a.url }, { url: b.url }] };
    };
    const t = await startTryOn(alice, "alice", 1009, { prompt_strength: 0.99 });
    await drain();
    const images = (await app.api("GET", `/try-ons/${t.id}`, { token: alice.token })).body.generated_images as { image_url: string }[];
    expect(images).toHaveLength(2);
    await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: t.id } });

    // Bob cannot delete Alice's image, through her clone or his own.
    expect((await app.api("DELETE", `/clones/${clones.alice}/tryons`, { token: bob.token, query: { imageUrl: images[0].image_url } })).status).toBe(404);
    expect((await app.api("DELETE", `/clones/${clones.bob}/tryons`, { token: bob.token, query: { imageUrl: images[0].image_url } })).status).toBe(404);

    const one = await app.api("DELETE", `/clones/${clones.alice}/tryons`, { token: alice.token, query: { imageUrl: images[0].image_url } });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ deleted: true, image_url: images[0].image_url, tryon_id: t.id, tryon_deleted: false });
    expect(fs.existsSync(storedFile(images[0].image_url))).toBe(false);
    expect((await app.api("GET", `/try-ons/${t.id}`, { token: alice.token })).body.generated_images).toHaveLength(1);

    const last = await app.api("DELETE", `/clones/${clones.alice}/tryons`, { token: alice.token, body: { imageUrl: images[1].image_url } });
    expect(last.body).toMatchObject({ tryon_deleted: true });
    expect((await app.api("GET", `/try-ons/${t.id}`, { token: alice.token })).status).toBe(404);
    expect(await app.database.db.savedTryOn.count({ where: { tryon_id: t.id } })).toBe(0);

    const again = await app.api("DELETE", `/clones/${clones.alice}/tryons`, { token: alice.token, query: { imageUrl: images[1].image_url } });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe("Try-on image not found");
    const missing = await app.api("DELETE", `/clones/${clones.alice}/tryons`, { token: alice.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("imageUrl is required");
    expect((await app.api("DELETE", `/clones/${clones.alice}/tryons`, { query: { imageUrl: "x" } })).status).toBe(401);
  });
});

describe("saved try-ons", () => {
  let t1 = "";
  let t2 = "";
  let bobT = "";
  beforeAll(async () => {
    t1 = (await startTryOn(alice, "alice", 1001, { prompt_strength: 0.12 })).id;
    t2 = (await startTryOn(alice, "alice", 1002, { prompt_strength: 0.12 })).id;
    bobT = (await startTryOn(bob, "bob", 1002)).id;
    await drain();
  });

  it("toggles, sets a desired state, lists newest first with cursor pages, and checks", async () => {
    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: t1 } })).body).toEqual({ tryon_id: t1, saved: true });
    await new Promise((r) => setTimeout(r, 5));
    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: t2, saved: true } })).body).toEqual({ tryon_id: t2, saved: true });
    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: t2, saved: true } })).body.saved).toBe(true);

    const list = await app.api("GET", "/users/saved-tryons", { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { tryon_id: string }) => i.tryon_id)).toEqual([t2, t1]);
    expect(list.body.items[0].tryon).toMatchObject({ id: t2, status: "completed", product: { id: gid(1002) } });
    expect(list.body.nextCursor).toBeNull();
    const p1 = await app.api("GET", "/users/saved-tryons", { token: alice.token, query: { limit: 1 } });
    expect(p1.body.items.map((i: { tryon_id: string }) => i.tryon_id)).toEqual([t2]);
    const p2 = await app.api("GET", "/users/saved-tryons", { token: alice.token, query: { limit: 1, cursor: p1.body.nextCursor } });
    expect(p2.body.items.map((i: { tryon_id: string }) => i.tryon_id)).toEqual([t1]);

    const check = await app.api("GET", "/users/saved-tryons/check", { token: alice.token, query: { ids: `${t1},${bobT},nope` } });
    expect(check.body).toEqual({ saved: [t1] });

    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: t1 } })).body).toEqual({ tryon_id: t1, saved: false });
    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: t1, saved: false } })).body.saved).toBe(false);
    expect((await app.api("GET", "/users/saved-tryons/check", { token: alice.token, query: { ids: t1 } })).body).toEqual({ saved: [] });
  });

  it("never saves another shopper's try-on, and lists stay per shopper", async () => {
    const r = await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: { tryon_id: bobT } });
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("Try-on not found");
    expect((await app.api("GET", "/users/saved-tryons", { token: bob.token })).body.items).toEqual([]);
    expect((await app.api("GET", "/users/saved-tryons/check", { token: bob.token, query: { ids: t2 } })).body).toEqual({ saved: [] });
  });

  it("lets guests save their own try-ons", async () => {
    const t = await startTryOn(guest, "house", 1002, { prompt_strength: 0.13 });
    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: guest.token, body: { tryon_id: t.id } })).body.saved).toBe(true);
  });

  it("requires an authenticated user (User is not authenticated) and validates input", async () => {
    for (const [method, p, opts] of [
      ["GET", "/users/saved-tryons", {}],
      ["POST", "/users/saved-tryons/toggle", { body: { tryon_id: t1 } }],
      ["GET", "/users/saved-tryons/check", { query: { ids: t1 } }],
    ] as const) {
      const r = await app.api(method, p, opts);
      expect(r.status).toBe(401);
      expect(r.body.error.message).toBe(Messages.USER_NOT_AUTHENTICATED);
    }
    expect((await app.api("POST", "/users/saved-tryons/toggle", { token: alice.token, body: {} })).status).toBe(400);
    expect((await app.api("GET", "/users/saved-tryons", { token: alice.token, query: { cursor: "garbage" } })).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `id${i}`).join(",");
    expect((await app.api("GET", "/users/saved-tryons/check", { token: alice.token, query: { ids: many } })).status).toBe(400);
  });
});

describe("admin: try-on preparation", () => {
  it("PATCH /try-ons/companion-status turns try-on on (creating the companion) and off", async () => {
    const on = await app.api("PATCH", "/try-ons/companion-status", { token: admin.token, body: { product_id: gid(1007), tryon_active: true } });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ product_id: gid(1007), tryon_active: true, flat_image_url: null, mask_image_url: null, garment_image_url: garmentUrl, tryon_category: "tops" });
    const listed = await app.api("GET", "/try-ons/eligible-products", { query: { limit: 100 } });
    expect(listed.body.products.map((p: { id: string }) => p.id)).toContain(gid(1007));
    const off = await app.api("PATCH", "/try-ons/companion-status", { token: admin.token, body: { product_id: "1007", tryon_active: false } });
    expect(off.body.tryon_active).toBe(false);
    const after = await app.api("GET", "/try-ons/eligible-products", { query: { limit: 100 } });
    expect(after.body.products.map((p: { id: string }) => p.id)).not.toContain(gid(1007));
  });

  it("refuses turning on a product without a garment image, unknown products, and non-admins", async () => {
    const noImage = await app.api("PATCH", "/try-ons/companion-status", { token: admin.token, body: { product_id: gid(1006), tryon_active: true } });
    expect(noImage.status).toBe(422);
    const unknown = await app.api("PATCH", "/try-ons/companion-status", { token: admin.token, body: { product_id: gid(999_999), tryon_active: true } });
    expect(unknown.status).toBe(404);
    const bad = await app.api("PATCH", "/try-ons/companion-status", { token: admin.token, body: { product_id: gid(1007) } });
    expect(bad.status).toBe(400);
    expect((await app.api("PATCH", "/try-ons/companion-status", { token: alice.token, body: { product_id: gid(1007), tryon_active: true } })).status).toBe(403);
    expect((await app.api("PATCH", "/try-ons/companion-status", { token: catalogAdmin.token, body: { product_id: gid(1007), tryon_active: true } })).status).toBe(403);
    expect((await app.api("PATCH", "/try-ons/companion-status", { body: { product_id: gid(1007), tryon_active: true } })).status).toBe(401);
  });

  it("POST /try-ons/process-flat-image makes the flat image in the background and stores it", async () => {
    const r = await app.api("POST", "/try-ons/process-flat-image", { token: admin.token, body: { product_id: gid(1008) } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ product_id: gid(1008), flat_image_url: null, request_status: "queued" });
    await drain();
    const shots = fake.submits.filter((c) => c.op === "generate-flux-product-shot");
    expect(shots).toHaveLength(1);
    expect(shots[0]).toMatchObject({ input: { image_url: garmentUrl, background_color: "#FFFFFF" } });
    const companion = await app.database.db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: gid(1008) } });
    expect(companion.flat_image_url).toMatch(/^\/uploads\/images\//);
    const request = await app.database.db.imageAiRequest.findUniqueOrThrow({ where: { id: r.body.request_id } });
    expect(request.status).toBe("completed");
    // No try-on row was touched by the product request.
    expect(await app.database.db.tryOn.count({ where: { product_id: gid(1008) } })).toBe(0);
  });

  it("process-flat-image refuses products without an image, unknown ones and non-admins", async () => {
    expect((await app.api("POST", "/try-ons/process-flat-image", { token: admin.token, body: { product_id: gid(1006) } })).status).toBe(422);
    expect((await app.api("POST", "/try-ons/process-flat-image", { token: admin.token, body: { product_id: gid(999_998) } })).status).toBe(404);
    expect((await app.api("POST", "/try-ons/process-flat-image", { token: admin.token, body: {} })).status).toBe(400);
    expect((await app.api("POST", "/try-ons/process-flat-image", { token: bob.token, body: { product_id: gid(1008) } })).status).toBe(403);
    fake.options.unsupported = ["generate-flux-product-shot"];
    expect((await app.api("POST", "/try-ons/process-flat-image", { token: admin.token, body: { product_id: gid(1008) } })).status).toBe(501);
  });

  it("POST /try-ons/process-mask-image derives the garment mask from the flat image", async () => {
    const none = await app.api("POST", "/try-ons/process-mask-image", { token: admin.token, body: { product_id: gid(1009) } });
    expect(none.status).toBe(409);
    expect(none.body.error.message).toMatch(/no flat image/);

    const flat = (await app.ctx.storage.put("images/test/flat-1009.jpg", await garmentJpeg(), "image/jpeg")).url;
    await app.database.db.productCompanion.update({ where: { shopify_product_id: gid(1009) }, data: { flat_image_url: flat } });
    const r = await app.api("POST", "/try-ons/process-mask-image", { token: admin.token, body: { product_id: gid(1009) } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ product_id: gid(1009), flat_image_url: flat, garment_image_url: flat });
    expect(r.body.mask_image_url).toMatch(/^\/uploads\/images\/tryon\/masks\/.+\.png$/);
    const { data, info } = await sharp(fs.readFileSync(storedFile(r.body.mask_image_url))).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([400, 500]);
    const px = (x: number, y: number) => data[y * info.width + x];
    expect(px(200, 250)).toBe(255); // the garment
    expect(px(10, 10)).toBe(0); // the background
    expect(px(390, 490)).toBe(0);

    expect((await app.api("POST", "/try-ons/process-mask-image", { token: alice.token, body: { product_id: gid(1009) } })).status).toBe(403);
    expect((await app.api("POST", "/try-ons/process-mask-image", { token: admin.token, body: { product_id: gid(999_997) } })).status).toBe(404);
  });

  it("DELETE /try-ons/remove-image-type clears the mask or the flat image (body or query)", async () => {
    const mask = await app.api("DELETE", "/try-ons/remove-image-type", { token: admin.token, body: { product_id: gid(1009), type: "mask" } });
    expect(mask.status).toBe(200);
    expect(mask.body.mask_image_url).toBeNull();
    expect(mask.body.flat_image_url).not.toBeNull();
    const flat = await app.api("DELETE", "/try-ons/remove-image-type", { token: admin.token, query: { product_id: gid(1009), type: "flat" } });
    expect(flat.body).toMatchObject({ flat_image_url: null, mask_image_url: null, garment_image_url: garmentUrl });

    const noType = await app.api("DELETE", "/try-ons/remove-image-type", { token: admin.token, body: { product_id: gid(1009) } });
    expect(noType.status).toBe(400);
    const noProduct = await app.api("DELETE", "/try-ons/remove-image-type", { token: admin.token, query: { type: "flat" } });
    expect(noProduct.status).toBe(400);
    expect(noProduct.body.error.message).toBe(Messages.NO_PRODUCT_ID);
    expect((await app.api("DELETE", "/try-ons/remove-image-type", { token: admin.token, body: { product_id: gid(1009), type: "other" } })).status).toBe(400);
    expect((await app.api("DELETE", "/try-ons/remove-image-type", { token: admin.token, body: { product_id: gid(999_996), type: "flat" } })).status).toBe(404);
    expect((await app.api("DELETE", "/try-ons/remove-image-type", { token: alice.token, body: { product_id: gid(1009), type: "flat" } })).status).toBe(403);
  });
});
