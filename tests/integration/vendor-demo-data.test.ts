/**
 * The vendor portal's demo (prisma/demo/vendor-activity.ts), seeded as the first start does (dates
 * moved so the demo ends yesterday, store zone America/New_York): every demo vendor has views,
 * saves and try-ons on every one of the last 90 days' weeks with a weekly shape and a rising
 * trend, orders and returns in the daily stats, its own commission rate, and monthly payouts for
 * every closed month with sales (older months paid with a reference and date, the last closed
 * month pending) whose figures are
 * the stats' of their month. The stats equal a rebuild from the events; a database seeded before
 * they existed gets them at its next start.
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureVendorStats, seedDemoDataIfEmpty } from "../../prisma/demo/seed-demo.server";
import { rebuildProductDailyStats } from "~/services/vendor-stats/daily-stats.server";
import { addDays } from "~/lib/store-time-zone";
import { createDemoDatabase, DEMO_SEEDS, type DemoDatabase } from "../helpers/demo-template";

const { today: TODAY, timeZone: ZONE } = DEMO_SEEDS.fixedPresent;
let demo: DemoDatabase;
let db: PrismaClient;

beforeAll(async () => {
  demo = await createDemoDatabase(DEMO_SEEDS.fixedPresent);
  db = demo.database.db;
}, 300_000);

afterAll(async () => {
  await demo?.close();
});

/** The store-zone month (YYYY-MM) a period starts in. */
const wallMonth = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit" }).format(d).slice(0, 7);
const nextMonthOf = (m: string) => {
  const [y, mo] = m.split("-").map(Number);
  return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
};

type Totals = { vendor_id: string; days: number; views: number; saves: number; try_ons: number; orders: number; revenue: number; returned_units: number; refunds: number; first_half: number; second_half: number; weekend: number; weekday: number };

