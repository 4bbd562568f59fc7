/**
 * Catalogue reads from the product read model (the Storefront shape kept in our database).
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { ProductCard, TargetGender } from "~/contract";
import { domainErrorOfStatus, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import type { AppContext } from "~/context.server";
import type { ProductDetail } from "~/contract/products";
import { isMissingId, toProductGid, toVariantGid } from "~/lib/gid";
import { Messages } from "~/contract/messages";
import { CommerceError, type CommercePort, type InventoryLevel, type ProductSnapshot } from "~/providers/commerce/port";
import { recomputeProductAggregates } from "~/providers/commerce/local.server";
import { visibleProductWhere } from "~/lib/visibility";

/** The product fields a card needs (shared by every list that shows product cards). */
export const cardSelect = {
  id: true,
  title: true,
  handle: true,
  vendor: true,
  productType: true,
  availableForSale: true,
  featuredImageUrl: true,
  featuredImageAltText: true,
  priceMin: true,
  priceMax: true,
  currencyCode: true,
  target_gender: true,
  store_id: true,
  variants: { select: { color_hex: true }, orderBy: { position: "asc" } },
} satisfies Prisma.ProductSelect;

type CardRow = Prisma.ProductGetPayload<{ select: typeof cardSelect }>;

export function toProductCard(p: CardRow): ProductCard {
  const money = (amount: Prisma.Decimal) => ({ amount: amount.toFixed(2), currencyCode: p.currencyCode });
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    productType: p.productType,
    availableForSale: p.availableForSale,
    featuredImage: p.featuredImageUrl ? { url: p.featuredImageUrl, altText: p.featuredImageAltText } : null,
    priceRange: { minVariantPrice: money(p.priceMin), maxVariantPrice: money(p.priceMax) },
    target_gender: p.target_gender,
    colorHexes: [...new Set(p.variants.map((v) => v.color_hex).filter((h): h is string => !!h))],
    storeId: p.store_id,
  };
}

export const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
export function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as { o?: unknown };
    if (typeof v.o === "number" && Number.isInteger(v.o) && v.o >= 0) return v.o;
  } catch {
    /* fall through */
  }
  throw invalid("cursor is invalid");
}

const ORDER: Record<string, (reverse: boolean) => Prisma.ProductOrderByWithRelationInput[]> = {
  CREATED_AT: (r) => [{ created_at: r ? "asc" : "desc" }, { id: "asc" }],
  PRICE: (r) => [{ priceMin: r ? "desc" : "asc" }, { id: "asc" }],
  TITLE: (r) => [{ title: r ? "desc" : "asc" }, { id: "asc" }],
  RELEVANCE: (r) => [{ created_at: r ? "asc" : "desc" }, { id: "asc" }],
  BEST_SELLING: (r) => [{ created_at: r ? "asc" : "desc" }, { id: "asc" }],
};

/**
 * Products visible to shoppers. A gender filter keeps products made for that gender and those
 * made for both (SPEC §4: "both" suits everyone).
 */
export async function listProducts(
  db: Db,
  q: { query?: string; limit: number; cursor?: string; sortKey: string; reverse: boolean; target_gender?: TargetGender },
) {
  const offset = decodeCursor(q.cursor);
  const where: Prisma.ProductWhereInput = {
    ...visibleProductWhere(),
    ...(q.target_gender && q.target_gender !== "both" ? { target_gender: { in: [q.target_gender, "both"] } } : {}),
    ...(q.query
      ? {
          OR: [
            { title: { contains: q.query, mode: "insensitive" } },
            { productType: { contains: q.query, mode: "insensitive" } },
            { vendor: { contains: q.query, mode: "insensitive" } },
            { tags: { has: q.query.toLowerCase() } },
          ],
        }
      : {}),
  };
  const rows = await db.product.findMany({ where, select: cardSelect, orderBy: ORDER[q.sortKey](q.reverse), skip: offset, take: q.limit + 1 });
  const hasNextPage = rows.length > q.limit;
  return {
    products: rows.slice(0, q.limit).map(toProductCard),
    pageInfo: { hasNextPage, endCursor: hasNextPage ? encodeCursor(offset + q.limit) : null },
  };
}

