/**
 * The demo's ad metrics: the LIVE and INACTIVE demo ads (./product-ads.ts) synced from the local
 * ads platform over the last 30 days, by the same sync the app runs (app/services/product-ads/
 * metrics.server.ts), so the vendor's and the team's metrics screens show delivery at once. The
 * local platform's numbers are a function of the ad, the day and the ad's live intervals (its
 * timeline, already moved to the present), so a re-seed gives the same figures.
 */
import type { PrismaClient } from "@prisma/client";
import { addDays } from "../../app/lib/store-time-zone";
import { createLocalAdsPlatform } from "../../app/providers/ads-platform/local.server";
import { syncAdMetrics, type SyncResult } from "../../app/services/product-ads/metrics.server";
import { DEMO_AD_IDS_TO_SYNC } from "./product-ads";

export const DEMO_METRICS_DAYS = 30;

export async function seedDemoAdMetrics(db: PrismaClient, opts: { today: string; timeZone: string; log?: { info: (o: object, msg?: string) => void }; now?: Date }): Promise<SyncResult | null> {
  const existing = await db.productAd.findMany({ where: { id: { in: DEMO_AD_IDS_TO_SYNC }, meta_ad_id: { not: null } }, select: { id: true } });
  if (existing.length === 0) return null;
  const now = opts.now ?? new Date();
  return syncAdMetrics(
    { db, adsPlatform: createLocalAdsPlatform({ timeZone: opts.timeZone, now: () => now }), config: { STORE_TIMEZONE: opts.timeZone }, log: opts.log },
    { from: addDays(opts.today, -(DEMO_METRICS_DAYS - 1)), to: opts.today, adIds: existing.map((a) => a.id) },
  );
}
