/**
 * Admin order search (issue 16: p95 ≤ 50 ms on 100k orders on PostgreSQL 15). A scratch database
 * on the machine's PostgreSQL, migrated through the app's own start path, gets 100,000 orders
 * (about 200,000 items, two years of history, every status) generated in SQL; then a mix of
 * searches as an admin types them — order number, customer email (whole and partial), customer
 * name, product title words, SKU, tracking number, status and date filters, and a few with no
 * match — each timed in-process through GET /api/orders/admin (the handler the server mounts), with
 * the plan each kind took (app/services/orders/admin-order-search.server.ts) beside its figures.
 *
 * A representative SQL search of the same shape is timed beside it, or alone while the endpoint is
 * not built (the run says which): the same predicates (name/number, email, the customer account's
 * name, item title, SKU, tracking number) as one indexed query, newest first, a page of 50 + 1.
 */
import pg from "pg";
import { boot } from "../../app/boot.server";
import { pgConfigFromUrl } from "../../app/lib/pg-url";
import { issueToken } from "../../app/services/tokens.server";
import { searchAdminOrders, type AdminOrderQuery } from "../../app/services/orders/admin-order-search.server";
import { benchEnv } from "./setup";
import { createBenchDatabase, dropStaleBenchDatabases, onCleanup, tempDir } from "./database";
import { addSummary, callApi, dist, errorText, fmt, isMissingEndpoint, printTable, type Dist } from "./report";

export const ORDER_SEARCH_TARGET_MS = 50;

const FIRST = ["Ava", "Liam", "Olivia", "Noah", "Emma", "Mateo", "Sophia", "Lucas", "Mia", "Ethan", "Chloe", "Hugo", "Zoe", "Leo", "Nora", "Oscar", "Ines", "Felix", "Maya", "Arthur", "Elena", "Jonas", "Clara", "Samuel", "Alice", "Omar", "Lina", "Theo", "Rosa", "Daniel"];
const LAST = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau", "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann", "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Nakamura", "Tanaka", "Kim", "Park", "Chen", "Wang", "Singh", "Patel", "Silva", "Santos"];
const ADJ = ["Relaxed", "Slim", "Oversized", "Cropped", "Classic", "Boxy", "Tailored", "Wide-Leg", "Fitted", "Heavyweight", "Washed", "Pleated"];
const MATERIAL = ["Linen", "Cotton", "Wool", "Denim", "Silk", "Cashmere", "Corduroy", "Jersey", "Twill", "Fleece", "Satin", "Tweed"];
const GARMENT = ["Shirt", "Dress", "Coat", "Jeans", "Trousers", "Blazer", "Sweater", "Cardigan", "Skirt", "Hoodie", "Jacket", "T-Shirt", "Shorts", "Polo"];
const SIZES = ["XS", "S", "M", "L", "XL"];

