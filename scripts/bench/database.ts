/**
 * A PostgreSQL database per benchmark run (`fd_bench_<pid>_<random>` on the machine's server,
 * BENCH_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres), dropped at the end, and
 * temporary folders removed with it, on success, failure or Ctrl-C. Databases left behind by a
 * killed run (its pid gone) are dropped at the next start.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pgConfigFromUrl } from "../../app/lib/pg-url";

export const BENCH_SERVER_URL = process.env.BENCH_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

type Cleanup = () => Promise<void> | void;
const cleanups: Cleanup[] = [];
let cleaning: Promise<void> | null = null;

/** Registers work for the end of the run (last registered runs first). */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
}

export function runCleanups(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch (e) {
        console.error(`cleanup failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  })();
  return cleaning;
}

let signalsHooked = false;
export function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      console.error(`\n${sig}: cleaning up the benchmark databases and folders…`);
      void runCleanups().finally(() => process.exit(130));
    });
  }
}

/** A temporary folder `fd-bench-<pid>-<name>-XXXXXX`, removed at the end of the run. */
export function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fd-bench-${process.pid}-${name}-`));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client(pgConfigFromUrl(BENCH_SERVER_URL));
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Drops fd_bench_<pid>_* databases (and fd-bench-<pid>-* temporary folders) whose process is gone (a run killed with SIGKILL). */
export async function dropStaleBenchDatabases(): Promise<string[]> {
  for (const entry of fs.readdirSync(os.tmpdir())) {
    const pid = Number(/^fd-bench-(\d+)-/.exec(entry)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
  }
  return withAdmin(async (c) => {
    const r = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'fd\\_bench\\_%'`);
    const dropped: string[] = [];
    for (const { datname } of r.rows) {
      const pid = Number(/^fd_bench_(\d+)_/.exec(datname)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) continue;
      await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      dropped.push(datname);
    }
    return dropped;
  });
}

/** Creates an empty database and registers its drop; returns its URL. */
export async function createBenchDatabase(): Promise<{ name: string; url: string }> {
  const name = `fd_bench_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  onCleanup(() => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined));
  const u = new URL(BENCH_SERVER_URL);
  u.pathname = `/${name}`;
  return { name, url: u.toString() };
}

export async function serverReachable(): Promise<string | null> {
  try {
    await withAdmin((c) => c.query("SELECT 1"));
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
