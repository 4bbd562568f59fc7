/**
 * The Meta Marketing API adapter (ADS_PLATFORM=meta), over fetch against the Graph API
 * (`{META_GRAPH_URL}/{META_API_VERSION}/…`, token in the Authorization header).
 *
 * publish, first time: campaign (objective OUTCOME_SALES) → ad set (the daily budget in the
 * currency's minor units, link-click optimisation, or purchases when META_PIXEL_ID is set) →
 * creative (object_story_spec.link_data of the page: picture or carousel cards, message, name,
 * link, call to action) → ad. Everything is created PAUSED, so a half-made ad never spends; the
 * campaign, ad set and ad are set ACTIVE only once all four exist. When a step fails, what was
 * already created is deleted (best effort) and the error is thrown. Next times (ids known):
 * resume, i.e. the ad set and the ad set ACTIVE. pause: the ad and its ad set PAUSED.
 *
 * insights: `/act_<id>/insights?level=ad&time_increment=1` filtered on the ads' ids (50 per
 * request) over the time range, every page read (`paging.next` → `after` cursor). Purchases are
 * the `purchase` action (Meta's aggregate), else the pixel's `offsite_conversion.fb_pixel_purchase`:
 * both are reported for the same purchases, so they are never added up.
 *
 * Errors: rate limits (codes 4, 17, 32, 613, 80000–80014, HTTP 429) and transient errors (5xx,
 * `is_transient`, network) are retried with exponential backoff up to `retries` times; then
 * AdsPlatformError("rate_limit" | "unavailable"). Code 190 (expired or invalid token) and
 * permission errors are AdsPlatformError("auth") at once: retrying cannot fix them.
 */
import type { Logger } from "~/lib/logger.server";
import { AdsPlatformError, type AdsPlatformErrorKind, type AdsPlatformPort, type DailyInsight, type PlatformAdIds, type PublishAdInput } from "./port";

export interface MetaAdsPlatformOptions {
  accessToken: string;
  /** `act_<digits>`. */
  adAccountId: string;
  /** The Facebook page the ads are published as. */
  pageId: string;
  apiVersion: string;
  graphUrl: string;
  /** With a pixel, ad sets optimise for purchases; without one, for link clicks. */
  pixelId?: string;
  /** ISO country codes the ad sets target. */
  countries?: string[];
  /** Retries of a rate-limited or transient call. */
  retries?: number;
  /** First backoff; doubled each retry (with jitter), at most 30 s. */
  backoffMs?: number;
  timeoutMs?: number;
  log?: Logger;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export const META_RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80000, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);
const AUTH_CODES = new Set([102, 190, 10]);
/** Meta counts these currencies in whole units (its "offset" 1); all others in hundredths. */
const WHOLE_UNIT_CURRENCIES = new Set(["CLP", "COP", "CRC", "HUF", "ISK", "IDR", "JPY", "KRW", "PYG", "TWD", "VND"]);
const PURCHASE_ACTIONS = ["purchase", "offsite_conversion.fb_pixel_purchase"];
const INSIGHT_FIELDS = "ad_id,date_start,impressions,reach,clicks,spend,actions,action_values,account_currency";
const ADS_PER_INSIGHTS_REQUEST = 50;
const MAX_PAGES = 1_000;

interface GraphErrorBody {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string; is_transient?: boolean; error_user_msg?: string };
}

interface InsightRow {
  ad_id?: string;
  date_start?: string;
  impressions?: string;
  reach?: string;
  clicks?: string;
  spend?: string;
  account_currency?: string;
  actions?: Array<{ action_type?: string; value?: string }>;
  action_values?: Array<{ action_type?: string; value?: string }>;
}