const sqlArray = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(",")}]::text[]`;

/** 100k orders and their items, generated in the database (deterministic: ids and hashes of the row number). */
export async function generateOrders(client: pg.Client, orders: number): Promise<{ ms: number; items: number }> {
  const t0 = performance.now();
  await client.query(`INSERT INTO vendors (id, name, handle, updated_at)
    SELECT 'bench-vendor-' || v, 'Bench Vendor ' || v, 'bench-vendor-' || v, now() FROM generate_series(1, 8) v`);
  // Two years of orders up to now; a row's choices come from its number (no random(): identical runs).
  // Customers: 20,000 accounts (names repeat, as they do); an order's customer and choices come
  // from its row number (no random(): identical runs).
  const customers = Math.max(1, Math.min(20_000, Math.floor(orders / 5)));
  const person = (u: string) =>
    `(${sqlArray(FIRST)})[1 + (${u} * 7) % ${FIRST.length}] AS f, (${sqlArray(LAST)})[1 + (${u} * 13) % ${LAST.length}] AS l`;
  await client.query(
    `INSERT INTO users (id, email, first_name, last_name, auth_provider, role, email_verified_at, created_at, updated_at)
     SELECT 'bench-user-' || u, lower(f) || '.' || lower(l) || u || '@example.com', f, l, 'password', 'SHOPPER', now(), now(), now()
     FROM (SELECT u, ${person("u")} FROM generate_series(1, $1::int) u) s`,
    [customers],
  );
  // Two years of orders up to now.
  await client.query(
    `INSERT INTO orders (id, name, order_number, user_id, email, status, financial_status, fulfillment_status, subtotal_price, total_shipping, total_tax, total_price,
       "currencyCode", cancel_reason, cancelled_at, closed_at, shipping_address, created_at, updated_at)
     SELECT 'gid://shopify/Order/' || (7000000 + g), '#' || (100000 + g), 100000 + g,
       'bench-user-' || u, lower(f) || '.' || lower(l) || u || '@example.com',
       (CASE WHEN g % 16 = 0 THEN 'cancelled' WHEN g % 5 < 3 THEN 'closed' ELSE 'open' END)::"OrderStatus",
       CASE WHEN g % 16 = 0 THEN 'REFUNDED' WHEN g % 41 = 0 THEN 'PARTIALLY_REFUNDED' WHEN g % 23 = 0 THEN 'PENDING' ELSE 'PAID' END,
       CASE WHEN g % 16 = 0 OR g % 5 = 4 THEN 'UNFULFILLED' WHEN g % 17 = 0 THEN 'PARTIALLY_FULFILLED' ELSE 'FULFILLED' END,
       p, 8, round(p * 0.0825, 2), p + 8 + round(p * 0.0825, 2), 'USD',
       CASE WHEN g % 16 = 0 THEN 'CUSTOMER' END, CASE WHEN g % 16 = 0 THEN ts + interval '3 hours' END,
       CASE WHEN g % 16 <> 0 AND g % 5 < 3 THEN ts + interval '5 days' END,
       jsonb_build_object('first_name', f, 'last_name', l, 'address1', (g % 900 + 1) || ' Market Street', 'city', 'San Francisco', 'zip', '94103', 'country', 'United States', 'country_code', 'US'),
       ts, ts
     FROM (
       SELECT g, u, ${person("u")}, (20 + (g * 37) % 400)::numeric(12, 2) AS p,
         date_trunc('second', (now() AT TIME ZONE 'UTC') - ((($1::int - g)::float8 / $1::int) * interval '730 days')) AS ts
       FROM generate_series(1, $1::int) g, LATERAL (SELECT 1 + (g * 7907) % $2::int AS u) c
     ) s`,
    [orders, customers],
  );
  const items = await client.query(
    `INSERT INTO order_items (id, order_id, product_id, variant_id, vendor_id, title, variant_title, sku, quantity, price, status, tracking_number, tracking_url, provider, created_at, updated_at)
     SELECT o.id || '/' || i, o.id, 'gid://shopify/Product/' || pn, 'gid://shopify/ProductVariant/' || (pn * 10 + i),
       'bench-vendor-' || (1 + pn % 8),
       (${sqlArray(ADJ)})[1 + pn % ${ADJ.length}] || ' ' || (${sqlArray(MATERIAL)})[1 + (pn / ${ADJ.length}) % ${MATERIAL.length}] || ' ' || (${sqlArray(GARMENT)})[1 + (pn / ${ADJ.length * MATERIAL.length}) % ${GARMENT.length}],
       (${sqlArray(SIZES)})[1 + (o.order_number + i) % 5],
       'FD-' || lpad(pn::text, 4, '0') || '-' || (${sqlArray(SIZES)})[1 + (o.order_number + i) % 5],
       1 + (o.order_number % 9 = 0)::int, 20 + pn % 180,
       (CASE WHEN o.status = 'cancelled' THEN 'cancelled'
             WHEN o.fulfillment_status = 'UNFULFILLED' THEN 'unfulfilled'
             WHEN o.fulfillment_status = 'PARTIALLY_FULFILLED' AND i = 1 THEN 'unfulfilled'
             WHEN o.status = 'closed' THEN 'delivered' WHEN o.order_number % 2 = 0 THEN 'shipped' ELSE 'fulfilled' END)::"OrderItemStatus",
       CASE WHEN o.status <> 'cancelled' AND o.fulfillment_status <> 'UNFULFILLED' THEN '1Z' || upper(substr(md5(o.id), 1, 16)) END,
       CASE WHEN o.status <> 'cancelled' AND o.fulfillment_status <> 'UNFULFILLED' THEN 'https://www.ups.com/track?tracknum=1Z' || upper(substr(md5(o.id), 1, 16)) END,
       CASE WHEN o.status <> 'cancelled' AND o.fulfillment_status <> 'UNFULFILLED' THEN 'UPS' END,
       o.created_at, o.updated_at
     FROM orders o
     CROSS JOIN LATERAL generate_series(1, 1 + o.order_number % 3) i
     CROSS JOIN LATERAL (SELECT (o.order_number * 7919 + i * 104729) % ${ADJ.length * MATERIAL.length * GARMENT.length} AS pn) x`,
  );
  // Returns on about 3% of the delivered orders (their first item), in every Return status.
  await client.query(
    `INSERT INTO returns (id, order_id, status, refund_amount, created_at, updated_at)
     SELECT 'bench-return-' || o.order_number, o.id,
       ((ARRAY['REQUESTED','LABEL_SENT','IN_TRANSIT','DELIVERED','REFUNDED','REFUNDED','CANCELED'])[1 + o.order_number % 7])::"ReturnStatus",
       CASE WHEN o.order_number % 7 IN (4, 5) THEN o.subtotal_price END, o.closed_at + interval '3 days', o.closed_at + interval '3 days'
     FROM orders o WHERE o.status = 'closed' AND o.order_number % 29 = 0`,
  );
  await client.query(
    `INSERT INTO return_line_items (id, return_id, order_item_id, quantity, updated_at)
     SELECT r.id || '/1', r.id, r.order_id || '/1', 1, r.created_at FROM returns r WHERE r.id LIKE 'bench-return-%'`,
  );
  await client.query("VACUUM ANALYZE");
  return { ms: performance.now() - t0, items: items.rowCount ?? 0 };
}

interface SearchCase {
  kind: string;
  query: Record<string, string>;
}

/** The mix: what admins type, from the generated rows (so most searches find something). */
export async function searchMix(client: pg.Client, n: number): Promise<SearchCase[]> {
  const sample = await client.query<{ order_number: number; email: string; first: string; last: string; title: string; sku: string; tracking: string | null }>(
    `SELECT o.order_number, o.email, u.first_name AS first, u.last_name AS last, i.title, i.sku, i.tracking_number AS tracking
     FROM orders o JOIN users u ON u.id = o.user_id JOIN order_items i ON i.order_id = o.id AND i.id = o.id || '/1'
     WHERE o.order_number % 397 = 11 ORDER BY o.order_number LIMIT 400`,
  );
  const rows = sample.rows;
  const cases: SearchCase[] = [];
  const kinds: ((k: number) => SearchCase)[] = [
    (k) => ({ kind: "order number", query: { q: `#${rows[k % rows.length].order_number}` } }),
    (k) => ({ kind: "order number (bare)", query: { q: String(rows[(k * 3) % rows.length].order_number) } }),
    (k) => ({ kind: "email", query: { q: rows[(k * 5) % rows.length].email } }),
    (k) => ({ kind: "email, partial", query: { q: rows[(k * 7) % rows.length].email.split("@")[0].slice(0, 9) } }),
    (k) => ({ kind: "customer name", query: { q: `${rows[(k * 11) % rows.length].first} ${rows[(k * 11) % rows.length].last}` } }),
    (k) => ({ kind: "product title", query: { q: rows[(k * 13) % rows.length].title.split(" ").slice(1).join(" ") } }),
    (k) => ({ kind: "sku", query: { q: rows[(k * 17) % rows.length].sku } }),
    (k) => ({ kind: "tracking number", query: { q: rows.filter((r) => r.tracking)[(k * 19) % rows.filter((r) => r.tracking).length]?.tracking ?? "1Z0000" } }),
    (k) => ({ kind: "title + unfulfilled", query: { q: rows[(k * 23) % rows.length].title.split(" ")[2] ?? "Shirt", fulfillmentStatus: "UNFULFILLED" } }),
    (k) => ({ kind: "no match", query: { q: `zzqx${k}` } }),
    () => ({ kind: "list, paid, last 30 days", query: { financialStatus: "PAID", from: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) } }),
  ];
  for (let k = 0; k < n; k++) cases.push(kinds[k % kinds.length](Math.floor(k / kinds.length)));
  return cases;
}

