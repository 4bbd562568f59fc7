/**
 * Similar products by attributes, and the attribute vector stored per product.
 *
 * Similarity of a candidate to a product is a weighted sum of: product type (same type, same
 * family such as "tops", or same group), gender compatibility, price proximity (log ratio), the
 * colours of the variants (CIEDE2000 distance in Lab), and tag overlap (Jaccard). When both
 * products have an "attributes" vector (sync-pinecone), its cosine joins the score. When both
 * have an "image" vector (the products.index job), the visual similarity of their featured
 * images, read from the vector index, joins it too (`blendImageSimilarity`).
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import type { ProductCard, ProductDetail } from "~/contract/products";
import { isMissingId, toProductGid } from "~/lib/gid";
import { deltaE2000, hexToLab, type Lab } from "./color.server";
import { getProductCards, getProductDetails, visibleProductWhere } from "./catalog.server";
import type { VectorIndex } from "~/providers/vector-index/port";

// ---------------------------------------------------------------------------------------------
// Product-type families

export const TYPE_FAMILIES = [
  "tees",
  "polos",
  "shirts",
  "knitwear",
  "sweats",
  "jackets",
  "coats",
  "tailoring",
  "jeans",
  "trousers",
  "shorts",
  "dresses",
  "skirts",
  "accessories",
  "footwear",
  "other",
] as const;
export type TypeFamily = (typeof TYPE_FAMILIES)[number];

const FAMILY_PATTERNS: [TypeFamily, RegExp][] = [
  ["tees", /\b(t-?shirts?|tees?|tank|vest top)\b/],
  ["polos", /\bpolos?\b/],
  ["sweats", /\b(hood(ie|y)s?|sweatshirts?|sweats?|joggers?)\b/],
  ["knitwear", /\b(knit\w*|sweaters?|jumpers?|cardigans?|pullovers?)\b/],
  ["shirts", /\b(shirts?|blouses?|overshirts?)\b/],
  ["tailoring", /\b(blazers?|suits?|waistcoats?|tailoring)\b/],
  ["coats", /\b(coats?|parkas?|trench\w*|overcoats?)\b/],
  ["jackets", /\b(jackets?|bombers?|gilets?|outerwear)\b/],
  ["jeans", /\b(jeans?|denim)\b/],
  ["trousers", /\b(trousers?|pants?|chinos?|slacks|leggings)\b/],
  ["shorts", /\bshorts?\b/],
  ["dresses", /\b(dress(es)?|gowns?|jumpsuits?)\b/],
  ["skirts", /\bskirts?\b/],
  ["footwear", /\b(shoes?|sneakers?|trainers?|boots?|sandals?|loafers?)\b/],
  ["accessories", /\b(bags?|totes?|hats?|caps?|scarf|scarves|belts?|accessor\w*|socks?|gloves?)\b/],
];

export function typeFamily(productType: string): TypeFamily {
  const t = productType.toLowerCase();
  for (const [family, re] of FAMILY_PATTERNS) if (re.test(t)) return family;
  return "other";
}

/** What a family is worn as: the outfit group (attribute similarity's third tier, and the complements of "bought together"). */
export type TypeGroup = "tops" | "bottoms" | "outerwear" | "dresses" | "footwear" | "accessories" | "other";

const GROUP: Record<TypeFamily, TypeGroup> = {
  tees: "tops",
  polos: "tops",
  shirts: "tops",
  knitwear: "tops",
  sweats: "tops",
  jackets: "outerwear",
  coats: "outerwear",
  tailoring: "outerwear",
  jeans: "bottoms",
  trousers: "bottoms",
  shorts: "bottoms",
  skirts: "bottoms",
  dresses: "dresses",
  accessories: "accessories",
  footwear: "footwear",
  other: "other",
};

/** The outfit group of a product type ("Chinos" → bottoms, "Blazers" → outerwear). */
export const typeGroup = (productType: string): TypeGroup => GROUP[typeFamily(productType)];

