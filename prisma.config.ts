/**
 * Prisma CLI configuration.
 *
 * Prisma's native schema engine is downloaded from a host these machines cannot reach, so the
 * CLI runs the WASM ("js") engine through a driver adapter. Two upstream problems are worked
 * around here (see STACK.md):
 * - prisma/orm#27403: adapter-pg rejects `"char"`/`name` columns returned by introspection;
 *   we report them as text.
 * - the adapter splits migration scripts on every `;`, which breaks `DO $$` bodies: scripts are
 *   sent whole.
 * The shadow database is a throwaway in-memory PGlite (with pg_trgm, which the first migration needs), so `migrate diff` never touches the main
 * database (a PGlite server has only one database).
 */
import path from "node:path";
import os from "node:os";
import fs from "node:fs";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { pgConfigFromUrl } from "./app/lib/pg-url";

const OID_REMAP: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 };

type PatchableAdapter = {
  performIO: (q: unknown) => Promise<{ fields?: { dataTypeID: number }[] }>;
  executeScript: (script: string) => Promise<void>;
  client: { query: (sql: string) => Promise<unknown> };
  onError: (e: unknown) => never;
  dispose: () => Promise<void>;
};

function patchOids<T extends object>(adapter: T): T {
  const a = adapter as unknown as PatchableAdapter;
  const orig = a.performIO.bind(a);
  a.performIO = async (q) => {
    const r = await orig(q);
    for (const f of r.fields ?? []) f.dataTypeID = OID_REMAP[f.dataTypeID] ?? f.dataTypeID;
    return r;
  };
  a.executeScript = async (script) => {
    try {
      await a.client.query(script);
    } catch (e) {
      a.onError(e);
    }
  };
  return adapter;
}

class PrismaPgForMigrate extends PrismaPg {
  override async connect() {
    return patchOids(await super.connect());
  }
  override async connectToShadowDb() {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prisma-shadow-"));
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const db = await PGlite.create({ extensions: { pg_trgm } });
    const server = new PGLiteSocketServer({ db, path: path.join(dir, ".s.PGSQL.5432"), maxConnections: 4 });
    await server.start();
    const shadow = patchOids(
      await new PrismaPg({ host: dir, port: 5432, user: "postgres", database: "postgres", max: 1 }).connect(),
    );
    const a = shadow as unknown as PatchableAdapter;
    const dispose = a.dispose.bind(a);
    a.dispose = async () => {
      await dispose();
      await server.stop();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set (the app sets it when it starts its embedded database)");
    return new PrismaPgForMigrate(pgConfigFromUrl(url));
  },
});
