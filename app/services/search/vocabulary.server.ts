/**
 * The catalogue's vocabulary as the search needs it, read from the database and cached briefly
 * per database client: store names, colour and size names (option values), product types, and
 * the words of the visible products (for typo correction and the parser's material check), plus
 * the word vectors of those words (for synonyms).
 *
 * The words, colours, sizes and types are fresh for VOCABULARY_TTL_MS, the store names for
 * STORES_TTL_MS; after that the cached ones are still served while one refresh runs in the
 * background, so no request waits for them except the very first.
 */
import type { Db } from "~/db.server";
import { colourFamily } from "~/lib/search-colours";
import { DEFAULT_OPTION_NAMES, VISIBLE_SQL, type OptionNames } from "./engine.server";
import type { ParseContext } from "~/lib/query-parser";
import { typeFamily } from "../similar-products.server";
import { buildSpellingIndex, type SpellingIndex } from "./spelling";
import { normalizeText } from "~/lib/search-text";
import { getWordVectors, type WordVectors } from "./word-vectors.server";

/** The catalogue's words, colours, sizes and types: fresh for 5 minutes (reading them scans the catalogue). */
export const VOCABULARY_TTL_MS = 5 * 60_000;
/** Store names: fresh for a minute (one small query). */
export const STORES_TTL_MS = 60_000;


export interface SearchVocabulary {
  loadedAt: number;
  stores: { id: string; name: string }[];
  storeNames: Map<string, string>;
  colourNames: string[];
  sizes: string[];
  /** The catalogue's spellings of the colour and size option names. */
  optionNames: OptionNames;
  productTypes: string[];
  /** Catalogue word → number of (product, field) uses. */
  words: Map<string, number>;
  spelling: SpellingIndex;
  parseContext: ParseContext;
  /** Catalogue words that have a word vector, and their vectors (row-major, unit length). */
  vectorWords: string[];
  vectorMatrix: Float32Array;
}

interface CacheEntry {
  value?: SearchVocabulary;
  loading?: Promise<SearchVocabulary>;
  storesAt?: number;
  storesLoading?: Promise<void>;
}
const cache = new WeakMap<Db, CacheEntry>();

/** The vocabulary with other store names (the parser's context follows). */
function withStores(v: SearchVocabulary, stores: { id: string; name: string }[]): SearchVocabulary {
  return { ...v, stores, storeNames: new Map(stores.map((s) => [s.id, s.name])), parseContext: { ...v.parseContext, stores } };
}

const loadStores = (db: Db) => db.store.findMany({ select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });

function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const w of normalizeText(text).replace(/'/g, "").split(/[^a-z0-9-]+/)) {
    const t = w.replace(/^-+|-+$/g, "");
    if (t.length < 2 || /^\d+$/.test(t)) continue;
    out.push(t);
    if (t.includes("-")) for (const part of t.split("-")) if (part.length >= 2) out.push(part);
  }
  return out;
}

async function load(db: Db, wv: WordVectors | null): Promise<SearchVocabulary> {
  const [stores, options, types, wordRows] = await Promise.all([
    loadStores(db),
    db.$queryRaw<{ option: string; value: string }[]>`
      SELECT DISTINCT o.name AS option, v AS value
      FROM product_options o
      JOIN products p ON p.id = o.product_id
      CROSS JOIN LATERAL unnest(o.values) AS v
      WHERE lower(o.name) IN ('color', 'colour', 'size') AND ${VISIBLE_SQL}`,
    db.$queryRaw<{ t: string }[]>`SELECT DISTINCT p."productType" AS t FROM products p WHERE p."productType" <> '' AND ${VISIBLE_SQL}`,
    // Words of the title, type, vendor and tags (descriptions add little but noise and cost).
    db.$queryRaw<{ w: string; n: number }[]>`
      SELECT w, count(*)::int AS n
      FROM products p
      CROSS JOIN LATERAL regexp_split_to_table(lower(p.title || ' ' || p."productType" || ' ' || p.vendor || ' ' || array_to_string(p.tags, ' ')), '[[:space:],.;:!?()/&"+*|]+') AS w
      WHERE ${VISIBLE_SQL} AND length(w) > 1
      GROUP BY w`,
  ]);
  const words = new Map<string, number>();
  for (const r of wordRows) for (const w of wordsOf(r.w)) words.set(w, (words.get(w) ?? 0) + Number(r.n));
  const isSize = (o: { option: string }) => o.option.toLowerCase() === "size";
  const colourNames = [...new Set(options.filter((o) => !isSize(o)).map((o) => o.value))].sort();
  const sizes = [...new Set(options.filter(isSize).map((o) => o.value))].sort();
  const optionNames: OptionNames = {
    colour: [...new Set([...DEFAULT_OPTION_NAMES.colour, ...options.filter((o) => !isSize(o)).map((o) => o.option)])],
    size: [...new Set([...DEFAULT_OPTION_NAMES.size, ...options.filter(isSize).map((o) => o.option)])],
  };
  for (const c of colourNames) for (const w of wordsOf(c)) words.set(w, (words.get(w) ?? 0) + 1);
  const productTypes = types.map((t) => t.t).sort();

  const vectorWords: string[] = [];
  const rows: Float32Array[] = [];
  if (wv) {
    for (const w of words.keys()) {
      if (w.length < 3) continue;
      const v = wv.vector(w);
      if (v) {
        vectorWords.push(w);
        rows.push(v);
      }
    }
  }
  const vectorMatrix = new Float32Array(rows.length * (wv?.dimensions ?? 0));
  rows.forEach((r, i) => vectorMatrix.set(r, i * r.length));

  const hasWord = (w: string) => words.has(w);
  return {
    loadedAt: Date.now(),
    stores,
    storeNames: new Map(stores.map((s) => [s.id, s.name])),
    colourNames,
    sizes,
    optionNames,
    productTypes,
    words,
    spelling: buildSpellingIndex(words),
    parseContext: { colourNames, productTypes, stores, sizes, hasWord, typeFamily },
    vectorWords,
    vectorMatrix,
  };
}

