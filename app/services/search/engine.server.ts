/**
 * The search engine's SQL: the matched set (text match and/or vector candidates, visibility,
 * filters), its ranking and a page of it, and the facet counts over it, in one statement each.
 * Runs the same on PostgreSQL 15 and PGlite (core full-text search only). Typos and prefixes are
 * handled before SQL (./spelling.ts against the catalogue's words; the last word as a tsquery prefix).
 *
 * Ranking (sort "Relevance"):
 *   lex   = 10·ts_rank(weights D .1, C .2, B .4, A 1; query terms)  — title ≫ type, tags ≫ vendor ≫ description
 *         + 5·ts_rank(synonyms) + 3·ts_rank(parsed words: colours, materials, garments)
 *         + 1 when the title is the text
 *   score = lex / max(lex)                                 for products without a text vector
 *         = (1 − β)·lex / max(lex) + β·cosine(query, product) for products the vector index returned
 * Ties: newest first, then id. Other sorts: price (priceMin) ascending or descending, or newest,
 * ties by id.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import type { SEARCH_SORTS } from "~/contract/search";

/** Visible products (app/services/visibility.ts) in SQL; `p` is the products alias. */
export const VISIBLE_SQL = Prisma.sql`p.status = 'active' AND p."publishedAt" IS NOT NULL AND p."publishedAt" <= (now() AT TIME ZONE 'UTC')`;

export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Weight of the vector similarity in the blended score. */
export const VECTOR_WEIGHT = 0.3;

/** Filters resolved to the catalogue's own values (see search.server.ts). */
export interface ResolvedFilters {
  genders?: TargetGender[];
  /** Catalogue colour names (Color option values); an empty list matches nothing. */
  colourNames?: string[];
  sizes?: string[];
  productTypes?: string[];
  storeIds?: string[];
  materials?: string[];
  priceMin?: number;
  priceMax?: number;
  available?: boolean;
  /** Published after / up to these times (saved-search notifications). */
  publishedAfter?: Date;
  publishedBefore?: Date;
  /** Leave these products out. */
  excludeIds?: string[];
  /** The catalogue's spellings of the colour and size option names ("Color", "Colour", "Size"…). */
  optionNames?: OptionNames;
}

export interface OptionNames {
  colour: string[];
  size: string[];
}

export const DEFAULT_OPTION_NAMES: OptionNames = { colour: ["Color", "Colour", "color", "colour"], size: ["Size", "size"] };
const optionNames = (f: Pick<ResolvedFilters, "optionNames">) => f.optionNames ?? DEFAULT_OPTION_NAMES;

export interface MatchSpec {
  /** to_tsquery text the product must match; null for none (browse, or vector matches only). */
  tsquery: string | null;
  /** Vector candidates: product ids with their cosine similarity to the query. */
  vector?: { ids: string[]; scores: number[]; minOnly: number } | null;
  filters: ResolvedFilters;
}

export interface RankSpec {
  /** The query terms as typed (and prefix). */
  termsQuery: string | null;
  /** Corrections and synonyms of the terms. */
  expansionsQuery: string | null;
  /** Words parsed into filters (colours, materials, garments). */
  boostQuery: string | null;
  /** The text, for trigram similarity with the title. */
  text: string | null;
}

const WEIGHTS = "{0.1,0.2,0.4,1.0}";

