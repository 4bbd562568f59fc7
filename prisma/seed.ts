/**
 * `npm run seed`: wipes and re-creates the demo data (local mode only).
 *
 * Uses DATABASE_URL when set; otherwise starts the embedded database under DATA_DIR (default
 * `.data`) and applies the migrations first. Images go to `<DATA_DIR>/uploads/images/demo/`.
 * Stop the app first when it runs on the embedded database: PGlite has one owner at a time.
 */
import path from "node:path";
import { createPrismaClient } from "../app/db.server";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../app/db/embedded.server";
import { migrateDeploy } from "../app/db/migrate.server";
import { seedDemoData } from "./demo/seed-demo.server";
import { createJobQueue } from "../app/jobs/queue.server";
import { DEFAULT_STORE_TIME_ZONE, TimeZoneName, todayIn } from "../app/lib/store-time-zone";

async function main(): Promise<void> {
  if (process.env.APP_MODE === "production") {
    console.error("Refusing to seed demo data: APP_MODE=production.");
    process.exitCode = 1;
    return;
  }
  const started = performance.now();
  const dataDir = process.env.DATA_DIR ?? ".data";
  let embedded: EmbeddedDatabase | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase({ dataDir: path.join(dataDir, "pgdata") });
    url = embedded.url;
    await migrateDeploy(url);
  }
  const db = createPrismaClient(url, { maxConnections: 2 });
  try {
    const seedStarted = performance.now();
    let detail = "";
    const report = await seedDemoData(db, {
      uploadsDir: path.join(dataDir, "uploads"),
      // As on the first start, the demo's dates move to the present (./demo/shift-dates.ts); DEMO_FIXED_DATES=1 keeps BASE_DATE's.
      today: process.env.DEMO_FIXED_DATES === "1" ? undefined : todayIn(TimeZoneName.parse(process.env.STORE_TIMEZONE || DEFAULT_STORE_TIME_ZONE)),
      // The vendor stats' days and payout months (no app context here to say it).
      timeZone: TimeZoneName.parse(process.env.STORE_TIMEZONE || DEFAULT_STORE_TIME_ZONE),
      // The app's worker computes the products' vectors (search by photo) on its next run.
      queue: createJobQueue(db),
      log: {
        info: (o) => {
          const { images, dbMs } = o as { images?: { rendered: number; existing: number; ms: number }; dbMs?: number };
          if (images) detail = `images: ${images.rendered} rendered, ${images.existing} reused in ${(images.ms / 1000).toFixed(1)} s; database writes ${((dbMs ?? 0) / 1000).toFixed(1)} s`;
        },
      },
    });
    const seedMs = Math.round(performance.now() - seedStarted);
    const width = Math.max(...Object.keys(report.counts).map((k) => k.length));
    console.log("Demo data seeded:");
    for (const [k, v] of Object.entries(report.counts)) console.log(`  ${k.padEnd(width)}  ${v}`);
    console.log(`Seed took ${(seedMs / 1000).toFixed(1)} s (${detail}); total with database start ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    console.log("Sign in with admin@demo.local, vendor@demo.local or shopper@demo.local and the password demo-password.");
  } finally {
    await db.$disconnect();
    await embedded?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
