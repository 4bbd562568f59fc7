/**
 * Loaders and actions of the vendor's ad pages (issues 17 and 18; docs/product-ads.md): the ads
 * list with metrics, the request form, one ad's review. The vendor's own pages
 * (/app/vendor/ads…, the vendor from the session) and the admins' view of a vendor
 * (/app/vendors/:id/ads…) read through the same services as the API's /vendors/me/ads… and
 * /product-ad… routes, with the same confinement: a vendor reaches its own ads and requests only,
 * another vendor's id is "not found".
 *
 * The services' answers are mapped to the pages' view shapes (components/vendor/ad-views.ts).
 */
import { redirect } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import type { User } from "@prisma/client";
import { hasPermission } from "~/api/auth.server";
import { getAppContext } from "~/context.server";
import { AdRequestCreateBody, AdRequestMessages } from "~/contract/product-ad-requests";
import { ProductAdFeedbackBody, type ProductAd, type ProductAdDetail } from "~/contract/product-ads";
import { answerRefusals, issuesMessage, orNotFound, refusalOf } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { staffError } from "~/lib/staff-errors";
import { requireStaff } from "~/lib/staff-auth.server";
import { rangeFromSearch } from "~/lib/analytics-range";
import { DomainError } from "~/lib/domain-errors";
import { listVendorAds, getProductAd, moveProductAd, platformMoveProductAd, type AdsCaller } from "~/services/product-ads/ads.server";
import { listAdFeatures } from "~/services/product-ads/features.server";
import { createAdRequest, listAdRequests, type AdViewer } from "~/services/product-ads/requests.server";
import { getVendor, listVendorProducts } from "~/services/vendors/portal.server";
import { requireVendorExists } from "~/services/vendors/analytics.server";
import { loadAdMetrics, loadVendorAdMetrics } from "./vendor-ads-metrics.server";
import type {
  AdActionResult,
  AdDetailView,
  AdFeatureView,
  AdListRow,
  AdProductChoice,
  AdRequestField,
  AdRequestFormResult,
  AdRequestRow,
} from "~/components/vendor/ad-views";

type RouteArgs = { request: Request; params: Params };

/** Whose ad pages these are, and as whom the services are called. */
export interface AdsScope {
  vendorId: string;
  /** /app/vendor or /app/vendors/:id */
  base: string;
  asAdmin: boolean;
  caller: AdsCaller;
  viewer: AdViewer;
}

const ADS_PAGE_MAX = 100;
const REQUESTS_PAGE_MAX = 50;
const PRODUCT_CHOICES_MAX = 250;

/**
 * /app/vendors/:id/ads… needs an admin with vendors.manage or ads.manage (as GET
 * /vendors/{id}/ads); only the ads team (ads.manage) makes moves and files requests there. Other
 * callers are refused (403) before the id is read; an unknown vendor is 404. /app/vendor/ads… needs
 * a vendor account.
 */
export async function adsScope(request: Request, params: Params): Promise<AdsScope> {
  const { user } = await requireStaff(request);
  if (params.id !== undefined) {
    const team = user.role === "ADMIN" && hasPermission(user, "ads.manage");
    if (user.role !== "ADMIN" || !(team || hasPermission(user, "vendors.manage"))) throw staffError(403, "You do not have permission to see this page");
    const vendorId = params.id;
    await orNotFound("Vendor not found", () => requireVendorExists(getAppContext().db, vendorId));
    return {
      vendorId,
      base: `/app/vendors/${encodeURIComponent(vendorId)}`,
      asAdmin: true,
      caller: { userId: user.id, actor: team ? "team" : null, vendorId: null },
      viewer: { userId: user.id, vendorId: null },
    };
  }
  const vendorId = vendorOf(user);
  return { vendorId, base: "/app/vendor", asAdmin: false, caller: { userId: user.id, actor: "vendor", vendorId }, viewer: { userId: user.id, vendorId } };
}

function vendorOf(user: User): string {
  if (user.role !== "VENDOR" || !user.vendor_id) throw staffError(403, "This page is for vendor accounts");
  return user.vendor_id;
}

const adsDeps = () => {
  const ctx = getAppContext();
  return { db: ctx.db, config: ctx.config, adsPlatform: ctx.adsPlatform, log: ctx.log };
};

// ---- mapping to the pages' shapes ----

const adRow = (a: ProductAd): AdListRow => ({
  id: a.id,
  status: a.status,
  headline: a.headline,
  productTitle: a.product.title,
  image: a.creative_urls[0] ?? a.product.featuredImage?.url ?? null,
  dailyBudget: a.daily_budget,
  currencyCode: a.currencyCode,
  figures: null,
  updated_at: a.updated_at,
});

