/**
 * A vendor's payouts (issue 17; definitions in app/contract/vendors.ts): monthly periods in the
 * store's time zone with gross sales, refunds, returns, commission and net.
 *
 * How payout rows come to exist: a month gets its `vendor_payouts` row once it is closed (the
 * store's calendar has moved past it) and someone reads it — the vendor's or an admin's payouts
 * page, marking a payout paid, or an admin changing the vendor's commission rate, which first
 * makes the rows of every closed month still missing so they keep the rate they were earned
 * under. The row records the vendor's rate at that moment (`commission_rate`). The demo seed
 * writes its rows directly (prisma/demo/vendor-activity.ts), with the same period bounds.
 * While a row is pending its figures are recomputed on each read (a late webhook — a refund
 * recorded after the month closed in the store but synced late — still lands), always at the
 * row's own rate; once paid (or failed) the row is frozen and answered as stored. The current
 * month has no row: it is computed live at the vendor's current rate (status `open`). Closed
 * months without a sale, refund or return get no row and are not listed.
 *
 * Figures come straight from the orders, items and returns (not from product_daily_stats): a
 * payout is money owed, read from the records the money comes from; the monthly grouping uses the
 * (vendor_id, created_at) index of order_items.
 */
import { Prisma, type VendorPayout as VendorPayoutRow } from "@prisma/client";
import type { Db } from "~/db.server";
import type { VendorPayout, VendorPayouts } from "~/contract/vendors";
import { monthsBetween, VENDOR_PAYOUTS_CSV_COLUMNS, VENDOR_PAYOUTS_DEFAULT_MONTHS, VENDOR_PAYOUTS_MAX_MONTHS } from "~/contract/vendors";
import { conflictError, invalid, notFoundError } from "~/lib/domain-errors";
import { dayStart, todayIn } from "~/lib/store-time-zone";
import { commissionRateText, mustFindVendor } from "./portal.server";

export const PAYOUT_NOT_FOUND = "Payout not found";

const D = (v: Prisma.Decimal.Value) => new Prisma.Decimal(v);
const money = (d: Prisma.Decimal) => d.toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP).toFixed(2);

/** "2026-11" → "2026-12". */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}
export function addMonths(month: string, n: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
}
/** The instant a month starts in `zone` (its first day's local midnight). */
export const monthStart = (month: string, zone: string) => dayStart(`${month}-01`, zone);

interface MonthFigures {
  gross: Prisma.Decimal;
  units: number;
  refunds: Prisma.Decimal;
  returns: Prisma.Decimal;
  returnedUnits: number;
}
const emptyFigures = (): MonthFigures => ({ gross: D(0), units: 0, refunds: D(0), returns: D(0), returnedUnits: 0 });
const hasActivity = (f: MonthFigures) => !f.gross.isZero() || !f.refunds.isZero() || !f.returns.isZero() || f.units > 0 || f.returnedUnits > 0;

const localMonth = (col: Prisma.Sql, zone: string) => Prisma.sql`to_char((${col} AT TIME ZONE 'UTC') AT TIME ZONE ${zone}, 'YYYY-MM')`;
const vendorOfItem = Prisma.sql`COALESCE(oi.vendor_id, p.vendor_id)`;
/**
 * The vendor's order items: its own (the item's vendor_id, through its index) and, for items
 * recorded without one, those of its products. Two index walks instead of a scan of every item.
 */
const vendorItems = (vendorId: string) => Prisma.sql`
  SELECT oi.order_id, oi.price, oi.quantity, oi.status, oi."currencyCode" FROM order_items oi WHERE oi.vendor_id = ${vendorId}
  UNION ALL
  SELECT oi.order_id, oi.price, oi.quantity, oi.status, oi."currencyCode" FROM products p JOIN order_items oi ON oi.product_id = p.id
  WHERE p.vendor_id = ${vendorId} AND oi.vendor_id IS NULL`;

