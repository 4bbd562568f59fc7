/**
 * The Meta ads adapter (ADS_PLATFORM=meta) against a local server speaking the Graph API's
 * request and response shapes (tests/helpers/meta-graph-server.ts), no network: publish creates
 * campaign → ad set → creative → ad PAUSED and then sets them ACTIVE; a second publish resumes;
 * pause pauses the ad and its ad set; insights read every page and the purchase actions; rate
 * limits are retried, an expired token is an "auth" error at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";
import { createAdsPlatform } from "~/providers/ads-platform/index.server";
import { budgetInMinorUnits, createMetaAdsPlatform } from "~/providers/ads-platform/meta.server";
import { AdsPlatformError, type AdsPlatformPort, type PublishAdInput } from "~/providers/ads-platform/port";
import { startFakeMetaGraph, type FakeMetaGraph } from "../helpers/meta-graph-server";

let graph: FakeMetaGraph;
let platform: AdsPlatformPort;
const sleeps: number[] = [];

function makePlatform(extra: Partial<Parameters<typeof createMetaAdsPlatform>[0]> = {}) {
  return createMetaAdsPlatform({
    accessToken: graph.token,
    adAccountId: graph.accountId,
    pageId: graph.pageId,
    apiVersion: graph.version,
    graphUrl: graph.graphUrl,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
}

const input = (over: Partial<PublishAdInput> = {}): PublishAdInput => ({
  adId: "ad-1",
  existing: null,
  name: "Vendor · Linen shirt · ad-1",
  headline: "Linen for warm days",
  primaryText: "Breathable linen shirts, cut for summer.",
  imageUrls: ["https://cdn.example.com/a.jpg"],
  destinationUrl: "https://shop.example.com/products/linen-shirt",
  callToAction: "SHOP_NOW",
  dailyBudget: "25.50",
  currencyCode: "USD",
  ...over,
});

beforeAll(async () => {
  graph = await startFakeMetaGraph();
});
afterAll(async () => {
  await graph?.close();
});
afterEach(() => {
  graph.reset();
  sleeps.length = 0;
});

describe("configuration", () => {
  it("ADS_PLATFORM=meta refuses to start without the token, the ad account and the page", () => {
    expect(() => loadConfig({ ADS_PLATFORM: "meta" })).toThrow(/META_ACCESS_TOKEN is required when ADS_PLATFORM=meta[\s\S]*META_AD_ACCOUNT_ID[\s\S]*META_PAGE_ID/);
    expect(() => loadConfig({ ADS_PLATFORM: "meta", META_ACCESS_TOKEN: "t", META_AD_ACCOUNT_ID: "1234", META_PAGE_ID: "1" })).toThrow(/act_1234567890/);
  });

  it("the default is the local platform; meta with its settings builds the Meta adapter", () => {
    expect(createAdsPlatform(loadConfig({})).name).toBe("local");
    const config = loadConfig({ ADS_PLATFORM: "meta", META_ACCESS_TOKEN: graph.token, META_AD_ACCOUNT_ID: graph.accountId, META_PAGE_ID: graph.pageId, META_GRAPH_URL: graph.graphUrl, META_TARGET_COUNTRIES: "us, ca" });
    expect(config.META_API_VERSION).toBe("v23.0");
    expect(config.META_TARGET_COUNTRIES).toEqual(["US", "CA"]);
    expect(createAdsPlatform(config).name).toBe("meta");
  });

  it("daily budgets go in the currency's minor units as Meta counts them", () => {
    expect(budgetInMinorUnits("25.50", "USD")).toBe(2550);
    expect(budgetInMinorUnits("3000", "JPY")).toBe(3000);
    expect(() => budgetInMinorUnits("0", "USD")).toThrow(AdsPlatformError);
  });
});

describe("publish", () => {
  beforeAll(() => {
    platform = makePlatform();
  });

  it("creates campaign, ad set, creative and ad PAUSED, then sets them ACTIVE", async () => {
    const ids = await platform.publish(input());
    expect(Object.values(ids).every((id) => /^\d+$/.test(id))).toBe(true);

    const creates = graph.calls.filter((c) => c.method === "POST" && c.path.startsWith(`/${graph.version}/${graph.accountId}/`));
    expect(creates.map((c) => c.path.split("/").pop())).toEqual(["campaigns", "adsets", "adcreatives", "ads"]);
    expect(creates.every((c) => c.status === 200)).toBe(true);
    const [campaign, adSet, creative, ad] = creates.map((c) => c.params);
    expect(campaign).toMatchObject({ objective: "OUTCOME_SALES", status: "PAUSED", special_ad_categories: "[]" });
    expect(adSet).toMatchObject({ campaign_id: ids.campaignId, daily_budget: "2550", status: "PAUSED", optimization_goal: "LINK_CLICKS" });
    expect(JSON.parse(adSet.targeting)).toMatchObject({ geo_locations: { countries: ["US"] } });
    expect(JSON.parse(creative.object_story_spec)).toEqual({
      page_id: graph.pageId,
      link_data: {
        link: "https://shop.example.com/products/linen-shirt",
        message: "Breathable linen shirts, cut for summer.",
        name: "Linen for warm days",
        picture: "https://cdn.example.com/a.jpg",
        call_to_action: { type: "SHOP_NOW", value: { link: "https://shop.example.com/products/linen-shirt" } },
      },
    });
    expect(ad).toMatchObject({ adset_id: ids.adSetId, status: "PAUSED" });
    expect(JSON.parse(ad.creative)).toEqual({ creative_id: ids.creativeId });

    // Activated only after all four exist.
    const activations = graph.calls.slice(4).map((c) => [c.path.split("/").pop(), c.params.status]);
    expect(activations).toEqual([
      [ids.campaignId, "ACTIVE"],
      [ids.adSetId, "ACTIVE"],
      [ids.adId, "ACTIVE"],
    ]);
    expect(graph.objects.get(ids.adId)?.status).toBe("ACTIVE");
    // The token travels in the header, never in a URL.
    expect(graph.calls.every((c) => c.params.access_token === undefined)).toBe(true);
  });

  it("several creatives make a carousel; a pixel makes the ad set optimise for purchases", async () => {
    const withPixel = makePlatform({ pixelId: "555", countries: ["DE", "FR"] });
    await withPixel.publish(input({ imageUrls: ["https://cdn.example.com/a.jpg", "https://cdn.example.com/b.jpg"] }));
    const adSet = graph.calls.find((c) => c.path.endsWith("/adsets"))!.params;
    expect(adSet.optimization_goal).toBe("OFFSITE_CONVERSIONS");
    expect(JSON.parse(adSet.promoted_object)).toEqual({ pixel_id: "555", custom_event_type: "PURCHASE" });
    expect(JSON.parse(adSet.targeting).geo_locations.countries).toEqual(["DE", "FR"]);
    const spec = JSON.parse(graph.calls.find((c) => c.path.endsWith("/adcreatives"))!.params.object_story_spec);
    expect(spec.link_data.picture).toBeUndefined();
    expect(spec.link_data.child_attachments.map((a: { picture: string }) => a.picture)).toEqual(["https://cdn.example.com/a.jpg", "https://cdn.example.com/b.jpg"]);
  });

  it("a refused step deletes what was already created and throws Meta's reason", async () => {
    graph.refuseNext("adcreative", "object_story_spec.link_data.picture could not be downloaded");
    const err = await platform.publish(input()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdsPlatformError);
    expect(err).toMatchObject({ kind: "invalid", details: { code: 100 } });
    expect((err as Error).message).toMatch(/could not be downloaded/);
    const made = [...graph.objects.values()];
    expect(made.map((o) => o.type).sort()).toEqual(["adset", "campaign"]);
    expect(made.every((o) => o.deleted)).toBe(true);
    expect(made.some((o) => o.status === "ACTIVE")).toBe(false);
  });

  it("publishing a known ad again resumes it (ad set and ad ACTIVE), creating nothing", async () => {
    const ids = await platform.publish(input());
    await platform.pause(ids);
    expect(graph.objects.get(ids.adId)?.status).toBe("PAUSED");
    expect(graph.objects.get(ids.adSetId)?.status).toBe("PAUSED");
    graph.calls.length = 0;

    expect(await platform.publish(input({ existing: ids }))).toEqual(ids);
    expect(graph.calls.map((c) => [c.method, c.path.split("/").pop(), c.params.status])).toEqual([
      ["POST", ids.adSetId, "ACTIVE"],
      ["POST", ids.adId, "ACTIVE"],
    ]);
    expect(graph.objects.get(ids.adId)?.status).toBe("ACTIVE");
  });
});

describe("pause", () => {
  beforeAll(() => {
    platform = makePlatform();
  });

  it("pauses the ad and its ad set, keeping the campaign", async () => {
    const ids = await platform.publish(input());
    await platform.pause(ids);
    expect(graph.objects.get(ids.adId)?.status).toBe("PAUSED");
    expect(graph.objects.get(ids.adSetId)?.status).toBe("PAUSED");
    expect(graph.objects.get(ids.campaignId)?.status).toBe("ACTIVE");
  });

  it("an ad unknown to Meta is not_found", async () => {
    const err = await platform.pause({ campaignId: "1", adSetId: "2", creativeId: "3", adId: "4" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "not_found", details: { code: 100, subcode: 33 } });
  });
});

describe("insights", () => {
  beforeAll(() => {
    platform = makePlatform();
  });

  const row = (ad: string, day: string, over: Record<string, unknown> = {}) => ({
    ad_id: ad,
    date_start: day,
    impressions: "1000",
    reach: "800",
    clicks: "12",
    spend: "9.87",
    account_currency: "USD",
    actions: [
      { action_type: "link_click", value: "12" },
      { action_type: "offsite_conversion.fb_pixel_purchase", value: "2" },
      { action_type: "purchase", value: "2" },
    ],
    action_values: [
      { action_type: "offsite_conversion.fb_pixel_purchase", value: "120.5" },
      { action_type: "purchase", value: "120.5" },
    ],
    ...over,
  });

  it("reads every page of the ads' days, with the request Meta expects", async () => {
    const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, "0")}`);
    graph.setInsights([...days.map((d) => row("111", d)), ...days.map((d) => row("222", d)), row("333", "2026-11-05")]);
    graph.pageSize = 7;
    const ads = ["111", "222"].map((platformAdId) => ({ platformAdId, dailyBudget: "10.00", currencyCode: "USD", liveIntervals: [] }));
    const rows = await platform.insights({ ads, since: "2026-11-01", until: "2026-11-30" });

    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => `${r.platformAdId}|${r.date}`)).size).toBe(60);
    expect(rows[0]).toEqual({ platformAdId: "111", date: "2026-11-01", impressions: 1000, reach: 800, clicks: 12, spend: "9.87", purchases: 2, purchaseValue: "120.50", currencyCode: "USD" });

    const requests = graph.calls.filter((c) => c.path.endsWith("/insights"));
    expect(requests).toHaveLength(Math.ceil(60 / 7));
    expect(requests[0].params).toMatchObject({ level: "ad", time_increment: "1", time_range: JSON.stringify({ since: "2026-11-01", until: "2026-11-30" }) });
    expect(JSON.parse(requests[0].params.filtering)).toEqual([{ field: "ad.id", operator: "IN", value: ["111", "222"] }]);
    expect(requests[0].params.fields.split(",")).toEqual(expect.arrayContaining(["ad_id", "date_start", "impressions", "reach", "clicks", "spend", "actions", "action_values"]));
    expect(requests[0].params.after).toBeUndefined();
    expect(requests.slice(1).every((r) => r.params.after)).toBe(true);
  });

  it("pixel purchases count when Meta reports no aggregate; no purchase action is zero", async () => {
    graph.setInsights([
      row("111", "2026-11-01", { actions: [{ action_type: "offsite_conversion.fb_pixel_purchase", value: "3" }], action_values: [{ action_type: "offsite_conversion.fb_pixel_purchase", value: "99" }] }),
      row("111", "2026-11-02", { actions: undefined, action_values: undefined, spend: "0" }),
    ]);
    const rows = await platform.insights({ ads: [{ platformAdId: "111", dailyBudget: "10.00", currencyCode: "USD", liveIntervals: [] }], since: "2026-11-01", until: "2026-11-02" });
    expect(rows.map((r) => [r.purchases, r.purchaseValue, r.spend])).toEqual([
      [3, "99.00", "9.87"],
      [0, "0.00", "0.00"],
    ]);
  });

  it("asks about at most 50 ads per request", async () => {
    const ads = Array.from({ length: 120 }, (_, i) => ({ platformAdId: String(1000 + i), dailyBudget: "10.00", currencyCode: "USD", liveIntervals: [] }));
    await platform.insights({ ads, since: "2026-11-01", until: "2026-11-01" });
    const sizes = graph.calls.map((c) => (JSON.parse(c.params.filtering) as Array<{ value: string[] }>)[0].value.length);
    expect(sizes).toEqual([50, 50, 20]);
  });
});

describe("errors", () => {
  beforeAll(() => {
    platform = makePlatform({ retries: 3, backoffMs: 100 });
  });

  it("rate limits (code 17, code 4, HTTP 429) are retried with growing waits", async () => {
    graph.rateLimit(1, { code: 17 });
    graph.rateLimit(1, { code: 4 });
    graph.rateLimit(1, { code: 80004, httpStatus: 429 });
    const ids = await platform.publish(input());
    expect(ids.adId).toMatch(/^\d+$/);
    expect(graph.calls.slice(0, 4).map((c) => c.status)).toEqual([400, 400, 429, 200]);
    expect(sleeps).toHaveLength(3);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0]);
    expect(sleeps[2]).toBeGreaterThan(sleeps[1]);
  });

  it("a rate limit that outlasts the retries is a rate_limit error", async () => {
    graph.rateLimit(10, { code: 613 });
    const err = await platform.insights({ ads: [{ platformAdId: "1", dailyBudget: "1.00", currencyCode: "USD", liveIntervals: [] }], since: "2026-11-01", until: "2026-11-01" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "rate_limit", details: { code: 613 } });
    expect(graph.calls).toHaveLength(4);
  });

  it("an expired token is an auth error at once, not retried", async () => {
    graph.expireToken();
    const err = await platform.publish(input()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdsPlatformError);
    expect(err).toMatchObject({ kind: "auth", details: { code: 190, subcode: 463 } });
    expect((err as Error).message).toMatch(/META_ACCESS_TOKEN[\s\S]*Session has expired/);
    expect(graph.calls).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it("a wrong token is an auth error", async () => {
    const wrong = makePlatform({ accessToken: "EAAwrong" });
    await expect(wrong.pause({ campaignId: "1", adSetId: "2", creativeId: "3", adId: "4" })).rejects.toMatchObject({ kind: "auth", details: { code: 190 } });
  });

  it("an unreachable Graph API is unavailable after the retries", async () => {
    const down = makePlatform({ graphUrl: "http://127.0.0.1:1", retries: 1 });
    await expect(down.pause({ campaignId: "1", adSetId: "2", creativeId: "3", adId: "4" })).rejects.toMatchObject({ kind: "unavailable" });
    expect(sleeps).toHaveLength(1);
  });
});