// =====================================================================================
// Product detail, variants, search, vendors (issue 3)
// =====================================================================================

export const PRODUCT_NOT_FOUND = "Product not found";
/** Storefront limits (SPEC §9): images up to 50, variants up to 250. */
export const MAX_IMAGES = 50;
export const MAX_VARIANTS = 250;

export { visibleProductWhere };

export const detailSelect = {
  ...cardSelect,
  description: true,
  descriptionHtml: true,
  tags: true,
  status: true,
  publishedAt: true,
  created_at: true,
  updated_at: true,
  totalInventory: true,
  options: { select: { id: true, name: true, values: true }, orderBy: [{ position: "asc" }, { name: "asc" }] },
  images: { select: { id: true, url: true, altText: true, width: true, height: true }, orderBy: [{ position: "asc" }, { id: "asc" }], take: MAX_IMAGES },
  variants: {
    select: {
      id: true,
      title: true,
      sku: true,
      availableForSale: true,
      inventory_quantity: true,
      image_url: true,
      price: true,
      compareAtPrice: true,
      currencyCode: true,
      selectedOptions: true,
      color_hex: true,
    },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    take: MAX_VARIANTS,
  },
} satisfies Prisma.ProductSelect;

type DetailRow = Prisma.ProductGetPayload<{ select: typeof detailSelect }>;

export function selectedOptionsOf(v: Prisma.JsonValue): { name: string; value: string }[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((o): o is Prisma.JsonObject => !!o && typeof o === "object" && !Array.isArray(o) && "name" in o && "value" in o)
    .map((o) => ({ name: String(o.name), value: String(o.value) }));
}

export function toProductDetail(p: DetailRow): ProductDetail {
  const card = toProductCard(p);
  const altByUrl = new Map(p.images.map((i) => [i.url, i.altText]));
  return {
    ...card,
    description: p.description,
    descriptionHtml: p.descriptionHtml,
    tags: p.tags,
    status: p.status,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    createdAt: p.created_at.toISOString(),
    updatedAt: p.updated_at.toISOString(),
    totalInventory: p.totalInventory,
    options: p.options.map((o) => ({ id: o.id, name: o.name, values: o.values })),
    images: p.images.map((i) => ({ id: i.id, url: i.url, altText: i.altText, width: i.width, height: i.height })),
    variants: p.variants.map((v) => ({
      id: v.id,
      title: v.title,
      sku: v.sku,
      availableForSale: v.availableForSale,
      quantityAvailable: v.inventory_quantity,
      image: v.image_url ? { url: v.image_url, altText: altByUrl.get(v.image_url) ?? null } : null,
      price: { amount: v.price.toFixed(2), currencyCode: v.currencyCode || p.currencyCode },
      compareAtPrice: v.compareAtPrice ? { amount: v.compareAtPrice.toFixed(2), currencyCode: v.currencyCode || p.currencyCode } : null,
      selectedOptions: selectedOptionsOf(v.selectedOptions),
      colorHex: v.color_hex,
      product: { id: p.id, handle: p.handle, title: p.title },
    })),
  };
}

/**
 * A product by id (GID or bare number). Shoppers see visible products only; `includeHidden`
 * (admins with catalog.edit) also drafts, archived and scheduled ones. 404 "Product not found".
 */
export async function getProductDetail(db: Db, rawId: string, opts: { includeHidden?: boolean } = {}): Promise<ProductDetail> {
  if (isMissingId(rawId)) throw invalid(Messages.NO_PRODUCT_ID);
  const id = toProductGid(rawId);
  const row = await db.product.findFirst({ where: { id, ...(opts.includeHidden ? {} : visibleProductWhere()) }, select: detailSelect });
  if (!row) throw notFoundError(PRODUCT_NOT_FOUND);
  return toProductDetail(row);
}

