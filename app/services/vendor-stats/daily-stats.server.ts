/**
 * Per product and store-time-zone calendar day measures (table product_daily_stats) for the vendor
 * portal: the pages read days × products instead of scanning the event tables, which grow without
 * bound (5 M view events must still answer in milliseconds).
 *
 * Kept incrementally: each service that writes an event adds to its product's day with one upsert
 * (`bumpProductDay` / `bumpProductDays`), inside the event's transaction where there is one:
 * - views: a recorded product view (recommendations/aggregates, the 30-minute dedupe applies);
 * - saves: a product saved (an un-save takes nothing off: the measure counts save actions);
 * - try_ons: a try-on request of a product by a user that created a try-on (a cached result
 *   returned again is not a new request);
 * - add_to_carts: units added through the app's cart API (no event table: the rebuild keeps them);
 * - orders / units / revenue: when the order read model first stores an order, on the order's day;
 *   taken off again, on the same day, when the order becomes cancelled (once: the order's purchase
 *   events say whether it still counts, so webhook replays change nothing);
 * - returned_units: units of return lines confirmed received, on the confirmation's day;
 * - refunds: a refunded return's amount spread over its received lines by their value, on the
 *   refund's day.
 *
 * Days are calendar days in STORE_TIMEZONE. The zone is the configured one (`useStatsTimeZone`,
 * wired by the app context); a change of zone needs `rebuildProductDailyStats`, which recomputes
 * every measure but add_to_carts from the event tables in SQL.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { DEFAULT_STORE_TIME_ZONE, dayIn } from "~/lib/store-time-zone";

type Client = Db | Prisma.TransactionClient;

export type DailyMeasure = "views" | "saves" | "tryOns" | "addToCarts" | "orders" | "units" | "revenue" | "returnedUnits" | "refunds";
/** Counts are integers; money (revenue, refunds) a number or a decimal string ("12.50"). */
export type DailyDelta = Partial<Record<DailyMeasure, number | string>>;

export interface ProductDayBump {
  productId: string;
  /** When the event happened; its calendar day in the store's zone is the row's day. */
  at: Date;
  /** The product's vendor; undefined: read from the product (null when it has none or is unknown). */
  vendorId?: string | null;
  delta: DailyDelta;
  /** Defaults to the configured store zone. */
  timeZone?: string;
}

let zoneSource: () => string = () => DEFAULT_STORE_TIME_ZONE;

/**
 * Where the zone of new rows comes from (the app context passes its config's STORE_TIMEZONE). A
 * function, not a value: tests and the admin change the configured zone while the app runs.
 */
export function useStatsTimeZone(source: () => string): void {
  zoneSource = source;
}

export function statsTimeZone(): string {
  return zoneSource();
}

const COUNT_MEASURES = ["views", "saves", "tryOns", "addToCarts", "orders", "units", "returnedUnits"] as const;

function isZero(delta: DailyDelta): boolean {
  return Object.values(delta).every((v) => v === undefined || Number(v) === 0);
}

/** Adds `delta` to the product's day (one upsert). Zero deltas write nothing. */
export async function bumpProductDay(db: Client, bump: ProductDayBump): Promise<void> {
  await bumpProductDays(db, [bump]);
}

/**
 * Adds several products' deltas in one statement (an order's lines). Rows are written in
 * (product, day) order, so two transactions bumping the same products never deadlock.
 */
export async function bumpProductDays(db: Client, bumps: ProductDayBump[]): Promise<void> {
  const sql = productDaysUpsertSql(bumps);
  if (sql) await db.$executeRaw`${sql}`;
}

/**
 * The upsert of `bumpProductDays` as SQL (null when there is nothing to add), for writers that
 * store the event and its day in one statement (a CTE: `WITH ev AS (…), daily AS (<this>) …`).
 */
