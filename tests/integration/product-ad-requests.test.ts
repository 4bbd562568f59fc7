/**
 * Ad requests through the API (app/contract/product-ad-requests.ts, docs/product-ads.md "Ad
 * requests"): filing (products, uploaded images, features, brief, budget, dates) with every
 * refusal, the list with filters, counts and cursor pages, the detail with the ads made from it,
 * the image change, deletion and completion with every refused move. Roles: vendor, team (admin
 * with ads.manage), admin without it, shopper, anonymous; a second vendor gets 404 on the first
 * one's requests. Ads are written directly with Prisma (the ads API is another module).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductAdStatus } from "@prisma/client";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
type Caller = { id: string; token: string };
let vendorA: Caller;
let vendorA2: Caller;
let vendorB: Caller;
let team: Caller;
let adminNoAds: Caller;
let shopper: Caller;

const A = "adreq-vendor-a";
const B = "adreq-vendor-b";
const PA1 = "gid://shopify/Product/8101";
const PA2 = "gid://shopify/Product/8102";
const PA_ARCHIVED = "gid://shopify/Product/8103";
const PB1 = "gid://shopify/Product/8201";
let fFormat: string;
let fCarousel: string;
let fPlacement: string;
let fInactive: string;
let imgA: string;
let imgA2: string;
let imgB: string;
let imgAdmin: string;
let imgShopper: string;

const call = (who: Caller | null, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined> } = {}) =>
  app.api(method, path, { ...opts, token: who?.token ?? null });

function requestBody(over: Record<string, unknown> = {}) {
  return { product_ids: [PA1], feature_ids: [fFormat], brief: "Autumn coats for commuters: 15% off this week", daily_budget: 25, ...over };
}

async function fileRequest(who: Caller, over: Record<string, unknown> = {}) {
  const res = await call(who, "POST", "/product-ad-requests", { body: requestBody(over) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string };
}

let adSeq = 0;
async function makeAd(requestId: string, status: ProductAdStatus, vendorId = A, productId = PA1) {
  return app.database.db.productAd.create({ data: { id: `adreq-ad-${++adSeq}`, request_id: requestId, vendor_id: vendorId, product_id: productId, title: `Headline ${adSeq}`, status } });
}

async function upload(userId: string, n: string) {
  const row = await app.database.db.uploadedImage.create({
    data: { url: `/uploads/images/ads/${n}.jpg`, key: `images/ads/${n}.jpg`, width: 800, height: 1000, content_type: "image/jpeg", size_bytes: 1234, user_id: userId, purpose: "ad_request" },
  });
  return row.id;
}

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await db.vendor.create({ data: { id: A, name: "Alder & Co", handle: "alder-co-ads" } });
  await db.vendor.create({ data: { id: B, name: "Birch Studio", handle: "birch-studio-ads" } });
  const product = (id: string, title: string, vendor: string, status: "active" | "archived" = "active") =>
    db.product.create({
      data: { id, title, handle: title.toLowerCase().replace(/\W+/g, "-"), status, vendor_id: vendor, currencyCode: "EUR", featuredImageUrl: `https://cdn.example/${id.split("/").pop()}.jpg`, featuredImageAltText: title },
    });
  await product(PA1, "Wool Commuter Coat", A);
  await product(PA2, "Linen Summer Dress", A);
  await product(PA_ARCHIVED, "Old Scarf", A, "archived");
  await product(PB1, "Birch Boot", B);
  const feature = (code: string, kind: string, name: string, active = true, sort_order = 0) => db.productAdFeature.create({ data: { code, kind, name, active, sort_order } });
  fFormat = (await feature("format.single", "format", "Single image", true, 1)).id;
  fCarousel = (await feature("format.carousel", "format", "Carousel", true, 2)).id;
  fPlacement = (await feature("placement.ig_feed", "placement", "Instagram feed")).id;
  fInactive = (await feature("format.collection", "format", "Collection", false)).id;

  vendorA = await app.createUser({ role: "VENDOR", vendorId: A, firstName: "Ada" });
  vendorA2 = await app.createUser({ role: "VENDOR", vendorId: A });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B });
  team = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"], firstName: "Tess" });
  adminNoAds = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage", "orders.manage"] });
  shopper = await app.createUser();
  imgA = await upload(vendorA.id, "a1");
  imgA2 = await upload(vendorA2.id, "a2");
  imgB = await upload(vendorB.id, "b1");
  imgAdmin = await upload(team.id, "admin1");
  imgShopper = await upload(shopper.id, "shopper1");
});
afterAll(async () => {
  await app?.close();
});

describe("filing a request", () => {
  it("a vendor files one for its own products, images and features; the answer maps every field", async () => {
    const res = await call(vendorA, "POST", "/product-ad-requests", {
      body: requestBody({
        product_ids: [PA2, PA1, PA2],
        uploaded_image_ids: [imgA, imgA2, imgAdmin],
        feature_ids: [fPlacement, fCarousel, fFormat],
        daily_budget: "12.50",
        start_date: "2026-12-01",
        end_date: "2026-12-31",
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body;
    expect(r.status).toBe("open");
    expect(r.vendor).toEqual({ id: A, name: "Alder & Co" });
    expect(r.products.map((p: { id: string }) => p.id)).toEqual([PA2, PA1]);
    expect(r.products[0]).toMatchObject({ title: "Linen Summer Dress", handle: "linen-summer-dress", featuredImage: { url: "https://cdn.example/8102.jpg", altText: "Linen Summer Dress" } });
    expect(r.uploaded_images).toEqual([
      { id: imgA, url: "/uploads/images/ads/a1.jpg", width: 800, height: 1000 },
      { id: imgA2, url: "/uploads/images/ads/a2.jpg", width: 800, height: 1000 },
      { id: imgAdmin, url: "/uploads/images/ads/admin1.jpg", width: 800, height: 1000 },
    ]);
    // By kind, then sort order.
    expect(r.features.map((f: { code: string }) => f.code)).toEqual(["format.single", "format.carousel", "placement.ig_feed"]);
    expect(r.brief).toBe("Autumn coats for commuters: 15% off this week");
    expect(r.daily_budget).toBe("12.50");
    expect(r.currencyCode).toBe("EUR");
    expect([r.start_date, r.end_date]).toEqual(["2026-12-01", "2026-12-31"]);
    expect(r.created_by).toEqual({ id: vendorA.id, name: "Ada" });
    expect(r.adsCount).toBe(0);
    expect(r.ads).toEqual([]);
    expect(r.completed_at).toBeNull();
    const row = await app.database.db.productAdRequest.findUniqueOrThrow({ where: { id: r.id } });
    expect(row.notes).toBe(r.brief);
    expect(row.product_id).toBe(PA2);
  });

  it("the team files for a vendor named by vendor_id; without it 400, an unknown vendor 422", async () => {
    const res = await call(team, "POST", "/product-ad-requests", { body: requestBody({ vendor_id: B, product_ids: [PB1], uploaded_image_ids: [imgB, imgAdmin] }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.vendor.id).toBe(B);
    expect(res.body.created_by).toEqual({ id: team.id, name: "Tess" });
    const missing = await call(team, "POST", "/product-ad-requests", { body: requestBody() });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/vendor_id is required/);
    const unknown = await call(team, "POST", "/product-ad-requests", { body: requestBody({ vendor_id: "no-such-vendor" }) });
    expect(unknown.status).toBe(422);
  });

  it("refuses products, images and features the request may not use", async () => {
    const refused = async (over: Record<string, unknown>, status: number, message: RegExp | string) => {
      const res = await call(vendorA, "POST", "/product-ad-requests", { body: requestBody(over) });
      expect(res.status, JSON.stringify(over)).toBe(status);
      if (typeof message === "string") expect(res.body.error.message).toBe(message);
      else expect(res.body.error.message).toMatch(message);
    };
    await refused({ product_ids: [PB1] }, 422, "Unknown product");
    await refused({ product_ids: ["gid://shopify/Product/999999"] }, 422, "Unknown product");
    await refused({ product_ids: [PA_ARCHIVED] }, 422, "An archived product cannot be advertised");
    await refused({ uploaded_image_ids: [imgB] }, 422, "Unknown uploaded image");
    await refused({ uploaded_image_ids: [imgShopper] }, 422, "Unknown uploaded image");
    await refused({ uploaded_image_ids: ["no-such-image"] }, 422, "Unknown uploaded image");
    await refused({ feature_ids: [fInactive] }, 422, "This ad feature is not available");
    await refused({ feature_ids: [fFormat, "no-such-feature"] }, 422, "This ad feature is not available");
    await refused({ feature_ids: [fPlacement] }, 422, "Choose at least one ad format");
    await refused({ vendor_id: B }, 422, "Vendor not found");
    await refused({ product_ids: [] }, 400, /product/);
    await refused({ product_ids: Array.from({ length: 11 }, (_, i) => `p${i}`) }, 400, /product/);
    await refused({ feature_ids: [] }, 400, /feature/);
    await refused({ brief: "   " }, 400, /brief/i);
    await refused({ brief: "x".repeat(2001) }, 400, /2000/);
    await refused({ daily_budget: 0 }, 400, /budget/);
    await refused({ daily_budget: 10_001 }, 400, /budget/);
    await refused({ daily_budget: 1.234 }, 400, /two decimals/);
    await refused({ start_date: "2026-12-10", end_date: "2026-12-01" }, 400, /end_date/);
    await refused({ start_date: "2026-02-30" }, 400, /date/);
    expect(await app.database.db.productAdRequest.count({ where: { vendor_id: A, notes: { contains: "x".repeat(100) } } })).toBe(0);
  });

  it("shoppers and admins without ads.manage get 403, anonymous callers 401", async () => {
    expect((await call(shopper, "POST", "/product-ad-requests", { body: requestBody() })).status).toBe(403);
    expect((await call(adminNoAds, "POST", "/product-ad-requests", { body: requestBody({ vendor_id: A }) })).status).toBe(403);
    expect((await call(null, "POST", "/product-ad-requests", { body: requestBody() })).status).toBe(401);
    for (const [m, p] of [["GET", "/product-ad-requests"], ["GET", "/product-ad-requests/count"], ["GET", "/product-ad-requests/x"], ["PATCH", "/product-ad-requests/x"], ["DELETE", "/product-ad-requests/x"], ["POST", "/product-ad-requests/x/complete"]] as const) {
      const body = m === "PATCH" ? { uploaded_image_ids: [] } : undefined;
      expect((await call(shopper, m, p, { body })).status, `${m} ${p}`).toBe(403);
      expect((await call(adminNoAds, m, p, { body })).status, `${m} ${p}`).toBe(403);
    }
  });
});

describe("reading requests", () => {
  let a1: string;
  let a2: string;
  let b1: string;
  beforeAll(async () => {
    a1 = (await fileRequest(vendorA, { brief: "Reading: summer linen for weddings", product_ids: [PA2] })).id;
    a2 = (await fileRequest(vendorA, { brief: "Reading: coats" })).id;
    b1 = (await fileRequest(vendorB, { brief: "Reading: boots", product_ids: [PB1] })).id;
    await makeAd(a2, "COMPLETED");
    await app.database.db.productAdRequest.update({ where: { id: a2 }, data: { status: "completed", completed_at: new Date() } });
  });

  it("a vendor lists its own only (a vendorId of another vendor changes nothing); the team all, filtered", async () => {
    const own = await call(vendorA, "GET", "/product-ad-requests", { query: { limit: 100 } });
    expect(own.status).toBe(200);
    expect(own.body.items.every((r: { vendor: { id: string } }) => r.vendor.id === A)).toBe(true);
    expect(own.body.items.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([a1, a2]));
    const sneaky = await call(vendorA, "GET", "/product-ad-requests", { query: { vendorId: B, limit: 100 } });
    expect(sneaky.body.items.map((r: { id: string }) => r.id)).not.toContain(b1);
    expect(sneaky.body.items.length).toBe(own.body.items.length);

    const all = await call(team, "GET", "/product-ad-requests", { query: { limit: 100 } });
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([a1, a2, b1]));
    const onlyB = await call(team, "GET", "/product-ad-requests", { query: { vendorId: B, limit: 100 } });
    expect(onlyB.body.items.every((r: { vendor: { id: string } }) => r.vendor.id === B)).toBe(true);
    const completed = await call(team, "GET", "/product-ad-requests", { query: { status: "completed" } });
    expect(completed.body.items.map((r: { id: string }) => r.id)).toEqual([a2]);
    expect(completed.body.items[0].adsCount).toBe(1);
    // q: the brief, the vendor's name, a product's title.
    expect((await call(team, "GET", "/product-ad-requests", { query: { q: "WEDDINGS" } })).body.items.map((r: { id: string }) => r.id)).toEqual([a1]);
    expect((await call(team, "GET", "/product-ad-requests", { query: { q: "birch", vendorId: B } })).body.items.map((r: { id: string }) => r.id)).toContain(b1);
    expect((await call(vendorA, "GET", "/product-ad-requests", { query: { q: "Linen Summer" } })).body.items.map((r: { id: string }) => r.id)).toContain(a1);
  });

  it("pages with a cursor, newest first, without repeats; a foreign cursor is 400", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(team, "GET", "/product-ad-requests", { query: { limit: 2, cursor } });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((r: { id: string }) => r.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(await app.database.db.productAdRequest.count());
    expect((await call(team, "GET", "/product-ad-requests", { query: { cursor: "not-a-cursor" } })).status).toBe(400);
    expect((await call(team, "GET", "/product-ad-requests", { query: { limit: 0 } })).status).toBe(400);
  });

  it("counts per status with the same filters", async () => {
    const db = app.database.db;
    const countA = await call(vendorA, "GET", "/product-ad-requests/count");
    expect(countA.status).toBe(200);
    const openA = await db.productAdRequest.count({ where: { vendor_id: A, status: "open" } });
    const doneA = await db.productAdRequest.count({ where: { vendor_id: A, status: "completed" } });
    expect(countA.body).toEqual({ all: openA + doneA, open: openA, completed: doneA });
    const countAll = await call(team, "GET", "/product-ad-requests/count");
    expect(countAll.body.all).toBe(await db.productAdRequest.count());
    expect((await call(team, "GET", "/product-ad-requests/count", { query: { q: "weddings" } })).body).toEqual({ all: 1, open: 1, completed: 0 });
    expect((await call(vendorB, "GET", "/product-ad-requests/count", { query: { vendorId: A } })).body.all).toBe(await db.productAdRequest.count({ where: { vendor_id: B } }));
  });

  it("the detail has the ads made from it; another vendor and unknown ids get 404", async () => {
    const d = await call(vendorA, "GET", `/product-ad-requests/${a2}`);
    expect(d.status).toBe(200);
    expect(d.body.ads).toEqual([{ id: expect.any(String), status: "COMPLETED", headline: expect.stringMatching(/^Headline/), product: { id: PA1, title: "Wool Commuter Coat" }, created_at: expect.any(String) }]);
    expect((await call(team, "GET", `/product-ad-requests/${b1}`)).status).toBe(200);
    const foreign = await call(vendorB, "GET", `/product-ad-requests/${a1}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe("Ad request not found");
    expect((await call(vendorA, "GET", "/product-ad-requests/no-such-request")).status).toBe(404);
  });
});

describe("changing a request's images", () => {
  it("replaces an open request's images (vendor and team); refuses foreign images (422), another vendor (404), unknown (404)", async () => {
    const r = await fileRequest(vendorA, { uploaded_image_ids: [imgA] });
    const res = await call(vendorA, "PATCH", `/product-ad-requests/${r.id}`, { body: { uploaded_image_ids: [imgA2, imgAdmin] } });
    expect(res.status).toBe(200);
    expect(res.body.uploaded_images.map((i: { id: string }) => i.id)).toEqual([imgA2, imgAdmin]);
    const byTeam = await call(team, "PATCH", `/product-ad-requests/${r.id}`, { body: { uploaded_image_ids: [] } });
    expect(byTeam.status).toBe(200);
    expect(byTeam.body.uploaded_images).toEqual([]);
    const foreignImage = await call(vendorA, "PATCH", `/product-ad-requests/${r.id}`, { body: { uploaded_image_ids: [imgB] } });
    expect(foreignImage.status).toBe(422);
    expect(foreignImage.body.error.message).toBe("Unknown uploaded image");
    expect((await call(vendorB, "PATCH", `/product-ad-requests/${r.id}`, { body: { uploaded_image_ids: [imgB] } })).status).toBe(404);
    expect((await call(vendorA, "PATCH", "/product-ad-requests/no-such-request", { body: { uploaded_image_ids: [] } })).status).toBe(404);
    expect((await call(vendorA, "PATCH", `/product-ad-requests/${r.id}`, { body: { uploaded_image_ids: Array.from({ length: 11 }, (_, i) => `i${i}`) } })).status).toBe(400);
    const row = await app.database.db.productAdRequest.findUniqueOrThrow({ where: { id: r.id } });
    expect(row.uploaded_image_ids).toEqual([]);
  });
});

describe("completing and deleting", () => {
  it("complete: refused with no ad (409), with only PENDING ads (409), by a vendor (403); done once an ad is past PENDING; twice 409", async () => {
    const r = await fileRequest(vendorA);
    const none = await call(team, "POST", `/product-ad-requests/${r.id}/complete`);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe("Make at least one ad from this request first");
    await makeAd(r.id, "PENDING");
    expect((await call(team, "POST", `/product-ad-requests/${r.id}/complete`)).status).toBe(409);
    await makeAd(r.id, "FEEDBACK_PENDING");
    const byVendor = await call(vendorA, "POST", `/product-ad-requests/${r.id}/complete`);
    expect(byVendor.status).toBe(403);
    const done = await call(team, "POST", `/product-ad-requests/${r.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("completed");
    expect(done.body.completed_at).toEqual(expect.any(String));
    expect(done.body.adsCount).toBe(2);
    const again = await call(team, "POST", `/product-ad-requests/${r.id}/complete`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This ad request is already completed");
    expect((await call(team, "POST", "/product-ad-requests/no-such-request/complete")).status).toBe(404);

    // A completed request is read-only, for the vendor and for the team.
    for (const who of [vendorA, team]) {
      const patch = await call(who, "PATCH", `/product-ad-requests/${r.id}`, { body: { uploaded_image_ids: [imgA] } });
      expect(patch.status).toBe(409);
      expect(patch.body.error.message).toBe("This ad request is completed: it can no longer be changed");
      expect((await call(who, "DELETE", `/product-ad-requests/${r.id}`)).status).toBe(409);
    }
    const row = await app.database.db.productAdRequest.findUniqueOrThrow({ where: { id: r.id } });
    expect(row.uploaded_image_ids).toEqual([]);
  });

  it("two completions at once: one is made, the other gets 409", async () => {
    const r = await fileRequest(vendorA);
    await makeAd(r.id, "APPROVED");
    const answers = await Promise.all([call(team, "POST", `/product-ad-requests/${r.id}/complete`), call(team, "POST", `/product-ad-requests/${r.id}/complete`)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it("delete: a vendor while no ad was made (else 409), the team once the ads are deleted; another vendor 404", async () => {
    const plain = await fileRequest(vendorA);
    expect((await call(vendorB, "DELETE", `/product-ad-requests/${plain.id}`)).status).toBe(404);
    expect((await call(shopper, "DELETE", `/product-ad-requests/${plain.id}`)).status).toBe(403);
    const ok = await call(vendorA, "DELETE", `/product-ad-requests/${plain.id}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    expect((await call(vendorA, "GET", `/product-ad-requests/${plain.id}`)).status).toBe(404);
    expect((await call(vendorA, "DELETE", `/product-ad-requests/${plain.id}`)).status).toBe(404);

    const withAd = await fileRequest(vendorA);
    const ad = await makeAd(withAd.id, "PENDING");
    const vendorTry = await call(vendorA, "DELETE", `/product-ad-requests/${withAd.id}`);
    expect(vendorTry.status).toBe(409);
    expect(vendorTry.body.error.message).toBe("Ads were made from this ad request: it can no longer be deleted");
    const teamTry = await call(team, "DELETE", `/product-ad-requests/${withAd.id}`);
    expect(teamTry.status).toBe(409);
    expect(teamTry.body.error.message).toBe("Delete the ads made from this ad request first");
    await app.database.db.productAd.delete({ where: { id: ad.id } });
    expect((await call(team, "DELETE", `/product-ad-requests/${withAd.id}`)).status).toBe(200);
    expect(await app.database.db.productAdRequest.count({ where: { id: withAd.id } })).toBe(0);
  });
});