/** The vendor's figures per month (YYYY-MM) of [fromMonth, toMonth], and the currency of its sales. */
async function monthFigures(db: Db, vendorId: string, fromMonth: string, toMonth: string, zone: string): Promise<{ byMonth: Map<string, MonthFigures>; currency: string | null }> {
  const start = monthStart(fromMonth, zone);
  const end = monthStart(nextMonth(toMonth), zone);
  const [sales, refunds, returns] = await Promise.all([
    db.$queryRaw<{ month: string; gross: string; units: number; currency: string | null }[]>`
      SELECT ${localMonth(Prisma.sql`o.created_at`, zone)} AS month, sum(oi.price * oi.quantity)::text AS gross,
             sum(oi.quantity)::int AS units, max(oi."currencyCode") AS currency
      FROM (${vendorItems(vendorId)}) oi JOIN orders o ON o.id = oi.order_id
      WHERE o.created_at >= ${start} AND o.created_at < ${end} AND oi.status <> 'cancelled' AND o.status <> 'cancelled'
      GROUP BY 1`,
    // A refund is spread over its return's received lines by their value, all vendors' lines
    // together, rounded per line (as product_daily_stats does); the vendor's shares are summed.
    db.$queryRaw<{ month: string; refunds: string }[]>`
      SELECT month, sum(share)::text AS refunds FROM (
        SELECT ${localMonth(Prisma.sql`r.refunded_at`, zone)} AS month, ${vendorOfItem} AS vendor_id,
               round(r.refund_amount * (oi.price * li.quantity) / NULLIF(sum(oi.price * li.quantity) OVER (PARTITION BY r.id), 0), 2) AS share
        FROM returns r JOIN return_line_items li ON li.return_id = r.id JOIN order_items oi ON oi.id = li.order_item_id
        LEFT JOIN products p ON p.id = oi.product_id
        WHERE li.received AND r.refund_amount IS NOT NULL AND r.refunded_at >= ${start} AND r.refunded_at < ${end}
      ) x WHERE vendor_id = ${vendorId} AND share IS NOT NULL GROUP BY month`,
    db.$queryRaw<{ month: string; value: string; units: number }[]>`
      SELECT ${localMonth(Prisma.sql`r.received_at`, zone)} AS month, sum(oi.price * li.quantity)::text AS value, sum(li.quantity)::int AS units
      FROM returns r JOIN return_line_items li ON li.return_id = r.id JOIN order_items oi ON oi.id = li.order_item_id
      LEFT JOIN products p ON p.id = oi.product_id
      WHERE li.received AND ${vendorOfItem} = ${vendorId} AND r.received_at >= ${start} AND r.received_at < ${end}
      GROUP BY 1`,
  ]);
  const byMonth = new Map<string, MonthFigures>();
  const at = (m: string) => {
    let f = byMonth.get(m);
    if (!f) byMonth.set(m, (f = emptyFigures()));
    return f;
  };
  let currency: string | null = null;
  for (const s of sales) {
    const f = at(s.month);
    f.gross = D(s.gross);
    f.units = Number(s.units);
    currency ??= s.currency;
  }
  for (const r of refunds) at(r.month).refunds = D(r.refunds);
  for (const r of returns) {
    const f = at(r.month);
    f.returns = D(r.value);
    f.returnedUnits = Number(r.units);
  }
  return { byMonth, currency };
}

/** commission = rate % of (gross − refunds), to the cent; net = gross − refunds − commission. */
export function payoutAmounts(f: Pick<MonthFigures, "gross" | "refunds">, rate: Prisma.Decimal) {
  const base = f.gross.minus(f.refunds);
  const commission = base.times(rate).dividedBy(100).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
  return { commission, net: base.minus(commission) };
}

/** The rate a row was made with; rows written before the column existed: the vendor's. */
const rowRate = (row: VendorPayoutRow, vendorRate: Prisma.Decimal) => row.commission_rate ?? vendorRate;

const monthOfRow = (row: VendorPayoutRow, zone: string) => todayIn(zone, row.period_start).slice(0, 7);

function fromRow(row: VendorPayoutRow, zone: string, f: MonthFigures, vendorRate: Prisma.Decimal): VendorPayout {
  const gross = D(row.gross_sales);
  const commission = D(row.commission);
  const net = D(row.amount);
  return {
    id: row.id,
    period: monthOfRow(row, zone),
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    status: row.status,
    gross: money(gross),
    // Whatever the row was made with, its figures add up: refunds are what gross, commission and net leave.
    refunds: money(gross.minus(commission).minus(net)),
    returns: money(f.returns),
    returnedUnits: f.returnedUnits,
    units: f.units,
    commissionRate: rowRate(row, vendorRate).toFixed(2),
    commission: money(commission),
    net: money(net),
    currencyCode: row.currencyCode,
    paid_at: row.paid_at?.toISOString() ?? null,
    reference: row.reference,
  };
}

/**
 * Makes or refreshes the rows of the closed months of [fromMonth, toMonth] (see the header) and
 * answers the rows by month with the figures.
 */
