/**
 * What the admin product-ads pages (app/routes/app.ads*.tsx) share on the server: the ads team as
 * the services' caller (the pages are ads.manage only), the services' answers as the pages' views
 * (app/lib/ads-admin-view.ts), the vendor filter's options, and the progress of a job the page
 * follows. The pages read and write through the same services and zod schemas as the API.
 */
import type { User } from "@prisma/client";
import type { Db } from "~/db.server";
import type { ProductAd, ProductAdDetail } from "~/contract/product-ads";
import type { AdsCaller } from "~/services/product-ads/ads.server";
import type { AdViewer } from "~/services/product-ads/requests.server";
import type { AppContext } from "~/context.server";
import { enqueueMetricsSync, getAdMetrics } from "~/services/product-ads/metrics.server";
import type { AdDailyView, AdDetailView, AdRowView, JobProgressView } from "./ads-admin-view";

/** The signed-in admin as the ads services' caller: the team, for every vendor. */
export const teamCaller = (user: Pick<User, "id">): AdsCaller => ({ userId: user.id, actor: "team", vendorId: null });
export const teamViewer = (user: Pick<User, "id">): AdViewer => ({ userId: user.id, vendorId: null });

export function toAdRow(ad: ProductAd): AdRowView {
  return {
    id: ad.id,
    status: ad.status,
    headline: ad.headline,
    product: { id: ad.product.id, title: ad.product.title, image_url: ad.product.featuredImage?.url ?? null },
    vendor: ad.vendor,
    request_id: ad.request_id,
    daily_budget: { amount: ad.daily_budget, currencyCode: ad.currencyCode },
    impressions: ad.metrics.impressions,
    clicks: ad.metrics.clicks,
    spend: { amount: ad.metrics.spend, currencyCode: ad.currencyCode },
    meta_error: ad.meta_error,
    updated_at: ad.updated_at,
  };
}

export function toAdDetail(ad: ProductAdDetail): AdDetailView {
  return {
    ...toAdRow(ad),
    primary_text: ad.primary_text,
    call_to_action: ad.call_to_action,
    creative_urls: ad.creative_urls,
    destination_url: ad.destination_url,
    meta_ad_id: ad.meta_ad_id,
    published_at: ad.published_at,
    allowed_moves: ad.allowedMoves,
    metrics_synced_at: ad.metrics_synced_at,
    totals: {
      impressions: ad.metrics.impressions,
      reach: ad.metrics.reach,
      clicks: ad.metrics.clicks,
      spend: Number(ad.metrics.spend),
      purchases: ad.metrics.purchases,
      purchase_value: Number(ad.metrics.purchaseValue),
      currencyCode: ad.currencyCode,
    },
    timeline: ad.timeline.map((e) => ({
      id: e.id,
      kind: e.kind,
      from_status: e.from_status,
      to_status: e.to_status,
      author: e.author ? `${e.author.name}${e.author.role === "VENDOR" ? " (vendor)" : ""}` : null,
      text: e.text,
      created_at: e.created_at,
    })),
  };
}

/** The vendors of the vendor filter, by name (a marketplace has tens of them, not thousands). */
export async function vendorOptions(db: Db): Promise<{ id: string; name: string }[]> {
  return db.vendor.findMany({ select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }], take: 500 });
}

/** A job of `queue` the page started (sync, creative generation), or null for any other id. */
export async function jobProgress(db: Db, id: string | null, queues: readonly string[]): Promise<JobProgressView | null> {
  if (!id) return null;
  const job = await db.job.findUnique({ where: { id }, select: { id: true, queue: true, status: true, progress: true, error: true } });
  if (!job || !queues.includes(job.queue)) return null;
  return { id: job.id, status: job.status, progress: job.progress, error: job.error };
}

/** The ad's stored metrics per day over the metrics' default range (the last 30 days), oldest first. */
export async function adDaily(ctx: AppContext, caller: AdsCaller, adId: string): Promise<AdDailyView[]> {
  const m = await getAdMetrics(ctx, { vendorId: caller.vendorId }, adId, {});
  return m.daily.map((d) => ({ date: d.date, impressions: d.impressions, clicks: d.clicks, spend: Number(d.spend), purchases: d.purchases, purchase_value: Number(d.purchaseValue) }));
}

/** Starts the metrics sync of every ad (as POST /product-ads/sync-meta-performance without a body): the job's id. */
export async function startMetricsSync(ctx: AppContext): Promise<{ jobId: string }> {
  return enqueueMetricsSync(ctx, {});
}
