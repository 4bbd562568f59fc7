/**
 * Order analytics (GET /api/orders/admin/analytics): definitions in app/contract/order-analytics.ts.
 *
 * Everything is aggregated in SQL per day (four grouped queries over the range, using the
 * orders' created_at index), so the cost grows with the orders of the range, not with what is
 * sent back; JavaScript only fills the days without orders and adds the days up for the totals.
 * Amounts travel as numeric text and are added as whole cents, so no float rounding creeps in.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import { invalid } from "~/lib/domain-errors";
import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  ANALYTICS_TOP_LIMIT,
  analyticsRangeDays,
  type AnalyticsFigures,
  type OrderAnalytics,
} from "~/contract/order-analytics";

const DAY_MS = 86_400_000;

export interface AnalyticsDeps {
  db: PrismaClient;
  now?: () => Date;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** "123.45" / "-0.5" / null → whole cents. */
function cents(v: string | null | undefined): number {
  if (!v) return 0;
  return Math.round(Number(v) * 100);
}
const money = (c: number) => (c / 100).toFixed(2);
const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

/** The inclusive UTC day range asked for: missing `to` is today, missing `from` is 29 days before `to`. */
export function resolveAnalyticsRange(query: { from?: string; to?: string }, now: Date): { from: string; to: string } {
  const to = query.to ?? isoDay(now.getTime());
  const from = query.from ?? isoDay(dayMs(to) - (ANALYTICS_DEFAULT_DAYS - 1) * DAY_MS);
  const days = analyticsRangeDays(from, to);
  if (days < 1) throw invalid("from must not be after to", { from, to });
  if (days > ANALYTICS_MAX_DAYS) throw invalid(`The range must be at most ${ANALYTICS_MAX_DAYS} days`, { from, to, days });
  return { from, to };
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

export async function orderAnalytics(deps: AnalyticsDeps, query: { from?: string; to?: string }): Promise<OrderAnalytics> {
  const { db } = deps;
  const { from, to } = resolveAnalyticsRange(query, deps.now?.() ?? new Date());
  // created_at is a timestamp without time zone holding UTC: compare with plain timestamps so the
  // session's TimeZone setting never shifts the bounds.
  const start = `${from} 00:00:00`;
  const end = `${isoDay(dayMs(to) + DAY_MS)} 00:00:00`;
  const inRange = Prisma.sql`o.created_at >= ${start}::timestamp AND o.created_at < ${end}::timestamp`;
  // Units in a live return: the return is not cancelled and its request (if any) was not declined
  // or withdrawn; or the item itself is marked returned. Once per item, at most its quantity.
  const returnedQty = Prisma.sql`LEAST(i.quantity, GREATEST(
      CASE WHEN i.status = 'returned' THEN i.quantity ELSE 0 END,
      COALESCE((
        SELECT SUM(rli.quantity) FROM return_line_items rli
        JOIN returns r ON r.id = rli.return_id
        LEFT JOIN return_requests rr ON rr.return_id = r.id
        WHERE rli.order_item_id = i.id AND r.status <> 'CANCELED' AND (rr.id IS NULL OR rr.status NOT IN ('DECLINED', 'CANCELED'))
      ), 0)))`;
  const soldItems = Prisma.sql`orders o JOIN order_items i ON i.order_id = o.id WHERE ${inRange} AND o.status <> 'cancelled' AND i.status <> 'cancelled'`;

  // Sequential on purpose: the embedded database serves one query at a time anyway.
  const orderRows = await db.$queryRaw<{ day: string; orders: number; cancelled: number; revenue: string | null }[]>`
    SELECT o.created_at::date::text AS day, COUNT(*)::int AS orders,
      (COUNT(*) FILTER (WHERE o.status = 'cancelled'))::int AS cancelled,
      (SUM(o.total_price) FILTER (WHERE o.status <> 'cancelled'))::text AS revenue
    FROM orders o WHERE ${inRange} GROUP BY 1`;
  const itemRows = await db.$queryRaw<{ day: string; units: number; returned: number }[]>`
    SELECT o.created_at::date::text AS day, COALESCE(SUM(i.quantity), 0)::int AS units, COALESCE(SUM(${returnedQty}), 0)::int AS returned
    FROM ${soldItems} GROUP BY 1`;
  const refundRows = await db.$queryRaw<{ day: string; refunded: string | null }[]>`
    SELECT o.created_at::date::text AS day, SUM(r.refund_amount)::text AS refunded
    FROM orders o JOIN returns r ON r.order_id = o.id
    WHERE ${inRange} AND o.status <> 'cancelled' AND r.status = 'REFUNDED' AND r.refund_amount IS NOT NULL GROUP BY 1`;
  const currency = await db.$queryRaw<{ code: string }[]>`
    SELECT o."currencyCode" AS code FROM orders o WHERE ${inRange} GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT 1`;
  const topProducts = await db.$queryRaw<{ product_id: string | null; title: string; vendor_id: string | null; vendor_name: string | null; units: number; revenue: string }[]>`
    SELECT t.product_id, t.title, t.vendor_id, v.name AS vendor_name, t.units, t.revenue::text AS revenue FROM (
      SELECT MAX(i.product_id) AS product_id, MAX(i.title) AS title, MAX(i.vendor_id) AS vendor_id,
        SUM(i.quantity)::int AS units, SUM(i.price * i.quantity) AS revenue
      FROM ${soldItems}
      GROUP BY COALESCE(i.product_id, 'title:' || i.title)
    ) t LEFT JOIN vendors v ON v.id = t.vendor_id
    ORDER BY t.revenue DESC, t.units DESC, t.title LIMIT ${ANALYTICS_TOP_LIMIT}`;
  const topVendors = await db.$queryRaw<{ vendor_id: string; name: string; units: number; revenue: string }[]>`
    SELECT t.vendor_id, v.name, t.units, t.revenue::text AS revenue FROM (
      SELECT i.vendor_id, SUM(i.quantity)::int AS units, SUM(i.price * i.quantity) AS revenue
      FROM ${soldItems} AND i.vendor_id IS NOT NULL
      GROUP BY i.vendor_id
    ) t JOIN vendors v ON v.id = t.vendor_id
    ORDER BY t.revenue DESC, t.units DESC, v.name LIMIT ${ANALYTICS_TOP_LIMIT}`;

  const days = new Map<string, Day>();
  const dayOf = (d: string) => {
    let x = days.get(d);
    if (!x) days.set(d, (x = emptyDay()));
    return x;
  };
  for (const r of orderRows) Object.assign(dayOf(r.day), { orders: r.orders, cancelledOrders: r.cancelled, revenueCents: cents(r.revenue) });
  for (const r of itemRows) Object.assign(dayOf(r.day), { units: r.units, returnedUnits: r.returned });
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
    timeZone: "UTC",
    currencyCode: currency[0]?.code ?? "USD",
    totals: figures(total),
    daily,
    topProducts: topProducts.map((p) => ({ productId: p.product_id, title: p.title, vendorId: p.vendor_id, vendorName: p.vendor_name, units: p.units, revenue: Number(p.revenue).toFixed(2) })),
    topVendors: topVendors.map((v) => ({ vendorId: v.vendor_id, name: v.name, units: v.units, revenue: Number(v.revenue).toFixed(2) })),
  };
}
