/**
 * The vendor portal's records (issue 17, app/contract/vendors.ts): a vendor with its counts, the
 * vendors list, a vendor's stores and products, and a product's status change through the store.
 *
 * Every read takes the vendor id the caller is confined to; a product of another vendor is not
 * found (404), never forbidden, so ids reveal nothing across vendors.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { CommercePort } from "~/providers/commerce/port";
import { CommerceError } from "~/providers/commerce/port";
import type { Store } from "~/contract/stores";
import type { Vendor, VendorProduct, VendorProductStatus, VendorProductsPage } from "~/contract/vendors";
import { VENDOR_PRODUCT_STATUSES } from "~/contract/vendors";
import { conflictError, DomainError, invalid, notFoundError, rateLimited, unavailable, unprocessableError } from "~/lib/domain-errors";
import { toProductGid } from "~/lib/gid";
import { toStore } from "../stores.server";

export const VENDOR_NOT_FOUND = "Vendor not found";
export const VENDOR_PRODUCT_NOT_FOUND = "Product not found";

type StatusCounts = Record<VendorProductStatus, number>;

const zeroCounts = (): StatusCounts => ({ active: 0, draft: 0, archived: 0 });

async function productCountsByVendor(db: Db, vendorIds: string[]): Promise<Map<string, StatusCounts>> {
  const out = new Map<string, StatusCounts>(vendorIds.map((id) => [id, zeroCounts()]));
  if (vendorIds.length === 0) return out;
  const rows = await db.product.groupBy({ by: ["vendor_id", "status"], where: { vendor_id: { in: vendorIds } }, _count: { _all: true } });
  for (const r of rows) if (r.vendor_id) out.get(r.vendor_id)![r.status] = r._count._all;
  return out;
}

const vendorInclude = { _count: { select: { stores: true } } } satisfies Prisma.VendorInclude;
type VendorRow = Prisma.VendorGetPayload<{ include: typeof vendorInclude }>;

function toVendor(v: VendorRow, counts: StatusCounts): Vendor {
  return {
    id: v.id,
    name: v.name,
    handle: v.handle,
    email: v.email,
    commission_rate: v.commission_rate.toFixed(2),
    storeCount: v._count.stores,
    productCount: counts.active + counts.draft + counts.archived,
    productCounts: counts,
    created_at: v.created_at.toISOString(),
    updated_at: v.updated_at.toISOString(),
  };
}

export async function getVendor(db: Db, vendorId: string): Promise<Vendor> {
  const v = await db.vendor.findUnique({ where: { id: vendorId }, include: vendorInclude });
  if (!v) throw notFoundError(VENDOR_NOT_FOUND);
  return toVendor(v, (await productCountsByVendor(db, [v.id])).get(v.id)!);
}

/** The vendor (404 when unknown), for callers that only need to know it exists. */
export async function mustFindVendor(db: Db, vendorId: string) {
  const v = await db.vendor.findUnique({ where: { id: vendorId }, select: { id: true, commission_rate: true } });
  if (!v) throw notFoundError(VENDOR_NOT_FOUND);
  return v;
}

// Cursors: the sort key and id of the page's last row, so a page follows on from it even when rows
// are added or changed meanwhile (keyset paging, no offset).
function encodeCursor(parts: unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}
function decodeCursor(cursor: string, check: (parts: unknown[]) => boolean): unknown[] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parts) && check(parts)) return parts;
  } catch {
    // fall through
  }
  throw invalid("cursor: is not a cursor this list gave");
}
const isIsoDate = (v: unknown) => typeof v === "string" && !Number.isNaN(Date.parse(v));

