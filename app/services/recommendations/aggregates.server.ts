/**
 * The recommendation aggregates (ProductPopularity, ProductCoOccurrence), kept in step with the
 * events as they arrive, and rebuilt from the events by a job.
 *
 * Views (`POST /users/view-product`): the event is stored, the product's popularity grows by one
 * view, and the pair "viewed together" grows with each of the (at most 10) other products the same
 * shopper viewed in the previous 24 hours. A repeated view of the same product by the same shopper
 * within 30 minutes is not stored and counts nothing. The shopper is the user; events without a
 * user (seeded or imported ones) fall back to their session id.
 *
 * Purchases (order read model): when an order's purchase events are written, each product's
 * popularity grows by its units and each pair of products of the order (at most 20 products) grows
 * "bought together"; when the order is cancelled its events are removed and the same amounts are
 * taken off. The order read model writes an order's events once, so a re-delivered webhook counts
 * nothing twice.
 *
 * Scores are stored as decay weights (./decay.ts). `rebuildRecommendationAggregates` recomputes
 * everything from the events with exactly the same rules (in SQL, in one transaction); the
 * incremental path and the rebuild agree (tests/integration/recommendations-aggregates.test.ts).
 */
import crypto from "node:crypto";
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { invalid, notFoundError } from "~/lib/domain-errors";
import { Messages } from "~/contract/messages";
import { isMissingId, toProductGid } from "~/lib/gid";
import { ts, visibleSql } from "./sql.server";
import { applyOrderToDailyStats, productDaysUpsertSql } from "~/services/vendor-stats/daily-stats.server";
import { DAY_MS, DECAY_EPOCH_MS, HALF_LIFE_DAYS, MAX_EXPONENT, MIN_EXPONENT, eventWeight, type DecayKind } from "./decay";

type Client = Db | Prisma.TransactionClient;

/** A repeated view of the same product by the same shopper within this window counts once. */
export const VIEW_DEDUPE_MINUTES = 30;
/** Views of the same shopper within this window are "viewed together". */
export const CO_VIEW_WINDOW_HOURS = 24;
/** A view pairs with at most this many other recently viewed products (the most recent ones). */
export const CO_VIEW_MAX_PARTNERS = 10;
/** "Bought together" pairs the first N distinct products of an order (by id). */
export const CO_PURCHASE_MAX_PRODUCTS = 20;

export const REBUILD_QUEUE = "recommendations.rebuild";
export const PRODUCT_NOT_FOUND = "Product not found";


// ---------------------------------------------------------------------------------------------
// Views

export interface ViewInput {
  productId: string;
  userId?: string | null;
  sessionId?: string | null;
  /** When the view happened (default now): imports and tests; visibility is always checked now. */
  now?: Date;
}

/**
 * Records a product view; `recorded: false` when it repeats a view of the last 30 minutes.
 * Two round trips: one read (visibility and the shopper's recent products), one statement that
 * writes the event, the popularity and the pairs together (atomic, no explicit transaction).
 */