/** The cached vocabulary of this database (loads it on first use, refreshes it when stale). */
export async function getSearchVocabulary(db: Db, opts: { wordVectors?: WordVectors | null } = {}): Promise<SearchVocabulary> {
  let entry = cache.get(db);
  if (!entry) {
    entry = {};
    cache.set(db, entry);
  }
  const wv = opts.wordVectors === undefined ? getWordVectors() : opts.wordVectors;
  const refresh = () => {
    const e = entry!;
    if (!e.loading) {
      e.loading = load(db, wv)
        .then((v) => {
          e.value = v;
          e.storesAt = v.loadedAt;
          return v;
        })
        .finally(() => {
          e.loading = undefined;
        });
    }
    return e.loading;
  };
  if (!entry.value) return refresh();
  const now = Date.now();
  if (now - entry.value.loadedAt > VOCABULARY_TTL_MS) void refresh().catch(() => undefined);
  else if (now - (entry.storesAt ?? 0) > STORES_TTL_MS && !entry.storesLoading && !entry.loading) {
    const e = entry;
    e.storesLoading = loadStores(db)
      .then((stores) => {
        if (e.value) e.value = withStores(e.value, stores);
        e.storesAt = Date.now();
      })
      .catch(() => undefined)
      .finally(() => {
        e.storesLoading = undefined;
      });
  }
  return entry.value;
}

/** The next search refreshes the vocabulary in the background (it keeps serving the current one). */
export function markSearchVocabularyStale(db: Db) {
  const e = cache.get(db);
  if (e?.value) e.value = { ...e.value, loadedAt: 0 };
}

/** Drops the cached vocabulary (tests). */
export function invalidateSearchVocabulary(db: Db) {
  cache.delete(db);
}

/** The family a catalogue colour name belongs to, or its own lower-case name when it has none. */
export function colourFacetValue(name: string): string {
  return colourFamily(name) ?? name.toLowerCase();
}

/**
 * Catalogue words close to a query word in the word-vector space (synonyms): cosine ≥ 0.85 and
 * within 0.05 of the best, at most 3, never the word itself.
 */
export function vectorNeighbours(vocab: SearchVocabulary, wv: WordVectors | null, word: string): string[] {
  if (!wv || vocab.vectorWords.length === 0) return [];
  const q = wv.vector(word);
  if (!q) return [];
  const dims = wv.dimensions;
  const scored: [string, number][] = [];
  let best = 0;
  for (let i = 0; i < vocab.vectorWords.length; i++) {
    const w = vocab.vectorWords[i];
    if (w === word) continue;
    let dot = 0;
    const base = i * dims;
    for (let k = 0; k < dims; k++) dot += q[k] * vocab.vectorMatrix[base + k];
    if (dot >= 0.85) {
      scored.push([w, dot]);
      if (dot > best) best = dot;
    }
  }
  return scored
    .filter(([, s]) => s >= best - 0.05)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([w]) => w);
}
