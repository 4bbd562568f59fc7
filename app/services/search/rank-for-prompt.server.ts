/**
 * Ranking products for a free-text prompt ("linen shirts for men", "cosy winter knits") with the
 * search engine: collection suggestions (POST /collections/generate-suggestions) and the
 * personalised collection use it.
 *
 * The prompt is parsed like a search: gender, price bounds, stores and "in stock" restrict the
 * products; colours, materials and garment types do not (a collection needs enough products)
 * but rank the products that have them higher. Every other word, and the words parsed as colours,
 * materials and garments, is matched with full-text search (typos corrected, word-vector
 * synonyms); a product needs at least one of them, or to be close to the prompt in the vector
 * index. Score: 2 per prompt word matched, + 10 × ts_rank, + 1 for the garment type, + 0.5 for the
 * colour, + 0.5 for the material, + 1.5 × the vector similarity.
 */
import type { TargetGender } from "~/contract/common";
import type { Db } from "~/db.server";
import type { VectorIndex } from "~/providers/vector-index/port";
import { promptRanked, type RankedRow } from "./engine.server";
import type { SearchFilters } from "~/lib/search-filters";
import { parseSearchQuery, type ParsedChip } from "~/lib/query-parser";
import { resolveFilters } from "./search.server";
import { correctTerms } from "./spelling";
import { textEmbedder } from "./text-embedding.server";
import { singular } from "~/lib/search-text";
import { anyOf } from "./tsquery";
import { getSearchVocabulary, vectorNeighbours } from "./vocabulary.server";
import { getWordVectors } from "./word-vectors.server";

export interface PromptRanking {
  ranked: RankedRow[];
  /** What the prompt was understood as. */
  parsed: { text: string; filters: SearchFilters; chips: ParsedChip[]; words: string[] };
}

export async function rankForPrompt(
  deps: { db: Db; vectors?: VectorIndex | null },
  prompt: string,
  opts: { limit: number; gender?: TargetGender | null; excludeIds?: string[] },
): Promise<PromptRanking> {
  const wv = getWordVectors();
  const vocab = await getSearchVocabulary(deps.db, { wordVectors: wv });
  const parsed = parseSearchQuery(prompt, vocab.parseContext);
  const gender = opts.gender === undefined ? parsed.filters.target_gender : opts.gender ?? undefined;
  const hard = resolveFilters(
    {
      target_gender: gender,
      priceMin: parsed.filters.priceMin,
      priceMax: parsed.filters.priceMax,
      storeIds: parsed.filters.storeIds,
      available: parsed.filters.available,
    },
    vocab,
  );
  const soft = resolveFilters({ productTypes: parsed.filters.productTypes, colors: parsed.filters.colors, materials: parsed.filters.materials }, vocab);

  const words = [...new Set([...parsed.terms, ...parsed.boosts])].slice(0, 12);
  const fixed = correctTerms(words, vocab.spelling, (w) => !!wv?.has(w)).terms;
  const wordQueries = fixed
    .map((w) => anyOf([w, ...vectorNeighbours(vocab, wv, w).filter((s) => singular(s) !== singular(w))]))
    .filter((q): q is string => !!q);
  const anyQuery = wordQueries.length ? wordQueries.map((q) => `( ${q} )`).join(" | ") : null;

  let vector: { ids: string[]; scores: number[]; minOnly: number } | null = null;
  const qv = deps.vectors && fixed.length ? textEmbedder.embedQuery(fixed.join(" ")) : null;
  if (deps.vectors && qv) {
    try {
      const matches = (await deps.vectors.query("text", qv, { topK: Math.max(100, opts.limit), targetGenders: hard.genders, excludeIds: opts.excludeIds })).filter(
        (m) => m.score >= 0.2,
      );
      if (matches.length) vector = { ids: matches.map((m) => m.id), scores: matches.map((m) => m.score), minOnly: 0.6 };
    } catch {
      vector = null;
    }
  }
  const filters = opts.excludeIds?.length ? { ...hard, excludeIds: opts.excludeIds } : hard;
  const ranked =
    anyQuery || vector ? await promptRanked(deps.db, { tsquery: anyQuery, vector, filters }, { wordQueries, anyQuery, soft }, opts.limit) : [];
  return { ranked, parsed: { text: parsed.text, filters: parsed.filters, chips: parsed.chips, words: fixed } };
}