function conditions(f: ResolvedFilters): Prisma.Sql[] {
  const out: Prisma.Sql[] = [VISIBLE_SQL];
  if (f.genders?.length) out.push(Prisma.sql`p.target_gender::text = ANY(${f.genders}::text[])`);
  if (f.productTypes) out.push(Prisma.sql`p."productType" = ANY(${f.productTypes}::text[])`);
  if (f.storeIds) out.push(Prisma.sql`p.store_id = ANY(${f.storeIds}::text[])`);
  if (f.excludeIds?.length) out.push(Prisma.sql`NOT (p.id = ANY(${f.excludeIds}::text[]))`);
  if (f.priceMin !== undefined) out.push(Prisma.sql`p."priceMin" >= ${f.priceMin}::numeric`);
  if (f.priceMax !== undefined) out.push(Prisma.sql`p."priceMin" <= ${f.priceMax}::numeric`);
  if (f.available) out.push(Prisma.sql`p."availableForSale" = true`);
  // Prisma keeps DateTime columns as UTC in `timestamp` (no zone): compare in UTC.
  if (f.publishedAfter) out.push(Prisma.sql`p."publishedAt" > (${f.publishedAfter.toISOString()}::timestamptz AT TIME ZONE 'UTC')`);
  if (f.publishedBefore) out.push(Prisma.sql`p."publishedAt" <= (${f.publishedBefore.toISOString()}::timestamptz AT TIME ZONE 'UTC')`);
  // Option names as the catalogue spells them (not lower(name)): the planner has statistics for them.
  const names = optionNames(f);
  if (f.colourNames) {
    out.push(Prisma.sql`EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id AND o.name = ANY(${names.colour}::text[]) AND o.values && ${f.colourNames}::text[])`);
  }
  if (f.sizes) {
    out.push(Prisma.sql`EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id AND o.name = ANY(${names.size}::text[]) AND o.values && ${f.sizes}::text[])`);
  }
  if (f.materials?.length) {
    const any = Prisma.join(
      f.materials.map((m) => Prisma.sql`phraseto_tsquery('english', ${m})`),
      " || ",
    );
    // A material is named in the product's text, or is one of its material categories (the
    // category by handle or name, with every category under it: "wool" finds merino too).
    out.push(Prisma.sql`(p.search_vector @@ (${any}) OR EXISTS (
      SELECT 1 FROM product_materials pm WHERE pm.product_id = p.id AND pm.material_category_id IN (
        WITH RECURSIVE sub AS (
          SELECT mc.id FROM material_categories mc WHERE mc.handle = ANY(${f.materials}::text[]) OR lower(mc.name) = ANY(${f.materials}::text[])
          UNION SELECT c.id FROM material_categories c JOIN sub ON c.parent_id = sub.id
        ) SELECT id FROM sub)))`);
  }
  return out;
}

/** A tsquery evaluated once per statement (an InitPlan), so ranking does not parse it again for every row. */
const tsq = (text: string) => Prisma.sql`(SELECT to_tsquery('english', ${text}))`;

/**
 * `WITH vec` and the FROM/WHERE of the matched set (alias p, vector scores as v.vscore): one
 * scan of products through the full-text index (or the primary key for vector candidates).
 */
function matchedFrom(m: MatchSpec): { with: Prisma.Sql; from: Prisma.Sql } {
  const conds = conditions(m.filters);
  const vec = m.vector && m.vector.ids.length ? m.vector : null;
  const vecCte = vec
    ? Prisma.sql`vec AS (SELECT t.id, t.vscore FROM unnest(${vec.ids}::text[], ${vec.scores}::float8[]) AS t(id, vscore))`
    : Prisma.sql`vec AS (SELECT NULL::text AS id, NULL::float8 AS vscore WHERE false)`;
  const onlyIds = vec ? vec.ids.filter((_, i) => vec.scores[i] >= vec.minOnly) : [];
  // In WHERE, to_tsquery of the parameter itself: the planner estimates its selectivity from the
  // column's lexeme statistics and picks the index (an InitPlan would hide the value from it).
  if (m.tsquery && onlyIds.length) conds.push(Prisma.sql`(p.search_vector @@ to_tsquery('english', ${m.tsquery}) OR p.id = ANY(${onlyIds}::text[]))`);
  else if (m.tsquery) conds.push(Prisma.sql`p.search_vector @@ to_tsquery('english', ${m.tsquery})`);
  else if (vec) conds.push(Prisma.sql`p.id = ANY(${onlyIds}::text[])`);
  return {
    with: Prisma.sql`WITH ${vecCte}`,
    from: Prisma.sql`FROM products p LEFT JOIN vec v ON v.id = p.id WHERE ${Prisma.join(conds, " AND ")}`,
  };
}

