/**
 * Catalogue reads from the product read model (the Storefront shape kept in our database).
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { ProductCard, TargetGender } from "~/contract";
import { badRequest } from "~/api/errors.server";

const cardSelect = {
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
  throw badRequest("cursor is invalid");
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
    status: "active",
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