export async function recordProductView(db: Db, input: ViewInput): Promise<{ recorded: boolean; productId: string }> {
  if (isMissingId(input.productId)) throw invalid(Messages.NO_PRODUCT_ID);
  const productId = toProductGid(input.productId);
  const now = input.now ?? new Date();
  const userId = input.userId ?? null;
  const sessionId = input.sessionId?.trim() || null;
  const actor = userId
    ? Prisma.sql`user_id = ${userId}`
    : sessionId
      ? Prisma.sql`user_id IS NULL AND session_id = ${sessionId}`
      : Prisma.sql`FALSE`;
  const since = new Date(now.getTime() - CO_VIEW_WINDOW_HOURS * 3_600_000);
  // The shopper's distinct products of the last 24 hours, most recent first (this one included,
  // hence one more than the partners kept).
  const rows = await db.$queryRaw<{ visible: boolean; product_id: string | null; last: Date | null }[]>`
    SELECT v.visible, r.product_id, r.last
    FROM (SELECT EXISTS (SELECT 1 FROM products p WHERE p.id = ${productId} AND ${visibleSql(new Date())}) AS visible) v
    LEFT JOIN LATERAL (
      SELECT product_id, max(created_at) AS last FROM product_view_events
      WHERE ${actor} AND created_at > ${ts(since)} AND created_at < ${ts(now)}
      GROUP BY product_id ORDER BY last DESC, product_id ASC LIMIT ${CO_VIEW_MAX_PARTNERS + 1}
    ) r ON v.visible`;
  if (!rows[0]?.visible) throw notFoundError(PRODUCT_NOT_FOUND);
  const recent = rows.filter((r): r is { visible: boolean; product_id: string; last: Date } => r.product_id !== null && r.last !== null);
  const dedupeFrom = now.getTime() - VIEW_DEDUPE_MINUTES * 60_000;
  if (recent.some((r) => r.product_id === productId && new Date(r.last).getTime() > dedupeFrom)) return { recorded: false, productId };
  const partners = recent.filter((r) => r.product_id !== productId).slice(0, CO_VIEW_MAX_PARTNERS).map((r) => r.product_id);

  const wView = eventWeight(now, "view");
  await db.$queryRaw`
    WITH ev AS (
      INSERT INTO product_view_events (id, user_id, session_id, product_id, created_at)
      VALUES (${crypto.randomUUID()}, ${userId}, ${sessionId}, ${productId}, ${ts(now)})
      RETURNING id
    ), pop AS (
      INSERT INTO product_popularity (product_id, view_count, view_score, last_viewed_at, updated_at)
      VALUES (${productId}, 1, ${wView}::float8, ${ts(now)}, ${ts(now)})
      ON CONFLICT (product_id) DO UPDATE SET
        view_count = product_popularity.view_count + 1,
        view_score = product_popularity.view_score + EXCLUDED.view_score,
        last_viewed_at = GREATEST(product_popularity.last_viewed_at, EXCLUDED.last_viewed_at),
        updated_at = EXCLUDED.updated_at
      RETURNING product_id
    ), pairs AS (
      ${pairsInsertSql("view", pairsOf(productId, partners), eventWeight(now, "coView"), now)}
      RETURNING 1
    ), daily AS (
      ${productDaysUpsertSql([{ productId, at: now, delta: { views: 1 } }])!}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM ev)::int AS events, (SELECT count(*) FROM pop)::int AS popularity, (SELECT count(*) FROM pairs)::int AS pairs, (SELECT count(*) FROM daily)::int AS daily`;
  return { recorded: true, productId };
}

/** Both directions of each pair, sorted (rows are locked in one order: no deadlocks). */
function pairsOf(productId: string, partners: string[]): [string, string][] {
  return partners.flatMap((o): [string, string][] => [[productId, o], [o, productId]]).sort((a, b) => (a[0] + "|" + a[1] < b[0] + "|" + b[1] ? -1 : 1));
}

/** INSERT … ON CONFLICT adding one co-occurrence of `weight` to each (existing) pair, in the given order. */
function pairsInsertSql(kind: "view" | "purchase", pairs: [string, string][], weight: number, now: Date): Prisma.Sql {
  const as = pairs.map((p) => p[0]);
  const bs = pairs.map((p) => p[1]);
  return Prisma.sql`
    INSERT INTO product_co_occurrences (kind, product_id, other_id, count, score, updated_at)
    SELECT ${kind}::text, x.a, x.b, 1, ${weight}::float8, ${ts(now)}
    FROM unnest(${as}::text[], ${bs}::text[]) WITH ORDINALITY AS x(a, b, n)
    WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = x.a) AND EXISTS (SELECT 1 FROM products p WHERE p.id = x.b)
    ORDER BY x.n
    ON CONFLICT (kind, product_id, other_id) DO UPDATE SET
      count = product_co_occurrences.count + EXCLUDED.count,
      score = product_co_occurrences.score + EXCLUDED.score,
      updated_at = EXCLUDED.updated_at`;
}

