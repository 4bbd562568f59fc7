/**
 * Vendor analytics (GET /api/vendors/me/… and /api/vendors/{id}/…): definitions in
 * app/contract/vendor-analytics.ts.
 *
 * Everything is summed from product_daily_stats (one row per product and store-time-zone day,
 * kept by app/services/vendor-stats/daily-stats.server.ts) and its two rollups, kept from it by
 * triggers (migration 20261127220500): vendor_daily_stats (the vendor's day) for the summary and
 * the all-products series, product_monthly_stats (vendor, month, product) for the product lists,
 * which read a range's whole months there and only its partial months by day. A year of a vendor
 * with a hundred products is then ~7k rows instead of ~36k (and 365 for the summary). The row's
 * vendor_id is the product's vendor when the event happened, so a product that changed vendors
 * keeps its past with the vendor that had it. Rows hold plain dates already in the store's zone, so
 * no time-zone arithmetic happens here beyond finding "today".
 *
 * Counts are summed in SQL per day or per product; amounts travel as numeric text and are added
 * as whole cents in JavaScript, so no float rounding creeps in; rates are derived last.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import { invalid, notFoundError } from "~/lib/domain-errors";
import { addDays, DEFAULT_STORE_TIME_ZONE } from "~/lib/store-time-zone";
import { previousRange, resolveAnalyticsRange } from "~/services/orders/analytics.server";
import type {
  VendorAnalyticsSummary,
  VendorMeasures,
  VendorMeasuresDay,
  VendorPerformanceSort,
  VendorPerformanceTimeseries,
  VendorProductPerformance,
  VendorProductsPerformance,
  VendorTopProducts,
  VendorTopProductsBy,
} from "~/contract/vendor-analytics";
import { VENDOR_PERFORMANCE_DEFAULT_LIMIT, VENDOR_TOP_PRODUCTS_DEFAULT_LIMIT } from "~/contract/vendor-analytics";
import type { VendorProductStatus } from "~/contract/vendors";

export interface VendorAnalyticsDeps {
  db: PrismaClient;
  now?: () => Date;
  /** The store's IANA time zone (config STORE_TIMEZONE); UTC when not given. */
  timeZone?: string;
}

interface Range {
  from?: string;
  to?: string;
}

/** Sums of one day, product or range; amounts in whole cents. */
interface Sums {
  views: number;
  saves: number;
  tryOns: number;
  addToCarts: number;
  orders: number;
  units: number;
  revenueCents: number;
  returnedUnits: number;
  refundsCents: number;
}
const zero = (): Sums => ({ views: 0, saves: 0, tryOns: 0, addToCarts: 0, orders: 0, units: 0, revenueCents: 0, returnedUnits: 0, refundsCents: 0 });
function add(into: Sums, s: Sums): void {
  for (const k of Object.keys(into) as (keyof Sums)[]) into[k] += s[k];
}

/** "123.45" / null → whole cents. */
const cents = (v: string | null | undefined) => (v ? Math.round(Number(v) * 100) : 0);
const money = (c: number) => (c / 100).toFixed(2);
const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

export function measures(s: Sums): VendorMeasures {
  return {
    views: s.views,
    saves: s.saves,
    tryOns: s.tryOns,
    addToCarts: s.addToCarts,
    orders: s.orders,
    units: s.units,
    revenue: money(s.revenueCents),
    returnedUnits: s.returnedUnits,
    refunds: money(s.refundsCents),
    returnRate: rate(s.returnedUnits, s.units),
    conversion: rate(s.orders, s.views),
  };
}

/** The summed columns as a SQL row; `SUM(int)` is bigint, cast back (a vendor's day or product stays far below 2^31). */
const SUMS_SQL = Prisma.sql`
  SUM(s.views)::int AS views, SUM(s.saves)::int AS saves, SUM(s.try_ons)::int AS try_ons, SUM(s.add_to_carts)::int AS add_to_carts,
  SUM(s.orders)::int AS orders, SUM(s.units)::int AS units, SUM(s.revenue)::text AS revenue,
  SUM(s.returned_units)::int AS returned_units, SUM(s.refunds)::text AS refunds`;