function lexSql(r: RankSpec): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (r.termsQuery) parts.push(Prisma.sql`10 * ts_rank(${WEIGHTS}::float4[], p.search_vector, ${tsq(r.termsQuery)})`);
  if (r.expansionsQuery) parts.push(Prisma.sql`5 * ts_rank(${WEIGHTS}::float4[], p.search_vector, ${tsq(r.expansionsQuery)})`);
  if (r.boostQuery) parts.push(Prisma.sql`3 * ts_rank(${WEIGHTS}::float4[], p.search_vector, ${tsq(r.boostQuery)})`);
  if (r.text) parts.push(Prisma.sql`CASE WHEN lower(p.title) = ${r.text.toLowerCase()} THEN 1 ELSE 0 END`);
  return parts.length ? Prisma.sql`(${Prisma.join(parts, " + ")})::float8` : Prisma.sql`0::float8`;
}

const ORDER: Record<Exclude<SearchSort, "Relevance">, Prisma.Sql> = {
  "Price low to high": Prisma.sql`"priceMin" ASC, id ASC`,
  "Price high to low": Prisma.sql`"priceMin" DESC, id ASC`,
  Newest: Prisma.sql`created_at DESC, id ASC`,
};

export interface RankedRow {
  id: string;
  score: number;
}

/** The score of the matched rows (alias of the materialised set: its `lex`, `vscore` and `mx` = max(lex)). */
const SCORE = Prisma.sql`(CASE WHEN vscore IS NULL THEN (CASE WHEN mx > 0 THEN lex / mx ELSE 0 END)
  ELSE ${1 - VECTOR_WEIGHT}::float8 * (CASE WHEN mx > 0 THEN lex / mx ELSE 0 END) + ${VECTOR_WEIGHT}::float8 * GREATEST(vscore, 0) END)::float8`;

function orderOf(sort: SearchSort): Prisma.Sql {
  return sort === "Relevance" ? Prisma.sql`score DESC, created_at DESC, id ASC` : ORDER[sort];
}

/**
 * The page of the matched set in the sort's order (`take` rows from `offset`) and, with
 * `colourMap`, the facet counts over the whole matched set: one statement, one scan.
 */
