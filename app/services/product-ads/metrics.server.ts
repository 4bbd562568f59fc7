/**
 * Product ad metrics (docs/product-ads.md "The ads platform"): the sync from the ads platform into
 * `product_ad_metrics_daily`, and the reads of the stored days (one ad; one vendor's ads).
 *
 * Sync: the ads asked for (or every ad that was LIVE at some point of the range, from its
 * timeline's moves into and out of LIVE) are read from the platform 50 at a time. Per batch, in one
 * transaction: the days answered are upserted by (ad_id, date), so a day synced twice is stored
 * once; days of the range the platform no longer reports (no delivery) are removed; the ad's totals
 * on `product_ads` are recomputed from all its stored days; `meta_error` is cleared. A platform
 * error on a batch is kept on its ads (`meta_error`, and a `platform_error` timeline entry when the
 * error is new): a rate limit or an outage fails the job so it is retried later (the batches done
 * stay done: they are idempotent), a refusal (token, permission, bad request) is reported in the
 * result and the other batches go on.
 *
 * Days are calendar days of the ad account (the store's time zone for the local platform). CTR =
 * clicks / impressions, CPC = spend / clicks, ROAS = purchase value / spend, null when the divisor
 * is 0. Reach is the sum of the days' reach (the platform's unique reach over a range is not
 * stored). Every read answers every day of its range, zeros where nothing was delivered.
 */
import crypto from "node:crypto";
import { Prisma, type ProductAdStatus } from "@prisma/client";
import { z } from "zod";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { addDays, dayStart, todayIn } from "~/lib/store-time-zone";
import { AdsPlatformError, type DailyInsight, type InsightsAd } from "~/providers/ads-platform/port";
import { analyticsRangeDays, DateOnly } from "~/contract/date-range";
import type { ProductAdMetricsTotals } from "~/contract/product-ads";

export const ADS_SYNC_METRICS_QUEUE = "ads.sync-metrics";
/** The daily sync re-reads this many days (today included): the platform revises recent days. */
export const DAILY_SYNC_DAYS = 3;
/** Local hour of the store's day when the daily sync runs. */
export const DAILY_SYNC_HOUR = 4;
export const METRICS_DEFAULT_DAYS = 30;
export const METRICS_MAX_DAYS = 366;
const ADS_PER_BATCH = 50;
const TX_OPTIONS = { maxWait: 15_000, timeout: 60_000 };

export type MetricsDeps = Pick<AppContext, "db" | "adsPlatform" | "config" | "log" | "queue">;

export const MetricsMessages = {
  AD_NOT_FOUND: "Product ad not found",
  VENDOR_NOT_FOUND: "Vendor not found",
  FROM_AFTER_TO: "from must not be after to",
  RANGE_TOO_LONG: `the range must be at most ${METRICS_MAX_DAYS} days`,
  JOB_NOT_FOUND: "Sync job not found",
  unknownAds: (ids: string[]) => `Unknown product ad${ids.length > 1 ? "s" : ""}: ${ids.join(", ")}`,
  neverPublished: (ids: string[]) => `Never published, so no metrics to sync: ${ids.join(", ")}`,
} as const;

// ---------------------------------------------------------------------------------------------
// Ranges and live intervals

export interface DayRange {
  from: string;
  to: string;
}

/** The asked range with its defaults (the last 30 days to today in the store's zone), checked. */
export function resolveRange(config: Pick<AppContext["config"], "STORE_TIMEZONE">, asked: { from?: string; to?: string }, defaultDays = METRICS_DEFAULT_DAYS, now = new Date()): DayRange {
  const to = asked.to ?? (asked.from ? maxDay(asked.from, addDays(asked.from, defaultDays - 1), todayIn(config.STORE_TIMEZONE, now)) : todayIn(config.STORE_TIMEZONE, now));
  const from = asked.from ?? addDays(to, -(defaultDays - 1));
  if (from > to) throw invalid(MetricsMessages.FROM_AFTER_TO, { from: [MetricsMessages.FROM_AFTER_TO] });
  if (analyticsRangeDays(from, to) > METRICS_MAX_DAYS) throw invalid(MetricsMessages.RANGE_TOO_LONG, { to: [MetricsMessages.RANGE_TOO_LONG] });
  return { from, to };
}

/** `from` + (n − 1) days, but not past today (and never before `from`). */
function maxDay(from: string, end: string, today: string): string {
  const capped = end < today ? end : today;
  return capped < from ? from : capped;
}

