/**
 * The demo's ad metrics (prisma/demo/product-ad-metrics.ts), seeded as the first embedded start
 * does (dates moved so the demo ends yesterday): the LIVE and INACTIVE demo ads have the local
 * platform's days inside their live intervals within the last 30 days, stored once per day, spend
 * within the budget, totals equal to their days; other ads have none; seeding the metrics again
 * changes nothing.
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_METRICS_DAYS, seedDemoAdMetrics } from "../../prisma/demo/product-ad-metrics";
import { addDays } from "~/lib/store-time-zone";
import { liveIntervalsOf } from "~/services/product-ads/metrics.server";
import { createDemoDatabase, DEMO_SEEDS, type DemoDatabase } from "../helpers/demo-template";

const SEED = DEMO_SEEDS.endsYesterday();
const TODAY = SEED.today;
let demo: DemoDatabase;
let db: PrismaClient;

beforeAll(async () => {
  demo = await createDemoDatabase(SEED);
  db = demo.database.db;
}, 300_000);

afterAll(async () => {
  await demo?.close();
});

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

describe("the demo's ad metrics", () => {
  it("the published demo ads have daily metrics inside their live intervals of the last 30 days", async () => {
    const ads = await db.productAd.findMany({ include: { metrics: { orderBy: { date: "asc" } }, events: true } });
    const published = ads.filter((a) => a.status === "LIVE" || a.status === "INACTIVE");
    expect(published.length).toBeGreaterThanOrEqual(2);
    expect(published.some((a) => a.metrics.length > 0 && a.status === "LIVE")).toBe(true);
    const from = addDays(TODAY, -(DEMO_METRICS_DAYS - 1));
    for (const ad of published) {
      const intervals = liveIntervalsOf(ad.events, ad);
      for (const m of ad.metrics) {
        const day = dayOf(m.date);
        expect(day >= from && day <= TODAY).toBe(true);
        const start = new Date(`${day}T00:00:00Z`);
        const end = new Date(start.getTime() + 86_400_000);
        expect(intervals.some((i) => i.from < end && (i.to === null || i.to > start)), `${ad.id} ${day}`).toBe(true);
        expect(Number(m.spend)).toBeLessThanOrEqual(Number(ad.daily_budget));
        expect(m.clicks).toBeLessThanOrEqual(m.impressions);
      }
      expect(ad.impressions).toBe(ad.metrics.reduce((s, m) => s + m.impressions, 0));
      expect(ad.spend.toFixed(2)).toBe(ad.metrics.reduce((s, m) => s + Number(m.spend), 0).toFixed(2));
      expect(ad.metrics_synced_at).not.toBeNull();
      expect(ad.meta_error).toBeNull();
    }
    for (const ad of ads.filter((a) => a.status !== "LIVE" && a.status !== "INACTIVE")) expect(ad.metrics).toHaveLength(0);
  });

  it("seeding the metrics again stores the same days once", async () => {
    const before = await db.productAdMetricDaily.findMany({ orderBy: [{ ad_id: "asc" }, { date: "asc" }], omit: { synced_at: true } });
    const r = await seedDemoAdMetrics(db, { today: TODAY, timeZone: SEED.timeZone });
    expect(r?.failed).toEqual([]);
    const after = await db.productAdMetricDaily.findMany({ orderBy: [{ ad_id: "asc" }, { date: "asc" }], omit: { synced_at: true } });
    expect(after).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
  });
});