// ---------------------------------------------------------------------------------------------
// Purchases

/**
 * Adds (sign 1) or takes off (sign −1) the popularity and "bought together" pairs of an order's
 * purchase events as they are stored now. Called by the order read model right after it writes an
 * order's events (once per order) and right before it deletes them (cancellation).
 */
export async function applyOrderPurchases(db: Client, orderId: string, sign: 1 | -1, now: Date = new Date()): Promise<{ products: number; pairs: number }> {
  const events = await db.productPurchaseEvent.findMany({ where: { order_id: orderId }, select: { product_id: true, quantity: true, created_at: true } });
  if (events.length === 0) return { products: 0, pairs: 0 };
  // The vendor stats' orders / units / revenue follow the same once-per-order events.
  await applyOrderToDailyStats(db, orderId, sign);
  const known = new Set((await db.product.findMany({ where: { id: { in: [...new Set(events.map((e) => e.product_id))] } }, select: { id: true } })).map((p) => p.id));
  const byProduct = new Map<string, { units: number; weight: number; last: Date; first: Date }>();
  for (const e of events) {
    if (!known.has(e.product_id)) continue;
    const cur = byProduct.get(e.product_id) ?? { units: 0, weight: 0, last: e.created_at, first: e.created_at };
    cur.units += e.quantity;
    cur.weight += eventWeight(e.created_at, "purchase", e.quantity);
    if (e.created_at > cur.last) cur.last = e.created_at;
    if (e.created_at < cur.first) cur.first = e.created_at;
    byProduct.set(e.product_id, cur);
  }
  const ids = [...byProduct.keys()].sort();
  if (ids.length === 0) return { products: 0, pairs: 0 };
  const units = ids.map((id) => byProduct.get(id)!.units);
  const weights = ids.map((id) => byProduct.get(id)!.weight);
  const lasts = ids.map((id) => byProduct.get(id)!.last.toISOString());

  if (sign > 0) {
    await db.$executeRaw`
      INSERT INTO product_popularity (product_id, purchase_count, purchase_score, last_purchased_at, updated_at)
      SELECT x.id, x.units, x.w, x.last::timestamp, ${ts(now)}
      FROM unnest(${ids}::text[], ${units}::int[], ${weights}::float8[], ${lasts}::text[]) AS x(id, units, w, last)
      ORDER BY x.id
      ON CONFLICT (product_id) DO UPDATE SET
        purchase_count = product_popularity.purchase_count + EXCLUDED.purchase_count,
        purchase_score = product_popularity.purchase_score + EXCLUDED.purchase_score,
        last_purchased_at = GREATEST(product_popularity.last_purchased_at, EXCLUDED.last_purchased_at),
        updated_at = EXCLUDED.updated_at`;
  } else {
    await db.$executeRaw`
      UPDATE product_popularity pp SET
        purchase_count = GREATEST(0, pp.purchase_count - x.units),
        purchase_score = CASE WHEN pp.purchase_count - x.units <= 0 THEN 0 ELSE GREATEST(0, pp.purchase_score - x.w) END,
        updated_at = ${ts(now)}
      FROM unnest(${ids}::text[], ${units}::int[], ${weights}::float8[]) AS x(id, units, w)
      WHERE pp.product_id = x.id`;
  }

  const members = ids.slice(0, CO_PURCHASE_MAX_PRODUCTS);
  if (members.length < 2) return { products: ids.length, pairs: 0 };
  // The order's time: its earliest event among known products (as in the rebuild).
  const orderTime = ids.reduce((t, id) => (byProduct.get(id)!.first < t ? byProduct.get(id)!.first : t), byProduct.get(ids[0])!.first);
  const w = eventWeight(orderTime, "coPurchase");
  const pairs = members.flatMap((a) => members.filter((b) => b !== a).map((b): [string, string] => [a, b]));
  if (sign > 0) {
    await db.$executeRaw`${pairsInsertSql("purchase", pairs, w, now)}`;
  } else {
    const as = pairs.map((p) => p[0]);
    const bs = pairs.map((p) => p[1]);
    await db.$executeRaw`
      UPDATE product_co_occurrences c SET count = c.count - 1, score = GREATEST(0, c.score - ${w}::float8), updated_at = ${ts(now)}
      FROM unnest(${as}::text[], ${bs}::text[]) AS x(a, b)
      WHERE c.kind = 'purchase' AND c.product_id = x.a AND c.other_id = x.b`;
    await db.$executeRaw`
      DELETE FROM product_co_occurrences c USING unnest(${as}::text[], ${bs}::text[]) AS x(a, b)
      WHERE c.kind = 'purchase' AND c.product_id = x.a AND c.other_id = x.b AND c.count <= 0`;
  }
  return { products: ids.length, pairs: pairs.length };
}