/** Full products by ids, in the order given (unknown or hidden ids are left out). */
export async function getProductDetails(db: Db, ids: string[], opts: { includeHidden?: boolean } = {}): Promise<ProductDetail[]> {
  if (ids.length === 0) return [];
  const rows = await db.product.findMany({ where: { id: { in: ids }, ...(opts.includeHidden ? {} : visibleProductWhere()) }, select: detailSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [toProductDetail(byId.get(id)!)] : []));
}

/** Product cards by ids, in the order given (unknown or hidden ids are left out). */
export async function getProductCards(db: Db, ids: string[], opts: { includeHidden?: boolean } = {}): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const rows = await db.product.findMany({ where: { id: { in: ids }, ...(opts.includeHidden ? {} : visibleProductWhere()) }, select: cardSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [toProductCard(byId.get(id)!)] : []));
}

/** Variants by ids (GID or bare number), in the order asked; unknown ids are left out. */
export async function getVariantsMinimal(db: Db, rawIds: string[]) {
  const ids = [...new Set(rawIds.map(toVariantGid))];
  if (ids.length === 0) return [];
  const rows = await db.productVariant.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      title: true,
      price: true,
      currencyCode: true,
      availableForSale: true,
      image_url: true,
      product: { select: { id: true, title: true, featuredImageUrl: true, featuredImageAltText: true } },
    },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const v = byId.get(id);
    if (!v) return [];
    const url = v.image_url ?? v.product.featuredImageUrl;
    return [
      {
        id: v.id,
        title: v.title,
        price: { amount: v.price.toFixed(2), currencyCode: v.currencyCode },
        availableForSale: v.availableForSale,
        productId: v.product.id,
        productTitle: v.product.title,
        image: url ? { url, altText: v.image_url ? null : v.product.featuredImageAltText } : null,
      },
    ];
  });
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Text search over visible products. Ranking: pg_trgm similarity of the title (whole query and
 * word similarity), plus matches of the query in the product type, vendor and tags; every word
 * of the query must appear somewhere (title, type, vendor, tags) unless the title is a close
 * trigram match (typos: "lenin shirt" finds linen shirts).
 */
export async function searchProducts(db: Db, q: { q: string; limit: number; target_gender?: TargetGender }) {
  const query = q.q.trim().replace(/\s+/g, " ");
  const like = `%${escapeLike(query)}%`;
  const words = [...new Set(query.toLowerCase().split(" ").filter((w) => w.length > 0))].slice(0, 8);
  const doc = Prisma.sql`(p.title || ' ' || p."productType" || ' ' || p.vendor || ' ' || array_to_string(p.tags, ' '))`;
  const allWords = words.length
    ? Prisma.join(
        words.map((w) => Prisma.sql`(${doc} ILIKE ${`%${escapeLike(w)}%`} OR word_similarity(${w}, p.title) >= 0.5)`),
        " AND ",
      )
    : Prisma.sql`TRUE`;
  const genders = q.target_gender && q.target_gender !== "both" ? [q.target_gender, "both"] : null;
  const rows = await db.$queryRaw<{ id: string; score: number }[]>`
    SELECT p.id,
      (GREATEST(similarity(p.title, ${query}), word_similarity(${query}, p.title))
        + CASE WHEN p.title ILIKE ${like} THEN 0.5 ELSE 0 END
        + CASE WHEN p."productType" ILIKE ${like} THEN 0.3 ELSE 0 END
        + CASE WHEN p.vendor ILIKE ${like} THEN 0.25 ELSE 0 END
        + CASE WHEN EXISTS (SELECT 1 FROM unnest(p.tags) t WHERE t ILIKE ${like}) THEN 0.2 ELSE 0 END)::float8 AS score
    FROM products p
    WHERE p.status = 'active'
      AND p."publishedAt" IS NOT NULL AND p."publishedAt" <= (now() AT TIME ZONE 'UTC')
      AND (${genders ? Prisma.sql`p.target_gender::text = ANY(${genders}::text[])` : Prisma.sql`TRUE`})
      AND (${allWords})
    ORDER BY score DESC, p.created_at DESC, p.id ASC
    LIMIT ${q.limit}`;
  return { query, products: await getProductCards(db, rows.map((r) => r.id)) };
}

