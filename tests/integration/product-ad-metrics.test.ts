/**
 * Product ad metrics (docs/product-ads.md; app/contract/product-ad-metrics.ts): the sync job
 * (POST /product-ads/sync-meta-performance, the ads.sync-metrics queue, its status endpoint, the
 * daily schedule) and the reads (one ad; a vendor's ads, by /vendors/me and by id). Ads are made
 * directly in the database, with the timeline moves that make them LIVE and INACTIVE.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProductAdStatus } from "@prisma/client";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { addDays, todayIn } from "../../app/lib/store-time-zone";
import { AdsPlatformError, type AdsPlatformPort, type DailyInsight, type InsightsInput } from "../../app/providers/ads-platform/port";
import { ADS_SYNC_METRICS_QUEUE, liveIntervalsOf, nextDailySync, scheduleDailyMetricsSync } from "../../app/services/product-ads/metrics.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
const db = () => app.database.db;
let team: { id: string; token: string };
let vendorsAdmin: { id: string; token: string };
let plainAdmin: { id: string; token: string };
let shopper: { id: string; token: string };
let vendorA: { id: string; user: { id: string; token: string } };
let vendorB: { id: string; user: { id: string; token: string } };
let today: string;
let localPlatform: AdsPlatformPort;
let productSeq = 9300;

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS);

async function makeVendor(handle: string) {
  const v = await db().vendor.create({ data: { name: `Vendor ${handle}`, handle } });
  const user = await app.createUser({ role: "VENDOR", vendorId: v.id });
  return { id: v.id, user };
}

/**
 * An ad of the vendor with platform ids and the timeline of its life: LIVE from `live[i][0]` days
 * ago to `live[i][1]` days ago (null: still live).
 */
async function makeAd(vendorId: string, opts: { live?: Array<[number, number | null]>; status?: ProductAdStatus; budget?: number; headline?: string; published?: boolean } = {}) {
  const n = ++productSeq;
  await createProduct(db(), { n, title: `Ad product ${n}`, vendorId });
  const live = opts.live ?? [];
  const stillLive = live.length > 0 && live[live.length - 1][1] === null;
  const status = opts.status ?? (stillLive ? "LIVE" : live.length ? "INACTIVE" : "PENDING");
  const published = opts.published ?? live.length > 0;
  const ad = await db().productAd.create({
    data: {
      product_id: pgid(n),
      vendor_id: vendorId,
      status,
      title: opts.headline ?? `Headline ${n}`,
      body: "Primary text",
      media_urls: ["https://cdn.example.test/a.jpg"],
      daily_budget: opts.budget ?? 20,
      currencyCode: "USD",
      created_at: daysAgo(60),
      ...(published ? { published_at: daysAgo(live[0]?.[0] ?? 1) } : {}),
    },
  });
  if (published) {
    await db().productAd.update({
      where: { id: ad.id },
      data: { meta_campaign_id: `local-campaign-${ad.id}`, meta_adset_id: `local-adset-${ad.id}`, meta_creative_id: `local-creative-${ad.id}`, meta_ad_id: `local-ad-${ad.id}` },
    });
  }
  const events = live.flatMap(([from, to], i) => [
    { ad_id: ad.id, kind: "publish", from_status: (i === 0 ? "APPROVED" : "INACTIVE") as ProductAdStatus, to_status: "LIVE" as ProductAdStatus, created_at: daysAgo(from) },
    ...(to === null ? [] : [{ ad_id: ad.id, kind: "unpublish", from_status: "LIVE" as ProductAdStatus, to_status: "INACTIVE" as ProductAdStatus, created_at: daysAgo(to) }]),
  ]);
  if (events.length) await db().productAdEvent.createMany({ data: events });
  return ad.id;
}

/** Runs the queued sync jobs to the end. */
const drain = () => startWorker(app.ctx, { [ADS_SYNC_METRICS_QUEUE]: jobHandlers[ADS_SYNC_METRICS_QUEUE] }, { autoStart: false }).drain();

async function sync(body: Record<string, unknown> = {}) {
  const r = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  await drain();
  const job = await app.api("GET", `/product-ads/sync-jobs/${r.body.jobId}`, { token: team.token });
  expect(job.status).toBe(200);
  return job.body;
}

/** A platform answering fixed days for every ad asked (keyed by platform ad id), or failing. */
function stubPlatform(rows: (input: InsightsInput) => DailyInsight[] | Error): AdsPlatformPort {
  return {
    name: "local",
    publish: localPlatform.publish,
    pause: localPlatform.pause,
    async insights(input) {
      const r = rows(input);
      if (r instanceof Error) throw r;
      return r;
    },
  };
}

