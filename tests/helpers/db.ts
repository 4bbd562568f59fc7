/**
 * A fresh, migrated database for one test file (see integration-global-setup.ts).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { createPrismaClient, type Db } from "../../app/db.server";
import { startEmbeddedDatabase } from "../../app/db/embedded.server";
import { pgConfigFromUrl } from "../../app/lib/pg-url";

export interface TestDatabase {
  url: string;
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Makes this database a template other files can start from (tests/helpers/demo-template.ts) and
   * closes it: PGlite writes its data directory to `dumpFile`; PostgreSQL keeps the database (named
   * when it was created) for `CREATE DATABASE … TEMPLATE`.
   */
  freezeAsTemplate(dumpFile: string): Promise<void>;
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Start from this template instead of the migrated one: a PGlite dump file or a PostgreSQL database name. */
  from?: { dumpFile: string } | { database: string };
  /** PostgreSQL: the new database's name (a template others clone must have a known name). */
  name?: string;
}

export async function createTestDatabase(opts: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const template = inject("dbTemplate");
  if (template.kind === "postgres") {
    const name = opts.name ?? `fd_t_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
    const source = opts.from && "database" in opts.from ? opts.from.database : template.template;
    const admin = new pg.Client(pgConfigFromUrl(template.serverUrl));
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`);
    await admin.end();
    const u = new URL(template.serverUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    const db = createPrismaClient(url, { maxConnections: 5 });
    return {
      url,
      db,
      kind: "postgres",
      async freezeAsTemplate() {
        await db.$disconnect();
      },
      async close() {
        await db.$disconnect();
        const c = new pg.Client(pgConfigFromUrl(template.serverUrl));
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dumpFile = opts.from && "dumpFile" in opts.from ? opts.from.dumpFile : template.dumpFile;
  const emb = await startEmbeddedDatabase({ loadDataDir: new Blob([fs.readFileSync(dumpFile)]) });
  const db = createPrismaClient(emb.url, { maxConnections: 1 });
  return {
    url: emb.url,
    db,
    kind: "pglite",
    async freezeAsTemplate(file: string) {
      await db.$disconnect();
      const dump = await emb.db.dumpDataDir("none");
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      await emb.stop();
    },
    async close() {
      await db.$disconnect();
      await emb.stop();
    },
  };
}
