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
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject("dbTemplate");
  if (template.kind === "postgres") {
    const name = `fd_t_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client(pgConfigFromUrl(template.serverUrl));
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.template}`);
    await admin.end();
    const u = new URL(template.serverUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    const db = createPrismaClient(url, { maxConnections: 5 });
    return {
      url,
      db,
      kind: "postgres",
      async close() {
        await db.$disconnect();
        const c = new pg.Client(pgConfigFromUrl(template.serverUrl));
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const emb = await startEmbeddedDatabase({ loadDataDir: new Blob([fs.readFileSync(template.dumpFile)]) });
  const db = createPrismaClient(emb.url, { maxConnections: 1 });
  return {
    url: emb.url,
    db,
    kind: "pglite",
    async close() {
      await db.$disconnect();
      await emb.stop();
    },
  };
}