async function settleClosedMonths(db: Db, vendor: { id: string; commission_rate: Prisma.Decimal }, fromMonth: string, toMonth: string, zone: string, now: Date) {
  const current = todayIn(zone, now).slice(0, 7);
  const lastClosed = addMonths(current, -1);
  const closedTo = toMonth < lastClosed ? toMonth : lastClosed;
  const { byMonth, currency } = await monthFigures(db, vendor.id, fromMonth, toMonth < current ? toMonth : current, zone);
  const rows = new Map<string, VendorPayoutRow>();
  if (fromMonth <= closedTo) {
    const existing = await db.vendorPayout.findMany({
      where: { vendor_id: vendor.id, period_start: { gte: monthStart(fromMonth, zone), lt: monthStart(nextMonth(closedTo), zone) } },
    });
    for (const r of existing) rows.set(monthOfRow(r, zone), r);
    const missing: Prisma.VendorPayoutCreateManyInput[] = [];
    for (let m = fromMonth; m <= closedTo; m = nextMonth(m)) {
      const f = byMonth.get(m);
      if (rows.has(m) || !f || !hasActivity(f)) continue;
      const { commission, net } = payoutAmounts(f, vendor.commission_rate);
      missing.push({
        vendor_id: vendor.id,
        period_start: monthStart(m, zone),
        period_end: monthStart(nextMonth(m), zone),
        gross_sales: f.gross,
        refunds: f.refunds,
        commission_rate: vendor.commission_rate,
        commission,
        amount: net,
        currencyCode: currency ?? "USD",
        status: "pending",
      });
    }
    // Two readers at once: the unique (vendor, period) keeps one row; both then read it back.
    if (missing.length > 0) {
      await db.vendorPayout.createMany({ data: missing, skipDuplicates: true });
      const made = await db.vendorPayout.findMany({ where: { vendor_id: vendor.id, period_start: { in: missing.map((r) => r.period_start as Date) } } });
      for (const r of made) rows.set(monthOfRow(r, zone), r);
    }
    for (const [m, row] of rows) {
      if (row.status !== "pending") continue;
      const f = byMonth.get(m) ?? emptyFigures();
      const rate = rowRate(row, vendor.commission_rate);
      const { commission, net } = payoutAmounts(f, rate);
      if (row.gross_sales.equals(f.gross) && row.refunds.equals(f.refunds) && row.commission.equals(commission) && row.amount.equals(net) && row.commission_rate !== null) continue;
      // Only while still pending: a payout marked paid meanwhile keeps what it was paid on.
      await db.vendorPayout.updateMany({
        where: { id: row.id, status: "pending" },
        data: { gross_sales: f.gross, refunds: f.refunds, commission, amount: net, commission_rate: rate },
      });
      const fresh = await db.vendorPayout.findUnique({ where: { id: row.id } });
      if (fresh) rows.set(m, fresh);
    }
  }
  return { rows, byMonth, currency, current };
}

export interface PayoutsRange {
  from?: string;
  to?: string;
}

function resolveRange(q: PayoutsRange, current: string): { from: string; to: string } {
  const to = q.to ?? (q.from && q.from > current ? q.from : current);
  const from = q.from ?? addMonths(to, -(VENDOR_PAYOUTS_DEFAULT_MONTHS - 1));
  const n = monthsBetween(from, to);
  if (n < 1) throw invalid("from: must not be after to");
  if (n > VENDOR_PAYOUTS_MAX_MONTHS) throw invalid(`to: the range must be at most ${VENDOR_PAYOUTS_MAX_MONTHS} months`);
  return { from, to };
}

export async function vendorPayouts(deps: { db: Db; timeZone: string; now?: Date }, vendorId: string, q: PayoutsRange): Promise<VendorPayouts> {
  const now = deps.now ?? new Date();
  const zone = deps.timeZone;
  const vendor = await mustFindVendor(deps.db, vendorId);
  const { from, to } = resolveRange(q, todayIn(zone, now).slice(0, 7));
  const { rows, byMonth, currency, current } = await settleClosedMonths(deps.db, vendor, from, to, zone, now);
  const currencyCode = currency ?? [...rows.values()][0]?.currencyCode ?? "USD";
  const items: VendorPayout[] = [];
  for (let m = to; m >= from; m = addMonths(m, -1)) {
    if (m > current) continue;
    const f = byMonth.get(m) ?? emptyFigures();
    if (m === current) {
      const { commission, net } = payoutAmounts(f, vendor.commission_rate);
      items.push({
        id: null,
        period: m,
        period_start: monthStart(m, zone).toISOString(),
        period_end: monthStart(nextMonth(m), zone).toISOString(),
        status: "open",
        gross: money(f.gross),
        refunds: money(f.refunds),
        returns: money(f.returns),
        returnedUnits: f.returnedUnits,
        units: f.units,
        commissionRate: vendor.commission_rate.toFixed(2),
        commission: money(commission),
        net: money(net),
        currencyCode,
        paid_at: null,
        reference: null,
      });
      continue;
    }
    const row = rows.get(m);
    if (row) items.push(fromRow(row, zone, f, vendor.commission_rate));
  }
  const sum = (pick: (p: VendorPayout) => string, keep: (p: VendorPayout) => boolean = () => true) => money(items.filter(keep).reduce((acc, p) => acc.plus(pick(p)), D(0)));
  return {
    vendorId,
    timeZone: zone,
    from,
    to,
    currencyCode,
    items,
    totals: {
      gross: sum((p) => p.gross),
      refunds: sum((p) => p.refunds),
      commission: sum((p) => p.commission),
      net: sum((p) => p.net),
      paid: sum((p) => p.net, (p) => p.status === "paid"),
      pending: sum((p) => p.net, (p) => p.status === "pending"),
    },
  };
}