/** The product imported from a Taobao item (through its companion), or null. */
export async function getProductByTaobaoId(db: Db, taobaoId: string, opts: { includeHidden?: boolean } = {}): Promise<ProductDetail | null> {
  const companion = await db.productCompanion.findUnique({ where: { taobao_id: taobaoId.trim() }, select: { shopify_product_id: true } });
  if (!companion) return null;
  const [p] = await getProductDetails(db, [companion.shopify_product_id], opts);
  return p ?? null;
}

/** Vendor names with their product counts (visible products only, unless `includeHidden`). */
export async function listProductVendors(db: Db, opts: { includeHidden?: boolean } = {}) {
  const rows = await db.product.groupBy({
    by: ["vendor"],
    where: { vendor: { not: "" }, ...(opts.includeHidden ? {} : visibleProductWhere()) },
    _count: { _all: true },
    orderBy: { vendor: "asc" },
  });
  return { vendors: rows.map((r) => ({ name: r.vendor, productCount: r._count._all })) };
}

// ---------------------------------------------------------------------------------------------
// Admin list (the Products screen)

export const ADMIN_PRODUCT_SORTS = ["newest", "oldest", "title", "price-asc", "price-desc", "inventory-asc", "updated"] as const;
export type AdminProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];

const ADMIN_ORDER: Record<AdminProductSort, Prisma.ProductOrderByWithRelationInput[]> = {
  newest: [{ created_at: "desc" }, { id: "asc" }],
  oldest: [{ created_at: "asc" }, { id: "asc" }],
  title: [{ title: "asc" }, { id: "asc" }],
  "price-asc": [{ priceMin: "asc" }, { id: "asc" }],
  "price-desc": [{ priceMax: "desc" }, { id: "asc" }],
  "inventory-asc": [{ totalInventory: "asc" }, { id: "asc" }],
  updated: [{ updated_at: "desc" }, { id: "asc" }],
};

export interface AdminProductFilter {
  query?: string;
  status?: "active" | "draft" | "archived";
  companionStatus?: "draft" | "pending_review" | "active" | "archived" | "none";
  gender?: TargetGender;
  vendor?: string;
  storeId?: string;
  sort?: AdminProductSort;
  page?: number;
  pageSize?: number;
}