interface InsightsPage {
  data?: InsightRow[];
  paging?: { cursors?: { after?: string }; next?: string };
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** "25.00" in the currency's minor units as Meta counts them ("2500"; JPY "25"). */
export function budgetInMinorUnits(amount: string, currencyCode: string): number {
  const value = Number(amount);
  if (!Number.isFinite(value) || value <= 0) throw new AdsPlatformError("invalid", `Invalid daily budget "${amount}"`);
  return WHOLE_UNIT_CURRENCIES.has(currencyCode.toUpperCase()) ? Math.round(value) : Math.round(value * 100);
}

export function createMetaAdsPlatform(opts: MetaAdsPlatformOptions): AdsPlatformPort {
  const base = `${opts.graphUrl.replace(/\/+$/, "")}/${opts.apiVersion}`;
  const account = opts.adAccountId;
  const retries = opts.retries ?? 4;
  const backoffMs = opts.backoffMs ?? 1_000;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? defaultSleep;
  const log = opts.log;

  async function call<T>(method: "GET" | "POST" | "DELETE", path: string, params: Record<string, unknown> = {}): Promise<T> {
    const encoded = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      encoded.set(k, typeof v === "string" ? v : JSON.stringify(v));
    }
    const url = method === "POST" ? `${base}/${path}` : `${base}/${path}${encoded.size ? `?${encoded}` : ""}`;
    let last: AdsPlatformError | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        const wait = Math.min(30_000, Math.round(backoffMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4)));
        log?.warn({ path, attempt, waitMs: wait, err: last?.message, code: last?.details.code }, "meta graph api: retrying");
        await sleep(wait);
      }
      let res: Response;
      try {
        res = await doFetch(url, {
          method,
          headers: {
            authorization: `Bearer ${opts.accessToken}`,
            accept: "application/json",
            ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
          body: method === "POST" ? encoded.toString() : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
        last = new AdsPlatformError("unavailable", timedOut ? `Meta did not answer within ${timeoutMs} ms` : `Meta could not be reached (${(e as Error).message})`);
        continue;
      }
      const text = await res.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      if (res.ok && body !== null && !(body as GraphErrorBody).error) return body as T;
      const error = classify(res.status, body as GraphErrorBody | null, text);
      if (error.retry) {
        last = error.error;
        continue;
      }
      throw error.error;
    }
    throw last ?? new AdsPlatformError("unavailable", "Meta could not be reached");
  }

  async function setStatus(id: string, status: "ACTIVE" | "PAUSED") {
    await call("POST", id, { status });
  }

  async function create(path: "campaigns" | "adsets" | "adcreatives" | "ads", params: Record<string, unknown>): Promise<string> {
    const body = await call<{ id?: string }>("POST", `${account}/${path}`, params);
    if (!body.id) throw new AdsPlatformError("unavailable", `Meta answered no id when creating ${path}`);
    return body.id;
  }

  function creativeSpec(input: PublishAdInput) {
    const cta = { type: input.callToAction, value: { link: input.destinationUrl } };
    const linkData: Record<string, unknown> = {
      link: input.destinationUrl,
      message: input.primaryText,
      name: input.headline,
      call_to_action: cta,
    };
    // Several chosen creatives make a carousel of the same product; one is a single-image ad.
    if (input.imageUrls.length > 1) {
      linkData.child_attachments = input.imageUrls.map((picture) => ({ link: input.destinationUrl, picture, name: input.headline, call_to_action: cta }));
      linkData.multi_share_optimized = true;
    } else {
      linkData.picture = input.imageUrls[0];
    }
    return { page_id: opts.pageId, link_data: linkData };
  }

  return {
    name: "meta",

    async publish(input) {
      if (input.existing) {
        await setStatus(input.existing.adSetId, "ACTIVE");
        await setStatus(input.existing.adId, "ACTIVE");
        return input.existing;
      }
      if (input.imageUrls.length === 0) throw new AdsPlatformError("invalid", "An ad needs at least one image");
      const dailyBudget = budgetInMinorUnits(input.dailyBudget, input.currencyCode);
      const created: string[] = [];
      try {
        const campaignId = await create("campaigns", {
          name: input.name,
          objective: "OUTCOME_SALES",
          status: "PAUSED",
          special_ad_categories: [],
          buying_type: "AUCTION",
          is_adset_budget_sharing_enabled: false,
        });
        created.push(campaignId);
        const adSetId = await create("adsets", {
          name: input.name,
          campaign_id: campaignId,
          daily_budget: String(dailyBudget),
          billing_event: "IMPRESSIONS",
          bid_strategy: "LOWEST_COST_WITHOUT_CAP",
          ...(opts.pixelId
            ? { optimization_goal: "OFFSITE_CONVERSIONS", promoted_object: { pixel_id: opts.pixelId, custom_event_type: "PURCHASE" } }
            : { optimization_goal: "LINK_CLICKS", destination_type: "WEBSITE" }),
          targeting: { geo_locations: { countries: opts.countries?.length ? opts.countries : ["US"] }, age_min: 18 },
          status: "PAUSED",
        });
        created.push(adSetId);
        const creativeId = await create("adcreatives", { name: input.name, object_story_spec: creativeSpec(input) });
        created.push(creativeId);
        const adId = await create("ads", { name: input.name, adset_id: adSetId, creative: { creative_id: creativeId }, status: "PAUSED" });
        created.push(adId);
        await setStatus(campaignId, "ACTIVE");
        await setStatus(adSetId, "ACTIVE");
        await setStatus(adId, "ACTIVE");
        return { campaignId, adSetId, creativeId, adId };
      } catch (e) {
        // Objects left behind would be paused orphans in the account: remove them, newest first.
        for (const id of created.reverse()) {
          await call("DELETE", id).catch((err: unknown) => log?.warn({ id, err }, "meta graph api: could not delete a half-published object"));
        }
        throw e;
      }
    },

    async pause(ids: PlatformAdIds) {
      await setStatus(ids.adId, "PAUSED");
      await setStatus(ids.adSetId, "PAUSED");
    },

    async insights(input) {
      const currencyOf = new Map(input.ads.map((a) => [a.platformAdId, a.currencyCode]));
      const ids = [...currencyOf.keys()];
      const rows: DailyInsight[] = [];
      for (let i = 0; i < ids.length; i += ADS_PER_INSIGHTS_REQUEST) {
        const chunk = ids.slice(i, i + ADS_PER_INSIGHTS_REQUEST);
        let after: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const body = await call<InsightsPage>("GET", `${account}/insights`, {
            level: "ad",
            time_increment: "1",
            fields: INSIGHT_FIELDS,
            filtering: [{ field: "ad.id", operator: "IN", value: chunk }],
            time_range: { since: input.since, until: input.until },
            limit: "500",
            after,
          });
          for (const row of body.data ?? []) {
            const parsed = parseInsight(row, currencyOf);
            if (parsed) rows.push(parsed);
          }
          after = body.paging?.cursors?.after;
          if (!body.paging?.next || !after) break;
        }
      }
      return rows;
    },
  };
}