interface SumsRow {
  views: number | null;
  saves: number | null;
  try_ons: number | null;
  add_to_carts: number | null;
  orders: number | null;
  units: number | null;
  revenue: string | null;
  returned_units: number | null;
  refunds: string | null;
}
const sumsOf = (r: SumsRow): Sums => ({
  views: r.views ?? 0,
  saves: r.saves ?? 0,
  tryOns: r.try_ons ?? 0,
  addToCarts: r.add_to_carts ?? 0,
  orders: r.orders ?? 0,
  units: r.units ?? 0,
  revenueCents: cents(r.revenue),
  returnedUnits: r.returned_units ?? 0,
  refundsCents: cents(r.refunds),
});

function resolveRange(deps: VendorAnalyticsDeps, query: Range): { from: string; to: string; timeZone: string } {
  const timeZone = deps.timeZone ?? DEFAULT_STORE_TIME_ZONE;
  return { ...resolveAnalyticsRange(query, deps.now?.() ?? new Date(), timeZone), timeZone };
}

/**
 * One statement, run with JIT off: a long range of a large vendor is costed high enough for
 * PostgreSQL to compile the plan, which takes longer than the sum itself. A batch transaction
 * (BEGIN, SET LOCAL, the statement, COMMIT) rather than an interactive one: no round trip waits
 * on JavaScript in between. The rows travel as one JSON text (json_agg): the client decodes each
 * row and column of a raw query on its own, which for a year and its previous period (730 days)
 * cost twice the JSON's parse (measured: 365 rows 20.9 ms as rows, 10.7 ms as JSON, load 8).
 * Every column the statements select is text, int or boolean, so the JSON gives the same values.
 */
async function read<T>(db: PrismaClient, statement: Prisma.Sql): Promise<T[]> {
  const [, rows] = await db.$transaction([
    db.$executeRaw`SET LOCAL jit = off`,
    db.$queryRaw<{ rows: string }[]>`SELECT COALESCE(json_agg(q), '[]')::text AS rows FROM (${statement}) q`,
  ]);
  return JSON.parse(rows[0]?.rows ?? "[]") as T[];
}

/** The vendor's currency: the one most of its products are priced in (USD without products). */
const currencySql = (vendorId: string) =>
  Prisma.sql`COALESCE((SELECT "currencyCode" FROM products WHERE vendor_id = ${vendorId} GROUP BY 1 ORDER BY COUNT(*) DESC, 1 LIMIT 1), 'USD')`;

/** 404 unless the vendor exists (the admin routes by id). */
export async function requireVendorExists(db: PrismaClient, vendorId: string): Promise<void> {
  const found = await db.vendor.findUnique({ where: { id: vendorId }, select: { id: true } });
  if (!found) throw notFoundError("Vendor not found");
}

/**
 * Per-day sums of the vendor (one product or all) from `from` to `to`, its currency and, for one
 * product, whether the product is the vendor's (now, or when it had rows with the vendor before it
 * changed hands): one row at least, with a null day when nothing happened.
 */
