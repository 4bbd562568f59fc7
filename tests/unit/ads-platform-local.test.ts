/**
 * The local ads platform's simulated delivery: deterministic per ad and day, only inside the
 * intervals the ad was live, never more spend than the daily budget, plausible rates.
 */
import { describe, expect, it } from "vitest";
import { createLocalAdsPlatform, localPlatformIds } from "../../app/providers/ads-platform/local.server";
import { AdsPlatformError, type InsightsAd } from "../../app/providers/ads-platform/port";

const NOW = new Date("2026-11-27T12:00:00Z");
const platform = createLocalAdsPlatform({ now: () => NOW });

const ad = (over: Partial<InsightsAd> = {}): InsightsAd => ({
  platformAdId: "local-ad-a1",
  dailyBudget: "25.00",
  currencyCode: "USD",
  liveIntervals: [{ from: new Date("2026-10-01T00:00:00Z"), to: null }],
  ...over,
});

describe("local ads platform: publish and pause", () => {
  it("publish answers local ids for the ad, and the same ids when resuming", async () => {
    const input = { adId: "a1", existing: null, name: "n", headline: "h", primaryText: "p", imageUrls: ["https://x/a.jpg"], destinationUrl: "https://x/p", callToAction: "SHOP_NOW" as const, dailyBudget: "10.00", currencyCode: "USD" };
    const ids = await platform.publish(input);
    expect(ids).toEqual({ campaignId: "local-campaign-a1", adSetId: "local-adset-a1", creativeId: "local-creative-a1", adId: "local-ad-a1" });
    expect(await platform.publish({ ...input, existing: ids })).toEqual(ids);
    await expect(platform.pause(ids)).resolves.toBeUndefined();
  });

  it("publish refuses an ad without images or budget; pause refuses an id it never made", async () => {
    const input = { adId: "a1", existing: null, name: "n", headline: "h", primaryText: "p", imageUrls: [], destinationUrl: "https://x/p", callToAction: "SHOP_NOW" as const, dailyBudget: "10.00", currencyCode: "USD" };
    await expect(platform.publish(input)).rejects.toMatchObject({ kind: "invalid" });
    await expect(platform.publish({ ...input, imageUrls: ["https://x/a.jpg"], dailyBudget: "0" })).rejects.toBeInstanceOf(AdsPlatformError);
    await expect(platform.pause({ ...localPlatformIds("a1"), adId: "123" })).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("local ads platform: insights", () => {
  it("the same ad and day give the same numbers, whatever range they are read in", async () => {
    const month = await platform.insights({ ads: [ad()], since: "2026-11-01", until: "2026-11-20" });
    const again = await createLocalAdsPlatform({ now: () => new Date("2026-12-31T00:00:00Z") }).insights({ ads: [ad()], since: "2026-11-10", until: "2026-11-10" });
    expect(month).toHaveLength(20);
    expect(again).toEqual([month.find((r) => r.date === "2026-11-10")]);
    // Another ad has its own numbers.
    const other = await platform.insights({ ads: [ad({ platformAdId: "local-ad-b2" })], since: "2026-11-10", until: "2026-11-10" });
    expect(other[0].impressions).not.toBe(again[0].impressions);
  });

  it("no delivery outside the live intervals, nor on days not begun yet", async () => {
    const intervals = [
      { from: new Date("2026-11-03T00:00:00Z"), to: new Date("2026-11-06T00:00:00Z") },
      { from: new Date("2026-11-10T00:00:00Z"), to: null },
    ];
    const rows = await platform.insights({ ads: [ad({ liveIntervals: intervals })], since: "2026-11-01", until: "2026-12-05" });
    const days = rows.map((r) => r.date);
    expect(days.slice(0, 3)).toEqual(["2026-11-03", "2026-11-04", "2026-11-05"]);
    expect(days).not.toContain("2026-11-06");
    expect(days).not.toContain("2026-11-09");
    expect(days[3]).toBe("2026-11-10");
    expect(days.at(-1)).toBe("2026-11-27");
    expect(await platform.insights({ ads: [ad({ liveIntervals: [] })], since: "2026-11-01", until: "2026-11-20" })).toEqual([]);
  });

  it("a day live for part of it delivers that part", async () => {
    const full = await platform.insights({ ads: [ad({ liveIntervals: [{ from: new Date("2026-11-01T00:00:00Z"), to: null }] })], since: "2026-11-01", until: "2026-11-01" });
    const half = await platform.insights({ ads: [ad({ liveIntervals: [{ from: new Date("2026-11-01T12:00:00Z"), to: null }] })], since: "2026-11-01", until: "2026-11-01" });
    expect(Number(half[0].spend)).toBeLessThan(Number(full[0].spend));
    expect(Number(half[0].spend)).toBeGreaterThan(Number(full[0].spend) * 0.3);
  });

  it("days follow the store's time zone", async () => {
    const tokyo = createLocalAdsPlatform({ timeZone: "Asia/Tokyo", now: () => NOW });
    // Live from 20:00 UTC on 2 Nov = 05:00 on 3 Nov in Tokyo: nothing on Tokyo's 2 Nov.
    const rows = await tokyo.insights({ ads: [ad({ liveIntervals: [{ from: new Date("2026-11-02T20:00:00Z"), to: null }] })], since: "2026-11-01", until: "2026-11-04" });
    expect(rows.map((r) => r.date)).toEqual(["2026-11-03", "2026-11-04"]);
  });

  it("spend never exceeds the daily budget, ramps up while young, and the rates are plausible", async () => {
    const rows = await platform.insights({ ads: [ad({ dailyBudget: "40.00" })], since: "2026-10-01", until: "2026-11-27" });
    expect(rows).toHaveLength(58);
    for (const r of rows) {
      expect(Number(r.spend)).toBeGreaterThan(0);
      expect(Number(r.spend)).toBeLessThanOrEqual(40);
      expect(r.spend).toMatch(/^\d+\.\d{2}$/);
      expect(r.purchaseValue).toMatch(/^\d+\.\d{2}$/);
      expect(r.reach).toBeLessThanOrEqual(r.impressions);
      expect(r.clicks / r.impressions).toBeGreaterThanOrEqual(0.007);
      expect(r.clicks / r.impressions).toBeLessThanOrEqual(0.021);
      expect(r.purchases).toBeLessThanOrEqual(r.clicks);
      if (r.purchases === 0) expect(r.purchaseValue).toBe("0.00");
      expect(r.currencyCode).toBe("USD");
    }
    const firstWeek = rows.slice(0, 3).reduce((s, r) => s + Number(r.spend), 0);
    const later = rows.slice(30, 33).reduce((s, r) => s + Number(r.spend), 0);
    expect(later).toBeGreaterThan(firstWeek);
    const purchases = rows.reduce((s, r) => s + r.purchases, 0);
    expect(purchases).toBeGreaterThan(0);
  });

  it("a bad range is refused", async () => {
    await expect(platform.insights({ ads: [ad()], since: "2026-11-05", until: "2026-11-01" })).rejects.toMatchObject({ kind: "invalid" });
    await expect(platform.insights({ ads: [ad()], since: "yesterday", until: "2026-11-01" })).rejects.toMatchObject({ kind: "invalid" });
  });
});
