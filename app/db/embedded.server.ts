/**
 * The embedded database of local mode: PGlite (PostgreSQL 17 in WASM) persisted under DATA_DIR,
 * served on a unix socket so Prisma (through @prisma/adapter-pg) and the Prisma CLI reach it
 * exactly as they reach a PostgreSQL server.
 *
 * The socket lives in a short temporary directory because unix socket paths are limited to
 * about 100 characters and DATA_DIR may be deep.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface EmbeddedDatabase {
  url: string;
  db: PGlite;
  stop(): Promise<void>;
}

/** Maximum client connections; the app's pool stays below it (STACK.md: exceeding it wedges the server). */
export const EMBEDDED_MAX_CONNECTIONS = 12;

export async function startEmbeddedDatabase(options: {
  /** Directory of the database files; omit for an in-memory database. */
  dataDir?: string;
  /** A dump made with `dumpDataDir()`, to start from a prepared state (tests). */
  loadDataDir?: Blob | File;
}): Promise<EmbeddedDatabase> {
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const db = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { vector, pg_trgm },
  });
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "fdpg-"));
  const server = new PGLiteSocketServer({
    db,
    path: path.join(socketDir, ".s.PGSQL.5432"),
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  await server.start();
  const url = `postgresql://postgres@localhost:5432/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
  let stopped = false;
  return {
    url,
    db,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