export async function searchPage(
  db: Db,
  m: MatchSpec,
  r: RankSpec,
  sort: SearchSort,
  offset: number,
  take: number,
  colourFacets: { value: string; names: string[] }[] | null,
): Promise<{ rows: RankedRow[]; facets: FacetRow[] | null }> {
  const { with: w, from } = matchedFrom(m);
  const lex = sort === "Relevance" ? lexSql(r) : Prisma.sql`0::float8`;
  // The facets need each product's colours and sizes: one index look-up each (product_options by product).
  const names = optionNames(m.filters);
  const options = colourFacets
    ? Prisma.sql`,
      (SELECT o.values FROM product_options o WHERE o.product_id = p.id AND o.name = ANY(${names.colour}::text[]) ORDER BY o.position LIMIT 1) AS colours,
      (SELECT o.values FROM product_options o WHERE o.product_id = p.id AND o.name = ANY(${names.size}::text[]) ORDER BY o.position LIMIT 1) AS sizes`
    : Prisma.empty;
  const matched = Prisma.sql`m AS MATERIALIZED (
      SELECT p.id, p.created_at, p."priceMin", p.target_gender, p."productType", p.store_id, p."availableForSale", p."currencyCode", ${lex} AS lex, v.vscore ${options}
      ${from}
    ),
    page AS (
      SELECT id, score FROM (SELECT m.id, m.created_at, m."priceMin", ${SCORE} AS score FROM m CROSS JOIN (SELECT max(lex) AS mx FROM m) x) s
      ORDER BY ${orderOf(sort)}
      OFFSET ${offset} LIMIT ${take}
    )`;
  const pageSelect = Prisma.sql`SELECT 'page'::text AS f, id AS k, score AS n, (row_number() OVER ())::int AS o FROM page`;
  if (!colourFacets) {
    if (!m.vector?.ids.length) {
      // No blending: the order needs no normalisation over the whole set, so PostgreSQL can walk an
      // index (newest, price) or keep only the best rows while scanning (relevance).
      const rows = await db.$queryRaw<{ id: string; score: number }[]>`
        ${w}
        SELECT id, score FROM (SELECT p.id, p.created_at, p."priceMin", ${lex} AS score ${from}) s
        ORDER BY ${orderOf(sort)}
        OFFSET ${offset} LIMIT ${take}`;
      return { rows: rows.map((x) => ({ id: x.id, score: Math.round(Number(x.score) * 1e4) / 1e4 })), facets: null };
    }
    const rows = await db.$queryRaw<{ f: string; k: string; n: number; o: number }[]>`${w}, ${matched} ${pageSelect}`;
    return { rows: toPage(rows), facets: null };
  }
  const bucket = Prisma.join(
    PRICE_BUCKETS.map((b, i) => (b.max === null ? Prisma.sql`ELSE ${String(i)}` : Prisma.sql`WHEN "priceMin" < ${b.max}::numeric THEN ${String(i)}`)),
    " ",
  );
  // Colour facets: one pass, a product counts once per colour family it has.
  const colourSelect = colourFacets.length
    ? Prisma.sql`UNION ALL
    SELECT 'colour', unnest(${colourFacets.map((c) => c.value)}::text[]),
           unnest(ARRAY[${Prisma.join(colourFacets.map((c) => Prisma.sql`count(*) FILTER (WHERE colours && ${c.names}::text[])`))}])::float8, 0
    FROM m`
    : Prisma.empty;
  const rows = await db.$queryRaw<{ f: string; k: string | null; n: number; o: number }[]>`
    ${w}, ${matched}
    ${pageSelect}
    UNION ALL
    SELECT CASE WHEN GROUPING(target_gender) = 0 THEN 'gender' WHEN GROUPING("productType") = 0 THEN 'type' WHEN GROUPING(store_id) = 0 THEN 'store'
                WHEN GROUPING(bucket) = 0 THEN 'price' WHEN GROUPING(stock) = 0 THEN 'stock' ELSE 'currency' END,
           COALESCE(target_gender::text, "productType", store_id, bucket, stock, "currencyCode"), count(*)::float8, 0
    FROM (SELECT target_gender, "productType", store_id, CASE ${bucket} END AS bucket,
                 CASE WHEN "availableForSale" THEN 'in' ELSE 'out' END AS stock, "currencyCode" FROM m) x
    GROUP BY GROUPING SETS ((target_gender), ("productType"), (store_id), (bucket), (stock), ("currencyCode"))
    ${colourSelect}
    UNION ALL
    SELECT 'size', sv, count(*)::float8, 0 FROM (SELECT unnest(sizes) AS sv FROM m) sz GROUP BY 2`;
  const facets = rows
    .filter((x) => x.f !== "page" && x.k !== null && !(x.f === "colour" && Number(x.n) === 0))
    .map((x) => ({ f: x.f as FacetRow["f"], k: x.k as string, n: Number(x.n) }));
  return { rows: toPage(rows), facets };
}

function toPage(rows: { f: string; k: string | null; n: number; o: number }[]): RankedRow[] {
  return rows
    .filter((x) => x.f === "page")
    .sort((a, b) => Number(a.o) - Number(b.o))
    .map((x) => ({ id: x.k as string, score: Math.round(Number(x.n) * 1e4) / 1e4 }));
}

