/**
 * POST /search: parse → correct → plan → match, rank and page in SQL → facets → product cards.
 *
 * - Parsing (./parser.ts) turns filter words into filters and chips, unless `skipAutoParsing`.
 *   The caller's filters and the parsed ones are merged (lists united; the caller's single values win).
 * - The text left is matched with PostgreSQL full-text search on `products.search_vector`: every
 *   word must match (or any word, when no product has them all), the last word also as a prefix,
 *   each word with its typo correction (./spelling.ts, against the catalogue's words) and its
 *   word-vector synonyms from the catalogue's words ("jumper" → sweater).
 * - Garment words parsed into a product-type filter that leaves nothing are searched as words.
 * - With a vector index (`ctx.vectors`, namespace "text") and when the words match fewer than 100
 *   products, the query's text vector brings close products too and blends its similarity into the
 *   score (./engine.server.ts); well-covered queries are ranked by their words and skip the call.
 * - Facets are counted in SQL over the matched set and cached for a short while per search id, so
 *   paging does not count them again.
 */
import type { Db } from "~/db.server";
import type { ProductCard } from "~/contract/products";
import type { SearchResponse } from "~/contract/search";
import { invalid } from "~/lib/domain-errors";
import type { VectorIndex } from "~/providers/vector-index/port";
import { getProductCards } from "../catalog.server";
import { colourLabel, resolveColour } from "~/lib/search-colours";
import { countUpTo, PRICE_BUCKETS, searchPage, type FacetRow, type MatchSpec, type RankSpec, type RankedRow, type ResolvedFilters, type SearchSort } from "./engine.server";
import { canonicalFilters, mergeFilters, searchIdOf, type SearchFilters } from "~/lib/search-filters";
import { parseSearchQuery, plainTerms, type ParsedChip } from "~/lib/query-parser";
import { correctTerms } from "./spelling";
import { textEmbedder } from "./text-embedding.server";
import { singular, tokenize } from "~/lib/search-text";
import { anyOf, buildTsQuery } from "./tsquery";
import { colourFacetValue, getSearchVocabulary, vectorNeighbours, type SearchVocabulary } from "./vocabulary.server";
import { getWordVectors, type WordVectors } from "./word-vectors.server";
import { matchedVariants } from "./matched-variants.server";

export interface SearchDeps {
  db: Db;
  /** The vector index ("text" namespace); without it the search ranks lexically only. */
  vectors?: VectorIndex | null;
  log?: { warn(obj: object, msg?: string): void };
  /** Word vectors (defaults to app/data/word-vectors.bin; null turns synonyms off). */
  wordVectors?: WordVectors | null;
}

export interface SearchRequest {
  query: string;
  page: number;
  limit: number;
  filters?: SearchFilters;
  sort: SearchSort;
  cursor?: string;
  skipAutoParsing: boolean;
}

/** How many vector neighbours are asked of the index, and the similarity they need. */
const VECTOR_TOP_K = 100;
/**
 * The vector index is asked when the text matches fewer products than this: sparse or unknown
 * words need its recall, while a well-covered query is ranked by its words (and saves the call).
 */
const VECTOR_WHEN_FEWER_THAN = 100;
const VECTOR_MIN_BLEND = 0.2;
/** A product found only by its vector needs this similarity (and to be near the best one). */
const VECTOR_MIN_ONLY = 0.6;
const MAX_TERMS = 8;

export interface SearchPlan {
  raw: string;
  text: string;
  corrected: string | null;
  searchId: string;
  applied: SearchFilters;
  chips: ParsedChip[];
  resolved: ResolvedFilters;
  /** The text's terms after correction, each with its synonyms. */
  terms: { word: string; typed: string; synonyms: string[]; prefix: boolean }[];
  boosts: string[];
}