/** Every product (all statuses) for the admin list, with its companion's status; page-numbered. */
export async function adminListProducts(db: Db, f: AdminProductFilter) {
  const pageSize = Math.min(100, Math.max(1, f.pageSize ?? 25));
  const page = Math.max(1, f.page ?? 1);
  const and: Prisma.ProductWhereInput[] = [];
  const text = f.query?.trim();
  if (text) {
    and.push({
      OR: [
        { title: { contains: text, mode: "insensitive" } },
        { handle: { contains: text, mode: "insensitive" } },
        { productType: { contains: text, mode: "insensitive" } },
        { vendor: { contains: text, mode: "insensitive" } },
        { tags: { has: text.toLowerCase() } },
        { id: toProductGid(text) },
        { companion: { taobao_id: text } },
      ],
    });
  }
  if (f.status) and.push({ status: f.status });
  if (f.gender) and.push({ target_gender: f.gender });
  if (f.vendor) and.push({ vendor: f.vendor });
  if (f.storeId) and.push({ store_id: f.storeId });
  if (f.companionStatus === "none") and.push({ companion: { is: null } });
  else if (f.companionStatus) and.push({ companion: { is: { status: f.companionStatus } } });
  const where: Prisma.ProductWhereInput = { AND: and };
  const [total, rows] = await Promise.all([
    db.product.count({ where }),
    db.product.findMany({
      where,
      orderBy: ADMIN_ORDER[f.sort ?? "newest"],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        title: true,
        handle: true,
        vendor: true,
        productType: true,
        status: true,
        target_gender: true,
        featuredImageUrl: true,
        featuredImageAltText: true,
        priceMin: true,
        priceMax: true,
        currencyCode: true,
        totalInventory: true,
        availableForSale: true,
        publishedAt: true,
        created_at: true,
        store: { select: { id: true, name: true } },
        companion: { select: { status: true, verified_at: true, scheduled_publish_date: true } },
        _count: { select: { variants: true } },
      },
    }),
  ]);
  return {
    total,
    page,
    pageSize,
    pages: Math.max(1, Math.ceil(total / pageSize)),
    products: rows.map((r) => ({
      id: r.id,
      title: r.title,
      handle: r.handle,
      vendor: r.vendor,
      productType: r.productType,
      status: r.status,
      target_gender: r.target_gender,
      image: r.featuredImageUrl ? { url: r.featuredImageUrl, altText: r.featuredImageAltText } : null,
      price: { min: r.priceMin.toFixed(2), max: r.priceMax.toFixed(2), currencyCode: r.currencyCode },
      totalInventory: r.totalInventory,
      availableForSale: r.availableForSale,
      publishedAt: r.publishedAt?.toISOString() ?? null,
      createdAt: r.created_at.toISOString(),
      store: r.store,
      variantCount: r._count.variants,
      companion: r.companion
        ? { status: r.companion.status, verified: !!r.companion.verified_at, scheduledPublishDate: r.companion.scheduled_publish_date?.toISOString() ?? null }
        : null,
    })),
  };
}

