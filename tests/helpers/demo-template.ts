/**
 * The demo catalogue, seeded once per test run and per seed option set, then cloned for each file
 * that asks for it. Seeding takes 25–90 s (images, 600+ products, events, aggregates); a dozen files
 * read the same demo, so they share one seed instead of writing it a dozen times.
 *
 * The first file to ask takes a lock (an atomic mkdir in the run's cache directory), seeds a fresh
 * database and freezes it as a template (a PGlite dump, or a named PostgreSQL database); the others
 * wait for it. Every file then gets its own copy of the database and of the data directory (the
 * rendered images), so what one file writes no other file sees.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { seedDemoData, type SeedReport } from "../../prisma/demo/seed-demo.server";
import { uploadsDir } from "../../app/providers/storage.server";
import { createTestApp, type TestApp } from "./app";
import { createTestDatabase, type TestDatabase } from "./db";

export interface DemoSeed {
  /** seedDemoData's `today` (the demo's dates move so that its last day is the day before). */
  today?: string;
  /** seedDemoData's `timeZone`. */
  timeZone?: string;
}

/**
 * The moved-date seeds the demo's own tests ask for. Files that check the same kind of start use
 * the same option set, so one seed serves them all: each distinct set is another 25–90 s seed.
 */
export const DEMO_SEEDS = {
  /** A fixed present (reproducible day counts), store zone America/New_York. */
  fixedPresent: { today: "2027-02-15", timeZone: "America/New_York" },
  /** The real today (the demo ends yesterday, as at a first start), UTC days. */
  endsYesterday: (): Required<DemoSeed> => ({ today: new Date().toISOString().slice(0, 10), timeZone: "UTC" }),
} as const;

interface TemplateEntry {
  report: SeedReport;
  dataDir: string;
  from: { dumpFile: string } | { database: string };
}

const WAIT_LIMIT_MS = 15 * 60_000;

function keyOf(seed: DemoSeed): string {
  return crypto.createHash("sha1").update(JSON.stringify({ today: seed.today ?? null, timeZone: seed.timeZone ?? null })).digest("hex").slice(0, 10);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Waits for another file's seeding. Null when its process is gone before it finished (a hook timed
 * out and vitest ended that file): the caller then takes the lock over.
 */
async function waitForTemplate(lockDir: string, entryFile: string, failFile: string): Promise<TemplateEntry | null> {
  const started = Date.now();
  for (;;) {
    if (fs.existsSync(entryFile)) return JSON.parse(fs.readFileSync(entryFile, "utf8")) as TemplateEntry;
    if (fs.existsSync(failFile)) throw new Error(`the demo template failed in another test file: ${fs.readFileSync(failFile, "utf8")}`);
    const owner = Number(fs.readFileSync(path.join(lockDir, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
    if (owner && !alive(owner)) return null;
    if (Date.now() - started > WAIT_LIMIT_MS) throw new Error("timed out waiting for the demo template");
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function demoTemplate(seed: DemoSeed): Promise<TemplateEntry> {
  const { dir, runId } = inject("demoCache");
  const key = keyOf(seed);
  const entryFile = path.join(dir, `${key}.json`);
  const failFile = path.join(dir, `${key}.failed`);
  const lockDir = path.join(dir, `${key}.lock`);
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const entry = await waitForTemplate(lockDir, entryFile, failFile);
      if (entry) return entry;
      fs.rmSync(lockDir, { recursive: true, force: true });
    }
  }
  try {
    // Named by process: a creator that died (see waitForTemplate) may have left its half.
    const dataDir = path.join(dir, `${key}-${process.pid}`, "data");
    fs.mkdirSync(dataDir, { recursive: true });
    const postgres = inject("dbTemplate").kind === "postgres";
    const database = `fd_d_${runId}_${key}_${process.pid}`;
    const db = await createTestDatabase(postgres ? { name: database } : {});
    const report = await seedDemoData(db.db, {
      uploadsDir: uploadsDir({ DATA_DIR: dataDir }),
      ...(seed.today ? { today: seed.today } : {}),
      ...(seed.timeZone ? { timeZone: seed.timeZone } : {}),
    });
    const dumpFile = path.join(dir, `${key}-${process.pid}.tar`);
    await db.freezeAsTemplate(dumpFile);
    const entry: TemplateEntry = { report, dataDir, from: postgres ? { database } : { dumpFile } };
    fs.writeFileSync(`${entryFile}.tmp`, JSON.stringify(entry));
    fs.renameSync(`${entryFile}.tmp`, entryFile);
    return entry;
  } catch (e) {
    fs.writeFileSync(failFile, e instanceof Error ? (e.stack ?? e.message) : String(e));
    throw e;
  }
}

export interface DemoDatabase {
  database: TestDatabase;
  /** This file's own data directory (a copy of the template's); the demo images are under `uploadsDir`. */
  dataDir: string;
  uploadsDir: string;
  report: SeedReport;
  close(): Promise<void>;
}

/** A database holding the demo data (and a data directory with its images), this file's own copy. */
export async function createDemoDatabase(seed: DemoSeed = {}): Promise<DemoDatabase> {
  const entry = await demoTemplate(seed);
  const database = await createTestDatabase({ from: entry.from });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-demo-data-"));
  fs.cpSync(entry.dataDir, dataDir, { recursive: true });
  return {
    database,
    dataDir,
    uploadsDir: uploadsDir({ DATA_DIR: dataDir }),
    report: entry.report,
    async close() {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** createTestApp over the demo data (see createDemoDatabase); `demoReport` is what seeding reported. */
export async function createDemoTestApp(opts: Omit<Parameters<typeof createTestApp>[0] & object, "prepared"> & { seed?: DemoSeed } = {}): Promise<TestApp & { demoReport: SeedReport }> {
  const { seed, ...appOpts } = opts;
  const demo = await createDemoDatabase(seed);
  const app = await createTestApp({ ...appOpts, prepared: { database: demo.database, dataDir: demo.dataDir } });
  return Object.assign(app, { demoReport: demo.report });
}
