/**
 * Recommendations (issue "Discovery"): the lists of SPEC §7 and the view-product call.
 *
 * Every list reads precomputed aggregates through indexes (ProductPopularity by decayed score,
 * ProductCoOccurrence by (kind, product, score)) or a cached catalogue snapshot (random order);
 * none scans the catalogue per request. How the aggregates are kept: ./recommendations/aggregates.
 * Decay constants: ./recommendations/decay.ts. Random order: ./recommendations/random-order.ts.
 * For-you blend: ./recommendations/for-you.server.ts and ./recommendations/scoring.ts.
 */
import { appBaseUrl } from "~/lib/app-url";
import crypto from "node:crypto";
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { AppContext } from "~/context.server";
import type { Logger } from "~/lib/logger.server";
import type { ProductCard, TargetGender } from "~/contract";
import type { RecommendationSource, RecommendationsPageQuery, RecommendationsRandomQuery, RecommendationsResult } from "~/contract/recommendations";
import type { VectorIndex } from "~/providers/vector-index/port";
import { invalid as badRequest, notFoundError as notFound, unprocessableError as unprocessable } from "~/lib/domain-errors";
import { isMissingId, toProductGid } from "~/lib/gid";
import { getProductCards } from "./catalog.server";
import { queueEmail, type OutgoingEmail } from "./email.server";
import { ATTRIBUTES_KIND } from "./similar-products.server";
import { attributeNeighbours } from "./recommendations/similar.server";
import { REBUILD_QUEUE, rebuildRecommendationAggregates } from "./recommendations/aggregates.server";
import { cachedSimilar, catalogSnapshot, productTypes } from "./recommendations/catalog-cache.server";
import { decodeRandomCursor, encodeRandomCursor, nextInSeededOrder, seedHash, type RandomPosition } from "./recommendations/random-order";
import { COMPLEMENTS, complementFactor, gendersFor, interleaveByGroup, typeGroup } from "./recommendations/scoring";
import { VECTOR_BUDGET_MS, isApproximateIndex, loadShopperProfile, rankForYou, withinBudget, type RankedItem } from "./recommendations/for-you.server";
import { genderSql, visibleSql } from "./recommendations/sql.server";
import { decayedValue } from "./recommendations/decay";

export { recordProductView, applyOrderPurchases, rebuildRecommendationAggregates, REBUILD_QUEUE } from "./recommendations/aggregates.server";

export interface RecommendationDeps {
  db: Db;
  /** The vector index (ctx.vectors) when the app has one. */
  vectors?: VectorIndex | null;
  log?: Logger;
}

/** The vector index of the app context (pgvector, Pinecone or the exact scan; see isApproximateIndex). */
export function vectorsOf(ctx: Pick<AppContext, "vectors">): VectorIndex | null {
  return ctx.vectors ?? null;
}

/** Related lists (co-occurrence + fill) are at most this long; deeper pages are empty. */
const MAX_RELATED = 240;

const ALL_GENDERS: TargetGender[] = ["menswear", "womenswear", "both"];
const gendersOf = (g: TargetGender | undefined) => (g ? gendersFor(g) : ALL_GENDERS);
const normaliseIds = (ids: string[]) => [...new Set(ids.filter((i) => !isMissingId(i)).map(toProductGid))];

type Item = { id: string; reason: RecommendationSource };

/** Reads the cards of `items` (in order), dropping any that turned invisible. */
async function answer(
  db: Db,
  items: Item[],
  source: RecommendationSource,
  page: { currentPage: number | null; limit: number; hasNextPage: boolean; hasPreviousPage: boolean; cursor?: string | null },
): Promise<RecommendationsResult> {
  const cards = await getProductCards(db, items.map((i) => i.id));
  const reasonOf = new Map(items.map((i) => [i.id, i.reason]));
  return {
    results: cards,
    reasons: cards.map((c: ProductCard) => reasonOf.get(c.id) ?? source),
    source,
    pagination: { hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, currentPage: page.currentPage, cursor: page.cursor ?? null, limit: page.limit },
  };
}

/** One page of an already ranked list. */
function pageOf(db: Db, list: Item[], q: RecommendationsPageQuery, source: RecommendationSource) {
  const start = (q.page - 1) * q.limit;
  return answer(db, list.slice(start, start + q.limit), source, { currentPage: q.page, limit: q.limit, hasNextPage: list.length > start + q.limit, hasPreviousPage: q.page > 1 });
}