/** Filters in the catalogue's own values: colour words → colour names, types in their spelling. */
export function resolveFilters(f: SearchFilters, vocab: Pick<SearchVocabulary, "colourNames" | "productTypes" | "sizes" | "optionNames">): ResolvedFilters {
  const spelled = (values: string[] | undefined, known: readonly string[]) =>
    values?.map((v) => known.find((k) => k.toLowerCase() === v.toLowerCase()) ?? v);
  // Sizes compare without case: every catalogue spelling of each size.
  const sizes = f.sizes
    ? [...new Set(f.sizes.flatMap((v) => [v, ...vocab.sizes.filter((k) => k.toLowerCase() === v.toLowerCase())]))]
    : undefined;
  return {
    optionNames: vocab.optionNames,
    genders: f.target_gender && f.target_gender !== "both" ? [f.target_gender, "both"] : undefined,
    colourNames: f.colors ? [...new Set(f.colors.flatMap((c) => resolveColour(c, vocab.colourNames)))] : undefined,
    sizes,
    productTypes: spelled(f.productTypes, vocab.productTypes),
    storeIds: f.storeIds,
    materials: f.materials,
    priceMin: f.priceMin,
    priceMax: f.priceMax,
    available: f.available,
  };
}

/** Parses and corrects a query, merges the filters and works out the search id. */
export function planSearch(
  vocab: SearchVocabulary,
  wv: WordVectors | null,
  input: { query: string; filters?: SearchFilters; skipAutoParsing: boolean },
  opts: { parseTypes?: boolean } = {},
): SearchPlan {
  const raw = input.query;
  const ctx = opts.parseTypes === false ? { ...vocab.parseContext, typeFamily: undefined } : vocab.parseContext;
  const parsed = input.skipAutoParsing
    ? { text: raw.trim().replace(/\s+/g, " "), terms: plainTerms(raw), filters: {} as SearchFilters, chips: [] as ParsedChip[], boosts: [] as string[] }
    : parseSearchQuery(raw, ctx);
  const explicit = canonicalFilters(input.filters);
  const applied = mergeFilters(explicit, parsed.filters);
  // Chips for what parsing added (a value the caller already had is not the parser's to remove).
  const has = (key: keyof SearchFilters, value: unknown) => {
    const v = explicit[key];
    if (Array.isArray(v)) return v.some((x) => String(x).toLowerCase() === String(value).toLowerCase());
    return v !== undefined;
  };
  const chips = parsed.chips.filter((c) => !has(c.key, c.value) && c.key in applied);

  const typed = parsed.terms.slice(0, MAX_TERMS);
  const fix = correctTerms(typed, vocab.spelling, (w) => !!wv?.has(w));
  let corrected: string | null = null;
  if (fix.changed) {
    corrected = tokenize(parsed.text)
      .map((t) => fix.replaced.get(t.norm) ?? t.raw)
      .join(" ");
  }
  const endsWithSpace = /\s$/.test(raw);
  const terms = typed.map((t, i) => {
    const word = fix.terms[i];
    return {
      word,
      typed: t,
      // Synonyms that are only another form of the word ("shirts" for "shirt") add nothing.
      synonyms: vectorNeighbours(vocab, wv, word).filter((s) => singular(s) !== singular(word) && singular(s) !== singular(t)),
      prefix: i === typed.length - 1 && !endsWithSpace && word === t && t.length >= 2 && /^[a-z]/.test(t),
    };
  });
  return {
    raw,
    text: parsed.text,
    corrected,
    searchId: searchIdOf(parsed.text, applied),
    applied,
    chips,
    resolved: resolveFilters(applied, vocab),
    terms,
    boosts: parsed.boosts,
  };
}

/** The SQL match and ranking of a plan. `mode` "any" lets one word suffice. */
export function planQueries(plan: SearchPlan, mode: "all" | "any"): { match: MatchSpec; rank: RankSpec } {
  const tsquery = buildTsQuery(
    plan.terms.map((t) => ({ words: [t.word, ...t.synonyms], prefix: t.prefix ? t.typed : undefined })),
    mode,
  );
  const termsQuery = buildTsQuery(
    plan.terms.map((t) => ({ words: [t.word], prefix: t.prefix ? t.typed : undefined })),
    "any",
  );
  const synonyms = plan.terms.flatMap((t) => t.synonyms);
  const text = plan.terms.map((t) => t.word).join(" ");
  return {
    match: { tsquery, filters: plan.resolved },
    rank: {
      termsQuery,
      expansionsQuery: synonyms.length ? anyOf(synonyms) : null,
      boostQuery: plan.boosts.length ? anyOf(plan.boosts) : null,
      text: text || null,
    },
  };
}

