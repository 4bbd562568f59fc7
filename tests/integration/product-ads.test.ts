/**
 * The product ads API (app/contract/product-ads.ts, docs/product-ads.md): create, read, list with
 * filters and cursor, counts, edit, delete, the ads of a request, every move of the workflow by
 * each caller allowed and refused (the team, the ad's vendor, an admin without ads.manage, a
 * shopper, a second vendor: 404), the ads platform's refusal (502, nothing moves, kept on the
 * timeline), the vendor mirrors, the router's static paths before `/product-ads/{id}`, and two
 * racing moves (one made, the other 409; on PostgreSQL with TEST_DATABASE_URL a real race).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { createTestApp, type TestApp } from "../helpers/app";
import { AdsPlatformError, type AdsPlatformPort } from "../../app/providers/ads-platform/port";

let app: TestApp;
type U = { id: string; token: string };
let team: U;
let vendorA: U;
let vendorB: U;
let vendorsAdmin: U;
let otherAdmin: U;
let shopper: U;

const A = "ads-vendor-a";
const B = "ads-vendor-b";
const PA1 = "gid://shopify/Product/7101";
const PA2 = "gid://shopify/Product/7102";
const PA3 = "gid://shopify/Product/7103";
const PB1 = "gid://shopify/Product/7201";
const REQ_A = "ads-request-a";
const REQ_A_DONE = "ads-request-a-done";
const REQ_B = "ads-request-b";
const IMG = "/uploads/images/ad-creative-1.jpg";

const as = (u: U | null) => (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined> } = {}) =>
  app.api(method, path, { ...opts, token: u?.token ?? null });

/** A fresh ad of vendor A made by the team, with content enough to complete. */
async function newAd(body: Record<string, unknown> = {}) {
  const r = await as(team)("POST", "/product-ads", {
    body: { request_id: REQ_A, product_id: PA1, headline: "Spring coat", primary_text: "Light, warm, yours.", creative_urls: [IMG], ...body },
  });
  expect(r.status).toBe(201);
  return r.body as { id: string; status: string };
}

/** An ad of vendor A walked to `status` by the API itself. */
async function adIn(status: "PENDING" | "COMPLETED" | "FEEDBACK_PENDING" | "APPROVED" | "LIVE" | "INACTIVE") {
  const ad = await newAd();
  const step = async (move: string, u: U, body?: unknown) => {
    const r = await as(u)("POST", `/product-ads/${ad.id}/${move}`, { body });
    expect(r.status, `${move}: ${JSON.stringify(r.body)}`).toBe(200);
  };
  if (status === "PENDING") return ad.id;
  await step("complete", team);
  if (status === "COMPLETED") return ad.id;
  if (status === "FEEDBACK_PENDING") {
    await step("feedback", vendorA, { text: "Brighter please" });
    return ad.id;
  }
  await step("approve", vendorA);
  if (status === "APPROVED") return ad.id;
  await step("publish", team);
  if (status === "LIVE") return ad.id;
  await step("unpublish", team);
  return ad.id;
}

async function withPlatform(p: Partial<AdsPlatformPort>, run: () => Promise<void>) {
  const original = app.ctx.adsPlatform;
  app.ctx.adsPlatform = { ...original, ...p } as AdsPlatformPort;
  try {
    await run();
  } finally {
    app.ctx.adsPlatform = original;
  }
}

beforeAll(async () => {
  app = await createTestApp({ env: { APP_URL: "https://shop.example.test" } });
  const db = app.database.db;
  await db.vendor.create({ data: { id: A, name: "Alder Ads", handle: "alder-ads" } });
  await db.vendor.create({ data: { id: B, name: "Birch Ads", handle: "birch-ads" } });
  const product = (id: string, title: string, handle: string, vendor: string, status: "active" | "archived" = "active") =>
    db.product.create({ data: { id, title, handle, status, vendor_id: vendor, currencyCode: "EUR", priceMin: new Prisma.Decimal(10), priceMax: new Prisma.Decimal(20) } });
  await product(PA1, "Alpha Coat", "alpha-coat", A);
  await product(PA2, "Beta Dress", "beta-dress", A);
  await product(PA3, "Gamma Scarf", "gamma-scarf", A, "archived");
  await product(PB1, "Birch Boot", "birch-boot", B);
  await db.productAdRequest.create({
    data: { id: REQ_A, vendor_id: A, product_id: PA1, product_ids: [PA1, PA3], notes: "Spring", daily_budget: new Prisma.Decimal("25.50"), currencyCode: "EUR" },
  });
  await db.productAdRequest.create({ data: { id: REQ_A_DONE, vendor_id: A, product_id: PA1, product_ids: [PA1], status: "completed", completed_at: new Date() } });
  await db.productAdRequest.create({ data: { id: REQ_B, vendor_id: B, product_id: PB1, product_ids: [PB1] } });
  team = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"], firstName: "Tess" });
  vendorA = await app.createUser({ role: "VENDOR", vendorId: A, firstName: "Vera" });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B });
  vendorsAdmin = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  shopper = await app.createUser();
}, 120_000);
afterAll(async () => {
  await app?.close();
});