const adDetail = (a: ProductAdDetail): AdDetailView => ({
  id: a.id,
  status: a.status,
  headline: a.headline,
  primaryText: a.primary_text,
  creativeUrls: a.creative_urls,
  callToAction: a.call_to_action,
  destinationUrl: a.destination_url || null,
  dailyBudget: a.daily_budget,
  currencyCode: a.currencyCode,
  productTitle: a.product.title,
  requestId: a.request_id,
  publishedAt: a.published_at,
  metaError: a.meta_error,
  metricsSyncedAt: a.metrics_synced_at,
  allowedMoves: a.allowedMoves,
  timeline: a.timeline.map((e) => ({
    id: e.id,
    kind: e.kind,
    fromStatus: e.from_status,
    toStatus: e.to_status,
    author: e.author ? { name: e.author.name, role: e.author.role } : null,
    text: e.text,
    created_at: e.created_at,
  })),
});

// ---- the ads list ----

export async function vendorAdsLoader({ request, params }: RouteArgs) {
  const scope = await adsScope(request, params);
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const timeZone = ctx.config.STORE_TIMEZONE ?? "UTC";
  const { asked, range } = rangeFromSearch(sp, timeZone);
  const [vendor, ads, requests, metrics] = await Promise.all([
    orNotFound("Vendor not found", () => getVendor(ctx.db, scope.vendorId)),
    listVendorAds(adsDeps(), scope.caller, scope.vendorId, { limit: ADS_PAGE_MAX }),
    listAdRequests(ctx.db, scope.viewer, { vendorId: scope.vendorId, limit: REQUESTS_PAGE_MAX }),
    loadVendorAdMetrics(scope.vendorId, asked),
  ]);
  const perAd = new Map((metrics.view?.perAd ?? []).map((r) => [r.id, r.figures]));
  const filed = sp.get("filed");
  return {
    scope: { base: scope.base, asAdmin: scope.asAdmin, vendorId: scope.vendorId },
    vendor: { id: vendor.id, name: vendor.name },
    range: metrics.view ? { ...range, from: metrics.view.metrics.from, to: metrics.view.metrics.to } : range,
    error: metrics.error,
    metrics: metrics.view?.metrics ?? null,
    ads: ads.items.map((a) => ({ ...adRow(a), figures: perAd.get(a.id) ?? null })),
    requests: requests.items.map(
      (r): AdRequestRow => ({
        id: r.id,
        status: r.status,
        productTitles: r.products.map((p) => p.title),
        featureNames: r.features.map((f) => f.name),
        brief: r.brief,
        dailyBudget: r.daily_budget,
        currencyCode: r.currencyCode,
        startDate: r.start_date,
        endDate: r.end_date,
        adsCount: r.adsCount,
        created_at: r.created_at,
      }),
    ),
    notice: filed && requests.items.some((r) => r.id === filed) ? "Request filed. The ads team will make the ad and send it to you for review." : null,
  };
}

// ---- the request form ----

export async function vendorAdRequestNewLoader({ request, params }: RouteArgs) {
  const scope = await adsScope(request, params);
  const ctx = getAppContext();
  const [vendor, products, features] = await Promise.all([
    orNotFound("Vendor not found", () => getVendor(ctx.db, scope.vendorId)),
    listVendorProducts(ctx.db, scope.vendorId, { sort: "title", limit: PRODUCT_CHOICES_MAX }),
    // Only the active features are offered, to the team too: inactive ones are refused on new requests.
    listAdFeatures(ctx.db, { team: false }, {}),
  ]);
  const choices: AdProductChoice[] = products.items.filter((p) => p.status !== "archived").map((p) => ({ id: p.id, title: p.title, image: p.featuredImage?.url ?? null, status: p.status }));
  return {
    scope: { base: scope.base, asAdmin: scope.asAdmin, vendorId: scope.vendorId },
    vendor: { id: vendor.id, name: vendor.name },
    products: choices,
    features: features.items.map((f): AdFeatureView => ({ id: f.id, kind: f.kind, name: f.name, description: f.description, price: f.price, currencyCode: f.currencyCode })),
    currencyCode: products.items[0]?.currencyCode ?? features.items[0]?.currencyCode ?? "USD",
    loadError: choices.length === 0 ? "You have no products to advertise yet: add or activate a product first." : null,
  };
}

const FIELDS: AdRequestField[] = ["product_ids", "uploaded_image_ids", "feature_ids", "brief", "daily_budget", "start_date", "end_date"];
const isField = (k: unknown): k is AdRequestField => typeof k === "string" && (FIELDS as string[]).includes(k);

/** Which field a service refusal is about (its details name the offending id). */
function refusalField(e: DomainError): AdRequestField | null {
  const d = (e.details ?? {}) as Record<string, unknown>;
  if ("product_id" in d || e.message === AdRequestMessages.UNKNOWN_PRODUCT || e.message === AdRequestMessages.ARCHIVED_PRODUCT) return "product_ids";
  if ("uploaded_image_id" in d || e.message === AdRequestMessages.UNKNOWN_IMAGE) return "uploaded_image_ids";
  if ("feature_id" in d || e.message === AdRequestMessages.FEATURE_UNAVAILABLE || e.message === AdRequestMessages.NEEDS_FORMAT) return "feature_ids";
  return null;
}