/** The query's nearest products in the vector index ("text" namespace), or null. */
async function vectorCandidates(deps: SearchDeps, plan: SearchPlan): Promise<MatchSpec["vector"]> {
  if (!deps.vectors || plan.terms.length === 0) return null;
  const qv = textEmbedder.embedQuery(plan.terms.map((t) => t.word).join(" "));
  if (!qv) return null;
  try {
    const matches = await deps.vectors.query("text", qv, { topK: VECTOR_TOP_K, targetGenders: plan.resolved.genders });
    const kept = matches.filter((m) => m.score >= VECTOR_MIN_BLEND);
    if (!kept.length) return null;
    const best = Math.max(...kept.map((m) => m.score));
    return { ids: kept.map((m) => m.id), scores: kept.map((m) => m.score), minOnly: Math.max(VECTOR_MIN_ONLY, best - 0.15) };
  } catch (e) {
    // The index is an enhancement: a failing index leaves the lexical search working.
    deps.log?.warn({ err: e }, "vector index query failed; searching lexically");
    return null;
  }
}

/**
 * Runs a plan's matching: "all words" first, "any word" when nothing has them all; the vector
 * index joins in when the words match few products.
 */
export async function resolveMatch(deps: SearchDeps, plan: SearchPlan) {
  let mode: "all" | "any" = "all";
  let q = planQueries(plan, mode);
  if (!q.match.tsquery) return { mode, match: q.match, rank: q.rank };
  // The count only decides the "any word" fallback and whether to ask the vector index.
  if (plan.terms.length < 2 && !deps.vectors) return { mode, match: q.match, rank: q.rank };
  let count = await countUpTo(deps.db, q.match, VECTOR_WHEN_FEWER_THAN);
  if (count === 0 && plan.terms.length >= 2) {
    mode = "any";
    q = planQueries(plan, mode);
    count = await countUpTo(deps.db, q.match, VECTOR_WHEN_FEWER_THAN);
  }
  const vector = count < VECTOR_WHEN_FEWER_THAN ? await vectorCandidates(deps, plan) : null;
  return { mode, match: { ...q.match, vector }, rank: q.rank };
}

/**
 * Plans a search; when garment words parsed into a product-type filter leave nothing to show
 * ("track pants": the catalogue files them under Joggers), they are searched as words instead.
 * Only the type filter (with the words) is tested: when the price, colour or size is what leaves
 * nothing ("jeans under 60"), the shopper asked for that garment, and other garments are not an answer.
 */
export async function planWithRelaxation(
  deps: SearchDeps,
  vocab: SearchVocabulary,
  wv: WordVectors | null,
  input: { query: string; filters?: SearchFilters; skipAutoParsing: boolean },
): Promise<SearchPlan> {
  const plan = planSearch(vocab, wv, input);
  if (input.skipAutoParsing || !plan.chips.some((c) => c.key === "productTypes")) return plan;
  const loose = planQueries(plan, plan.terms.length >= 2 ? "any" : "all");
  const typeOnly = { optionNames: plan.resolved.optionNames, productTypes: plan.resolved.productTypes };
  if ((await countUpTo(deps.db, { ...loose.match, filters: typeOnly }, 1)) > 0) return plan;
  return planSearch(vocab, wv, input, { parseTypes: false });
}

// --- cursors -------------------------------------------------------------------------------------

export function encodeSearchCursor(searchId: string, offset: number): string {
  return Buffer.from(JSON.stringify({ v: 1, s: searchId, o: offset })).toString("base64url");
}