/** Pending → paid with the transfer's reference, once (409 when already paid). */
export async function markPayoutPaid(deps: { db: Db; timeZone: string; now?: Date }, vendorId: string, payoutId: string, reference: string): Promise<VendorPayout> {
  const { db, timeZone: zone } = deps;
  const now = deps.now ?? new Date();
  const vendor = await mustFindVendor(db, vendorId);
  const row = await db.vendorPayout.findFirst({ where: { id: payoutId, vendor_id: vendorId } });
  if (!row) throw notFoundError(PAYOUT_NOT_FOUND);
  if (row.status === "paid") throw conflictError(`This payout was already paid on ${row.paid_at?.toISOString().slice(0, 10) ?? "an earlier day"}${row.reference ? ` (reference ${row.reference})` : ""}`);
  if (row.status !== "pending") throw conflictError(`Only a pending payout can be marked paid; this one is ${row.status}`);
  const month = monthOfRow(row, zone);
  // The figures it is paid on are the latest ones.
  await settleClosedMonths(db, vendor, month, month, zone, now);
  const r = await db.vendorPayout.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "paid", reference: reference.trim(), paid_at: now } });
  if (r.count === 0) throw conflictError("This payout was marked paid meanwhile");
  const paid = await db.vendorPayout.findUniqueOrThrow({ where: { id: row.id } });
  const { byMonth } = await monthFigures(db, vendorId, month, month, zone);
  return fromRow(paid, zone, byMonth.get(month) ?? emptyFigures(), vendor.commission_rate);
}

/**
 * Sets a vendor's commission rate. The rows of closed months still missing are made first, at the
 * old rate, so the change applies to periods not yet closed only.
 */
export async function setCommissionRate(deps: { db: Db; timeZone: string; now?: Date }, vendorId: string, rate: number): Promise<void> {
  const { db, timeZone: zone } = deps;
  const now = deps.now ?? new Date();
  const text = commissionRateText(rate);
  const vendor = await mustFindVendor(db, vendorId);
  const first = await db.$queryRaw<{ first: Date | null }[]>`
    SELECT min(o.created_at) AS first FROM (${vendorItems(vendorId)}) oi JOIN orders o ON o.id = oi.order_id`;
  const current = todayIn(zone, now).slice(0, 7);
  if (first[0]?.first) {
    const firstMonth = todayIn(zone, first[0].first).slice(0, 7);
    // Refunds and returns come after their orders: the months from the first sale cover them.
    for (let from = firstMonth; from < current; from = addMonths(from, VENDOR_PAYOUTS_MAX_MONTHS)) {
      const to = addMonths(from, VENDOR_PAYOUTS_MAX_MONTHS - 1);
      await settleClosedMonths(db, vendor, from, to < current ? to : addMonths(current, -1), zone, now);
    }
  }
  await db.vendor.update({ where: { id: vendorId }, data: { commission_rate: text } });
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? "" : String(v);
  // Quoted when needed; a leading formula character is defused for spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The periods as CSV (VENDOR_PAYOUTS_CSV_COLUMNS), newest first, CRLF line ends (RFC 4180). */
export function payoutsCsv(p: VendorPayouts): string {
  const lines = [VENDOR_PAYOUTS_CSV_COLUMNS.join(",")];
  for (const i of p.items) {
    const row: (string | number | null)[] = [
      i.period,
      i.period_start,
      i.period_end,
      i.status,
      i.gross,
      i.refunds,
      i.returns,
      i.returnedUnits,
      i.units,
      i.commissionRate,
      i.commission,
      i.net,
      i.currencyCode,
      i.paid_at,
      i.reference,
    ];
    lines.push(row.map(csvCell).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