describe("the vendor portal's demo", () => {
  it("gives every vendor 90 days of views, saves and try-ons, with a weekly shape and a trend, and orders and returns", async () => {
    const from = addDays(TODAY, -90);
    const mid = addDays(TODAY, -45);
    const rows = await db.$queryRaw<Totals[]>`
      SELECT vendor_id, count(DISTINCT day) FILTER (WHERE views > 0)::int AS days,
             sum(views)::int AS views, sum(saves)::int AS saves, sum(try_ons)::int AS try_ons, sum(orders)::int AS orders,
             sum(revenue)::float8 AS revenue, sum(returned_units)::int AS returned_units, sum(refunds)::float8 AS refunds,
             sum(views) FILTER (WHERE day < ${mid}::date)::int AS first_half, sum(views) FILTER (WHERE day >= ${mid}::date)::int AS second_half,
             (sum(views) FILTER (WHERE extract(isodow FROM day) >= 6) / 2.0)::float8 AS weekend, (sum(views) FILTER (WHERE extract(isodow FROM day) < 6) / 5.0)::float8 AS weekday
      FROM product_daily_stats WHERE day >= ${from}::date AND day < ${TODAY}::date AND vendor_id IS NOT NULL
      GROUP BY vendor_id ORDER BY vendor_id`;
    const vendors = await db.vendor.findMany({ select: { id: true, handle: true } });
    expect(rows.map((r) => r.vendor_id).sort()).toEqual(vendors.map((v) => v.id).sort());
    for (const r of rows) {
      const name = vendors.find((v) => v.id === r.vendor_id)!.handle;
      expect(r.days, name).toBeGreaterThanOrEqual(85);
      expect(r.views, name).toBeGreaterThan(300);
      expect(r.saves, name).toBeGreaterThan(5);
      expect(r.try_ons, name).toBeGreaterThan(5);
      expect(r.orders, name).toBeGreaterThan(0);
      expect(r.second_half, name).toBeGreaterThan(r.first_half);
      // Per day, weekends (Saturday, Sunday in the store's calendar) draw more views than weekdays.
      expect(r.weekend, name).toBeGreaterThan(r.weekday);
      expect(r.revenue, name).toBeGreaterThan(0);
    }
    const total = rows.reduce((s, r) => s + r.views, 0);
    expect(total).toBeGreaterThan(3000);
    expect(total).toBeLessThan(20_000);
    // The demo vendor's (Northwind) returns show in its stats.
    const vendorUser = await db.user.findUniqueOrThrow({ where: { email: "vendor@demo.local" } });
    const own = rows.find((r) => r.vendor_id === vendorUser.vendor_id)!;
    expect(own.returned_units).toBeGreaterThan(0);
    expect(own.refunds).toBeGreaterThan(0);
  });

  it("gives each vendor its own commission rate", async () => {
    const rates = (await db.vendor.findMany({ select: { commission_rate: true } })).map((v) => v.commission_rate.toFixed(2));
    expect(new Set(rates).size).toBe(rates.length);
  });

  it("has monthly payouts for every closed month with sales: the older months paid with a reference, the last closed month pending, figures from the stats", async () => {
    const payouts = await db.vendorPayout.findMany({ include: { vendor: true }, orderBy: [{ vendor_id: "asc" }, { period_start: "asc" }] });
    const vendors = await db.vendor.findMany({ select: { id: true } });
    const monthsOf = (vendorId: string) => payouts.filter((p) => p.vendor_id === vendorId).map((p) => wallMonth(p.period_start));
    // 2027-02-15: November (partly), December and January are the 90 days' closed months; February is
    // open. Every vendor's months run without a gap from its first month with sales to January.
    for (const v of vendors) {
      const months = monthsOf(v.id);
      expect(months.slice(-3), v.id).toEqual(["2026-11", "2026-12", "2027-01"]);
      for (let i = 1; i < months.length; i++) expect(months[i], v.id).toBe(nextMonthOf(months[i - 1]));
    }
    // Every closed month whose stats have sales, refunds or returns has its payout row.
    const withSales = await db.$queryRaw<{ vendor_id: string; month: string }[]>`
      SELECT vendor_id, to_char(date_trunc('month', day), 'YYYY-MM') AS month FROM product_daily_stats
      WHERE vendor_id IS NOT NULL AND day < '2027-02-01'::date GROUP BY 1, 2
      HAVING sum(revenue) <> 0 OR sum(refunds) <> 0 OR sum(returned_units) <> 0`;
    expect(withSales.filter((r) => r.month < "2026-11").length, "the demo has sales before its 90 days").toBeGreaterThan(0);
    for (const r of withSales) expect(monthsOf(r.vendor_id), `${r.vendor_id} ${r.month}`).toContain(r.month);
    for (const p of payouts) {
      const month = p.period_start.toISOString();
      if (month.startsWith("2027-01")) {
        expect(p, p.vendor.handle).toMatchObject({ status: "pending", reference: null, paid_at: null });
      } else {
        expect(p.status).toBe("paid");
        expect(p.reference).toMatch(/^PO-[A-Z]+-\d{6}$/);
        expect(p.paid_at!.getTime()).toBeGreaterThan(p.period_end.getTime());
      }
      // New York midnights (04:00 UTC on 1 November, still summer time; 05:00 UTC in winter).
      const wallClock = new Intl.DateTimeFormat("en-US", { timeZone: ZONE, hourCycle: "h23", day: "2-digit", hour: "2-digit", minute: "2-digit" });
      expect(wallClock.format(p.period_start)).toBe("01, 00:00");
      expect(wallClock.format(p.period_end)).toBe("01, 00:00");
      const [{ gross, refunds }] = await db.$queryRaw<{ gross: string; refunds: string }[]>`
        SELECT COALESCE(sum(revenue), 0)::text AS gross, COALESCE(sum(refunds), 0)::text AS refunds FROM product_daily_stats
        WHERE vendor_id = ${p.vendor_id} AND day >= (${p.period_start}::timestamptz AT TIME ZONE ${ZONE})::date AND day < (${p.period_end}::timestamptz AT TIME ZONE ${ZONE})::date`;
      expect(p.gross_sales.toFixed(2), `${p.vendor.handle} ${month}`).toBe(Number(gross).toFixed(2));
      const net = Number(gross) - Number(refunds);
      const commission = Math.round(net * Number(p.vendor.commission_rate)) / 100;
      expect(Number(p.commission)).toBeCloseTo(commission, 2);
      expect(Number(p.amount)).toBeCloseTo(net - commission, 2);
    }
    expect(payouts.some((p) => Number(p.gross_sales) > 0)).toBe(true);
  });

  it("a database seeded before the stats existed gets them (and the payouts) at the next start, once", async () => {
    const snapshot = () => db.$queryRaw<unknown[]>`SELECT product_id, day::text, views, saves, try_ons, orders, units, revenue::text, returned_units, refunds::text FROM product_daily_stats ORDER BY product_id, day`;
    const before = await snapshot();
    const payouts = await db.vendorPayout.count();
    await db.$executeRaw`DELETE FROM product_daily_stats`;
    await db.$executeRaw`DELETE FROM vendor_payouts`;
    const report = await seedDemoDataIfEmpty(db, { uploadsDir: demo.uploadsDir, today: TODAY, timeZone: ZONE });
    expect(report.created).toBe(false);
    expect(await snapshot()).toEqual(before);
    expect(await db.vendorPayout.count()).toBe(payouts);
    expect(await ensureVendorStats(db, { today: TODAY, timeZone: ZONE })).toBe(false);
  });

  it("keeps the stats equal to a rebuild from the events", async () => {
    const snapshot = () => db.$queryRaw<unknown[]>`SELECT product_id, day::text, vendor_id, views, saves, try_ons, add_to_carts, orders, units, revenue::text, returned_units, refunds::text FROM product_daily_stats ORDER BY product_id, day`;
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(1000);
    await rebuildProductDailyStats(db, { timeZone: ZONE });
    expect(await snapshot()).toEqual(before);
  });
});
