/**
 * The vendor's ad pages (issues 17, 18) through their loaders and actions, server-rendered with
 * Polaris: the ads list (/app/vendor/ads and the admins' /app/vendors/:id/ads), the request form
 * with its image upload, and one ad's review (approve, feedback, unpublish). Ads, features and
 * metrics rows are written here with Prisma, so what the pages show is known by hand.
 * Guards: a second vendor gets 404 for the first one's ad (and 403 on the admins' URLs), a shopper
 * is sent away, admins need vendors.manage or ads.manage, and only the ads team acts for a vendor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { createElement } from "react";
import { VendorAdRequestForm } from "../../app/components/vendor/VendorAdRequestForm";
import { Prisma } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { addDays, todayIn } from "../../app/lib/store-time-zone";
import { createTestApp, type TestApp } from "../helpers/app";
import { redirectLocation, refusal, renderRoute, staffForm, staffRequest, thrownResponse } from "../helpers/route";
import { createProduct, pgid } from "./products-fixtures";

type ListRoute = typeof import("../../app/routes/app.vendor_.ads");
type AdminListRoute = typeof import("../../app/routes/app.vendors_.$id_.ads");
type NewRoute = typeof import("../../app/routes/app.vendor_.ads_.requests_.new");
type AdminNewRoute = typeof import("../../app/routes/app.vendors_.$id_.ads_.requests_.new");
type AdRoute = typeof import("../../app/routes/app.vendor_.ads_.$adId");
type AdminAdRoute = typeof import("../../app/routes/app.vendors_.$id_.ads_.$adId");
type UploadRoute = typeof import("../../app/routes/app.vendor_.ads_.upload");
let list: ListRoute;
let adminList: AdminListRoute;
let newRequest: NewRoute;
let adminNewRequest: AdminNewRoute;
let adPage: AdRoute;
let adminAdPage: AdminAdRoute;
let upload: UploadRoute;
let app: TestApp;
type Caller = { id: string; token: string };
let vendorA: Caller;
let vendorB: Caller;
let team: Caller;
let vendorsAdmin: Caller;
let adminNoPerm: Caller;
let shopper: Caller;
let A: { id: string };
let B: { id: string };
const features: Record<string, string> = {};
const ads: Record<string, string> = {};

const args = (path: string, token: string | null, params: Record<string, string> = {}) => ({ request: staffRequest(path, token), params, context: {} });
const post = (path: string, token: string | null, fields: Record<string, string> | [string, string][], params: Record<string, string> = {}) => ({ request: staffForm(path, token, fields), params, context: {} });

async function makeAd(vendorId: string, product: number, status: "PENDING" | "COMPLETED" | "LIVE" | "APPROVED", extra: Partial<Prisma.ProductAdUncheckedCreateInput> = {}) {
  const ad = await app.database.db.productAd.create({
    data: {
      vendor_id: vendorId,
      product_id: pgid(product),
      status,
      title: `Headline ${product} ${status}`,
      body: `Primary text of ${product}`,
      media_urls: [`/uploads/images/test/${product}-0.jpg`],
      daily_budget: new Prisma.Decimal("20.00"),
      ...extra,
    },
  });
  await app.database.db.productAdEvent.create({ data: { ad_id: ad.id, kind: "created", to_status: "PENDING", author_id: team.id } });
  if (status !== "PENDING") await app.database.db.productAdEvent.create({ data: { ad_id: ad.id, kind: "complete", from_status: "PENDING", to_status: "COMPLETED", author_id: team.id, text: "First cut" } });
  return ad.id;
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.vendor_.ads");
  adminList = await import("../../app/routes/app.vendors_.$id_.ads");
  newRequest = await import("../../app/routes/app.vendor_.ads_.requests_.new");
  adminNewRequest = await import("../../app/routes/app.vendors_.$id_.ads_.requests_.new");
  adPage = await import("../../app/routes/app.vendor_.ads_.$adId");
  adminAdPage = await import("../../app/routes/app.vendors_.$id_.ads_.$adId");
  upload = await import("../../app/routes/app.vendor_.ads_.upload");
  const db = app.database.db;
  A = await db.vendor.create({ data: { name: "Atelier Aster", handle: "atelier-aster-ads" } });
  B = await db.vendor.create({ data: { name: "Brume Basics", handle: "brume-basics-ads" } });
  await createProduct(db, { n: 9101, title: "Aster Linen Dress", vendorId: A.id });
  await createProduct(db, { n: 9102, title: "Aster Silk Scarf", vendorId: A.id, status: "draft" });
  await createProduct(db, { n: 9103, title: "Aster Old Coat", vendorId: A.id, status: "archived" });
  await createProduct(db, { n: 9201, title: "Brume Canvas Tote", vendorId: B.id });
  vendorA = await app.createUser({ role: "VENDOR", vendorId: A.id, firstName: "Ada" });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: B.id });
  team = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"], firstName: "Tess" });
  vendorsAdmin = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  adminNoPerm = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  shopper = await app.createUser();
  const feature = async (code: string, kind: string, name: string, price: string | null, active = true) =>
    (features[code] = (await db.productAdFeature.create({ data: { code, kind, name, price: price ? new Prisma.Decimal(price) : null, active } })).id);
  await feature("format.single", "format", "Single image", "0.00");
  await feature("format.story", "format", "Story (9:16)", "15.00");
  await feature("placement.ig", "placement", "Instagram feed", null);
  await feature("extra.old", "extra", "Retired extra", "5.00", false);
  ads.review = await makeAd(A.id, 9101, "COMPLETED");
  ads.live = await makeAd(A.id, 9101, "LIVE", {
    meta_campaign_id: "local-campaign-x",
    meta_adset_id: "local-adset-x",
    meta_creative_id: "local-creative-x",
    meta_ad_id: `local-ad-${Date.now()}`,
    published_at: new Date(Date.now() - 10 * 86_400_000),
  });
  // Two synced days of the live ad: 1,500 impressions, 25 clicks (CTR 1.67 %), 15.00 spent for
  // 2 purchases worth 50.00 (ROAS 3.33).
  const day = (n: number) => new Date(`${addDays(todayIn("UTC"), -n)}T00:00:00Z`);
  await db.productAdMetricDaily.create({ data: { ad_id: ads.live, date: day(2), impressions: 1000, reach: 800, clicks: 20, spend: new Prisma.Decimal("10.00"), purchases: 2, purchase_value: new Prisma.Decimal("50.00") } });
  await db.productAdMetricDaily.create({ data: { ad_id: ads.live, date: day(1), impressions: 500, reach: 450, clicks: 5, spend: new Prisma.Decimal("5.00"), purchases: 0, purchase_value: new Prisma.Decimal("0.00") } });
  ads.other = await makeAd(B.id, 9201, "COMPLETED");
  await db.productAdRequest.create({
    data: { vendor_id: A.id, product_id: pgid(9101), product_ids: [pgid(9101)], notes: "Summer linen for city commuters", daily_budget: new Prisma.Decimal("25.00"), features: { create: [{ feature_id: features["format.single"]! }] } },
  });
  await db.productAdRequest.create({ data: { vendor_id: B.id, product_id: pgid(9201), product_ids: [pgid(9201)], notes: "Brume tote brief", daily_budget: new Prisma.Decimal("9.00") } });
});
afterAll(() => app?.close());

describe("ads list", () => {
  const load = (token: string | null, query = "") => list.loader(args(`/app/vendor/ads${query}`, token));
  const render = (data: object, url = "/app/vendor/ads") => renderRoute({ id: "routes/app.vendor_.ads", path: "/app/vendor/ads", url, data, Component: list.default });

  it("shows the vendor its own ads with their status, and its requests", async () => {
    const d = await load(vendorA.token);
    expect(d.scope).toEqual({ base: "/app/vendor", asAdmin: false, vendorId: A.id });
    expect(d.ads.map((a) => [a.id, a.status]).sort()).toEqual(
      [
        [ads.review, "COMPLETED"],
        [ads.live, "LIVE"],
      ].sort(),
    );
    expect(d.requests.map((r) => [r.productTitles, r.featureNames, r.dailyBudget, r.status])).toEqual([[["Aster Linen Dress"], ["Single image"], "25.00", "open"]]);
    const html = await render(d);
    expect(html).toContain("Headline 9101 COMPLETED");
    expect(html).toContain("Ready for your review");
    expect(html).toContain('data-status="LIVE"');
    expect(html).toContain("One ad is ready for your review");
    expect(html).toContain('data-testid="ad-request-row"');
    expect(html).toContain('href="/app/vendor/ads/requests/new"');
    expect(html).toContain(`href="/app/vendor/ads/${ads.review}"`);
    expect(html).not.toContain("Brume");
  });

  it("shows the delivery over the range: KPIs with CTR and ROAS, the daily series and each ad's figures", async () => {
    const d = await load(vendorA.token, "?days=7");
    expect(d.error).toBeNull();
    expect(d.range).toEqual({ preset: "7", from: addDays(todayIn("UTC"), -6), to: todayIn("UTC") });
    expect(d.metrics?.totals).toEqual({ impressions: 1500, clicks: 25, spend: "15.00", purchases: 2, purchaseValue: "50.00", ctr: expect.closeTo(25 / 1500, 4), roas: expect.closeTo(50 / 15, 2) });
    expect(d.metrics?.daily).toHaveLength(7);
    expect(d.metrics?.daily.find((x) => x.date === addDays(todayIn("UTC"), -2))).toEqual({ date: addDays(todayIn("UTC"), -2), impressions: 1000, clicks: 20, spend: "10.00" });
    expect(d.ads.find((a) => a.id === ads.live)?.figures).toMatchObject({ impressions: 1500, clicks: 25, spend: "15.00" });
    expect(d.ads.find((a) => a.id === ads.review)?.figures).toBeNull();
    const html = await render(d, "/app/vendor/ads?days=7");
    const kpi = (key: string) => html.match(new RegExp(`data-testid="ads-kpi-${key}">([^<]*)<`))?.[1];
    expect([kpi("impressions"), kpi("clicks"), kpi("ctr"), kpi("spend"), kpi("purchases"), kpi("roas")]).toEqual(["1,500", "25", "1.67%", "$15.00", "2", "3.33×"]);
    expect(html).toContain('data-testid="chart-ads-daily"');
    // A range the API refuses shows its message; an empty range zeros.
    const refused = await load(vendorA.token, `?from=${todayIn("UTC")}&to=${addDays(todayIn("UTC"), -3)}`);
    expect(refused.metrics).toBeNull();
    expect(refused.error).toBeTruthy();
    expect(await render(refused)).toContain('data-testid="ads-error"');
    const empty = await load(vendorA.token, `?from=${addDays(todayIn("UTC"), -60)}&to=${addDays(todayIn("UTC"), -50)}`);
    expect(empty.metrics?.totals).toMatchObject({ impressions: 0, spend: "0.00", ctr: null, roas: null });
    // Vendor B's page has none of A's delivery.
    expect((await load(vendorB.token, "?days=7")).metrics?.totals.impressions).toBe(0);
  });

  it("is the vendor's: a shopper is sent away, signed out to the login, an admin refused on the vendor URL", async () => {
    expect((await thrownResponse(load(shopper.token))).status).toBe(302);
    expect(await refusal(load(null))).toBe("login");
    expect(await refusal(load(team.token))).toBe(403);
  });

  it("opens for admins with ads.manage or vendors.manage at /app/vendors/:id/ads; others are refused", async () => {
    const loadAdmin = (id: string, token: string | null) => adminList.loader(args(`/app/vendors/${id}/ads`, token, { id }));
    const asTeam = await loadAdmin(A.id, team.token);
    expect(asTeam.scope).toEqual({ base: `/app/vendors/${A.id}`, asAdmin: true, vendorId: A.id });
    expect(asTeam.ads).toHaveLength(2);
    expect((await loadAdmin(B.id, vendorsAdmin.token)).ads.map((a) => a.id)).toEqual([ads.other]);
    const html = await renderRoute({ id: "routes/app.vendors_.$id_.ads", path: "/app/vendors/:id/ads", url: `/app/vendors/${A.id}/ads`, data: asTeam, Component: adminList.default });
    expect(html).toContain("Atelier Aster · Ads");
    expect(await refusal(loadAdmin(A.id, vendorB.token))).toBe(403);
    expect(await refusal(loadAdmin(A.id, adminNoPerm.token))).toBe(403);
    expect((await thrownResponse(loadAdmin(A.id, shopper.token))).status).toBe(302);
    expect(await refusal(loadAdmin("no-such-vendor", team.token))).toBe(404);
  });
});

describe("request form", () => {
  const file = (token: string | null, fields: [string, string][]) => newRequest.action(post("/app/vendor/ads/requests/new", token, fields));
  const renderForm = (data: object) => renderRoute({ id: "routes/app.vendor_.ads_.requests_.new", path: "/app/vendor/ads/requests/new", url: "/app/vendor/ads/requests/new", data, Component: newRequest.default });

  it("offers the vendor's products that are not archived and the active features", async () => {
    const d = await newRequest.loader(args("/app/vendor/ads/requests/new", vendorA.token));
    expect(d.products.map((p) => p.title)).toEqual(["Aster Linen Dress", "Aster Silk Scarf"]);
    expect(d.features.map((f) => f.name)).toEqual(["Single image", "Story (9:16)", "Instagram feed"]);
    expect(d.loadError).toBeNull();
    const html = await renderForm(d);
    expect(html).toContain("Aster Silk Scarf");
    expect(html).toContain("Story (9:16) (+$15.00 per ad)");
    expect(html).toContain("File request");
    expect(html).not.toContain("Brume");
    expect(html).not.toContain("Retired extra");
  });

  it("answers field errors for an empty form, and for another vendor's product or a retired feature", async () => {
    const empty = await file(vendorA.token, [["brief", ""]]);
    expect(empty.ok).toBe(false);
    expect(empty.fieldErrors).toMatchObject({ product_ids: "Choose at least one product", feature_ids: "Choose at least one feature", brief: "A brief is required", daily_budget: "A daily budget is required" });
    const dates = await file(vendorA.token, [
      ["product_ids", pgid(9101)],
      ["feature_ids", features["format.single"]!],
      ["brief", "x"],
      ["daily_budget", "20001"],
      ["start_date", "2026-12-10"],
      ["end_date", "2026-12-01"],
    ]);
    expect(dates.fieldErrors).toMatchObject({ daily_budget: "must be between 1 and 10000", end_date: expect.stringContaining("must not be before start_date") });
    const valid = (extra: [string, string][]): [string, string][] => [["brief", "Commuters in the city"], ["daily_budget", "15"], ...extra];
    expect((await file(vendorA.token, valid([["product_ids", pgid(9201)], ["feature_ids", features["format.single"]!]]))).fieldErrors).toEqual({ product_ids: "Unknown product" });
    expect((await file(vendorA.token, valid([["product_ids", pgid(9103)], ["feature_ids", features["format.single"]!]]))).fieldErrors).toEqual({ product_ids: "An archived product cannot be advertised" });
    expect((await file(vendorA.token, valid([["product_ids", pgid(9101)], ["feature_ids", features["extra.old"]!]]))).fieldErrors).toEqual({ feature_ids: "This ad feature is not available" });
    expect((await file(vendorA.token, valid([["product_ids", pgid(9101)], ["feature_ids", features["placement.ig"]!]]))).fieldErrors).toEqual({ feature_ids: "Choose at least one ad format" });
    // The form shows them beside their fields (the route's component reads them as its action data).
    const d = await newRequest.loader(args("/app/vendor/ads/requests/new", vendorA.token));
    const html = await renderRoute({
      id: "routes/app.vendor_.ads_.requests_.new",
      path: "/app/vendor/ads/requests/new",
      url: "/app/vendor/ads/requests/new",
      data: d,
      Component: () =>
        createElement(VendorAdRequestForm, { title: "New ad request", backAction: { content: "Ads", url: "/app/vendor/ads" }, products: d.products, features: d.features, currencyCode: d.currencyCode, uploadUrl: "/app/vendor/ads/upload", result: empty }),
    });
    expect(html).toContain('data-testid="field-error-product_ids"');
    expect(html).toContain('data-testid="field-error-feature_ids"');
    expect(html).toContain("A brief is required");
    expect(html).toContain("A daily budget is required");
    expect(html).toContain('data-testid="ad-request-error"');
    expect(await app.database.db.productAdRequest.count({ where: { vendor_id: A.id } })).toBe(1);
  });

  it("uploads an image and files a request with it; the ads list says so", async () => {
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#c81e1e" } }).png().toBuffer();
    const fd = new FormData();
    fd.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "look.png");
    const res = await upload.action({ request: staffRequest("/app/vendor/ads/upload", vendorA.token, { method: "POST", body: fd }), params: {}, context: {} });
    expect(res.status).toBe(201);
    const { image } = (await res.json()) as { image: { id: string; url: string; width: number } };
    expect(image.width).toBe(32);
    const location = await redirectLocation(
      file(vendorA.token, [
        ["product_ids", pgid(9101)],
        ["product_ids", pgid(9102)],
        ["uploaded_image_ids", image.id],
        ["feature_ids", features["format.story"]!],
        ["feature_ids", features["placement.ig"]!],
        ["brief", "Weekend city looks: 10% off the scarf"],
        ["daily_budget", "12.50"],
        ["start_date", "2026-12-01"],
      ]),
    );
    const id = new URL(location, "http://x").searchParams.get("filed");
    expect(location).toBe(`/app/vendor/ads?filed=${id}`);
    const row = await app.database.db.productAdRequest.findUniqueOrThrow({ where: { id: id! }, include: { features: true } });
    expect(row).toMatchObject({ vendor_id: A.id, product_ids: [pgid(9101), pgid(9102)], uploaded_image_ids: [image.id], notes: "Weekend city looks: 10% off the scarf", created_by_id: vendorA.id });
    expect(row.daily_budget?.toFixed(2)).toBe("12.50");
    expect(row.features.map((f) => f.feature_id).sort()).toEqual([features["format.story"], features["placement.ig"]].sort());
    const d = await list.loader(args(`/app/vendor/ads?filed=${id}`, vendorA.token));
    expect(d.notice).toContain("Request filed");
    expect(d.requests[0]?.id).toBe(id);
  });

  it("refuses an upload that is not an image, and another vendor's uploaded image on a request", async () => {
    const fd = new FormData();
    fd.append("file", new Blob([new TextEncoder().encode("not an image at all")], { type: "image/png" }), "fake.png");
    const res = await upload.action({ request: staffRequest("/app/vendor/ads/upload", vendorA.token, { method: "POST", body: fd }), params: {}, context: {} });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(false);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).png().toBuffer();
    const fdB = new FormData();
    fdB.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "b.png");
    const resB = await upload.action({ request: staffRequest("/app/vendor/ads/upload", vendorB.token, { method: "POST", body: fdB }), params: {}, context: {} });
    const imageB = ((await resB.json()) as { image: { id: string } }).image;
    const r = await file(vendorA.token, [
      ["product_ids", pgid(9101)],
      ["uploaded_image_ids", imageB.id],
      ["feature_ids", features["format.single"]!],
      ["brief", "b"],
      ["daily_budget", "5"],
    ]);
    expect(r.fieldErrors).toEqual({ uploaded_image_ids: "Unknown uploaded image" });
    expect((await thrownResponse(upload.action({ request: staffRequest("/app/vendor/ads/upload", shopper.token, { method: "POST", body: new FormData() }), params: {}, context: {} }))).status).toBe(302);
  });

  it("lets the ads team file for a vendor; an admin with vendors.manage only may not", async () => {
    const path = `/app/vendors/${A.id}/ads/requests/new`;
    const fields: [string, string][] = [
      ["product_ids", pgid(9101)],
      ["feature_ids", features["format.single"]!],
      ["brief", "Team-filed brief"],
      ["daily_budget", "30"],
    ];
    const location = await redirectLocation(adminNewRequest.action(post(path, team.token, fields, { id: A.id })));
    expect(location.startsWith(`/app/vendors/${A.id}/ads?filed=`)).toBe(true);
    expect(await refusal(adminNewRequest.action(post(path, vendorsAdmin.token, fields, { id: A.id })))).toBe(403);
    expect(await refusal(adminNewRequest.action(post(path, vendorB.token, fields, { id: A.id })))).toBe(403);
  });
});

describe("ad review", () => {
  const load = (id: string, token: string | null) => adPage.loader(args(`/app/vendor/ads/${id}`, token, { adId: id }));
  const act = (id: string, token: string | null, fields: Record<string, string>) => adPage.action(post(`/app/vendor/ads/${id}`, token, fields, { adId: id }));
  const render = (id: string, data: object) => renderRoute({ id: "routes/app.vendor_.ads_.$adId", path: "/app/vendor/ads/:adId", url: `/app/vendor/ads/${id}`, data, Component: adPage.default });

  it("shows the vendor its ad ready for review with Approve and Send feedback", async () => {
    const d = await load(ads.review!, vendorA.token);
    expect(d.ad).toMatchObject({ status: "COMPLETED", headline: "Headline 9101 COMPLETED", primaryText: "Primary text of 9101", productTitle: "Aster Linen Dress" });
    expect(d.ad.allowedMoves.sort()).toEqual(["approve", "feedback"]);
    expect(d.metrics).toBeNull();
    expect(d.ad.timeline.map((e) => e.kind)).toEqual(["created", "complete"]);
    const html = await render(ads.review!, d);
    expect(html).toContain("Approve");
    expect(html).toContain("Send feedback");
    expect(html).toContain("This ad is ready for your review");
    expect(html).toContain('data-testid="ad-creative"');
    expect(html).toContain("First cut");
    expect(html).not.toContain("Unpublish");
  });

  it("answers 404 to another vendor (ad of A) and to an unknown ad; a shopper is sent away", async () => {
    expect(await refusal(load(ads.review!, vendorB.token))).toBe(404);
    expect(await refusal(load("no-such-ad", vendorA.token))).toBe(404);
    expect(await refusal(act(ads.review!, vendorB.token, { intent: "approve" }))).toBe(404);
    expect((await thrownResponse(load(ads.review!, shopper.token))).status).toBe(302);
    // The admins' URL names the vendor: an ad of another vendor under it is not found either.
    expect(await refusal(adminAdPage.loader(args(`/app/vendors/${B.id}/ads/${ads.review}`, team.token, { id: B.id, adId: ads.review! })))).toBe(404);
  });

  it("sends feedback (text required), which the timeline keeps; then approve is refused until the team completes again", async () => {
    const empty = await act(ads.review!, vendorA.token, { intent: "feedback", text: "  " });
    expect(empty).toMatchObject({ ok: false, intent: "feedback" });
    expect(!empty.ok && empty.error).toContain("Feedback text is required");
    expect(await act(ads.review!, vendorA.token, { intent: "feedback", text: "Use the beige background please" })).toMatchObject({ ok: true, intent: "feedback" });
    const d = await load(ads.review!, vendorA.token);
    expect(d.ad.status).toBe("FEEDBACK_PENDING");
    expect(d.ad.allowedMoves).toEqual([]);
    expect(d.ad.timeline.at(-1)).toMatchObject({ kind: "feedback", text: "Use the beige background please", author: { role: "VENDOR" } });
    expect(await render(ads.review!, d)).toContain("Use the beige background please");
    const refused = await act(ads.review!, vendorA.token, { intent: "approve" });
    expect(refused).toMatchObject({ ok: false, intent: "approve" });
    expect(!refused.ok && refused.error).toMatch(/FEEDBACK_PENDING/);
    expect(await act(ads.review!, vendorA.token, { intent: "publish" })).toEqual({ ok: false, intent: "publish", error: "Unknown action" });
  });

  it("approves once the team completed it again", async () => {
    await app.database.db.productAd.update({ where: { id: ads.review! }, data: { status: "COMPLETED" } });
    expect(await act(ads.review!, vendorA.token, { intent: "approve" })).toMatchObject({ ok: true, intent: "approve" });
    expect((await load(ads.review!, vendorA.token)).ad.status).toBe("APPROVED");
  });

  it("unpublishes a live ad (the vendor stops spending); its delivery shows on its page", async () => {
    const d = await load(ads.live!, vendorA.token);
    expect(d.metrics?.totals).toMatchObject({ impressions: 1500, clicks: 25, spend: "15.00", purchases: 2 });
    const html = await render(ads.live!, d);
    expect(html).toContain('data-testid="chart-ad-daily"');
    expect(html.match(/data-testid="ad-metric-roas">([^<]*)</)?.[1]).toBe("3.33×");
    expect(d.ad.allowedMoves).toEqual(["unpublish"]);
    expect(await render(ads.live!, d)).toContain("Unpublish");
    expect(await act(ads.live!, vendorA.token, { intent: "unpublish" })).toMatchObject({ ok: true, intent: "unpublish" });
    expect((await load(ads.live!, vendorA.token)).ad.status).toBe("INACTIVE");
    const again = await act(ads.live!, vendorA.token, { intent: "unpublish" });
    expect(again.ok).toBe(false);
  });

  it("shows admins the same ad; one with vendors.manage only reads without moves", async () => {
    const d = await adminAdPage.loader(args(`/app/vendors/${B.id}/ads/${ads.other}`, vendorsAdmin.token, { id: B.id, adId: ads.other! }));
    expect(d.ad.allowedMoves).toEqual([]);
    expect(d.scope.asAdmin).toBe(true);
    const r = await adminAdPage.action(post(`/app/vendors/${B.id}/ads/${ads.other}`, vendorsAdmin.token, { intent: "approve" }, { id: B.id, adId: ads.other! }));
    expect(r.ok).toBe(false);
    expect((await app.database.db.productAd.findUniqueOrThrow({ where: { id: ads.other! } })).status).toBe("COMPLETED");
  });
});
