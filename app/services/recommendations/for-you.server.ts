/**
 * For-you: a shopper's profile and the blended candidate list.
 *
 * Profile: the gender preference (the query's target_gender, else SPEC §4 from the interests),
 * the interests (metadata.interests without the gender words), saved products (newest 50), the
 * distinct recently viewed products (newest 50, from the last 500 views), products bought (newest
 * 20) and followed stores.
 *
 * Candidates, each signal normalised to [0, 1] (weights in ./scoring.ts):
 * - coView: "viewed together" neighbours (top 20 each) of the 15 most recent views and 10 newest
 *   saved products, summed with seed weights (recent views count more);
 * - coPurchase: "bought together" neighbours of saved and bought products;
 * - vector: nearest neighbours (ctx.vectors, namespaces "attributes" and "image") of the mean
 *   vector of the recent and saved products; skipped when there is no index, no vectors or an error;
 * - store: the newest 60 products of followed stores;
 * - interest: products whose tags or title match an interest (newest first);
 * - popular: the 100 most viewed and the 60 best-selling products of the gender, plus a popularity
 *   prior for every candidate (log of decayed views + 3 × decayed units).
 * Saved and recently viewed products are demoted to the end ("unless nothing else"). A jitter seeded
 * by user and UTC day breaks ties and varies the feed from one day to the next.
 * Cold start (no saved, viewed, bought or followed, no interests but the gender): the popular
 * products of the gender, newest when nothing is popular yet.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import type { Logger } from "~/lib/logger.server";
import type { VectorIndex, VectorNamespace } from "~/providers/vector-index/port";
import { decayedValue } from "./decay";
import { genderSql, visibleSql } from "./sql.server";
import { addSignal, blend, dayKey, genderFromInterests, gendersFor, interestTerms, type Signal, type Signals } from "./scoring";

export interface ForYouDeps {
  db: Db;
  vectors?: VectorIndex | null;
  log?: Logger;
}

export interface ShopperProfile {
  userId: string;
  email: string | null;
  authProvider: string;
  targetGender: TargetGender;
  interests: string[];
  saved: string[];
  recentViews: string[];
  purchased: string[];
  followedStores: string[];
  coldStart: boolean;
}

const MAX_CANDIDATES_LIST = 300;


export async function loadShopperProfile(db: Db, userId: string, opts: { targetGender?: TargetGender } = {}): Promise<ShopperProfile | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, auth_provider: true, metadata: true } });
  if (!user) return null;
  const metadata = (user.metadata && typeof user.metadata === "object" && !Array.isArray(user.metadata) ? user.metadata : {}) as { interests?: unknown };
  const rawInterests = typeof metadata.interests === "string" ? metadata.interests : "";
  // Independent reads: concurrent on PostgreSQL (the embedded database queues them).
  const [savedRows, viewRows, purchaseRows, storeRows] = await Promise.all([
    db.savedProduct.findMany({ where: { user_id: userId }, orderBy: [{ createdAt: "desc" }, { product_id: "asc" }], take: 50, select: { product_id: true } }),
    db.$queryRaw<{ product_id: string }[]>`
      SELECT product_id FROM (
        SELECT product_id, created_at FROM product_view_events WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT 500
      ) v GROUP BY product_id ORDER BY max(created_at) DESC, product_id ASC LIMIT 50`,
    db.productPurchaseEvent.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { id: "asc" }], take: 40, select: { product_id: true } }),
    db.userFavoriteStore.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { store_id: "asc" }], take: 50, select: { store_id: true } }),
  ]);
  const saved = savedRows.map((r) => r.product_id);
  const recentViews = viewRows.map((r) => r.product_id);
  const purchased = [...new Set(purchaseRows.map((r) => r.product_id))].slice(0, 20);
  const followedStores = storeRows.map((r) => r.store_id);
  const interests = interestTerms(rawInterests);
  return {
    userId: user.id,
    email: user.email,
    authProvider: user.auth_provider,
    targetGender: opts.targetGender ?? genderFromInterests(rawInterests),
    interests,
    saved,
    recentViews,
    purchased,
    followedStores,
    coldStart: !saved.length && !recentViews.length && !purchased.length && !followedStores.length && !interests.length,
  };
}

export interface RankedItem {
  id: string;
  reason: "co-viewed" | "co-purchased" | "similar" | "followed-store" | "interest" | "popular" | "saved" | "recently-viewed" | "newest";
}

const REASON: Record<Signal, RankedItem["reason"]> = {
  coView: "co-viewed",
  coPurchase: "co-purchased",
  vector: "similar",
  store: "followed-store",
  interest: "interest",
  popular: "popular",
};

/**
 * The ranked for-you list (ids of visible products of the gender, excluded ids left out),
 * at most 300 long; the caller pages it.
 */