export function typeSimilarity(a: string, b: string): number {
  if (a && a.toLowerCase() === b.toLowerCase()) return 1;
  const fa = typeFamily(a);
  const fb = typeFamily(b);
  if (fa !== "other" && fa === fb) return 0.8;
  if (GROUP[fa] !== "other" && GROUP[fa] === GROUP[fb]) return 0.5;
  return 0;
}

export function genderCompatible(wanted: TargetGender, candidate: TargetGender): boolean {
  return wanted === "both" || candidate === "both" || candidate === wanted;
}

const genderSimilarity = (a: TargetGender, b: TargetGender) => (a === b ? 1 : a === "both" || b === "both" ? 0.6 : 0);

export function priceSimilarity(a: number, b: number): number {
  if (a <= 0 || b <= 0) return a === b ? 1 : 0;
  return Math.max(0, 1 - Math.abs(Math.log(a / b)) / Math.log(3));
}

/** Mean, over the first product's colours, of the closeness of the nearest colour of the second. */
export function colourSimilarity(a: Lab[], b: Lab[]): number | null {
  if (!a.length || !b.length) return null;
  const closeness = a.map((x) => Math.max(0, 1 - Math.min(...b.map((y) => deltaE2000(x, y))) / 40));
  return closeness.reduce((s, v) => s + v, 0) / closeness.length;
}

export function tagSimilarity(a: string[], b: string[]): number {
  const A = new Set(a.map((t) => t.toLowerCase()));
  const B = new Set(b.map((t) => t.toLowerCase()));
  if (!A.size || !B.size) return 0;
  let inter = 0;
  for (const t of A) if (B.has(t)) inter++;
  return inter / (A.size + B.size - inter);
}

export function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || !a.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

// ---------------------------------------------------------------------------------------------
// Attribute vectors (ProductEmbedding kind "attributes")

export const ATTRIBUTES_KIND = "attributes";
export const ATTRIBUTES_MODEL = "attributes-v1";
const PRICE_BUCKETS = [30, 60, 100, 200, 400];
const GENDERS: TargetGender[] = ["menswear", "womenswear", "both"];

interface Attributes {
  productType: string;
  target_gender: TargetGender;
  price: number;
  colours: Lab[];
  tags: string[];
}

/**
 * A deterministic vector of a product's attributes: its first two distinct colours in Lab
 * (scaled to 0–1), a one-hot product-type family, a one-hot gender and a one-hot price bucket,
 * blocks weighted (colour 1, type 1, gender 0.5, price 0.7) and L2-normalised.
 */