export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) days.push(d);
  return days;
}

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

type LiveInterval = InsightsAd["liveIntervals"][number];

/**
 * The intervals an ad was LIVE, from its timeline's moves (oldest first): a move into LIVE opens
 * one, a move out of it closes it. An ad LIVE with no such move (written directly) counts as live
 * since it was first published.
 */
export function liveIntervalsOf(
  events: Array<{ from_status: ProductAdStatus | null; to_status: ProductAdStatus | null; created_at: Date }>,
  ad: { status: ProductAdStatus; published_at: Date | null; created_at: Date },
): LiveInterval[] {
  const intervals: LiveInterval[] = [];
  let open: Date | null = null;
  for (const e of [...events].sort((a, b) => a.created_at.getTime() - b.created_at.getTime())) {
    if (e.to_status === "LIVE" && e.from_status !== "LIVE" && !open) open = e.created_at;
    else if (e.from_status === "LIVE" && e.to_status !== "LIVE" && open) {
      intervals.push({ from: open, to: e.created_at });
      open = null;
    }
  }
  if (open) intervals.push({ from: open, to: null });
  if (intervals.length === 0 && ad.status === "LIVE") intervals.push({ from: ad.published_at ?? ad.created_at, to: null });
  return intervals;
}

const overlaps = (intervals: LiveInterval[], start: Date, end: Date) => intervals.some((i) => i.from < end && (i.to === null || i.to > start));

// ---------------------------------------------------------------------------------------------
// Sync

export const SyncPayload = z.object({
  from: DateOnly.optional(),
  to: DateOnly.optional(),
  adIds: z.array(z.string().min(1)).max(500).nullable().optional(),
  /** The daily sync: the last DAILY_SYNC_DAYS days, and it schedules the next one. */
  scheduled: z.boolean().optional(),
  /** The store day the daily sync was queued for. */
  day: DateOnly.optional(),
});
export type SyncPayload = z.infer<typeof SyncPayload>;

export type SyncResult = {
  from: string;
  to: string;
  /** Ads to sync, ads synced. */
  total: number;
  done: number;
  /** Daily rows written (inserted or updated) and removed. */
  rows: number;
  removed: number;
  /** Ads whose batch the platform refused, with its reason. */
  failed: Array<{ adId: string; error: string }>;
  platform: string;
};

interface SyncAd {
  id: string;
  platformAdId: string;
  dailyBudget: string;
  currencyCode: string;
  liveIntervals: LiveInterval[];
  metaError: string | null;
}

const adSelect = {
  id: true,
  status: true,
  meta_ad_id: true,
  daily_budget: true,
  currencyCode: true,
  meta_error: true,
  published_at: true,
  created_at: true,
  events: { where: { OR: [{ to_status: "LIVE" }, { from_status: "LIVE" }] }, select: { from_status: true, to_status: true, created_at: true }, orderBy: { created_at: "asc" } },
} satisfies Prisma.ProductAdSelect;

/** The ads a sync reads: those asked (published ones), or every ad LIVE at some point of the range. */
async function adsToSync(deps: Pick<MetricsDeps, "db"> & { config: Pick<MetricsDeps["config"], "STORE_TIMEZONE"> }, range: DayRange, adIds: string[] | null | undefined): Promise<SyncAd[]> {
  const rows = await deps.db.productAd.findMany({
    where: { meta_ad_id: { not: null }, ...(adIds ? { id: { in: adIds } } : {}) },
    select: adSelect,
    orderBy: { created_at: "asc" },
  });
  const start = dayStart(range.from, deps.config.STORE_TIMEZONE);
  const end = dayStart(addDays(range.to, 1), deps.config.STORE_TIMEZONE);
  const ads: SyncAd[] = [];
  for (const r of rows) {
    const liveIntervals = liveIntervalsOf(r.events, r);
    if (!adIds && !overlaps(liveIntervals, start, end)) continue;
    ads.push({ id: r.id, platformAdId: r.meta_ad_id!, dailyBudget: r.daily_budget.toFixed(2), currencyCode: r.currencyCode, liveIntervals, metaError: r.meta_error });
  }
  return ads;
}

