/**
 * What the admin product-ads screens (app/routes/app.ads*.tsx) share: the board's and the request
 * queue's tabs, status labels and badge tones, the labels of the moves (docs/product-ads.md) and the
 * number formats of the metrics. Pure: read by loaders and pages alike.
 */

export const AD_STATUSES = ["PENDING", "FEEDBACK_PENDING", "COMPLETED", "APPROVED", "LIVE", "INACTIVE"] as const;
export type AdStatus = (typeof AD_STATUSES)[number];

/** The board's tabs: everything, then the statuses in the order the work goes through them. */
export const AD_TABS = [
  { id: "all", label: "All" },
  { id: "PENDING", label: "Pending" },
  { id: "FEEDBACK_PENDING", label: "Feedback" },
  { id: "COMPLETED", label: "Completed" },
  { id: "APPROVED", label: "Approved" },
  { id: "LIVE", label: "Live" },
  { id: "INACTIVE", label: "Inactive" },
] as const;
export type AdTab = (typeof AD_TABS)[number]["id"];
export const adTabOf = (v: string | null): AdTab => AD_TABS.find((t) => t.id === v)?.id ?? "all";

export const AD_STATUS_LABEL: Record<AdStatus, string> = {
  PENDING: "Pending",
  FEEDBACK_PENDING: "Feedback to address",
  COMPLETED: "Waiting for the vendor",
  APPROVED: "Approved",
  LIVE: "Live",
  INACTIVE: "Inactive",
};

type Tone = "success" | "attention" | "warning" | "critical" | "info" | undefined;

/** The team's work to do is attention; waiting on the vendor is info; running is success; paused is neutral. */
export function adTone(s: AdStatus): Tone {
  if (s === "PENDING" || s === "FEEDBACK_PENDING") return "attention";
  if (s === "COMPLETED" || s === "APPROVED") return "info";
  if (s === "LIVE") return "success";
  return undefined;
}

export const REQUEST_TABS = [
  { id: "open", label: "Open" },
  { id: "completed", label: "Completed" },
  { id: "all", label: "All" },
] as const;
export type RequestTab = (typeof REQUEST_TABS)[number]["id"];
export const requestTabOf = (v: string | null): RequestTab => REQUEST_TABS.find((t) => t.id === v)?.id ?? "open";
export const REQUEST_STATUS_LABEL: Record<"open" | "completed", string> = { open: "Open", completed: "Completed" };

export const AD_MOVES = ["complete", "feedback", "approve", "publish", "unpublish"] as const;
export type AdMove = (typeof AD_MOVES)[number];
export const isAdMove = (v: unknown): v is AdMove => typeof v === "string" && (AD_MOVES as readonly string[]).includes(v);

export const MOVE_LABEL: Record<AdMove, string> = {
  complete: "Complete",
  feedback: "Send feedback",
  approve: "Approve",
  publish: "Publish",
  unpublish: "Unpublish",
};

/** What the banner says once a move is made. */
export const MOVE_DONE: Record<AdMove, string> = {
  complete: "The ad is completed: the vendor can review it now.",
  feedback: "Feedback sent: the ad is back with the team.",
  approve: "The ad is approved: it can be published.",
  publish: "The ad is live on the ads platform.",
  unpublish: "The ad is paused on the ads platform.",
};

export const CTA_OPTIONS = [
  { value: "SHOP_NOW", label: "Shop now" },
  { value: "LEARN_MORE", label: "Learn more" },
  { value: "SIGN_UP", label: "Sign up" },
] as const;
export const ctaLabel = (v: string) => CTA_OPTIONS.find((o) => o.value === v)?.label ?? v;

/** Statuses where the team may still edit the ad (docs/product-ads.md: "Edits"). */
export const EDITABLE_STATUSES: readonly AdStatus[] = ["PENDING", "COMPLETED", "FEEDBACK_PENDING"];

export const FEATURE_KIND_LABEL: Record<"format" | "placement" | "extra", string> = { format: "Formats", placement: "Placements", extra: "Extras" };

export interface Money {
  amount: string;
  currencyCode: string;
}

/** "$12.50", or "EUR 12.50" outside dollars; a bare number is read in `currencyCode`. */
export function moneyText(m: Money | string | number | null | undefined, currencyCode = "USD"): string {
  if (m === null || m === undefined) return "—";
  const { amount, currencyCode: cc } = typeof m === "object" ? m : { amount: String(m), currencyCode };
  const n = Number(amount);
  const text = Number.isFinite(n) ? n.toFixed(2) : amount;
  return cc === "USD" ? `$${text}` : `${cc} ${text}`;
}

export const countText = (n: number | null | undefined) => (n === null || n === undefined ? "—" : new Intl.NumberFormat("en").format(n));

/** A ratio (0.0123) as a percentage "1.23%"; null (no impressions) as a dash. */
export const pctText = (r: number | null | undefined) => (r === null || r === undefined ? "—" : `${(r * 100).toFixed(2)}%`);

/** ROAS as "3.20×"; null (nothing spent) as a dash. */
export const roasText = (r: number | null | undefined) => (r === null || r === undefined ? "—" : `${r.toFixed(2)}×`);

/** CTR and ROAS from the totals, as docs/product-ads.md defines them (null when the divisor is 0). */
export function ratios(t: { impressions: number; clicks: number; spend: number; purchase_value: number }) {
  return { ctr: t.impressions > 0 ? t.clicks / t.impressions : null, roas: t.spend > 0 ? t.purchase_value / t.spend : null };
}

export const utcText = (iso: string | Date) => `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
export const dayText = (iso: string | Date | null | undefined) => (iso ? new Date(iso).toLocaleDateString("en", { dateStyle: "medium", timeZone: "UTC" }) : "—");

/* The pages' view of the records (the loaders map the services' answers to these). */

export interface AdProductView {
  id: string;
  title: string;
  image_url: string | null;
}

export interface AdRowView {
  id: string;
  status: AdStatus;
  headline: string;
  product: AdProductView;
  vendor: { id: string; name: string };
  request_id: string | null;
  daily_budget: Money;
  impressions: number;
  clicks: number;
  spend: Money;
  meta_error: string | null;
  updated_at: string;
}

export interface TimelineEntryView {
  id: string;
  kind: string;
  from_status: AdStatus | null;
  to_status: AdStatus | null;
  author: string | null;
  text: string | null;
  created_at: string;
}

export interface AdTotalsView {
  impressions: number;
  reach: number;
  clicks: number;
  spend: number;
  purchases: number;
  purchase_value: number;
  currencyCode: string;
}

export interface AdDailyView {
  date: string;
  impressions: number;
  clicks: number;
  spend: number;
  purchases: number;
  purchase_value: number;
}

export interface CreativeView {
  id: string;
  kind: "image" | "copy";
  source: string;
  image_url: string | null;
  headline: string | null;
  primary_text: string | null;
  status: "queued" | "ready" | "failed";
  error: string | null;
}

export interface AdDetailView extends AdRowView {
  primary_text: string;
  call_to_action: string;
  creative_urls: string[];
  destination_url: string | null;
  meta_ad_id: string | null;
  published_at: string | null;
  allowed_moves: AdMove[];
  timeline: TimelineEntryView[];
  totals: AdTotalsView;
  metrics_synced_at: string | null;
}

/** The progress of a background job the page follows (metrics sync, creative generation). */
export interface JobProgressView {
  id: string;
  status: "queued" | "running" | "completed" | "failed" | "cancelled";
  progress: number;
  error: string | null;
}
export const jobActive = (j: JobProgressView | null | undefined) => j?.status === "queued" || j?.status === "running";