const strings = (form: FormData, key: string) => form.getAll(key).filter((v): v is string => typeof v === "string" && v.trim() !== "");
const optional = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
};

/**
 * Files the request through the API's zod body and the requests service: zod's issues and the
 * service's refusals come back per field; a filed request goes to the ads list with a notice.
 * Admins file for the vendor of the URL, when they are the ads team.
 */
export async function vendorAdRequestNewAction({ request, params }: RouteArgs): Promise<AdRequestFormResult> {
  const scope = await adsScope(request, params);
  if (scope.asAdmin && scope.caller.actor !== "team") throw staffError(403, "Only the ads team files requests for a vendor");
  const form = await formOf(request);
  const body = AdRequestCreateBody.safeParse({
    ...(scope.asAdmin ? { vendor_id: scope.vendorId } : {}),
    product_ids: strings(form, "product_ids"),
    uploaded_image_ids: strings(form, "uploaded_image_ids"),
    feature_ids: strings(form, "feature_ids"),
    brief: String(form.get("brief") ?? ""),
    daily_budget: optional(form, "daily_budget") ?? "",
    start_date: optional(form, "start_date") ?? null,
    end_date: optional(form, "end_date") ?? null,
  });
  if (!body.success) {
    const fieldErrors: AdRequestFormResult["fieldErrors"] = {};
    for (const issue of body.error.issues) {
      const key = issue.path[0];
      if (isField(key) && !fieldErrors[key]) fieldErrors[key] = key === "daily_budget" && !optional(form, "daily_budget") ? "A daily budget is required" : issue.message;
    }
    return { ok: false, error: issuesMessage(body.error), fieldErrors };
  }
  let created: { id: string };
  try {
    created = await createAdRequest(getAppContext().db, scope.viewer, body.data);
  } catch (e) {
    if (e instanceof DomainError) {
      const field = refusalField(e);
      const refusal = refusalOf(e);
      return { ok: false, error: refusal.message, fieldErrors: field ? { [field]: refusal.message } : {} };
    }
    throw e;
  }
  throw redirect(`${scope.base}/ads?filed=${encodeURIComponent(created.id)}`);
}

// ---- one ad ----

export async function vendorAdLoader({ request, params }: RouteArgs) {
  const scope = await adsScope(request, params);
  const adId = params.adId ?? "";
  const ctx = getAppContext();
  const [vendor, ad] = await Promise.all([
    orNotFound("Vendor not found", () => getVendor(ctx.db, scope.vendorId)),
    // Another vendor's ad (and, for admins, an ad of another vendor than the URL's) is not found.
    orNotFound("Ad not found", async () => {
      const a = await getProductAd(adsDeps(), scope.caller, adId);
      if (a.vendor.id !== scope.vendorId) throw staffError(404, "Ad not found");
      return a;
    }),
  ]);
  const metrics = await loadAdMetrics(scope, ad.id, ad.published_at);
  return {
    scope: { base: scope.base, asAdmin: scope.asAdmin, vendorId: scope.vendorId },
    vendor: { id: vendor.id, name: vendor.name },
    ad: adDetail(ad),
    metrics: metrics.view,
    metricsError: metrics.error,
  };
}

const MOVE_DONE: Record<string, string> = {
  approve: "Ad approved. The team can publish it now.",
  feedback: "Feedback sent. The team will rework the ad and send it back for your review.",
  unpublish: "Ad unpublished: it no longer runs.",
};

/**
 * The vendor's moves on its ad: `approve` `{ note? }`, `feedback` `{ text }`, `unpublish`, through
 * the ads service (which checks the status and who may move: a refusal is the answer's error).
 */
export async function vendorAdAction({ request, params }: RouteArgs): Promise<AdActionResult> {
  const scope = await adsScope(request, params);
  const adId = params.adId ?? "";
  const form = await formOf(request);
  const intent = String(form.get("intent") ?? "");
  const refused = (error: string): AdActionResult => ({ ok: false, intent, error });
  if (intent !== "approve" && intent !== "feedback" && intent !== "unpublish") return refused("Unknown action");
  // The URL's vendor: an admin on /app/vendors/A/ads/<an ad of B> is not found, as on the page.
  const owner = await getAppContext().db.productAd.findUnique({ where: { id: adId }, select: { vendor_id: true } });
  if (!owner || owner.vendor_id !== scope.vendorId) throw staffError(404, "Ad not found");
  let text: string | undefined;
  if (intent === "feedback") {
    const body = ProductAdFeedbackBody.safeParse({ text: String(form.get("text") ?? "") });
    if (!body.success) return refused(issuesMessage(body.error));
    text = body.data.text;
  }
  const r = await answerRefusals(async () => {
    if (intent === "unpublish") await platformMoveProductAd(adsDeps(), scope.caller, adId, "unpublish");
    else await moveProductAd(adsDeps(), scope.caller, adId, intent, text);
    return { ok: true as const, intent, message: MOVE_DONE[intent] ?? "Done." };
  });
  return r.ok ? r : refused(r.error);
}