const emptyPage = (q: RecommendationsPageQuery, source: RecommendationSource = "none"): RecommendationsResult => ({
  results: [],
  reasons: [],
  source,
  pagination: { hasNextPage: false, hasPreviousPage: q.page > 1, currentPage: q.page, cursor: null, limit: q.limit },
});

// ---------------------------------------------------------------------------------------------
// Popularity lists

type Ranking = "views" | "sales";

async function popularityPage(db: Db, ranking: Ranking, q: RecommendationsPageQuery, now: Date): Promise<{ ids: string[]; hasNext: boolean; any: boolean }> {
  const genders = gendersOf(q.target_gender);
  const exclude = normaliseIds(q.exclude);
  const filter = ranking === "views" ? Prisma.sql`pp.view_score > 0` : Prisma.sql`(pp.purchase_count > 0 OR pp.purchase_score > 0)`;
  const order = ranking === "views" ? Prisma.sql`pp.view_score DESC, pp.product_id ASC` : Prisma.sql`pp.purchase_score DESC, pp.purchase_count DESC, pp.view_score DESC, pp.product_id ASC`;
  const where = Prisma.sql`${filter} AND ${visibleSql(now)} AND ${genderSql(genders)} AND NOT (p.id = ANY(${exclude}::text[]))`;
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT pp.product_id AS id FROM product_popularity pp JOIN products p ON p.id = pp.product_id
    WHERE ${where} ORDER BY ${order} OFFSET ${(q.page - 1) * q.limit} LIMIT ${q.limit + 1}`;
  let any = rows.length > 0;
  if (!any && q.page > 1) {
    const r = await db.$queryRaw<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM product_popularity pp JOIN products p ON p.id = pp.product_id WHERE ${where}) AS any`;
    any = !!r[0]?.any;
  }
  return { ids: rows.slice(0, q.limit).map((r) => r.id), hasNext: rows.length > q.limit, any };
}

