/**
 * The admin product-ads screens (issue 18; app/routes/app.ads*.tsx) through their loaders and
 * actions in local mode, server-rendered with Polaris: the ads.manage guard (an admin without it
 * 403, signed out to the login) and the "Ads" link; the features catalogue (create, a code taken,
 * deactivate, the 409 of a feature in use, delete); the request queue (counts per status, vendor
 * filter, cursor pages) and a request (create an ad from it, complete it: refused while its ads
 * are PENDING, then made); the ad board (counts per status, tabs, search, vendor filter); an ad
 * (edit, complete refused without creatives then made, feedback, approve, publish to the local ads
 * platform, an edit of an approved ad refused, unpublish, the platform's error banner, copy
 * variants picked into the ad, image candidates queued with their progress, delete).
 * Rows the pages need but do not make are written with Prisma.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { runMetricsSyncJob } from "../../app/services/product-ads/metrics.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { redirectLocation, refusal, renderRoute, staffForm, staffRequest as req } from "../helpers/route";
import { createProduct, pgid } from "./products-fixtures";

type BoardRoute = typeof import("../../app/routes/app.ads");
type AdRoute = typeof import("../../app/routes/app.ads_.$id");
type RequestsRoute = typeof import("../../app/routes/app.ads_.requests");
type RequestRoute = typeof import("../../app/routes/app.ads_.requests_.$id");
type FeaturesRoute = typeof import("../../app/routes/app.ads_.features");
let board: BoardRoute;
let adPage: AdRoute;
let requests: RequestsRoute;
let requestPage: RequestRoute;
let features: FeaturesRoute;
let app: TestApp;
type Caller = { id: string; token: string };
let admin: Caller;
let noPerm: Caller;
let vendorUser: Caller;
let A: { id: string; name: string };
let B: { id: string; name: string };
let formatId: string;
let placementId: string;

const enc = encodeURIComponent;
const args = (path: string, token: string | null, params: Record<string, string> = {}) => ({ request: req(path, token), params, context: {} });
const post = (path: string, fields: Record<string, string> | [string, string][], params: Record<string, string> = {}, token: string | null = admin.token) => ({
  request: staffForm(path, token, fields),
  params,
  context: {},
});
const IMG = (n: number) => `/uploads/images/test/${n}-0.jpg`;

async function makeRequest(vendorId: string, productIds: string[], opts: { status?: "open" | "completed"; brief?: string; createdAt?: Date } = {}) {
  return app.database.db.productAdRequest.create({
    data: {
      vendor_id: vendorId,
      product_id: productIds[0],
      product_ids: productIds,
      notes: opts.brief ?? "Autumn audience, 25–40, linen season ends: 15% off",
      daily_budget: new Prisma.Decimal(25),
      start_date: new Date("2026-12-01T00:00:00Z"),
      end_date: new Date("2026-12-31T00:00:00Z"),
      status: opts.status ?? "open",
      ...(opts.createdAt ? { created_at: opts.createdAt } : {}),
      features: { create: [{ feature_id: formatId }, { feature_id: placementId }] },
    },
  });
}

async function makeAd(vendorId: string, productId: string, opts: { status?: "PENDING" | "COMPLETED" | "FEEDBACK_PENDING" | "APPROVED" | "LIVE" | "INACTIVE"; title?: string; requestId?: string; media?: string[]; body?: string; metaError?: string } = {}) {
  return app.database.db.productAd.create({
    data: {
      vendor_id: vendorId,
      product_id: productId,
      request_id: opts.requestId ?? null,
      status: opts.status ?? "PENDING",
      title: opts.title ?? "",
      body: opts.body ?? null,
      media_urls: opts.media ?? [],
      meta_error: opts.metaError ?? null,
    },
  });
}

const loadAd = (id: string, token: string | null = admin.token) => adPage.loader(args(`/app/ads/${enc(id)}`, token, { id }));
const actAd = (id: string, fields: Record<string, string> | [string, string][], token: string | null = admin.token) => adPage.action(post(`/app/ads/${enc(id)}`, fields, { id }, token));
const statusOf = async (id: string) => (await app.database.db.productAd.findUniqueOrThrow({ where: { id } })).status;

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  board = await import("../../app/routes/app.ads");
  adPage = await import("../../app/routes/app.ads_.$id");
  requests = await import("../../app/routes/app.ads_.requests");
  requestPage = await import("../../app/routes/app.ads_.requests_.$id");
  features = await import("../../app/routes/app.ads_.features");
  const db = app.database.db;
  A = await db.vendor.create({ data: { name: "Atelier Aster", handle: "atelier-aster-ads" } });
  B = await db.vendor.create({ data: { name: "Brume Basics", handle: "brume-basics-ads" } });
  await createProduct(db, { n: 9101, title: "Aster Linen Dress", vendorId: A.id });
  await createProduct(db, { n: 9102, title: "Aster Silk Scarf", vendorId: A.id });
  await createProduct(db, { n: 9201, title: "Brume Canvas Tote", vendorId: B.id });
  admin = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"], firstName: "Ada" });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage", "orders.manage"] });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: A.id, firstName: "Vera" });
  formatId = (await db.productAdFeature.create({ data: { code: "format.single", kind: "format", name: "Single image", sort_order: 1 } })).id;
  placementId = (await db.productAdFeature.create({ data: { code: "placement.ig-feed", kind: "placement", name: "Instagram feed", price: new Prisma.Decimal(5), sort_order: 1 } })).id;
});

afterAll(() => app?.close());

describe("access", () => {
  it("links Ads for admins with ads.manage only", async () => {
    const u = async (id: string) => app.database.db.user.findUniqueOrThrow({ where: { id } });
    expect(navigationFor(await u(admin.id)).map((i) => i.url)).toContain("/app/ads");
    expect(navigationFor(await u(noPerm.id)).map((i) => i.url)).not.toContain("/app/ads");
    expect(navigationFor(await u(vendorUser.id)).map((i) => i.url)).not.toContain("/app/ads");
  });

  it("refuses every page and action to an admin without ads.manage, and a vendor; sends the signed-out to the login", async () => {
    const ad = await makeAd(A.id, pgid(9101));
    const r = await makeRequest(A.id, [pgid(9101)]);
    for (const token of [noPerm.token, vendorUser.token]) {
      const expected = token === noPerm.token ? 403 : expect.anything();
      expect(await refusal(board.loader(args("/app/ads", token)))).toEqual(expected);
      expect(await refusal(adPage.loader(args(`/app/ads/${ad.id}`, token, { id: ad.id })))).toEqual(expected);
      expect(await refusal(requests.loader(args("/app/ads/requests", token)))).toEqual(expected);
      expect(await refusal(requestPage.loader(args(`/app/ads/requests/${r.id}`, token, { id: r.id })))).toEqual(expected);
      expect(await refusal(features.loader(args("/app/ads/features", token)))).toEqual(expected);
      expect(await refusal(actAd(ad.id, { intent: "complete" }, token))).toEqual(expected);
      expect(await refusal(features.action(post("/app/ads/features", { intent: "delete", featureId: formatId }, {}, token)))).toEqual(expected);
      expect(await refusal(requestPage.action(post(`/app/ads/requests/${r.id}`, { intent: "complete" }, { id: r.id }, token)))).toEqual(expected);
      expect(await refusal(board.action(post("/app/ads", { intent: "sync" }, {}, token)))).toEqual(expected);
    }
    expect(await refusal(board.loader(args("/app/ads", null)))).toBe("login");
    // Nothing moved.
    expect(await statusOf(ad.id)).toBe("PENDING");
    expect(await app.database.db.productAdFeature.count({ where: { id: formatId } })).toBe(1);
    await app.database.db.productAd.delete({ where: { id: ad.id } });
    await app.database.db.productAdRequest.delete({ where: { id: r.id } });
  });

  it("answers 404 for an unknown ad or request", async () => {
    expect(await refusal(loadAd("no-such-ad"))).toBe(404);
    expect(await refusal(requestPage.loader(args("/app/ads/requests/nope", admin.token, { id: "nope" })))).toBe(404);
  });
});

describe("features catalogue", () => {
  it("lists the catalogue by kind with counts, and renders it", async () => {
    const all = await features.loader(args("/app/ads/features", admin.token));
    expect(all.kind).toBe("all");
    expect(all.features.map((f) => f.code)).toEqual(["format.single", "placement.ig-feed"]);
    const html = await renderRoute({ id: "routes/app.ads_.features", path: "/app/ads/features", url: "/app/ads/features", data: all, Component: features.default });
    expect(html).toContain("Formats (1)");
    expect(html).toContain("Instagram feed");
    expect(html).toContain("$5.00");
    expect((await features.loader(args("/app/ads/features?kind=placement", admin.token))).kind).toBe("placement");
  });

  it("adds a feature, refuses a code in use and an invalid one, edits and deactivates it", async () => {
    const created = await features.action(post("/app/ads/features", { intent: "create", code: "extra.copy", kind: "extra", name: "Copy variants", description: "", price: "9.5", sort_order: "3", active: "true" }));
    expect(created).toEqual({ ok: true, message: "Added “Copy variants” to the catalogue." });
    const row = await app.database.db.productAdFeature.findUniqueOrThrow({ where: { code: "extra.copy" } });
    expect(row.price?.toFixed(2)).toBe("9.50");
    expect(await features.action(post("/app/ads/features", { intent: "create", code: "extra.copy", kind: "extra", name: "Again" }))).toEqual({ ok: false, error: "An ad feature with this code already exists" });
    const bad = await features.action(post("/app/ads/features", { intent: "create", code: "Bad Code", kind: "extra", name: "X" }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^code: /);
    expect(await features.action(post("/app/ads/features", { intent: "update", featureId: row.id, name: "Copy variants (3)", price: "" }))).toEqual({ ok: true, message: "Saved “Copy variants (3)”." });
    expect((await app.database.db.productAdFeature.findUniqueOrThrow({ where: { id: row.id } })).price).toBeNull();
    const off = await features.action(post("/app/ads/features", { intent: "deactivate", featureId: row.id }));
    expect(off.ok).toBe(true);
    expect((await app.database.db.productAdFeature.findUniqueOrThrow({ where: { id: row.id } })).active).toBe(false);
    const html = await renderRoute({ id: "routes/app.ads_.features", path: "/app/ads/features", url: "/app/ads/features", data: await features.loader(args("/app/ads/features", admin.token)), Component: features.default });
    expect(html).toContain("Inactive");
    expect(await features.action(post("/app/ads/features", { intent: "delete", featureId: row.id }))).toEqual({ ok: true, message: "The feature is deleted." });
    expect(await features.action(post("/app/ads/features", { intent: "update", featureId: row.id, name: "Gone" }))).toEqual({ ok: false, error: "Ad feature not found" });
  });

  it("refuses to delete a feature a request chose (409 message), which stays", async () => {
    const r = await makeRequest(A.id, [pgid(9101)]);
    expect(await features.action(post("/app/ads/features", { intent: "delete", featureId: formatId }))).toEqual({ ok: false, error: "This ad feature is used by 1 ad request: deactivate it instead" });
    expect(await app.database.db.productAdFeature.count({ where: { id: formatId } })).toBe(1);
    await app.database.db.productAdRequest.delete({ where: { id: r.id } });
  });
});

describe("ad requests", () => {
  let openA: { id: string };
  let doneB: { id: string };
  beforeAll(async () => {
    const base = Date.now() - 3_600_000;
    openA = await makeRequest(A.id, [pgid(9101), pgid(9102)], { brief: "Linen dress for late summer", createdAt: new Date(base) });
    doneB = await makeRequest(B.id, [pgid(9201)], { status: "completed", brief: "Tote for commuters", createdAt: new Date(base - 60_000) });
  });

  it("counts per status, filters by tab and vendor, and renders the queue", async () => {
    const d = await requests.loader(args("/app/ads/requests", admin.token));
    expect(d.filters.status).toBe("open");
    expect(d.counts).toEqual({ all: 2, open: 1, completed: 1 });
    expect(d.requests.map((r) => r.id)).toEqual([openA.id]);
    expect((await requests.loader(args("/app/ads/requests?status=all", admin.token))).requests.map((r) => r.id)).toEqual([openA.id, doneB.id]);
    expect((await requests.loader(args("/app/ads/requests?status=completed", admin.token))).requests.map((r) => r.id)).toEqual([doneB.id]);
    const onlyB = await requests.loader(args(`/app/ads/requests?status=all&vendorId=${B.id}`, admin.token));
    expect(onlyB.requests.map((r) => r.id)).toEqual([doneB.id]);
    expect(onlyB.counts).toEqual({ all: 1, open: 0, completed: 1 });
    expect((await requests.loader(args("/app/ads/requests?status=all&q=tote", admin.token))).requests.map((r) => r.id)).toEqual([doneB.id]);
    const html = await renderRoute({ id: "routes/app.ads_.requests", path: "/app/ads/requests", url: "/app/ads/requests?status=all", data: await requests.loader(args("/app/ads/requests?status=all", admin.token)), Component: requests.default });
    expect(html).toContain("Open (1)");
    expect(html).toContain("Completed (1)");
    expect(html).toContain("Aster Linen Dress + 1 more");
    expect(html).toContain("Brume Basics");
    expect(html).toContain(`/app/ads/requests/${openA.id}`);
  });

  it("pages with cursors and refuses a forged cursor", async () => {
    const db = app.database.db;
    const extra = [];
    // 26 open ones of B: a full page (25) and one more.
    for (let i = 0; i < 26; i++) extra.push(await makeRequest(B.id, [pgid(9201)], { createdAt: new Date(Date.now() - 7_200_000 - i * 1000) }));
    const first = await requests.loader(args(`/app/ads/requests?vendorId=${B.id}`, admin.token));
    expect(first.requests).toHaveLength(25);
    expect(first.nextCursor).not.toBeNull();
    const second = await requests.loader(args(`/app/ads/requests?vendorId=${B.id}&cursor=${enc(first.nextCursor!)}&trail=`, admin.token));
    expect(second.requests.map((r) => r.id)).toEqual([extra[25].id]);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.requests, ...second.requests].map((r) => r.id)).size).toBe(26);
    expect(await refusal(requests.loader(args("/app/ads/requests?cursor=forged", admin.token)))).toBe(400);
    await db.productAdRequest.deleteMany({ where: { id: { in: extra.map((e) => e.id) } } });
  });

  it("shows a request and makes an ad from it, refusing a product outside the request", async () => {
    const d = await requestPage.loader(args(`/app/ads/requests/${openA.id}`, admin.token, { id: openA.id }));
    expect(d.adRequest.products.map((p) => p.title)).toEqual(["Aster Linen Dress", "Aster Silk Scarf"]);
    const html = await renderRoute({ id: "routes/app.ads_.requests_.$id", path: "/app/ads/requests/:id", url: `/app/ads/requests/${openA.id}`, data: d, Component: requestPage.default });
    expect(html).toContain("Linen dress for late summer");
    expect(html).toContain("$25.00 a day");
    expect(html).toContain("Single image");
    expect(html).toContain("Instagram feed");
    expect(html).toContain("Create ad");
    const outside = await requestPage.action(post(`/app/ads/requests/${openA.id}`, { intent: "create-ad", productId: pgid(9201) }, { id: openA.id }));
    expect(outside).toEqual({ ok: false, error: expect.stringMatching(/not one of the ad request's products|not the vendor's/) });
    const to = await redirectLocation(requestPage.action(post(`/app/ads/requests/${openA.id}`, { intent: "create-ad", productId: pgid(9102) }, { id: openA.id })));
    const ad = await app.database.db.productAd.findFirstOrThrow({ where: { request_id: openA.id } });
    expect(to).toBe(`/app/ads/${ad.id}`);
    expect(ad).toMatchObject({ status: "PENDING", product_id: pgid(9102), vendor_id: A.id });
  });

  it("completes a request only once an ad made from it is past PENDING", async () => {
    const act = () => requestPage.action(post(`/app/ads/requests/${openA.id}`, { intent: "complete" }, { id: openA.id }));
    expect(await act()).toEqual({ ok: false, error: "Make at least one ad from this request first" });
    await app.database.db.productAd.updateMany({ where: { request_id: openA.id }, data: { status: "COMPLETED" } });
    expect(await act()).toEqual({ ok: true, message: "The request is completed." });
    expect((await app.database.db.productAdRequest.findUniqueOrThrow({ where: { id: openA.id } })).status).toBe("completed");
    expect(await act()).toEqual({ ok: false, error: expect.stringContaining("already completed") });
    const html = await renderRoute({
      id: "routes/app.ads_.requests_.$id",
      path: "/app/ads/requests/:id",
      url: `/app/ads/requests/${openA.id}`,
      data: await requestPage.loader(args(`/app/ads/requests/${openA.id}`, admin.token, { id: openA.id })),
      Component: requestPage.default,
    });
    expect(html).not.toContain("Create ad");
    expect(html).toContain('data-status="completed"');
  });
});

describe("ad board", () => {
  beforeAll(async () => {
    await app.database.db.productAd.deleteMany({});
    await makeAd(A.id, pgid(9101), { status: "PENDING", title: "Linen, light as air" });
    await makeAd(A.id, pgid(9102), { status: "LIVE", title: "Silk for every season", media: [IMG(9102)], body: "Soft." });
    await makeAd(B.id, pgid(9201), { status: "LIVE", title: "The commuter tote", media: [IMG(9201)], body: "Carry it all." });
    await makeAd(B.id, pgid(9201), { status: "FEEDBACK_PENDING", title: "Tote, take two" });
  });

  it("counts per status, filters by status, vendor and search, and renders the board", async () => {
    const d = await board.loader(args("/app/ads", admin.token));
    expect(d.board!.counts).toEqual({ all: 4, PENDING: 1, COMPLETED: 0, FEEDBACK_PENDING: 1, APPROVED: 0, LIVE: 2, INACTIVE: 0 });
    expect(d.board!.ads).toHaveLength(4);
    const live = await board.loader(args("/app/ads?status=LIVE", admin.token));
    expect(live.board!.ads.map((a) => a.headline).sort()).toEqual(["Silk for every season", "The commuter tote"]);
    const liveB = await board.loader(args(`/app/ads?status=LIVE&vendorId=${B.id}`, admin.token));
    expect(liveB.board!.ads.map((a) => a.headline)).toEqual(["The commuter tote"]);
    expect(liveB.board!.counts.all).toBe(2);
    expect((await board.loader(args("/app/ads?q=linen", admin.token))).board!.ads.map((a) => a.headline)).toEqual(["Linen, light as air"]);
    const html = await renderRoute({ id: "routes/app.ads", path: "/app/ads", url: "/app/ads", data: d, Component: board.default });
    expect(html).toContain("Live (2)");
    expect(html).toContain("Feedback (1)");
    expect(html).toContain("The commuter tote");
    expect(html).toContain("Sync metrics");
    expect(html).toContain("Brume Basics");
  });

  it("refuses a forged cursor with the service's message", async () => {
    expect(await refusal(board.loader(args("/app/ads?cursor=forged", admin.token)))).toBe(400);
  });

  it("syncs metrics: starts the job, follows its progress, and the ad shows its delivery once it ran", async () => {
    const db = app.database.db;
    const running = await makeAd(A.id, pgid(9101), { status: "LIVE", title: "Running for ten days", media: [IMG(9101)], body: "Linen." });
    await db.productAd.update({ where: { id: running.id }, data: { meta_ad_id: `local-ad-${running.id}`, meta_campaign_id: "c", meta_adset_id: "s", meta_creative_id: "k", daily_budget: new Prisma.Decimal(40), published_at: new Date(Date.now() - 10 * 86_400_000), created_at: new Date(Date.now() - 11 * 86_400_000) } });
    const started = await board.action(post("/app/ads", { intent: "sync" }));
    expect(started).toMatchObject({ ok: true, message: "Syncing the ads' metrics from the ads platform.", jobId: expect.any(String) });
    const jobId = started.ok ? started.jobId : "";
    expect((await board.loader(args(`/app/ads?syncJob=${jobId}`, admin.token))).poll).toEqual({ id: jobId, status: "queued", progress: 0, error: null });
    // Another queue's job is not this page's to show.
    const other = await app.ctx.queue.enqueue("not-ads", {});
    expect((await board.loader(args(`/app/ads?syncJob=${other.id}`, admin.token))).poll).toBeNull();
    const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    await runMetricsSyncJob(app.ctx, job.payload);
    const d = await loadAd(running.id);
    expect(d.daily.some((x) => x.impressions > 0)).toBe(true);
    const html = await renderRoute({ id: "routes/app.ads_.$id", path: "/app/ads/:id", url: `/app/ads/${running.id}`, data: d, Component: adPage.default });
    expect(html).toContain('data-testid="ad-chart-delivery"');
    expect(html).toContain('data-testid="ad-daily-table"');
    expect(html).not.toContain('data-testid="ad-metrics-empty"');
  });
});

describe("an ad", () => {
  let adId: string;
  beforeAll(async () => {
    const r = await makeRequest(A.id, [pgid(9101)]);
    adId = (await makeAd(A.id, pgid(9101), { requestId: r.id })).id;
  });

  it("renders a new ad with its moves, edit form and empty metrics", async () => {
    const d = await loadAd(adId);
    expect(d.ad.allowed_moves).toEqual(["complete"]);
    const html = await renderRoute({ id: "routes/app.ads_.$id", path: "/app/ads/:id", url: `/app/ads/${adId}`, data: d, Component: adPage.default });
    expect(html).toContain("Untitled ad");
    expect(html).toContain('data-testid="ad-moves"');
    expect(html).toContain(">Complete<");
    expect(html).toContain("Generate product shots");
    expect(html).toContain("Write copy variants");
    expect(html).toContain('data-testid="kpi-impressions">0<');
    expect(html).toContain('data-testid="ad-metrics-empty"');
  });

  it("saves the copy, refuses an invalid budget, refuses to complete without creatives, then completes", async () => {
    expect(await actAd(adId, { intent: "update", headline: "Linen, light as air", primary_text: "Our lightest dress yet.", call_to_action: "SHOP_NOW", daily_budget: "20" })).toEqual({ ok: true, message: "Saved." });
    const row = await app.database.db.productAd.findUniqueOrThrow({ where: { id: adId } });
    expect(row).toMatchObject({ title: "Linen, light as air", body: "Our lightest dress yet." });
    expect(row.daily_budget.toFixed(2)).toBe("20.00");
    const bad = await actAd(adId, { intent: "update", daily_budget: "0" });
    expect(bad).toEqual({ ok: false, error: expect.stringMatching(/^daily_budget: /) });
    const refused = await actAd(adId, { intent: "complete", note: "" });
    expect(refused.ok).toBe(false);
    expect(await statusOf(adId)).toBe("PENDING");
    expect(await actAd(adId, [["intent", "creatives"], ["url", IMG(9101)]])).toEqual({ ok: true, message: "The ad's creatives are saved." });
    expect(await actAd(adId, { intent: "complete", note: "First take" })).toEqual({ ok: true, message: "The ad is completed: the vendor can review it now." });
    expect(await statusOf(adId)).toBe("COMPLETED");
  });

  it("refuses a move the status does not allow (409 reason), and an empty feedback", async () => {
    const publish = await actAd(adId, { intent: "publish" });
    expect(publish.ok).toBe(false);
    expect(!publish.ok && publish.error).toMatch(/COMPLETED/);
    expect(await actAd(adId, { intent: "feedback", text: "  " })).toEqual({ ok: false, error: expect.stringMatching(/^text: /) });
    expect(await statusOf(adId)).toBe("COMPLETED");
  });

  it("sends feedback, shows it in the thread, then approves, publishes and unpublishes", async () => {
    expect(await actAd(adId, { intent: "feedback", text: "Use the beach photo please" })).toMatchObject({ ok: true });
    expect(await statusOf(adId)).toBe("FEEDBACK_PENDING");
    const html = await renderRoute({ id: "routes/app.ads_.$id", path: "/app/ads/:id", url: `/app/ads/${adId}`, data: await loadAd(adId), Component: adPage.default });
    expect(html).toContain("“Use the beach photo please”");
    expect(html).toContain('data-kind="feedback"');
    expect(html).toContain("Ada");
    expect(await actAd(adId, { intent: "complete" })).toMatchObject({ ok: true });
    expect(await actAd(adId, { intent: "approve" })).toEqual({ ok: true, message: "The ad is approved: it can be published." });
    expect(await actAd(adId, { intent: "update", headline: "Too late" })).toEqual({ ok: false, error: "An approved ad cannot be edited" });
    expect(await actAd(adId, { intent: "publish" })).toEqual({ ok: true, message: "The ad is live on the ads platform." });
    const live = await app.database.db.productAd.findUniqueOrThrow({ where: { id: adId } });
    expect(live.status).toBe("LIVE");
    expect(live.meta_ad_id).toBeTruthy();
    const liveHtml = await renderRoute({ id: "routes/app.ads_.$id", path: "/app/ads/:id", url: `/app/ads/${adId}`, data: await loadAd(adId), Component: adPage.default });
    expect(liveHtml).toContain(">Unpublish<");
    expect(liveHtml).not.toContain("Generate product shots");
    expect(liveHtml).toContain("An approved ad cannot be edited");
    expect(await actAd(adId, { intent: "delete" })).toEqual({ ok: false, error: expect.stringContaining("Unpublish") });
    expect(await actAd(adId, { intent: "unpublish" })).toEqual({ ok: true, message: "The ad is paused on the ads platform." });
    expect(await statusOf(adId)).toBe("INACTIVE");
  });

  it("shows the ads platform's last error as a banner", async () => {
    const failed = await makeAd(B.id, pgid(9201), { status: "APPROVED", title: "Tote", body: "Carry", media: [IMG(9201)], metaError: "(#100) Invalid parameter: the image is too small" });
    const html = await renderRoute({ id: "routes/app.ads_.$id", path: "/app/ads/:id", url: `/app/ads/${failed.id}`, data: await loadAd(failed.id), Component: adPage.default });
    expect(html).toContain('data-testid="ad-platform-error">(#100) Invalid parameter: the image is too small<');
    const board2 = await renderRoute({ id: "routes/app.ads", path: "/app/ads", url: "/app/ads", data: await board.loader(args("/app/ads", admin.token)), Component: board.default });
    expect(board2).toContain("Platform error");
  });

  it("writes copy variants and picks one into the ad", async () => {
    const fresh = await makeAd(A.id, pgid(9102), { title: "Silk" });
    const wrote = await actAd(fresh.id, { intent: "copy-variants" });
    expect(wrote).toMatchObject({ ok: true });
    const d = await loadAd(fresh.id);
    const copies = d.candidates.filter((c) => c.kind === "copy");
    expect(copies.length).toBeGreaterThan(0);
    const pick = copies[0];
    expect(await actAd(fresh.id, { intent: "use-copy", creativeId: pick.id })).toEqual({ ok: true, message: "The variant's headline and text are in the ad." });
    const row = await app.database.db.productAd.findUniqueOrThrow({ where: { id: fresh.id } });
    expect(row.title).toBe(pick.headline);
    expect(row.body).toBe(pick.primary_text);
    expect(await actAd(fresh.id, { intent: "use-copy", creativeId: "nope" })).toEqual({ ok: false, error: "This copy variant is no longer there" });
  });

  it("queues image candidates and shows them being made", async () => {
    const fresh = await makeAd(A.id, pgid(9101), { title: "Dress" });
    const r = await actAd(fresh.id, { intent: "generate", kind: "product_shot", scene: "sunlit beach" });
    expect(r).toMatchObject({ ok: true, message: expect.stringMatching(/^Making \d+ product shots?…$/) });
    const d = await loadAd(fresh.id);
    expect(d.candidates.some((c) => c.kind === "image" && c.status === "queued")).toBe(true);
    expect(d.creativesJob?.status).toMatch(/queued|running/);
    const html = await renderRoute({ id: "routes/app.ads_.$id", path: "/app/ads/:id", url: `/app/ads/${fresh.id}`, data: d, Component: adPage.default });
    expect(html).toContain('data-testid="ad-creatives-progress"');
    expect(html).toContain('data-status="queued"');
    // An approved ad makes none (the service's 409).
    const approved = await makeAd(A.id, pgid(9101), { status: "APPROVED", title: "Done", body: "Done", media: [IMG(9101)] });
    const refused = await actAd(approved.id, { intent: "generate", kind: "product_shot" });
    expect(refused).toEqual({ ok: false, error: expect.stringContaining("cannot be edited") });
  });

  it("deletes an ad that is not live and goes back to the board", async () => {
    const gone = await makeAd(B.id, pgid(9201), { title: "Delete me" });
    expect(await redirectLocation(actAd(gone.id, { intent: "delete" }))).toBe("/app/ads");
    expect(await app.database.db.productAd.count({ where: { id: gone.id } })).toBe(0);
  });
});
