/**
 * `npm test`: the whole suite, then one closing line `N passed, N failed` (CI reads it).
 *  1. unit + integration on a fresh embedded PGlite per test file;
 *  2. integration again on PostgreSQL when TEST_DATABASE_URL is set (CI sets it);
 *  3. end-to-end in Debian's Chromium against the built server (installed with apt-get when
 *     missing and we are root; otherwise reported as failed, with the reason).
 * Extra arguments are passed to vitest (e.g. `npm test -- tests/unit`).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild, root } from "./lib/build";

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const extra = process.argv.slice(2);
const vitest = path.join(root, "node_modules", ".bin", "vitest");

function runVitest(label: string, args: string[], env: Record<string, string> = {}): void {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fd-vitest-")), "report.json");
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(vitest, ["run", ...args, ...extra], { cwd: root, stdio: "inherit", env: { ...process.env, ...env, VITEST_JSON_OUT: out } });
  if (!fs.existsSync(out)) {
    console.log(`  ${label}: vitest produced no report (exit ${r.status})`);
    if (r.status !== 0) total.failed += 1;
    return;
  }
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; testResults: { status: string }[] };
  // A test file that fails to load has no tests but must still count as a failure.
  const brokenFiles = report.testResults.filter((t) => t.status === "failed").length;
  const failed = Math.max(report.numFailedTests, report.numFailedTests === 0 ? brokenFiles : 0);
  total.passed += report.numPassedTests;
  total.failed += failed;
  total.skipped += report.numPendingTests + report.numTodoTests;
  console.log(`  ${label}: ${report.numPassedTests} passed, ${failed} failed`);
}

function chromiumAvailable(): boolean {
  if (fs.existsSync("/usr/bin/chromium")) return true;
  if (process.getuid?.() !== 0) return false;
  console.log("\n  Installing Debian's chromium for the end-to-end tests (apt-get)…");
  spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
  spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return fs.existsSync("/usr/bin/chromium");
}

const onlySome = extra.some((a) => !a.startsWith("-"));
// TEST_DATABASE_URL emptied: this run is the embedded database even when CI sets it for the next.
runVitest("unit + integration (PGlite)", ["--project", "unit", "--project", "integration"], { TEST_DATABASE_URL: "" });
if (process.env.TEST_DATABASE_URL && !onlySome) {
  runVitest("integration (PostgreSQL)", ["--project", "integration"], { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL });
}
if (!onlySome || extra.some((a) => a.includes("e2e"))) {
  if (chromiumAvailable()) {
    ensureBuild({ quiet: false });
    runVitest("end-to-end (Chromium)", ["--project", "e2e"]);
  } else {
    console.log("\n  end-to-end: Chromium is missing and cannot be installed (not root): install the `chromium` package.");
    total.failed += 1;
  }
}

console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
process.exit(total.failed > 0 ? 1 : 0);