async function dailySums(db: PrismaClient, vendorId: string, from: string, to: string, productId?: string): Promise<{ byDay: Map<string, Sums>; currencyCode: string; owned: boolean }> {
  const owned =
    productId === undefined
      ? Prisma.sql`true`
      : Prisma.sql`(EXISTS (SELECT 1 FROM products WHERE id = ${productId} AND vendor_id = ${vendorId})
          OR EXISTS (SELECT 1 FROM product_daily_stats WHERE product_id = ${productId} AND vendor_id = ${vendorId}))`;
  // All products: the vendor's own day rows; one product: its day rows (its primary key).
  const source = productId === undefined ? Prisma.sql`vendor_daily_stats` : Prisma.sql`product_daily_stats`;
  const rows = await read<SumsRow & { day: string | null; currency: string; owned: boolean }>(
    db,
    Prisma.sql`
      WITH d AS (
        SELECT s.day::text AS day, ${SUMS_SQL}
        FROM ${source} s
        WHERE s.vendor_id = ${vendorId} AND s.day >= ${from}::date AND s.day <= ${to}::date
          ${productId === undefined ? Prisma.empty : Prisma.sql`AND s.product_id = ${productId}`}
        GROUP BY s.day
      )
      SELECT meta.currency, meta.owned, d.* FROM (SELECT ${currencySql(vendorId)} AS currency, ${owned} AS owned) meta LEFT JOIN d ON true`,
  );
  return {
    byDay: new Map(rows.filter((r) => r.day !== null).map((r) => [r.day!, sumsOf(r)])),
    currencyCode: rows[0]?.currency ?? "USD",
    owned: rows[0]?.owned ?? false,
  };
}

/** Every day of the range (zeros for days without rows) and their totals. */
function series(byDay: Map<string, Sums>, from: string, to: string): { totals: VendorMeasures; daily: VendorMeasuresDay[] } {
  const total = zero();
  const daily: VendorMeasuresDay[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const s = byDay.get(day) ?? zero();
    add(total, s);
    daily.push({ date: day, ...measures(s) });
  }
  return { totals: measures(total), daily };
}

export async function vendorAnalyticsSummary(
  deps: VendorAnalyticsDeps,
  vendorId: string,
  query: Range & { compare?: "previous" },
): Promise<VendorAnalyticsSummary> {
  const range = resolveRange(deps, query);
  const prev = query.compare === "previous" ? previousRange(range) : null;
  // One read covers both periods: they are adjacent.
  const { byDay, currencyCode } = await dailySums(deps.db, vendorId, prev?.from ?? range.from, range.to);
  return {
    vendorId,
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    currencyCode,
    ...series(byDay, range.from, range.to),
    compare: prev && { ...prev, ...series(byDay, prev.from, prev.to) },
  };
}

export async function vendorPerformanceTimeseries(
  deps: VendorAnalyticsDeps,
  vendorId: string,
  query: Range & { productId?: string },
): Promise<VendorPerformanceTimeseries> {
  const range = resolveRange(deps, query);
  const { byDay, currencyCode, owned } = await dailySums(deps.db, vendorId, range.from, range.to, query.productId);
  if (!owned) throw notFoundError("Product not found");
  return {
    vendorId,
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    currencyCode,
    productId: query.productId ?? null,
    ...series(byDay, range.from, range.to),
  };
}

interface ProductRow extends SumsRow {
  product_id: string;
  title: string;
  handle: string | null;
  status: string | null;
  image_url: string | null;
  currency: string;
}

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * The whole calendar months inside from..to: [fullFrom, fullEnd) as first days of months (empty
 * when fullFrom >= fullEnd); the days before fullFrom and from fullEnd on are read by day.
 */
export function wholeMonths(from: string, to: string): { fullFrom: string; fullEnd: string } {
  const fullFrom = from.endsWith("-01") ? from : addDays(monthStart(from), 32).slice(0, 7) + "-01";
  const after = addDays(to, 1);
  const fullEnd = after.endsWith("-01") ? after : monthStart(to);
  return { fullFrom, fullEnd };
}

/**
 * The vendor's products with their sums over the range: its products in the catalogue (zeros when
 * idle) and, when `withIdle` is false, only those with rows. Products that left the catalogue keep
 * the title of their last order line.
 */
