/**
 * Vendor dashboard (issue 17: the vendor endpoints' p95 ≤ 50 ms with 5 M view events on
 * PostgreSQL 15). A scratch database on the machine's PostgreSQL, migrated through the app's own
 * start path, gets 20 vendors with 100 products each and 5,000,000 product views over the last 365
 * days (popular products viewed far more than the rest), generated in SQL; product_daily_stats is
 * built from them by the app's own rebuild (app/services/vendor-stats/daily-stats.server.ts), and
 * orders, units, revenue, returns and refunds are filled into the same rows (the bench generates
 * no orders: the rows, not the events, are what the endpoints read). Then every vendor dashboard
 * endpoint is timed in-process through the handler the server mounts (GET /api/vendors/me/… as
 * each vendor in turn, and the admin mirror), over the ranges the pages offer.
 */
import os from "node:os";
import pg from "pg";
import { boot } from "../../app/boot.server";
import { pgConfigFromUrl } from "../../app/lib/pg-url";
import { addDays, todayIn } from "../../app/lib/store-time-zone";
import { issueToken } from "../../app/services/tokens.server";
import { rebuildProductDailyStats } from "../../app/services/vendor-stats/daily-stats.server";
import { vendorAnalyticsSummary, vendorPerformanceTimeseries, vendorProductsPerformance, vendorTopProducts } from "../../app/services/vendors/analytics.server";
import { vendorAnalyticsEndpoints } from "../../app/contract/vendor-analytics";
import { benchEnv } from "./setup";
import { createBenchDatabase, dropStaleBenchDatabases, onCleanup, tempDir } from "./database";
import { addSummary, callApi, dist, errorText, fmt, printTable } from "./report";

export const VENDOR_DASHBOARD_TARGET_MS = 50;
const VENDORS = 20;
const PRODUCTS = 2000;
const DAYS = 365;
const BATCH = 1_000_000;

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");

/** Vendors, products and `views` view events spread over the last DAYS days (deterministic: hashes of the row number). */
async function generate(client: pg.Client, views: number, log: (line: string) => void): Promise<void> {
  await client.query(`INSERT INTO vendors (id, name, handle, updated_at)
    SELECT 'bench-vendor-' || v, 'Bench Vendor ' || v, 'bench-vendor-' || v, now() FROM generate_series(1, ${VENDORS}) v`);
  await client.query(`INSERT INTO products (id, title, handle, vendor, vendor_id, status, "currencyCode", "priceMin", "priceMax", updated_at)
    SELECT 'gid://shopify/Product/' || (8000000 + n),
      (ARRAY['Relaxed','Slim','Oversized','Cropped','Classic','Boxy','Tailored','Washed'])[1 + n % 8] || ' ' ||
      (ARRAY['Linen','Cotton','Wool','Denim','Silk','Cashmere','Corduroy','Jersey','Twill','Fleece'])[1 + (n / 8) % 10] || ' ' ||
      (ARRAY['Shirt','Dress','Coat','Jeans','Trousers','Blazer','Sweater','Skirt','Hoodie','Jacket'])[1 + (n / 80) % 10] || ' ' || n,
      'bench-product-' || n, 'Bench Vendor ' || (1 + n % ${VENDORS}), 'bench-vendor-' || (1 + n % ${VENDORS}),
      (CASE WHEN n % 17 = 0 THEN 'draft' ELSE 'active' END)::"ProductStatus", 'USD', 20 + n % 180, 20 + n % 180, now()
    FROM generate_series(0, ${PRODUCTS - 1}) n`);
  // h: a uniform number in [0, 1) from the row number; h² skews views to the low product numbers
  // (the most viewed product gets ~45 times the views of the median one).
  for (let start = 1; start <= views; start += BATCH) {
    const end = Math.min(views, start + BATCH - 1);
    const t = performance.now();
    await client.query(
      `INSERT INTO product_view_events (id, session_id, product_id, created_at)
       SELECT 'bv-' || g, 'bs-' || (g % 200000),
         'gid://shopify/Product/' || (8000000 + floor(${PRODUCTS} * h * h)::int),
         (now() AT TIME ZONE 'UTC') - ((g % ${DAYS}) * interval '1 day') - (((g * 7919) % 86400) * interval '1 second')
       FROM generate_series($1::bigint, $2::bigint) g, LATERAL (SELECT ((g * 2654435761) % 4294967296)::float8 / 4294967296 AS h) x`,
      [start, end],
    );
    log(`  views ${start.toLocaleString("en")}–${end.toLocaleString("en")} in ${((performance.now() - t) / 1000).toFixed(1)} s (load ${load()})`);
  }
}

