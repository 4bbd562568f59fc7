import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localMigrations, pendingMigrations } from "../../app/db/migrate.server";
import { createTestApp, type TestApp } from "../helpers/app";

const root = path.resolve(__dirname, "../..");

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("migrations", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it("every migration is applied to the test database", async () => {
    expect(localMigrations().length).toBeGreaterThan(0);
    expect(await pendingMigrations(app.database.url)).toEqual([]);
    const applied = await app.database.db.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
    );
    expect(applied.map((r) => r.migration_name)).toEqual(localMigrations().map((m) => m.name));
  });

  it("a migration whose file changed counts as pending", async () => {
    await app.database.db.$executeRawUnsafe(`UPDATE _prisma_migrations SET checksum = 'changed' WHERE migration_name = $1`, localMigrations()[0].name);
    try {
      expect(await pendingMigrations(app.database.url)).toEqual([localMigrations()[0].name]);
    } finally {
      await app.database.db.$executeRawUnsafe(`UPDATE _prisma_migrations SET checksum = $1 WHERE migration_name = $2`, localMigrations()[0].checksum, localMigrations()[0].name);
    }
    expect(await pendingMigrations(app.database.url)).toEqual([]);
  });

  it(
    "the migrations produce exactly prisma/schema.prisma (no drift)",
    async () => {
      const { code, output } = await run(
        path.join(root, "node_modules", ".bin", "prisma"),
        ["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--exit-code"],
        { DATABASE_URL: app.database.url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      );
      // 0: no difference; 2: the schema has changes without a migration (run db:migrate:create); 1: error.
      expect(code, output).toBe(0);
    },
    60_000,
  );
});