const insight = (platformAdId: string, date: string, over: Partial<DailyInsight> = {}): DailyInsight => ({
  platformAdId,
  date,
  impressions: 1000,
  reach: 900,
  clicks: 20,
  spend: "10.00",
  purchases: 2,
  purchaseValue: "45.00",
  currencyCode: "USD",
  ...over,
});

beforeAll(async () => {
  app = await createTestApp();
  localPlatform = app.ctx.adsPlatform;
  today = todayIn(app.ctx.config.STORE_TIMEZONE);
  team = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"] });
  vendorsAdmin = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  plainAdmin = await app.createUser({ role: "ADMIN", permissions: [] });
  shopper = await app.createUser();
  vendorA = await makeVendor("metrics-a");
  vendorB = await makeVendor("metrics-b");
}, 120_000);
afterAll(() => app?.close());
afterEach(() => {
  app.ctx.adsPlatform = localPlatform;
});

describe("live intervals", () => {
  it("come from the moves into and out of LIVE; a LIVE ad without them is live since published", () => {
    const t = (d: number) => new Date(Date.UTC(2026, 10, d));
    const ad = { status: "INACTIVE" as const, published_at: t(2), created_at: t(1) };
    expect(
      liveIntervalsOf(
        [
          { from_status: "APPROVED", to_status: "LIVE", created_at: t(2) },
          { from_status: "LIVE", to_status: "INACTIVE", created_at: t(5) },
          { from_status: "INACTIVE", to_status: "LIVE", created_at: t(8) },
        ],
        ad,
      ),
    ).toEqual([
      { from: t(2), to: t(5) },
      { from: t(8), to: null },
    ]);
    expect(liveIntervalsOf([], { ...ad, status: "LIVE" })).toEqual([{ from: t(2), to: null }]);
    expect(liveIntervalsOf([], ad)).toEqual([]);
  });
});