export function attributeVector(a: Omit<Attributes, "tags">): number[] {
  const colour: number[] = [];
  for (let i = 0; i < 2; i++) {
    const c = a.colours[i];
    colour.push(...(c ? [c.l / 100, (c.a + 128) / 256, (c.b + 128) / 256] : [0, 0, 0]));
  }
  const family = TYPE_FAMILIES.map((f) => (typeFamily(a.productType) === f ? 1 : 0));
  const gender = GENDERS.map((g) => (a.target_gender === g ? 0.5 : 0));
  const bucket = PRICE_BUCKETS.findIndex((limit) => a.price < limit);
  const price = [...PRICE_BUCKETS, Infinity].map((_, i) => (i === (bucket < 0 ? PRICE_BUCKETS.length : bucket) ? 0.7 : 0));
  const v = [...colour, ...family, ...gender, ...price];
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

const attributeSelect = {
  id: true,
  productType: true,
  target_gender: true,
  priceMin: true,
  priceMax: true,
  tags: true,
  variants: { select: { color_hex: true }, orderBy: [{ position: "asc" }, { id: "asc" }] },
} satisfies Prisma.ProductSelect;
type AttributeRow = Prisma.ProductGetPayload<{ select: typeof attributeSelect }>;

function attributesOf(p: AttributeRow): Attributes {
  const hexes = [...new Set(p.variants.map((v) => v.color_hex?.toLowerCase()).filter((h): h is string => !!h))];
  return {
    productType: p.productType,
    target_gender: p.target_gender,
    price: (Number(p.priceMin) + Number(p.priceMax)) / 2,
    colours: hexes.map(hexToLab).filter((l): l is Lab => !!l),
    tags: p.tags,
  };
}

/** Computes and stores the product's attribute vector; null when the product is unknown. */
export async function syncAttributeVector(db: Db, productId: string) {
  const p = await db.product.findUnique({ where: { id: productId }, select: attributeSelect });
  if (!p) return null;
  const embedding = attributeVector(attributesOf(p));
  await db.productEmbedding.upsert({
    where: { product_id_kind: { product_id: productId, kind: ATTRIBUTES_KIND } },
    create: { product_id: productId, kind: ATTRIBUTES_KIND, model: ATTRIBUTES_MODEL, dimensions: embedding.length, embedding },
    update: { model: ATTRIBUTES_MODEL, dimensions: embedding.length, embedding },
  });
  const now = new Date();
  await db.productCompanion.updateMany({ where: { shopify_product_id: productId }, data: { vector_synced_at: now } });
  return { productId, kind: ATTRIBUTES_KIND as "attributes", model: ATTRIBUTES_MODEL, dimensions: embedding.length, vector_synced_at: now, embedding };
}

// ---------------------------------------------------------------------------------------------
// Similar products

const WEIGHTS = { type: 0.35, gender: 0.1, price: 0.15, colour: 0.2, tags: 0.2 };
/** How many candidates are scored at most (the newest of the prefiltered ones). */
const MAX_CANDIDATES = 3000;

export function attributeScore(src: Attributes, cand: Attributes): number {
  const parts: [number, number][] = [
    [WEIGHTS.type, typeSimilarity(src.productType, cand.productType)],
    [WEIGHTS.gender, genderSimilarity(src.target_gender, cand.target_gender)],
    [WEIGHTS.price, priceSimilarity(src.price, cand.price)],
    [WEIGHTS.tags, tagSimilarity(src.tags, cand.tags)],
  ];
  const colour = colourSimilarity(src.colours, cand.colours);
  if (colour !== null) parts.push([WEIGHTS.colour, colour]);
  const weight = parts.reduce((s, [w]) => s + w, 0);
  return parts.reduce((s, [w, v]) => s + w * v, 0) / weight;
}

export interface SimilarQuery {
  target_gender?: TargetGender;
  page: number;
  limit: number;
  completeProductData: boolean;
}

/** Image cosines of our vectors between garments sit in about 0.6–1; this maps them to 0–1. */
const IMAGE_COSINE_FLOOR = 0.6;
const IMAGE_WEIGHT = 0.3;
/** Neighbours asked of the vector index; candidates beyond them count as no closer than the last. */
const IMAGE_NEIGHBOURS = 300;

/**
 * Visual similarity of candidates to the source product, from the vector index ("image"
 * namespace): id → similarity 0–1, only for candidates that have an image vector, and empty when
 * the source has none. Candidates the index did not return among its nearest get the last
 * returned cosine (an upper bound of theirs).
 */
export async function imageSimilarities(db: Db, vectors: VectorIndex, sourceId: string, candidateIds: string[], targetGenders?: TargetGender[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const src = await db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: sourceId, kind: "image" } }, select: { embedding: true, model: true } });
  if (!src || !candidateIds.length) return out;
  const withImage = await db.productEmbedding.findMany({ where: { kind: "image", model: src.model, product_id: { in: candidateIds } }, select: { product_id: true } });
  if (!withImage.length) return out;
  const matches = await vectors.query("image", src.embedding, { topK: IMAGE_NEIGHBOURS, excludeIds: [sourceId], targetGenders });
  const byId = new Map(matches.map((m) => [m.id, m.score]));
  const floor = matches.length >= IMAGE_NEIGHBOURS ? matches[matches.length - 1].score : IMAGE_COSINE_FLOOR;
  for (const { product_id } of withImage) {
    const cos = byId.get(product_id) ?? floor;
    out.set(product_id, Math.max(0, Math.min(1, (cos - IMAGE_COSINE_FLOOR) / (1 - IMAGE_COSINE_FLOOR))));
  }
  return out;
}

