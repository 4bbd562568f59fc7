/**
 * Sets up the discovery benchmarks: a fresh PostgreSQL database migrated and booted through the
 * app's own start path (app/boot.server.ts: configuration → migrations → context; no worker, no
 * demo data), then the generated catalogue inserted in bulk and analysed.
 */
import pg from "pg";
import { boot, type Booted } from "../../app/boot.server";
import { pgConfigFromUrl } from "../../app/lib/pg-url";
import { buildDemoData } from "../../prisma/demo/generate";
import type { ImageJob } from "../../prisma/demo/images.server";
import { buildBenchCatalog, type BenchCatalog } from "./catalog";
import { createBenchDatabase, dropStaleBenchDatabases, onCleanup, tempDir } from "./database";
import { insertRows } from "./insert";
import { insertAttributeVectors, insertImageVectors, insertTextVectors, type ImageVectorFigures } from "./vectors";

export interface DiscoverySetup {
  booted: Booted;
  databaseUrl: string;
  databaseName: string;
  dataDir: string;
  catalog: BenchCatalog;
  /** The demo's garment render jobs (for photo search: render them, embed them). */
  demoImageJobs: ImageJob[];
  timings: { bootMs: number; buildMs: number; insertMs: number; analyzeMs: number; perTable: { table: string; rows: number; ms: number }[] };
  /** Set by prepareVectors when the image vectors were made. */
  image?: ImageVectorFigures | { unavailable: string };
}

export function benchEnv(databaseUrl: string, dataDir: string): Record<string, string | undefined> {
  return { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: "silent", WORKER: "off", APP_MODE: "local", NODE_ENV: "production" };
}

export async function setUpDiscovery(opts: { products: number; log: (line: string) => void }): Promise<DiscoverySetup> {
  const stale = await dropStaleBenchDatabases();
  if (stale.length) opts.log(`dropped ${stale.length} database(s) left by killed runs: ${stale.join(", ")}`);
  const { name, url } = await createBenchDatabase();
  const dataDir = tempDir("discovery");

  const t0 = performance.now();
  const booted = await boot({ env: benchEnv(url, dataDir), seed: false });
  onCleanup(() => booted.shutdown());
  const bootMs = performance.now() - t0;

  const demo = buildDemoData("bench-not-a-password-hash");
  const demoImageJobs = demo.imageJobs.filter((j) => !j.file.startsWith("store-"));
  const catalog = buildBenchCatalog({ products: opts.products, demoImageFiles: new Set(demoImageJobs.map((j) => j.file)) });

  const client = new pg.Client(pgConfigFromUrl(url));
  await client.connect();
  const perTable: DiscoverySetup["timings"]["perTable"] = [];
  const i0 = performance.now();
  try {
    for (const [table, rows] of catalog.tables) {
      const s = performance.now();
      await insertRows(client, table, rows, table === "products" ? 2500 : 10_000);
      perTable.push({ table, rows: rows.length, ms: performance.now() - s });
    }
    const insertMs = performance.now() - i0;
    const a0 = performance.now();
    // As after any bulk load: VACUUM also merges the full-text index's pending entries.
    await client.query("VACUUM ANALYZE");
    const analyzeMs = performance.now() - a0;
    return {
      booted,
      databaseUrl: url,
      databaseName: name,
      dataDir,
      catalog,
      demoImageJobs,
      timings: { bootMs, buildMs: catalog.buildMs, insertMs, analyzeMs, perTable },
    };
  } finally {
    await client.end();
  }
}

/**
 * Product vectors (ProductEmbedding) for the vector index: attributes and text always (cheap and
 * exact), image when asked (real embeddings of the demo renders, synthetic per product: ./vectors.ts).
 */
export async function prepareVectors(setup: DiscoverySetup, opts: { image: boolean; log: (line: string) => void }): Promise<void> {
  const client = new pg.Client(pgConfigFromUrl(setup.databaseUrl));
  await client.connect();
  try {
    const a = await insertAttributeVectors(client, setup);
    opts.log("unavailable" in a ? `attribute vectors: not available (${a.unavailable})` : `attribute vectors: ${a.count.toLocaleString("en")} computed and inserted in ${(a.ms / 1000).toFixed(1)} s`);
    const t = await insertTextVectors(client, setup);
    opts.log("unavailable" in t ? `text vectors: not available (${t.unavailable})` : `text vectors (${t.model}): ${t.count.toLocaleString("en")} computed and inserted in ${(t.ms / 1000).toFixed(1)} s`);
    if (opts.image) {
      setup.image = await insertImageVectors(client, setup, opts.log);
      if ("unavailable" in setup.image) opts.log(`image vectors: not available (${setup.image.unavailable})`);
      else opts.log(`image vectors: ${setup.image.products.toLocaleString("en")} inserted in ${(setup.image.insertMs / 1000).toFixed(1)} s`);
    }
    await client.query("VACUUM ANALYZE product_embeddings");
  } finally {
    await client.end();
  }
}
