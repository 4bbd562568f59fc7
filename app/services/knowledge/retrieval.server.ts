/**
 * Knowledge retrieval: the entries that answer a shopper's question, best first, the way the
 * product search ranks (app/services/search): PostgreSQL full text for the words themselves, the
 * word vectors (app/data/word-vectors.bin) for what they mean ("launder" finds washing, "jumper"
 * finds knitwear), and exact tag matches. A product the question is about adds its material and
 * garment words as context ("does this run small?" on a pair of jeans prefers the jeans fit guide).
 *
 * score = 0.55·lexical + 0.35·semantic + 0.3·tags (+ up to 0.3 context)
 *   lexical  = ts_rank of the question's words (title A, tags B, content D), capped at 1
 *   semantic = cosine of the question's word-vector mean with the entry's (title, tags, opening)
 *   tags     = the question's words that are tags of the entry (0.5 each) and the topics its
 *              words name (TOPIC_TAGS: "dryer" → care; 0.25 each), at most 1
 *   context  = the product's words that are tags of the entry (0.15 each, at most 0.3), only for
 *              entries the question itself already matches
 * An entry is cited from KNOWLEDGE_CITE_SCORE up when the question's own words match it (full text
 * or a tag): meaning alone is not enough to quote a guide to a shopper. Entries are few (hundreds): the lexical pass is
 * one query over the table; the entries' vectors are computed once per version and kept in memory.
 */
import { Prisma } from "@prisma/client";
import type { KnowledgeEntry } from "~/contract/knowledge";
import { normaliseKnowledgeTag } from "~/contract/knowledge";
import type { Db } from "~/db.server";
import { anyOf } from "../search/tsquery";
import { singular } from "~/lib/search-text";
import { MATERIALS } from "~/lib/query-parser";
import { FASHION_TERMS } from "../search/fashion-terms";
import { centroidOf, cosineSimilarity, embedWeighted, embeddingWords, getWordVectors, type WordVectors } from "../search/word-vectors.server";
import { toKnowledgeEntry } from "./entries.server";

/** The score from which the assistant cites an entry (tuned on tests/fixtures/knowledge-questions.json). */
export const KNOWLEDGE_CITE_SCORE = 0.3;
export const KNOWLEDGE_RANK_WEIGHTS = { lexical: 0.55, semantic: 0.35, tags: 0.3 } as const;

/** Question words that say nothing about the subject. */
const QUESTION_WORDS = new Set(
  "how why when where what whats hows wheres which who should would could can may might tell know best way ways good right ok okay really much many often long there here want like".split(" "),
);

/**
 * Words of a question that name a topic the entries are tagged with ("can it go in the dryer" is
 * about care): each counts as that tag for the tag score, as the search's synonyms count as words.
 */
const TOPIC_TAGS: Record<string, string> = Object.fromEntries(
  [
    ["care", "wash washing washed washer launder laundry dry dryer drying tumble iron ironing clean cleaning shrink shrinking shrunk shrank bleach steam"],
    ["fit", "fit fits fitting size sizes sizing small large big tight loose measure measurement"],
    ["returns", "return returning refund refunds"],
    ["exchanges", "exchange swap"],
    ["shipping", "ship shipping shipped deliver delivery arrive parcel postage"],
    ["summer", "hot heat weather warm cool"],
  ].flatMap(([tag, words]) => words.split(" ").map((w) => [w, tag])),
);

export interface KnowledgeHit {
  entry: KnowledgeEntry;
  score: number;
  lexical: number;
  semantic: number;
  tags: number;
  cited: boolean;
}

export interface RankOptions {
  /** Material and garment words of the product in question ("linen", "shirts"). */
  contextTags?: readonly string[];
  limit?: number;
  /** Only entries at or above KNOWLEDGE_CITE_SCORE. */
  citedOnly?: boolean;
}

export interface KnowledgeRetrievalDeps {
  db: Db;
  /** Word vectors (default: the app's file; null ranks without the semantic part). */
  wordVectors?: WordVectors | null;
}