export function productDaysUpsertSql(bumps: ProductDayBump[]): Prisma.Sql | null {
  const merged = new Map<string, { productId: string; day: string; vendorId: string | null | undefined; counts: Record<(typeof COUNT_MEASURES)[number], number>; revenue: Prisma.Decimal; refunds: Prisma.Decimal }>();
  for (const b of bumps) {
    if (isZero(b.delta)) continue;
    const day = dayIn(b.at, b.timeZone ?? statsTimeZone());
    const key = `${b.productId}\u0000${day}`;
    const cur = merged.get(key) ?? {
      productId: b.productId,
      day,
      vendorId: b.vendorId,
      counts: { views: 0, saves: 0, tryOns: 0, addToCarts: 0, orders: 0, units: 0, returnedUnits: 0 },
      revenue: new Prisma.Decimal(0),
      refunds: new Prisma.Decimal(0),
    };
    for (const m of COUNT_MEASURES) {
      const v = b.delta[m];
      if (v === undefined) continue;
      const n = Number(v);
      if (!Number.isInteger(n)) throw new TypeError(`${m} must be a whole number, got ${String(v)}`);
      cur.counts[m] += n;
    }
    if (b.delta.revenue !== undefined) cur.revenue = cur.revenue.add(new Prisma.Decimal(b.delta.revenue));
    if (b.delta.refunds !== undefined) cur.refunds = cur.refunds.add(new Prisma.Decimal(b.delta.refunds));
    if (cur.vendorId === undefined && b.vendorId !== undefined) cur.vendorId = b.vendorId;
    merged.set(key, cur);
  }
  const rows = [...merged.values()].sort((a, b) => (a.productId === b.productId ? (a.day < b.day ? -1 : 1) : a.productId < b.productId ? -1 : 1));
  if (rows.length === 0) return null;
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  // An unknown vendor (undefined) is read from the product; the given one (even null) is kept.
  return Prisma.sql`
    INSERT INTO product_daily_stats AS s (product_id, day, vendor_id, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds, updated_at)
    SELECT x.product_id, x.day::date,
           CASE WHEN x.vendor_known THEN x.vendor_id ELSE (SELECT p.vendor_id FROM products p WHERE p.id = x.product_id) END,
           x.views, x.saves, x.try_ons, x.add_to_carts, x.orders, x.units, x.revenue, x.returned_units, x.refunds, now()
    FROM unnest(
      ${col((r) => r.productId)}::text[], ${col((r) => r.day)}::text[], ${col((r) => r.vendorId !== undefined)}::boolean[], ${col((r) => r.vendorId ?? null)}::text[],
      ${col((r) => r.counts.views)}::int[], ${col((r) => r.counts.saves)}::int[], ${col((r) => r.counts.tryOns)}::int[], ${col((r) => r.counts.addToCarts)}::int[],
      ${col((r) => r.counts.orders)}::int[], ${col((r) => r.counts.units)}::int[], ${col((r) => r.revenue.toFixed(2))}::numeric[],
      ${col((r) => r.counts.returnedUnits)}::int[], ${col((r) => r.refunds.toFixed(2))}::numeric[]
    ) WITH ORDINALITY AS x(product_id, day, vendor_known, vendor_id, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds, n)
    ORDER BY x.n
    ON CONFLICT (product_id, day) DO UPDATE SET
      vendor_id = COALESCE(EXCLUDED.vendor_id, s.vendor_id),
      views = s.views + EXCLUDED.views,
      saves = s.saves + EXCLUDED.saves,
      try_ons = s.try_ons + EXCLUDED.try_ons,
      add_to_carts = s.add_to_carts + EXCLUDED.add_to_carts,
      orders = s.orders + EXCLUDED.orders,
      units = s.units + EXCLUDED.units,
      revenue = s.revenue + EXCLUDED.revenue,
      returned_units = s.returned_units + EXCLUDED.returned_units,
      refunds = s.refunds + EXCLUDED.refunds,
      updated_at = EXCLUDED.updated_at`;
}

// ---------------------------------------------------------------------------------------------
// Orders and returns: the amounts are read from the stored rows, by the same SQL as the rebuild.