export async function rankForYou(
  deps: ForYouDeps,
  profile: ShopperProfile,
  opts: { exclude: string[]; now?: Date },
): Promise<{ items: RankedItem[]; source: "personalized" | "cold-start" }> {
  const { db } = deps;
  const now = opts.now ?? new Date();
  const genders = gendersFor(profile.targetGender);
  const excluded = new Set(opts.exclude);
  const candidates = new Map<string, Signals>();

  // Popular products of the gender (every list gets them; the cold start is only them), and the
  // shopper's signals: independent queries, run concurrently.
  const personal = !profile.coldStart;
  const [popular, sellers, coView, coPurchase, vector, stores, interests] = await Promise.all([
    db.$queryRaw<{ id: string }[]>`
      SELECT pp.product_id AS id FROM product_popularity pp JOIN products p ON p.id = pp.product_id
      WHERE pp.view_score > 0 AND ${visibleSql(now)} AND ${genderSql(genders)}
      ORDER BY pp.view_score DESC, pp.product_id ASC LIMIT 100`,
    db.$queryRaw<{ id: string }[]>`
      SELECT pp.product_id AS id FROM product_popularity pp JOIN products p ON p.id = pp.product_id
      WHERE pp.purchase_count > 0 AND ${visibleSql(now)} AND ${genderSql(genders)}
      ORDER BY pp.purchase_score DESC, pp.purchase_count DESC, pp.product_id ASC LIMIT 60`,
    personal ? coOccurrenceSignal(db, "view", seedWeights([[profile.recentViews.slice(0, 15), 1, 0.15], [profile.saved.slice(0, 10), 0.8, 0.1]])) : [],
    personal
      ? coOccurrenceSignal(db, "purchase", seedWeights([[profile.purchased.slice(0, 10), 1, 0.1], [profile.saved.slice(0, 10), 0.8, 0.1], [profile.recentViews.slice(0, 5), 0.5, 0.2]]))
      : [],
    personal ? vectorSignal(deps, profile, genders) : [],
    personal && profile.followedStores.length
      ? db.$queryRaw<{ id: string }[]>`
          SELECT p.id FROM products p
          WHERE p.store_id = ANY(${profile.followedStores}::text[]) AND ${visibleSql(now)} AND ${genderSql(genders)}
          ORDER BY p.created_at DESC, p.id ASC LIMIT 60`
      : [],
    personal && profile.interests.length ? interestSignal(db, profile.interests, genders, now) : [],
  ]);
  popular.forEach((r, i) => addSignal(candidates, r.id, "popular", 1 - i / 100));
  sellers.forEach((r, i) => addSignal(candidates, r.id, "popular", 1 - i / 60));
  for (const [id, v] of coView) addSignal(candidates, id, "coView", v);
  for (const [id, v] of coPurchase) addSignal(candidates, id, "coPurchase", v);
  for (const [id, v] of vector) addSignal(candidates, id, "vector", v);
  stores.forEach((r, i) => addSignal(candidates, r.id, "store", 1 - (0.5 * i) / Math.max(1, stores.length)));
  for (const [id, v] of interests) addSignal(candidates, id, "interest", v);

  // Demoted: already saved or just viewed (kept as a last resort).
  const demotedReason = new Map<string, RankedItem["reason"]>();
  for (const id of profile.recentViews) demotedReason.set(id, "recently-viewed");
  for (const id of profile.saved) demotedReason.set(id, "saved");
  for (const id of demotedReason.keys()) if (!candidates.has(id)) candidates.set(id, {});
  for (const id of excluded) candidates.delete(id);
  if (candidates.size === 0) return { items: [], source: profile.coldStart ? "cold-start" : "personalized" };

  // Keep visible products of the gender; add the popularity prior.
  const ids = [...candidates.keys()];
  const rows = await db.$queryRaw<{ id: string; view_score: number | null; purchase_score: number | null }[]>`
    SELECT p.id, pp.view_score, pp.purchase_score FROM products p LEFT JOIN product_popularity pp ON pp.product_id = p.id
    WHERE p.id = ANY(${ids}::text[]) AND ${visibleSql(now)} AND ${genderSql(genders)}`;
  const prior = new Map(rows.map((r) => [r.id, Math.log1p(decayedValue(r.view_score ?? 0, "view", now) + 3 * decayedValue(r.purchase_score ?? 0, "purchase", now))]));
  const maxPrior = Math.max(0, ...prior.values());
  const kept = new Map<string, Signals>();
  for (const [id, s] of candidates) {
    if (!prior.has(id)) continue;
    if (maxPrior > 0) s.popular = Math.max(s.popular ?? 0, (prior.get(id) ?? 0) / maxPrior);
    kept.set(id, s);
  }

  const ranked = blend(kept, { jitterSeed: `${profile.userId}:${dayKey(now)}`, demoted: new Set(demotedReason.keys()) }).slice(0, MAX_CANDIDATES_LIST);
  return {
    items: ranked.map((b) => ({ id: b.id, reason: b.demoted ? demotedReason.get(b.id)! : REASON[b.reason] })),
    source: profile.coldStart ? "cold-start" : "personalized",
  };
}

