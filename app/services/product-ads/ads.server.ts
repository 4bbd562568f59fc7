/**
 * Product ads (docs/product-ads.md, contract app/contract/product-ads.ts): the list and counts,
 * create, read, edit, delete, the ads of a request, and the moves of the workflow
 * (app/lib/product-ad-status.ts) with their timeline.
 *
 * Confinement: every call takes the caller; a vendor sees its own vendor's ads only and any other
 * id is not found (404), never forbidden, so ids reveal nothing across vendors.
 *
 * Concurrency: edits, deletes and moves check and write under the ad's row lock
 * (SELECT … FOR UPDATE) in one transaction with their timeline entry, so of two racing moves one is
 * made and the other sees the new status (409). Publish and unpublish call the ads platform while
 * holding that lock: the platform must be asked once per move (a first publish creates a campaign;
 * two would create two), and the schema has no claim column to hold instead. The local adapter
 * answers at once without the database (it must stay so: the embedded database serves one
 * transaction at a time); Meta's calls are bounded by PLATFORM_TX_TIMEOUT_MS. A platform refusal
 * commits its timeline entry and `meta_error`, leaves the status as it was, and answers 502 with
 * the platform's reason.
 */
import { Prisma, type ProductAdStatus } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import {
  ProductAdMessages,
  type ProductAd,
  type ProductAdCounts,
  type ProductAdDetail,
  type ProductAdMetricsTotals,
  type ProductAdsPage,
  type ProductAdTimelineEntry,
} from "~/contract/product-ads";
import { badGateway, conflictError, DomainError, invalid, notAllowed, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { appBaseUrl } from "~/lib/app-url";
import { gidTail, toProductGid } from "~/lib/gid";
import { decodeNewestFirstCursor, encodeNewestFirstCursor, rowsAfterCursor } from "~/lib/newest-first-cursor";
import {
  allowedMoves,
  checkMove,
  deleteRefusal,
  editRefusal,
  missingForComplete,
  PRODUCT_AD_STATUSES,
  ProductAdStatusMessages,
  type ProductAdActor,
  type ProductAdMove,
} from "~/lib/product-ad-status";
import { AdsPlatformError, type CallToAction, type PlatformAdIds } from "~/providers/ads-platform/port";

type Tx = Prisma.TransactionClient;
export type AdsDeps = Pick<AppContext, "db" | "adsPlatform" | "config" | "log">;

/** Long enough for Meta's retries with backoff (the adapter gives up before this). */
export const PLATFORM_TX_TIMEOUT_MS = 120_000;
/** Moves wait this long for the lock or, on the embedded database, for its one connection. */
const TX_MAX_WAIT_MS = 15_000;
const BY_REQUEST_MAX = 500;

export interface AdsCaller {
  userId: string;
  /** Who makes moves: the team (ads.manage), a vendor, or nobody (an admin reading with vendors.manage). */
  actor: ProductAdActor | null;
  /** A vendor's own vendor: the only vendor whose ads the caller sees; null for admins. */
  vendorId: string | null;
}

const adInclude = {
  product: { select: { id: true, title: true, handle: true, featuredImageUrl: true, featuredImageAltText: true } },
  vendor: { select: { id: true, name: true } },
} satisfies Prisma.ProductAdInclude;
type AdRow = Prisma.ProductAdGetPayload<{ include: typeof adInclude }>;

const scopeOf = (caller: AdsCaller): Prisma.ProductAdWhereInput => (caller.vendorId ? { vendor_id: caller.vendorId } : {});

/** The product's page on the storefront (the shopper app's route /products/:id/:handle). */
export function productStorefrontUrl(config: AdsDeps["config"], product: { id: string; handle: string }): string {
  return `${appBaseUrl(config)}/products/${encodeURIComponent(gidTail(product.id))}/${encodeURIComponent(product.handle)}`;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : null);

export function metricsTotalsOf(r: { impressions: number; reach: number; clicks: number; spend: Prisma.Decimal; conversions: number; purchase_value: Prisma.Decimal }): ProductAdMetricsTotals {
  const spend = Number(r.spend);
  const value = Number(r.purchase_value);
  return {
    impressions: r.impressions,
    reach: r.reach,
    clicks: r.clicks,
    spend: r.spend.toFixed(2),
    purchases: r.conversions,
    purchaseValue: r.purchase_value.toFixed(2),
    ctr: ratio(r.clicks, r.impressions),
    cpc: r.clicks > 0 ? (spend / r.clicks).toFixed(2) : null,
    roas: spend > 0 ? Math.round((value / spend) * 100) / 100 : null,
  };
}

const CTAS: readonly CallToAction[] = ["SHOP_NOW", "LEARN_MORE", "SIGN_UP"];
const ctaOf = (v: string): CallToAction => (CTAS.includes(v as CallToAction) ? (v as CallToAction) : "SHOP_NOW");

function toAd(deps: Pick<AdsDeps, "config">, r: AdRow, caller: AdsCaller): ProductAd {
  return {
    id: r.id,
    status: r.status,
    vendor: r.vendor,
    product: {
      id: r.product.id,
      title: r.product.title,
      handle: r.product.handle,
      featuredImage: r.product.featuredImageUrl ? { url: r.product.featuredImageUrl, altText: r.product.featuredImageAltText } : null,
    },
    request_id: r.request_id,
    headline: r.title,
    primary_text: r.body ?? "",
    creative_urls: r.media_urls,
    call_to_action: ctaOf(r.call_to_action),
    destination_url: r.destination_url ?? productStorefrontUrl(deps.config, r.product),
    daily_budget: r.daily_budget.toFixed(2),
    currencyCode: r.currencyCode,
    meta_campaign_id: r.meta_campaign_id,
    meta_adset_id: r.meta_adset_id,
    meta_creative_id: r.meta_creative_id,
    meta_ad_id: r.meta_ad_id,
    meta_error: r.meta_error,
    published_at: r.published_at?.toISOString() ?? null,
    metrics: metricsTotalsOf(r),
    metrics_synced_at: r.metrics_synced_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    allowedMoves: allowedMoves(r.status, caller.actor),
  };
}

/** A person's name on the timeline; the team's members without a name show as the team (their email stays private). */
function authorName(u: { first_name: string | null; last_name: string | null; email: string | null; role: string }): string {
  const name = [u.first_name, u.last_name].filter((v) => v && v.trim()).join(" ").trim();
  if (name) return name;
  if (u.role === "ADMIN") return "Ads team";
  return u.email?.split("@")[0] || "Vendor";
}

async function timelineOf(db: Db | Tx, adId: string): Promise<ProductAdTimelineEntry[]> {
  const rows = await db.productAdEvent.findMany({
    where: { ad_id: adId },
    include: { author: { select: { id: true, first_name: true, last_name: true, email: true, role: true } } },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
  });
  return rows.map((e) => ({
    id: e.id,
    kind: e.kind,
    from_status: e.from_status,
    to_status: e.to_status,
    author: e.author ? { id: e.author.id, name: authorName(e.author), role: e.author.role } : null,
    text: e.text,
    created_at: e.created_at.toISOString(),
  }));
}

async function recordEvent(tx: Tx, e: { adId: string; kind: string; from?: ProductAdStatus | null; to?: ProductAdStatus | null; authorId: string | null; text?: string | null }) {
  await tx.productAdEvent.create({
    data: { ad_id: e.adId, kind: e.kind, from_status: e.from ?? null, to_status: e.to ?? null, author_id: e.authorId, text: e.text ?? null, created_at: new Date() },
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface AdsListFilters {
  status?: ProductAdStatus[];
  vendorId?: string;
  requestId?: string;
  productId?: string;
  q?: string;
}

function filtersWhere(caller: AdsCaller, f: AdsListFilters): Prisma.ProductAdWhereInput[] {
  const where: Prisma.ProductAdWhereInput[] = [scopeOf(caller)];
  if (f.vendorId) where.push({ vendor_id: f.vendorId });
  if (f.requestId) where.push({ request_id: f.requestId });
  if (f.productId) where.push({ product_id: toProductGid(f.productId) });
  if (f.q) {
    const c = { contains: f.q, mode: "insensitive" as const };
    where.push({ OR: [{ title: c }, { body: c }, { product: { title: c } }, { vendor: { name: c } }] });
  }
  return where;
}

export async function listProductAds(deps: Pick<AdsDeps, "db" | "config">, caller: AdsCaller, q: AdsListFilters & { cursor?: string; limit: number }): Promise<ProductAdsPage> {
  const cursor = decodeNewestFirstCursor(q.cursor);
  const where = filtersWhere(caller, q);
  if (q.status?.length) where.push({ status: { in: [...new Set(q.status)] } });
  where.push(rowsAfterCursor(cursor));
  const rows = await deps.db.productAd.findMany({ where: { AND: where }, include: adInclude, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { items: page.map((r) => toAd(deps, r, caller)), nextCursor: rows.length > q.limit && last ? encodeNewestFirstCursor(last.created_at, last.id) : null };
}

export async function countProductAds(deps: Pick<AdsDeps, "db">, caller: AdsCaller, f: AdsListFilters): Promise<ProductAdCounts> {
  const grouped = await deps.db.productAd.groupBy({ by: ["status"], where: { AND: filtersWhere(caller, f) }, _count: { _all: true } });
  const counts = { all: 0, ...Object.fromEntries(PRODUCT_AD_STATUSES.map((s) => [s, 0])) } as ProductAdCounts;
  for (const g of grouped) {
    counts[g.status] = g._count._all;
    counts.all += g._count._all;
  }
  return counts;
}

async function findAd(db: Db | Tx, caller: AdsCaller, id: string): Promise<AdRow> {
  const row = await db.productAd.findFirst({ where: { id, ...scopeOf(caller) }, include: adInclude });
  if (!row) throw notFoundError(ProductAdMessages.NOT_FOUND);
  return row;
}

export async function getProductAd(deps: Pick<AdsDeps, "db" | "config">, caller: AdsCaller, id: string): Promise<ProductAdDetail> {
  const row = await findAd(deps.db, caller, id);
  return { ...toAd(deps, row, caller), timeline: await timelineOf(deps.db, row.id) };
}

export async function productAdsByRequest(deps: Pick<AdsDeps, "db" | "config">, caller: AdsCaller, requestId: string): Promise<{ items: ProductAd[] }> {
  const request = await deps.db.productAdRequest.findFirst({ where: { id: requestId, ...(caller.vendorId ? { vendor_id: caller.vendorId } : {}) }, select: { id: true } });
  if (!request) throw notFoundError(ProductAdMessages.REQUEST_NOT_FOUND);
  const rows = await deps.db.productAd.findMany({ where: { request_id: request.id }, include: adInclude, orderBy: [{ created_at: "asc" }, { id: "asc" }], take: BY_REQUEST_MAX });
  return { items: rows.map((r) => toAd(deps, r, caller)) };
}

/** A vendor's ads for the vendor mirrors (404 for an unknown vendor). */
export async function listVendorAds(deps: Pick<AdsDeps, "db" | "config">, caller: AdsCaller, vendorId: string, q: Omit<AdsListFilters, "vendorId"> & { cursor?: string; limit: number }): Promise<ProductAdsPage> {
  const vendor = await deps.db.vendor.findUnique({ where: { id: vendorId }, select: { id: true } });
  if (!vendor) throw notFoundError(ProductAdMessages.VENDOR_NOT_FOUND);
  return listProductAds(deps, caller, { ...q, vendorId });
}

// ---------------------------------------------------------------------------------------------
// Writing (the team)

export interface CreateAdInput {
  request_id?: string;
  vendor_id?: string;
  product_id: string;
  headline?: string;
  primary_text?: string;
  creative_urls?: string[];
  call_to_action?: CallToAction;
  daily_budget?: number;
  destination_url?: string;
}

const money = (n: number) => new Prisma.Decimal(n.toFixed(2));

export async function createProductAd(deps: Pick<AdsDeps, "db" | "config">, caller: AdsCaller, input: CreateAdInput): Promise<ProductAdDetail> {
  const db = deps.db;
  const productId = toProductGid(input.product_id);
  let vendorId: string;
  let budget: Prisma.Decimal | null = null;
  let currency: string | null = null;
  if (input.request_id) {
    const req = await db.productAdRequest.findUnique({
      where: { id: input.request_id },
      select: { id: true, vendor_id: true, product_id: true, product_ids: true, status: true, daily_budget: true, currencyCode: true },
    });
    if (!req) throw unprocessableError(ProductAdMessages.REQUEST_NOT_FOUND);
    if (input.vendor_id && input.vendor_id !== req.vendor_id) throw unprocessableError(ProductAdMessages.VENDOR_NOT_REQUESTS);
    if (req.status === "completed") throw conflictError(ProductAdMessages.REQUEST_COMPLETED);
    const products = new Set([...req.product_ids, ...(req.product_id ? [req.product_id] : [])].map(toProductGid));
    if (!products.has(productId)) throw unprocessableError(ProductAdMessages.PRODUCT_NOT_IN_REQUEST);
    vendorId = req.vendor_id;
    budget = req.daily_budget;
    currency = req.currencyCode;
  } else {
    if (!input.vendor_id) throw invalid(ProductAdMessages.VENDOR_REQUIRED);
    const vendor = await db.vendor.findUnique({ where: { id: input.vendor_id }, select: { id: true } });
    if (!vendor) throw unprocessableError(ProductAdMessages.VENDOR_NOT_FOUND);
    vendorId = vendor.id;
  }
  const product = await db.product.findUnique({ where: { id: productId }, select: { id: true, handle: true, vendor_id: true, status: true, currencyCode: true } });
  if (!product) throw unprocessableError(ProductAdMessages.UNKNOWN_PRODUCT);
  if (product.vendor_id !== vendorId) throw unprocessableError(ProductAdMessages.PRODUCT_NOT_VENDORS);
  if (product.status === "archived") throw unprocessableError(ProductAdMessages.ARCHIVED_PRODUCT);

  const id = await db.$transaction(async (tx) => {
    const ad = await tx.productAd.create({
      data: {
        product_id: product.id,
        vendor_id: vendorId,
        request_id: input.request_id ?? null,
        title: input.headline ?? "",
        body: input.primary_text || null,
        media_urls: input.creative_urls ?? [],
        call_to_action: input.call_to_action ?? "SHOP_NOW",
        destination_url: input.destination_url ?? productStorefrontUrl(deps.config, product),
        ...(input.daily_budget !== undefined ? { daily_budget: money(input.daily_budget) } : budget ? { daily_budget: budget } : {}),
        currencyCode: currency ?? product.currencyCode,
        created_by_id: caller.userId,
      },
      select: { id: true },
    });
    await recordEvent(tx, { adId: ad.id, kind: "created", to: "PENDING", authorId: caller.userId });
    return ad.id;
  });
  return getProductAd(deps, caller, id);
}

async function lockAd(tx: Tx, caller: AdsCaller, id: string): Promise<AdRow> {
  await tx.$queryRaw`SELECT id FROM product_ads WHERE id = ${id} FOR UPDATE`;
  return findAd(tx, caller, id);
}

export interface UpdateAdInput {
  headline?: string;
  primary_text?: string;
  creative_urls?: string[];
  call_to_action?: CallToAction;
  daily_budget?: number;
  destination_url?: string | null;
}

const FIELD_LABEL: Record<keyof UpdateAdInput, string> = {
  headline: "headline",
  primary_text: "primary text",
  creative_urls: "creatives",
  call_to_action: "call to action",
  daily_budget: "daily budget",
  destination_url: "destination",
};

export async function updateProductAd(deps: Pick<AdsDeps, "db" | "config">, caller: AdsCaller, id: string, input: UpdateAdInput): Promise<ProductAdDetail> {
  await deps.db.$transaction(
    async (tx) => {
      const ad = await lockAd(tx, caller, id);
      const refusal = editRefusal(ad.status);
      if (refusal) throw conflictError(refusal);
      const data: Prisma.ProductAdUpdateInput = {};
      const changed: string[] = [];
      const set = (key: keyof UpdateAdInput, same: boolean, patch: Prisma.ProductAdUpdateInput) => {
        if (same) return;
        Object.assign(data, patch);
        changed.push(FIELD_LABEL[key]);
      };
      if (input.headline !== undefined) set("headline", input.headline === ad.title, { title: input.headline });
      if (input.primary_text !== undefined) set("primary_text", input.primary_text === (ad.body ?? ""), { body: input.primary_text || null });
      if (input.creative_urls !== undefined) set("creative_urls", input.creative_urls.join("\n") === ad.media_urls.join("\n"), { media_urls: input.creative_urls });
      if (input.call_to_action !== undefined) set("call_to_action", input.call_to_action === ad.call_to_action, { call_to_action: input.call_to_action });
      if (input.daily_budget !== undefined) set("daily_budget", money(input.daily_budget).equals(ad.daily_budget), { daily_budget: money(input.daily_budget) });
      if (input.destination_url !== undefined) {
        const next = input.destination_url ?? productStorefrontUrl(deps.config, ad.product);
        set("destination_url", next === ad.destination_url, { destination_url: next });
      }
      // The same values again change nothing and leave no timeline entry.
      if (changed.length === 0) return;
      await tx.productAd.update({ where: { id: ad.id }, data });
      await recordEvent(tx, { adId: ad.id, kind: "edited", from: ad.status, to: ad.status, authorId: caller.userId, text: `Changed the ${changed.join(", ")}` });
    },
    { maxWait: TX_MAX_WAIT_MS },
  );
  return getProductAd(deps, caller, id);
}

export async function deleteProductAd(deps: Pick<AdsDeps, "db">, caller: AdsCaller, id: string): Promise<{ ok: true }> {
  await deps.db.$transaction(
    async (tx) => {
      const ad = await lockAd(tx, caller, id);
      const refusal = deleteRefusal(ad.status);
      if (refusal) throw conflictError(refusal);
      await tx.productAd.delete({ where: { id: ad.id } });
    },
    { maxWait: TX_MAX_WAIT_MS },
  );
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Moves

function refuse(check: { kind: "forbidden" | "conflict"; message: string }): never {
  throw check.kind === "forbidden" ? notAllowed(check.message) : conflictError(check.message);
}

const idsOf = (ad: AdRow): PlatformAdIds | null =>
  ad.meta_campaign_id && ad.meta_adset_id && ad.meta_creative_id && ad.meta_ad_id
    ? { campaignId: ad.meta_campaign_id, adSetId: ad.meta_adset_id, creativeId: ad.meta_creative_id, adId: ad.meta_ad_id }
    : null;

/** Creatives stored as app paths become absolute: the platform fetches them from outside. */
const absoluteUrl = (config: AdsDeps["config"], url: string) => (url.startsWith("/") ? `${appBaseUrl(config)}${url}` : url);

function platformMessage(e: unknown): string {
  if (e instanceof AdsPlatformError) return e.message;
  return `The ads platform could not be reached: ${e instanceof Error ? e.message : String(e)}`;
}

/** complete, approve or feedback: a status change and its timeline entry. */
export async function moveProductAd(
  deps: Pick<AdsDeps, "db" | "config">,
  caller: AdsCaller,
  id: string,
  move: Exclude<ProductAdMove, "publish" | "unpublish">,
  text?: string,
): Promise<ProductAdDetail> {
  await deps.db.$transaction(
    async (tx) => {
      const ad = await lockAd(tx, caller, id);
      const check = checkMove(ad.status, move, caller.actor);
      if (!check.ok) refuse(check);
      if (move === "complete") {
        const missing = missingForComplete({ headline: ad.title, primaryText: ad.body, creativeUrls: ad.media_urls });
        if (missing.length) throw unprocessableError(ProductAdStatusMessages.COMPLETE_NEEDS_CONTENT, { missing });
      }
      await tx.productAd.update({ where: { id: ad.id }, data: { status: check.to, ...(move === "feedback" ? { feedback: text ?? null } : {}) } });
      await recordEvent(tx, { adId: ad.id, kind: move, from: ad.status, to: check.to, authorId: caller.userId, text: text || null });
    },
    { maxWait: TX_MAX_WAIT_MS },
  );
  return getProductAd(deps, caller, id);
}

/**
 * publish / unpublish: the platform is asked under the lock (see the header). A refusal is kept
 * (timeline, meta_error) and answered 502; the status does not move.
 */
export async function platformMoveProductAd(deps: AdsDeps, caller: AdsCaller, id: string, move: "publish" | "unpublish"): Promise<ProductAdDetail> {
  const failure = await deps.db.$transaction(
    async (tx): Promise<{ message: string; cause: unknown } | null> => {
      const ad = await lockAd(tx, caller, id);
      const check = checkMove(ad.status, move, caller.actor);
      if (!check.ok) refuse(check);
      const existing = idsOf(ad);
      let ids: PlatformAdIds | null = existing;
      try {
        if (move === "publish") {
          ids = await deps.adsPlatform.publish({
            adId: ad.id,
            existing,
            name: `${ad.vendor.name} · ${ad.product.title} · ${ad.id.slice(0, 8)}`.slice(0, 200),
            headline: ad.title,
            primaryText: ad.body ?? "",
            imageUrls: ad.media_urls.map((u) => absoluteUrl(deps.config, u)),
            destinationUrl: absoluteUrl(deps.config, ad.destination_url ?? productStorefrontUrl(deps.config, ad.product)),
            callToAction: ctaOf(ad.call_to_action),
            dailyBudget: ad.daily_budget.toFixed(2),
            currencyCode: ad.currencyCode,
          });
        } else if (existing) {
          await deps.adsPlatform.pause(existing);
        }
        // A LIVE ad without platform ids (written by hand or an older import) has nothing to pause.
      } catch (e) {
        if (e instanceof DomainError) throw e;
        const message = platformMessage(e);
        await tx.productAd.update({ where: { id: ad.id }, data: { meta_error: message } });
        await recordEvent(tx, { adId: ad.id, kind: `${move}_failed`, from: ad.status, to: ad.status, authorId: caller.userId, text: message });
        return { message, cause: e };
      }
      await tx.productAd.update({
        where: { id: ad.id },
        data: {
          status: check.to,
          meta_error: null,
          ...(move === "publish" && ids
            ? { meta_campaign_id: ids.campaignId, meta_adset_id: ids.adSetId, meta_creative_id: ids.creativeId, meta_ad_id: ids.adId, published_at: ad.published_at ?? new Date() }
            : {}),
        },
      });
      await recordEvent(tx, { adId: ad.id, kind: move, from: ad.status, to: check.to, authorId: caller.userId });
      return null;
    },
    { maxWait: TX_MAX_WAIT_MS, timeout: PLATFORM_TX_TIMEOUT_MS },
  );
  if (failure) {
    if (!(failure.cause instanceof AdsPlatformError)) deps.log.error({ err: failure.cause, adId: id, move }, "ads platform call failed unexpectedly");
    const details = failure.cause instanceof AdsPlatformError ? { platformError: failure.cause.kind, ...failure.cause.details } : undefined;
    throw badGateway(failure.message, details);
  }
  return getProductAd(deps, caller, id);
}
