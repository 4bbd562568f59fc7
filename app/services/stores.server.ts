/**
 * Stores: the app's own store records (a vendor has stores; products belong to a store), their
 * featured products with a sort order, size recommendations, and the store reads of the feeds.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import type { ProductCard } from "~/contract/products";
import { conflictError, invalid, notFoundError } from "~/lib/domain-errors";
import { toProductCard } from "./catalog.server";
import { visibleProductWhere } from "~/lib/visibility";

import { cardSelect as productCardSelect } from "./catalog.server";
export { productCardSelect };

/** A gender filter: a gender keeps its own and "both" items; "both" (or none) keeps everything. */
export function genderWhere(g: TargetGender | undefined): { target_gender?: { in: TargetGender[] } } {
  return g && g !== "both" ? { target_gender: { in: [g, "both"] } } : {};
}

/** Products shoppers may see. */
export const visibleProduct = (g?: TargetGender): Prisma.ProductWhereInput => ({ ...visibleProductWhere(), ...genderWhere(g) });

export const newestFirst: Prisma.ProductOrderByWithRelationInput[] = [{ created_at: "desc" }, { id: "asc" }];

/** `"Lumière & Co."` → `lumiere-co`. */
export function slugify(text: string, fallback = "item"): string {
  const s = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/g, "");
  return s || fallback;
}