async function newestPage(db: Db, q: RecommendationsPageQuery, now: Date) {
  const genders = gendersOf(q.target_gender);
  const exclude = normaliseIds(q.exclude);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM products p WHERE ${visibleSql(now)} AND ${genderSql(genders)} AND NOT (p.id = ANY(${exclude}::text[]))
    ORDER BY p.created_at DESC, p.id ASC OFFSET ${(q.page - 1) * q.limit} LIMIT ${q.limit + 1}`;
  return { ids: rows.slice(0, q.limit).map((r) => r.id), hasNext: rows.length > q.limit };
}

function pageAnswer(db: Db, ids: string[], hasNext: boolean, q: RecommendationsPageQuery, source: RecommendationSource, reason: RecommendationSource) {
  return answer(
    db,
    ids.map((id) => ({ id, reason })),
    source,
    { currentPage: q.page, limit: q.limit, hasNextPage: hasNext, hasPreviousPage: q.page > 1 },
  );
}

/** Most viewed by decayed views; newest products when nothing was viewed yet. */
export async function mostViewed(deps: RecommendationDeps & { queue?: AppContext["queue"] }, q: RecommendationsPageQuery, now = new Date()): Promise<RecommendationsResult> {
  const r = await popularityPage(deps.db, "views", q, now);
  if (r.any) return pageAnswer(deps.db, r.ids, r.hasNext, q, "most-viewed", "most-viewed");
  if (deps.queue) await healAggregates(deps.db, deps.queue, deps.log);
  const n = await newestPage(deps.db, q, now);
  return pageAnswer(deps.db, n.ids, n.hasNext, q, "newest", "newest");
}

/** Best sellers by decayed units, then units; most viewed, then newest, when nothing was sold yet. */
export async function bestSellers(deps: RecommendationDeps & { queue?: AppContext["queue"] }, q: RecommendationsPageQuery, now = new Date()): Promise<RecommendationsResult> {
  const r = await popularityPage(deps.db, "sales", q, now);
  if (r.any) return pageAnswer(deps.db, r.ids, r.hasNext, q, "best-sellers", "best-sellers");
  return mostViewed(deps, q, now);
}

const healed = new WeakSet<Db>();
/**
 * A database seeded before the aggregates existed has events but no popularity rows: enqueue one
 * rebuild (once per process and database).
 */
async function healAggregates(db: Db, queue: AppContext["queue"], log?: Logger) {
  if (healed.has(db)) return;
  healed.add(db);
  const [pop, views] = [await db.productPopularity.findFirst({ select: { product_id: true } }), await db.productViewEvent.findFirst({ select: { id: true } })];
  if (!pop && views) {
    const job = await queue.enqueue(REBUILD_QUEUE, {}, { dedupeKey: REBUILD_QUEUE });
    log?.info({ jobId: job.id }, "recommendation aggregates are empty: rebuild enqueued");
  }
}

// ---------------------------------------------------------------------------------------------
// Random

export async function randomProducts(db: Db, q: RecommendationsRandomQuery): Promise<RecommendationsResult & { seed: string | null }> {
  let after: RandomPosition | null = null;
  let seed: string | null = q.seed ?? null;
  let s: number;
  if (q.cursor) {
    const c = decodeRandomCursor(q.cursor);
    if (!c) throw badRequest("cursor is invalid");
    if (seed !== null && seedHash(seed) !== c.s) throw badRequest("cursor belongs to another seed");
    s = c.s;
    after = { k: c.k, i: c.i };
  } else {
    seed ??= crypto.randomBytes(9).toString("base64url");
    s = seedHash(seed);
  }
  const genders = new Set(gendersOf(q.target_gender));
  const exclude = new Set(normaliseIds(q.exclude));
  const entries = await catalogSnapshot(db);
  // A few more than asked: a product hidden since the snapshot is dropped when its card is read.
  const spare = 4;
  const picked = nextInSeededOrder(entries, s, after, q.limit + spare + 1, (e) => genders.has(e.gender) && !exclude.has(e.id));
  const cards = await getProductCards(db, picked.map((p) => p.entry.id));
  const visible = new Set(cards.map((c) => c.id));
  const shown = picked.filter((p) => visible.has(p.entry.id)).slice(0, q.limit);
  const lastShown = shown[shown.length - 1];
  const beyond = lastShown ? picked.slice(picked.indexOf(lastShown) + 1) : [];
  // More remain when a visible product was picked beyond this page, or the pick was cut short.
  const hasNextPage = beyond.some((p) => visible.has(p.entry.id)) || picked.length === q.limit + spare + 1;
  const position = lastShown ?? picked[picked.length - 1];
  const cursor = hasNextPage && position ? encodeRandomCursor({ s, k: position.k, i: position.entry.id }) : null;
  const byId = new Map(cards.map((c) => [c.id, c]));
  const results = shown.map((p) => byId.get(p.entry.id)!);
  return {
    results,
    reasons: results.map(() => "random" as const),
    source: "random",
    seed,
    pagination: { hasNextPage, hasPreviousPage: !!after, currentPage: null, cursor, limit: q.limit },
  };
}

// ---------------------------------------------------------------------------------------------
// Customers also viewed, frequently bought together

async function sourceProduct(db: Db, rawId: string) {
  if (isMissingId(rawId)) return null;
  return db.product.findUnique({ where: { id: toProductGid(rawId) }, select: { id: true, productType: true, target_gender: true, priceMin: true, priceMax: true } });
}

async function coOccurring(db: Db, kind: "view" | "purchase", productId: string, genders: TargetGender[], exclude: string[], take: number, now: Date) {
  return db.$queryRaw<{ id: string; score: number; productType: string }[]>`
    SELECT c.other_id AS id, c.score, p."productType" AS "productType" FROM product_co_occurrences c JOIN products p ON p.id = c.other_id
    WHERE c.kind = ${kind} AND c.product_id = ${productId} AND ${visibleSql(now)} AND ${genderSql(genders)} AND NOT (p.id = ANY(${exclude}::text[]))
    ORDER BY c.score DESC, c.other_id ASC LIMIT ${take}`;
}

/**
 * Products similar by attributes: the vector index ("attributes" namespace) when the app has an
 * approximate one (pgvector, Pinecone) and the product has a vector, else attributeNeighbours (the scoring of similar-products.server.ts
 * over a bounded, index-prefiltered candidate set). Cached 10 minutes per product.
 */
async function similarIds(deps: RecommendationDeps, productId: string, targetGender: TargetGender | undefined, want: number, now: Date): Promise<string[]> {
  const n = Math.min(MAX_RELATED, Math.max(40, want));
  return cachedSimilar(deps.db, `${productId}|${targetGender ?? ""}|${n}`, async () => {
    const vectors = deps.vectors;
    if (vectors) {
      const fromIndex = async () => {
        if (!(await isApproximateIndex(vectors))) return [];
        const v = await deps.db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: productId, kind: ATTRIBUTES_KIND } }, select: { embedding: true } });
        if (!v?.embedding.length) return [];
        const src = await deps.db.product.findUnique({ where: { id: productId }, select: { target_gender: true } });
        const matches = await vectors.query("attributes", v.embedding, { topK: n, targetGenders: gendersFor(targetGender ?? src?.target_gender ?? "both"), excludeIds: [productId] });
        if (!matches.length) return [];
        const ids = matches.map((m) => m.id);
        const visible = new Set((await deps.db.$queryRaw<{ id: string }[]>`SELECT p.id FROM products p WHERE p.id = ANY(${ids}::text[]) AND ${visibleSql(now)}`).map((r) => r.id));
        return ids.filter((id) => visible.has(id));
      };
      const ids = await withinBudget(fromIndex(), VECTOR_BUDGET_MS, [] as string[], (e) => deps.log?.warn({ err: e }, "similar products: vector index skipped, using attributes"));
      if (ids.length) return ids;
    }
    return attributeNeighbours(deps.db, productId, targetGender, n, now);
  });
}

export async function customersAlsoViewed(deps: RecommendationDeps, rawId: string, q: RecommendationsPageQuery, now = new Date()): Promise<RecommendationsResult> {
  const src = await sourceProduct(deps.db, rawId);
  if (!src) return emptyPage(q);
  const need = Math.min(MAX_RELATED, q.page * q.limit + 1);
  const exclude = normaliseIds([...q.exclude, src.id]);
  const co = await coOccurring(deps.db, "view", src.id, gendersOf(q.target_gender), exclude, need, now);
  const list: Item[] = co.map((r) => ({ id: r.id, reason: "co-viewed" }));
  if (list.length < need) {
    const seen = new Set([...exclude, ...list.map((i) => i.id)]);
    for (const id of await similarIds(deps, src.id, q.target_gender, need + exclude.length, now)) {
      if (list.length >= need) break;
      if (seen.has(id)) continue;
      seen.add(id);
      list.push({ id, reason: "similar" });
    }
  }
  if (!list.length) return emptyPage(q, "similar");
  return pageOf(deps.db, list, q, co.length ? "co-viewed" : "similar");
}

/** Complementary candidates in one order: decayed units sold, decayed views, or newest. */
function complementaryRows(
  db: Db,
  o: { order: "sales" | "views" | "newest"; types: string[]; genders: TargetGender[]; priced: [number, number] | null; exclude: string[]; take: number; now: Date },
) {
  const filter = Prisma.sql`${visibleSql(o.now)} AND ${genderSql(o.genders)} AND p."productType" = ANY(${o.types}::text[])
    AND NOT (p.id = ANY(${o.exclude}::text[])) ${o.priced ? Prisma.sql`AND p."priceMin" BETWEEN ${o.priced[0]}::numeric AND ${o.priced[1]}::numeric` : Prisma.empty}`;
  const take = Math.min(MAX_RELATED, o.take);
  if (o.order === "newest") {
    return db.$queryRaw<{ id: string; productType: string }[]>`
      SELECT p.id, p."productType" AS "productType" FROM products p WHERE ${filter} ORDER BY p.created_at DESC, p.id ASC LIMIT ${take}`;
  }
  const [where, order] =
    o.order === "sales" ? [Prisma.sql`pp.purchase_count > 0`, Prisma.sql`pp.purchase_score DESC, pp.product_id ASC`] : [Prisma.sql`pp.view_score > 0`, Prisma.sql`pp.view_score DESC, pp.product_id ASC`];
  return db.$queryRaw<{ id: string; productType: string }[]>`
    SELECT p.id, p."productType" AS "productType" FROM product_popularity pp JOIN products p ON p.id = pp.product_id
    WHERE ${where} AND ${filter} ORDER BY ${order} LIMIT ${take}`;
}

export async function frequentlyBoughtTogether(deps: RecommendationDeps, rawId: string, q: RecommendationsPageQuery, now = new Date()): Promise<RecommendationsResult> {
  const { db } = deps;
  const src = await sourceProduct(db, rawId);
  if (!src) return emptyPage(q);
  const need = Math.min(MAX_RELATED, q.page * q.limit + 1);
  const genders = gendersFor(q.target_gender ?? src.target_gender);
  const exclude = normaliseIds([...q.exclude, src.id]);

  // Bought together, re-ranked so complementary types come first.
  const co = await coOccurring(db, "purchase", src.id, genders, exclude, MAX_RELATED, now);
  const ranked = co
    .map((r) => ({ id: r.id, score: decayedValue(r.score, "coPurchase", now) * complementFactor(src.productType, r.productType) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const list: Item[] = ranked.slice(0, need).map((r) => ({ id: r.id, reason: "co-purchased" }));

  if (list.length < need) {
    // Popular complementary products of a compatible gender: best sellers, then most viewed, then
    // newest (each an index walk that stops early), in a compatible price range first, then any price.
    const group = typeGroup(src.productType);
    const wantedGroups = COMPLEMENTS[group];
    const types = (await productTypes(db)).filter((t) => wantedGroups.includes(typeGroup(t)));
    const mid = (Number(src.priceMin) + Number(src.priceMax)) / 2 || Number(src.priceMax) || 0;
    const seen = new Set([...exclude, ...list.map((i) => i.id)]);
    const byGroup = (rows: { id: string; productType: string }[]) => interleaveByGroup(rows, (r) => typeGroup(r.productType), wantedGroups);
    for (const priced of mid > 0 ? [true, false] : [false]) {
      if (!types.length || list.length >= need) break;
      const rows: { id: string; productType: string }[] = [];
      for (const order of ["sales", "views", "newest"] as const) {
        const missing = need - list.length - rows.length;
        if (missing <= 0) break;
        const found = await complementaryRows(db, { order, types, genders, priced: priced ? [mid / 4, mid * 3] : null, exclude: [...seen], take: missing, now });
        for (const r of found) {
          if (seen.has(r.id)) continue;
          seen.add(r.id);
          rows.push(r);
        }
      }
      for (const r of byGroup(rows)) if (list.length < need) list.push({ id: r.id, reason: "complementary" });
    }
  }
  if (!list.length) return emptyPage(q, "complementary");
  return pageOf(db, list, q, co.length ? "co-purchased" : "complementary");
}

// ---------------------------------------------------------------------------------------------
// For you

export async function forYou(deps: RecommendationDeps, userId: string, q: RecommendationsPageQuery, now = new Date()): Promise<RecommendationsResult> {
  const ranked = await rankForYou(deps, userId, { targetGender: q.target_gender, exclude: normaliseIds(q.exclude), now });
  if (!ranked) throw notFound("User not found");
  if (ranked.items.length === 0) {
    // Nothing popular yet (a new store): the newest products of the gender.
    const n = await newestPage(deps.db, { ...q, target_gender: ranked.profile.targetGender }, now);
    return pageAnswer(deps.db, n.ids, n.hasNext, q, ranked.source, "newest");
  }
  return pageOf(deps.db, ranked.items.map((i: RankedItem) => ({ id: i.id, reason: i.reason })), q, ranked.source);
}

export const NO_USER_WITH_EMAIL = "No user with this email";

async function userByEmail(db: Db, email: string) {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true, first_name: true } });
  if (!user) throw notFound(NO_USER_WITH_EMAIL);
  return user;
}

export async function adminForYouByEmail(deps: RecommendationDeps, q: RecommendationsPageQuery & { email: string }, now = new Date()) {
  const user = await userByEmail(deps.db, q.email);
  const r = await forYou(deps, user.id, q, now);
  return { ...r, user: { id: user.id, email: user.email } };
}

export async function adminProfileByEmail(db: Db, email: string) {
  const user = await userByEmail(db, email);
  const p = (await loadShopperProfile(db, user.id))!;
  return {
    user: { id: p.userId, email: p.email, auth_provider: p.authProvider },
    targetGender: p.targetGender,
    interests: p.interests,
    savedProductIds: p.saved,
    recentlyViewedIds: p.recentViews,
    followedStoreIds: p.followedStores,
    purchasedProductIds: p.purchased,
    coldStart: p.coldStart,
  };
}

// ---------------------------------------------------------------------------------------------
// Test email

export type RecommendationsEmailKind = "for-you" | "most-viewed" | "best-sellers";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const EMAIL_COPY: Record<RecommendationsEmailKind, { subject: string; lead: string }> = {
  "for-you": { subject: "Picked for you", lead: "A few pieces we think you will like, based on what you saved, viewed and follow." },
  "most-viewed": { subject: "Trending now", lead: "The pieces everyone is looking at right now." },
  "best-sellers": { subject: "Our best sellers", lead: "The pieces shoppers are buying most right now." },
};

/** A recommendations email: product cards with image, title, price and a link each. */
export function recommendationsEmail(input: { to: string; firstName?: string | null; kind: RecommendationsEmailKind; products: ProductCard[]; appUrl: string }): OutgoingEmail {
  const base = input.appUrl.replace(/\/$/, "");
  const abs = (url: string) => (/^https?:\/\//.test(url) ? url : `${base}${url.startsWith("/") ? "" : "/"}${url}`);
  const copy = EMAIL_COPY[input.kind];
  const greeting = input.firstName ? `Hello ${input.firstName},` : "Hello,";
  const price = (p: ProductCard) => {
    const min = p.priceRange.minVariantPrice;
    const max = p.priceRange.maxVariantPrice;
    return min.amount === max.amount ? `${min.amount} ${min.currencyCode}` : `from ${min.amount} ${min.currencyCode}`;
  };
  const link = (p: ProductCard) => `${base}/products/${encodeURIComponent(p.handle)}`;
  const text = [greeting, "", copy.lead, "", ...input.products.map((p) => `- ${p.title} (${p.vendor}), ${price(p)}: ${link(p)}`), "", `See more at ${base}/`].join("\n");
  const cells = input.products
    .map(
      (p) =>
        `<td style="width:33%;padding:8px;vertical-align:top"><a href="${escapeHtml(link(p))}" style="color:#303030;text-decoration:none">${
          p.featuredImage ? `<img src="${escapeHtml(abs(p.featuredImage.url))}" alt="${escapeHtml(p.featuredImage.altText ?? p.title)}" width="180" style="display:block;width:100%;max-width:180px;border-radius:6px">` : ""
        }<div style="margin-top:6px;font-weight:600">${escapeHtml(p.title)}</div><div style="color:#616161">${escapeHtml(p.vendor)}</div><div>${escapeHtml(price(p))}</div></a></td>`,
    );
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 3) rows.push(`<tr>${cells.slice(i, i + 3).join("")}</tr>`);
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>${escapeHtml(greeting)}</p><p>${escapeHtml(copy.lead)}</p><table role="presentation" style="border-collapse:collapse;max-width:600px">${rows.join("")}</table><p><a href="${escapeHtml(base)}/">See more</a></p></body></html>`;
  return { to: input.to, subject: copy.subject, html, text, kind: `recommendations_${input.kind.replace(/-/g, "_")}` };
}

