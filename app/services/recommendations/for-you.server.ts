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
 * - coPurchase: "bought together" neighbours of bought, saved and the 5 most recent viewed products;
 * - vector: nearest neighbours (ctx.vectors, namespaces "attributes" and "image") of the mean
 *   vector of the recent and saved products; only with an approximate index (pgvector, Pinecone:
 *   the exact scan of servers without pgvector reads the whole catalogue per query), and skipped
 *   when there are no vectors, on an error, or when the index does not answer within 250 ms;
 * - store: the newest 60 products of followed stores;
 * - interest: products whose tags or title match an interest (newest first);
 * - popular: the 100 most viewed and the 60 best-selling products of the gender, plus a popularity
 *   prior for every candidate (log of decayed views + 3 × decayed units).
 * Saved and recently viewed products are demoted to the end ("unless nothing else"). A jitter seeded
 * by user and UTC day breaks ties and varies the feed from one day to the next.
 * Cold start (no saved, viewed, bought or followed, no interests but the gender): the popular
 * products of the gender, newest when nothing is popular yet.
 *
 * Cost: one read of the user, then every list and signal at once (each query carries its own seed
 * subquery, so none waits for another; they run concurrently on PostgreSQL), then the cards.
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

// ---------------------------------------------------------------------------------------------
// The shopper's lists, as SQL (ranked, newest first) so that signal queries can embed them.

const savedSql = (userId: string) => Prisma.sql`
  SELECT product_id, row_number() OVER (ORDER BY "createdAt" DESC, product_id ASC) AS rn
  FROM saved_products WHERE user_id = ${userId} ORDER BY "createdAt" DESC, product_id ASC LIMIT 50`;
const recentSql = (userId: string) => Prisma.sql`
  SELECT product_id, row_number() OVER (ORDER BY max(created_at) DESC, product_id ASC) AS rn FROM (
    SELECT product_id, created_at FROM product_view_events WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT 500
  ) v GROUP BY product_id ORDER BY max(created_at) DESC, product_id ASC LIMIT 50`;
const purchasedSql = (userId: string) => Prisma.sql`
  SELECT product_id, row_number() OVER (ORDER BY max(created_at) DESC, product_id ASC) AS rn FROM (
    SELECT product_id, created_at FROM product_purchase_events WHERE user_id = ${userId} ORDER BY created_at DESC, id ASC LIMIT 40
  ) b GROUP BY product_id ORDER BY max(created_at) DESC, product_id ASC LIMIT 20`;
const storesSql = (userId: string) => Prisma.sql`
  SELECT store_id FROM user_favorite_stores WHERE user_id = ${userId} ORDER BY created_at DESC, store_id ASC LIMIT 50`;

function interestsOf(metadata: Prisma.JsonValue): string {
  const m = (metadata && typeof metadata === "object" && !Array.isArray(metadata) ? metadata : {}) as { interests?: unknown };
  return typeof m.interests === "string" ? m.interests : "";
}

/** The profile on its own (admin view). */
export async function loadShopperProfile(db: Db, userId: string, opts: { targetGender?: TargetGender } = {}): Promise<ShopperProfile | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, auth_provider: true, metadata: true },
  });
  if (!user) return null;
  const [saved, recent, purchased, stores] = await Promise.all([
    db.$queryRaw<{ product_id: string }[]>`${savedSql(userId)}`,
    db.$queryRaw<{ product_id: string }[]>`${recentSql(userId)}`,
    db.$queryRaw<{ product_id: string }[]>`${purchasedSql(userId)}`,
    db.$queryRaw<{ store_id: string }[]>`${storesSql(userId)}`,
  ]);
  return profileOf(user, opts.targetGender, saved, recent, purchased, stores);
}

function profileOf(
  user: {
    id: string;
    email: string | null;
    auth_provider: string;
    metadata: Prisma.JsonValue;
  },
  targetGender: TargetGender | undefined,
  saved: { product_id: string }[],
  recent: { product_id: string }[],
  purchased: { product_id: string }[],
  stores: { store_id: string }[],
): ShopperProfile {
  const raw = interestsOf(user.metadata);
  const p = {
    userId: user.id,
    email: user.email,
    authProvider: user.auth_provider,
    targetGender: targetGender ?? genderFromInterests(raw),
    interests: interestTerms(raw),
    saved: saved.map((r) => r.product_id),
    recentViews: recent.map((r) => r.product_id),
    purchased: purchased.map((r) => r.product_id),
    followedStores: stores.map((r) => r.store_id),
  };
  return {
    ...p,
    coldStart: !p.saved.length && !p.recentViews.length && !p.purchased.length && !p.followedStores.length && !p.interests.length,
  };
}