describe("POST /product-ads", () => {
  it("makes a PENDING ad from a request: its vendor, the request's budget and currency, the product's page as destination", async () => {
    const r = await as(team)("POST", "/product-ads", { body: { request_id: REQ_A, product_id: "7101", headline: "Spring coat" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: "PENDING",
      vendor: { id: A, name: "Alder Ads" },
      product: { id: PA1, title: "Alpha Coat", handle: "alpha-coat" },
      request_id: REQ_A,
      headline: "Spring coat",
      primary_text: "",
      creative_urls: [],
      call_to_action: "SHOP_NOW",
      destination_url: "https://shop.example.test/products/7101/alpha-coat",
      daily_budget: "25.50",
      currencyCode: "EUR",
      meta_ad_id: null,
      metrics: { impressions: 0, clicks: 0, spend: "0.00", ctr: null, cpc: null, roas: null },
      allowedMoves: ["complete"],
    });
    expect(r.body.timeline).toEqual([expect.objectContaining({ kind: "created", from_status: null, to_status: "PENDING", author: { id: team.id, name: "Tess", role: "ADMIN" } })]);
  });

  it("makes an ad without a request for a vendor_id and one of its products, with the given fields", async () => {
    const r = await as(team)("POST", "/product-ads", {
      body: { vendor_id: A, product_id: PA2, daily_budget: 12.5, call_to_action: "LEARN_MORE", destination_url: "https://example.com/landing", creative_urls: [IMG, IMG, "https://cdn.example.com/x.jpg"] },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ request_id: null, vendor: { id: A }, daily_budget: "12.50", currencyCode: "EUR", call_to_action: "LEARN_MORE", destination_url: "https://example.com/landing", creative_urls: [IMG, "https://cdn.example.com/x.jpg"] });
  });

  it("refuses products outside the request or the vendor, archived products, a completed request and a missing vendor", async () => {
    const post = (body: unknown) => as(team)("POST", "/product-ads", { body });
    expect(await post({ request_id: REQ_A, product_id: PA2 })).toMatchObject({ status: 422, body: { error: { message: "This product is not one of the ad request's products" } } });
    expect(await post({ request_id: REQ_A, product_id: PA3 })).toMatchObject({ status: 422, body: { error: { message: "An archived product cannot be advertised" } } });
    expect(await post({ request_id: REQ_A, vendor_id: B, product_id: PA1 })).toMatchObject({ status: 422, body: { error: { message: "vendor_id is not the ad request's vendor" } } });
    expect(await post({ request_id: "no-such-request", product_id: PA1 })).toMatchObject({ status: 422, body: { error: { message: "Ad request not found" } } });
    expect(await post({ request_id: REQ_A_DONE, product_id: PA1 })).toMatchObject({ status: 409 });
    expect(await post({ vendor_id: A, product_id: PB1 })).toMatchObject({ status: 422, body: { error: { message: "This product is not the vendor's" } } });
    expect(await post({ vendor_id: A, product_id: "gid://shopify/Product/404404" })).toMatchObject({ status: 422, body: { error: { message: "Unknown product" } } });
    expect(await post({ vendor_id: "no-such-vendor", product_id: PA1 })).toMatchObject({ status: 422, body: { error: { message: "Vendor not found" } } });
    expect(await post({ product_id: PA1 })).toMatchObject({ status: 400, body: { error: { message: "vendor_id is required when the ad is not made from an ad request" } } });
    expect((await post({ vendor_id: A, product_id: PA1, headline: "x".repeat(41) })).status).toBe(400);
    expect((await post({ vendor_id: A, product_id: PA1, creative_urls: ["javascript:alert(1)"] })).status).toBe(400);
    expect((await post({ vendor_id: A, product_id: PA1, daily_budget: 0 })).status).toBe(400);
  });

  it("is the team's: vendors, admins without ads.manage and shoppers get 403, anonymous 401", async () => {
    const body = { request_id: REQ_A, product_id: PA1 };
    expect((await as(vendorA)("POST", "/product-ads", { body })).status).toBe(403);
    expect((await as(vendorsAdmin)("POST", "/product-ads", { body })).status).toBe(403);
    expect((await as(otherAdmin)("POST", "/product-ads", { body })).status).toBe(403);
    expect((await as(shopper)("POST", "/product-ads", { body })).status).toBe(403);
    expect((await as(null)("POST", "/product-ads", { body })).status).toBe(401);
  });
});

describe("GET /product-ads/{id}", () => {
  it("answers the team and the ad's vendor, each with its own moves", async () => {
    const id = await adIn("COMPLETED");
    const t = await as(team)("GET", `/product-ads/${id}`);
    expect(t.status).toBe(200);
    expect(t.body.allowedMoves).toEqual(["feedback", "approve"]);
    expect(t.body.timeline.map((e: { kind: string }) => e.kind)).toEqual(["created", "complete"]);
    const v = await as(vendorA)("GET", `/product-ads/${id}`);
    expect(v.status).toBe(200);
    expect(v.body.allowedMoves).toEqual(["feedback", "approve"]);
  });

  it("answers the stored metrics' totals with CTR, CPC and ROAS", async () => {
    const id = await adIn("LIVE");
    await app.database.db.productAd.update({
      where: { id },
      data: { impressions: 2000, reach: 1500, clicks: 30, spend: new Prisma.Decimal("45.00"), conversions: 3, purchase_value: new Prisma.Decimal("180.00"), metrics_synced_at: new Date("2026-11-01T06:00:00Z") },
    });
    const r = await as(vendorA)("GET", `/product-ads/${id}`);
    // 30 / 2000 = 0.015; 45.00 / 30 = 1.50; 180.00 / 45.00 = 4
    expect(r.body).toMatchObject({
      metrics: { impressions: 2000, reach: 1500, clicks: 30, spend: "45.00", purchases: 3, purchaseValue: "180.00", ctr: 0.015, cpc: "1.50", roas: 4 },
      metrics_synced_at: "2026-11-01T06:00:00.000Z",
    });
  });

  it("is 404 for another vendor and for an unknown id; 403 for shoppers and admins without ads.manage", async () => {
    const id = await adIn("PENDING");
    expect(await as(vendorB)("GET", `/product-ads/${id}`)).toMatchObject({ status: 404, body: { error: { message: "Product ad not found" } } });
    expect((await as(team)("GET", "/product-ads/no-such-ad")).status).toBe(404);
    expect((await as(shopper)("GET", `/product-ads/${id}`)).status).toBe(403);
    expect((await as(otherAdmin)("GET", `/product-ads/${id}`)).status).toBe(403);
  });
});

describe("GET /product-ads and /product-ads/count", () => {
  let bAd: string;
  beforeAll(async () => {
    const r = await as(team)("POST", "/product-ads", { body: { request_id: REQ_B, product_id: PB1, headline: "Birch boots in the rain" } });
    expect(r.status).toBe(201);
    bAd = r.body.id;
  });

  it("the team sees every vendor's, filtered by status (repeatable), vendor, request, product and text", async () => {
    const live = await adIn("LIVE");
    const all = await as(team)("GET", "/product-ads", { query: { limit: 100 } });
    expect(all.status).toBe(200);
    const ids = all.body.items.map((a: { id: string }) => a.id);
    expect(ids).toContain(bAd);
    expect(ids).toContain(live);
    const sorted = [...all.body.items].sort((x: { created_at: string }, y: { created_at: string }) => y.created_at.localeCompare(x.created_at));
    expect(all.body.items.map((a: { id: string }) => a.id)).toEqual(sorted.map((a: { id: string }) => a.id));

    const byStatus = await app.api("GET", "/product-ads?status=LIVE&status=INACTIVE", { token: team.token });
    expect(byStatus.status).toBe(200);
    expect(byStatus.body.items.length).toBeGreaterThan(0);
    expect(byStatus.body.items.every((a: { status: string }) => a.status === "LIVE" || a.status === "INACTIVE")).toBe(true);
    expect(byStatus.body.items.map((a: { id: string }) => a.id)).toContain(live);

    const b = await as(team)("GET", "/product-ads", { query: { vendorId: B } });
    expect(b.body.items.map((a: { id: string }) => a.id)).toEqual([bAd]);
    expect((await as(team)("GET", "/product-ads", { query: { requestId: REQ_B } })).body.items.map((a: { id: string }) => a.id)).toEqual([bAd]);
    expect((await as(team)("GET", "/product-ads", { query: { productId: "7201" } })).body.items.map((a: { id: string }) => a.id)).toEqual([bAd]);
    expect((await as(team)("GET", "/product-ads", { query: { q: "rain" } })).body.items.map((a: { id: string }) => a.id)).toEqual([bAd]);
    expect((await as(team)("GET", "/product-ads", { query: { q: "birch ads" } })).body.items.map((a: { id: string }) => a.id)).toEqual([bAd]);
  });

  it("pages with a cursor without repeating or skipping", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const r = await as(team)("GET", "/product-ads", { query: { limit: 2, cursor } });
      expect(r.status).toBe(200);
      seen.push(...r.body.items.map((a: { id: string }) => a.id));
      cursor = r.body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    const all = await as(team)("GET", "/product-ads", { query: { limit: 100 } });
    expect(seen).toEqual(all.body.items.map((a: { id: string }) => a.id));
    expect((await as(team)("GET", "/product-ads", { query: { cursor: "not-a-cursor" } })).status).toBe(400);
    expect((await as(team)("GET", "/product-ads", { query: { status: "RUNNING" } })).status).toBe(400);
  });

  it("a vendor sees its own only, whatever vendorId it names", async () => {
    const mine = await as(vendorA)("GET", "/product-ads", { query: { limit: 100 } });
    expect(mine.status).toBe(200);
    expect(mine.body.items.length).toBeGreaterThan(0);
    expect(mine.body.items.every((a: { vendor: { id: string } }) => a.vendor.id === A)).toBe(true);
    expect((await as(vendorA)("GET", "/product-ads", { query: { vendorId: B } })).body.items).toEqual([]);
    const theirs = await as(vendorB)("GET", "/product-ads");
    expect(theirs.body.items.map((a: { id: string }) => a.id)).toEqual([bAd]);
    expect((await as(shopper)("GET", "/product-ads")).status).toBe(403);
    expect((await as(vendorsAdmin)("GET", "/product-ads")).status).toBe(403);
  });

  it("counts per status with the list's filters, per caller", async () => {
    const all = await as(team)("GET", "/product-ads", { query: { limit: 100 } });
    const c = await as(team)("GET", "/product-ads/count");
    expect(c.status).toBe(200);
    expect(c.body.all).toBe(all.body.items.length);
    const byStatus: Record<string, number> = {};
    for (const a of all.body.items as { status: string }[]) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    for (const s of ["PENDING", "COMPLETED", "FEEDBACK_PENDING", "APPROVED", "LIVE", "INACTIVE"]) expect(c.body[s]).toBe(byStatus[s] ?? 0);
    expect(await as(vendorB)("GET", "/product-ads/count")).toMatchObject({ status: 200, body: { all: 1, PENDING: 1, LIVE: 0 } });
    expect(await as(team)("GET", "/product-ads/count", { query: { vendorId: B } })).toMatchObject({ status: 200, body: { all: 1, PENDING: 1 } });
    expect((await as(shopper)("GET", "/product-ads/count")).status).toBe(403);
  });
});

