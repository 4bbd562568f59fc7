/**
 * Order analytics (GET /api/orders/admin/analytics): definitions in app/contract/order-analytics.ts.
 *
 * Everything is aggregated in SQL (orders per day; the items of the range read once and grouped per
 * day, product and vendor; refunds per day), starting from the orders' created_at index, so the cost
 * grows with the orders of the range; JavaScript only fills the days without orders, adds the days
 * up for the totals and maps the top rows.
 * Amounts travel as numeric text and are added as whole cents, so no float rounding creeps in.
 *
 * Days are calendar days in the store's time zone: the range's bounds are the UTC instants its
 * first and last days start and end there (app/lib/store-time-zone.ts, so the created_at index
 * still bounds the scan), and rows are grouped by `(created_at AT TIME ZONE 'UTC') AT TIME ZONE zone`.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import { invalid } from "~/lib/domain-errors";
import { addDays, daySpan, DEFAULT_STORE_TIME_ZONE, todayIn } from "~/lib/store-time-zone";
import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  ANALYTICS_TOP_LIMIT,
  analyticsRangeDays,
  type AnalyticsFigures,
  type OrderAnalytics,
} from "~/contract/order-analytics";

const DAY_MS = 86_400_000;
/** GROUPING(day, pkey, vendor_id) of each grouping set: the other two columns are rolled up. */
const SET_DAY = 3;
const SET_PRODUCT = 5;
const SET_VENDOR = 6;

export interface AnalyticsDeps {
  db: PrismaClient;
  now?: () => Date;
  /** The store's IANA time zone (config STORE_TIMEZONE); UTC when not given. */
  timeZone?: string;
}

export interface AnalyticsQuery {
  from?: string;
  to?: string;
  compare?: "previous";
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** A UTC instant as the plain timestamp created_at holds. */
const plainUtc = (d: Date) => d.toISOString().slice(0, 19).replace("T", " ");
/** "123.45" / "-0.5" / null → whole cents. */
function cents(v: string | null | undefined): number {
  if (!v) return 0;
  return Math.round(Number(v) * 100);
}
const money = (c: number) => (c / 100).toFixed(2);
const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

/** The inclusive day range asked for: missing `to` is today in the zone, missing `from` is 29 days before `to`. */
export function resolveAnalyticsRange(query: { from?: string; to?: string }, now: Date, timeZone: string = DEFAULT_STORE_TIME_ZONE): { from: string; to: string } {
  const to = query.to ?? todayIn(timeZone, now);
  const from = query.from ?? isoDay(dayMs(to) - (ANALYTICS_DEFAULT_DAYS - 1) * DAY_MS);
  const days = analyticsRangeDays(from, to);
  if (days < 1) throw invalid("from must not be after to", { from, to });
  if (days > ANALYTICS_MAX_DAYS) throw invalid(`The range must be at most ${ANALYTICS_MAX_DAYS} days`, { from, to, days });
  return { from, to };
}

/** The period of the same length that ends the day before `from`. */
export function previousRange(range: { from: string; to: string }): { from: string; to: string } {
  const days = analyticsRangeDays(range.from, range.to);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1) };
}

interface Day {
  orders: number;
  cancelledOrders: number;
  revenueCents: number;
  units: number;
  returnedUnits: number;
  refundedCents: number;
}
const emptyDay = (): Day => ({ orders: 0, cancelledOrders: 0, revenueCents: 0, units: 0, returnedUnits: 0, refundedCents: 0 });

function figures(d: Day): AnalyticsFigures {
  const kept = d.orders - d.cancelledOrders;
  return {
    orders: d.orders,
    cancelledOrders: d.cancelledOrders,
    revenue: money(d.revenueCents),
    averageOrderValue: money(kept > 0 ? Math.round(d.revenueCents / kept) : 0),
    units: d.units,
    returnedUnits: d.returnedUnits,
    refunded: money(d.refundedCents),
    returnRate: rate(d.returnedUnits, d.units),
    cancelRate: rate(d.cancelledOrders, d.orders),
  };
}