describe("POST /product-ads/sync-meta-performance", () => {
  it("syncs every ad live in the range with the local platform; a day synced twice is stored once", async () => {
    const live = await makeAd(vendorA.id, { live: [[10, null]] });
    const paused = await makeAd(vendorA.id, { live: [[20, 10]] });
    const longAgo = await makeAd(vendorA.id, { live: [[59, 50]] });
    const from = addDays(today, -13);

    const first = await sync({ from, to: today });
    expect(first).toMatchObject({ status: "completed", progress: 100, scheduled: false, from, to: today, error: null });
    expect(first.result.platform).toBe("local");
    const synced = await db().productAd.findMany({ where: { id: { in: [live, paused, longAgo] } } });
    const byId = new Map(synced.map((a) => [a.id, a]));
    expect(byId.get(live)!.metrics_synced_at).not.toBeNull();
    expect(byId.get(paused)!.metrics_synced_at).not.toBeNull();
    // LIVE 59 to 50 days ago: nothing of it in the last 14 days, so not read.
    expect(byId.get(longAgo)!.metrics_synced_at).toBeNull();

    const rowsAfterFirst = await db().productAdMetricDaily.findMany({ where: { ad_id: live }, orderBy: { date: "asc" } });
    expect(rowsAfterFirst.length).toBeGreaterThanOrEqual(10);
    const again = await sync({ from, to: today });
    expect(again.status).toBe("completed");
    const rowsAfterSecond = await db().productAdMetricDaily.findMany({ where: { ad_id: live }, orderBy: { date: "asc" } });
    expect(rowsAfterSecond.map((r) => [r.date.toISOString(), r.impressions, r.spend.toFixed(2)])).toEqual(rowsAfterFirst.map((r) => [r.date.toISOString(), r.impressions, r.spend.toFixed(2)]));
    const keys = rowsAfterSecond.map((r) => r.date.toISOString());
    expect(new Set(keys).size).toBe(keys.length);

    // Totals on the ad are the sum of its stored days; no spend beyond the budget on any day.
    const ad = await db().productAd.findUniqueOrThrow({ where: { id: live } });
    expect(ad.impressions).toBe(rowsAfterSecond.reduce((s, r) => s + r.impressions, 0));
    expect(ad.spend.toFixed(2)).toBe(rowsAfterSecond.reduce((s, r) => s + Number(r.spend), 0).toFixed(2));
    expect(ad.conversions).toBe(rowsAfterSecond.reduce((s, r) => s + r.purchases, 0));
    expect(rowsAfterSecond.every((r) => Number(r.spend) <= 20)).toBe(true);
    // The paused ad has days only inside its live interval (20 to 10 days ago), cut at the range's start.
    const pausedDays = (await db().productAdMetricDaily.findMany({ where: { ad_id: paused }, orderBy: { date: "asc" } })).map((r) => r.date.toISOString().slice(0, 10));
    expect(pausedDays[0]).toBe(from);
    expect(pausedDays.at(-1)! <= addDays(today, -10)).toBe(true);
    expect(pausedDays.length).toBeGreaterThanOrEqual(3);
  });

  it("ad_ids syncs those ads whatever their live range; days the platform stops reporting are removed", async () => {
    const ad = await makeAd(vendorB.id, { live: [[30, 25]] });
    const platformId = `local-ad-${ad}`;
    const d1 = addDays(today, -2);
    const d2 = addDays(today, -1);
    app.ctx.adsPlatform = stubPlatform(() => [insight(platformId, d1), insight(platformId, d2, { spend: "5.00", purchaseValue: "0.00", purchases: 0 })]);
    const first = await sync({ from: d1, to: d2, ad_ids: [ad] });
    expect(first.result).toMatchObject({ total: 1, done: 1, rows: 2, removed: 0, failed: [] });

    app.ctx.adsPlatform = stubPlatform(() => [insight(platformId, d1, { impressions: 1500 })]);
    const second = await sync({ from: d1, to: d2, ad_ids: [ad] });
    expect(second.result).toMatchObject({ total: 1, rows: 1, removed: 1 });
    const rows = await db().productAdMetricDaily.findMany({ where: { ad_id: ad } });
    expect(rows.map((r) => [r.date.toISOString().slice(0, 10), r.impressions])).toEqual([[d1, 1500]]);
    const stored = await db().productAd.findUniqueOrThrow({ where: { id: ad } });
    expect([stored.impressions, stored.spend.toFixed(2), stored.purchase_value.toFixed(2)]).toEqual([1500, "10.00", "45.00"]);
  });

  it("a platform refusal is kept on the ad (meta_error, one timeline entry) and reported; the next success clears it", async () => {
    const ad = await makeAd(vendorB.id, { live: [[3, null]] });
    app.ctx.adsPlatform = stubPlatform(() => new AdsPlatformError("auth", "Meta refused the access token (renew META_ACCESS_TOKEN): Session has expired", { code: 190 }));
    const failed = await sync({ ad_ids: [ad] });
    expect(failed.status).toBe("completed");
    expect(failed.result.failed).toEqual([{ adId: ad, error: expect.stringMatching(/Session has expired/) }]);
    await sync({ ad_ids: [ad] });
    const row = await db().productAd.findUniqueOrThrow({ where: { id: ad } });
    expect(row.meta_error).toMatch(/^Metrics sync: .*Session has expired/);
    expect(await db().productAdEvent.count({ where: { ad_id: ad, kind: "platform_error" } })).toBe(1);

    app.ctx.adsPlatform = localPlatform;
    await sync({ ad_ids: [ad] });
    expect((await db().productAd.findUniqueOrThrow({ where: { id: ad } })).meta_error).toBeNull();
  });

  it("a rate limit that outlasted the adapter's retries fails the run: the job waits for its retry", async () => {
    const ad = await makeAd(vendorB.id, { live: [[3, null]] });
    app.ctx.adsPlatform = stubPlatform(() => new AdsPlatformError("rate_limit", "Meta is rate limiting the ad account: User request limit reached", { code: 17 }));
    const r = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { ad_ids: [ad] } });
    await drain();
    const job = await app.api("GET", `/product-ads/sync-jobs/${r.body.jobId}`, { token: team.token });
    expect(job.body).toMatchObject({ status: "queued", attempts: 1, result: null, error: expect.stringMatching(/rate limiting/) });
    expect((await db().productAd.findUniqueOrThrow({ where: { id: ad } })).meta_error).toMatch(/rate limiting/);
    await db().job.update({ where: { id: r.body.jobId }, data: { status: "completed" } });
  });

  it("the same sync while one is queued answers its job", async () => {
    const a = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { from: addDays(today, -3), to: today } });
    const b = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { from: addDays(today, -3), to: today } });
    expect(a.status).toBe(202);
    expect(b.body.jobId).toBe(a.body.jobId);
    await drain();
  });

  it("refuses unknown and never-published ads (422), bad ranges (400)", async () => {
    const pending = await makeAd(vendorA.id, { status: "APPROVED" });
    const unknown = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { ad_ids: ["no-such-ad"] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toMatch(/Unknown product ad: no-such-ad/);
    const unpublished = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { ad_ids: [pending] } });
    expect(unpublished.status).toBe(422);
    expect(unpublished.body.error.message).toMatch(/Never published/);
    const backwards = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { from: today, to: addDays(today, -1) } });
    expect(backwards.status).toBe(400);
    const tooLong = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { from: "2024-01-01", to: "2026-01-01" } });
    expect(tooLong.status).toBe(400);
    const empty = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: { ad_ids: [] } });
    expect(empty.status).toBe(400);
  });

  it("only the team may sync: vendors, admins without ads.manage and shoppers get 403", async () => {
    for (const token of [vendorA.user.token, vendorsAdmin.token, plainAdmin.token, shopper.token]) {
      expect((await app.api("POST", "/product-ads/sync-meta-performance", { token, body: {} })).status).toBe(403);
    }
    expect((await app.api("POST", "/product-ads/sync-meta-performance", { body: {} })).status).toBe(401);
  });

  it("the job status: unknown ids and other queues' jobs are 404; vendors get 403", async () => {
    expect((await app.api("GET", "/product-ads/sync-jobs/no-such-job", { token: team.token })).status).toBe(404);
    const other = await app.ctx.queue.enqueue("system.ping", {});
    expect((await app.api("GET", `/product-ads/sync-jobs/${other.id}`, { token: team.token })).status).toBe(404);
    await db().job.update({ where: { id: other.id }, data: { status: "completed" } });
    const r = await app.api("POST", "/product-ads/sync-meta-performance", { token: team.token, body: {} });
    expect((await app.api("GET", `/product-ads/sync-jobs/${r.body.jobId}`, { token: vendorA.user.token })).status).toBe(403);
    const queued = await app.api("GET", `/product-ads/sync-jobs/${r.body.jobId}`, { token: team.token });
    expect(queued.body).toMatchObject({ status: "queued", progress: 0, result: null });
    await drain();
  });
});

