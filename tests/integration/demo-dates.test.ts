/**
 * The demo's dates moved to the present (prisma/demo/shift-dates.ts), as the first start and
 * `npm run seed` do: seeded with `today`, every generated order keeps its time of day and lands
 * the same whole number of days later, the demo's last day is the day before `today`, nothing is
 * placed on or after `today`, and the analytics' default ranges (the last 30 and 90 days) are full.
 * Seeds without `today` keep BASE_DATE (tests/integration/demo-data.test.ts).
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemoData } from "../../prisma/demo/generate";
import { demoShiftDays } from "../../prisma/demo/shift-dates";
import { orderAnalytics } from "~/services/orders/analytics.server";
import { createDemoDatabase, DEMO_SEEDS, type DemoDatabase } from "../helpers/demo-template";

const DAY = 86_400_000;
// 106 days after BASE_DATE (2026-11-01): far enough that no unshifted demo order is in the last 90 days.
// The seed's store zone (America/New_York) moves only the stats' days, not the orders checked here.
const TODAY = DEMO_SEEDS.fixedPresent.today;
const NOW = new Date(`${TODAY}T10:00:00Z`);

let demo: DemoDatabase;
let db: PrismaClient;

beforeAll(async () => {
  demo = await createDemoDatabase(DEMO_SEEDS.fixedPresent);
  db = demo.database.db;
}, 240_000);

afterAll(async () => {
  await demo?.close();
});

describe("demo dates moved to the present", () => {
  it("counts whole days from BASE_DATE", () => {
    expect(demoShiftDays("2026-11-01")).toBe(0);
    expect(demoShiftDays(TODAY)).toBe(106);
    expect(demoShiftDays("2026-10-01")).toBe(-31);
    expect(() => demoShiftDays("soon")).toThrow(/YYYY-MM-DD/);
  });

  it("moves every generated order and item by the same whole days, keeping its time of day", async () => {
    const built = buildDemoData("not-a-real-hash");
    const items = new Map((await db.orderItem.findMany({ select: { id: true, created_at: true } })).map((i) => [i.id, i.created_at]));
    for (const i of built.orderItems.filter((x) => x.created_at)) expect(items.get(i.id!)!.getTime() - new Date(i.created_at!).getTime(), i.id).toBe(106 * DAY);
    const generated = built.orders;
    const seeded = new Map((await db.order.findMany({ select: { id: true, created_at: true, updated_at: true } })).map((o) => [o.id, o]));
    expect(generated.length).toBeGreaterThan(100);
    for (const o of generated) {
      const row = seeded.get(o.id!);
      expect(row, o.id).toBeDefined();
      expect(row!.created_at.getTime() - new Date(o.created_at!).getTime(), o.id).toBe(106 * DAY);
    }
  });

  it("ends the day before today: nothing placed, requested or refunded on or after it", async () => {
    const start = new Date(`${TODAY}T00:00:00Z`);
    const newest = await db.order.findFirstOrThrow({ orderBy: { created_at: "desc" } });
    expect(newest.created_at.toISOString().slice(0, 10)).toBe("2027-02-14");
    expect(await db.order.count({ where: { created_at: { gte: start } } })).toBe(0);
    expect(await db.return.count({ where: { OR: [{ created_at: { gte: start } }, { refunded_at: { gte: start } }] } })).toBe(0);
    expect(await db.orderEvent.count({ where: { created_at: { gte: start } } })).toBe(0);
    expect(await db.review.count({ where: { created_at: { gte: start } } })).toBe(0);
  });

  it("fills the analytics' default ranges ending today", async () => {
    const month = await orderAnalytics({ db, now: () => NOW }, {});
    expect(month).toMatchObject({ from: "2027-01-17", to: TODAY });
    expect(month.totals.orders).toBeGreaterThan(20);
    expect(month.daily.filter((d) => d.orders > 0).length).toBeGreaterThan(15);
    const quarter = await orderAnalytics({ db, now: () => NOW }, { from: "2026-11-18", to: TODAY, compare: "previous" });
    expect(quarter.totals.orders).toBeGreaterThan(100);
    expect(quarter.totals.cancelledOrders).toBeGreaterThan(0);
    expect(quarter.totals.returnedUnits).toBeGreaterThan(0);
    expect(quarter.topProducts).toHaveLength(10);
  });
});