// ---------------------------------------------------------------------------------------------

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

/** A candidate row: visible, of the gender, with its popularity (null when never viewed or sold). */
interface Scored {
  id: string;
  view_score: number | null;
  purchase_score: number | null;
}

const withPopularity = Prisma.sql`pp.view_score, pp.purchase_score`;

/**
 * The ranked for-you list of a user (ids of visible products of the gender, excluded ids left
 * out), at most 300 long, with the profile it was built from; null for an unknown user.
 */
export async function rankForYou(
  deps: ForYouDeps,
  userId: string,
  opts: { targetGender?: TargetGender; exclude: string[]; now?: Date },
): Promise<{
  items: RankedItem[];
  source: "personalized" | "cold-start";
  profile: ShopperProfile;
} | null> {
  const { db } = deps;
  const now = opts.now ?? new Date();
  // The user, and which of their lists exist (the queries for empty ones are not sent).
  const [user] = await db.$queryRaw<
    {
      id: string;
      email: string | null;
      auth_provider: string;
      metadata: Prisma.JsonValue;
      saved: boolean;
      views: boolean;
      bought: boolean;
      follows: boolean;
    }[]
  >`
    SELECT u.id, u.email, u.auth_provider::text AS auth_provider, u.metadata,
      EXISTS (SELECT 1 FROM saved_products WHERE user_id = u.id) AS saved,
      EXISTS (SELECT 1 FROM product_view_events WHERE user_id = u.id) AS views,
      EXISTS (SELECT 1 FROM product_purchase_events WHERE user_id = u.id) AS bought,
      EXISTS (SELECT 1 FROM user_favorite_stores WHERE user_id = u.id) AS follows
    FROM users u WHERE u.id = ${userId}`;
  if (!user) return null;
  const raw = interestsOf(user.metadata);
  const genders = gendersFor(opts.targetGender ?? genderFromInterests(raw));
  const terms = interestTerms(raw);
  const filter = Prisma.sql`${visibleSql(now)} AND ${genderSql(genders)}`;
  const none = Promise.resolve([]);
  const when = <T>(cond: boolean, q: () => Promise<T[]>): Promise<T[]> => (cond ? q() : (none as Promise<T[]>));

  const [saved, recent, purchased, stores, popular, sellers, coView, coPurchase, storeRows, interestRows, demotedRows, vector] = await Promise.all([
    when(user.saved, () => db.$queryRaw<{ product_id: string }[]>`${savedSql(userId)}`),
    when(user.views, () => db.$queryRaw<{ product_id: string }[]>`${recentSql(userId)}`),
    when(user.bought, () => db.$queryRaw<{ product_id: string }[]>`${purchasedSql(userId)}`),
    when(user.follows, () => db.$queryRaw<{ store_id: string }[]>`${storesSql(userId)}`),
    db.$queryRaw<Scored[]>`
      SELECT pp.product_id AS id, ${withPopularity} FROM product_popularity pp JOIN products p ON p.id = pp.product_id
      WHERE pp.view_score > 0 AND ${filter}
      ORDER BY pp.view_score DESC, pp.product_id ASC LIMIT 100`,
    db.$queryRaw<Scored[]>`
      SELECT pp.product_id AS id, ${withPopularity} FROM product_popularity pp JOIN products p ON p.id = pp.product_id
      WHERE pp.purchase_count > 0 AND ${filter}
      ORDER BY pp.purchase_score DESC, pp.purchase_count DESC, pp.product_id ASC LIMIT 60`,
    when(user.views || user.saved, () =>
      coOccurrenceRows(
        db,
        "view",
        Prisma.sql`
        SELECT product_id, 1.0 / (1 + 0.15 * (rn - 1)) AS w FROM (${recentSql(userId)}) r WHERE rn <= 15
        UNION ALL SELECT product_id, 0.8 / (1 + 0.1 * (rn - 1)) FROM (${savedSql(userId)}) s WHERE rn <= 10`,
        filter,
      ),
    ),
    when(user.views || user.saved || user.bought, () =>
      coOccurrenceRows(
        db,
        "purchase",
        Prisma.sql`
        SELECT product_id, 1.0 / (1 + 0.1 * (rn - 1)) AS w FROM (${purchasedSql(userId)}) b WHERE rn <= 10
        UNION ALL SELECT product_id, 0.8 / (1 + 0.1 * (rn - 1)) FROM (${savedSql(userId)}) s WHERE rn <= 10
        UNION ALL SELECT product_id, 0.5 / (1 + 0.2 * (rn - 1)) FROM (${recentSql(userId)}) r WHERE rn <= 5`,
        filter,
      ),
    ),
    when(
      user.follows,
      () => db.$queryRaw<Scored[]>`
      SELECT p.id, ${withPopularity} FROM products p LEFT JOIN product_popularity pp ON pp.product_id = p.id
      WHERE p.store_id IN (${storesSql(userId)}) AND ${filter}
      ORDER BY p.created_at DESC, p.id ASC LIMIT 60`,
    ),
    when(terms.length > 0, () => interestQuery(db, terms, filter)),
    when(
      user.saved || user.views,
      () => db.$queryRaw<Scored[]>`
      SELECT p.id, ${withPopularity} FROM products p LEFT JOIN product_popularity pp ON pp.product_id = p.id
      WHERE p.id IN (SELECT product_id FROM (${savedSql(userId)}) s UNION SELECT product_id FROM (${recentSql(userId)}) r) AND ${filter}`,
    ),
    user.saved || user.views ? vectorSignal(deps, userId, genders) : Promise.resolve([] as [string, number][]),
  ]);
  const profile = profileOf(user, opts.targetGender, saved, recent, purchased, stores);
  const personal = !profile.coldStart;

  const candidates = new Map<string, Signals>();
  const prior = new Map<string, number>();
  const keep = (rows: Scored[]) => {
    for (const r of rows) prior.set(r.id, Math.log1p(decayedValue(r.view_score ?? 0, "view", now) + 3 * decayedValue(r.purchase_score ?? 0, "purchase", now)));
  };
  [popular, sellers, coView, coPurchase, storeRows, interestRows, demotedRows].forEach(keep);

  popular.forEach((r, i) => addSignal(candidates, r.id, "popular", 1 - i / 100));
  sellers.forEach((r, i) => addSignal(candidates, r.id, "popular", 1 - i / 60));
  if (personal) {
    for (const [id, v] of normaliseCoOccurrence(coView)) addSignal(candidates, id, "coView", v);
    for (const [id, v] of normaliseCoOccurrence(coPurchase)) addSignal(candidates, id, "coPurchase", v);
    for (const [id, v] of vector) addSignal(candidates, id, "vector", v);
    storeRows.forEach((r, i) => addSignal(candidates, r.id, "store", 1 - (0.5 * i) / Math.max(1, storeRows.length)));
    const wanted = Math.min(terms.length, 2);
    interestRows.forEach((r, i) =>
      addSignal(candidates, r.id, "interest", (Math.min(wanted, r.tag_hits + (r.title_hit ? 1 : 0)) / wanted) * (1 - (0.3 * i) / interestRows.length)),
    );
  }

  // Demoted: already saved or just viewed (kept as a last resort), when visible and of the gender.
  const demotedReason = new Map<string, RankedItem["reason"]>();
  const demotable = new Set(demotedRows.map((r) => r.id));
  for (const id of profile.recentViews) if (demotable.has(id)) demotedReason.set(id, "recently-viewed");
  for (const id of profile.saved) if (demotable.has(id)) demotedReason.set(id, "saved");
  for (const id of demotedReason.keys()) if (!candidates.has(id)) candidates.set(id, {});
  for (const id of opts.exclude) candidates.delete(id);

  // The popularity prior (vector-only candidates have none: their rows were not read).
  const maxPrior = Math.max(0, ...prior.values());
  if (maxPrior > 0) for (const [id, s] of candidates) s.popular = Math.max(s.popular ?? 0, (prior.get(id) ?? 0) / maxPrior);

  const ranked = blend(candidates, {
    jitterSeed: `${profile.userId}:${dayKey(now)}`,
    demoted: new Set(demotedReason.keys()),
  }).slice(0, MAX_CANDIDATES_LIST);
  return {
    items: ranked.map((b) => ({
      id: b.id,
      reason: b.demoted ? demotedReason.get(b.id)! : REASON[b.reason],
    })),
    source: personal ? "personalized" : "cold-start",
    profile,
  };
}