/** Seed weights: `base / (1 + step · rank)` per list, the strongest when a product is in several. */
function seedWeights(list: [string[], number, number][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const [ids, base, step] of list) ids.forEach((id, i) => m.set(id, Math.max(m.get(id) ?? 0, base / (1 + step * i))));
  return m;
}

/**
 * Neighbours (top 20 each) of the seeds by co-occurrence: Σ seed weight × score / the seed's best
 * score, normalised so the best candidate has 1.
 */
async function coOccurrenceSignal(db: Db, kind: "view" | "purchase", seeds: Map<string, number>): Promise<[string, number][]> {
  if (seeds.size === 0) return [];
  const seedIds = [...seeds.keys()];
  const rows = await db.$queryRaw<{ seed: string; other_id: string; score: number }[]>`
    SELECT s.seed, c.other_id, c.score FROM unnest(${seedIds}::text[]) AS s(seed)
    CROSS JOIN LATERAL (
      SELECT other_id, score FROM product_co_occurrences
      WHERE kind = ${kind} AND product_id = s.seed ORDER BY score DESC, other_id ASC LIMIT 20
    ) c`;
  const maxBySeed = new Map<string, number>();
  for (const r of rows) maxBySeed.set(r.seed, Math.max(maxBySeed.get(r.seed) ?? 0, r.score));
  const sums = new Map<string, number>();
  for (const r of rows) {
    const max = maxBySeed.get(r.seed) || 1;
    sums.set(r.other_id, (sums.get(r.other_id) ?? 0) + (seeds.get(r.seed) ?? 0) * (r.score / max));
  }
  const top = Math.max(0, ...sums.values());
  return top > 0 ? [...sums].map(([id, v]) => [id, v / top]) : [];
}

/** Longest wait for the vector index inside a request; past it the signal is skipped. */
export const VECTOR_BUDGET_MS = 60;

