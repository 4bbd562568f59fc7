/**
 * The admin Analytics screen (app/routes/app.orders_.analytics.tsx) through its loader and a
 * server render: the orders.manage guard and the navigation link, the presets (the default 30
 * days, 7 days) with the KPI values and their change against the previous period, a custom range,
 * a range without orders (zeros and the empty state, not an error), ranges the API refuses (its
 * message on the page), and the days counted in the store's time zone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderStatus } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { addDays, todayIn } from "../../app/lib/store-time-zone";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffRequest as req, refusal, thrownResponse } from "../helpers/route";

type Route = typeof import("../../app/routes/app.orders_.analytics");
let route: Route;
let app: TestApp;
let admin: { token: string };
let noPerm: { token: string };
let shopper: { token: string };

const VENDOR = "vendor-analytics-screen";
const today = () => todayIn("UTC");
let seq = 0;

/** An order placed at noon UTC `daysAgo` days ago, with `units` items at `price` each. */
async function order(o: { daysAgo: number; units: number; price: number; status?: OrderStatus; title?: string }) {
  const n = ++seq;
  const created = new Date(`${addDays(today(), -o.daysAgo)}T12:00:00Z`);
  await app.database.db.order.create({
    data: {
      id: `gid://shopify/Order/77${n}`,
      name: `#S${n}`,
      status: o.status ?? "open",
      total_price: new Prisma.Decimal(o.units * o.price),
      cancelled_at: o.status === "cancelled" ? created : null,
      created_at: created,
      items: {
        create: [
          {
            id: `gid://shopify/LineItem/77${n}`,
            product_id: `gid://shopify/Product/77${o.title === "Wool Coat" ? 1 : 2}`,
            vendor_id: VENDOR,
            title: o.title ?? "Linen Shirt",
            quantity: o.units,
            price: new Prisma.Decimal(o.price),
            status: o.status === "cancelled" ? "cancelled" : "unfulfilled",
            created_at: created,
          },
        ],
      },
    },
  });
}

const load = (query = "", token: string | null = admin.token) => route.loader({ request: req(`/app/orders/analytics${query}`, token), params: {}, context: {} });
const render = (query: string, data: object) => renderRoute({ id: "routes/app.orders_.analytics", path: "/app/orders/analytics", url: `/app/orders/analytics${query}`, data, Component: route.default });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app.orders_.analytics");
  admin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "returns.manage"] });
  shopper = await app.createUser();
  await app.database.db.vendor.create({ data: { id: VENDOR, name: "Screen Vendor", handle: "screen-vendor" } });
  // The last 7 days: 3 orders, one cancelled; revenue 100 + 50.
  await order({ daysAgo: 1, units: 2, price: 50, title: "Wool Coat" });
  await order({ daysAgo: 2, units: 1, price: 50 });
  await order({ daysAgo: 3, units: 1, price: 30, status: "cancelled" });
  // The 7 days before: 2 orders, revenue 50 + 50.
  await order({ daysAgo: 9, units: 1, price: 50 });
  await order({ daysAgo: 10, units: 1, price: 50 });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs orders.manage: 403 for an admin without it, a shopper is sent away, login when signed out", async () => {
    expect(await refusal(load("", noPerm.token))).toBe(403);
    const away = await thrownResponse(load("", shopper.token));
    expect(away.status).toBe(302);
    expect(away.headers.get("location")).not.toContain("/app/orders");
    expect(await refusal(load("?days=7", null))).toBe("login");
  });
  it("shows Analytics in the navigation only with orders.manage", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["orders.manage"] }).map((n) => n.url)).toContain("/app/orders/analytics");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit", "returns.manage"] }).map((n) => n.url)).not.toContain("/app/orders/analytics");
  });
});