export async function listVendors(db: Db, q: { q?: string; cursor?: string; limit: number }): Promise<{ items: Vendor[]; nextCursor: string | null }> {
  const where: Prisma.VendorWhereInput[] = [];
  if (q.q) {
    where.push({ OR: [{ name: { contains: q.q, mode: "insensitive" } }, { handle: { contains: q.q, mode: "insensitive" } }, { email: { contains: q.q, mode: "insensitive" } }] });
  }
  if (q.cursor) {
    const [name, id] = decodeCursor(q.cursor, (p) => p.length === 2 && typeof p[0] === "string" && typeof p[1] === "string") as [string, string];
    where.push({ OR: [{ name: { gt: name } }, { name, id: { gt: id } }] });
  }
  const rows = await db.vendor.findMany({ where: { AND: where }, include: vendorInclude, orderBy: [{ name: "asc" }, { id: "asc" }], take: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const counts = await productCountsByVendor(
    db,
    page.map((v) => v.id),
  );
  const last = page[page.length - 1];
  return { items: page.map((v) => toVendor(v, counts.get(v.id)!)), nextCursor: rows.length > q.limit && last ? encodeCursor([last.name, last.id]) : null };
}

const storeInclude = { _count: { select: { products: { where: { status: "active" } }, favorited_by: true } } } satisfies Prisma.StoreInclude;

export async function listVendorStores(db: Db, vendorId: string): Promise<{ items: Store[] }> {
  await mustFindVendor(db, vendorId);
  const rows = await db.store.findMany({ where: { vendor_id: vendorId }, include: storeInclude, orderBy: [{ sort_order: "asc" }, { name: "asc" }, { id: "asc" }] });
  return { items: rows.map((s) => ({ ...toStore(s), created_at: s.created_at.toISOString(), updated_at: s.updated_at.toISOString() })) };
}

const productSelect = {
  id: true,
  title: true,
  handle: true,
  status: true,
  featuredImageUrl: true,
  featuredImageAltText: true,
  priceMin: true,
  priceMax: true,
  currencyCode: true,
  totalInventory: true,
  created_at: true,
  updated_at: true,
  store: { select: { id: true, name: true, handle: true } },
} satisfies Prisma.ProductSelect;
type ProductRow = Prisma.ProductGetPayload<{ select: typeof productSelect }>;

function toVendorProduct(p: ProductRow): VendorProduct {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    status: p.status,
    featuredImage: p.featuredImageUrl ? { url: p.featuredImageUrl, altText: p.featuredImageAltText } : null,
    priceMin: p.priceMin.toFixed(2),
    priceMax: p.priceMax.toFixed(2),
    currencyCode: p.currencyCode,
    totalInventory: p.totalInventory,
    store: p.store,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export interface VendorProductsQuery {
  q?: string;
  status?: VendorProductStatus;
  sort: "updated" | "title" | "created";
  cursor?: string;
  limit: number;
}

/** After the cursor's row in the list's order (sort key, then id, both in the sort's direction). */
function afterCursor(sort: VendorProductsQuery["sort"], cursor: string): Prisma.ProductWhereInput {
  if (sort === "title") {
    const [title, id] = decodeCursor(cursor, (p) => p.length === 3 && p[0] === "title" && typeof p[1] === "string" && typeof p[2] === "string").slice(1) as [string, string];
    return { OR: [{ title: { gt: title } }, { title, id: { gt: id } }] };
  }
  const [at, id] = decodeCursor(cursor, (p) => p.length === 3 && p[0] === sort && isIsoDate(p[1]) && typeof p[2] === "string").slice(1) as [string, string];
  const field = sort === "updated" ? "updated_at" : "created_at";
  const d = new Date(at);
  return { OR: [{ [field]: { lt: d } }, { [field]: d, id: { lt: id } }] };
}

export async function listVendorProducts(db: Db, vendorId: string, q: VendorProductsQuery): Promise<VendorProductsPage> {
  await mustFindVendor(db, vendorId);
  const base: Prisma.ProductWhereInput = {
    vendor_id: vendorId,
    ...(q.q ? { OR: [{ title: { contains: q.q, mode: "insensitive" } }, { handle: { contains: q.q, mode: "insensitive" } }] } : {}),
  };
  const where: Prisma.ProductWhereInput = { AND: [base, q.status ? { status: q.status } : {}, q.cursor ? afterCursor(q.sort, q.cursor) : {}] };
  const orderBy: Prisma.ProductOrderByWithRelationInput[] =
    q.sort === "title" ? [{ title: "asc" }, { id: "asc" }] : q.sort === "created" ? [{ created_at: "desc" }, { id: "desc" }] : [{ updated_at: "desc" }, { id: "desc" }];
  const [rows, grouped] = await Promise.all([
    db.product.findMany({ where, select: productSelect, orderBy, take: q.limit + 1 }),
    db.product.groupBy({ by: ["status"], where: base, _count: { _all: true } }),
  ]);
  const counts = { all: 0, ...zeroCounts() };
  for (const g of grouped) {
    counts[g.status] = g._count._all;
    counts.all += g._count._all;
  }
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const key = (p: ProductRow) => (q.sort === "title" ? p.title : q.sort === "created" ? p.created_at.toISOString() : p.updated_at.toISOString());
  return { items: page.map(toVendorProduct), counts, nextCursor: rows.length > q.limit && last ? encodeCursor([q.sort, key(last), last.id]) : null };
}

/** The store's refusal in the domain's words (the store's own message kept for the caller). */
function commerceRefusal(e: unknown): never {
  if (e instanceof DomainError) throw e;
  if (e instanceof CommerceError) {
    const details = { reason: e.message, userErrors: e.userErrors };
    if (e.status === 404) throw notFoundError(VENDOR_PRODUCT_NOT_FOUND);
    if (e.status === 409) throw conflictError(e.message, details);
    if (e.status === 429) throw rateLimited(e.message, 2);
    if (e.status === 502) throw unavailable(`The store did not answer: ${e.message}`);
    throw unprocessableError(e.message, details);
  }
  throw e;
}

/**
 * Sets a vendor's product active, draft or archived: in the store first (commerce port), then in
 * the app's catalogue and the product's companion, so pages show the change before the store's
 * webhook comes back. The same status again changes nothing and calls nobody.
 */
export async function setVendorProductStatus(
  ctx: { db: Db; commerce: Pick<CommercePort, "setProductStatus"> },
  vendorId: string,
  rawProductId: string,
  status: VendorProductStatus,
): Promise<VendorProduct> {
  if (!VENDOR_PRODUCT_STATUSES.includes(status)) throw invalid(`status: must be one of ${VENDOR_PRODUCT_STATUSES.join(", ")}`);
  const id = toProductGid(rawProductId);
  const product = await ctx.db.product.findFirst({ where: { id, vendor_id: vendorId }, select: productSelect });
  if (!product) throw notFoundError(VENDOR_PRODUCT_NOT_FOUND);
  if (product.status === status) return toVendorProduct(product);
  try {
    await ctx.commerce.setProductStatus(id, status);
  } catch (e) {
    commerceRefusal(e);
  }
  const updated = await ctx.db.$transaction(async (tx) => {
    const p = await tx.product.update({ where: { id }, data: { status }, select: productSelect });
    // The companion mirrors its product's status (companion.server.ts productStatusFor); one still
    // waiting for review stays there when the product goes back to draft.
    const keep: ("draft" | "active" | "archived" | "pending_review")[] = status === "draft" ? [status, "pending_review"] : [status];
    await tx.productCompanion.updateMany({ where: { shopify_product_id: id, status: { notIn: keep } }, data: { status } });
    return p;
  });
  return toVendorProduct(updated);
}

/** The commission rate as a two-decimal string, checked (0–100, at most two decimals). */
export function commissionRateText(rate: number): string {
  if (!Number.isFinite(rate) || rate < 0 || rate > 100) throw invalid("commission_rate: must be between 0 and 100");
  const cents = Math.round(rate * 100);
  if (Math.abs(rate * 100 - cents) > 1e-6) throw invalid("commission_rate: must have at most two decimals");
  return (cents / 100).toFixed(2);
}
