/**
 * Throughput of POST /api/search over real HTTP: the server runs in its own process
 * (./serve.ts, on the benchmark database, WORKER=off) and autocannon drives it with N concurrent
 * clients cycling through the mixed queries. Reports requests per second, errors and non-2xx
 * answers (both should be zero) and latency percentiles.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { onCleanup } from "./database";
import { addSummary, fmt, printTable } from "./report";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function startBenchServer(env: Record<string, string | undefined>): Promise<{ port: number; mode: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "scripts", "bench", "serve.ts")], {
    cwd: root,
    env: { ...process.env, ...env, WORKER: "off", LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  let exited = false;
  const exitedP = new Promise<void>((r) => child.once("exit", () => ((exited = true), r())));
  const stop = async () => {
    if (exited) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => !exited && child.kill("SIGKILL"), 8000);
    await exitedP;
    clearTimeout(timer);
  };
  onCleanup(stop);
  const ready = await new Promise<{ port: number; mode: string }>((resolve, reject) => {
    let buf = "";
    const timer = setTimeout(() => reject(new Error(`the bench server did not start within 120 s\n${stderr}`)), 120_000);
    child.stdout!.on("data", (d) => {
      buf += d;
      for (const line of buf.split("\n")) {
        try {
          const msg = JSON.parse(line) as { port?: number; mode?: string };
          if (msg.port) {
            clearTimeout(timer);
            resolve({ port: msg.port, mode: msg.mode ?? "" });
          }
        } catch {
          /* not our line */
        }
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited (${code}) before listening\n${stderr}`));
    });
  });
  return { ...ready, child, stop };
}

export interface ThroughputFigures {
  rps: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  total: number;
  latency: { p50: number; p90: number; p97_5: number; p99: number; max: number; mean: number };
}

export async function runThroughput(opts: {
  env: Record<string, string | undefined>;
  bodies: unknown[];
  connections: number;
  duration: number;
  log: (s: string) => void;
  /** Checks the server answers a search before loading it; returns a reason when not. */
  probe: (baseUrl: string) => Promise<string | null>;
}): Promise<ThroughputFigures | { unavailable: string }> {
  const t0 = performance.now();
  const server = await startBenchServer(opts.env);
  const baseUrl = `http://127.0.0.1:${server.port}`;
  opts.log(`server: ${server.mode}, started in ${((performance.now() - t0) / 1000).toFixed(1)} s, pid ${server.child.pid}`);
  try {
    const reason = await opts.probe(baseUrl);
    if (reason) return { unavailable: reason };
    const requests = opts.bodies.map((b) => ({ method: "POST", path: "/api/search", headers: { "content-type": "application/json" }, body: JSON.stringify(b) }));
    // Warm-up (JIT, caches, connection pool), not counted.
    await autocannon({ url: baseUrl, connections: opts.connections, duration: Math.min(5, Math.max(2, Math.round(opts.duration / 4))), requests, timeout: 30 });
    const r = await autocannon({ url: baseUrl, connections: opts.connections, duration: opts.duration, requests, timeout: 30 });
    const figures: ThroughputFigures = {
      rps: r.requests.average,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      total: r["2xx"] + r.non2xx,
      latency: { p50: r.latency.p50, p90: r.latency.p90, p97_5: r.latency.p97_5, p99: r.latency.p99, max: r.latency.max, mean: r.latency.average },
    };
    printTable(
      ["connections", "duration s", "requests", "req/s", "errors", "of which timeouts", "non-2xx", "p50 ms", "p90 ms", "p97.5 ms", "p99 ms", "max ms"],
      [
        [
          String(opts.connections),
          String(opts.duration),
          String(figures.total),
          fmt(figures.rps),
          String(figures.errors),
          String(figures.timeouts),
          String(figures.non2xx),
          fmt(figures.latency.p50, 0),
          fmt(figures.latency.p90, 0),
          fmt(figures.latency.p97_5, 0),
          fmt(figures.latency.p99, 0),
          fmt(figures.latency.max, 0),
        ],
      ],
    );
    addSummary({ section: "throughput", figure: `POST /api/search req/s (${opts.connections} clients, ${opts.duration} s)`, value: fmt(figures.rps) });
    addSummary({ section: "throughput", figure: "errors (timeouts included) + non-2xx", value: String(figures.errors + figures.non2xx), target: "0" });
    addSummary({ section: "throughput", figure: "latency p50 / p99 under load", value: `${fmt(figures.latency.p50, 0)} / ${fmt(figures.latency.p99, 0)} ms` });
    return figures;
  } finally {
    await server.stop();
  }
}
