/**
 * Ad requests (docs/product-ads.md "Ad requests"): a vendor (or the team for a vendor) asks for
 * ads of some of its products, with its own photos, the features it wants, a brief and a budget;
 * the team makes ads from it (app/services/product-ads, the ads' own module) and completes it.
 *
 * Every call takes the viewer: a vendor is confined to its own vendor's requests (another
 * vendor's id is as unknown as a missing one: 404), the team (`vendorId: null`) sees all. Writes
 * that depend on the request's status run under its row lock, so a completion racing a delete or
 * an image change makes one of them and the other sees the new status.
 */
import { Prisma, type ProductAdRequestStatus } from "@prisma/client";
import type { Db } from "~/db.server";
import {
  AdRequestMessages as M,
  type AdRequest,
  type AdRequestDetail,
  type AdRequestStatus,
} from "~/contract/product-ad-requests";
import { conflictError, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { sortFeatures, toAdFeature } from "./features.server";

export interface AdViewer {
  userId: string;
  /** The vendor a VENDOR user is confined to; null for the team (admins with ads.manage). */
  vendorId: string | null;
}

type Tx = Prisma.TransactionClient;

const requestInclude = {
  vendor: { select: { id: true, name: true } },
  created_by: { select: { id: true, first_name: true, last_name: true, email: true } },
  features: { include: { feature: true } },
  _count: { select: { ads: true } },
} satisfies Prisma.ProductAdRequestInclude;
type RequestRow = Prisma.ProductAdRequestGetPayload<{ include: typeof requestInclude }>;

export function personName(u: { first_name: string | null; last_name: string | null; email: string | null }): string {
  const full = [u.first_name, u.last_name].filter((p) => p && p.trim()).join(" ").trim();
  if (full) return full;
  const local = u.email?.split("@")[0];
  return local || "Unknown";
}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

interface Lookups {
  products: Map<string, { id: string; title: string; handle: string; featuredImageUrl: string | null; featuredImageAltText: string | null }>;
  images: Map<string, { id: string; url: string; width: number | null; height: number | null }>;
}

async function lookups(db: Db | Tx, rows: { product_ids: string[]; uploaded_image_ids: string[] }[]): Promise<Lookups> {
  const productIds = [...new Set(rows.flatMap((r) => r.product_ids))];
  const imageIds = [...new Set(rows.flatMap((r) => r.uploaded_image_ids))];
  const [products, images] = await Promise.all([
    productIds.length
      ? db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, title: true, handle: true, featuredImageUrl: true, featuredImageAltText: true } })
      : [],
    imageIds.length ? db.uploadedImage.findMany({ where: { id: { in: imageIds } }, select: { id: true, url: true, width: true, height: true } }) : [],
  ]);
  return { products: new Map(products.map((p) => [p.id, p])), images: new Map(images.map((i) => [i.id, i])) };
}