/** Checks the ids of a sync request before its job is queued: unknown (or another's) → 422, never published → 422. */
export async function checkSyncAds(db: Db, adIds: string[]): Promise<void> {
  const rows = await db.productAd.findMany({ where: { id: { in: adIds } }, select: { id: true, meta_ad_id: true } });
  const known = new Map(rows.map((r) => [r.id, r]));
  const unknown = adIds.filter((id) => !known.has(id));
  if (unknown.length) throw unprocessableError(MetricsMessages.unknownAds(unknown), { ad_ids: [MetricsMessages.unknownAds(unknown)] });
  const unpublished = adIds.filter((id) => !known.get(id)!.meta_ad_id);
  if (unpublished.length) throw unprocessableError(MetricsMessages.neverPublished(unpublished), { ad_ids: [MetricsMessages.neverPublished(unpublished)] });
}

/** Queues a sync (202 {jobId}); the same sync already queued or running answers its job. */
export async function enqueueMetricsSync(deps: Pick<MetricsDeps, "db" | "queue" | "config">, input: { from?: string; to?: string; ad_ids?: string[] }): Promise<{ jobId: string }> {
  const range = resolveRange(deps.config, input);
  const adIds = input.ad_ids?.length ? [...new Set(input.ad_ids)].sort() : null;
  if (adIds) await checkSyncAds(deps.db, adIds);
  const scope = adIds ? crypto.createHash("sha256").update(adIds.join(",")).digest("hex").slice(0, 16) : "all";
  const payload: SyncPayload = { from: range.from, to: range.to, adIds };
  const job = await deps.queue.enqueue(ADS_SYNC_METRICS_QUEUE, payload, { dedupeKey: `${ADS_SYNC_METRICS_QUEUE}:${range.from}:${range.to}:${scope}`, maxAttempts: 5 });
  return { jobId: job.id };
}

const dailySyncAt = (day: string, zone: string) => new Date(dayStart(day, zone).getTime() + DAILY_SYNC_HOUR * 3_600_000);

/** When the daily sync after `now` runs: DAILY_SYNC_HOUR of the next store day that has not reached it. */
export function nextDailySync(zone: string, now = new Date()): { day: string; at: Date } {
  const today = todayIn(zone, now);
  if (dailySyncAt(today, zone) > now) return { day: today, at: dailySyncAt(today, zone) };
  const tomorrow = addDays(today, 1);
  return { day: tomorrow, at: dailySyncAt(tomorrow, zone) };
}

/**
 * Makes sure the next daily sync is queued (at start-up, and by each daily run for the next day).
 * One job per day (dedupe key of the day), so starts and re-runs never queue it twice.
 */
export async function scheduleDailyMetricsSync(deps: Pick<MetricsDeps, "queue" | "config">, now = new Date()): Promise<{ jobId: string; at: Date }> {
  const next = nextDailySync(deps.config.STORE_TIMEZONE, now);
  const job = await deps.queue.enqueue(ADS_SYNC_METRICS_QUEUE, { scheduled: true, day: next.day } satisfies SyncPayload, { runAt: next.at, dedupeKey: `${ADS_SYNC_METRICS_QUEUE}:daily:${next.day}`, maxAttempts: 5 });
  return { jobId: job.id, at: next.at };
}

/** The job: a requested sync, or the daily one (which first queues tomorrow's). */
export async function runMetricsSyncJob(deps: MetricsDeps, payload: unknown, progress?: (percent: number) => Promise<void>): Promise<SyncResult> {
  const p = SyncPayload.parse(payload);
  if (p.scheduled) {
    // The next day's run, even when this one runs early (a worker catching up) or fails.
    const slot = p.day ? dailySyncAt(p.day, deps.config.STORE_TIMEZONE) : new Date(0);
    const now = new Date();
    await scheduleDailyMetricsSync(deps, slot >= now ? new Date(slot.getTime() + 1000) : now);
    const to = todayIn(deps.config.STORE_TIMEZONE);
    return syncAdMetrics(deps, { from: addDays(to, -(DAILY_SYNC_DAYS - 1)), to }, progress);
  }
  return syncAdMetrics(deps, { ...resolveRange(deps.config, p), adIds: p.adIds ?? null }, progress);
}

