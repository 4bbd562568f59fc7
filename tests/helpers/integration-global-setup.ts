/**
 * Runs `prisma migrate deploy` once per test run into a template, so each test file starts
 * from a fresh, migrated database in well under a second:
 * - PGlite (default): a migrated data directory dumped to a tarball that each file loads;
 * - PostgreSQL (TEST_DATABASE_URL): a template database that each file clones.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedDatabase } from "../../app/db/embedded.server";
import { migrateDeploy } from "../../app/db/migrate.server";
import { pgConfigFromUrl } from "../../app/lib/pg-url";

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  // Seeded demo templates, made by the first file that asks (tests/helpers/demo-template.ts).
  const demoDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-demo-templates-"));
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  project.provide("demoCache", { dir: demoDir, runId });
  if (serverUrl) {
    const template = `fd_template_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client(pgConfigFromUrl(serverUrl));
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    const u = new URL(serverUrl);
    u.pathname = `/${template}`;
    await migrateDeploy(u.toString(), { quiet: true });
    await admin.end();
    project.provide("dbTemplate", { kind: "postgres", serverUrl, template });
    return async () => {
      const c = new pg.Client(pgConfigFromUrl(serverUrl));
      await c.connect();
      const left = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2`, [`fd_t_${process.pid}_%`, `fd_d_${runId}_%`]);
      for (const r of left.rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
      await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await c.end();
      fs.rmSync(demoDir, { recursive: true, force: true });
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-template-"));
  const emb = await startEmbeddedDatabase({ dataDir: path.join(dir, "pgdata") });
  await migrateDeploy(emb.url, { quiet: true });
  const dump = await emb.db.dumpDataDir("none");
  const dumpFile = path.join(dir, "template.tar");
  fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await emb.stop();
  project.provide("dbTemplate", { kind: "pglite", dumpFile });
  return () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(demoDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { kind: "postgres"; serverUrl: string; template: string } | { kind: "pglite"; dumpFile: string };
    demoCache: { dir: string; runId: string };
  }
}