function toAdRequest(r: RequestRow, l: Lookups): AdRequest {
  return {
    id: r.id,
    vendor: r.vendor,
    status: r.status,
    products: r.product_ids.flatMap((id) => {
      const p = l.products.get(id);
      return p ? [{ id: p.id, title: p.title, handle: p.handle, featuredImage: p.featuredImageUrl ? { url: p.featuredImageUrl, altText: p.featuredImageAltText } : null }] : [];
    }),
    uploaded_images: r.uploaded_image_ids.flatMap((id) => {
      const i = l.images.get(id);
      return i ? [i] : [];
    }),
    features: sortFeatures(r.features.map((f) => f.feature)).map(toAdFeature),
    brief: r.notes ?? "",
    daily_budget: r.daily_budget ? r.daily_budget.toFixed(2) : null,
    currencyCode: r.currencyCode,
    start_date: day(r.start_date),
    end_date: day(r.end_date),
    created_by: r.created_by ? { id: r.created_by.id, name: personName(r.created_by) } : null,
    adsCount: r._count.ads,
    completed_at: r.completed_at ? r.completed_at.toISOString() : null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function detail(db: Db | Tx, r: RequestRow): Promise<AdRequestDetail> {
  const [l, ads] = await Promise.all([
    lookups(db, [r]),
    db.productAd.findMany({
      where: { request_id: r.id },
      select: { id: true, status: true, title: true, created_at: true, product: { select: { id: true, title: true } } },
      orderBy: [{ created_at: "asc" }, { id: "asc" }],
    }),
  ]);
  return {
    ...toAdRequest(r, l),
    ads: ads.map((a) => ({ id: a.id, status: a.status, headline: a.title, product: a.product, created_at: a.created_at.toISOString() })),
  };
}

/** The request as the viewer may see it, or 404. */
async function findVisible(db: Db | Tx, viewer: AdViewer, id: string): Promise<RequestRow> {
  const r = await db.productAdRequest.findUnique({ where: { id }, include: requestInclude });
  if (!r || (viewer.vendorId !== null && r.vendor_id !== viewer.vendorId)) throw notFoundError(M.NOT_FOUND);
  return r;
}

/** Locks the request's row (after checking the viewer may see it); answers its current status. */
async function lockVisible(tx: Tx, viewer: AdViewer, id: string): Promise<{ vendor_id: string; status: ProductAdRequestStatus }> {
  const rows = await tx.$queryRaw<{ vendor_id: string; status: ProductAdRequestStatus }[]>`
    SELECT vendor_id, status::text AS status FROM product_ad_requests WHERE id = ${id} FOR UPDATE`;
  const r = rows[0];
  if (!r || (viewer.vendorId !== null && r.vendor_id !== viewer.vendorId)) throw notFoundError(M.NOT_FOUND);
  return r;
}

export async function getAdRequest(db: Db, viewer: AdViewer, id: string): Promise<AdRequestDetail> {
  return detail(db, await findVisible(db, viewer, id));
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface AdRequestsFilter {
  vendorId?: string;
  q?: string;
}

async function filterWhere(db: Db, viewer: AdViewer, f: AdRequestsFilter): Promise<Prisma.ProductAdRequestWhereInput> {
  const and: Prisma.ProductAdRequestWhereInput[] = [];
  // A vendor's filter is always its own vendor, whatever vendorId it sent.
  const vendorId = viewer.vendorId ?? f.vendorId;
  if (vendorId) and.push({ vendor_id: vendorId });
  if (f.q) {
    const products = await db.product.findMany({
      where: { title: { contains: f.q, mode: "insensitive" }, ...(vendorId ? { vendor_id: vendorId } : {}) },
      select: { id: true },
      take: 500,
    });
    and.push({
      OR: [
        { notes: { contains: f.q, mode: "insensitive" } },
        { vendor: { name: { contains: f.q, mode: "insensitive" } } },
        ...(products.length ? [{ product_ids: { hasSome: products.map((p) => p.id) } }] : []),
      ],
    });
  }
  return { AND: and };
}

function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}
function decodeCursor(cursor: string): [Date, string] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parts) && parts.length === 2 && typeof parts[0] === "string" && typeof parts[1] === "string") {
      const at = new Date(parts[0]);
      if (!Number.isNaN(at.getTime())) return [at, parts[1]];
    }
  } catch {
    // fall through
  }
  throw invalid("cursor: is not a cursor this list gave");
}