/** Reads the platform's days for the ads and stores them (see the header). */
export async function syncAdMetrics(
  deps: Pick<MetricsDeps, "db" | "adsPlatform"> & { config: Pick<MetricsDeps["config"], "STORE_TIMEZONE">; log?: { info: (o: object, msg?: string) => void } },
  input: DayRange & { adIds?: string[] | null },
  progress?: (percent: number) => Promise<void>,
): Promise<SyncResult> {
  const range = { from: input.from, to: input.to };
  const ads = await adsToSync(deps, range, input.adIds);
  const result: SyncResult = { ...range, total: ads.length, done: 0, rows: 0, removed: 0, failed: [], platform: deps.adsPlatform.name };
  await progress?.(ads.length ? 0 : 100);
  for (let i = 0; i < ads.length; i += ADS_PER_BATCH) {
    const batch = ads.slice(i, i + ADS_PER_BATCH);
    let insights: DailyInsight[];
    try {
      insights = await deps.adsPlatform.insights({
        ads: batch.map((a) => ({ platformAdId: a.platformAdId, dailyBudget: a.dailyBudget, currencyCode: a.currencyCode, liveIntervals: a.liveIntervals })),
        since: range.from,
        until: range.to,
      });
    } catch (e) {
      if (!(e instanceof AdsPlatformError)) throw e;
      const message = `Metrics sync: ${e.message}`;
      await recordPlatformError(deps.db, batch, message);
      // A rate limit or an outage passes: the job is retried later. A refusal would refuse again.
      if (e.kind === "rate_limit" || e.kind === "unavailable") throw e;
      result.failed.push(...batch.map((a) => ({ adId: a.id, error: e.message })));
      result.done += batch.length;
      await progress?.((result.done / ads.length) * 100);
      continue;
    }
    const written = await storeBatch(deps.db, batch, range, insights);
    result.rows += written.rows;
    result.removed += written.removed;
    result.done += batch.length;
    await progress?.((result.done / ads.length) * 100);
  }
  deps.log?.info({ ...result, failed: result.failed.length }, "ads metrics synced");
  return result;
}

async function recordPlatformError(db: Db, batch: SyncAd[], message: string) {
  await db.$transaction(async (tx) => {
    await tx.productAd.updateMany({ where: { id: { in: batch.map((a) => a.id) } }, data: { meta_error: message } });
    // The timeline keeps the error once, not at every daily run while it lasts.
    const fresh = batch.filter((a) => a.metaError !== message);
    if (fresh.length) await tx.productAdEvent.createMany({ data: fresh.map((a) => ({ ad_id: a.id, kind: "platform_error", text: message })) });
  }, TX_OPTIONS);
}

async function storeBatch(db: Db, batch: SyncAd[], range: DayRange, insights: DailyInsight[]): Promise<{ rows: number; removed: number }> {
  const byPlatformId = new Map(batch.map((a) => [a.platformAdId, a]));
  // One row per ad and day, the last answer winning (a platform answering a day twice).
  const rows = new Map<string, { adId: string; insight: DailyInsight }>();
  for (const insight of insights) {
    const ad = byPlatformId.get(insight.platformAdId);
    if (!ad || insight.date < range.from || insight.date > range.to) continue;
    rows.set(`${ad.id}|${insight.date}`, { adId: ad.id, insight });
  }
  const now = new Date();
  return db.$transaction(async (tx) => {
    const values = [...rows.values()];
    for (let i = 0; i < values.length; i += 500) {
      const chunk = values.slice(i, i + 500);
      await tx.$executeRaw`
        INSERT INTO product_ad_metrics_daily (ad_id, date, impressions, reach, clicks, spend, purchases, purchase_value, "currencyCode", synced_at)
        VALUES ${Prisma.join(
          chunk.map(
            ({ adId, insight: m }) =>
              Prisma.sql`(${adId}, ${m.date}::date, ${m.impressions}, ${m.reach}, ${m.clicks}, ${m.spend}::numeric, ${m.purchases}, ${m.purchaseValue}::numeric, ${m.currencyCode}, ${now})`,
          ),
        )}
        ON CONFLICT (ad_id, date) DO UPDATE SET
          impressions = EXCLUDED.impressions, reach = EXCLUDED.reach, clicks = EXCLUDED.clicks, spend = EXCLUDED.spend,
          purchases = EXCLUDED.purchases, purchase_value = EXCLUDED.purchase_value, "currencyCode" = EXCLUDED."currencyCode", synced_at = EXCLUDED.synced_at`;
    }
    // Days of the range the platform no longer reports had no delivery: stored ones go.
    let removed = 0;
    for (const ad of batch) {
      const kept = daysOf(range).filter((d) => rows.has(`${ad.id}|${d}`)).map(asDate);
      const r = await tx.productAdMetricDaily.deleteMany({ where: { ad_id: ad.id, date: { gte: asDate(range.from), lte: asDate(range.to), notIn: kept } } });
      removed += r.count;
    }
    const ids = batch.map((a) => a.id);
    const sums = await tx.productAdMetricDaily.groupBy({
      by: ["ad_id"],
      where: { ad_id: { in: ids } },
      _sum: { impressions: true, reach: true, clicks: true, spend: true, purchases: true, purchase_value: true },
    });
    const sumOf = new Map(sums.map((s) => [s.ad_id, s._sum]));
    for (const id of ids) {
      const s = sumOf.get(id);
      await tx.productAd.update({
        where: { id },
        data: {
          impressions: s?.impressions ?? 0,
          reach: s?.reach ?? 0,
          clicks: s?.clicks ?? 0,
          conversions: s?.purchases ?? 0,
          spend: s?.spend ?? new Prisma.Decimal(0),
          purchase_value: s?.purchase_value ?? new Prisma.Decimal(0),
          metrics_synced_at: now,
          meta_error: null,
        },
      });
    }
    return { rows: values.length, removed };
  }, TX_OPTIONS);
}