/** Orders, units, revenue, returns and refunds on the days that have views (about 1 order per 25 views). */
async function fillSales(client: pg.Client): Promise<number> {
  const r = await client.query(`
    UPDATE product_daily_stats s SET
      saves = views / 12, try_ons = views / 20, add_to_carts = views / 9,
      orders = o.n, units = o.n + o.n / 4, revenue = (o.n + o.n / 4) * (20 + (hashtext(s.product_id) & 127)),
      returned_units = o.n / 6, refunds = (o.n / 6) * (20 + (hashtext(s.product_id) & 127))
    FROM (SELECT product_id, day, views / 25 + (hashtext(product_id || day::text) & 1) AS n FROM product_daily_stats) o
    WHERE o.product_id = s.product_id AND o.day = s.day`);
  return r.rowCount ?? 0;
}

export async function runVendorDashboardBenchmark(opts: { views: number; calls: number; log: (line: string) => void }): Promise<void> {
  const { log } = opts;
  const stale = await dropStaleBenchDatabases();
  if (stale.length) log(`dropped ${stale.length} database(s) left by killed runs: ${stale.join(", ")}`);
  const { name, url } = await createBenchDatabase();
  const dataDir = tempDir("vendor");
  const b0 = performance.now();
  const booted = await boot({ env: benchEnv(url, dataDir), seed: false });
  onCleanup(() => booted.shutdown());
  const client = new pg.Client(pgConfigFromUrl(url));
  await client.connect();
  onCleanup(() => client.end());
  const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
  log(`database ${name} (PostgreSQL ${version}), migrated through app/boot.server.ts in ${((performance.now() - b0) / 1000).toFixed(1)} s; load average ${load()}`);

  const g0 = performance.now();
  await generate(client, opts.views, log);
  await client.query("VACUUM ANALYZE product_view_events");
  const genMs = performance.now() - g0;
  log(`${VENDORS} vendors, ${PRODUCTS.toLocaleString("en")} products and ${opts.views.toLocaleString("en")} view events generated in SQL + VACUUM ANALYZE in ${(genMs / 1000).toFixed(1)} s`);
  addSummary({ section: "vendor (PostgreSQL)", figure: `generate ${opts.views.toLocaleString("en")} view events`, value: `${(genMs / 1000).toFixed(1)} s` });

  const timeZone = booted.ctx.config.STORE_TIMEZONE;
  const r0 = performance.now();
  const { rows } = await rebuildProductDailyStats(booted.ctx.db, { timeZone });
  const rebuildMs = performance.now() - r0;
  const filled = await fillSales(client);
  // The rollups (vendor_daily_stats, product_monthly_stats) followed both through their triggers.
  await client.query("VACUUM ANALYZE product_daily_stats, vendor_daily_stats, product_monthly_stats");
  const check = await client.query<{ views: string }>("SELECT sum(views)::text AS views FROM product_daily_stats");
  const rollups = await client.query<{ vd: string; pm: string; views: string }>(
    "SELECT (SELECT count(*) FROM vendor_daily_stats)::text AS vd, (SELECT count(*) FROM product_monthly_stats)::text AS pm, (SELECT sum(views) FROM product_monthly_stats)::text AS views",
  );
  log(`product_daily_stats rebuilt from the events in ${(rebuildMs / 1000).toFixed(1)} s: ${rows.toLocaleString("en")} rows (product × day), ${check.rows[0].views} views in them; sales filled into ${filled.toLocaleString("en")} rows; rollups: ${rollups.rows[0].vd} vendor days, ${rollups.rows[0].pm} product months (${rollups.rows[0].views} views)`);
  if (Number(rollups.rows[0].views) !== opts.views) throw new Error(`the monthly rollup holds ${rollups.rows[0].views} views, not ${opts.views}`);
  if (Number(check.rows[0].views) !== opts.views) throw new Error(`the rebuilt rows hold ${check.rows[0].views} views, not ${opts.views}`);
  addSummary({ section: "vendor (PostgreSQL)", figure: `rebuild product_daily_stats (${opts.views.toLocaleString("en")} views)`, value: `${(rebuildMs / 1000).toFixed(1)} s` });

  const tokens: { vendorId: string; token: string }[] = [];
  for (let v = 1; v <= VENDORS; v++) {
    const vendorId = `bench-vendor-${v}`;
    const u = await booted.ctx.db.user.create({ data: { email: `bench-vendor-${v}@example.com`, auth_provider: "password", role: "VENDOR", vendor_id: vendorId } });
    tokens.push({ vendorId, token: await issueToken(booted.ctx.db, u.id) });
  }
  const admin = await booted.ctx.db.user.create({ data: { email: "bench-vendors-admin@example.com", auth_provider: "password", role: "ADMIN", permissions: ["vendors.manage"] } });
  const adminToken = await issueToken(booted.ctx.db, admin.id);

  const today = todayIn(timeZone);
  const last = (days: number) => ({ from: addDays(today, -(days - 1)), to: today });
  type Kind = "summary" | "top" | "performance" | "timeseries";
  const paths: Record<Kind, [string, string]> = {
    summary: ["/vendors/me/analytics/summary", "/vendors/{id}/analytics/summary"],
    top: ["/vendors/me/analytics/top-products", "/vendors/{id}/top-products"],
    performance: ["/vendors/me/products/performance", "/vendors/{id}/products/performance"],
    timeseries: ["/vendors/me/products/performance/timeseries", "/vendors/{id}/products/performance/timeseries"],
  };
  const deps = { db: booted.ctx.db, timeZone };
  // The service alone (no auth, no validation, no JSON): what the statement and the JavaScript around it cost.
  const service = (kind: Kind, vendorId: string, query: Record<string, string>) => {
    switch (kind) {
      case "summary":
        return vendorAnalyticsSummary(deps, vendorId, vendorAnalyticsEndpoints.vendorsMeAnalyticsSummary.query.parse(query));
      case "top":
        return vendorTopProducts(deps, vendorId, vendorAnalyticsEndpoints.vendorsMeTopProducts.query.parse(query));
      case "performance":
        return vendorProductsPerformance(deps, vendorId, vendorAnalyticsEndpoints.vendorsMeProductsPerformance.query.parse(query));
      case "timeseries":
        return vendorPerformanceTimeseries(deps, vendorId, vendorAnalyticsEndpoints.vendorsMeProductsPerformanceTimeseries.query.parse(query));
    }
  };
  // Vendor v has the products n with n % VENDORS = v - 1.
  const productOf = (vendorId: string, k: number) => `gid://shopify/Product/${8000000 + (Number(vendorId.split("-").pop()) - 1) + VENDORS * (k % (PRODUCTS / VENDORS))}`;
  // What the vendor pages ask for: the home (summary with the previous period, top products),
  // the products table, a product's chart; an admin opening a vendor; and, as the floor of a
  // request on this machine, a product's single day.
  const cases: { label: string; kind: Kind; query: (vendorId: string, k: number) => Record<string, string>; admin?: boolean }[] = [
    { label: "summary, 30 days + previous", kind: "summary", query: () => ({ ...last(30), compare: "previous" }) },
    { label: "summary, 90 days + previous", kind: "summary", query: () => ({ ...last(90), compare: "previous" }) },
    { label: "summary, 365 days + previous", kind: "summary", query: () => ({ ...last(365), compare: "previous" }) },
    { label: "top products by revenue, 30 days", kind: "top", query: () => ({ ...last(30), by: "revenue" }) },
    { label: "top products by views, 365 days", kind: "top", query: () => ({ ...last(365), by: "views", limit: "50" }) },
    { label: "products performance, 30 days", kind: "performance", query: () => ({ ...last(30), sort: "revenue" }) },
    { label: "products performance, 365 days, q", kind: "performance", query: () => ({ ...last(365), sort: "conversion", q: "linen" }) },
    { label: "timeseries all products, 90 days", kind: "timeseries", query: () => last(90) },
    { label: "timeseries one product, 365 days", kind: "timeseries", query: (v, k) => ({ ...last(365), productId: productOf(v, k) }) },
    { label: "admin: summary of a vendor, 30 days", kind: "summary", admin: true, query: () => ({ ...last(30), compare: "previous" }) },
    { label: "admin: products of a vendor, 90 days", kind: "performance", admin: true, query: () => last(90) },
    { label: "floor: one product, one day", kind: "timeseries", query: (v, k) => ({ ...last(1), productId: productOf(v, k) }) },
  ];
  log(`timing ${cases.length} kinds of call, ${opts.calls} each (after 5 warm-up calls), in-process through the API handler and, beside it, the service alone; each vendor in turn; load average ${load()}`);
  const all: number[] = [];
  const table: string[][] = [];
  for (const c of cases) {
    const times: number[] = [];
    const serviceTimes: number[] = [];
    for (let i = 0; i < opts.calls + 5; i++) {
      const who = tokens[i % tokens.length];
      const query = c.query(who.vendorId, i);
      const path = `${c.admin ? paths[c.kind][1].replace("{id}", who.vendorId) : paths[c.kind][0]}?${new URLSearchParams(query)}`;
      const r = await callApi(booted.ctx, { method: "GET", path, token: c.admin ? adminToken : who.token });
      if (r.status !== 200) throw new Error(`GET /api${path} answered ${errorText(r)}`);
      const s = performance.now();
      await service(c.kind, who.vendorId, query);
      const serviceMs = performance.now() - s;
      if (i >= 5) {
        times.push(r.ms);
        serviceTimes.push(serviceMs);
      }
    }
    const d = dist(times);
    const sv = dist(serviceTimes);
    if (!c.label.startsWith("floor")) all.push(...times);
    table.push([c.label, String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max), fmt(sv.p50), fmt(sv.p95)]);
    addSummary({ section: "vendor (PostgreSQL)", figure: `${c.label} p95`, value: `${fmt(d.p95)} ms`, target: `≤ ${VENDOR_DASHBOARD_TARGET_MS} ms`, ratio: d.p95 / VENDOR_DASHBOARD_TARGET_MS });
  }
  const total = dist(all);
  table.push(["all calls (floor left out)", String(total.n), fmt(total.p50), fmt(total.p95), fmt(total.max), "", ""]);
  log("");
  printTable(["GET /api/vendors/…", "n", "p50 ms", "p95 ms", "max ms", "service p50", "service p95"], table);
  log(`vendor dashboard p95 ${fmt(total.p95)} ms over ${opts.views.toLocaleString("en")} view events: ${total.p95 <= VENDOR_DASHBOARD_TARGET_MS ? "meets" : "does NOT meet"} the ${VENDOR_DASHBOARD_TARGET_MS} ms target (load average ${load()} on ${os.cpus().length} CPUs)`);
  addSummary({ section: "vendor (PostgreSQL)", figure: "all vendor dashboard calls p95", value: `${fmt(total.p95)} ms`, target: `≤ ${VENDOR_DASHBOARD_TARGET_MS} ms`, ratio: total.p95 / VENDOR_DASHBOARD_TARGET_MS });
}