// ---------------------------------------------------------------------------------------------
// Rebuild from the events (job `recommendations.rebuild`, demo seed)

/** SQL of 2^((t − EPOCH) / half-life) with the same clamp as decay.ts. */
function weightSql(column: Prisma.Sql, kind: DecayKind): Prisma.Sql {
  const epochSeconds = DECAY_EPOCH_MS / 1000;
  const halfLifeSeconds = (HALF_LIFE_DAYS[kind] * DAY_MS) / 1000;
  return Prisma.sql`power(2::float8, LEAST(${MAX_EXPONENT}::float8, GREATEST(${MIN_EXPONENT}::float8, (extract(epoch FROM ${column})::float8 - ${epochSeconds}::float8) / ${halfLifeSeconds}::float8)))`;
}

/** View events that count: no earlier view of the same product by the same shopper within 30 minutes. */
const countedViewsSql = Prisma.sql`
  SELECT id, user_id, session_id, product_id, created_at FROM (
    SELECT v.id, v.user_id, v.session_id, v.product_id, v.created_at,
      lag(v.created_at) OVER (PARTITION BY COALESCE('u:' || v.user_id, 's:' || v.session_id, 'e:' || v.id), v.product_id ORDER BY v.created_at, v.id) AS prev
    FROM product_view_events v
  ) e
  WHERE e.prev IS NULL OR e.prev <= e.created_at - ${Prisma.raw(`interval '${VIEW_DEDUPE_MINUTES} minutes'`)}`;

export interface RebuildResult {
  popularity: number;
  viewPairs: number;
  purchasePairs: number;
  ms: number;
}

