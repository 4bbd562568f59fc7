/**
 * Recommendation latency on a 20,000-product catalogue on PostgreSQL (figures, not pass/fail):
 *
 *   npx tsx scripts/bench-recommendations.ts [postgresql://postgres@127.0.0.1:5432/postgres]
 *
 * Creates a scratch database on that server, migrates it, fills it with 20,000 products, 2,000
 * shoppers, ~200,000 views in browsing sessions and ~8,000 orders, rebuilds the aggregates (timed),
 * then measures p50/p95 of every recommendation endpoint over sequential in-process requests
 * (the handler the server mounts; no network), and drops the database. No vector index is
 * configured, so "customers also viewed" fills from similarProducts (the slow path, cached).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../app/config.server";
import { createAppContext } from "../app/context.server";
import { createPrismaClient } from "../app/db.server";
import { migrateDeploy } from "../app/db/migrate.server";
import { createLogger } from "../app/lib/logger.server";
import { pgConfigFromUrl } from "../app/lib/pg-url";
import { handleApiRequest } from "../app/api/index.server";
import { issueToken } from "../app/services/tokens.server";
import { rebuildRecommendationAggregates } from "../app/services/recommendations/aggregates.server";

const serverUrl = process.argv[2] ?? process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const PRODUCTS = 20_000;
const USERS = 2_000;
const SESSIONS = 30_000;
const ORDERS = 8_000;
const N = Number(process.env.BENCH_N ?? 300);

/** BENCH_REUSE=<database name>: measure an existing bench database again (kept with BENCH_KEEP=1). */
const reuse = process.env.BENCH_REUSE;
const name = reuse ?? `fd_bench_rec_${Date.now().toString(36)}`;
const admin = new pg.Client(pgConfigFromUrl(serverUrl));
await admin.connect();
if (!reuse) await admin.query(`CREATE DATABASE ${name}`);
const u = new URL(serverUrl);
u.pathname = `/${name}`;
const url = u.toString();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-bench-rec-"));

