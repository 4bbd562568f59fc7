/**
 * `tsx scripts/rebuild-stats.ts [--from=YYYY-MM-DD] [--to=YYYY-MM-DD]`: recomputes the vendor
 * stats (product_daily_stats) from the event tables, in the store's zone (STORE_TIMEZONE). Run it
 * after changing STORE_TIMEZONE (the days move) or after importing events outside the app.
 * Without dates, every day is rebuilt; add-to-carts (no event table) are kept.
 *
 * Uses DATABASE_URL when set; otherwise the embedded database under DATA_DIR (default `.data`):
 * stop the app first, PGlite has one owner at a time.
 */
import path from "node:path";
import { createPrismaClient } from "../app/db.server";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../app/db/embedded.server";
import { migrateDeploy } from "../app/db/migrate.server";
import { DEFAULT_STORE_TIME_ZONE, TimeZoneName } from "../app/lib/store-time-zone";
import { rebuildProductDailyStats } from "../app/services/vendor-stats/daily-stats.server";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function option(name: string): string | undefined {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  const value = arg?.slice(name.length + 3);
  if (value !== undefined && !DAY.test(value)) throw new Error(`--${name} takes a day as YYYY-MM-DD, not "${value}"`);
  return value;
}

async function main(): Promise<void> {
  const from = option("from");
  const to = option("to");
  if (from && to && from > to) throw new Error(`--from (${from}) is after --to (${to})`);
  const timeZone = TimeZoneName.parse(process.env.STORE_TIMEZONE || DEFAULT_STORE_TIME_ZONE);
  let embedded: EmbeddedDatabase | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase({ dataDir: path.join(process.env.DATA_DIR ?? ".data", "pgdata") });
    url = embedded.url;
    await migrateDeploy(url);
  }
  const db = createPrismaClient(url, { maxConnections: 2 });
  try {
    const started = performance.now();
    const { rows } = await rebuildProductDailyStats(db, { from, to, timeZone });
    console.log(`Vendor stats rebuilt (${from ?? "first day"} to ${to ?? "last day"}, ${timeZone}): ${rows} product days in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await db.$disconnect();
    await embedded?.stop();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