function productRowsSql(vendorId: string, from: string, to: string, withIdle: boolean): Prisma.Sql {
  const cols = Prisma.sql`product_id, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds`;
  const days = (a: string, b: string) =>
    Prisma.sql`SELECT ${cols} FROM product_daily_stats WHERE vendor_id = ${vendorId} AND day >= ${a}::date AND day <= ${b}::date`;
  const { fullFrom, fullEnd } = wholeMonths(from, to);
  const parts =
    fullFrom < fullEnd
      ? [
          Prisma.sql`SELECT ${cols} FROM product_monthly_stats WHERE vendor_id = ${vendorId} AND month >= ${fullFrom}::date AND month < ${fullEnd}::date`,
          ...(from < fullFrom ? [days(from, addDays(fullFrom, -1))] : []),
          ...(fullEnd <= to ? [days(fullEnd, to)] : []),
        ]
      : [days(from, to)];
  // A monthly row can be left with zeros (an order alone made it, then was cancelled) where the
  // daily row is gone: such a product counts as having no rows, as it did by day.
  return Prisma.sql`
    WITH cur AS (SELECT ${currencySql(vendorId)} AS code), agg AS (
      SELECT s.product_id, ${SUMS_SQL}
      FROM (${Prisma.join(parts, " UNION ALL ")}) s
      GROUP BY s.product_id
      HAVING bool_or(s.views <> 0 OR s.saves <> 0 OR s.try_ons <> 0 OR s.add_to_carts <> 0 OR s.orders <> 0 OR s.units <> 0
        OR s.revenue <> 0 OR s.returned_units <> 0 OR s.refunds <> 0)
    ), ids AS (
      SELECT product_id FROM agg
      ${withIdle ? Prisma.sql`UNION SELECT id FROM products WHERE vendor_id = ${vendorId}` : Prisma.empty}
    )
    SELECT ids.product_id,
      COALESCE(p.title, (SELECT oi.title FROM order_items oi WHERE oi.product_id = ids.product_id ORDER BY oi.created_at DESC LIMIT 1), ids.product_id) AS title,
      p.handle, p.status::text AS status, p."featuredImageUrl" AS image_url, (SELECT code FROM cur) AS currency,
      agg.views, agg.saves, agg.try_ons, agg.add_to_carts, agg.orders, agg.units, agg.revenue, agg.returned_units, agg.refunds
    FROM ids LEFT JOIN agg ON agg.product_id = ids.product_id LEFT JOIN products p ON p.id = ids.product_id`;
}

async function productRows(db: PrismaClient, vendorId: string, range: { from: string; to: string }, withIdle: boolean): Promise<{ rows: ProductRow[]; currencyCode: string }> {
  const rows = await read<ProductRow>(db, productRowsSql(vendorId, range.from, range.to, withIdle));
  // Without rows (no product, nothing sold) the currency is asked alone.
  const currencyCode = rows[0]?.currency ?? (await read<{ code: string }>(db, Prisma.sql`SELECT ${currencySql(vendorId)} AS code`))[0]?.code ?? "USD";
  return { rows, currencyCode };
}

interface Ranked {
  row: ProductRow;
  sums: Sums;
  perf: VendorProductPerformance;
}
const ranked = (row: ProductRow): Ranked => {
  const sums = sumsOf(row);
  return {
    row,
    sums,
    perf: { productId: row.product_id, title: row.title, handle: row.handle, status: row.status, imageUrl: row.image_url, measures: measures(sums) },
  };
};

/** The value a product is sorted by (rates as computed for the answer, so pages agree with what they show). */
function sortValue(x: Ranked, sort: VendorPerformanceSort | VendorTopProductsBy): number | string {
  const m = x.perf.measures;
  switch (sort) {
    case "views":
      return m.views;
    case "saves":
      return m.saves;
    case "try_ons":
      return m.tryOns;
    case "add_to_carts":
      return m.addToCarts;
    case "orders":
      return m.orders;
    case "units":
      return m.units;
    case "revenue":
      return x.sums.revenueCents;
    case "returned_units":
      return m.returnedUnits;
    case "refunds":
      return x.sums.refundsCents;
    case "return_rate":
      return m.returnRate;
    case "conversion":
      return m.conversion;
    case "title":
      return x.perf.title.toLocaleLowerCase("en");
  }
}