/** The subject words of a question: normalised, stop words and question words out, singular. */
export function questionWords(question: string): string[] {
  return [...new Set(embeddingWords(question).filter((w) => !QUESTION_WORDS.has(w)))];
}

const tagParts = (tags: readonly string[]) => new Set(tags.flatMap((t) => [t, ...t.split("-")]).map(singular));

// --- entry vectors (memoised per entry version) ----------------------------------------------------

const vectorCache = new Map<string, { version: number; of: WordVectors; v: number[] | null }>();
let centre: { of: WordVectors; v: Float32Array | undefined } | undefined;
const centreOf = (wv: WordVectors) => {
  if (centre?.of !== wv) centre = { of: wv, v: centroidOf(wv, FASHION_TERMS) ?? undefined };
  return centre.v;
};

/** Title words weigh most, then tags, then the opening of the content (its first 60 words). */
export function entryWords(e: { title: string; tags: readonly string[]; content: string }): [string, number][] {
  const out: [string, number][] = [];
  for (const w of questionWords(e.title)) out.push([w, 3]);
  for (const t of e.tags) for (const w of embeddingWords(t.replace(/-/g, " "))) out.push([w, 2]);
  for (const w of embeddingWords(e.content).slice(0, 60)) out.push([w, 0.5]);
  return out;
}

function entryVector(wv: WordVectors, e: { id: string; updated_at: Date; title: string; tags: string[]; content: string }): number[] | null {
  const version = e.updated_at.getTime();
  const hit = vectorCache.get(e.id);
  if (hit && hit.version === version && hit.of === wv) return hit.v;
  const v = embedWeighted(wv, entryWords(e), centreOf(wv));
  if (vectorCache.size > 20_000) vectorCache.clear();
  vectorCache.set(e.id, { version, of: wv, v });
  return v;
}

// --- ranking ----------------------------------------------------------------------------------------------

const DOCUMENT = Prisma.sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', replace(array_to_string(tags, ' '), '-', ' ')), 'B') || setweight(to_tsvector('english', content), 'D')`;