export async function orderAnalytics(deps: AnalyticsDeps, query: AnalyticsQuery): Promise<OrderAnalytics> {
  const timeZone = deps.timeZone ?? DEFAULT_STORE_TIME_ZONE;
  const range = resolveAnalyticsRange(query, deps.now?.() ?? new Date(), timeZone);
  // One period after the other: the embedded database serves one query at a time anyway.
  const current = await periodFigures(deps.db, range, timeZone);
  const compare = query.compare === "previous" ? await periodFigures(deps.db, previousRange(range), timeZone) : null;
  return {
    ...range,
    timeZone,
    currencyCode: current.currencyCode ?? compare?.currencyCode ?? "USD",
    totals: current.totals,
    daily: current.daily,
    topProducts: current.topProducts,
    topVendors: current.topVendors,
    compare: compare && { from: compare.from, to: compare.to, totals: compare.totals, daily: compare.daily },
  };
}

type Period = Pick<OrderAnalytics, "from" | "to" | "totals" | "daily" | "topProducts" | "topVendors"> & { currencyCode: string | null };

async function periodFigures(db: PrismaClient, { from, to }: { from: string; to: string }, timeZone: string): Promise<Period> {
  // created_at is a timestamp without time zone holding UTC: compare with plain timestamps so the
  // session's TimeZone setting never shifts the bounds.
  const span = daySpan(from, to, timeZone);
  const start = plainUtc(span.start);
  const end = plainUtc(span.end);
  const inRange = Prisma.sql`o.created_at >= ${start}::timestamp AND o.created_at < ${end}::timestamp`;
  const localDay = Prisma.sql`((o.created_at AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}::text)::date`;

  // Items sold in the range, read once. Units in a live return: the return is not cancelled and
  // its request (if any) was not declined or withdrawn; or the item itself is marked returned —
  // once per item, at most its quantity. The items are fetched per order through the order_id
  // index (LATERAL … OFFSET 0 keeps the planner from hashing the whole items table for a short
  // range), then grouped three ways in one pass (GROUPING SETS: per day, per product, per vendor),
  // the products and vendors ranked and cut to the top ones in SQL.
  type ItemRow = { rn: number | bigint; grp: number; day: string | null; product_id: string | null; title: string | null; vendor_id: string | null; vendor_name: string | null; units: number; returned: number; revenue: string };
  const itemSql = Prisma.sql`
    WITH live AS MATERIALIZED (
      SELECT rli.order_item_id, SUM(rli.quantity) AS q
      FROM orders o JOIN returns r ON r.order_id = o.id JOIN return_line_items rli ON rli.return_id = r.id
      LEFT JOIN return_requests rr ON rr.return_id = r.id
      WHERE ${inRange} AND r.status <> 'CANCELED' AND (rr.id IS NULL OR rr.status NOT IN ('DECLINED', 'CANCELED'))
      GROUP BY 1
    ), sold AS MATERIALIZED (
      SELECT ${localDay} AS day, i.*
      FROM orders o
      CROSS JOIN LATERAL (SELECT i.id, i.product_id, i.title, i.vendor_id, i.quantity, i.price, i.status FROM order_items i WHERE i.order_id = o.id AND i.status <> 'cancelled' OFFSET 0) i
      WHERE ${inRange} AND o.status <> 'cancelled'
    ), items AS MATERIALIZED (
      SELECT s.day, COALESCE(s.product_id, 'title:' || s.title) AS pkey, s.product_id, s.title, s.vendor_id, v.name AS vendor_name,
        s.quantity, s.price * s.quantity AS amount,
        LEAST(s.quantity, GREATEST(CASE WHEN s.status = 'returned' THEN s.quantity ELSE 0 END, COALESCE(live.q, 0))) AS returned
      FROM sold s LEFT JOIN live ON live.order_item_id = s.id LEFT JOIN vendors v ON v.id = s.vendor_id
    )
    SELECT * FROM (
      SELECT GROUPING(day, pkey, vendor_id)::int AS grp, day::text AS day, MAX(product_id) AS product_id, MAX(title) AS title,
        CASE WHEN GROUPING(vendor_id) = 0 THEN vendor_id ELSE MAX(vendor_id) END AS vendor_id, MAX(vendor_name) AS vendor_name,
        SUM(quantity)::int AS units, SUM(returned)::int AS returned, SUM(amount)::text AS revenue,
        row_number() OVER (
          PARTITION BY GROUPING(day, pkey, vendor_id)
          ORDER BY (GROUPING(vendor_id) = 0 AND vendor_id IS NULL), SUM(amount) DESC, SUM(quantity) DESC,
            CASE WHEN GROUPING(vendor_id) = 0 THEN MAX(vendor_name) ELSE MAX(title) END, MAX(pkey)
        ) AS rn
      FROM items GROUP BY GROUPING SETS ((day), (pkey), (vendor_id))
    ) g
    WHERE g.grp = ${SET_DAY} OR (g.grp = ${SET_PRODUCT} AND g.rn <= ${ANALYTICS_TOP_LIMIT}) OR (g.grp = ${SET_VENDOR} AND g.vendor_id IS NOT NULL AND g.rn <= ${ANALYTICS_TOP_LIMIT})`;

  const { orderRows, itemRows, refundRows, currency } = await db.$transaction(
    async (tx) => {
      // A long range costs enough for PostgreSQL to JIT-compile the plan, which takes longer than
      // the query itself (over a second for a year of 100k orders); these are short scans.
      await tx.$executeRaw`SET LOCAL jit = off`;
      // Sequential on purpose: one connection, and the embedded database serves one query at a time anyway.
      const orderRows = await tx.$queryRaw<{ day: string; orders: number; cancelled: number; revenue: string | null }[]>`
        SELECT ${localDay}::text AS day, COUNT(*)::int AS orders,
          (COUNT(*) FILTER (WHERE o.status = 'cancelled'))::int AS cancelled,
          (SUM(o.total_price) FILTER (WHERE o.status <> 'cancelled'))::text AS revenue
        FROM orders o WHERE ${inRange} GROUP BY 1`;
      const itemRows = await tx.$queryRaw<ItemRow[]>(itemSql);
      const refundRows = await tx.$queryRaw<{ day: string; refunded: string | null }[]>`
        SELECT ${localDay}::text AS day, SUM(r.refund_amount)::text AS refunded
        FROM orders o JOIN returns r ON r.order_id = o.id
        WHERE ${inRange} AND o.status <> 'cancelled' AND r.status = 'REFUNDED' AND r.refund_amount IS NOT NULL GROUP BY 1`;
      const currency = await tx.$queryRaw<{ code: string }[]>`
        SELECT o."currencyCode" AS code FROM orders o WHERE ${inRange} GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT 1`;
      return { orderRows, itemRows, refundRows, currency };
    },
    { timeout: 60_000 },
  );

  const days = new Map<string, Day>();
  const dayOf = (d: string) => {
    let x = days.get(d);
    if (!x) days.set(d, (x = emptyDay()));
    return x;
  };
  for (const r of orderRows) Object.assign(dayOf(r.day), { orders: r.orders, cancelledOrders: r.cancelled, revenueCents: cents(r.revenue) });
  for (const r of itemRows) if (r.grp === SET_DAY && r.day) Object.assign(dayOf(r.day), { units: r.units, returnedUnits: r.returned });
  const topProducts = itemRows.filter((r) => r.grp === SET_PRODUCT).sort((a, b) => Number(a.rn) - Number(b.rn));
  const topVendors = itemRows.filter((r) => r.grp === SET_VENDOR && r.vendor_id && r.vendor_name).sort((a, b) => Number(a.rn) - Number(b.rn));
  for (const r of refundRows) dayOf(r.day).refundedCents = cents(r.refunded);

  const total = emptyDay();
  const daily: OrderAnalytics["daily"] = [];
  for (let ms = dayMs(from); ms <= dayMs(to); ms += DAY_MS) {
    const date = isoDay(ms);
    const d = days.get(date) ?? emptyDay();
    (Object.keys(total) as (keyof Day)[]).forEach((k) => (total[k] += d[k]));
    daily.push({ date, ...figures(d) });
  }
  return {
    from,
    to,
    currencyCode: currency[0]?.code ?? null,
    totals: figures(total),
    daily,
    topProducts: topProducts.map((p) => ({ productId: p.product_id, title: p.title ?? "", vendorId: p.vendor_id, vendorName: p.vendor_name, units: p.units, revenue: Number(p.revenue).toFixed(2) })),
    topVendors: topVendors.map((v) => ({ vendorId: v.vendor_id!, name: v.vendor_name!, units: v.units, revenue: Number(v.revenue).toFixed(2) })),
  };
}