try {
  const db = createPrismaClient(url, { maxConnections: 8 });
  if (!reuse) await generate(db);

  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, NODE_ENV: "production", LOG_LEVEL: "silent", APP_MODE: "local" });
  const ctx = createAppContext({ config, db, log: createLogger("silent") });
  const tokens: string[] = [];
  for (let i = 0; i < 100; i++) tokens.push(await issueToken(db, `bench-user-${(i * 7) % USERS}`));
  const popular = (await db.productPopularity.findMany({ orderBy: { view_score: "desc" }, take: 2000, select: { product_id: true } })).map((p) => p.product_id);
  const rnd = (() => {
    let s = 12345;
    return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  })();
  const anyProduct = () => (rnd() < 0.7 ? popular[Math.floor(rnd() * popular.length)] : `gid://shopify/Product/${100001 + Math.floor(rnd() * PRODUCTS)}`);
  const cursors = new Map<string, string>();

  const call = async (method: string, p: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) headers["content-type"] = "application/json";
    const res = await handleApiRequest(new Request(`http://localhost/api${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined }), ctx, { clientIp: "bench" });
    const json = (await res.json()) as { pagination?: { cursor?: string | null } };
    if (res.status >= 400 && res.status !== 404) throw new Error(`${p} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };

  const cases: [string, (i: number) => Promise<unknown>][] = [
    ["view-product", (i) => call("POST", "/users/view-product", tokens[i % tokens.length], { product_id: anyProduct() })],
    ["for-you", (i) => call("GET", `/recommendations/for-you?page=${1 + (i % 3)}`, tokens[i % tokens.length])],
    [
      "random (seed + cursor)",
      async (i) => {
        const seed = `s${i % 20}`;
        const c = cursors.get(seed);
        const r = (await call("GET", `/recommendations/random?seed=${seed}&limit=20${c ? `&cursor=${c}` : ""}`)) as { pagination: { cursor: string | null } };
        if (r.pagination.cursor) cursors.set(seed, r.pagination.cursor);
      },
    ],
    ["most-viewed", (i) => call("GET", `/recommendations/most-viewed?page=${1 + (i % 5)}&target_gender=${["menswear", "womenswear", "both"][i % 3]}`)],
    ["best-sellers", (i) => call("GET", `/recommendations/best-sellers?page=${1 + (i % 5)}`)],
    ["customers-also-viewed", () => call("GET", `/recommendations/customers-also-viewed/${encodeURIComponent(anyProduct())}`)],
    ["frequently-bought-together", () => call("GET", `/recommendations/frequently-bought-together/${encodeURIComponent(anyProduct())}`)],
  ];
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  console.log(`\nlatency over ${N} sequential requests each (in-process, PostgreSQL):`);
  console.log("endpoint".padEnd(30), "p50 ms".padStart(8), "p95 ms".padStart(8), "max ms".padStart(8));
  for (const [label, run] of cases) {
    for (let i = 0; i < 10; i++) await run(i); // warm-up
    const times: number[] = [];
    for (let i = 0; i < N; i++) {
      const s = performance.now();
      await run(i + 10);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    console.log(label.padEnd(30), pct(times, 50).toFixed(1).padStart(8), pct(times, 95).toFixed(1).padStart(8), times[times.length - 1].toFixed(1).padStart(8));
  }
  await db.$disconnect();
} finally {
  if (process.env.BENCH_KEEP) console.log(`kept database ${name} (BENCH_REUSE=${name} to measure it again)`);
  else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function generate(db: ReturnType<typeof createPrismaClient>) {
  await migrateDeploy(url, { quiet: true });
  const t0 = performance.now();
  const sql = (q: string) => db.$executeRawUnsafe(q);
  await sql(`SELECT setseed(0.42)`);
  await sql(`INSERT INTO vendors (id, name, handle, updated_at) VALUES ('bench-vendor', 'Bench', 'bench', now())`);
  await sql(`INSERT INTO stores (id, name, handle, vendor_id, target_gender, updated_at)
    SELECT 'store-' || i, 'Store ' || i, 'store-' || i, 'bench-vendor', (ARRAY['menswear','womenswear','both'])[1 + i % 3]::"TargetGender", now() FROM generate_series(1, 50) i`);
  await sql(`INSERT INTO products (id, title, handle, vendor, "productType", "priceMin", "priceMax", tags, target_gender, status, "publishedAt", store_id, created_at, updated_at, "availableForSale", "featuredImageUrl")
    SELECT 'gid://shopify/Product/' || (100000 + i), t.name || ' ' || i, 'p-' || i, 'Store ' || (1 + i % 50), t.name, 20 + (i * 37) % 300, 25 + (i * 37) % 300,
      ARRAY[lower(t.name), (ARRAY['minimalist','streetwear','smart-casual','workwear','romantic','outdoor'])[1 + i % 6]],
      (ARRAY['menswear','womenswear','both'])[1 + (i / 7) % 3]::"TargetGender", (CASE WHEN i % 50 = 0 THEN 'draft' ELSE 'active' END)::"ProductStatus",
      now() AT TIME ZONE 'UTC' - (i || ' minutes')::interval, 'store-' || (1 + i % 50), now() AT TIME ZONE 'UTC' - (i || ' minutes')::interval, now(), true, '/uploads/x.jpg'
    FROM generate_series(1, ${PRODUCTS}) i,
    LATERAL (SELECT (ARRAY['T-Shirts','Shirts','Jeans','Trousers','Coats','Jackets','Dresses','Skirts','Sneakers','Bags','Sweaters','Hoodies'])[1 + i % 12] AS name) t`);
  await sql(`INSERT INTO product_variants (id, product_id, title, price, "availableForSale", color_hex, position, updated_at)
    SELECT 'gid://shopify/ProductVariant/' || (100000 + i) || v, 'gid://shopify/Product/' || (100000 + i), 'V' || v, 20 + (i * 37) % 300, true,
      (ARRAY['#1c1c1e','#f4f1ea','#1f2a44','#b3262e','#6b7b4f'])[1 + (i + v) % 5], v, now()
    FROM generate_series(1, ${PRODUCTS}) i, generate_series(0, 1) v`);
  await sql(`INSERT INTO users (id, auth_provider, metadata, updated_at)
    SELECT 'bench-user-' || i, 'guest', jsonb_build_object('interests', (ARRAY['menswear,streetwear','womenswear,minimalist','womenswear,romantic','menswear,workwear',''])[1 + i % 5]), now()
    FROM generate_series(0, ${USERS - 1}) i`);
  // Browsing sessions: a skewed first product, then products of the same type nearby.
  await sql(`INSERT INTO product_view_events (id, user_id, session_id, product_id, created_at)
    SELECT md5(s || '-' || j), CASE WHEN s % 5 < 3 THEN 'bench-user-' || (s % ${USERS}) END, 'sess-' || s,
      'gid://shopify/Product/' || (100000 + 1 + ((p0 + 12 * floor(random() * 30)::int) % ${PRODUCTS})),
      start + (j * 2 || ' minutes')::interval
    FROM (SELECT s, floor(${PRODUCTS} * random() ^ 3)::int AS p0, now() AT TIME ZONE 'UTC' - (random() * 60 || ' days')::interval AS start, 3 + floor(random() * 8)::int AS n
          FROM generate_series(1, ${SESSIONS}) s) sess, LATERAL generate_series(0, sess.n - 1) j`);
  await sql(`INSERT INTO orders (id, name, total_price, created_at, updated_at) SELECT 'gid://shopify/Order/' || o, '#B' || o, 100, now() AT TIME ZONE 'UTC' - (random() * 90 || ' days')::interval, now() FROM generate_series(1, ${ORDERS}) o`);
  await sql(`INSERT INTO product_purchase_events (id, order_id, user_id, product_id, quantity, created_at)
    SELECT md5('p' || o || '-' || k), 'gid://shopify/Order/' || o, CASE WHEN o % 3 = 0 THEN 'bench-user-' || (o % ${USERS}) END,
      'gid://shopify/Product/' || (100000 + 1 + ((p0 + k * 5) % ${PRODUCTS})), 1 + (o + k) % 2, (SELECT created_at FROM orders WHERE id = 'gid://shopify/Order/' || o)
    FROM (SELECT o, floor(${PRODUCTS} * random() ^ 2)::int AS p0, 1 + floor(random() * 3)::int AS n FROM generate_series(1, ${ORDERS}) o) x, LATERAL generate_series(0, x.n - 1) k`);
  await sql(`INSERT INTO saved_products (id, user_id, product_id) SELECT DISTINCT ON (u, p) md5('s' || u || '-' || p), 'bench-user-' || u, 'gid://shopify/Product/' || (100000 + 1 + p)
    FROM (SELECT (random() * ${USERS - 1})::int AS u, (random() * ${PRODUCTS - 1})::int AS p FROM generate_series(1, 10000)) r`);
  await sql(`INSERT INTO user_favorite_stores (id, user_id, store_id) SELECT DISTINCT ON (u, s) md5('f' || u || '-' || s), 'bench-user-' || u, 'store-' || s
    FROM (SELECT (random() * ${USERS - 1})::int AS u, 1 + (random() * 49)::int AS s FROM generate_series(1, 3000)) r`);
  await sql(`ANALYZE`);
  const events = Number((await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM product_view_events`))[0].n);
  console.log(`catalogue: ${PRODUCTS} products, ${USERS} shoppers, ${events} views, ${ORDERS} orders — generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const r = await rebuildRecommendationAggregates(db);
  await sql(`VACUUM ANALYZE`); // what autovacuum does after a bulk load (GIN pending lists, statistics)
  console.log(`rebuild (recommendations.rebuild): ${(r.ms / 1000).toFixed(1)} s — ${r.popularity} popularity rows, ${r.viewPairs} view pairs, ${r.purchasePairs} purchase pairs`);

}