/** Ranks the knowledge base for a question (pure of side effects; reads the table once). */
export async function rankKnowledge(deps: KnowledgeRetrievalDeps, question: string, opts: RankOptions = {}): Promise<KnowledgeHit[]> {
  const limit = opts.limit ?? 3;
  const words = questionWords(question);
  if (words.length === 0) return [];
  const wv = deps.wordVectors === undefined ? getWordVectors() : deps.wordVectors;

  const tsquery = anyOf(words.flatMap((w) => (singular(w) !== w ? [w, singular(w)] : [w])));
  const [rows, ranks] = await Promise.all([
    deps.db.knowledgeEntry.findMany(),
    tsquery
      ? deps.db.$queryRaw<{ id: string; rank: number }[]>`
          SELECT id, ts_rank('{0.1, 0.2, 0.4, 1.0}'::float4[], ${DOCUMENT}, q)::float8 AS rank
          FROM knowledge_entries, to_tsquery('english', ${tsquery}) AS q
          WHERE (${DOCUMENT}) @@ q`
      : Promise.resolve([]),
  ]);
  const lexicalOf = new Map(ranks.map((r) => [r.id, Math.min(1, Number(r.rank))]));
  const centreV = wv ? centreOf(wv) : undefined;
  const qv = wv ? embedWeighted(wv, words.map((w) => [w, 1]), centreV) : null;
  const asked = new Set(words.map(singular));
  const topics = new Set(words.flatMap((w) => (TOPIC_TAGS[w] ? [TOPIC_TAGS[w]] : [])));
  const context = new Set((opts.contextTags ?? []).map(normaliseKnowledgeTag).filter(Boolean).map(singular));

  const hits: KnowledgeHit[] = rows.map((row) => {
    const lexical = lexicalOf.get(row.id) ?? 0;
    const ev = wv && qv ? entryVector(wv, row) : null;
    const semantic = qv && ev ? Math.max(0, cosineSimilarity(qv, ev)) : 0;
    const parts = tagParts(row.tags);
    const tagMatches = [...asked].filter((w) => parts.has(w)).length;
    const topicMatches = [...topics].filter((t) => parts.has(t) && !asked.has(t)).length;
    const tags = Math.min(1, tagMatches * 0.5 + topicMatches * 0.25);
    let score = KNOWLEDGE_RANK_WEIGHTS.lexical * lexical + KNOWLEDGE_RANK_WEIGHTS.semantic * semantic + KNOWLEDGE_RANK_WEIGHTS.tags * tags;
    if (context.size && (lexical > 0 || tagMatches + topicMatches > 0)) {
      const contextMatches = [...context].filter((w) => parts.has(w) && !asked.has(w)).length;
      score += Math.min(0.3, contextMatches * 0.15);
    }
    score = Math.round(score * 1e4) / 1e4;
    // Cited only when grounded in the question's own words (full text or a tag): closeness in
    // meaning alone cites "What is linen?" for "what's the weather like".
    const grounded = lexical > 0 || tagMatches > 0;
    return { entry: toKnowledgeEntry(row), score, lexical: round(lexical), semantic: round(semantic), tags, cited: grounded && score >= KNOWLEDGE_CITE_SCORE };
  });
  return hits
    .filter((h) => h.score > 0 && (!opts.citedOnly || h.cited))
    .sort((a, b) => b.score - a.score || a.entry.title.localeCompare(b.entry.title))
    .slice(0, limit);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

// --- product context ------------------------------------------------------------------------------------------

const MATERIAL_WORDS = Object.keys(MATERIALS).sort((a, b) => b.length - a.length);

/** The material and garment words of a text ("Relaxed Linen Shirt" → linen, shirt). */
export function contextWordsOf(p: { title: string; productType?: string | null; tags?: readonly string[] | null; materials?: readonly string[] }): string[] {
  const text = ` ${[p.title, ...(p.tags ?? [])].join(" ").toLowerCase().replace(/[^a-z]+/g, " ")} `;
  const found = new Set<string>();
  for (const m of MATERIAL_WORDS) if (text.includes(` ${m} `)) for (const w of m.split(" ")) found.add(w);
  for (const m of p.materials ?? []) for (const w of embeddingWords(m)) found.add(w);
  for (const w of embeddingWords(p.productType ?? "")) found.add(singular(w));
  if (found.has("jean") || found.has("jeans")) found.add("denim");
  return [...found];
}

/** The context words of a product: its title's and tags' materials, its material categories, its type. */
export async function productContextTags(db: Db, productId: string): Promise<string[]> {
  const p = await db.product.findUnique({
    where: { id: productId },
    select: { title: true, productType: true, tags: true, materials: { select: { category: { select: { name: true } } } } },
  });
  if (!p) return [];
  return contextWordsOf({ title: p.title, productType: p.productType, tags: p.tags, materials: p.materials.map((m) => m.category.name) });
}

/** The passage of an entry an answer quotes: its sentences that share the most words with the question, in their order. */
export function excerptFor(content: string, question: string, maxChars = 320): string {
  const sentences = content.match(/[^.!?]+[.!?]+(?:\s|$)|[^.!?]+$/g)?.map((s) => s.trim()).filter(Boolean) ?? [content];
  const asked = new Set(questionWords(question).map(singular));
  const scored = sentences.map((s, i) => ({ s, i, n: embeddingWords(s).filter((w) => asked.has(singular(w))).length }));
  const best = [...scored].sort((a, b) => b.n - a.n || a.i - b.i);
  const picked: typeof scored = [];
  let length = 0;
  for (const c of best) {
    if (picked.length >= 2 || (picked.length > 0 && c.n === 0)) break;
    if (length + c.s.length > maxChars && picked.length > 0) continue;
    picked.push(c);
    length += c.s.length + 1;
  }
  const text = picked
    .sort((a, b) => a.i - b.i)
    .map((c) => c.s)
    .join(" ");
  return text.length > maxChars ? `${text.slice(0, maxChars - 1).replace(/\s+\S*$/, "")}…` : text;
}
