/**
 * Starts the built product the way a user does (`tsx server.ts` on a fresh DATA_DIR, embedded
 * database, demo data seeded on first start) on a free port, as a child process; for the browser
 * tests and the Lighthouse bench. The server prints its storefront address once it listens, so
 * that line is the signal it is ready (the first start seeds the demo data, which takes a while
 * on a loaded machine).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { root } from "./build";

export interface StartedServer {
  /** The storefront's address without the trailing slash, e.g. http://localhost:41234. */
  baseUrl: string;
  /** What the server printed up to the storefront line. */
  output: string;
  /** Stops the server (SIGTERM) and waits for it to exit; a no-op once it has exited. */
  stop: () => Promise<void>;
}

export async function startBuiltServer(opts: { dataDir: string; timeoutMs: number }): Promise<StartedServer> {
  const child: ChildProcess = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["server.ts"], {
    cwd: root,
    // No DATABASE_URL: the embedded database in DATA_DIR, as on a user's first start.
    env: { ...process.env, PORT: "0", DATA_DIR: opts.dataDir, LOG_LEVEL: "warn", NODE_ENV: "production", DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never came up must not outlive the caller's failure.
      child.kill("SIGTERM");
      reject(new Error(`server did not start in time:\n${output}`));
    }, opts.timeoutMs);
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
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  };
  return { baseUrl, output, stop };
}
