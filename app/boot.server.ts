/**
 * Starts what the web process needs, in order: configuration → database (embedded PGlite unless
 * DATABASE_URL is set) → migrations → demo data (local mode, first start) → app context → worker.
 */
import path from "node:path";
import { loadConfig, type AppConfig } from "./config.server";
import { createPrismaClient, setPrisma, type Db } from "./db.server";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "./db/embedded.server";
import { migrateDeploy } from "./db/migrate.server";
import { createLogger, type Logger } from "./lib/logger.server";
import { createAppContext, setAppContext, type AppContext } from "./context.server";
import type { Worker } from "./jobs/worker.server";
import { jobHandlers } from "./jobs/handlers.server";
import { startWorkerLoops } from "./jobs/lanes.server";

export interface Booted {
  config: AppConfig;
  ctx: AppContext;
  db: Db;
  log: Logger;
  databaseUrl: string;
  embedded: EmbeddedDatabase | null;
  worker: Worker | null;
  seeded: { created: boolean; counts: Record<string, number> } | null;
  shutdown(): Promise<void>;
}

export async function boot(opts: { env?: Record<string, string | undefined>; seed?: boolean } = {}): Promise<Booted> {
  const config = loadConfig(opts.env ?? process.env);
  const log = createLogger(config.LOG_LEVEL);

  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const started = performance.now();
    embedded = await startEmbeddedDatabase({ dataDir: path.join(config.DATA_DIR, "pgdata") });
    databaseUrl = embedded.url;
    log.info({ ms: Math.round(performance.now() - started), dataDir: config.DATA_DIR }, "embedded database started");
  }
  process.env.DATABASE_URL = databaseUrl;

  const migrateStarted = performance.now();
  await migrateDeploy(databaseUrl, { quiet: true });
  log.info({ ms: Math.round(performance.now() - migrateStarted) }, "migrations applied");

  // One connection to the embedded database: pglite-socket can interleave the extended-protocol
  // messages of concurrent connections (statements bound to the wrong prepared query).
  const db = createPrismaClient(databaseUrl, { maxConnections: embedded ? 1 : 10 });
  setPrisma(db);
  const ctx = createAppContext({ config, db, log });
  setAppContext(ctx);

  let seeded: Booted["seeded"] = null;
  if (config.APP_MODE === "local" && opts.seed !== false) {
    const { seedDemoDataIfEmpty } = await import("../prisma/demo/seed-demo.server");
    // The demo's dates move to the present, so the admin charts' default ranges show it.
    const { todayIn } = await import("./lib/store-time-zone");
    seeded = await seedDemoDataIfEmpty(db, { uploadsDir: path.join(config.DATA_DIR, "uploads"), log, today: todayIn(config.STORE_TIMEZONE) });
  }

  // Product vectors missing or stale (first start after the demo seed, a new model): indexed by
  // the worker in the background, so the start is not held up.
  const { enqueueStaleProductIndex } = await import("./services/product-index.server");
  await enqueueStaleProductIndex(ctx, { delayMs: 10_000 });

  // Customers' data exports: copies an earlier version left in the public uploads folder are moved
  // to private storage, and expired ones deleted. A failure must not stop the start: logged.
  const { moveLegacyPublicExports, sweepExpiredDataExports } = await import("./services/privacy-exports.server");
  const privacyDeps = { config, db, privateStorage: ctx.privateStorage, queue: ctx.queue, log };
  await moveLegacyPublicExports(privacyDeps)
    .then(() => sweepExpiredDataExports(privacyDeps))
    .catch((error: unknown) => log.error({ err: error }, "customer data export clean-up failed"));

  // The daily ads metrics sync (last 3 days from the ads platform) queues the next day's run
  // itself; this queues the first (or finds it queued). No other scheduler exists.
  const { scheduleDailyMetricsSync } = await import("./services/product-ads/metrics.server");
  await scheduleDailyMetricsSync(ctx).catch((error: unknown) => log.error({ err: error }, "scheduling the daily ads metrics sync failed"));

  // Three lanes (app/jobs/lanes.server.ts): image AI, admin-interactive (imports, syncs) and
  // background; an admin's import or a try-on never waits behind indexing or aggregates.
  const worker = config.WORKER === "inline" ? startWorkerLoops(ctx, jobHandlers) : null;

  // In the background: the exact index reads its vectors into memory before the first photo
  // search or for-you needs them. A failure only costs that first query the wait.
  void ctx.vectors.warm?.(["image", "text", "attributes"]).catch((error: unknown) => log.warn({ err: error }, "vector index warm-up failed"));

  return {
    config,
    ctx,
    db,
    log,
    databaseUrl,
    embedded,
    worker,
    seeded,
    async shutdown() {
      await worker?.stop();
      await db.$disconnect();
      await embedded?.stop();
    },
  };
}
