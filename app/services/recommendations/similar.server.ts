/**
 * Products similar to a product by attributes, for filling "customers also viewed", bounded for
 * the request path. The scoring is similar-products.server.ts's (attributeScore: type, gender,
 * price, colours in Lab, tags; blended with the cosine of the stored "attributes" vectors when
 * both products have one); only the candidates differ: similarProducts scores up to 3,000 products
 * per call, which takes hundreds of milliseconds on a 20,000-product catalogue, while this scores
 * at most 160 prefiltered through indexes (same type, same family or group, shared tags; newest
 * first). When the app has an approximate vector index, the caller asks it first.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import { hexToLab, type Lab } from "../color.server";
import { ATTRIBUTES_KIND, attributeScore, cosine, typeSimilarity } from "../similar-products.server";
import { productTypes } from "./catalog-cache.server";
import { gendersFor } from "./scoring";
import { genderSql, visibleSql } from "./sql.server";

interface Row {
  id: string;
  productType: string;
  target_gender: TargetGender;
  price: number;
  tags: string[];
  colours: string[];
  embedding: number[] | null;
}

/** A product's attributes, its distinct colour hexes and its attribute vector, in one row. */
const attributesSql = Prisma.sql`
  p.id, p."productType" AS "productType", p.target_gender::text AS target_gender,
  ((p."priceMin" + p."priceMax") / 2)::float8 AS price, p.tags,
  ARRAY(SELECT DISTINCT lower(v.color_hex) FROM product_variants v WHERE v.product_id = p.id AND v.color_hex IS NOT NULL) AS colours,
  e.embedding`;

const attributesOf = (p: Row) => ({
  productType: p.productType,
  target_gender: p.target_gender,
  price: p.price,
  colours: p.colours.map(hexToLab).filter((l): l is Lab => !!l),
  tags: p.tags,
});

/**
 * Up to `n` visible products most similar to `productId` (best first), of a compatible gender.
 * Two round trips: the product, then its candidates with their attributes (newest 80 of the same
 * type, 40 of the same family or group, 40 sharing a tag).
 */
export async function attributeNeighbours(db: Db, productId: string, targetGender: TargetGender | undefined, n: number, now = new Date()): Promise<string[]> {
  const [src] = await db.$queryRaw<Row[]>`
    SELECT ${attributesSql} FROM products p LEFT JOIN product_embeddings e ON e.product_id = p.id AND e.kind = ${ATTRIBUTES_KIND}
    WHERE p.id = ${productId}`;
  if (!src) return [];
  const genders = gendersFor(targetGender ?? src.target_gender);
  const related = (await productTypes(db)).filter((t) => t !== src.productType && typeSimilarity(src.productType, t) > 0);
  const filter = Prisma.sql`${visibleSql(now)} AND ${genderSql(genders)} AND p.id <> ${productId}`;
  const pick = (extra: Prisma.Sql, take: number) => Prisma.sql`(SELECT p.id FROM products p WHERE ${filter} AND ${extra} ORDER BY p.created_at DESC, p.id ASC LIMIT ${take})`;
  const parts = [
    pick(Prisma.sql`p."productType" = ${src.productType}`, 80),
    ...(related.length ? [pick(Prisma.sql`p."productType" = ANY(${related}::text[])`, 40)] : []),
    ...(src.tags.length ? [pick(Prisma.sql`p.tags && ${src.tags}::text[]`, 40)] : []),
  ];
  const candidates = await db.$queryRaw<Row[]>`
    SELECT ${attributesSql} FROM products p LEFT JOIN product_embeddings e ON e.product_id = p.id AND e.kind = ${ATTRIBUTES_KIND}
    WHERE p.id IN (${Prisma.join(parts, " UNION ")})`;
  const srcAttributes = attributesOf(src);
  return candidates
    .map((c) => {
      let score = attributeScore(srcAttributes, attributesOf(c));
      if (src.embedding?.length && c.embedding?.length) score = 0.6 * score + 0.4 * Math.max(0, cosine(src.embedding, c.embedding));
      return { id: c.id, score: Math.round(score * 1e4) / 1e4 };
    })
    .filter((s) => s.score > 0.2)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, n)
    .map((s) => s.id);
}
