/**
 * `npm run bench`: figures, not pass/fail.
 *
 * - startup, api: start-up of the embedded default (first start with demo data, then a restart on
 *   the same data), and API latency percentiles for a few reads, measured in-process through the
 *   same handler the server mounts (no network noise).
 * - search, recs, photo, throughput (issue "Discovery"): a generated catalogue (20,000 products by
 *   default) in its own database on the machine's PostgreSQL; search relevance (recall@10, MRR@10
 *   on a labelled set) and server time, recommendation and feed pages, photo search, and
 *   requests per second of POST /api/search over HTTP under concurrent clients.
 * - vendor (issue 17): 5,000,000 generated view events (--views) on 2,000 products of 20 vendors on
 *   PostgreSQL, product_daily_stats rebuilt from them; p50/p95 of the vendor dashboard endpoints
 *   (scripts/bench/vendor.ts).
 *
 * - lighthouse (issue 20): the built storefront in Lighthouse's mobile preset, median of 3 per page,
 *   with each page's first-load JavaScript (scripts/bench/lighthouse.ts).
 *
 * `npm run bench -- --help` lists the flags (`--only=search`, `--products=2000`, …).
 * Databases and folders the run creates are removed at the end, also on failure or Ctrl-C.
 */
import os from "node:os";
import pg from "pg";
import { boot } from "../app/boot.server";
import { handleApiRequest } from "../app/api/index.server";
import { pgConfigFromUrl } from "../app/lib/pg-url";
import { parseArgs, USAGE, type BenchArgs } from "./bench/args";
import { BENCH_SERVER_URL, hookSignals, onCleanup, runCleanups, serverReachable, tempDir } from "./bench/database";
import { addSummary, fmt, pct, printSummary, printTable } from "./bench/report";
import { runRecommendations } from "./bench/recommendations";
import { runPhotoSearch } from "./bench/photo";
import { mixedQueries, resultIds, runRelevance, runSearchLatency } from "./bench/search";
import { buildLabelledQueries } from "./bench/relevance";
import { benchEnv, prepareVectors, setUpDiscovery } from "./bench/setup";
import { runThroughput } from "./bench/throughput";
import { runImportBenchmark } from "./bench/import";
import { runFalBenchmark } from "./bench/fal";
import { runTryOnBenchmark } from "./bench/tryon";
import { runCartBenchmark } from "./bench/cart";
import { runOrderSearchBenchmark } from "./bench/orders";
import { runVendorDashboardBenchmark } from "./bench/vendor";
import { runLighthouseBenchmark } from "./bench/lighthouse";

const log = (line: string) => console.log(line);
let sectionFailures = 0;

/** Runs one section; a failure is reported and the other sections still run. */
async function section(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    sectionFailures++;
    console.log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    addSummary({ section: name, figure: "section", value: "failed (see above)" });
  }
}
const once = (fn: () => Promise<void>) => {
  let p: Promise<void> | null = null;
  return () => (p ??= fn());
};

async function embedded(args: BenchArgs) {
  console.log("\n=== Embedded default (PGlite, demo data) ===");
  const dataDir = tempDir("embedded");
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", WORKER: "off", DATABASE_URL: "" };

  const t0 = performance.now();
  const first = await boot({ env });
  const firstShutdown = once(() => first.shutdown());
  onCleanup(firstShutdown);
  const firstMs = performance.now() - t0;
  console.log(`first start (migrations + demo data): ${(firstMs / 1000).toFixed(1)} s — ${JSON.stringify(first.seeded?.counts ?? {})}`);
  await firstShutdown();

  const t1 = performance.now();
  const b = await boot({ env });
  const shutdown = once(() => b.shutdown());
  onCleanup(shutdown);
  const restartMs = performance.now() - t1;
  console.log(`restart on the same data: ${(restartMs / 1000).toFixed(2)} s (ratio to first start: ${(restartMs / firstMs).toFixed(3)})`);
  addSummary({ section: "startup", figure: "first start (migrations + demo data)", value: `${(firstMs / 1000).toFixed(1)} s` });
  addSummary({ section: "startup", figure: "restart on the same data", value: `${(restartMs / 1000).toFixed(2)} s` });

  if (args.sections.has("api")) {
    const reads: [string, string][] = [
      ["health", "/api/health"],
      ["products page 1 (24)", "/api/products?limit=24"],
      ["products menswear (24)", "/api/products?limit=24&target_gender=menswear"],
      ["products text query", "/api/products?limit=24&query=shirt"],
    ];
    const N = 200;
    console.log(`\nAPI latency over ${N} sequential requests each (in-process, embedded PGlite):`);
    console.log("endpoint".padEnd(26), "p50 ms".padStart(8), "p95 ms".padStart(8), "max ms".padStart(8));
    for (const [name, url] of reads) {
      const times: number[] = [];
      for (let i = 0; i < N; i++) {
        const s = performance.now();
        const res = await handleApiRequest(new Request(`http://localhost${url}`), b.ctx, { clientIp: "bench" });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        times.push(performance.now() - s);
      }
      times.sort((x, y) => x - y);
      console.log(name.padEnd(26), pct(times, 50).toFixed(1).padStart(8), pct(times, 95).toFixed(1).padStart(8), times[times.length - 1].toFixed(1).padStart(8));
      addSummary({ section: "api (embedded)", figure: `${name} p95`, value: `${pct(times, 95).toFixed(1)} ms` });
    }
  }
  if (args.sections.has("cart")) await section("cart", async () => {
    console.log("\nAdd to cart (POST /api/cart/lines, in-process, local Storefront on embedded PGlite, demo catalogue):");
    await runCartBenchmark(b.ctx, { adds: 200, log });
  });
  await shutdown();
}

