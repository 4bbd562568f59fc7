/**
 * The ads platform port (issue 18, docs/product-ads.md): where a LIVE ad runs and where its
 * delivery is read back. ADS_PLATFORM picks the adapter:
 * - `local` (default): deterministic simulated delivery from the ad's age and budget, so the
 *   embedded default shows real-looking numbers with no network;
 * - `meta`: the Meta Marketing API (Graph API) over fetch.
 *
 * Services never see Graph API shapes: they pass an ad as the app knows it and get the platform's
 * ids and per-day insights back. Failures are AdsPlatformError with a `kind` the caller can map
 * (a token error is not worth retrying; a rate limit was already retried by the adapter).
 */
import { z } from "zod";

export const ADS_PLATFORMS = ["local", "meta"] as const;
export const AdsPlatformName = z.enum(ADS_PLATFORMS);
export type AdsPlatformName = z.infer<typeof AdsPlatformName>;

export const CALL_TO_ACTIONS = ["SHOP_NOW", "LEARN_MORE", "SIGN_UP"] as const;
export type CallToAction = (typeof CALL_TO_ACTIONS)[number];

/** The platform's ids of a published ad (kept on the ad: `meta_*_id`). */
export interface PlatformAdIds {
  campaignId: string;
  adSetId: string;
  creativeId: string;
  adId: string;
}

export interface PublishAdInput {
  /** The app's ad id (names and idempotency on the platform side). */
  adId: string;
  /** Set when the ad was published before: the platform resumes it instead of creating it again. */
  existing: PlatformAdIds | null;
  name: string;
  headline: string;
  primaryText: string;
  /** Public image URLs of the creatives (the first is the main one). */
  imageUrls: string[];
  destinationUrl: string;
  callToAction: CallToAction;
  /** In the ad account's currency, as a decimal string ("25.00"). */
  dailyBudget: string;
  currencyCode: string;
}

/** One ad's delivery on one day of the ad account (YYYY-MM-DD). Money as decimal strings. */
export interface DailyInsight {
  platformAdId: string;
  date: string;
  impressions: number;
  reach: number;
  clicks: number;
  spend: string;
  purchases: number;
  purchaseValue: string;
  currencyCode: string;
}

export interface InsightsAd {
  platformAdId: string;
  /**
   * What the app knows of the ad, for the local adapter's simulation (Meta ignores it): its
   * budget and the intervals it was LIVE (from its timeline; `to` null while still live).
   */
  dailyBudget: string;
  currencyCode: string;
  liveIntervals: Array<{ from: Date; to: Date | null }>;
}

export interface InsightsInput {
  ads: InsightsAd[];
  /** Days of the ad account, both included (YYYY-MM-DD). */
  since: string;
  until: string;
}

export interface AdsPlatformPort {
  readonly name: AdsPlatformName;
  /** Create (first time: campaign, ad set, creative, ad) or resume a paused ad; answers its ids. */
  publish(input: PublishAdInput): Promise<PlatformAdIds>;
  /** Pause a running ad (its ad set and ad), keeping it resumable. */
  pause(ids: PlatformAdIds): Promise<void>;
  /** Per-ad per-day delivery between two days; all pages read. Days without delivery may be absent. */
  insights(input: InsightsInput): Promise<DailyInsight[]>;
}

export type AdsPlatformErrorKind = "auth" | "rate_limit" | "invalid" | "not_found" | "unavailable";

export class AdsPlatformError extends Error {
  constructor(
    readonly kind: AdsPlatformErrorKind,
    message: string,
    readonly details: { code?: number; subcode?: number; fbtraceId?: string } = {},
  ) {
    super(message);
    this.name = "AdsPlatformError";
  }
}
