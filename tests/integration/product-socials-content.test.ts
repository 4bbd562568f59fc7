/**
 * Product socials content through the API (app/contract/product-socials-content.ts; SPEC §7):
 * by companion, get, create, update (every allowed status move and the refused ones), delete, the
 * vendor list (vendorId, storeId, cursor, limit), and generation from the product (local language
 * model's templates; image-AI port answered by the fake provider, and a failing one for
 * media_error). Roles: vendor (own content only: another vendor gets 404 / 403), admin with
 * catalog.edit, admin without it, shopper, anonymous.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageAiRouter } from "../../app/providers/image-ai/index.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, type FakeImageAi } from "../helpers/fake-image-ai";

let app: TestApp;
type Caller = { id: string; token: string };
let vendorA: Caller;
let vendorB: Caller;
let admin: Caller;
let adminOther: Caller;
let shopper: Caller;

const A = "socials-vendor-a";
const B = "socials-vendor-b";
const SA = "socials-store-a";
const SA2 = "socials-store-a2";
const PA = "gid://shopify/Product/9301";
const PA2 = "gid://shopify/Product/9302";
const PB = "gid://shopify/Product/9401";
let compA: string;
let compA2: string;
let compB: string;

const call = (who: Caller | null, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined> } = {}) =>
  app.api(method, path, { ...opts, token: who?.token ?? null });

async function draft(who: Caller, companion_id: string, over: Record<string, unknown> = {}) {
  const res = await call(who, "POST", "/product-socials-content", { body: { companion_id, platform: "instagram", caption: "New in: the wool coat", hashtags: ["#woolcoat", "ootd"], ...over } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string };
}

async function withFake(fake: FakeImageAi, run: () => Promise<void>) {
  const before: ImageAiRouter = app.ctx.imageAi;
  app.ctx.imageAi = { providerFor: () => fake, providers: { [fake.name]: fake } };
  try {
    await run();
  } finally {
    app.ctx.imageAi = before;
  }
}

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await db.vendor.create({ data: { id: A, name: "Alder & Co", handle: "alder-co-socials" } });
  await db.vendor.create({ data: { id: B, name: "Birch Studio", handle: "birch-studio-socials" } });
  await db.store.create({ data: { id: SA, name: "Alder Womens", handle: "alder-womens-socials", vendor_id: A } });
  await db.store.create({ data: { id: SA2, name: "Alder Mens", handle: "alder-mens-socials", vendor_id: A } });
  const product = async (id: string, title: string, vendor: string, store: string | null, image: string | null) => {
    await db.product.create({
      data: {
        id,
        title,
        handle: title.toLowerCase().replace(/\W+/g, "-"),
        productType: "Coats",
        vendor_id: vendor,
        store_id: store,
        currencyCode: "EUR",
        priceMin: 129,
        priceMax: 129,
        target_gender: "womenswear",
        tags: ["wool", "winter"],
        featuredImageUrl: image,
        options: { create: [{ name: "Color", values: ["Camel", "Black"] }] },
      },
    });
    return (await db.productCompanion.create({ data: { shopify_product_id: id } })).id;
  };
  compA = await product(PA, "Wool Wrap Coat", A, SA, "https://cdn.example/9301.jpg");
  compA2 = await product(PA2, "Linen Trench", A, SA2, null);
  compB = await product(PB, "Birch Parka", B, null, "https://cdn.example/9401.jpg");
  vendorA = await app.createUser({ role: "VENDOR", vendorId: A });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B });
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  adminOther = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  shopper = await app.createUser();
});
afterAll(async () => {
  await app?.close();
});

describe("writing, reading and deleting", () => {
  it("a vendor writes a draft for its own product; it carries the product's vendor and store; hashtags lose their '#'", async () => {
    const d = await draft(vendorA, compA, { media_urls: ["/uploads/images/socials/a.jpg"] });
    expect(d).toMatchObject({
      companion_id: compA,
      product: { id: PA, title: "Wool Wrap Coat" },
      vendor_id: A,
      store_id: SA,
      platform: "instagram",
      hashtags: ["woolcoat", "ootd"],
      media_urls: ["/uploads/images/socials/a.jpg"],
      status: "draft",
      next_statuses: ["scheduled", "published"],
      scheduled_at: null,
      published_at: null,
    });
    expect((await call(vendorA, "GET", `/product-socials-content/${d.id}`)).body.id).toBe(d.id);
    expect((await call(admin, "GET", `/product-socials-content/${d.id}`)).status).toBe(200);
    const list = await call(vendorA, "GET", `/product-socials-content/companion/${compA}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(d.id);
  });

  it("refuses bad input: unknown platform, empty caption, bad hashtag, bad media URL, unknown companion", async () => {
    expect((await call(vendorA, "POST", "/product-socials-content", { body: { companion_id: compA, platform: "myspace", caption: "x" } })).status).toBe(400);
    expect((await call(vendorA, "POST", "/product-socials-content", { body: { companion_id: compA, platform: "instagram", caption: "  " } })).status).toBe(400);
    expect((await call(vendorA, "POST", "/product-socials-content", { body: { companion_id: compA, platform: "instagram", caption: "x", hashtags: ["two words"] } })).status).toBe(400);
    expect((await call(vendorA, "POST", "/product-socials-content", { body: { companion_id: compA, platform: "instagram", caption: "x", media_urls: ["javascript:alert(1)"] } })).status).toBe(400);
    const missing = await call(vendorA, "POST", "/product-socials-content", { body: { companion_id: "nope", platform: "instagram", caption: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Product companion not found");
  });

  it("another vendor neither sees nor touches it (404), nor writes for its product; admins without catalog.edit, shoppers and anonymous are refused", async () => {
    const d = await draft(vendorA, compA);
    for (const [m, p, body] of [
      ["GET", `/product-socials-content/${d.id}`, undefined],
      ["PATCH", `/product-socials-content/${d.id}`, { caption: "mine now" }],
      ["DELETE", `/product-socials-content/${d.id}`, undefined],
      ["GET", `/product-socials-content/companion/${compA}`, undefined],
      ["POST", "/product-socials-content", { companion_id: compA, platform: "tiktok", caption: "x" }],
      ["POST", "/product-socials-content/generate", { companion_id: compA, images: false }],
    ] as const) {
      expect((await call(vendorB, m, p, { body })).status, `${m} ${p}`).toBe(404);
    }
    expect((await call(adminOther, "GET", `/product-socials-content/${d.id}`)).status).toBe(403);
    expect((await call(shopper, "GET", `/product-socials-content/${d.id}`)).status).toBe(403);
    expect((await call(null, "GET", `/product-socials-content/${d.id}`)).status).toBe(401);
    expect((await call(vendorA, "GET", `/product-socials-content/${d.id}`)).body.caption).toBe("New in: the wool coat");
  });

  it("deletes (owner or admin, any status); then 404", async () => {
    const d = await draft(vendorA, compA);
    expect((await call(vendorA, "DELETE", `/product-socials-content/${d.id}`)).body).toEqual({ ok: true });
    expect((await call(vendorA, "GET", `/product-socials-content/${d.id}`)).status).toBe(404);
    const published = await draft(vendorA, compA);
    await call(vendorA, "PATCH", `/product-socials-content/${published.id}`, { body: { status: "published" } });
    expect((await call(admin, "DELETE", `/product-socials-content/${published.id}`)).status).toBe(200);
    expect((await call(admin, "DELETE", `/product-socials-content/${published.id}`)).status).toBe(404);
  });
});

describe("status moves", () => {
  it("draft → scheduled (future date) → draft → scheduled → published; published is final", async () => {
    const d = await draft(vendorA, compA);
    const when = future(3);
    const scheduled = await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "scheduled", scheduled_at: when } });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body).toMatchObject({ status: "scheduled", scheduled_at: when, next_statuses: ["draft", "published"] });
    const back = await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "draft" } });
    expect(back.body.status).toBe("draft");
    // The date kept from before still counts when scheduling again.
    expect((await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "scheduled" } })).body.status).toBe("scheduled");
    const pub = await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "published" } });
    expect(pub.body).toMatchObject({ status: "published", next_statuses: [] });
    expect(Date.parse(pub.body.published_at)).toBeGreaterThan(Date.now() - 60_000);
    for (const body of [{ status: "draft" }, { status: "scheduled", scheduled_at: future(1) }, { caption: "edited after posting" }]) {
      const r = await call(admin, "PATCH", `/product-socials-content/${d.id}`, { body });
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe("Published socials content is final: it can only be deleted");
    }
  });

  it("draft → published at once; scheduling needs a future date", async () => {
    const d = await draft(vendorA, compA);
    const noDate = await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "scheduled" } });
    expect(noDate.status).toBe(422);
    expect(noDate.body.error.message).toBe("scheduled_at is required to schedule socials content");
    const past = await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "scheduled", scheduled_at: new Date(Date.now() - 60_000).toISOString() } });
    expect(past.status).toBe(422);
    expect(past.body.error.message).toBe("scheduled_at must be in the future");
    expect((await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "archived" } })).status).toBe(400);
    expect((await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: {} })).status).toBe(400);
    expect((await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "published" } })).body.status).toBe("published");
  });

  it("edits caption, hashtags, images, platform and the date of scheduled content", async () => {
    const d = await draft(vendorA, compA);
    await call(vendorA, "PATCH", `/product-socials-content/${d.id}`, { body: { status: "scheduled", scheduled_at: future(2) } });
    const when = future(5);
    const r = await call(admin, "PATCH", `/product-socials-content/${d.id}`, { body: { caption: "Autumn, sorted.", hashtags: ["autumn", "#coat"], media_urls: [], platform: "facebook", scheduled_at: when } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ caption: "Autumn, sorted.", hashtags: ["autumn", "coat"], media_urls: [], platform: "facebook", status: "scheduled", scheduled_at: when });
  });
});

describe("GET /product-socials-content/vendor", () => {
  it("vendorId, storeId, status, platform, cursor and limit; vendors only their own", async () => {
    const db = app.database.db;
    await db.productSocialsContent.deleteMany({});
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await draft(vendorA, i % 2 ? compA2 : compA, { platform: i === 4 ? "tiktok" : "instagram" })).id);
    const theirs = await draft(vendorB, compB);

    const first = await call(vendorA, "GET", "/product-socials-content/vendor", { query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    const seen = [...first.body.items];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const next = await call(vendorA, "GET", "/product-socials-content/vendor", { query: { limit: 2, cursor } });
      seen.push(...next.body.items);
      cursor = next.body.nextCursor;
    }
    expect(seen.map((i: { id: string }) => i.id).sort()).toEqual([...made].sort());
    expect(new Set(seen.map((i: { vendor_id: string }) => i.vendor_id))).toEqual(new Set([A]));

    const store2 = await call(vendorA, "GET", "/product-socials-content/vendor", { query: { storeId: SA2 } });
    expect(store2.body.items.map((i: { store_id: string }) => i.store_id)).toEqual([SA2, SA2]);
    expect((await call(vendorA, "GET", "/product-socials-content/vendor", { query: { platform: "tiktok" } })).body.items).toHaveLength(1);
    expect((await call(vendorA, "GET", "/product-socials-content/vendor", { query: { vendorId: A, status: "published" } })).body.items).toHaveLength(0);

    const other = await call(vendorA, "GET", "/product-socials-content/vendor", { query: { vendorId: B } });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe("Vendors can only list their own socials content");

    const all = await call(admin, "GET", "/product-socials-content/vendor");
    expect(all.body.items).toHaveLength(6);
    const onlyB = await call(admin, "GET", "/product-socials-content/vendor", { query: { vendorId: B } });
    expect(onlyB.body.items.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
    expect((await call(admin, "GET", "/product-socials-content/vendor", { query: { limit: 0 } })).status).toBe(400);
    expect((await call(shopper, "GET", "/product-socials-content/vendor")).status).toBe(403);
  });
});

describe("POST /product-socials-content/generate", () => {
  it("writes one draft per platform from the product (caption and hashtags), with a square and a vertical image from the image-AI port", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage });
    await withFake(fake, async () => {
      const res = await call(vendorA, "POST", "/product-socials-content/generate", { body: { companion_id: compA } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.media_error).toBeNull();
      const items = res.body.items as Array<{ platform: string; caption: string; hashtags: string[]; media_urls: string[]; status: string; vendor_id: string }>;
      expect(items.map((i) => i.platform)).toEqual(["instagram", "tiktok", "pinterest", "facebook"]);
      for (const i of items) {
        expect(i.status).toBe("draft");
        expect(i.vendor_id).toBe(A);
        expect(i.caption).toContain("Wool Wrap Coat");
        expect(i.caption.toLowerCase()).toMatch(/wool coat in camel and black/);
        expect(i.hashtags).toEqual(expect.arrayContaining(["coat", "wool", "woolcoat", "alderwomens"]));
        expect(i.media_urls).toHaveLength(2);
        expect(i.media_urls.every((u) => u.startsWith("/uploads/images/"))).toBe(true);
      }
      expect(items[0].caption).toContain("€129");
      const shots = fake.submits.filter((s) => s.op === "generate-flux-product-shot").map((s) => ({ input: s.input as { image_size: string; image_url: string } }));
      expect(shots.map((s) => s.input.image_size)).toEqual(["square_hd", "portrait_16_9"]);
      expect(shots[0].input.image_url).toBe("https://cdn.example/9301.jpg");
      // TikTok and Pinterest lead with the vertical image, Instagram and Facebook with the square one.
      expect(items[1].media_urls).toEqual([items[0].media_urls[1], items[0].media_urls[0]]);
      expect(items[1].hashtags.length).toBeLessThanOrEqual(8);
    });
  });

  it("without images (images: false) or without a product image: captions only; a failing image provider leaves the product's image and says why", async () => {
    const fake = createFakeImageAi({ storage: app.ctx.storage, fail: { message: "No product could be cut out of the image", retryable: false } });
    await withFake(fake, async () => {
      const failed = await call(admin, "POST", "/product-socials-content/generate", { body: { companion_id: compB, platforms: ["pinterest", "pinterest"] } });
      expect(failed.status).toBe(201);
      expect(failed.body.items).toHaveLength(1);
      expect(failed.body.items[0]).toMatchObject({ platform: "pinterest", vendor_id: B, media_urls: ["https://cdn.example/9401.jpg"] });
      expect(failed.body.media_error).toMatch(/No product could be cut out/);

      const noImage = await call(vendorA, "POST", "/product-socials-content/generate", { body: { companion_id: compA2, platforms: ["facebook"] } });
      expect(noImage.body.media_error).toBe("The product has no image to make social images from");
      expect(noImage.body.items[0].media_urls).toEqual([]);

      const before = fake.submits.length;
      const textOnly = await call(vendorA, "POST", "/product-socials-content/generate", { body: { companion_id: compA, platforms: ["instagram"], images: false } });
      expect(textOnly.body).toMatchObject({ media_error: null, items: [{ media_urls: ["https://cdn.example/9301.jpg"] }] });
      expect(fake.submits.length).toBe(before);
    });
    expect((await call(vendorA, "POST", "/product-socials-content/generate", { body: { companion_id: compA, platforms: [] } })).status).toBe(400);
    expect((await call(adminOther, "POST", "/product-socials-content/generate", { body: { companion_id: compA } })).status).toBe(403);
  });
});