/** Filter choices of the admin list: vendors and stores. */
export async function adminProductFilterOptions(db: Db) {
  const [vendors, stores] = await Promise.all([
    listProductVendors(db, { includeHidden: true }),
    db.store.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  return { vendors: vendors.vendors, stores };
}

// ---------------------------------------------------------------------------------------------
// Read-model writes shared by the inventory jobs and the companion actions

/**
 * Writes inventory levels into the read model in batches: each variant's quantity and
 * availability, then its product's total inventory and availability.
 * Returns how many products and variants were read and how many variants changed.
 */
export async function applyInventoryLevels(db: Db, levels: { productId: string; variantId: string; available: number }[]) {
  let changed = 0;
  const productIds = new Set<string>();
  for (let i = 0; i < levels.length; i += 1000) {
    const chunk = levels.slice(i, i + 1000);
    chunk.forEach((l) => productIds.add(l.productId));
    const ids = chunk.map((l) => l.variantId);
    const qty = chunk.map((l) => Math.trunc(l.available));
    changed += await db.$executeRaw`
      UPDATE product_variants AS v
      SET inventory_quantity = x.q, "availableForSale" = (x.q > 0), updated_at = (now() AT TIME ZONE 'UTC')
      FROM (SELECT unnest(${ids}::text[]) AS id, unnest(${qty}::int[]) AS q) AS x
      WHERE v.id = x.id AND (v.inventory_quantity <> x.q OR v."availableForSale" <> (x.q > 0))`;
  }
  const pids = [...productIds];
  for (let i = 0; i < pids.length; i += 1000) {
    const chunk = pids.slice(i, i + 1000);
    await db.$executeRaw`
      UPDATE products AS p
      SET "totalInventory" = s.total, "availableForSale" = s.avail, updated_at = (now() AT TIME ZONE 'UTC')
      FROM (
        SELECT product_id, COALESCE(SUM(GREATEST(inventory_quantity, 0)), 0)::int AS total, BOOL_OR("availableForSale") AS avail
        FROM product_variants WHERE product_id = ANY(${chunk}::text[]) GROUP BY product_id
      ) AS s
      WHERE p.id = s.product_id AND (p."totalInventory" <> s.total OR p."availableForSale" <> s.avail)`;
  }
  return { products: productIds.size, variants: levels.length, changed };
}

/**
 * Brings the read model in step with a product as the store answered it (after an option-value
 * change, a description update, …): the product's fields, options, variants and images, then its
 * aggregates. Rows keep their ids, so references to variants and images survive. With the local
 * adapter the store IS the read model and this writes the same values back.
 */
export async function applyProductSnapshot(db: Db, snap: ProductSnapshot): Promise<void> {
  await db.$transaction(async (tx) => {
    const exists = await tx.product.findUnique({ where: { id: snap.id }, select: { id: true } });
    if (!exists) return;
    await tx.product.update({
      where: { id: snap.id },
      data: {
        title: snap.title,
        vendor: snap.vendor,
        productType: snap.productType,
        description: snap.description,
        descriptionHtml: snap.descriptionHtml,
        status: snap.status,
        tags: snap.tags,
        target_gender: snap.targetGender,
        currencyCode: snap.currencyCode,
        publishedAt: snap.publishedAt ? new Date(snap.publishedAt) : null,
      },
    });
    await tx.productOption.deleteMany({ where: { product_id: snap.id, name: { notIn: snap.options.map((o) => o.name) } } });
    for (const o of snap.options) {
      await tx.productOption.upsert({
        where: { product_id_name: { product_id: snap.id, name: o.name } },
        create: { id: o.id, product_id: snap.id, name: o.name, values: o.values, position: o.position },
        update: { values: o.values, position: o.position },
      });
    }
    await tx.productVariant.deleteMany({ where: { product_id: snap.id, id: { notIn: snap.variants.map((v) => v.id) } } });
    for (const v of snap.variants) {
      const data = {
        title: v.title,
        sku: v.sku,
        price: new Prisma.Decimal(v.price),
        compareAtPrice: v.compareAtPrice ? new Prisma.Decimal(v.compareAtPrice) : null,
        currencyCode: snap.currencyCode,
        availableForSale: v.availableForSale,
        inventory_quantity: v.inventoryQuantity,
        selectedOptions: v.selectedOptions as unknown as Prisma.InputJsonValue,
        image_url: v.imageUrl,
        color_hex: v.colorHex,
        position: v.position,
      };
      await tx.productVariant.upsert({ where: { id: v.id }, create: { id: v.id, product_id: snap.id, ...data }, update: data });
    }
    await tx.productImage.deleteMany({ where: { product_id: snap.id, id: { notIn: snap.images.map((i) => i.id) } } });
    for (const i of snap.images) {
      const data = { url: i.url, altText: i.altText, width: i.width, height: i.height, position: i.position };
      await tx.productImage.upsert({ where: { id: i.id }, create: { id: i.id, product_id: snap.id, ...data }, update: data });
    }
    await recomputeProductAggregates(tx, snap.id);
  });
}

// ---------------------------------------------------------------------------------------------
// Admin product actions through the commerce port, then the read model

/**
 * Turns a store refusal into a domain error of the same kind (a store that failed to answer, 502,
 * as unavailable). `message` is the spec's catalogue message when it has one (e.g. "Failed to set
 * media order"); the store's own reason travels in `details.reason`. Anything else goes on as is.
 */
export function commerceFailure(e: unknown, message?: string): never {
  if (e instanceof CommerceError) {
    const status = e.status === 502 ? 503 : e.status;
    throw domainErrorOfStatus(status, message ?? e.message, { reason: e.message, userErrors: e.userErrors });
  }
  throw e;
}

type CommerceCtx = Pick<AppContext, "db" | "commerce">;

async function mustExist(db: Db, id: string) {
  const p = await db.product.findUnique({ where: { id }, select: { id: true } });
  if (!p) throw notFoundError(PRODUCT_NOT_FOUND);
  return p;
}

/** Deletes a product in the store, then from the read model (cascading to its companion). */
export async function deleteProduct(ctx: CommerceCtx, rawId: string) {
  const id = toProductGid(rawId);
  const known = await ctx.db.product.findUnique({ where: { id }, select: { id: true } });
  try {
    await ctx.commerce.deleteProduct(id);
  } catch (e) {
    // Already gone from the store: clear the read model's leftover row.
    const goneInStore = e instanceof CommerceError && e.status === 404;
    if (!(goneInStore && known)) {
      if (goneInStore) throw notFoundError(PRODUCT_NOT_FOUND);
      commerceFailure(e, Messages.FAILED_TO_DELETE_PRODUCT);
    }
  }
  await ctx.db.product.deleteMany({ where: { id } });
  return { ok: true as const, id };
}

/** Sets the full order of a product's images (the first becomes the featured image). */
export async function setMediaOrder(ctx: CommerceCtx, rawId: string, mediaIds: string[]) {
  const id = toProductGid(rawId);
  await mustExist(ctx.db, id);
  const images = await ctx.db.productImage.findMany({ where: { product_id: id }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true } });
  const known = new Set(images.map((i) => i.id));
  const seen = new Set<string>();
  for (const m of mediaIds) {
    if (!known.has(m)) throw unprocessableError(`Image ${m} is not an image of this product`);
    if (seen.has(m)) throw unprocessableError(`Image ${m} is listed twice`);
    seen.add(m);
  }
  if (seen.size !== known.size) throw unprocessableError(`mediaIds must list every image of the product (${known.size}), in the new order`);
  try {
    await ctx.commerce.reorderMedia(id, mediaIds);
  } catch (e) {
    commerceFailure(e, Messages.FAILED_TO_SET_MEDIA_ORDER);
  }
  await ctx.db.$transaction(async (tx) => {
    for (const [position, mid] of mediaIds.entries()) await tx.productImage.update({ where: { id: mid }, data: { position } });
    await recomputeProductAggregates(tx, id);
  });
  const rows = await ctx.db.productImage.findMany({
    where: { product_id: id },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: { id: true, url: true, altText: true, width: true, height: true },
  });
  return { ok: true as const, images: rows };
}

/** Attaches product images to variants (`pairs`), in the store and the read model. */
export async function appendVariantMedia(ctx: CommerceCtx, rawId: string, rawPairs: { variantId: string; mediaId: string }[]) {
  const id = toProductGid(rawId);
  await mustExist(ctx.db, id);
  const [variants, images] = await Promise.all([
    ctx.db.productVariant.findMany({ where: { product_id: id }, select: { id: true } }),
    ctx.db.productImage.findMany({ where: { product_id: id }, select: { id: true, url: true, altText: true } }),
  ]);
  const variantIds = new Set(variants.map((v) => v.id));
  const imageById = new Map(images.map((i) => [i.id, i]));
  const pairs = rawPairs.map((p) => ({ variantId: toVariantGid(p.variantId), mediaId: p.mediaId }));
  for (const p of pairs) {
    if (!variantIds.has(p.variantId)) throw unprocessableError(`Variant ${p.variantId} is not a variant of this product`);
    if (!imageById.has(p.mediaId)) throw unprocessableError(`Image ${p.mediaId} is not an image of this product`);
  }
  try {
    await ctx.commerce.appendVariantMedia(id, pairs);
  } catch (e) {
    commerceFailure(e, Messages.FAILED_TO_APPEND_VARIANT_MEDIA);
  }
  const last = new Map<string, string>();
  for (const p of pairs) last.set(p.variantId, p.mediaId);
  await ctx.db.$transaction(async (tx) => {
    for (const [variantId, mediaId] of last) await tx.productVariant.update({ where: { id: variantId }, data: { image_url: imageById.get(mediaId)!.url } });
  });
  return {
    ok: true as const,
    variants: [...last].map(([variantId, mediaId]) => {
      const img = imageById.get(mediaId)!;
      return { id: variantId, image: { url: img.url, altText: img.altText } };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Inventory updates (a job with progress)

export const INVENTORY_QUEUE = "products.inventory-sync";

export async function enqueueInventorySync(ctx: Pick<AppContext, "queue">, outOfStockOnly: boolean) {
  const { id } = await ctx.queue.enqueue(INVENTORY_QUEUE, { outOfStockOnly }, { dedupeKey: `${INVENTORY_QUEUE}:${outOfStockOnly ? "out-of-stock" : "all"}`, maxAttempts: 3 });
  return { jobId: id };
}

/** The job: inventory levels from the store into the read model. */
export async function runInventorySync(
  ctx: Pick<AppContext, "db" | "commerce">,
  opts: { outOfStockOnly: boolean },
  progress: (percent: number) => Promise<void> = async () => {},
) {
  const levels = await readInventoryLevels(ctx.commerce, ctx.db, opts.outOfStockOnly);
  await progress(40);
  const total = { products: 0, variants: 0, changed: 0 };
  // Whole products per batch, so each product's totals are computed once from all its variants.
  const byProduct = new Map<string, InventoryLevel[]>();
  for (const l of levels) byProduct.set(l.productId, [...(byProduct.get(l.productId) ?? []), l]);
  const products = [...byProduct.values()];
  for (let i = 0; i < products.length; i += 200) {
    const r = await applyInventoryLevels(ctx.db, products.slice(i, i + 200).flat());
    total.products += r.products;
    total.variants += r.variants;
    total.changed += r.changed;
    await progress(40 + Math.round((60 * Math.min(products.length, i + 200)) / Math.max(1, products.length)));
  }
  return total;
}

async function readInventoryLevels(commerce: CommercePort, db: Db, outOfStockOnly: boolean): Promise<InventoryLevel[]> {
  if (!outOfStockOnly) return commerce.inventoryLevels({});
  // Out of stock in the store, or shown as out of stock by the read model (restocked since).
  const fromStore = await commerce.inventoryLevels({ outOfStockOnly: true });
  const ours = await db.product.findMany({ where: { OR: [{ totalInventory: { lte: 0 } }, { availableForSale: false }] }, select: { id: true } });
  const byVariant = new Map(fromStore.map((l) => [l.variantId, l]));
  const ids = ours.map((p) => p.id);
  for (let i = 0; i < ids.length; i += 250) {
    for (const l of await commerce.inventoryLevels({ productIds: ids.slice(i, i + 250) })) byVariant.set(l.variantId, l);
  }
  // Whole products: a product's total needs every variant's level.
  const partial = [...new Set(fromStore.map((l) => l.productId))].filter((pid) => !ids.includes(pid));
  for (let i = 0; i < partial.length; i += 250) {
    for (const l of await commerce.inventoryLevels({ productIds: partial.slice(i, i + 250) })) byVariant.set(l.variantId, l);
  }
  return [...byVariant.values()];
}

export async function getInventoryJob(db: Db, id: string) {
  const job = await db.job.findFirst({ where: { id, queue: INVENTORY_QUEUE } });
  if (!job) throw notFoundError("Job not found");
  const r = job.result as { products?: unknown; variants?: unknown; changed?: unknown } | null;
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    result:
      r && typeof r === "object" && typeof r.products === "number"
        ? { products: r.products, variants: Number(r.variants ?? 0), changed: Number(r.changed ?? 0) }
        : null,
    error: job.error,
    createdAt: job.created_at,
    completedAt: job.completed_at,
  };
}