// ---------------------------------------------------------------------------------------------
// Reads

export interface MetricsFigures {
  impressions: number;
  reach: number;
  clicks: number;
  spend: Prisma.Decimal;
  purchases: number;
  purchaseValue: Prisma.Decimal;
}

const ZERO: MetricsFigures = { impressions: 0, reach: 0, clicks: 0, spend: new Prisma.Decimal(0), purchases: 0, purchaseValue: new Prisma.Decimal(0) };

/** The figures with their ratios (null when the divisor is 0), money as two-decimal strings. */
export function withRatios(f: MetricsFigures): ProductAdMetricsTotals {
  const spend = Number(f.spend);
  const value = Number(f.purchaseValue);
  return {
    impressions: f.impressions,
    reach: f.reach,
    clicks: f.clicks,
    spend: f.spend.toFixed(2),
    purchases: f.purchases,
    purchaseValue: f.purchaseValue.toFixed(2),
    ctr: f.impressions > 0 ? Math.round((f.clicks / f.impressions) * 10_000) / 10_000 : null,
    cpc: f.clicks > 0 ? (spend / f.clicks).toFixed(2) : null,
    roas: spend > 0 ? Math.round((value / spend) * 100) / 100 : null,
  };
}

type SumRow = { _sum: { impressions: number | null; reach: number | null; clicks: number | null; spend: Prisma.Decimal | null; purchases: number | null; purchase_value: Prisma.Decimal | null } };
const figuresOf = (s: SumRow["_sum"] | undefined): MetricsFigures =>
  s
    ? {
        impressions: s.impressions ?? 0,
        reach: s.reach ?? 0,
        clicks: s.clicks ?? 0,
        spend: s.spend ?? new Prisma.Decimal(0),
        purchases: s.purchases ?? 0,
        purchaseValue: s.purchase_value ?? new Prisma.Decimal(0),
      }
    : ZERO;
const SUM = { impressions: true, reach: true, clicks: true, spend: true, purchases: true, purchase_value: true } as const;

async function dailySeries(db: Db, where: Prisma.ProductAdMetricDailyWhereInput, range: DayRange) {
  const groups = await db.productAdMetricDaily.groupBy({ by: ["date"], where: { ...where, date: { gte: asDate(range.from), lte: asDate(range.to) } }, _sum: SUM });
  const byDay = new Map(groups.map((g) => [dayOf(g.date), figuresOf(g._sum)]));
  const daily = daysOf(range).map((date) => ({ date, ...withRatios(byDay.get(date) ?? ZERO) }));
  const totals = [...byDay.values()].reduce<MetricsFigures>(
    (t, f) => ({
      impressions: t.impressions + f.impressions,
      reach: t.reach + f.reach,
      clicks: t.clicks + f.clicks,
      spend: t.spend.add(f.spend),
      purchases: t.purchases + f.purchases,
      purchaseValue: t.purchaseValue.add(f.purchaseValue),
    }),
    ZERO,
  );
  return { totals: withRatios(totals), daily };
}

export interface MetricsScope {
  /** A vendor's own vendor (its user sees nothing else); null for the team. */
  vendorId: string | null;
}

