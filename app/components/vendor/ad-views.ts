/**
 * What the vendor's ad pages show, as plain data: the loaders (app/lib/vendor-ads-pages.server.ts)
 * map the ads, requests, features and metrics services' answers to these, so the components do not
 * depend on the services' row shapes and server-render in tests from hand-written data.
 */

export const AD_STATUSES = ["PENDING", "COMPLETED", "FEEDBACK_PENDING", "APPROVED", "LIVE", "INACTIVE"] as const;
export type AdStatus = (typeof AD_STATUSES)[number];

export const AD_MOVES = ["complete", "approve", "feedback", "publish", "unpublish"] as const;
export type AdMove = (typeof AD_MOVES)[number];

/** Delivery figures of an ad or of all the vendor's ads over a range (money as decimal strings). */
export interface AdFigures {
  impressions: number;
  clicks: number;
  spend: string;
  purchases: number;
  purchaseValue: string;
  /** clicks / impressions; null without impressions. */
  ctr: number | null;
  /** purchase value / spend; null without spend. */
  roas: number | null;
}

export interface AdDayView {
  date: string;
  impressions: number;
  clicks: number;
  spend: string;
}

export interface AdListRow {
  id: string;
  status: AdStatus;
  headline: string;
  productTitle: string;
  image: string | null;
  dailyBudget: string;
  currencyCode: string;
  /** Over the page's range; null when the metrics could not be read. */
  figures: AdFigures | null;
  updated_at: string;
}

export interface AdMetricsView {
  from: string;
  to: string;
  currencyCode: string;
  totals: AdFigures;
  daily: AdDayView[];
}

export type AdRequestStatus = "open" | "completed";

export interface AdRequestRow {
  id: string;
  status: AdRequestStatus;
  productTitles: string[];
  featureNames: string[];
  brief: string;
  dailyBudget: string | null;
  currencyCode: string;
  startDate: string | null;
  endDate: string | null;
  adsCount: number;
  created_at: string;
}

export type AdFeatureKind = "format" | "placement" | "extra";

export interface AdFeatureView {
  id: string;
  kind: AdFeatureKind;
  name: string;
  description: string | null;
  price: string | null;
  currencyCode: string;
}

export interface AdProductChoice {
  id: string;
  title: string;
  image: string | null;
  status: string;
}

export interface UploadedImageView {
  id: string;
  url: string;
}

export interface AdTimelineEntry {
  id: string;
  kind: string;
  fromStatus: AdStatus | null;
  toStatus: AdStatus | null;
  author: { name: string; role: string } | null;
  text: string | null;
  created_at: string;
}

export interface AdDetailView {
  id: string;
  status: AdStatus;
  headline: string;
  primaryText: string;
  creativeUrls: string[];
  callToAction: string;
  destinationUrl: string | null;
  dailyBudget: string;
  currencyCode: string;
  productTitle: string;
  requestId: string | null;
  publishedAt: string | null;
  metaError: string | null;
  metricsSyncedAt: string | null;
  /** The moves this caller may make now (the API's allowedMoves). */
  allowedMoves: AdMove[];
  timeline: AdTimelineEntry[];
}

/** The answer of an ad page's action (approve, feedback, unpublish). */
export type AdActionResult = { ok: true; intent: string; message: string } | { ok: false; intent: string; error: string };

/** The answer of the request form: field errors by the form's field names, or a general error. */
export type AdRequestFormResult = { ok: false; error: string; fieldErrors: Partial<Record<AdRequestField, string>> };
export type AdRequestField = "product_ids" | "uploaded_image_ids" | "feature_ids" | "brief" | "daily_budget" | "start_date" | "end_date";
