/**
 * Products similar to a product by attributes, for filling "customers also viewed", bounded for
 * the request path. The scoring is similar-products.server.ts's (attributeScore: type, gender,
 * price, colours in Lab, tags; blended with the cosine of the stored "attributes" vectors when
 * both products have one); only the candidates differ: similarProducts scores up to 3,000 products
 * per call, which takes hundreds of milliseconds on a 20,000-product catalogue, while this scores
 * at most ~350 prefiltered through indexes (same type, same family or group, shared tags; newest
 * first). When the app has a vector index, the caller asks it first (nearest neighbours).
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import { hexToLab, type Lab } from "../color.server";
import { ATTRIBUTES_KIND, attributeScore, cosine, typeSimilarity } from "../similar-products.server";
import { productTypes } from "./catalog-cache.server";
import { gendersFor } from "./scoring";
import { genderSql, visibleSql } from "./sql.server";

const select = {
  id: true,
  productType: true,
  target_gender: true,
  priceMin: true,
  priceMax: true,
  tags: true,
  variants: { select: { color_hex: true }, orderBy: [{ position: "asc" as const }, { id: "asc" as const }] },
};

interface Row {
  id: string;
  productType: string;
  target_gender: TargetGender;
  priceMin: { toString(): string };
  priceMax: { toString(): string };
  tags: string[];
  variants: { color_hex: string | null }[];
}

function attributesOf(p: Row) {
  const hexes = [...new Set(p.variants.map((v) => v.color_hex?.toLowerCase()).filter((h): h is string => !!h))];
  return {
    productType: p.productType,
    target_gender: p.target_gender,
    price: (Number(p.priceMin.toString()) + Number(p.priceMax.toString())) / 2,
    colours: hexes.map(hexToLab).filter((l): l is Lab => !!l),
    tags: p.tags,
  };
}

/** Up to `n` visible products most similar to `productId` (best first), of a compatible gender. */
export async function attributeNeighbours(db: Db, productId: string, targetGender: TargetGender | undefined, n: number, now = new Date()): Promise<string[]> {
  const src = (await db.product.findUnique({ where: { id: productId }, select })) as Row | null;
  if (!src) return [];
  const genders = gendersFor(targetGender ?? src.target_gender);
  const related = (await productTypes(db)).filter((t) => t !== src.productType && typeSimilarity(src.productType, t) > 0);
  const base = (extra: Prisma.Sql, take: number) => db.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM products p
    WHERE ${visibleSql(now)} AND ${genderSql(genders)} AND p.id <> ${productId} AND ${extra}
    ORDER BY p.created_at DESC, p.id ASC LIMIT ${take}`;
  const [same, family, tagged] = await Promise.all([
    base(Prisma.sql`p."productType" = ${src.productType}`, 150),
    related.length ? base(Prisma.sql`p."productType" = ANY(${related}::text[])`, 100) : Promise.resolve([]),
    src.tags.length ? base(Prisma.sql`p.tags && ${src.tags}::text[]`, 100) : Promise.resolve([]),
  ]);
  const ids = [...new Set([...same, ...family, ...tagged].map((r) => r.id))];
  if (!ids.length) return [];
  const [candidates, vectors] = await Promise.all([
    db.product.findMany({ where: { id: { in: ids } }, select }) as Promise<Row[]>,
    db.productEmbedding.findMany({ where: { kind: ATTRIBUTES_KIND, product_id: { in: [productId, ...ids] } }, select: { product_id: true, embedding: true } }),
  ]);
  const vectorOf = new Map(vectors.map((v) => [v.product_id, v.embedding]));
  const srcAttributes = attributesOf(src);
  const srcVector = vectorOf.get(productId);
  return candidates
    .map((c) => {
      let score = attributeScore(srcAttributes, attributesOf(c));
      const v = vectorOf.get(c.id);
      if (srcVector && v) score = 0.6 * score + 0.4 * Math.max(0, cosine(srcVector, v));
      return { id: c.id, score: Math.round(score * 1e4) / 1e4 };
    })
    .filter((s) => s.score > 0.2)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, n)
    .map((s) => s.id);
}
