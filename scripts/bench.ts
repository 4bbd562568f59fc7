/**
 * `npm run bench`: figures, not pass/fail. Start-up of the embedded default (first start with
 * demo data, then a restart on the same data), and API latency percentiles for a few reads,
 * measured in-process through the same handler the server mounts (no network noise).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { boot } from "../app/boot.server";
import { handleApiRequest } from "../app/api/index.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-bench-"));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", WORKER: "off", DATABASE_URL: "" };

function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const t0 = performance.now();
const first = await boot({ env });
const firstMs = performance.now() - t0;
console.log(`first start (migrations + demo data): ${(firstMs / 1000).toFixed(1)} s — ${JSON.stringify(first.seeded?.counts ?? {})}`);
await first.shutdown();

const t1 = performance.now();
const b = await boot({ env });
const restartMs = performance.now() - t1;
console.log(`restart on the same data: ${(restartMs / 1000).toFixed(2)} s (ratio to first start: ${(restartMs / firstMs).toFixed(3)})`);

const reads: [string, string][] = [
  ["health", "/api/health"],
  ["products page 1 (24)", "/api/products?limit=24"],
  ["products menswear (24)", "/api/products?limit=24&target_gender=menswear"],
  ["products text query", "/api/products?limit=24&query=shirt"],
];
const N = 200;
console.log(`\nAPI latency over ${N} sequential requests each (in-process, embedded PGlite):`);
console.log("endpoint".padEnd(26), "p50 ms".padStart(8), "p95 ms".padStart(8), "max ms".padStart(8));
for (const [name, url] of reads) {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    const res = await handleApiRequest(new Request(`http://localhost${url}`), b.ctx, { clientIp: "bench" });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - s);
  }
  times.sort((x, y) => x - y);
  console.log(name.padEnd(26), pct(times, 50).toFixed(1).padStart(8), pct(times, 95).toFixed(1).padStart(8), times[times.length - 1].toFixed(1).padStart(8));
}
await b.shutdown();
fs.rmSync(dataDir, { recursive: true, force: true });
