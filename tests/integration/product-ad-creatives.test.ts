/**
 * Creative candidates of product ads (docs/product-ads.md "AI creatives"): image candidates made by
 * the job ads.creatives (product shots with the local CPU provider, try-ons on a public clone with
 * the fake provider), copy variants from the local language model, who may read and make them,
 * vendor isolation, and the statuses that refuse them.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductAdStatus } from "@prisma/client";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import type { ImageAiRouter } from "../../app/providers/image-ai/index.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, type FakeImageAi } from "../helpers/fake-image-ai";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
type U = { id: string; token: string };
let team: U, otherAdmin: U, vendorA: U, vendorB: U, shopper: U;
let vendorAId: string;
let adId: string;
let uploadUrl: string;
let cloneId: string;
let personUrl: string;

const db = () => app.database.db;
const drain = () => startWorker(app.ctx, { "ads.creatives": jobHandlers["ads.creatives"] }, { autoStart: false }).drain();
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));
const creatives = (id: string, token = team.token, query?: Record<string, string>) => app.api("GET", `/product-ads/${id}/creatives`, { token, query });
const generate = (id: string, body: unknown, token = team.token) => app.api("POST", `/product-ads/${id}/creatives`, { token, body });
const copy = (id: string, body: unknown, token = team.token) => app.api("POST", `/product-ads/${id}/copy-variants`, { token, body });

/** A garment photo: a red block on white (the local cut-out finds it). */
async function garmentJpeg(colour = { r: 200, g: 30, b: 40 }): Promise<Uint8Array> {
  const rect = await sharp({ create: { width: 200, height: 300, channels: 3, background: colour } }).png().toBuffer();
  return new Uint8Array(
    await sharp({ create: { width: 400, height: 500, channels: 3, background: { r: 255, g: 255, b: 255 } } })
      .composite([{ input: rect, left: 100, top: 100 }])
      .jpeg({ quality: 92 })
      .toBuffer(),
  );
}

/** Runs `run` with the image-AI port answered by `fake` (the local models would be too slow for try-ons). */
async function withFake(fake: FakeImageAi, run: () => Promise<void>) {
  const before: ImageAiRouter = app.ctx.imageAi;
  app.ctx.imageAi = { providerFor: () => fake, providers: { [fake.name]: fake } };
  try {
    await run();
  } finally {
    app.ctx.imageAi = before;
  }
}

async function makeAd(o: { n: number; status?: ProductAdStatus; withRequest?: boolean; images?: number }) {
  await createProduct(db(), { n: o.n, title: `Linen Camp Shirt ${o.n}`, productType: "Shirts", vendor: "Atelier Aster", vendorId: vendorAId, price: 49, colours: { Sand: "#d8c8a8", Navy: "#1f2a44" }, images: o.images ?? 2 });
  const request = o.withRequest === false
    ? null
    : await db().productAdRequest.create({
        data: {
          vendor_id: vendorAId,
          product_id: pgid(o.n),
          product_ids: [pgid(o.n)],
          uploaded_image_ids: [(await db().uploadedImage.findFirstOrThrow({ where: { url: uploadUrl } })).id],
          notes: "Young professionals in the city. Summer linen that breathes. 10% off the first order.",
          daily_budget: 25,
        },
      });
  const ad = await db().productAd.create({
    data: { product_id: pgid(o.n), vendor_id: vendorAId, request_id: request?.id ?? null, title: "", status: o.status ?? "PENDING", created_by_id: team.id },
  });
  return ad.id;
}

beforeAll(async () => {
  app = await createTestApp();
  const A = await db().vendor.create({ data: { name: "Atelier Aster", handle: "atelier-aster-creatives" } });
  const B = await db().vendor.create({ data: { name: "Bolt Basics", handle: "bolt-basics-creatives" } });
  vendorAId = A.id;
  team = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage", "catalog.edit"] });
  vendorA = await app.createUser({ role: "VENDOR", vendorId: A.id });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B.id });
  shopper = await app.createUser();

  // Real files behind the product images of every fixture used here, and the vendor's upload.
  for (const n of [9501, 9502, 9503, 9504, 9505, 9506, 9507, 9508]) {
    for (const i of [0, 1]) await app.ctx.storage.put(`images/test/${n}-${i}.jpg`, await garmentJpeg({ r: 40 + i * 100, g: 60, b: 160 }), "image/jpeg");
  }
  uploadUrl = (await app.ctx.storage.put("images/uploads/creatives-upload.jpg", await garmentJpeg(), "image/jpeg")).url;
  await db().uploadedImage.create({ data: { url: uploadUrl, key: "images/uploads/creatives-upload.jpg", content_type: "image/jpeg", size_bytes: 1000, user_id: vendorA.id, purpose: "ad_request" } });
  personUrl = (await app.ctx.storage.put("images/clones/house/person.jpg", await garmentJpeg({ r: 230, g: 200, b: 180 }), "image/jpeg")).url;
  cloneId = (
    await db().clone.create({ data: { name: "House model Ana", isPublic: true, user_id: null, baseImageUrls: [personUrl], processing_status: "READY" } })
  ).id;
  // A shopper's own clone is not public: never used for ads.
  await db().clone.create({ data: { name: "Private", isPublic: false, user_id: shopper.id, baseImageUrls: ["/uploads/images/clones/private.jpg"], processing_status: "READY" } });
  adId = await makeAd({ n: 9501 });
}, 120_000);
afterAll(() => app?.close());