/** Recomputes ProductPopularity and ProductCoOccurrence from every view and purchase event. */
export async function rebuildRecommendationAggregates(db: Db, opts: { now?: Date; progress?: (percent: number) => Promise<void> | void } = {}): Promise<RebuildResult> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  const report = async (p: number) => {
    await opts.progress?.(p);
  };
  // Progress is reported outside the transaction: on the embedded database the job queue shares
  // the one connection the transaction holds.
  await report(5);
  const result = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`DELETE FROM product_co_occurrences`;
      await tx.$executeRaw`DELETE FROM product_popularity`;
      await tx.$executeRaw`
        INSERT INTO product_popularity (product_id, view_count, view_score, last_viewed_at, updated_at)
        SELECT c.product_id, count(*)::int, sum(${weightSql(Prisma.sql`c.created_at`, "view")}), max(c.created_at), ${ts(now)}
        FROM (${countedViewsSql}) c
        GROUP BY c.product_id`;
      await tx.$executeRaw`
        INSERT INTO product_popularity (product_id, purchase_count, purchase_score, last_purchased_at, updated_at)
        SELECT e.product_id, sum(e.quantity)::int, sum(e.quantity * ${weightSql(Prisma.sql`e.created_at`, "purchase")}), max(e.created_at), ${ts(now)}
        FROM product_purchase_events e
        WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = e.product_id)
        GROUP BY e.product_id
        ON CONFLICT (product_id) DO UPDATE SET
          purchase_count = EXCLUDED.purchase_count,
          purchase_score = EXCLUDED.purchase_score,
          last_purchased_at = EXCLUDED.last_purchased_at`;
      const popularity = await tx.productPopularity.count();

      // Viewed together: each counted view with the shopper's (at most 10) other products of the
      // previous 24 hours, most recent first; both directions.
      const partnerSql = (actor: Prisma.Sql) => Prisma.sql`
        SELECT v.product_id, max(v.created_at) AS last FROM product_view_events v
        WHERE ${actor}
          AND v.created_at > c.created_at - ${Prisma.raw(`interval '${CO_VIEW_WINDOW_HOURS} hours'`)} AND v.created_at < c.created_at
          AND v.product_id <> c.product_id
        GROUP BY v.product_id ORDER BY last DESC, v.product_id ASC LIMIT ${CO_VIEW_MAX_PARTNERS}`;
      const viewPairs = await tx.$executeRaw`
        INSERT INTO product_co_occurrences (kind, product_id, other_id, count, score, updated_at)
        SELECT 'view', d.x, d.y, count(*)::int, sum(${weightSql(Prisma.sql`d.t`, "coView")}), ${ts(now)}
        FROM (
          WITH counted AS (${countedViewsSql}),
          pairs AS (
            SELECT c.product_id AS a, o.product_id AS b, c.created_at AS t
            FROM counted c CROSS JOIN LATERAL (${partnerSql(Prisma.sql`v.user_id = c.user_id`)}) o
            WHERE c.user_id IS NOT NULL
            UNION ALL
            SELECT c.product_id, o.product_id, c.created_at
            FROM counted c CROSS JOIN LATERAL (${partnerSql(Prisma.sql`v.user_id IS NULL AND v.session_id = c.session_id`)}) o
            WHERE c.user_id IS NULL AND c.session_id IS NOT NULL
          )
          SELECT a AS x, b AS y, t FROM pairs UNION ALL SELECT b, a, t FROM pairs
        ) d
        GROUP BY d.x, d.y`;

      // Bought together: the first 20 distinct known products of each order (by id), every ordered
      // pair, weighted at the order's time (its earliest event).
      const purchasePairs = await tx.$executeRaw`
        INSERT INTO product_co_occurrences (kind, product_id, other_id, count, score, updated_at)
        SELECT 'purchase', a.product_id, b.product_id, count(*)::int, sum(${weightSql(Prisma.sql`o.t`, "coPurchase")}), ${ts(now)}
        FROM (
          SELECT order_id, product_id, row_number() OVER (PARTITION BY order_id ORDER BY product_id) AS rn
          FROM product_purchase_events e
          WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = e.product_id)
          GROUP BY order_id, product_id
        ) a
        JOIN (
          SELECT order_id, product_id, row_number() OVER (PARTITION BY order_id ORDER BY product_id) AS rn
          FROM product_purchase_events e
          WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = e.product_id)
          GROUP BY order_id, product_id
        ) b ON b.order_id = a.order_id AND b.product_id <> a.product_id
        JOIN (
          SELECT e.order_id, min(e.created_at) AS t FROM product_purchase_events e
          WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = e.product_id)
          GROUP BY e.order_id
        ) o ON o.order_id = a.order_id
        WHERE a.rn <= ${CO_PURCHASE_MAX_PRODUCTS} AND b.rn <= ${CO_PURCHASE_MAX_PRODUCTS}
        GROUP BY a.product_id, b.product_id`;
      return { popularity, viewPairs, purchasePairs };
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
  await report(100);
  return { ...result, ms: Math.round(performance.now() - started) };
}