export async function similarProducts(
  db: Db,
  rawId: string,
  q: SimilarQuery,
  /** With it, visual similarity joins the score (products with image vectors). */
  vectors?: VectorIndex,
): Promise<{ results: (ProductCard | ProductDetail)[]; scores: number[]; page: number; limit: number; total: number; hasNextPage: boolean }> {
  const empty = { results: [], scores: [], page: q.page, limit: q.limit, total: 0, hasNextPage: false };
  if (isMissingId(rawId)) return empty;
  const id = toProductGid(rawId);
  const source = await db.product.findUnique({ where: { id }, select: attributeSelect });
  if (!source) return empty;
  const src = attributesOf(source);
  const gender = q.target_gender ?? source.target_gender;

  // Prefilter in SQL: same type group, or a shared tag.
  const types = (await db.product.findMany({ distinct: ["productType"], select: { productType: true } })).map((r) => r.productType);
  const related = types.filter((t) => typeSimilarity(src.productType, t) > 0);
  const candidates = await db.product.findMany({
    where: {
      AND: [
        visibleProductWhere(),
        { id: { not: id } },
        gender === "both" ? {} : { target_gender: { in: [gender, "both"] } },
        { OR: [{ productType: { in: related } }, ...(src.tags.length ? [{ tags: { hasSome: src.tags } }] : [])] },
      ],
    },
    select: attributeSelect,
    orderBy: [{ created_at: "desc" }, { id: "asc" }],
    take: MAX_CANDIDATES,
  });
  const attributeVectors = new Map(
    (
      await db.productEmbedding.findMany({
        where: { kind: ATTRIBUTES_KIND, product_id: { in: [id, ...candidates.map((c) => c.id)] } },
        select: { product_id: true, embedding: true },
      })
    ).map((e) => [e.product_id, e.embedding]),
  );
  const srcVector = attributeVectors.get(id);
  const compatible = candidates.filter((c) => genderCompatible(gender, c.target_gender));
  let visual = new Map<string, number>();
  if (vectors) {
    try {
      visual = await imageSimilarities(db, vectors, id, compatible.map((c) => c.id), gender === "both" ? undefined : [gender, "both"]);
    } catch {
      visual = new Map(); // the index is unreachable: attributes alone
    }
  }
  const scored = compatible
    .map((c) => {
      let score = attributeScore(src, attributesOf(c));
      const v = attributeVectors.get(c.id);
      if (srcVector && v) score = 0.6 * score + 0.4 * Math.max(0, cosine(srcVector, v));
      const image = visual.get(c.id);
      if (image !== undefined) score = (1 - IMAGE_WEIGHT) * score + IMAGE_WEIGHT * image;
      return { id: c.id, score: Math.round(score * 1e4) / 1e4 };
    })
    .filter((s) => s.score > 0.2)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

  const start = (q.page - 1) * q.limit;
  const page = scored.slice(start, start + q.limit);
  const ids = page.map((s) => s.id);
  const results: (ProductCard | ProductDetail)[] = q.completeProductData ? await getProductDetails(db, ids) : await getProductCards(db, ids);
  const scoreOf = new Map(page.map((s) => [s.id, s.score]));
  return {
    results,
    scores: results.map((r) => scoreOf.get(r.id) ?? 0),
    page: q.page,
    limit: q.limit,
    total: scored.length,
    hasNextPage: start + q.limit < scored.length,
  };
}