export async function listAdRequests(
  db: Db,
  viewer: AdViewer,
  q: AdRequestsFilter & { status?: AdRequestStatus; cursor?: string; limit: number },
): Promise<{ items: AdRequest[]; nextCursor: string | null }> {
  const where = await filterWhere(db, viewer, q);
  const and: Prisma.ProductAdRequestWhereInput[] = [where];
  if (q.status) and.push({ status: q.status });
  if (q.cursor) {
    const [at, id] = decodeCursor(q.cursor);
    and.push({ OR: [{ created_at: { lt: at } }, { created_at: at, id: { lt: id } }] });
  }
  const rows = await db.productAdRequest.findMany({ where: { AND: and }, include: requestInclude, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const l = await lookups(db, page);
  const last = page[page.length - 1];
  return { items: page.map((r) => toAdRequest(r, l)), nextCursor: rows.length > q.limit && last ? encodeCursor(last.created_at, last.id) : null };
}

export async function countAdRequests(db: Db, viewer: AdViewer, f: AdRequestsFilter): Promise<{ all: number; open: number; completed: number }> {
  const grouped = await db.productAdRequest.groupBy({ by: ["status"], where: await filterWhere(db, viewer, f), _count: { _all: true } });
  const out = { all: 0, open: 0, completed: 0 };
  for (const g of grouped) {
    out[g.status] = g._count._all;
    out.all += g._count._all;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * Uploaded images a request may use: uploaded by a user of the request's vendor or by an admin
 * (the team uploads for vendors). Anything else, a missing id included, is refused alike.
 */
async function checkImages(db: Db | Tx, vendorId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.uploadedImage.findMany({ where: { id: { in: ids } }, select: { id: true, user: { select: { role: true, vendor_id: true } } } });
  const ok = new Set(rows.filter((r) => r.user && (r.user.role === "ADMIN" || (r.user.role === "VENDOR" && r.user.vendor_id === vendorId))).map((r) => r.id));
  const bad = ids.find((id) => !ok.has(id));
  if (bad) throw unprocessableError(M.UNKNOWN_IMAGE, { uploaded_image_id: bad });
}

export interface AdRequestInput {
  vendor_id?: string;
  product_ids: string[];
  uploaded_image_ids: string[];
  feature_ids: string[];
  brief: string;
  daily_budget: number;
  start_date?: string | null;
  end_date?: string | null;
}

export async function createAdRequest(db: Db, viewer: AdViewer, input: AdRequestInput): Promise<AdRequestDetail> {
  let vendorId: string;
  if (viewer.vendorId !== null) {
    // A vendor files for itself; naming another vendor reveals nothing about it.
    if (input.vendor_id && input.vendor_id !== viewer.vendorId) throw unprocessableError(M.VENDOR_NOT_FOUND);
    vendorId = viewer.vendorId;
  } else {
    if (!input.vendor_id) throw invalid(M.VENDOR_REQUIRED, { issues: [{ path: ["vendor_id"], message: "is required" }] });
    const vendor = await db.vendor.findUnique({ where: { id: input.vendor_id }, select: { id: true } });
    if (!vendor) throw unprocessableError(M.VENDOR_NOT_FOUND);
    vendorId = vendor.id;
  }

  const products = await db.product.findMany({ where: { id: { in: input.product_ids } }, select: { id: true, vendor_id: true, status: true, currencyCode: true } });
  const byId = new Map(products.map((p) => [p.id, p]));
  for (const id of input.product_ids) {
    const p = byId.get(id);
    if (!p || p.vendor_id !== vendorId) throw unprocessableError(M.UNKNOWN_PRODUCT, { product_id: id });
    if (p.status === "archived") throw unprocessableError(M.ARCHIVED_PRODUCT, { product_id: id });
  }

  await checkImages(db, vendorId, input.uploaded_image_ids);

  const features = await db.productAdFeature.findMany({ where: { id: { in: input.feature_ids } }, select: { id: true, kind: true, active: true } });
  const featureById = new Map(features.map((f) => [f.id, f]));
  for (const id of input.feature_ids) {
    const f = featureById.get(id);
    if (!f || !f.active) throw unprocessableError(M.FEATURE_UNAVAILABLE, { feature_id: id });
  }
  if (!features.some((f) => f.kind === "format")) throw unprocessableError(M.NEEDS_FORMAT);

  const first = byId.get(input.product_ids[0]!)!;
  const created = await db.productAdRequest.create({
    data: {
      vendor_id: vendorId,
      product_id: first.id,
      product_ids: input.product_ids,
      uploaded_image_ids: input.uploaded_image_ids,
      notes: input.brief,
      daily_budget: new Prisma.Decimal(input.daily_budget.toFixed(2)),
      currencyCode: first.currencyCode,
      start_date: input.start_date ? new Date(`${input.start_date}T00:00:00Z`) : null,
      end_date: input.end_date ? new Date(`${input.end_date}T00:00:00Z`) : null,
      created_by_id: viewer.userId,
      features: { create: input.feature_ids.map((feature_id) => ({ feature_id })) },
    },
    include: requestInclude,
  });
  return detail(db, created);
}

export async function updateAdRequestImages(db: Db, viewer: AdViewer, id: string, uploadedImageIds: string[]): Promise<AdRequestDetail> {
  await db.$transaction(async (tx) => {
    const r = await lockVisible(tx, viewer, id);
    if (r.status === "completed") throw conflictError(M.COMPLETED_READ_ONLY);
    await checkImages(tx, r.vendor_id, uploadedImageIds);
    await tx.productAdRequest.update({ where: { id }, data: { uploaded_image_ids: uploadedImageIds } });
  });
  return getAdRequest(db, viewer, id);
}

export async function deleteAdRequest(db: Db, viewer: AdViewer, id: string): Promise<{ ok: true }> {
  return db.$transaction(async (tx) => {
    const r = await lockVisible(tx, viewer, id);
    if (r.status === "completed") throw conflictError(M.COMPLETED_READ_ONLY);
    const ads = await tx.productAd.count({ where: { request_id: id } });
    if (ads > 0) throw conflictError(viewer.vendorId !== null ? M.HAS_ADS : M.HAS_LIVE_ADS, { ads });
    await tx.productAdRequest.delete({ where: { id } });
    return { ok: true as const };
  });
}

/** The team closes a request once at least one ad made from it has been completed (is past PENDING). */
export async function completeAdRequest(db: Db, viewer: AdViewer, id: string): Promise<AdRequestDetail> {
  await db.$transaction(async (tx) => {
    const r = await lockVisible(tx, viewer, id);
    if (r.status === "completed") throw conflictError(M.ALREADY_COMPLETED);
    const made = await tx.productAd.count({ where: { request_id: id, status: { not: "PENDING" } } });
    if (made === 0) throw conflictError(M.NEEDS_AD);
    await tx.productAdRequest.update({ where: { id }, data: { status: "completed", completed_at: new Date() } });
  });
  return getAdRequest(db, viewer, id);
}