/** The local day of a `timestamp` column (UTC without a zone) in `zone`. */
const localDay = (column: Prisma.Sql, zone: string) => Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${zone}::text)::date`;

/**
 * Per product: the order counts once, units and price × quantity of its lines, for orders not
 * cancelled (`anyStatus`: whatever the order's status, to take off an order being cancelled). Lines
 * count whatever their own status: every cancel path flips the order's lines with the order, before
 * the stats can see them, so the lines that counted are only known as "the order's lines" (a line
 * cancelled alone in an open order, a local-only move, keeps counting).
 */
function orderLinesSql(zone: string, where: Prisma.Sql, anyStatus = false): Prisma.Sql {
  return Prisma.sql`
    SELECT oi.product_id, ${localDay(Prisma.sql`o.created_at`, zone)} AS day,
           COALESCE(max(oi.vendor_id), max(p.vendor_id)) AS vendor_id,
           count(DISTINCT o.id)::int AS orders, sum(oi.quantity)::int AS units, sum(oi.price * oi.quantity)::numeric(14,2) AS revenue
    FROM order_items oi JOIN orders o ON o.id = oi.order_id LEFT JOIN products p ON p.id = oi.product_id
    WHERE oi.product_id IS NOT NULL AND ${anyStatus ? Prisma.sql`TRUE` : Prisma.sql`o.status <> 'cancelled'`} AND ${where}
    GROUP BY 1, 2`;
}

/** Per product: units of received return lines, on the confirmation's day. */
function returnedSql(zone: string, where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT oi.product_id, ${localDay(Prisma.sql`r.received_at`, zone)} AS day,
           COALESCE(max(oi.vendor_id), max(p.vendor_id)) AS vendor_id, sum(li.quantity)::int AS returned_units
    FROM return_line_items li JOIN returns r ON r.id = li.return_id JOIN order_items oi ON oi.id = li.order_item_id LEFT JOIN products p ON p.id = oi.product_id
    WHERE li.received AND r.received_at IS NOT NULL AND oi.product_id IS NOT NULL AND ${where}
    GROUP BY 1, 2`;
}

/**
 * Per product: a refunded return's amount spread over its received lines by their value (price ×
 * returned units), rounded to cents per line, on the refund's day.
 */