/** Above this many text matches a search walks the orders newest first instead of collecting the matches. */
export const BROAD_MATCHES = 150;

/**
 * The representative SQL search: the same predicates as the admin list (order name/number, email,
 * the customer account's name, item title, SKU, tracking number), newest first, a page of 51.
 * "#1234" is looked up as an order name and a whole email address as an email only; otherwise
 * two plans, chosen by a capped count of the text matches (a few ms on the trigram indexes):
 * - few matches (a number, an email, a SKU, a tracking number, a rare word): the union of the
 *   matching order ids, each part on its own index, then sorted — a full walk would read every
 *   order for a search that finds nothing;
 * - many matches (a common word such as "shirt"): the orders walked newest first on the
 *   created_at index, each tested, stopping at 51 — collecting and sorting thousands of matches
 *   is what makes a broad search slow.
 */
export async function sqlSearch(client: pg.Client, c: SearchCase): Promise<number> {
  const q = (c.query.q ?? "").trim();
  const like = `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  const num = /^#?(\d{1,9})$/.exec(q)?.[1];
  const words = q.split(/\s+/);
  const params: unknown[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where: string[] = [];
  if (q && /^#\d{1,9}$/.test(q)) {
    // "#1234" is an order name: nothing else has that shape, and the unique index answers it.
    where.push(`o.name = ${p(q)}`);
  } else if (q && /^\S+@\S+$/.test(q)) {
    // A whole email address: the customer's orders.
    where.push(`o.email ILIKE ${p(like)}`);
  } else if (q) {
    const probe = await client.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM order_items WHERE title ILIKE $1 OR sku ILIKE $1 LIMIT $2) a)::int
            + (SELECT count(*) FROM (SELECT 1 FROM orders WHERE email ILIKE $1 LIMIT $2) b)::int AS n`,
      [like, BROAD_MATCHES],
    );
    const broad = probe.rows[0].n >= BROAD_MATCHES;
    if (broad) {
      const or = [
        `o.email ILIKE ${p(like)}`,
        `EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND (i.title ILIKE ${p(like)} OR i.sku ILIKE ${p(like)} OR i.tracking_number = ${p(q)}))`,
      ];
      if (num) or.push(`o.name = ${p(`#${num}`)}`);
      if (words.length === 2) or.push(`EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id AND u.first_name ILIKE ${p(words[0])} AND u.last_name ILIKE ${p(words[1])})`);
      where.push(`(${or.join(" OR ")})`);
    } else {
      const parts = [
        `SELECT id FROM orders WHERE email ILIKE ${p(like)}`,
        `SELECT order_id FROM order_items WHERE title ILIKE ${p(like)} OR sku ILIKE ${p(like)}`,
        `SELECT order_id FROM order_items WHERE tracking_number = ${p(q)}`,
      ];
      // By name, not order_number: the name ("#1234") has the unique index, the number none.
      if (num) parts.push(`SELECT id FROM orders WHERE name = ${p(`#${num}`)}`);
      if (words.length === 2)
        parts.push(`SELECT o2.id FROM orders o2 JOIN users u ON u.id = o2.user_id WHERE u.first_name ILIKE ${p(words[0])} AND u.last_name ILIKE ${p(words[1])}`);
      where.push(`o.id IN (${parts.join(" UNION ")})`);
    }
  }
  if (c.query.fulfillmentStatus) where.push(`o.fulfillment_status = ${p(c.query.fulfillmentStatus)}`);
  if (c.query.financialStatus) where.push(`o.financial_status = ${p(c.query.financialStatus)}`);
  if (c.query.from) where.push(`o.created_at >= ${p(c.query.from)}::timestamp`);
  const r = await client.query(
    `SELECT o.id, o.name, o.email, o.created_at, o.total_price FROM orders o ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY o.created_at DESC, o.id DESC LIMIT 51`,
    params,
  );
  return r.rowCount ?? 0;
}