export async function sendRecommendationsTestEmail(ctx: AppContext, input: { email: string; kind: RecommendationsEmailKind }, now = new Date()) {
  const deps: RecommendationDeps & { queue: AppContext["queue"] } = { db: ctx.db, vectors: vectorsOf(ctx), log: ctx.log, queue: ctx.queue };
  const user = await userByEmail(ctx.db, input.email);
  const q: RecommendationsPageQuery = { limit: 9, page: 1, exclude: [] };
  const list =
    input.kind === "for-you" ? await forYou(deps, user.id, q, now) : input.kind === "most-viewed" ? await mostViewed(deps, q, now) : await bestSellers(deps, q, now);
  if (list.results.length === 0) throw unprocessable("There are no products to recommend yet");
  const appUrl = appBaseUrl(ctx.config);
  const email = recommendationsEmail({ to: user.email!, firstName: user.first_name, kind: input.kind, products: list.results, appUrl });
  const { id } = await queueEmail(ctx, email);
  return { emailId: id, to: email.to, subject: email.subject, kind: input.kind, productCount: list.results.length };
}

// ---------------------------------------------------------------------------------------------
// Rebuild job

export async function enqueueRecommendationsRebuild(ctx: Pick<AppContext, "queue">) {
  const { id } = await ctx.queue.enqueue(REBUILD_QUEUE, {}, { dedupeKey: REBUILD_QUEUE, maxAttempts: 3 });
  return { jobId: id };
}

export async function runRecommendationsRebuild(db: Db, progress?: (p: number) => Promise<void>) {
  return rebuildRecommendationAggregates(db, { progress });
}

export async function getRecommendationsJob(db: Db, id: string) {
  const job = await db.job.findFirst({ where: { id, queue: REBUILD_QUEUE } });
  if (!job) throw notFound("Job not found");
  const r = job.result as Record<string, unknown> | null;
  const num = (v: unknown) => (typeof v === "number" ? Math.round(v) : 0);
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    result: r && typeof r === "object" && typeof r.popularity === "number" ? { popularity: num(r.popularity), viewPairs: num(r.viewPairs), purchasePairs: num(r.purchasePairs), ms: num(r.ms) } : null,
    error: job.error,
    createdAt: job.created_at,
    completedAt: job.completed_at,
  };
}