function refundsSql(zone: string, where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT product_id, day, COALESCE(max(vendor_id), max(product_vendor)) AS vendor_id, sum(share)::numeric(14,2) AS refunds
    FROM (
      SELECT oi.product_id, oi.vendor_id, p.vendor_id AS product_vendor, ${localDay(Prisma.sql`r.refunded_at`, zone)} AS day,
             round(r.refund_amount * (oi.price * li.quantity) / NULLIF(sum(oi.price * li.quantity) OVER (PARTITION BY r.id), 0), 2) AS share
      FROM return_line_items li JOIN returns r ON r.id = li.return_id JOIN order_items oi ON oi.id = li.order_item_id LEFT JOIN products p ON p.id = oi.product_id
      WHERE li.received AND r.refunded_at IS NOT NULL AND r.refund_amount IS NOT NULL AND oi.product_id IS NOT NULL AND ${where}
    ) t
    WHERE share IS NOT NULL
    GROUP BY 1, 2`;
}

/** Upserts `sign` × the rows of `select` (product_id, day, vendor_id and some measures). */
async function addRows(db: Client, select: Prisma.Sql, measures: ("orders" | "units" | "revenue" | "returned_units" | "refunds")[], sign: 1 | -1): Promise<void> {
  const cols = Prisma.raw(measures.join(", "));
  const values = Prisma.raw(measures.map((m) => `${sign} * q.${m}`).join(", "));
  const sets = Prisma.raw(measures.map((m) => `${m} = s.${m} + EXCLUDED.${m}`).join(", "));
  await db.$executeRaw`
    INSERT INTO product_daily_stats AS s (product_id, day, vendor_id, ${cols}, updated_at)
    SELECT q.product_id, q.day, q.vendor_id, ${values}, now() FROM (${select}) q ORDER BY q.product_id, q.day
    ON CONFLICT (product_id, day) DO UPDATE SET ${sets}, vendor_id = COALESCE(s.vendor_id, EXCLUDED.vendor_id), updated_at = EXCLUDED.updated_at`;
  // A day an order alone made leaves no row of zeros once the order is taken off (as the rebuild).
  if (sign < 0) {
    await db.$executeRaw`
      DELETE FROM product_daily_stats s USING (${select}) q
      WHERE s.product_id = q.product_id AND s.day = q.day AND ${ALL_ZERO}`;
  }
}

const ALL_ZERO = Prisma.sql`s.views = 0 AND s.saves = 0 AND s.try_ons = 0 AND s.add_to_carts = 0 AND s.orders = 0 AND s.units = 0
  AND s.revenue = 0 AND s.returned_units = 0 AND s.refunds = 0`;

/**
 * An order's orders / units / revenue, added (1) once its lines are stored the first time, taken
 * off (−1) when it is cancelled. The caller says it counted: recommendations' applyOrderPurchases
 * runs it exactly when the order's purchase events are written (once per order) and when they
 * are deleted (cancellation: once, as the events are gone after it).
 */
export async function applyOrderToDailyStats(db: Client, orderId: string, sign: 1 | -1, timeZone: string = statsTimeZone()): Promise<void> {
  await addRows(db, orderLinesSql(timeZone, Prisma.sql`o.id = ${orderId}`, sign < 0), ["orders", "units", "revenue"], sign);
}

/** A confirmed return's received units, on its confirmation day (call once, after the confirmation is stored). */
export async function applyReturnReceivedToDailyStats(db: Client, returnId: string, timeZone: string = statsTimeZone()): Promise<void> {
  await addRows(db, returnedSql(timeZone, Prisma.sql`r.id = ${returnId}`), ["returned_units"], 1);
}

/** A refunded return's amount, on its refund day (call once, after refunded_at is stored). */
export async function applyReturnRefundToDailyStats(db: Client, returnId: string, timeZone: string = statsTimeZone()): Promise<void> {
  await addRows(db, refundsSql(timeZone, Prisma.sql`r.id = ${returnId}`), ["refunds"], 1);
}

// ---------------------------------------------------------------------------------------------
// Rebuild

export interface RebuildOptions {
  /** First day (YYYY-MM-DD, store zone) to rebuild; default: the earliest event. */
  from?: string;
  /** Last day (included); default: the latest event. */
  to?: string;
  timeZone?: string;
}

/**
 * Recomputes the days from `from` to `to` (all days when not given) from the event tables, in one
 * transaction: views (product_view_events), saves (saved_products still saved: un-saved products
 * have no row left, so the rebuild counts fewer saves than the incremental path did), try-ons
 * (tryons rows), orders / units / revenue, returned units and refunds. add_to_carts has no event
 * table and is kept as it is. Rows left with nothing are deleted.
 */
export async function rebuildProductDailyStats(db: Db, opts: RebuildOptions = {}): Promise<{ rows: number }> {
  const zone = opts.timeZone ?? statsTimeZone();
  const inRange = (day: Prisma.Sql) =>
    Prisma.sql`(${opts.from ?? null}::date IS NULL OR ${day} >= ${opts.from ?? null}::date) AND (${opts.to ?? null}::date IS NULL OR ${day} <= ${opts.to ?? null}::date)`;
  const views = Prisma.sql`
    SELECT e.product_id, ${localDay(Prisma.sql`e.created_at`, zone)} AS day, max(p.vendor_id) AS vendor_id, count(*)::int AS views
    FROM product_view_events e LEFT JOIN products p ON p.id = e.product_id
    WHERE ${inRange(localDay(Prisma.sql`e.created_at`, zone))} GROUP BY 1, 2`;
  const saves = Prisma.sql`
    SELECT s.product_id, ${localDay(Prisma.sql`s."createdAt"`, zone)} AS day, max(p.vendor_id) AS vendor_id, count(*)::int AS saves
    FROM saved_products s LEFT JOIN products p ON p.id = s.product_id
    WHERE ${inRange(localDay(Prisma.sql`s."createdAt"`, zone))} GROUP BY 1, 2`;
  const tryOns = Prisma.sql`
    SELECT t.product_id, ${localDay(Prisma.sql`t.created_at`, zone)} AS day, max(p.vendor_id) AS vendor_id, count(*)::int AS try_ons
    FROM tryons t LEFT JOIN products p ON p.id = t.product_id
    WHERE ${inRange(localDay(Prisma.sql`t.created_at`, zone))} GROUP BY 1, 2`;
  const orders = orderLinesSql(zone, inRange(localDay(Prisma.sql`o.created_at`, zone)));
  const returned = returnedSql(zone, inRange(localDay(Prisma.sql`r.received_at`, zone)));
  const refunds = refundsSql(zone, inRange(localDay(Prisma.sql`r.refunded_at`, zone)));

  return db.$transaction(
    async (tx) => {
      const rangeOfRows = inRange(Prisma.sql`s.day`);
      await tx.$executeRaw`
        UPDATE product_daily_stats s SET views = 0, saves = 0, try_ons = 0, orders = 0, units = 0, revenue = 0, returned_units = 0, refunds = 0, updated_at = now()
        WHERE ${rangeOfRows}`;
      await tx.$executeRaw`
        INSERT INTO product_daily_stats AS s (product_id, day, vendor_id, views, saves, try_ons, orders, units, revenue, returned_units, refunds, updated_at)
        SELECT product_id, day, max(vendor_id), sum(views)::int, sum(saves)::int, sum(try_ons)::int, sum(orders)::int, sum(units)::int,
               sum(revenue)::numeric(14,2), sum(returned_units)::int, sum(refunds)::numeric(14,2), now()
        FROM (
          SELECT product_id, day, vendor_id, views, 0 AS saves, 0 AS try_ons, 0 AS orders, 0 AS units, 0::numeric AS revenue, 0 AS returned_units, 0::numeric AS refunds FROM (${views}) v
          UNION ALL SELECT product_id, day, vendor_id, 0, saves, 0, 0, 0, 0, 0, 0 FROM (${saves}) sv
          UNION ALL SELECT product_id, day, vendor_id, 0, 0, try_ons, 0, 0, 0, 0, 0 FROM (${tryOns}) t
          UNION ALL SELECT product_id, day, vendor_id, 0, 0, 0, orders, units, revenue, 0, 0 FROM (${orders}) o
          UNION ALL SELECT product_id, day, vendor_id, 0, 0, 0, 0, 0, 0, returned_units, 0 FROM (${returned}) r
          UNION ALL SELECT product_id, day, vendor_id, 0, 0, 0, 0, 0, 0, 0, refunds FROM (${refunds}) f
        ) u
        GROUP BY product_id, day
        ORDER BY product_id, day
        ON CONFLICT (product_id, day) DO UPDATE SET
          vendor_id = COALESCE(EXCLUDED.vendor_id, s.vendor_id),
          views = EXCLUDED.views, saves = EXCLUDED.saves, try_ons = EXCLUDED.try_ons, orders = EXCLUDED.orders, units = EXCLUDED.units,
          revenue = EXCLUDED.revenue, returned_units = EXCLUDED.returned_units, refunds = EXCLUDED.refunds, updated_at = EXCLUDED.updated_at`;
      await tx.$executeRaw`
        DELETE FROM product_daily_stats s WHERE ${rangeOfRows} AND ${ALL_ZERO}`;
      await rebuildVendorRollups(tx, opts);
      const [{ n }] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM product_daily_stats s WHERE ${rangeOfRows}`;
      return { rows: n };
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}