/** `p`, or `fallback` when it takes longer than `ms` or fails (the work is not cancelled). */
export async function withinBudget<T>(p: Promise<T>, ms: number, fallback: T, onMiss?: (why: unknown) => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      onMiss?.(new Error(`no answer within ${ms} ms`));
      resolve(fallback);
    }, ms);
  });
  try {
    return await Promise.race([
      p.catch((e: unknown) => {
        onMiss?.(e);
        return fallback;
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The namespaces worth asking in a request: with an approximate index (pgvector's HNSW, Pinecone)
 * "attributes" and "image"; with the exact scan only the small attribute vectors (an image scan
 * over the whole catalogue takes longer than a request may).
 */
export async function requestNamespaces(vectors: VectorIndex): Promise<VectorNamespace[]> {
  const adapter = vectors.name === "auto" ? ((await vectors.resolve?.()) ?? "auto") : vectors.name;
  return adapter === "exact" ? ["attributes"] : ["attributes", "image"];
}

/** Nearest neighbours of the shopper's mean vector per namespace; [] without an index, on error or past the budget. */
async function vectorSignal(deps: ForYouDeps, profile: ShopperProfile, genders: TargetGender[]): Promise<[string, number][]> {
  const vectors = deps.vectors;
  if (!vectors) return [];
  const seeds = [...new Set([...profile.recentViews.slice(0, 20), ...profile.saved.slice(0, 20)])];
  if (!seeds.length) return [];
  const topK = 60;
  const one = async (ns: VectorNamespace): Promise<[string, number][]> => {
    const rows = await deps.db.productEmbedding.findMany({ where: { kind: ns, product_id: { in: seeds } }, select: { embedding: true } });
    const mean = meanVector(rows.map((r) => r.embedding));
    if (!mean) return [];
    const matches = await vectors.query(ns, mean, { topK, targetGenders: genders, excludeIds: seeds });
    return matches.map((m, i): [string, number] => [m.id, Math.max(0, m.score) * (1 - (0.5 * i) / topK)]);
  };
  const all = await withinBudget(
    requestNamespaces(vectors).then((list) => Promise.all(list.map(one))),
    VECTOR_BUDGET_MS,
    [] as [string, number][][],
    (e) => deps.log?.warn({ err: e }, "for-you: vector index skipped"),
  );
  return all.flat();
}

/** The normalised mean of vectors of the most common dimension; null when there are none. */
export function meanVector(vectors: number[][]): number[] | null {
  const usable = vectors.filter((v) => v.length > 0);
  if (!usable.length) return null;
  const dims = new Map<number, number>();
  for (const v of usable) dims.set(v.length, (dims.get(v.length) ?? 0) + 1);
  const dim = [...dims.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
  const sum = new Array<number>(dim).fill(0);
  for (const v of usable) {
    if (v.length !== dim) continue;
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    for (let i = 0; i < dim; i++) sum[i] += v[i] / n;
  }
  const norm = Math.sqrt(sum.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? sum.map((x) => x / norm) : null;
}

async function interestSignal(db: Db, terms: string[], genders: TargetGender[], now: Date): Promise<[string, number][]> {
  const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  // Tags (GIN) and titles (trigram GIN): both indexed, so a rare interest costs a bitmap scan and a
  // common one a walk of the newest products.
  const titleMatch = Prisma.join(
    terms.map((t) => Prisma.sql`p.title ILIKE ${`%${escapeLike(t.replace(/-/g, " "))}%`}`),
    " OR ",
  );
  const rows = await db.$queryRaw<{ id: string; tag_hits: number; title_hit: boolean }[]>`
    SELECT p.id,
      cardinality(ARRAY(SELECT unnest(p.tags) INTERSECT SELECT unnest(${terms}::text[])))::int AS tag_hits,
      (${titleMatch}) AS title_hit
    FROM products p
    WHERE ${visibleSql(now)} AND ${genderSql(genders)} AND (p.tags && ${terms}::text[] OR ${titleMatch})
    ORDER BY p.created_at DESC, p.id ASC
    LIMIT 80`;
  const wanted = Math.min(terms.length, 2);
  return rows.map((r, i) => [r.id, (Math.min(wanted, r.tag_hits + (r.title_hit ? 1 : 0)) / wanted) * (1 - (0.3 * i) / rows.length)]);
}