export async function runOrderSearchBenchmark(opts: { orders: number; queries: number; log: (line: string) => void }): Promise<void> {
  const { log } = opts;
  const stale = await dropStaleBenchDatabases();
  if (stale.length) log(`dropped ${stale.length} database(s) left by killed runs: ${stale.join(", ")}`);
  const { name, url } = await createBenchDatabase();
  const dataDir = tempDir("orders");
  const b0 = performance.now();
  const booted = await boot({ env: benchEnv(url, dataDir), seed: false });
  onCleanup(() => booted.shutdown());
  const client = new pg.Client(pgConfigFromUrl(url));
  await client.connect();
  onCleanup(() => client.end());
  const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
  log(`database ${name} (PostgreSQL ${version}), migrated through app/boot.server.ts in ${((performance.now() - b0) / 1000).toFixed(1)} s`);
  const gen = await generateOrders(client, opts.orders);
  log(`${opts.orders.toLocaleString("en")} orders and ${gen.items.toLocaleString("en")} items generated in SQL + VACUUM ANALYZE in ${(gen.ms / 1000).toFixed(1)} s`);

  const admin = await booted.ctx.db.user.create({ data: { email: "bench-orders-admin@example.com", auth_provider: "password", role: "ADMIN", permissions: ["orders.manage"] } });
  const token = await issueToken(booted.ctx.db, admin.id);
  const cases = await searchMix(client, opts.queries);
  const probe = await callApi(booted.ctx, { method: "GET", path: `/orders/admin?q=${encodeURIComponent("#100011")}`, token });
  const viaApi = !isMissingEndpoint(probe);
  if (viaApi && probe.status !== 200) throw new Error(`GET /api/orders/admin answered ${errorText(probe)}`);
  log(
    viaApi
      ? "timing GET /api/orders/admin in-process (the admin order list, first page), then the representative SQL search (scripts/bench/orders.ts sqlSearch) for comparison"
      : "GET /api/orders/admin is not built yet: timing a representative SQL search of the same shape (scripts/bench/orders.ts sqlSearch), newest first, 51 rows",
  );

  const n = opts.orders.toLocaleString("en");
  const api = async (c: SearchCase) => {
    const r = await callApi(booted.ctx, { method: "GET", path: `/orders/admin?${new URLSearchParams(c.query)}`, token });
    if (r.status !== 200) throw new Error(`GET /api/orders/admin?${new URLSearchParams(c.query)} answered ${errorText(r)}`);
    const body = r.json as { items?: unknown[] } | null;
    return { ms: r.ms, rows: body?.items?.length ?? 0 };
  };
  const sql = async (c: SearchCase) => {
    const s = performance.now();
    const rows = await sqlSearch(client, c);
    return { ms: performance.now() - s, rows };
  };
  const runs: { label: string; section: string; search: typeof api }[] = viaApi
    ? [
        { label: "GET /api/orders/admin", section: "orders (PostgreSQL)", search: api },
        // The SQL shape beside it: what the same searches cost as one indexed query.
        { label: "SQL stand-in", section: "orders (PostgreSQL, SQL stand-in)", search: sql },
      ]
    : [{ label: "SQL stand-in", section: "orders (PostgreSQL, SQL stand-in)", search: sql }];
  // Which plan of app/services/orders/admin-order-search.server.ts each kind took (asked once per
  // search, untimed): the figures per kind read with it.
  const plansByKind = new Map<string, Set<string>>();
  if (viaApi) {
    for (const c of cases) {
      const { plan } = await searchAdminOrders(booted.ctx.db, { ...c.query, from: c.query.from ? new Date(c.query.from) : undefined } as AdminOrderQuery);
      plansByKind.set(c.kind, (plansByKind.get(c.kind) ?? new Set<string>()).add(plan));
    }
  }
  for (const run of runs) {
    const byKind = new Map<string, number[]>();
    const all: number[] = [];
    let found = 0;
    // Warm-up: the first searches load the indexes' pages and the code paths.
    for (const c of cases.slice(0, 11)) await run.search(c);
    for (const c of cases) {
      const { ms, rows } = await run.search(c);
      if (rows > 0) found++;
      all.push(ms);
      const list = byKind.get(c.kind) ?? [];
      list.push(ms);
      byKind.set(c.kind, list);
    }
    const withPlan = run.search === api && plansByKind.size > 0;
    const row = (label: string, d: Dist) => [label, String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max), ...(withPlan ? [[...(plansByKind.get(label) ?? [])].join(", ")] : [])];
    const total = dist(all);
    log("");
    printTable([run.label, "n", "p50 ms", "p95 ms", "max ms", ...(withPlan ? ["plan"] : [])], [...[...byKind].map(([k, v]) => row(k, dist(v))), row("all searches", total)], ["l", "r", "r", "r", "r", "l"]);
    log(`${found} of ${cases.length} searches found orders`);
    const meets = total.p95 <= ORDER_SEARCH_TARGET_MS;
    log(`${run.label}: order search p95 ${fmt(total.p95)} ms on ${n} orders: ${meets ? "meets" : "does NOT meet"} the ${ORDER_SEARCH_TARGET_MS} ms target`);
    addSummary({ section: run.section, figure: `order search p50 (${n} orders)`, value: `${fmt(total.p50)} ms` });
    addSummary({ section: run.section, figure: `order search p95 (${n} orders)`, value: `${fmt(total.p95)} ms`, target: `≤ ${ORDER_SEARCH_TARGET_MS} ms`, ratio: total.p95 / ORDER_SEARCH_TARGET_MS });
  }

  // Order analytics over the same orders (GET /api/orders/admin/analytics: SQL aggregates per day).
  const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
  const ranges: [string, Record<string, string>][] = [
    ["last 30 days (default)", {}],
    ["last 90 days", { from: day(89 * 86_400_000), to: day(0) }],
    ["last 366 days", { from: day(365 * 86_400_000), to: day(0) }],
  ];
  const analyticsRows: string[][] = [];
  for (const [label, query] of ranges) {
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await callApi(booted.ctx, { method: "GET", path: `/orders/admin/analytics?${new URLSearchParams(query)}`, token });
      if (r.status !== 200) throw new Error(`GET /api/orders/admin/analytics answered ${errorText(r)}`);
      if (i >= 2) times.push(r.ms); // the first two warm up
    }
    const d = dist(times);
    analyticsRows.push([label, String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max)]);
    addSummary({ section: "orders (PostgreSQL)", figure: `analytics ${label} p50 (${n} orders)`, value: `${fmt(d.p50)} ms` });
  }
  log("");
  printTable(["GET /api/orders/admin/analytics", "n", "p50 ms", "p95 ms", "max ms"], analyticsRows);
}