describe("the daily sync", () => {
  it("is queued once per day, syncs the last 3 days and queues the next day's", async () => {
    await db().job.updateMany({ where: { queue: ADS_SYNC_METRICS_QUEUE, status: "queued" }, data: { status: "completed" } });
    const now = new Date();
    const a = await scheduleDailyMetricsSync(app.ctx, now);
    const b = await scheduleDailyMetricsSync(app.ctx, now);
    expect(b.jobId).toBe(a.jobId);
    expect(a.at.getTime()).toBe(nextDailySync("UTC", now).at.getTime());
    expect(a.at.getUTCHours()).toBe(4);
    expect(a.at.getTime()).toBeGreaterThan(now.getTime());
    expect(a.at.getTime() - now.getTime()).toBeLessThanOrEqual(DAY_MS);

    const ad = await makeAd(vendorA.id, { live: [[40, null]] });
    const asked: InsightsInput[] = [];
    app.ctx.adsPlatform = stubPlatform((input) => {
      asked.push(input);
      return [];
    });
    await db().job.update({ where: { id: a.jobId }, data: { run_at: new Date(Date.now() - 1000) } });
    await drain();
    const done = await app.api("GET", `/product-ads/sync-jobs/${a.jobId}`, { token: team.token });
    expect(done.body).toMatchObject({ status: "completed", scheduled: true, from: addDays(today, -2), to: today });
    expect(asked[0]).toMatchObject({ since: addDays(today, -2), until: today });
    expect(asked.flatMap((i) => i.ads.map((x) => x.platformAdId))).toContain(`local-ad-${ad}`);
    const next = await db().job.findMany({ where: { queue: ADS_SYNC_METRICS_QUEUE, status: "queued" } });
    expect(next).toHaveLength(1);
    expect(next[0].dedupe_key).toMatch(/^ads\.sync-metrics:daily:\d{4}-\d{2}-\d{2}$/);
    expect(next[0].run_at.getTime()).toBeGreaterThan(a.at.getTime());
    await db().job.update({ where: { id: next[0].id }, data: { status: "completed" } });
  });
});