const ROLLUP_COLUMNS = Prisma.sql`views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds`;
const ROLLUP_SUMS = Prisma.sql`sum(views)::int, sum(saves)::int, sum(try_ons)::int, sum(add_to_carts)::int, sum(orders)::int, sum(units)::int,
  sum(revenue), sum(returned_units)::int, sum(refunds)`;

/**
 * Recomputes the rollups of product_daily_stats (vendor_daily_stats and product_monthly_stats,
 * migration 20261127220500) for the days from..to (all when not given; the months touching them)
 * from the daily rows. Their triggers keep them on every write already: this makes them right
 * again whatever happened to them, as part of the rebuild.
 */
export async function rebuildVendorRollups(db: Client, opts: { from?: string; to?: string } = {}): Promise<void> {
  const from = opts.from ?? null;
  const to = opts.to ?? null;
  const daysIn = (day: Prisma.Sql) => Prisma.sql`(${from}::date IS NULL OR ${day} >= ${from}::date) AND (${to}::date IS NULL OR ${day} <= ${to}::date)`;
  const monthIn = (month: Prisma.Sql) =>
    Prisma.sql`(${from}::date IS NULL OR ${month} >= date_trunc('month', ${from}::date)::date) AND (${to}::date IS NULL OR ${month} <= ${to}::date)`;
  await db.$executeRaw`DELETE FROM vendor_daily_stats WHERE ${daysIn(Prisma.sql`day`)}`;
  await db.$executeRaw`
    INSERT INTO vendor_daily_stats (vendor_id, day, ${ROLLUP_COLUMNS})
    SELECT vendor_id, day, ${ROLLUP_SUMS} FROM product_daily_stats
    WHERE vendor_id IS NOT NULL AND ${daysIn(Prisma.sql`day`)} GROUP BY 1, 2`;
  await db.$executeRaw`DELETE FROM product_monthly_stats WHERE ${monthIn(Prisma.sql`month`)}`;
  await db.$executeRaw`
    INSERT INTO product_monthly_stats (vendor_id, month, product_id, ${ROLLUP_COLUMNS})
    SELECT vendor_id, date_trunc('month', day)::date, product_id, ${ROLLUP_SUMS} FROM product_daily_stats
    WHERE vendor_id IS NOT NULL AND ${monthIn(Prisma.sql`date_trunc('month', day)::date`)} GROUP BY 1, 2, 3`;
}