const compareValues = (a: number | string, b: number | string) => (typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

export async function vendorTopProducts(
  deps: VendorAnalyticsDeps,
  vendorId: string,
  query: Range & { by?: VendorTopProductsBy; limit?: number },
): Promise<VendorTopProducts> {
  const range = resolveRange(deps, query);
  const by = query.by ?? "revenue";
  const limit = query.limit ?? VENDOR_TOP_PRODUCTS_DEFAULT_LIMIT;
  const { rows, currencyCode } = await productRows(deps.db, vendorId, range, false);
  const items = rows
    .map(ranked)
    .filter((x) => (sortValue(x, by) as number) > 0)
    .sort(
      (a, b) =>
        compareValues(sortValue(b, by), sortValue(a, by)) ||
        b.sums.revenueCents - a.sums.revenueCents ||
        b.sums.units - a.sums.units ||
        compareValues(sortValue(a, "title"), sortValue(b, "title")) ||
        compareValues(a.perf.productId, b.perf.productId),
    )
    .slice(0, limit)
    .map((x) => x.perf);
  return { vendorId, from: range.from, to: range.to, timeZone: range.timeZone, currencyCode, by, items };
}

interface Cursor {
  sort: VendorPerformanceSort;
  order: "asc" | "desc";
  value: number | string;
  productId: string;
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.sort, c.order, c.value, c.productId])).toString("base64url");
function decodeCursor(raw: string, sort: VendorPerformanceSort, order: "asc" | "desc"): Cursor {
  try {
    const [s, o, value, productId] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown[];
    if (s === sort && o === order && (typeof value === "number" || typeof value === "string") && typeof productId === "string") return { sort, order, value, productId };
  } catch {
    // reported below
  }
  throw invalid("cursor is not a cursor of this listing (same sort and order)", { cursor: raw });
}

export async function vendorProductsPerformance(
  deps: VendorAnalyticsDeps,
  vendorId: string,
  query: Range & { sort?: VendorPerformanceSort; order?: "asc" | "desc"; q?: string; status?: VendorProductStatus; cursor?: string; limit?: number },
): Promise<VendorProductsPerformance> {
  const range = resolveRange(deps, query);
  const sort = query.sort ?? "revenue";
  const order = query.order ?? (sort === "title" ? "asc" : "desc");
  const limit = query.limit ?? VENDOR_PERFORMANCE_DEFAULT_LIMIT;
  const after = query.cursor ? decodeCursor(query.cursor, sort, order) : null;
  const { rows, currencyCode } = await productRows(deps.db, vendorId, range, true);
  // A vendor has hundreds of products, not millions: its whole list is summed in one statement
  // and searched, sorted and paged here; the cursor is the last row's sort value and id, so pages
  // do not skip or repeat rows when figures move between two calls.
  const words = (query.q ?? "").toLocaleLowerCase("en").split(/\s+/).filter(Boolean);
  const dir = order === "asc" ? 1 : -1;
  const cmp = (av: number | string, aid: string, bv: number | string, bid: string) => dir * compareValues(av, bv) || compareValues(aid, bid);
  const all = rows
    .map(ranked)
    .filter((x) => (query.status === undefined || x.perf.status === query.status) && words.every((w) => x.perf.title.toLocaleLowerCase("en").includes(w)))
    .sort((a, b) => cmp(sortValue(a, sort), a.perf.productId, sortValue(b, sort), b.perf.productId));
  const rest = after ? all.filter((x) => cmp(sortValue(x, sort), x.perf.productId, after.value, after.productId) > 0) : all;
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  return {
    vendorId,
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    currencyCode,
    items: page.map((x) => x.perf),
    total: all.length,
    nextCursor: rest.length > limit && last ? encodeCursor({ sort, order, value: sortValue(last, sort), productId: last.perf.productId }) : null,
  };
}