async function discovery(args: BenchArgs) {
  console.log(`\n=== Discovery: ${args.products.toLocaleString("en")} generated products on PostgreSQL ===`);
  const unreachable = await serverReachable();
  if (unreachable) {
    console.log(`not available: PostgreSQL at ${BENCH_SERVER_URL.replace(/\/\/[^@]*@/, "//")} cannot be reached (${unreachable}); set BENCH_DATABASE_URL`);
    addSummary({ section: "discovery", figure: "PostgreSQL", value: "not available" });
    return;
  }
  const setup = await setUpDiscovery({ products: args.products, log });
  const { booted, catalog, timings } = setup;
  const pgVersion = await (async () => {
    const c = new pg.Client(pgConfigFromUrl(setup.databaseUrl));
    await c.connect();
    try {
      return (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
    } finally {
      await c.end();
    }
  })();
  const totalRows = timings.perTable.reduce((a, t) => a + t.rows, 0);
  console.log(`database ${setup.databaseName} (PostgreSQL ${pgVersion}), migrated and booted through app/boot.server.ts in ${(timings.bootMs / 1000).toFixed(1)} s`);
  console.log(`catalogue built in memory in ${(timings.buildMs / 1000).toFixed(2)} s; inserted in ${(timings.insertMs / 1000).toFixed(1)} s (batched INSERT … SELECT FROM unnest), ANALYZE ${(timings.analyzeMs / 1000).toFixed(1)} s`);
  printTable(
    ["table", "rows", "s", "rows/s"],
    timings.perTable.map((t) => [t.table, t.rows.toLocaleString("en"), (t.ms / 1000).toFixed(2), Math.round(t.rows / (t.ms / 1000)).toLocaleString("en")]),
  );
  console.log(`images: ${catalog.imageFiles.length} distinct demo renders referenced (no image is rendered for the catalogue)`);
  addSummary({ section: "generator", figure: `insert ${args.products.toLocaleString("en")} products (${totalRows.toLocaleString("en")} rows)`, value: `${(timings.insertMs / 1000).toFixed(1)} s` });
  await prepareVectors(setup, { image: args.sections.has("photo") || args.sections.has("recs"), log });

  if (args.sections.has("search")) await section("search", async () => {
    console.log("\n--- Search relevance (POST /api/search, first 10 results) ---");
    const rel = await runRelevance(booted.ctx, catalog, log, args.verbose);
    if ("unavailable" in rel) {
      console.log(`not available: ${rel.unavailable}`);
      addSummary({ section: "search relevance", figure: "recall@10 / MRR@10", value: "not available" });
    }
    console.log(`\n--- Search server time (${args.queries} mixed queries, sequential, in-process) ---`);
    const lat = await runSearchLatency(booted.ctx, catalog, args.queries, log, args.verbose);
    if ("unavailable" in lat) {
      console.log(`not available: ${lat.unavailable}`);
      addSummary({ section: "search", figure: "p95 server time", value: "not available", target: "< 30 ms" });
    }
  });

  if (args.sections.has("recs")) await section("recommendations", async () => {
    console.log("\n--- Recommendations and feed pages (in-process) ---");
    await runRecommendations(setup, log);
  });

  if (args.sections.has("photo")) await section("photo search", async () => {
    console.log("\n--- Photo search ---");
    await runPhotoSearch(setup, log);
  });

  if (args.sections.has("throughput")) await section("throughput", async () => {
    console.log(`\n--- Throughput: POST /api/search over HTTP, ${args.connections} concurrent clients (autocannon) ---`);
    const { queries } = buildLabelledQueries(catalog.facts);
    const bodies = mixedQueries(queries, Math.max(args.queries, 50)).map((m) => m.body);
    const r = await runThroughput({
      env: { ...benchEnv(setup.databaseUrl, setup.dataDir), BENCH_SERVER: args.server },
      bodies,
      connections: args.connections,
      duration: args.duration,
      log,
      probe: async (baseUrl) => {
        const res = await fetch(`${baseUrl}/api/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(bodies[0]) });
        const text = await res.text();
        if (res.status === 404 && /No API endpoint/.test(text)) return "POST /api/search is not built yet";
        if (res.status !== 200) return `POST /api/search answered ${res.status}: ${text.slice(0, 200)}`;
        const parsed = JSON.parse(text) as unknown;
        if (resultIds(parsed).length === 0) log("note: the probe query returned no product");
        return null;
      },
    });
    if ("unavailable" in r) {
      console.log(`not available: ${r.unavailable}`);
      addSummary({ section: "throughput", figure: "POST /api/search req/s", value: "not available" });
    }
  });
}

const parsed = parseArgs(process.argv.slice(2));
if ("help" in parsed) {
  console.log(USAGE);
  process.exit(0);
}
if ("error" in parsed) {
  console.error(`${parsed.error}\n\n${USAGE}`);
  process.exit(2);
}
const args = parsed;
hookSignals();
const started = performance.now();
const discoverySelected = (["search", "recs", "photo", "throughput"] as const).some((s) => args.sections.has(s));
let failed = false;
try {
  if (args.sections.has("startup") || args.sections.has("api") || args.sections.has("cart")) await embedded(args);
  if (discoverySelected) await discovery(args);
  if (args.sections.has("import")) {
    console.log(`\n=== Taobao import: ${args.importItems} items end to end on the local source, ${args.importWorkers.join(" / ")} worker(s) ===`);
    await section("import", () => runImportBenchmark({ items: args.importItems, workers: args.importWorkers, log }));
  }
  if (args.sections.has("fal")) {
    console.log(`\n=== fal.ai adapter overhead: ${args.queries} requests against a local fake of fal's queue ===`);
    await section("fal", () => runFalBenchmark({ requests: args.queries, log }));
  }
  if (args.sections.has("orders")) {
    console.log(`\n=== Admin order search: ${args.orders.toLocaleString("en")} generated orders on PostgreSQL ===`);
    await section("orders", () => runOrderSearchBenchmark({ orders: args.orders, queries: args.queries, log }));
  }
  if (args.sections.has("vendor")) {
    console.log(`\n=== Vendor dashboard: ${args.views.toLocaleString("en")} generated view events on PostgreSQL ===`);
    await section("vendor", () => runVendorDashboardBenchmark({ views: args.views, calls: args.queries, log }));
  }
  if (args.sections.has("lighthouse")) {
    console.log("\n=== Storefront in Lighthouse (mobile preset, built server, demo data) ===");
    await section("lighthouse", () => runLighthouseBenchmark({ runs: 3, log }));
  }
  if (args.sections.has("tryon")) {
    console.log("\n=== Local try-on (CPU): vton-flux warm/cold, clone photo preprocessing ===");
    await section("tryon", () => runTryOnBenchmark({ runs: 5, log }));
  }
} catch (e) {
  failed = true;
  console.error(`\nbenchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
} finally {
  await runCleanups();
}
printSummary([
  `sections: ${[...args.sections].join(", ")}${discoverySelected ? `; generated catalogue: ${args.products.toLocaleString("en")} products on PostgreSQL` : ""}; ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "unknown"}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, Node ${process.version}`,
  `wall time ${fmt((performance.now() - started) / 1000)} s. Figures on a shared machine are noisy: compare ratios between runs on the same machine.`,
]);
process.exit(failed || sectionFailures ? 1 : 0);
