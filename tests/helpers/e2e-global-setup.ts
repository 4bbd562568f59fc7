/**
 * Starts the product the way a user does (`tsx server.ts` on a fresh DATA_DIR, embedded
 * database, demo data seeded on first start) on a free port, for the browser tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild, root } from "../../scripts/lib/build";

export default async function setup(project: TestProject) {
  ensureBuild({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-e2e-"));
  const child: ChildProcess = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "production", DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 200_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Storefront:\s+(http:\/\/\S+?)\/\s/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  project.provide("e2eBaseUrl", baseUrl);
  project.provide("e2eServerOutput", output);
  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    e2eBaseUrl: string;
    e2eServerOutput: string;
  }
}