interface CoRow extends Scored {
  seed: string;
  w: number;
  score: number;
}

/** Neighbours (top 20 each) of weighted seeds by co-occurrence, visible and of the gender. */
function coOccurrenceRows(db: Db, kind: "view" | "purchase", seeds: Prisma.Sql, filter: Prisma.Sql) {
  return db.$queryRaw<CoRow[]>`
    WITH seeds AS (SELECT product_id AS seed, max(w)::float8 AS w FROM (${seeds}) s GROUP BY product_id)
    SELECT s.seed, s.w, c.other_id AS id, c.score, ${withPopularity}
    FROM seeds s
    CROSS JOIN LATERAL (
      SELECT other_id, score FROM product_co_occurrences
      WHERE kind = ${kind} AND product_id = s.seed ORDER BY score DESC, other_id ASC LIMIT 20
    ) c
    JOIN products p ON p.id = c.other_id LEFT JOIN product_popularity pp ON pp.product_id = c.other_id
    WHERE ${filter}`;
}

/** Σ seed weight × score / the seed's best score, normalised so the best candidate has 1. */
function normaliseCoOccurrence(rows: CoRow[]): [string, number][] {
  const maxBySeed = new Map<string, number>();
  for (const r of rows) maxBySeed.set(r.seed, Math.max(maxBySeed.get(r.seed) ?? 0, r.score));
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.id, (sums.get(r.id) ?? 0) + r.w * (r.score / (maxBySeed.get(r.seed) || 1)));
  const top = Math.max(0, ...sums.values());
  return top > 0 ? [...sums].map(([id, v]) => [id, v / top]) : [];
}

