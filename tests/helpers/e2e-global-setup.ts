/**
 * Starts the product the way a user does (`tsx server.ts` on a fresh DATA_DIR, embedded
 * database, demo data seeded on first start) on a free port, for the browser tests.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/lib/build";
import { startBuiltServer } from "../../scripts/lib/start-server";

export default async function setup(project: TestProject) {
  ensureBuild({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-e2e-"));
  const server = await startBuiltServer({ dataDir, timeoutMs: 200_000 });
  project.provide("e2eBaseUrl", server.baseUrl);
  project.provide("e2eServerOutput", server.output);
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    e2eBaseUrl: string;
    e2eServerOutput: string;
  }
}