/** A page of the matched set in the sort's order (`limit + 1` rows tell whether a next page exists). */
export async function rankedPage(db: Db, m: MatchSpec, r: RankSpec, sort: SearchSort, offset: number, take: number): Promise<RankedRow[]> {
  return (await searchPage(db, m, r, sort, offset, take, null)).rows;
}

/** How many products match, counting no further than `cap` (cheap for a small cap). */
export async function countUpTo(db: Db, m: MatchSpec, cap: number): Promise<number> {
  const { with: w, from } = matchedFrom(m);
  const rows = await db.$queryRaw<{ n: number }[]>`${w} SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${cap}) x`;
  return Number(rows[0]?.n ?? 0);
}

/** Price buckets of the facets: min ≤ priceMin < max. */
export const PRICE_BUCKETS: { min: number; max: number | null }[] = [
  { min: 0, max: 50 },
  { min: 50, max: 100 },
  { min: 100, max: 200 },
  { min: 200, max: 500 },
  { min: 500, max: null },
];

export interface FacetRow {
  f: "gender" | "type" | "store" | "price" | "stock" | "currency" | "colour" | "size";
  k: string;
  n: number;
}

export interface PromptRankSpec {
  /** One tsquery per prompt word (with its corrections and synonyms): each one matched adds 2. */
  wordQueries: string[];
  /** All of them together, for ts_rank. */
  anyQuery: string | null;
  /** Soft filters: a product matching them gets a bonus (type 1, colour 0.5, material 0.5). */
  soft: Pick<ResolvedFilters, "productTypes" | "colourNames" | "materials">;
}

/**
 * Ranking for a free-text prompt (collections): the number of prompt words a product matches
 * counts most, then ts_rank, soft-filter bonuses and the vector similarity (1.5 × cosine).
 */
export async function promptRanked(db: Db, m: MatchSpec, r: PromptRankSpec, take: number): Promise<RankedRow[]> {
  const { with: w, from } = matchedFrom(m);
  const parts: Prisma.Sql[] = [Prisma.sql`0`];
  for (const q of r.wordQueries) parts.push(Prisma.sql`(CASE WHEN p.search_vector @@ ${tsq(q)} THEN 2 ELSE 0 END)`);
  if (r.anyQuery) parts.push(Prisma.sql`10 * ts_rank(${WEIGHTS}::float4[], p.search_vector, ${tsq(r.anyQuery)})`);
  if (r.soft.productTypes?.length) parts.push(Prisma.sql`(CASE WHEN p."productType" = ANY(${r.soft.productTypes}::text[]) THEN 1 ELSE 0 END)`);
  if (r.soft.colourNames?.length) {
    parts.push(
      Prisma.sql`(CASE WHEN EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id AND o.name = ANY(${optionNames(m.filters).colour}::text[]) AND o.values && ${r.soft.colourNames}::text[]) THEN 0.5 ELSE 0 END)`,
    );
  }
  if (r.soft.materials?.length) {
    const any = Prisma.join(
      r.soft.materials.map((x) => Prisma.sql`phraseto_tsquery('english', ${x})`),
      " || ",
    );
    parts.push(Prisma.sql`(CASE WHEN p.search_vector @@ (SELECT ${any}) THEN 0.5 ELSE 0 END)`);
  }
  parts.push(Prisma.sql`1.5 * GREATEST(COALESCE(v.vscore, 0), 0)`);
  const rows = await db.$queryRaw<{ id: string; score: number }[]>`
    ${w}
    SELECT id, score FROM (SELECT p.id, p.created_at, (${Prisma.join(parts, " + ")})::float8 AS score ${from}) s
    ORDER BY score DESC, created_at DESC, id ASC
    LIMIT ${take}`;
  return rows.map((x) => ({ id: x.id, score: Math.round(Number(x.score) * 1000) / 1000 }));
}