describe("PATCH /product-ads/{id}", () => {
  it("the team edits a PENDING or COMPLETED ad (which stays COMPLETED), kept on the timeline", async () => {
    const id = await adIn("COMPLETED");
    const r = await as(team)("PATCH", `/product-ads/${id}`, { body: { headline: "Autumn coat", daily_budget: "30", creative_urls: ["https://cdn.example.com/a.jpg"] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "COMPLETED", headline: "Autumn coat", daily_budget: "30.00", creative_urls: ["https://cdn.example.com/a.jpg"] });
    expect(r.body.timeline.at(-1)).toMatchObject({ kind: "edited", from_status: "COMPLETED", to_status: "COMPLETED", text: "Changed the headline, creatives, daily budget" });
    const back = await as(team)("PATCH", `/product-ads/${id}`, { body: { destination_url: null } });
    expect(back.body.destination_url).toBe("https://shop.example.test/products/7101/alpha-coat");
  });

  it("the same values again change nothing and add no entry", async () => {
    const id = await adIn("PENDING");
    const r = await as(team)("PATCH", `/product-ads/${id}`, { body: { headline: "Spring coat" } });
    expect(r.status).toBe(200);
    expect(r.body.timeline.map((e: { kind: string }) => e.kind)).toEqual(["created"]);
  });

  it("refuses an approved ad (409), an empty change (400), vendors and shoppers (403), unknown ids (404)", async () => {
    for (const status of ["APPROVED", "LIVE", "INACTIVE"] as const) {
      const id = await adIn(status);
      expect(await as(team)("PATCH", `/product-ads/${id}`, { body: { headline: "Late" } })).toMatchObject({ status: 409, body: { error: { message: "An approved ad cannot be edited" } } });
    }
    const id = await adIn("PENDING");
    expect((await as(team)("PATCH", `/product-ads/${id}`, { body: {} })).status).toBe(400);
    expect((await as(vendorA)("PATCH", `/product-ads/${id}`, { body: { headline: "Mine" } })).status).toBe(403);
    expect((await as(otherAdmin)("PATCH", `/product-ads/${id}`, { body: { headline: "Mine" } })).status).toBe(403);
    expect((await as(shopper)("PATCH", `/product-ads/${id}`, { body: { headline: "Mine" } })).status).toBe(403);
    expect((await as(team)("PATCH", "/product-ads/no-such-ad", { body: { headline: "x" } })).status).toBe(404);
  });
});

describe("DELETE /product-ads/{id}", () => {
  it("the team deletes an ad that is not LIVE", async () => {
    const id = await adIn("INACTIVE");
    expect(await as(team)("DELETE", `/product-ads/${id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await as(team)("GET", `/product-ads/${id}`)).status).toBe(404);
  });
  it("refuses a LIVE ad (409), vendors (403) and unknown ids (404)", async () => {
    const id = await adIn("LIVE");
    expect(await as(team)("DELETE", `/product-ads/${id}`)).toMatchObject({ status: 409, body: { error: { message: "Unpublish the ad before deleting it" } } });
    expect((await as(vendorA)("DELETE", `/product-ads/${id}`)).status).toBe(403);
    expect((await as(shopper)("DELETE", `/product-ads/${id}`)).status).toBe(403);
    expect((await as(team)("DELETE", "/product-ads/no-such-ad")).status).toBe(404);
    expect((await as(team)("GET", `/product-ads/${id}`)).status).toBe(200);
  });
});

describe("GET /product-ads/by-request/{id}", () => {
  it("answers the request's ads, oldest first, to the team and the request's vendor", async () => {
    const t = await as(team)("GET", `/product-ads/by-request/${REQ_A}`);
    expect(t.status).toBe(200);
    expect(t.body.items.length).toBeGreaterThan(0);
    expect(t.body.items.every((a: { request_id: string }) => a.request_id === REQ_A)).toBe(true);
    const created = t.body.items.map((a: { created_at: string }) => a.created_at);
    expect(created).toEqual([...created].sort());
    expect((await as(vendorA)("GET", `/product-ads/by-request/${REQ_A}`)).body.items.length).toBe(t.body.items.length);
  });
  it("is 404 for another vendor's request and an unknown one; 403 for a shopper", async () => {
    expect(await as(vendorB)("GET", `/product-ads/by-request/${REQ_A}`)).toMatchObject({ status: 404, body: { error: { message: "Ad request not found" } } });
    expect((await as(team)("GET", "/product-ads/by-request/no-such-request")).status).toBe(404);
    expect((await as(shopper)("GET", `/product-ads/by-request/${REQ_A}`)).status).toBe(403);
  });
});

describe("the moves", () => {
  it("walks the whole workflow with the timeline as its record", async () => {
    const ad = await newAd();
    const move = (u: U, m: string, body?: unknown) => as(u)("POST", `/product-ads/${ad.id}/${m}`, { body });
    expect(await move(team, "complete", { note: "First cut" })).toMatchObject({ status: 200, body: { status: "COMPLETED" } });
    expect(await move(vendorA, "feedback", { text: "Use the red one" })).toMatchObject({ status: 200, body: { status: "FEEDBACK_PENDING", allowedMoves: [] } });
    expect(await move(team, "complete")).toMatchObject({ status: 200, body: { status: "COMPLETED" } });
    expect(await move(vendorA, "approve", { note: "Great" })).toMatchObject({ status: 200, body: { status: "APPROVED" } });
    const published = await move(team, "publish");
    expect(published).toMatchObject({
      status: 200,
      body: { status: "LIVE", meta_campaign_id: `local-campaign-${ad.id}`, meta_adset_id: `local-adset-${ad.id}`, meta_creative_id: `local-creative-${ad.id}`, meta_ad_id: `local-ad-${ad.id}`, meta_error: null },
    });
    const firstPublished = published.body.published_at;
    expect(firstPublished).toEqual(expect.any(String));
    expect(await move(vendorA, "unpublish")).toMatchObject({ status: 200, body: { status: "INACTIVE" } });
    const again = await move(team, "publish");
    expect(again).toMatchObject({ status: 200, body: { status: "LIVE", meta_ad_id: `local-ad-${ad.id}`, published_at: firstPublished } });
    const done = await move(team, "unpublish");
    expect(done.body.status).toBe("INACTIVE");
    expect(done.body.timeline.map((e: { kind: string; from_status: string | null; to_status: string | null; text: string | null; author: { role: string } | null }) => [e.kind, e.from_status, e.to_status, e.text, e.author?.role])).toEqual([
      ["created", null, "PENDING", null, "ADMIN"],
      ["complete", "PENDING", "COMPLETED", "First cut", "ADMIN"],
      ["feedback", "COMPLETED", "FEEDBACK_PENDING", "Use the red one", "VENDOR"],
      ["complete", "FEEDBACK_PENDING", "COMPLETED", null, "ADMIN"],
      ["approve", "COMPLETED", "APPROVED", "Great", "VENDOR"],
      ["publish", "APPROVED", "LIVE", null, "ADMIN"],
      ["unpublish", "LIVE", "INACTIVE", null, "VENDOR"],
      ["publish", "INACTIVE", "LIVE", null, "ADMIN"],
      ["unpublish", "LIVE", "INACTIVE", null, "ADMIN"],
    ]);
    expect(done.body.timeline[2].author).toEqual({ id: vendorA.id, name: "Vera", role: "VENDOR" });
  });

  it("the team may also approve and send feedback", async () => {
    const a = await adIn("COMPLETED");
    expect(await as(team)("POST", `/product-ads/${a}/feedback`, { body: { text: "Team note: crop tighter" } })).toMatchObject({ status: 200, body: { status: "FEEDBACK_PENDING" } });
    const b = await adIn("COMPLETED");
    expect(await as(team)("POST", `/product-ads/${b}/approve`)).toMatchObject({ status: 200, body: { status: "APPROVED" } });
  });

  it("complete needs a headline, a primary text and a creative (422), and a note within bounds", async () => {
    const bare = await as(team)("POST", "/product-ads", { body: { vendor_id: A, product_id: PA2 } });
    const r = await as(team)("POST", `/product-ads/${bare.body.id}/complete`);
    expect(r).toMatchObject({ status: 422, body: { error: { details: { missing: ["headline", "primary_text", "creative_urls"] } } } });
    expect((await as(team)("GET", `/product-ads/${bare.body.id}`)).body.status).toBe("PENDING");
    const id = await adIn("PENDING");
    expect((await as(team)("POST", `/product-ads/${id}/complete`, { body: { note: "x".repeat(2001) } })).status).toBe(400);
  });

  it("feedback needs its text", async () => {
    const id = await adIn("COMPLETED");
    expect((await as(vendorA)("POST", `/product-ads/${id}/feedback`, { body: {} })).status).toBe(400);
    expect((await as(vendorA)("POST", `/product-ads/${id}/feedback`, { body: { text: "   " } })).status).toBe(400);
  });

  it("refuses every move out of order with 409 and its reason; nothing moves", async () => {
    const pending = await adIn("PENDING");
    const r = await as(team)("POST", `/product-ads/${pending}/approve`);
    expect(r).toMatchObject({ status: 409, body: { error: { message: "An ad that is PENDING cannot be approved: complete it first" } } });
    expect((await as(team)("POST", `/product-ads/${pending}/feedback`, { body: { text: "x" } })).status).toBe(409);
    expect((await as(team)("POST", `/product-ads/${pending}/publish`)).status).toBe(409);
    expect((await as(team)("POST", `/product-ads/${pending}/unpublish`)).status).toBe(409);

    const completed = await adIn("COMPLETED");
    expect(await as(team)("POST", `/product-ads/${completed}/publish`)).toMatchObject({ status: 409, body: { error: { message: "An ad that is COMPLETED cannot be published: approve it first" } } });
    expect(await as(team)("POST", `/product-ads/${completed}/complete`)).toMatchObject({ status: 409, body: { error: { message: "This ad is already completed: the vendor is reviewing it" } } });
    expect((await as(vendorA)("POST", `/product-ads/${completed}/unpublish`)).status).toBe(409);

    const feedback = await adIn("FEEDBACK_PENDING");
    for (const m of ["approve", "publish", "unpublish"]) expect((await as(team)("POST", `/product-ads/${feedback}/${m}`)).status).toBe(409);
    expect((await as(vendorA)("POST", `/product-ads/${feedback}/feedback`, { body: { text: "more" } })).status).toBe(409);

    const approved = await adIn("APPROVED");
    for (const m of ["complete", "approve", "unpublish"]) expect((await as(team)("POST", `/product-ads/${approved}/${m}`)).status).toBe(409);
    expect((await as(vendorA)("POST", `/product-ads/${approved}/feedback`, { body: { text: "late" } })).status).toBe(409);

    const live = await adIn("LIVE");
    expect(await as(team)("POST", `/product-ads/${live}/publish`)).toMatchObject({ status: 409, body: { error: { message: "This ad is already live" } } });
    for (const m of ["complete", "approve"]) expect((await as(team)("POST", `/product-ads/${live}/${m}`)).status).toBe(409);

    const inactive = await adIn("INACTIVE");
    expect(await as(vendorA)("POST", `/product-ads/${inactive}/unpublish`)).toMatchObject({ status: 409, body: { error: { message: "This ad is already unpublished (INACTIVE)" } } });
    for (const m of ["complete", "approve"]) expect((await as(team)("POST", `/product-ads/${inactive}/${m}`)).status).toBe(409);

    for (const [id, status] of [[pending, "PENDING"], [completed, "COMPLETED"], [feedback, "FEEDBACK_PENDING"], [approved, "APPROVED"], [live, "LIVE"], [inactive, "INACTIVE"]]) {
      expect((await as(team)("GET", `/product-ads/${id}`)).body.status).toBe(status);
    }
  });

  it("a vendor may not complete or publish (403 saying who may)", async () => {
    const pending = await adIn("PENDING");
    expect(await as(vendorA)("POST", `/product-ads/${pending}/complete`)).toMatchObject({ status: 403, body: { error: { message: "Only the ads team can complete ads" } } });
    const approved = await adIn("APPROVED");
    expect(await as(vendorA)("POST", `/product-ads/${approved}/publish`)).toMatchObject({ status: 403, body: { error: { message: "Only the ads team can publish ads" } } });
    expect((await as(team)("GET", `/product-ads/${approved}`)).body.status).toBe("APPROVED");
  });

  it("a second vendor gets 404 on every move; admins without ads.manage and shoppers 403; anonymous 401", async () => {
    const completed = await adIn("COMPLETED");
    const live = await adIn("LIVE");
    const approved = await adIn("APPROVED");
    const cases: [string, string, unknown?][] = [
      [completed, "approve"],
      [completed, "feedback", { text: "mine now" }],
      [completed, "complete"],
      [approved, "publish"],
      [live, "unpublish"],
    ];
    for (const [id, m, body] of cases) {
      expect((await as(vendorB)("POST", `/product-ads/${id}/${m}`, { body })).status, `${m} by vendor B`).toBe(404);
      expect((await as(vendorsAdmin)("POST", `/product-ads/${id}/${m}`, { body })).status, `${m} by vendors admin`).toBe(403);
      expect((await as(otherAdmin)("POST", `/product-ads/${id}/${m}`, { body })).status, `${m} by other admin`).toBe(403);
      expect((await as(shopper)("POST", `/product-ads/${id}/${m}`, { body })).status, `${m} by shopper`).toBe(403);
      expect((await as(null)("POST", `/product-ads/${id}/${m}`, { body })).status, `${m} anonymous`).toBe(401);
    }
    expect((await as(team)("GET", `/product-ads/${completed}`)).body.status).toBe("COMPLETED");
    expect((await as(team)("GET", `/product-ads/${live}`)).body.status).toBe("LIVE");
    expect((await as(team)("POST", "/product-ads/no-such-ad/approve")).status).toBe(404);
  });
});

describe("the ads platform refusing", () => {
  it("publish: 502 with the platform's reason, the ad stays APPROVED, the failure on the timeline and in meta_error; the next success clears it", async () => {
    const id = await adIn("APPROVED");
    await withPlatform(
      {
        async publish() {
          throw new AdsPlatformError("auth", "Error validating access token: Session has expired", { code: 190 });
        },
      },
      async () => {
        const r = await as(team)("POST", `/product-ads/${id}/publish`);
        expect(r).toMatchObject({ status: 502, body: { error: { code: "bad_gateway", message: "Error validating access token: Session has expired", details: { platformError: "auth", code: 190 } } } });
      },
    );
    const after = await as(team)("GET", `/product-ads/${id}`);
    expect(after.body).toMatchObject({ status: "APPROVED", meta_ad_id: null, meta_error: "Error validating access token: Session has expired", allowedMoves: ["publish"] });
    expect(after.body.timeline.at(-1)).toMatchObject({ kind: "publish_failed", from_status: "APPROVED", to_status: "APPROVED", text: "Error validating access token: Session has expired" });
    const ok = await as(team)("POST", `/product-ads/${id}/publish`);
    expect(ok).toMatchObject({ status: 200, body: { status: "LIVE", meta_error: null } });
  });

  it("unpublish: 502, the ad stays LIVE; an unexpected error is a 502 too", async () => {
    const id = await adIn("LIVE");
    await withPlatform(
      {
        async pause() {
          throw new Error("socket hang up");
        },
      },
      async () => {
        const r = await as(vendorA)("POST", `/product-ads/${id}/unpublish`);
        expect(r).toMatchObject({ status: 502, body: { error: { message: "The ads platform could not be reached: socket hang up" } } });
      },
    );
    const after = await as(team)("GET", `/product-ads/${id}`);
    expect(after.body).toMatchObject({ status: "LIVE", meta_error: "The ads platform could not be reached: socket hang up" });
    expect(after.body.timeline.at(-1)).toMatchObject({ kind: "unpublish_failed", author: { role: "VENDOR" } });
  });

  it("sends the platform absolute creative and destination URLs", async () => {
    const id = await adIn("APPROVED");
    let seen: { imageUrls: string[]; destinationUrl: string; dailyBudget: string; currencyCode: string } | null = null;
    const original = app.ctx.adsPlatform;
    await withPlatform(
      {
        async publish(input) {
          seen = input;
          return original.publish(input);
        },
      },
      async () => {
        expect((await as(team)("POST", `/product-ads/${id}/publish`)).status).toBe(200);
      },
    );
    expect(seen).toMatchObject({ imageUrls: [`https://shop.example.test${IMG}`], destinationUrl: "https://shop.example.test/products/7101/alpha-coat", dailyBudget: "25.50", currencyCode: "EUR" });
  });
});

describe("vendor mirrors", () => {
  it("GET /vendors/me/ads: the caller's vendor's ads", async () => {
    const r = await as(vendorA)("GET", "/vendors/me/ads", { query: { limit: 100 } });
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    expect(r.body.items.every((a: { vendor: { id: string } }) => a.vendor.id === A)).toBe(true);
    const live = await as(vendorA)("GET", "/vendors/me/ads", { query: { status: "LIVE" } });
    expect(live.body.items.every((a: { status: string }) => a.status === "LIVE")).toBe(true);
    expect((await as(team)("GET", "/vendors/me/ads")).status).toBe(403);
    expect((await as(shopper)("GET", "/vendors/me/ads")).status).toBe(403);
  });

  it("GET /vendors/{id}/ads: admins with vendors.manage or ads.manage, a vendor for its own id only", async () => {
    const own = await as(vendorA)("GET", "/vendors/me/ads", { query: { limit: 100 } });
    const byManager = await as(vendorsAdmin)("GET", `/vendors/${A}/ads`, { query: { limit: 100 } });
    expect(byManager.status).toBe(200);
    expect(byManager.body.items.map((a: { id: string }) => a.id)).toEqual(own.body.items.map((a: { id: string }) => a.id));
    expect(byManager.body.items.every((a: { allowedMoves: string[] }) => a.allowedMoves.length === 0)).toBe(true);
    expect((await as(team)("GET", `/vendors/${A}/ads`)).status).toBe(200);
    expect((await as(vendorA)("GET", `/vendors/${A}/ads`)).status).toBe(200);
    expect((await as(vendorB)("GET", `/vendors/${A}/ads`)).status).toBe(404);
    expect((await as(otherAdmin)("GET", `/vendors/${A}/ads`)).status).toBe(403);
    expect((await as(shopper)("GET", `/vendors/${A}/ads`)).status).toBe(403);
    expect((await as(team)("GET", "/vendors/no-such-vendor/ads")).status).toBe(404);
  });
});

describe("routing", () => {
  it("matches /product-ads/count and /product-ads/by-request/{id} before /product-ads/{id}", async () => {
    const count = await as(team)("GET", "/product-ads/count");
    expect(count.status).toBe(200);
    expect(count.body).toHaveProperty("all");
    const byRequest = await as(team)("GET", `/product-ads/by-request/${REQ_B}`);
    expect(byRequest.status).toBe(200);
    expect(byRequest.body).toHaveProperty("items");
    // Another method on a static path falls to the {id} route, where "count" is an unknown ad.
    expect((await as(team)("DELETE", "/product-ads/count")).status).toBe(404);
    // The metrics sync (app/contract/product-ad-metrics.ts) is not read as PATCH/DELETE/GET of an ad "sync-meta-performance".
    const sync = await as(team)("POST", "/product-ads/sync-meta-performance", { body: {} });
    expect(sync.status).toBe(202);
    expect(sync.body).toHaveProperty("jobId");
    expect((await as(team)("GET", "/product-ads/sync-meta-performance")).status).toBe(404);
  });
});

describe("racing moves", () => {
  it("two approvals at once: one is made, the other is refused (409); one timeline entry", async () => {
    const id = await adIn("COMPLETED");
    const results = await Promise.all([as(vendorA)("POST", `/product-ads/${id}/approve`), as(team)("POST", `/product-ads/${id}/approve`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await as(team)("GET", `/product-ads/${id}`);
    expect(after.body.timeline.filter((e: { kind: string }) => e.kind === "approve")).toHaveLength(1);
  });

  it("approve and feedback at once: exactly one moves the ad", async () => {
    const id = await adIn("COMPLETED");
    const results = await Promise.all([as(vendorA)("POST", `/product-ads/${id}/feedback`, { body: { text: "wait" } }), as(team)("POST", `/product-ads/${id}/approve`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await as(team)("GET", `/product-ads/${id}`);
    expect(["APPROVED", "FEEDBACK_PENDING"]).toContain(after.body.status);
    expect(after.body.timeline.filter((e: { kind: string }) => e.kind === "approve" || e.kind === "feedback")).toHaveLength(1);
  });

  it("two publishes at once ask the platform once", async () => {
    const id = await adIn("APPROVED");
    let calls = 0;
    const original = app.ctx.adsPlatform;
    await withPlatform(
      {
        async publish(input) {
          calls++;
          await new Promise((r) => setTimeout(r, 50));
          return original.publish(input);
        },
      },
      async () => {
        const results = await Promise.all([as(team)("POST", `/product-ads/${id}/publish`), as(team)("POST", `/product-ads/${id}/publish`)]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      },
    );
    expect(calls).toBe(1);
  });
});