export function decodeSearchCursor(cursor: string, searchId: string): number {
  let v: { v?: unknown; s?: unknown; o?: unknown };
  try {
    v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as typeof v;
  } catch {
    throw invalid("cursor is invalid");
  }
  if (!v || typeof v !== "object" || v.v !== 1 || typeof v.o !== "number" || !Number.isInteger(v.o) || v.o < 0 || typeof v.s !== "string") {
    throw invalid("cursor is invalid");
  }
  if (v.s !== searchId) throw invalid("cursor belongs to another search: send the same query and filters, or drop the cursor");
  return v.o;
}

// --- facets --------------------------------------------------------------------------------------

type Facets = SearchResponse["filters"]["facets"];
const FACET_TTL_MS = 30_000;
const facetCache = new WeakMap<Db, Map<string, { at: number; facets: Facets }>>();

/** Drops cached facet counts (tests; after catalogue changes they expire by themselves in 30 s). */
export function clearSearchCaches(db: Db) {
  facetCache.delete(db);
}

const SIZE_ORDER = ["XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL", "XXXXL"];
function sizeRank(s: string): [number, number, string] {
  const u = s.toUpperCase();
  const letter = SIZE_ORDER.indexOf(u);
  if (letter >= 0) return [0, letter, u];
  const num = /^(?:([A-Z]{2}) )?(\d+(?:\.\d+)?)$/.exec(u);
  if (num) return [num[1] ? 2 : 1, Number(num[2]), num[1] ?? ""];
  return [3, 0, u];
}
export function compareSizes(a: string, b: string): number {
  const x = sizeRank(a);
  const y = sizeRank(b);
  return x[0] - y[0] || (x[0] === 2 && x[2] !== y[2] ? (x[2] < y[2] ? -1 : 1) : 0) || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
}

function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

export function buildFacets(rows: FacetRow[], vocab: Pick<SearchVocabulary, "storeNames">): Facets {
  const of = (f: FacetRow["f"]) => rows.filter((r) => r.f === f);
  const genderCount = (k: string) => of("gender").find((r) => r.k === k)?.n ?? 0;
  const total = of("gender").reduce((s, r) => s + r.n, 0);
  const both = genderCount("both");
  const currency = [...of("currency")].sort((a, b) => b.n - a.n)[0]?.k ?? "USD";
  const byCount = <T extends { count: number; label: string }>(a: T, b: T) => b.count - a.count || a.label.localeCompare(b.label);
  const stock = (k: string) => of("stock").find((r) => r.k === k)?.n ?? 0;
  return {
    total,
    gender: [
      { value: "menswear", label: "Men", count: genderCount("menswear") + both },
      { value: "womenswear", label: "Women", count: genderCount("womenswear") + both },
      { value: "both", label: "All", count: total },
    ],
    price: PRICE_BUCKETS.map((b, i) => ({
      key: b.max === null ? `${b.min}+` : `${b.min}-${b.max}`,
      label: b.min === 0 ? `Under ${money(b.max!, currency)}` : b.max === null ? `${money(b.min, currency)} and over` : `${money(b.min, currency)} – ${money(b.max, currency)}`,
      min: b.min,
      max: b.max === null ? null : Math.round((b.max - 0.01) * 100) / 100,
      count: of("price").find((r) => r.k === String(i))?.n ?? 0,
    })),
    colors: of("colour")
      .map((r) => ({ value: r.k, label: colourLabel(r.k), count: r.n }))
      .sort(byCount),
    sizes: of("size")
      .map((r) => ({ value: r.k, label: r.k, count: r.n }))
      .sort((a, b) => compareSizes(a.value, b.value)),
    productTypes: of("type")
      .map((r) => ({ value: r.k, label: r.k, count: r.n }))
      .sort(byCount),
    stores: of("store")
      .map((r) => ({ id: r.k, name: vocab.storeNames.get(r.k) ?? r.k, count: r.n }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    availability: { inStock: stock("in"), outOfStock: stock("out") },
  };
}

/** The catalogue's colour names grouped by facet value (family, or the name itself when it has none). */
function colourFacetGroups(vocab: Pick<SearchVocabulary, "colourNames">): { value: string; names: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const name of vocab.colourNames) {
    const v = colourFacetValue(name);
    groups.set(v, [...(groups.get(v) ?? []), name]);
  }
  return [...groups].map(([value, names]) => ({ value, names }));
}

function cachedFacets(db: Db, key: string): Facets | null {
  const hit = facetCache.get(db)?.get(key);
  return hit && Date.now() - hit.at < FACET_TTL_MS ? hit.facets : null;
}

function cacheFacets(db: Db, key: string, facets: Facets) {
  let cache = facetCache.get(db);
  if (!cache) {
    cache = new Map();
    facetCache.set(db, cache);
  }
  if (cache.size >= 500) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: Date.now(), facets });
}