describe("image candidates", () => {
  it("product shots with the local provider: queued, then ready with real image files, from the request's upload and the product's images", async () => {
    const r = await generate(adId, { kinds: ["product_shot"], count: 2, scene: "sunlit studio" });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.jobId).toEqual(expect.any(String));
    expect(r.body.items).toHaveLength(2);
    for (const c of r.body.items) expect(c).toMatchObject({ ad_id: adId, kind: "image", source: "product_shot", status: "queued", image_url: null, job_id: r.body.jobId });

    const job = await db().job.findUniqueOrThrow({ where: { id: r.body.jobId } });
    expect(job.queue).toBe("ads.creatives");
    const items = (job.payload as { items: Array<{ operation: string; input: { image_url: string; background_color: string; scene: string } }> }).items;
    // The first candidate starts from the vendor's upload, the next from the product's first image.
    expect(items.map((i) => i.input.image_url)).toEqual([uploadUrl, "/uploads/images/test/9501-0.jpg"]);
    expect(new Set(items.map((i) => i.input.background_color)).size).toBe(2);
    expect(items.every((i) => i.operation === "generate-flux-product-shot" && i.input.scene === "sunlit studio")).toBe(true);

    const during = await creatives(adId);
    expect(during.body.job).toMatchObject({ id: r.body.jobId, status: "queued", done: 0, total: 2, progress: 0 });

    await drain();
    const after = await creatives(adId, team.token, { kind: "image" });
    expect(after.status).toBe(200);
    expect(after.body.job).toMatchObject({ id: r.body.jobId, status: "completed", done: 2, total: 2, progress: 100 });
    const ready = after.body.items.filter((c: { job_id: string }) => c.job_id === r.body.jobId);
    expect(ready).toHaveLength(2);
    for (const c of ready) {
      expect(c.status, c.error ?? "").toBe("ready");
      expect(c.image_url).toMatch(/^\/uploads\/images\//);
      const meta = await sharp(fs.readFileSync(storedFile(c.image_url))).metadata();
      expect(meta.width).toBeGreaterThan(100);
      expect(meta.format).toBe("jpeg");
    }
    expect(new Set(ready.map((c: { image_url: string }) => c.image_url)).size).toBe(2);
    expect((await db().job.findUniqueOrThrow({ where: { id: r.body.jobId } })).progress).toBe(100);
  }, 300_000);

  it("on a model: a try-on of the product's garment on a public clone (fake provider), the clones in turn", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage });
    await withFake(fake, async () => {
      const id = await makeAd({ n: 9502 });
      const r = await generate(id, { kinds: ["on_model"], count: 2 });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      expect(r.body.items.map((c: { source: string }) => c.source)).toEqual(["on_model", "on_model"]);
      await drain();
      const submits = fake.submits.filter((s) => s.op === "vton-flux");
      expect(submits).toHaveLength(2);
      expect(submits[0].input).toMatchObject({ person_image_url: personUrl, garment_image_url: "/uploads/images/test/9502-0.jpg", category: "tops" });
      const list = await creatives(id);
      expect(list.body.items.map((c: { status: string }) => c.status)).toEqual(["ready", "ready"]);
      for (const c of list.body.items) expect(fs.existsSync(storedFile(c.image_url))).toBe(true);

      // A named public clone is used; an unknown (or private) one is not found.
      const named = await generate(id, { kinds: ["on_model"], count: 1, clone_id: cloneId });
      expect(named.status).toBe(202);
      await drain();
      expect(fake.submits.filter((s) => s.op === "vton-flux")).toHaveLength(3);
      const priv = await db().clone.findFirstOrThrow({ where: { isPublic: false } });
      expect((await generate(id, { kinds: ["on_model"], clone_id: priv.id })).status).toBe(404);
    });
  });

  it("both kinds at once: count per kind", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage });
    await withFake(fake, async () => {
      const id = await makeAd({ n: 9503 });
      const r = await generate(id, { kinds: ["product_shot", "on_model"], count: 2 });
      expect(r.status).toBe(202);
      expect(r.body.items.map((c: { source: string }) => c.source).sort()).toEqual(["on_model", "on_model", "product_shot", "product_shot"]);
      await drain();
      expect(fake.submits.map((s) => s.op).sort()).toEqual(["generate-flux-product-shot", "generate-flux-product-shot", "vton-flux", "vton-flux"]);
    });
  });

  it("a failing image provider marks one candidate failed with its reason; the others are made", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage, fail: { message: "No product could be cut out of the image", retryable: false, times: 1 } });
    await withFake(fake, async () => {
      const id = await makeAd({ n: 9504 });
      const r = await generate(id, { kinds: ["product_shot"], count: 3 });
      expect(r.status).toBe(202);
      await drain();
      const list = await creatives(id);
      const byStatus = (s: string) => list.body.items.filter((c: { status: string }) => c.status === s);
      expect(byStatus("failed")).toHaveLength(1);
      expect(byStatus("failed")[0]).toMatchObject({ error: "No product could be cut out of the image", image_url: null });
      expect(byStatus("ready")).toHaveLength(2);
      expect(list.body.job).toMatchObject({ status: "completed", done: 3, total: 3, progress: 100 });
      expect((await db().job.findUniqueOrThrow({ where: { id: r.body.jobId } })).result).toMatchObject({ ready: 2, failed: 1, total: 3 });
    });
  });

  it("a provider failure worth retrying is retried once before the candidate fails", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage, fail: { message: "fal answered 503", retryable: true, times: 1 } });
    await withFake(fake, async () => {
      const id = await makeAd({ n: 9505 });
      expect((await generate(id, { kinds: ["product_shot"], count: 1 })).status).toBe(202);
      await drain();
      expect((await creatives(id)).body.items[0]).toMatchObject({ status: "ready", error: null });
      expect(fake.submits).toHaveLength(2);
    });
  });

  it("a queued provider (fal-like) is followed until it ends", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage, name: "fal", mode: "submitted" });
    await withFake(fake, async () => {
      const id = await makeAd({ n: 9506 });
      expect((await generate(id, { kinds: ["product_shot"], count: 1 })).status).toBe(202);
      const running = drain();
      // Settled by the provider while the job polls.
      for (let i = 0; i < 100 && fake.submitted.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await fake.complete();
      await running;
      const c = (await creatives(id)).body.items[0];
      expect(c.status, c.error ?? "").toBe("ready");
      expect(fs.existsSync(storedFile(c.image_url))).toBe(true);
    });
  });

  it("refuses: no image to start from (422), no public clone (422), bad input (400), unknown ad (404)", async () => {
    const bare = await makeAd({ n: 9507, withRequest: false, images: 0 });
    const none = await generate(bare, { kinds: ["product_shot"] });
    expect(none.status).toBe(422);
    expect(none.body.error.message).toMatch(/no image to make creatives from/);
    await db().clone.update({ where: { id: cloneId }, data: { isPublic: false } });
    try {
      const noClone = await generate(adId, { kinds: ["on_model"] });
      expect(noClone.status).toBe(422);
      expect(noClone.body.error.message).toMatch(/no public model/);
    } finally {
      await db().clone.update({ where: { id: cloneId }, data: { isPublic: true } });
    }
    for (const body of [{ kinds: [] }, { kinds: ["product_shot"], count: 0 }, { kinds: ["product_shot"], count: 5 }, { kinds: ["video"] }, { kinds: ["product_shot", "product_shot"] }]) {
      expect((await generate(adId, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await generate("00000000-0000-4000-8000-000000000000", { kinds: ["product_shot"] })).status).toBe(404);
    expect((await creatives("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect(await db().productAdCreative.count({ where: { ad_id: bare } })).toBe(0);
  });
});

describe("copy variants", () => {
  it("headline ≤ 40 and primary text ≤ 500, different from each other, from the product and the brief; a second call says something new", async () => {
    const r = await copy(adId, { count: 5 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.items).toHaveLength(5);
    for (const c of r.body.items) {
      expect(c).toMatchObject({ ad_id: adId, kind: "copy", source: "template", status: "ready", image_url: null });
      expect(c.headline.length).toBeGreaterThan(0);
      expect(c.headline.length).toBeLessThanOrEqual(40);
      expect(c.primary_text.length).toBeLessThanOrEqual(500);
    }
    const headlines = r.body.items.map((c: { headline: string }) => c.headline);
    const texts = r.body.items.map((c: { primary_text: string }) => c.primary_text);
    expect(new Set(headlines).size).toBe(5);
    expect(new Set(texts).size).toBe(5);
    const all = texts.join(" ");
    expect(all).toContain("Linen Camp Shirt 9501");
    expect(all).toContain("Atelier Aster");
    expect(all).toContain("Young professionals in the city.");
    expect(all).toMatch(/\$49/);
    expect(all).toMatch(/sand/i);

    const again = await copy(adId, { count: 3 });
    expect(again.status).toBe(201);
    for (const c of again.body.items) expect(headlines.includes(c.headline) && texts.includes(c.primary_text)).toBe(false);
    const list = await creatives(adId, vendorA.token, { kind: "copy" });
    expect(list.body.items).toHaveLength(8);

    expect((await copy(adId, { count: 0 })).status).toBe(400);
    expect((await copy(adId, { count: 6 })).status).toBe(400);
    expect((await copy("00000000-0000-4000-8000-000000000000", { count: 1 })).status).toBe(404);
  });

  it("the language budget of the caller applies (429 once spent)", async () => {
    const limited = await createTestApp({ languageRateLimit: { points: 1, durationSeconds: 60 } });
    try {
      const admin = await limited.createUser({ role: "ADMIN", permissions: ["ads.manage"] });
      const v = await limited.database.db.vendor.create({ data: { name: "Solo", handle: "solo-creatives" } });
      await createProduct(limited.database.db, { n: 9601, title: "Wool Scarf", vendorId: v.id });
      const ad = await limited.database.db.productAd.create({ data: { product_id: pgid(9601), vendor_id: v.id, title: "" } });
      expect((await limited.api("POST", `/product-ads/${ad.id}/copy-variants`, { token: admin.token, body: { count: 1 } })).status).toBe(201);
      expect((await limited.api("POST", `/product-ads/${ad.id}/copy-variants`, { token: admin.token, body: { count: 1 } })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("who may", () => {
  it("the ad's vendor and the team read; another vendor gets 404; admins without ads.manage and shoppers 403", async () => {
    expect((await creatives(adId, team.token)).status).toBe(200);
    const own = await creatives(adId, vendorA.token);
    expect(own.status).toBe(200);
    expect(own.body.items.length).toBeGreaterThan(0);
    const other = await creatives(adId, vendorB.token);
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe("Product ad not found");
    expect((await creatives(adId, otherAdmin.token)).status).toBe(403);
    expect((await creatives(adId, shopper.token)).status).toBe(403);
    expect((await app.api("GET", `/product-ads/${adId}/creatives`)).status).toBe(401);
  });

  it("only the team makes candidates: the vendor, other admins and shoppers get 403", async () => {
    const before = await db().productAdCreative.count({ where: { ad_id: adId } });
    for (const token of [vendorA.token, vendorB.token, otherAdmin.token, shopper.token]) {
      expect((await generate(adId, { kinds: ["product_shot"] }, token)).status).toBe(403);
      expect((await copy(adId, { count: 1 }, token)).status).toBe(403);
    }
    expect(await db().productAdCreative.count({ where: { ad_id: adId } })).toBe(before);
  });

  it("an ad past review (APPROVED, LIVE, INACTIVE) refuses new candidates with 409; COMPLETED and FEEDBACK_PENDING take them", async () => {
    const id = await makeAd({ n: 9508 });
    for (const status of ["APPROVED", "LIVE", "INACTIVE"] as const) {
      await db().productAd.update({ where: { id }, data: { status } });
      const img = await generate(id, { kinds: ["product_shot"] });
      expect(img.status).toBe(409);
      expect(img.body.error.message).toBe(`Creatives cannot be made for an ad that is ${status}: an approved ad cannot be edited`);
      expect((await copy(id, { count: 1 })).status).toBe(409);
      // Reading stays open.
      expect((await creatives(id, vendorA.token)).status).toBe(200);
    }
    expect(await db().productAdCreative.count({ where: { ad_id: id } })).toBe(0);
    for (const status of ["COMPLETED", "FEEDBACK_PENDING"] as const) {
      await db().productAd.update({ where: { id }, data: { status } });
      expect((await copy(id, { count: 1 })).status).toBe(201);
    }
  });
});
