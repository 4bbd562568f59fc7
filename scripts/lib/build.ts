/**
 * Builds the Remix app, the storefront and the theme block assets when a source is newer than
 * the last build (or a build output is missing), so `npm start` and `npm test` always serve
 * current code without rebuilding every time.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BLOCK_SCRIPTS } from "../../extensions/theme-blocks/src/manifest";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const stampFile = path.join(root, "build", ".stamp");

const SOURCES = ["app", "storefront", "extensions/theme-blocks/src", "extensions/theme-blocks/vite.config.ts", "vite.config.ts", "package-lock.json", "prisma/schema.prisma"];
const OUTPUTS = ["build/server/index.js", "build/storefront/index.html", ...BLOCK_SCRIPTS.map((s) => `extensions/theme-blocks/assets/${s.file}`)];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    max = Math.max(max, newestMtime(path.join(p, e.name)));
  }
  return max;
}

export function buildIsCurrent(): boolean {
  if (!fs.existsSync(stampFile) || OUTPUTS.some((o) => !fs.existsSync(path.join(root, o)))) return false;
  const built = fs.statSync(stampFile).mtimeMs;
  return SOURCES.every((s) => newestMtime(path.join(root, s)) <= built);
}

export function ensureBuild(opts: { force?: boolean; quiet?: boolean } = {}): void {
  if (!opts.force && buildIsCurrent()) return;
  const started = Date.now();
  if (!opts.quiet) console.log("  Building the admin app, the storefront and the theme blocks…");
  const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
  const steps: [string, string[]][] = [
    [bin("remix"), ["vite:build"]],
    [bin("vite"), ["build", "--config", "storefront/vite.config.ts"]],
    [bin("vite"), ["build", "--config", "extensions/theme-blocks/vite.config.ts"]],
  ];
  // vite.config.ts leaves the Remix plugin out under vitest; a build started from a test run must not inherit that.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_ENV" && k !== "TEST")) as NodeJS.ProcessEnv;
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { cwd: root, env, stdio: opts.quiet ? "pipe" : ["ignore", "ignore", "inherit"], encoding: "utf8" });
    if (r.status !== 0) {
      if (opts.quiet) process.stderr.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
      throw new Error(`Build step failed: ${path.basename(cmd)} ${args.join(" ")}`);
    }
  }
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, new Date().toISOString());
  if (!opts.quiet) console.log(`  Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