// --- the variant each card shows ----------------------------------------------------------------------

/**
 * The catalogue colours a search asked for: the colour filters (parsed from the words or sent,
 * e.g. a colour facet); with `skipAutoParsing`, the colour words of the text.
 */
export function matchColours(plan: Pick<SearchPlan, "resolved" | "raw">, vocab: Pick<SearchVocabulary, "colourNames">, input: { skipAutoParsing: boolean }): string[] {
  if (plan.resolved.colourNames?.length) return plan.resolved.colourNames;
  if (!input.skipAutoParsing || !plan.raw.trim()) return [];
  const words = parseSearchQuery(plan.raw, { colourNames: vocab.colourNames }).filters.colors ?? [];
  return [...new Set(words.flatMap((c) => resolveColour(c, vocab.colourNames)))];
}

/** The cards with the variant of the asked colour (its image and id) on each product that has one. */
export async function withMatchedVariants(db: Db, cards: ProductCard[], colourNames: readonly string[], resolved?: Pick<ResolvedFilters, "sizes" | "optionNames">): Promise<ProductCard[]> {
  if (!colourNames.length || !cards.length) return cards;
  const matched = await matchedVariants(db, cards.map((c) => c.id), { colourNames, sizes: resolved?.sizes, optionNames: resolved?.optionNames });
  return cards.map((c) => {
    const v = matched.get(c.id);
    return v ? { ...c, matchedVariant: v } : c;
  });
}

// --- the search -----------------------------------------------------------------------------------

export async function searchProducts(deps: SearchDeps, input: SearchRequest): Promise<SearchResponse> {
  const wv = deps.wordVectors === undefined ? getWordVectors() : deps.wordVectors;
  const vocab = await getSearchVocabulary(deps.db, { wordVectors: wv });
  const plan = await planWithRelaxation(deps, vocab, wv, input);

  const offset = input.cursor ? decodeSearchCursor(input.cursor, plan.searchId) : (input.page - 1) * input.limit;
  const currentPage = Math.floor(offset / input.limit) + 1;

  const { mode, match, rank } = await resolveMatch(deps, plan);
  // The facets of a search are counted once and reused while its pages are read.
  const facetKey = `${plan.searchId}|${mode}|${match.vector ? match.vector.ids.join(",") : ""}`;
  let facets = cachedFacets(deps.db, facetKey);
  const { rows, facets: counted } = await searchPage(deps.db, match, rank, input.sort, offset, input.limit + 1, facets ? null : colourFacetGroups(vocab));
  if (!facets) {
    facets = buildFacets(counted ?? [], vocab);
    cacheFacets(deps.db, facetKey, facets);
  }
  const hasNextPage = rows.length > input.limit;
  const page: RankedRow[] = rows.slice(0, input.limit);
  const cards: ProductCard[] = await getProductCards(deps.db, page.map((r) => r.id));
  const results = await withMatchedVariants(deps.db, cards, matchColours(plan, vocab, input), plan.resolved);

  return {
    results,
    filters: { applied: plan.applied, parsed: plan.chips, facets },
    query: { raw: plan.raw, text: plan.text, corrected: plan.corrected, searchId: plan.searchId },
    pagination: {
      hasNextPage,
      hasPreviousPage: offset > 0,
      currentPage,
      cursor: hasNextPage ? encodeSearchCursor(plan.searchId, offset + input.limit) : null,
    },
  };
}