function classify(status: number, body: GraphErrorBody | null, text: string): { retry: boolean; error: AdsPlatformError } {
  const e = body?.error;
  const code = e?.code;
  const details = { code, subcode: e?.error_subcode, fbtraceId: e?.fbtrace_id };
  const message = e?.error_user_msg || e?.message || `Meta answered HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ""}`;
  const make = (kind: AdsPlatformErrorKind, prefix: string) => new AdsPlatformError(kind, `${prefix}${message}`, details);
  if (code === 190 || code === 102) return { retry: false, error: make("auth", "Meta refused the access token (renew META_ACCESS_TOKEN): ") };
  if (status === 429 || (code !== undefined && META_RATE_LIMIT_CODES.has(code))) return { retry: true, error: make("rate_limit", "Meta is rate limiting the ad account: ") };
  if ((code !== undefined && AUTH_CODES.has(code)) || (code !== undefined && code >= 200 && code <= 299)) return { retry: false, error: make("auth", "Meta refused the permission: ") };
  if (code === 100 && e?.error_subcode === 33) return { retry: false, error: make("not_found", "") };
  if (status >= 500 || e?.is_transient || code === 1 || code === 2) return { retry: true, error: make("unavailable", "Meta is unavailable: ") };
  if (status === 404) return { retry: false, error: make("not_found", "") };
  return { retry: false, error: make("invalid", "Meta refused the request: ") };
}

function actionValue(list: InsightRow["actions"]): number {
  for (const type of PURCHASE_ACTIONS) {
    const hit = list?.find((a) => a.action_type === type);
    if (hit) return Number(hit.value ?? 0) || 0;
  }
  return 0;
}

function count(v: string | undefined): number {
  const n = Number(v ?? 0);
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

function money(v: string | number | undefined): string {
  const n = Number(v ?? 0);
  return (Number.isFinite(n) && n > 0 ? n : 0).toFixed(2);
}

function parseInsight(row: InsightRow, currencyOf: Map<string, string>): DailyInsight | null {
  if (!row.ad_id || !row.date_start || !/^\d{4}-\d{2}-\d{2}$/.test(row.date_start)) return null;
  return {
    platformAdId: row.ad_id,
    date: row.date_start,
    impressions: count(row.impressions),
    reach: count(row.reach),
    clicks: count(row.clicks),
    spend: money(row.spend),
    purchases: Math.round(actionValue(row.actions)),
    purchaseValue: money(actionValue(row.action_values)),
    currencyCode: row.account_currency ?? currencyOf.get(row.ad_id) ?? "USD",
  };
}