/** The first free handle among `base`, `base-2`, `base-3`… given the handles already taken. */
export function freeHandle(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

const storeInclude = {
  _count: { select: { products: { where: { status: "active" } }, favorited_by: true } },
} satisfies Prisma.StoreInclude;

type StoreRow = Prisma.StoreGetPayload<{ include: typeof storeInclude }>;

export function toStore(s: StoreRow) {
  return {
    id: s.id,
    name: s.name,
    handle: s.handle,
    description: s.description,
    logo_url: s.logo_url,
    banner_url: s.banner_url,
    size_recommendation: s.size_recommendation,
    target_gender: s.target_gender,
    vendor_id: s.vendor_id,
    sort_order: s.sort_order,
    productCount: s._count.products,
    followerCount: s._count.favorited_by,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
export type StoreOut = ReturnType<typeof toStore>;

const storeOrder: Prisma.StoreOrderByWithRelationInput[] = [{ sort_order: "asc" }, { name: "asc" }, { id: "asc" }];

async function findStore(db: Db, id: string): Promise<StoreRow> {
  const s = await db.store.findUnique({ where: { id }, include: storeInclude });
  if (!s) throw notFoundError("Store not found");
  return s;
}

async function storeHandle(db: Db, wanted: string | undefined, name: string, exceptId?: string): Promise<string> {
  if (wanted) {
    const other = await db.store.findUnique({ where: { handle: wanted }, select: { id: true } });
    if (other && other.id !== exceptId) throw conflictError(`A store with the handle "${wanted}" already exists`);
    return wanted;
  }
  const base = slugify(name, "store");
  const taken = await db.store.findMany({ where: { handle: { startsWith: base }, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { handle: true } });
  return freeHandle(
    base,
    taken.map((t) => t.handle)
  );
}

async function assertVendor(db: Db, vendorId: string) {
  const v = await db.vendor.findUnique({ where: { id: vendorId }, select: { id: true } });
  if (!v) throw notFoundError("Vendor not found");
}

const emptyToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === "" ? null : v);

// --- Reads ---------------------------------------------------------------------------------

export interface StoreListQuery {
  skip: number;
  take: number;
  target_gender?: TargetGender;
  q?: string;
  /** Admin lists filter on the exact gender; shopper lists include "both" stores. */
  exactGender?: boolean;
}

export async function listStores(db: Db, q: StoreListQuery) {
  const where: Prisma.StoreWhereInput = {
    ...(q.target_gender ? (q.exactGender ? { target_gender: q.target_gender } : genderWhere(q.target_gender)) : {}),
    ...(q.q ? { OR: [{ name: { contains: q.q, mode: "insensitive" } }, { handle: { contains: q.q, mode: "insensitive" } }] } : {}),
  };
  const [rows, total] = await Promise.all([
    db.store.findMany({ where, include: storeInclude, orderBy: storeOrder, skip: q.skip, take: q.take }),
    db.store.count({ where }),
  ]);
  return { stores: rows.map(toStore), total, skip: q.skip, take: q.take };
}

export async function getStore(db: Db, id: string) {
  return toStore(await findStore(db, id));
}

/** SPEC §5: an empty list answers an empty list; unknown ids are left out; the order is the caller's. */
export async function storesByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return { stores: [] };
  const rows = await db.store.findMany({ where: { id: { in: [...new Set(ids)] } }, include: storeInclude });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const stores = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (r && !seen.has(id)) {
      seen.add(id);
      stores.push(toStore(r));
    }
  }
  return { stores };
}

export async function storeNames(db: Db, q: { take: number; q?: string }) {
  const stores = await db.store.findMany({
    where: q.q ? { name: { contains: q.q, mode: "insensitive" } } : {},
    select: { id: true, name: true, handle: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: q.take,
  });
  return { stores };
}

export async function storeProducts(db: Db, storeId: string, q: { skip: number; take: number; target_gender?: TargetGender }) {
  await findStore(db, storeId);
  const where: Prisma.ProductWhereInput = { store_id: storeId, ...visibleProduct(q.target_gender) };
  const [rows, total] = await Promise.all([
    db.product.findMany({ where, select: productCardSelect, orderBy: newestFirst, skip: q.skip, take: q.take }),
    db.product.count({ where }),
  ]);
  return { products: rows.map(toProductCard), total, skip: q.skip, take: q.take };
}

/** A store's featured products first (in their sort order), then its newest ones, up to `take`. */
async function storeShowcase(db: Db, storeId: string, take: number, g?: TargetGender): Promise<ProductCard[]> {
  if (take <= 0) return [];
  const featured = await db.storeFeaturedProduct.findMany({
    where: { store_id: storeId, product: visibleProduct(g) },
    orderBy: [{ sort_order: "asc" }, { created_at: "asc" }],
    take,
    select: { product: { select: productCardSelect } },
  });
  const cards = featured.map((f) => toProductCard(f.product));
  if (cards.length < take) {
    const more = await db.product.findMany({
      where: { store_id: storeId, ...visibleProduct(g), id: { notIn: cards.map((c) => c.id) } },
      select: productCardSelect,
      orderBy: newestFirst,
      take: take - cards.length,
    });
    cards.push(...more.map(toProductCard));
  }
  return cards;
}

/**
 * Stores to interleave in feeds: the most-followed stores first (then the curated store order),
 * only stores with products for the gender, each with 4 products (featured ones first).
 */
export async function storeInsertions(db: Db, q: { skip: number; take: number; target_gender?: TargetGender }, productsPerStore = 4) {
  const rows = await db.store.findMany({
    where: { ...genderWhere(q.target_gender), products: { some: visibleProduct(q.target_gender) } },
    include: storeInclude,
    orderBy: [{ favorited_by: { _count: "desc" } }, { featured_products: { _count: "desc" } }, ...storeOrder],
    skip: q.skip,
    take: q.take,
  });
  const stores = [];
  for (const r of rows) stores.push({ ...toStore(r), products: await storeShowcase(db, r.id, productsPerStore, q.target_gender) });
  return { stores };
}

/** Stores for a gender ("both" stores included) with their newest products for that gender. */
export async function storesByTargetGender(db: Db, gender: TargetGender, q: { skip: number; take: number; productsPerStore: number }) {
  const where: Prisma.StoreWhereInput = genderWhere(gender);
  const [rows, total] = await Promise.all([
    db.store.findMany({ where, include: storeInclude, orderBy: storeOrder, skip: q.skip, take: q.take }),
    db.store.count({ where }),
  ]);
  const stores = [];
  for (const r of rows) {
    const products =
      q.productsPerStore > 0
        ? await db.product.findMany({
            where: { store_id: r.id, ...visibleProduct(gender) },
            select: productCardSelect,
            orderBy: newestFirst,
            take: q.productsPerStore,
          })
        : [];
    stores.push({ ...toStore(r), products: products.map(toProductCard) });
  }
  return { stores, total, skip: q.skip, take: q.take };
}

export async function featuredProducts(db: Db, storeId: string, opts: { includeInactive?: boolean } = {}) {
  await findStore(db, storeId);
  const rows = await db.storeFeaturedProduct.findMany({
    where: { store_id: storeId, ...(opts.includeInactive ? {} : { product: { status: "active" } }) },
    orderBy: [{ sort_order: "asc" }, { created_at: "asc" }],
    select: { sort_order: true, product: { select: { ...productCardSelect, status: true } } },
  });
  return {
    storeId,
    products: rows.map((r) => ({ ...toProductCard(r.product), sort_order: r.sort_order, status: r.product.status })),
  };
}

export async function sizeRecommendation(db: Db, storeId: string) {
  const s = await findStore(db, storeId);
  return { storeId: s.id, size_recommendation: s.size_recommendation };
}

/** For the admin screens: vendors to own a store. */
export async function vendorOptions(db: Db) {
  return db.vendor.findMany({ select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

/** For the admin screens: a store's products of any status, to pick featured ones from. */
export async function searchStoreProductsForAdmin(db: Db, storeId: string, q: { q?: string; take: number }) {
  const rows = await db.product.findMany({
    where: {
      store_id: storeId,
      ...(q.q ? { OR: [{ title: { contains: q.q, mode: "insensitive" } }, { id: q.q }, { productType: { contains: q.q, mode: "insensitive" } }] } : {}),
    },
    select: { ...productCardSelect, status: true },
    orderBy: newestFirst,
    take: q.take,
  });
  return rows.map((r) => ({ ...toProductCard(r), status: r.status }));
}

// --- Writes --------------------------------------------------------------------------------

export interface StoreInput {
  name: string;
  handle?: string;
  description?: string | null;
  logo_url?: string | null;
  banner_url?: string | null;
  size_recommendation?: string | null;
  target_gender: TargetGender;
  vendor_id: string;
  sort_order?: number;
}

export async function createStore(db: Db, input: StoreInput) {
  await assertVendor(db, input.vendor_id);
  const handle = await storeHandle(db, input.handle, input.name);
  const sort_order = input.sort_order ?? ((await db.store.aggregate({ _max: { sort_order: true } }))._max.sort_order ?? -1) + 1;
  const s = await db.store.create({
    data: {
      name: input.name,
      handle,
      description: emptyToNull(input.description) ?? null,
      logo_url: emptyToNull(input.logo_url) ?? null,
      banner_url: emptyToNull(input.banner_url) ?? null,
      size_recommendation: emptyToNull(input.size_recommendation) ?? null,
      target_gender: input.target_gender,
      vendor_id: input.vendor_id,
      sort_order,
    },
    include: storeInclude,
  });
  return toStore(s);
}

export async function updateStore(db: Db, id: string, input: Partial<StoreInput>) {
  const current = await findStore(db, id);
  if (input.vendor_id) await assertVendor(db, input.vendor_id);
  const handle = input.handle && input.handle !== current.handle ? await storeHandle(db, input.handle, current.name, id) : undefined;
  const s = await db.store.update({
    where: { id },
    data: {
      name: input.name,
      handle,
      description: emptyToNull(input.description),
      logo_url: emptyToNull(input.logo_url),
      banner_url: emptyToNull(input.banner_url),
      size_recommendation: emptyToNull(input.size_recommendation),
      target_gender: input.target_gender,
      vendor_id: input.vendor_id,
      sort_order: input.sort_order,
    },
    include: storeInclude,
  });
  return toStore(s);
}

/** Renames a store; its handle (and so its URLs) stays unless `updateHandle`. */
export async function renameStore(db: Db, id: string, input: { name: string; updateHandle?: boolean }) {
  await findStore(db, id);
  const handle = input.updateHandle ? await storeHandle(db, undefined, input.name, id) : undefined;
  const s = await db.store.update({ where: { id }, data: { name: input.name, ...(handle ? { handle } : {}) }, include: storeInclude });
  return toStore(s);
}

/**
 * Deletes a store. While products still belong to it the delete is refused (409); with `force`
 * the products stay in the catalogue without a store.
 */
export async function deleteStore(db: Db, id: string, opts: { force?: boolean } = {}) {
  await findStore(db, id);
  const products = await db.product.count({ where: { store_id: id } });
  if (products > 0 && !opts.force) {
    throw conflictError(`This store still has ${products} product${products === 1 ? "" : "s"}: move or delete them first, or delete with force=true`);
  }
  await db.store.delete({ where: { id } });
  return { ok: true as const, detachedProducts: products };
}

/** Replaces a store's featured products; the order given is the sort order. */
export async function setFeaturedProducts(db: Db, storeId: string, productIds: string[]) {
  await findStore(db, storeId);
  const dupes = [...new Set(productIds.filter((id, i) => productIds.indexOf(id) !== i))];
  if (dupes.length) throw invalid(`product_ids lists a product more than once: ${dupes.join(", ")}`, { duplicates: dupes });
  const found = await db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, store_id: true } });
  const byId = new Map(found.map((p) => [p.id, p]));
  const unknown = productIds.filter((id) => !byId.has(id));
  if (unknown.length) throw invalid(`Unknown product ids: ${unknown.join(", ")}`, { unknown });
  const foreign = productIds.filter((id) => byId.get(id)!.store_id !== storeId);
  if (foreign.length) throw invalid(`These products do not belong to this store: ${foreign.join(", ")}`, { notInStore: foreign });
  await db.$transaction([
    db.storeFeaturedProduct.deleteMany({ where: { store_id: storeId } }),
    db.storeFeaturedProduct.createMany({ data: productIds.map((product_id, sort_order) => ({ store_id: storeId, product_id, sort_order })) }),
  ]);
  return featuredProducts(db, storeId, { includeInactive: true });
}

export async function setSizeRecommendation(db: Db, storeId: string, value: string | null) {
  await findStore(db, storeId);
  const s = await db.store.update({
    where: { id: storeId },
    data: { size_recommendation: emptyToNull(value) ?? null },
    select: { id: true, size_recommendation: true },
  });
  return { storeId: s.id, size_recommendation: s.size_recommendation };
}