describe("ranges and figures", () => {
  it("defaults to the last 30 days ending today, compared with the 30 days before (none: every figure new)", async () => {
    const d = await load();
    expect(d.error).toBeNull();
    expect(d.range).toEqual({ preset: "30", from: addDays(today(), -29), to: today() });
    expect(d.analytics?.totals).toMatchObject({ orders: 5, cancelledOrders: 1, revenue: "250.00", units: 5 });
    expect(d.analytics?.compare).toMatchObject({ from: addDays(today(), -59), to: addDays(today(), -30), totals: { orders: 0 } });
    expect(d.analytics?.daily).toHaveLength(30);
    const html = await render("", d);
    expect(html).toContain('data-testid="kpi-orders">5<');
    expect(html).toContain('data-testid="kpi-revenue">$250.00<');
    expect(html).toContain('data-testid="kpi-orders-change">New<');
    expect(html).toContain("vs previous 30 days");
  });

  it("Last 7 days: KPI values and their change against the 7 days before", async () => {
    const d = await load("?days=7");
    expect(d.range).toEqual({ preset: "7", from: addDays(today(), -6), to: today() });
    expect(d.analytics?.totals).toMatchObject({ orders: 3, cancelledOrders: 1, revenue: "150.00", averageOrderValue: "75.00", units: 3, cancelRate: 0.3333, returnRate: 0 });
    expect(d.analytics?.compare?.totals).toMatchObject({ orders: 2, revenue: "100.00", averageOrderValue: "50.00", units: 2, cancelRate: 0 });
    const html = await render("?days=7", d);
    const kpi = (key: string) => html.match(new RegExp(`data-testid="kpi-${key}">([^<]*)<`))?.[1];
    expect([kpi("orders"), kpi("revenue"), kpi("averageOrderValue"), kpi("units"), kpi("returnRate"), kpi("cancelRate")]).toEqual(["3", "$150.00", "$75.00", "3", "0.0%", "33.3%"]);
    expect([kpi("orders-change"), kpi("revenue-change"), kpi("averageOrderValue-change"), kpi("units-change"), kpi("returnRate-change"), kpi("cancelRate-change")]).toEqual([
      "+50.0%",
      "+50.0%",
      "+50.0%",
      "+50.0%",
      "No change",
      "+33.3 pts",
    ]);
    expect(html).toContain("vs previous 7 days");
    // The charts are drawn in the browser: the server sends their containers, not ready yet.
    for (const chart of ["chart-revenue", "chart-orders", "chart-top-products", "chart-top-vendors"]) expect(html).toContain(`data-testid="${chart}" data-chart-ready="false"`);
    expect(html).toContain("Last 7 days");
    expect(html).toContain("Top products by revenue");
    expect(d.analytics?.topProducts.map((p) => p.title)).toEqual(["Wool Coat", "Linen Shirt"]);
    expect(d.analytics?.topVendors).toEqual([{ vendorId: VENDOR, name: "Screen Vendor", units: 3, revenue: "150.00" }]);
  });

  it("an unknown preset is the default; a custom range is taken as given", async () => {
    expect((await load("?days=12")).range.preset).toBe("30");
    const from = addDays(today(), -10);
    const to = addDays(today(), -9);
    const d = await load(`?from=${from}&to=${to}`);
    expect(d.range).toEqual({ preset: "custom", from, to });
    expect(d.analytics?.totals).toMatchObject({ orders: 2, revenue: "100.00" });
    expect(d.analytics?.compare).toMatchObject({ from: addDays(today(), -12), to: addDays(today(), -11), totals: { orders: 0 } });
  });

  it("a range without orders shows zeros and the empty state, not an error", async () => {
    const d = await load("?from=2020-01-01&to=2020-01-31");
    expect(d.error).toBeNull();
    expect(d.analytics?.totals).toMatchObject({ orders: 0, revenue: "0.00", averageOrderValue: "0.00", units: 0, returnRate: 0, cancelRate: 0 });
    expect(d.analytics?.daily).toHaveLength(31);
    const html = await render("?from=2020-01-01&to=2020-01-31", d);
    expect(html).toContain("No orders were placed in this range: every figure is zero.");
    expect(html).toContain('data-testid="kpi-revenue">$0.00<');
    expect(html).toContain('data-testid="kpi-orders-change">No change<');
    expect(html).toContain('data-testid="chart-top-products-empty">No sales in this range.<');
    expect(html).not.toContain("This range cannot be shown");
  });

  it.each([
    ["?from=2026-10-08&to=2026-10-05", "from: must not be after to"],
    ["?from=2026-02-30&to=2026-03-02", "from: must be a real calendar date between 2000 and 2100"],
    ["?from=2020-01-01", "The range must be at most 366 days"],
  ])("a range the API refuses (%s) shows its message", async (query, message) => {
    const d = await load(query);
    expect(d.analytics).toBeNull();
    expect(d.error).toBe(message);
    const html = await render(query, d);
    expect(html).toContain("This range cannot be shown");
    expect(html).toContain(`data-testid="analytics-error">${message}<`);
    expect(html).toContain("Last 30 days");
  });

  it("counts days in the store's time zone (STORE_TIMEZONE)", async () => {
    const before = app.ctx.config.STORE_TIMEZONE;
    app.ctx.config.STORE_TIMEZONE = "Pacific/Kiritimati"; // UTC+14: noon UTC is 02:00 the next day there
    try {
      const d = await load("?days=7");
      expect(d.timeZone).toBe("Pacific/Kiritimati");
      expect(d.range.to).toBe(todayIn("Pacific/Kiritimati"));
      const days = d.analytics?.daily.filter((x) => x.orders > 0).map((x) => x.date);
      // Placed at noon UTC 1, 2 and 3 days ago: the next calendar day in Kiritimati.
      expect(days).toEqual([addDays(today(), -2), addDays(today(), -1), addDays(today(), 0)].filter((day) => day >= d.range.from));
      expect(await render("?days=7", d)).toContain("days in Pacific/Kiritimati");
    } finally {
      app.ctx.config.STORE_TIMEZONE = before;
    }
  });
});