describe("GET /product-ads/{id}/metrics", () => {
  let ad: string;
  const d1 = () => addDays(today, -3);
  const d2 = () => addDays(today, -2);

  beforeAll(async () => {
    ad = await makeAd(vendorA.id, { live: [[5, null]] });
    app.ctx.adsPlatform = stubPlatform((input) =>
      input.ads.flatMap((a) => [
        insight(a.platformAdId, d1(), { impressions: 2000, clicks: 30, spend: "12.00", purchases: 3, purchaseValue: "90.00" }),
        insight(a.platformAdId, d2(), { impressions: 0, reach: 0, clicks: 0, spend: "0.00", purchases: 0, purchaseValue: "0.00" }),
      ]),
    );
    await sync({ from: d1(), to: d2(), ad_ids: [ad] });
  });

  it("answers totals and every day of the range with CTR, CPC and ROAS", async () => {
    const from = addDays(today, -4);
    const r = await app.api("GET", `/product-ads/${ad}/metrics`, { token: vendorA.user.token, query: { from, to: d2() } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ adId: ad, status: "LIVE", from, to: d2(), currencyCode: "USD", metaError: null });
    expect(r.body.syncedAt).toEqual(expect.any(String));
    expect(r.body.totals).toEqual({ impressions: 2000, reach: 900, clicks: 30, spend: "12.00", purchases: 3, purchaseValue: "90.00", ctr: 0.015, cpc: "0.40", roas: 7.5 });
    expect(r.body.daily.map((d: { date: string }) => d.date)).toEqual([from, d1(), d2()]);
    expect(r.body.daily[0]).toEqual({ date: from, impressions: 0, reach: 0, clicks: 0, spend: "0.00", purchases: 0, purchaseValue: "0.00", ctr: null, cpc: null, roas: null });
    expect(r.body.daily[1]).toMatchObject({ ctr: 0.015, cpc: "0.40", roas: 7.5 });
    expect(r.body.daily[2]).toMatchObject({ impressions: 0, ctr: null, cpc: null, roas: null });
  });

  it("an empty range is zeros; the default range is the last 30 days", async () => {
    const r = await app.api("GET", `/product-ads/${ad}/metrics`, { token: team.token, query: { from: "2025-01-01", to: "2025-01-07" } });
    expect(r.status).toBe(200);
    expect(r.body.daily).toHaveLength(7);
    expect(r.body.totals).toEqual({ impressions: 0, reach: 0, clicks: 0, spend: "0.00", purchases: 0, purchaseValue: "0.00", ctr: null, cpc: null, roas: null });
    const def = await app.api("GET", `/product-ads/${ad}/metrics`, { token: team.token });
    expect(def.body).toMatchObject({ from: addDays(today, -29), to: today });
    expect(def.body.daily).toHaveLength(30);
    expect(def.body.totals.impressions).toBe(2000);
  });

  it("another vendor's ad and unknown ids are 404; admins without ads.manage and shoppers 403; bad ranges 400", async () => {
    expect((await app.api("GET", `/product-ads/${ad}/metrics`, { token: vendorB.user.token })).status).toBe(404);
    expect((await app.api("GET", `/product-ads/no-such-ad/metrics`, { token: team.token })).status).toBe(404);
    expect((await app.api("GET", `/product-ads/${ad}/metrics`, { token: vendorsAdmin.token })).status).toBe(403);
    expect((await app.api("GET", `/product-ads/${ad}/metrics`, { token: shopper.token })).status).toBe(403);
    expect((await app.api("GET", `/product-ads/${ad}/metrics`, { token: team.token, query: { from: today, to: addDays(today, -1) } })).status).toBe(400);
    expect((await app.api("GET", `/product-ads/${ad}/metrics`, { token: team.token, query: { from: "2024-01-01", to: "2025-06-01" } })).status).toBe(400);
    expect((await app.api("GET", `/product-ads/${ad}/metrics`, { token: team.token, query: { from: "2026-02-30" } })).status).toBe(400);
  });
});

