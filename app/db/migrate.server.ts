/**
 * Applies pending migrations with Prisma's own `migrate deploy` (the JS schema engine configured
 * in prisma.config.ts), so the embedded database and a PostgreSQL server are migrated by the
 * same tool and `prisma migrate status` agrees with the app.
 *
 * Starting that engine costs about 10 s, so the CLI runs only when a migration is pending: the
 * `_prisma_migrations` table is compared first (names and SHA-256 checksums, as Prisma records them).
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { pgConfigFromUrl } from "~/lib/pg-url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const MIGRATIONS_DIR = path.join(root, "prisma", "migrations");

export function localMigrations(dir = MIGRATIONS_DIR): { name: string; checksum: string }[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => ({
      name,
      checksum: crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, name, "migration.sql"))).digest("hex"),
    }));
}

/** Names of migrations not yet applied (or applied with different content). */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const local = localMigrations();
  const client = new pg.Client(pgConfigFromUrl(databaseUrl));
  await client.connect();
  try {
    const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('public._prisma_migrations')::text AS t`);
    if (!exists.rows[0]?.t) return local.map((m) => m.name);
    const applied = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(applied.rows.map((r) => [r.migration_name, r.checksum]));
    return local.filter((m) => done.get(m.name) !== m.checksum).map((m) => m.name);
  } finally {
    await client.end();
  }
}

export async function migrateDeploy(databaseUrl: string, opts: { quiet?: boolean; force?: boolean } = {}): Promise<{ ran: boolean; pending: string[] }> {
  const pending = opts.force ? ["(forced)"] : await pendingMigrations(databaseUrl);
  if (pending.length === 0) return { ran: false, pending };
  const prismaBin = path.join(root, "node_modules", ".bin", "prisma");
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const child = spawn(prismaBin, ["migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) {
        if (!opts.quiet) process.stdout.write(`${output.split("\n").filter((l) => /migration|applied/i.test(l)).join("\n")}\n`);
        resolve();
      } else reject(new Error(`prisma migrate deploy failed (exit ${code}):\n${output}`));
    });
  });
  return { ran: true, pending };
}