/** One ad's totals and daily series over the range; another vendor's ad is not found. */
export async function getAdMetrics(deps: Pick<MetricsDeps, "db" | "config">, scope: MetricsScope, adId: string, asked: { from?: string; to?: string }) {
  const ad = await deps.db.productAd.findFirst({
    where: { id: adId, ...(scope.vendorId ? { vendor_id: scope.vendorId } : {}) },
    select: { id: true, status: true, currencyCode: true, metrics_synced_at: true, meta_error: true, published_at: true },
  });
  if (!ad) throw notFoundError(MetricsMessages.AD_NOT_FOUND);
  const range = resolveRange(deps.config, asked);
  const { totals, daily } = await dailySeries(deps.db, { ad_id: ad.id }, range);
  return {
    adId: ad.id,
    status: ad.status,
    from: range.from,
    to: range.to,
    currencyCode: ad.currencyCode,
    totals,
    daily,
    syncedAt: ad.metrics_synced_at?.toISOString() ?? null,
    metaError: ad.meta_error,
  };
}

/** A vendor's ads over the range: totals, daily series, and one row per ad that ran or runs. */
export async function getVendorAdMetrics(deps: Pick<MetricsDeps, "db" | "config">, vendorId: string, asked: { from?: string; to?: string }) {
  const vendor = await deps.db.vendor.findUnique({ where: { id: vendorId }, select: { id: true } });
  if (!vendor) throw notFoundError(MetricsMessages.VENDOR_NOT_FOUND);
  const range = resolveRange(deps.config, asked);
  const where = { ad: { vendor_id: vendorId } } satisfies Prisma.ProductAdMetricDailyWhereInput;
  const { totals, daily } = await dailySeries(deps.db, where, range);
  const perAd = await deps.db.productAdMetricDaily.groupBy({ by: ["ad_id"], where: { ...where, date: { gte: asDate(range.from), lte: asDate(range.to) } }, _sum: SUM });
  const sums = new Map(perAd.map((g) => [g.ad_id, figuresOf(g._sum)]));
  // Ads with delivery in the range, and those running now (zeros until their first day is synced).
  const ads = await deps.db.productAd.findMany({
    where: { vendor_id: vendorId, OR: [{ id: { in: [...sums.keys()] } }, { status: "LIVE" }] },
    select: { id: true, status: true, title: true, currencyCode: true, metrics_synced_at: true, product: { select: { id: true, title: true } } },
  });
  const rows = ads
    .map((a) => ({
      id: a.id,
      status: a.status,
      headline: a.title,
      product: { id: a.product.id, title: a.product.title },
      totals: withRatios(sums.get(a.id) ?? ZERO),
      syncedAt: a.metrics_synced_at?.toISOString() ?? null,
    }))
    .sort((a, b) => Number(b.totals.spend) - Number(a.totals.spend) || a.headline.localeCompare(b.headline) || a.id.localeCompare(b.id));
  const currencies = new Map<string, number>();
  for (const a of ads) currencies.set(a.currencyCode, (currencies.get(a.currencyCode) ?? 0) + 1);
  const currencyCode = [...currencies.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? (await storeCurrency(deps.db));
  return { vendorId, from: range.from, to: range.to, currencyCode, totals, daily, ads: rows };
}

async function storeCurrency(db: Db): Promise<string> {
  const ad = await db.productAd.findFirst({ select: { currencyCode: true }, orderBy: { created_at: "desc" } });
  return ad?.currencyCode ?? "USD";
}

// ---------------------------------------------------------------------------------------------
// Jobs

/** A sync job's state for the screens (only jobs of the sync queue: another id is not found). */
export async function getMetricsSyncJob(db: Db, id: string) {
  const job = await db.job.findFirst({ where: { id, queue: ADS_SYNC_METRICS_QUEUE } });
  if (!job) throw notFoundError(MetricsMessages.JOB_NOT_FOUND);
  const result = job.result as Partial<SyncResult> | null;
  const payload = SyncPayload.safeParse(job.payload);
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    attempts: job.attempts,
    maxAttempts: job.max_attempts,
    scheduled: payload.success ? payload.data.scheduled === true : false,
    from: result?.from ?? (payload.success ? (payload.data.from ?? null) : null),
    to: result?.to ?? (payload.success ? (payload.data.to ?? null) : null),
    result:
      job.status === "completed" && result
        ? { total: result.total ?? 0, done: result.done ?? 0, rows: result.rows ?? 0, removed: result.removed ?? 0, failed: result.failed ?? [], platform: result.platform ?? "" }
        : null,
    error: job.error,
    runAt: job.run_at.toISOString(),
    createdAt: job.created_at.toISOString(),
    completedAt: job.completed_at?.toISOString() ?? null,
  };
}