describe("vendor ads metrics", () => {
  let vendorC: { id: string; user: { id: string; token: string } };
  let big: string;
  let small: string;
  let running: string;
  const day = () => addDays(today, -1);

  beforeAll(async () => {
    vendorC = await makeVendor("metrics-c");
    big = await makeAd(vendorC.id, { live: [[4, 0.5]], headline: "Big spender" });
    small = await makeAd(vendorC.id, { live: [[4, 0.5]], headline: "Small spender" });
    running = await makeAd(vendorC.id, { live: [[0.01, null]], headline: "Just started" });
    await makeAd(vendorC.id, { status: "PENDING", headline: "Not yet" });
    const other = await makeAd(vendorB.id, { live: [[4, null]] });
    const spend: Record<string, string> = { [`local-ad-${big}`]: "30.00", [`local-ad-${small}`]: "10.00", [`local-ad-${other}`]: "99.00" };
    app.ctx.adsPlatform = stubPlatform((input) =>
      input.ads.filter((a) => spend[a.platformAdId]).map((a) => insight(a.platformAdId, day(), { spend: spend[a.platformAdId], purchaseValue: "60.00", impressions: 4000, clicks: 40 })),
    );
    await sync({ from: day(), to: day(), ad_ids: [big, small, other] });
  });

  it("/vendors/me/ads/metrics: the vendor's totals, daily series and per-ad rows, most spend first", async () => {
    const r = await app.api("GET", "/vendors/me/ads/metrics", { token: vendorC.user.token, query: { from: addDays(today, -2), to: today } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ vendorId: vendorC.id, from: addDays(today, -2), to: today, currencyCode: "USD" });
    expect(r.body.totals).toEqual({ impressions: 8000, reach: 1800, clicks: 80, spend: "40.00", purchases: 4, purchaseValue: "120.00", ctr: 0.01, cpc: "0.50", roas: 3 });
    expect(r.body.daily.map((d: { date: string; spend: string }) => [d.date, d.spend])).toEqual([
      [addDays(today, -2), "0.00"],
      [day(), "40.00"],
      [today, "0.00"],
    ]);
    expect(r.body.ads.map((a: { id: string }) => a.id)).toEqual([big, small, running]);
    expect(r.body.ads[0]).toMatchObject({ headline: "Big spender", status: "INACTIVE", totals: { spend: "30.00", roas: 2 } });
    expect(r.body.ads[2]).toMatchObject({ status: "LIVE", totals: { spend: "0.00", impressions: 0, ctr: null, roas: null } });
  });

  it("an empty range answers zeros and only the running ads", async () => {
    const r = await app.api("GET", "/vendors/me/ads/metrics", { token: vendorC.user.token, query: { from: "2025-03-01", to: "2025-03-02" } });
    expect(r.status).toBe(200);
    expect(r.body.totals).toMatchObject({ impressions: 0, spend: "0.00", ctr: null, cpc: null, roas: null });
    expect(r.body.daily).toHaveLength(2);
    expect(r.body.ads.map((a: { id: string }) => a.id)).toEqual([running]);
  });

  it("/vendors/{id}/ads/metrics: the same answer for admins with vendors.manage or ads.manage and the vendor itself", async () => {
    const query = { from: addDays(today, -2), to: today };
    const mine = await app.api("GET", "/vendors/me/ads/metrics", { token: vendorC.user.token, query });
    for (const token of [vendorsAdmin.token, team.token, vendorC.user.token]) {
      const r = await app.api("GET", `/vendors/${vendorC.id}/ads/metrics`, { token, query });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(mine.body);
    }
  });

  it("another vendor's id and unknown ids are 404; admins without the permissions and shoppers 403; admins on /me 403", async () => {
    expect((await app.api("GET", `/vendors/${vendorC.id}/ads/metrics`, { token: vendorA.user.token })).status).toBe(404);
    expect((await app.api("GET", `/vendors/no-such-vendor/ads/metrics`, { token: vendorsAdmin.token })).status).toBe(404);
    expect((await app.api("GET", `/vendors/${vendorC.id}/ads/metrics`, { token: plainAdmin.token })).status).toBe(403);
    expect((await app.api("GET", `/vendors/${vendorC.id}/ads/metrics`, { token: shopper.token })).status).toBe(403);
    expect((await app.api("GET", "/vendors/me/ads/metrics", { token: team.token })).status).toBe(403);
    expect((await app.api("GET", "/vendors/me/ads/metrics", { token: shopper.token })).status).toBe(403);
    expect((await app.api("GET", "/vendors/me/ads/metrics", { token: vendorC.user.token, query: { from: "2025-01-01", to: "2026-06-01" } })).status).toBe(400);
  });

  it("another vendor's ads never count", async () => {
    const r = await app.api("GET", "/vendors/me/ads/metrics", { token: vendorB.user.token, query: { from: day(), to: day() } });
    expect(r.status).toBe(200);
    expect(r.body.ads.some((a: { id: string }) => [big, small, running].includes(a.id))).toBe(false);
    expect(r.body.totals.spend).toBe("99.00");
  });
});
