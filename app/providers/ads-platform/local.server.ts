/**
 * The local ads platform (ADS_PLATFORM=local, the embedded default): nothing leaves the process.
 * Publishing hands out `local-*-<adId>` ids; insights are simulated delivery, so the demo and the
 * metrics screens show real-looking numbers with no network.
 *
 * The simulation is a pure function of (platform ad id, day, budget, live intervals): the same ad
 * and day always give the same numbers, however often and in whatever range they are read. A day
 * has delivery only for the part of it the ad was live (in the store's time zone), and never
 * before it has begun. Spend ramps up over the first days of an ad's life (the platform's learning
 * phase) and never exceeds the daily budget; CTR 0.8–2 %, about 1.5–4.5 % of clicks buy.
 */
import crypto from "node:crypto";
import { addDays, dayStart, todayIn } from "~/lib/store-time-zone";
import { AdsPlatformError, type AdsPlatformPort, type DailyInsight, type InsightsAd, type PlatformAdIds, type PublishAdInput } from "./port";

export interface LocalAdsPlatformOptions {
  /** Where the simulated ad account's days begin (STORE_TIMEZONE). */
  timeZone?: string;
  now?: () => Date;
}

const DAY_MS = 86_400_000;
/** Ranges are bounded so a bad caller cannot make the simulation loop for ever. */
const MAX_DAYS = 1_100;

export function localPlatformIds(adId: string): PlatformAdIds {
  return {
    campaignId: `local-campaign-${adId}`,
    adSetId: `local-adset-${adId}`,
    creativeId: `local-creative-${adId}`,
    adId: `local-ad-${adId}`,
  };
}

export function createLocalAdsPlatform(opts: LocalAdsPlatformOptions = {}): AdsPlatformPort {
  const zone = opts.timeZone ?? "UTC";
  const now = opts.now ?? (() => new Date());
  return {
    name: "local",
    async publish(input: PublishAdInput) {
      if (input.imageUrls.length === 0) throw new AdsPlatformError("invalid", "An ad needs at least one image");
      if (!(Number(input.dailyBudget) > 0)) throw new AdsPlatformError("invalid", "The daily budget must be more than 0");
      return input.existing ?? localPlatformIds(input.adId);
    },
    async pause(ids: PlatformAdIds) {
      if (!ids.adId.startsWith("local-ad-")) throw new AdsPlatformError("not_found", `Ad ${ids.adId} does not exist on the local ads platform`);
    },
    async insights(input) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(input.since) || !/^\d{4}-\d{2}-\d{2}$/.test(input.until) || input.since > input.until) {
        throw new AdsPlatformError("invalid", `Invalid time range ${input.since}..${input.until}`);
      }
      const today = todayIn(zone, now());
      const last = input.until < today ? input.until : today;
      const rows: DailyInsight[] = [];
      for (const ad of input.ads) {
        let day = input.since;
        for (let i = 0; day <= last && i < MAX_DAYS; i++, day = addDays(day, 1)) {
          const row = simulateDay(ad, day, zone);
          if (row) rows.push(row);
        }
      }
      return rows;
    },
  };
}

/** One ad's simulated delivery on one day, or null when it was not live that day. */
export function simulateDay(ad: InsightsAd, day: string, zone = "UTC"): DailyInsight | null {
  const start = dayStart(day, zone).getTime();
  const end = dayStart(addDays(day, 1), zone).getTime();
  let liveMs = 0;
  let firstLive = Infinity;
  for (const interval of ad.liveIntervals) {
    const from = interval.from.getTime();
    const to = interval.to ? interval.to.getTime() : Infinity;
    firstLive = Math.min(firstLive, from);
    liveMs += Math.max(0, Math.min(end, to) - Math.max(start, from));
  }
  if (liveMs <= 0) return null;
  const coverage = Math.min(1, liveMs / (end - start));
  const budgetMinor = Math.round(Number(ad.dailyBudget) * 100);
  if (!(budgetMinor > 0)) return null;

  const ageDays = Math.max(0, Math.floor((start - firstLive) / DAY_MS));
  const r = (salt: string) => unit(`${ad.platformAdId}|${day}|${salt}`);
  // Learning phase: about half the budget on the first day, nearly all of it after a week.
  const pacing = Math.min(0.97, 0.5 + 0.07 * ageDays) * (0.88 + 0.12 * r("pacing"));
  const spendMinor = Math.min(budgetMinor, Math.floor(budgetMinor * pacing * coverage));
  if (spendMinor <= 0) return null;
  // Cost per thousand impressions in the account's currency (a fashion audience: 6–11).
  const cpmMinor = 600 + Math.floor(500 * r("cpm"));
  const impressions = Math.max(1, Math.floor((spendMinor * 1000) / cpmMinor));
  const frequency = 1.05 + Math.min(0.6, 0.03 * ageDays) + 0.1 * r("frequency");
  const reach = Math.max(1, Math.min(impressions, Math.round(impressions / frequency)));
  // CTR improves a little once the platform has learnt who clicks.
  const ctr = Math.min(0.02, 0.008 + 0.009 * r("ctr") + 0.0003 * Math.min(10, ageDays));
  const clicks = Math.min(impressions, Math.round(impressions * ctr));
  const conversionRate = 0.015 + 0.03 * r("conversion");
  const purchases = Math.floor(clicks * conversionRate + r("purchase-rounding"));
  let valueMinor = 0;
  for (let i = 0; i < purchases; i++) valueMinor += 3_500 + Math.floor(8_000 * r(`order-${i}`));
  return {
    platformAdId: ad.platformAdId,
    date: day,
    impressions,
    reach,
    clicks,
    spend: minorToDecimal(spendMinor),
    purchases,
    purchaseValue: minorToDecimal(valueMinor),
    currencyCode: ad.currencyCode,
  };
}

/** A number in [0, 1) from a string: the simulation's only source of variety. */
function unit(seed: string): number {
  return crypto.createHash("sha256").update(seed).digest().readUInt32BE(0) / 0x1_0000_0000;
}

function minorToDecimal(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}