function interestQuery(db: Db, terms: string[], filter: Prisma.Sql) {
  const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  // Tags (GIN) and titles (trigram GIN): both indexed, so a rare interest costs a bitmap scan and a
  // common one a walk of the newest products.
  const titleMatch = Prisma.join(
    terms.map((t) => Prisma.sql`p.title ILIKE ${`%${escapeLike(t.replace(/-/g, " "))}%`}`),
    " OR ",
  );
  return db.$queryRaw<(Scored & { tag_hits: number; title_hit: boolean })[]>`
    SELECT p.id, ${withPopularity},
      cardinality(ARRAY(SELECT unnest(p.tags) INTERSECT SELECT unnest(${terms}::text[])))::int AS tag_hits,
      (${titleMatch}) AS title_hit
    FROM products p LEFT JOIN product_popularity pp ON pp.product_id = p.id
    WHERE ${filter} AND (p.tags && ${terms}::text[] OR ${titleMatch})
    ORDER BY p.created_at DESC, p.id ASC
    LIMIT 80`;
}

// ---------------------------------------------------------------------------------------------
// Vectors

/** Longest wait for the vector index inside a request; past it the signal is skipped. */
export const VECTOR_BUDGET_MS = 250;

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
 * Whether an index answers nearest-neighbour queries without reading the whole catalogue
 * (pgvector's HNSW, Pinecone). The exact scan (PostgreSQL without pgvector) reads every vector of
 * a namespace per query: ~25 ms for 20,000 small attribute vectors, far more for image vectors.
 */
export async function isApproximateIndex(vectors: VectorIndex): Promise<boolean> {
  const adapter = vectors.name === "auto" ? (await vectors.resolve?.()) ?? "auto" : vectors.name;
  return adapter === "pgvector" || adapter === "pinecone";
}

const VECTOR_NAMESPACES_FOR_YOU: VectorNamespace[] = ["attributes", "image"];

/** Nearest neighbours of the shopper's mean vector per namespace; [] without an (approximate) index or vectors, on error or past the budget. */
async function vectorSignal(deps: ForYouDeps, userId: string, genders: TargetGender[]): Promise<[string, number][]> {
  const vectors = deps.vectors;
  if (!vectors) return [];
  const topK = 60;
  const run = async (): Promise<[string, number][]> => {
    if (!(await isApproximateIndex(vectors))) return [];
    const seeds = (
      await deps.db.$queryRaw<{ product_id: string }[]>`
        SELECT product_id FROM (${recentSql(userId)}) r WHERE rn <= 20 UNION SELECT product_id FROM (${savedSql(userId)}) s WHERE rn <= 20`
    ).map((r) => r.product_id);
    if (!seeds.length) return [];
    const one = async (ns: VectorNamespace): Promise<[string, number][]> => {
      const rows = await deps.db.productEmbedding.findMany({
        where: { kind: ns, product_id: { in: seeds } },
        select: { embedding: true },
      });
      const mean = meanVector(rows.map((r) => r.embedding));
      if (!mean) return [];
      const matches = await vectors.query(ns, mean, {
        topK,
        targetGenders: genders,
        excludeIds: seeds,
      });
      return matches.map((m, i): [string, number] => [m.id, Math.max(0, m.score) * (1 - (0.5 * i) / topK)]);
    };
    return (await Promise.all(VECTOR_NAMESPACES_FOR_YOU.map(one))).flat();
  };
  return withinBudget(run(), VECTOR_BUDGET_MS, [], (e) => deps.log?.warn({ err: e }, "for-you: vector index skipped"));
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
