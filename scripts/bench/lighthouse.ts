/**
 * Lighthouse on the built storefront (issue 20): the product started as a user starts it (the
 * build, `tsx server.ts`, a fresh DATA_DIR with the demo data), then Lighthouse's default mobile
 * preset (emulated phone, simulated slow 4G and 4× CPU slowdown) in Debian's Chromium, three runs
 * per page, the median by performance score. Also each page's first-load JavaScript, brotli, from the
 * build's manifest (the shell plus the page's own chunk and its static imports).
 *
 * Pages: home, a search, a product and a store, the last two taken from the app's own sitemap.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ensureBuild, root } from "../lib/build";
import { startBuiltServer } from "../lib/start-server";
import { firstLoadFiles, type StorefrontManifest } from "../../app/lib/storefront-manifest";
import { onCleanup, tempDir } from "./database";
import { addSummary, printTable } from "./report";

const CHROMIUM = "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

interface PageRun {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  clsScore: number;
}

async function startServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const { baseUrl, stop } = await startBuiltServer({ dataDir: tempDir("lighthouse"), timeoutMs: 300_000 });
  onCleanup(stop);
  return { base: baseUrl, stop };
}

/** A product and a store page of the running server, from its sitemap. */
async function pagesOf(base: string): Promise<[string, string][]> {
  const xml = await (await fetch(`${base}/sitemap.xml`)).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const product = locs.find((p) => p.startsWith("/products/"));
  const store = locs.find((p) => /^\/stores\/[^/]+/.test(p));
  if (!product || !store) throw new Error("the sitemap names no product or no store page");
  return [
    ["home", "/"],
    ["search", "/?search=black%20jeans"],
    ["product", product],
    ["store", store],
  ];
}

function firstLoadJsBrotli(pathname: string): number | null {
  const dir = path.join(root, "build", "storefront");
  const manifestFile = path.join(dir, ".vite", "manifest.json");
  if (!fs.existsSync(manifestFile)) return null;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as StorefrontManifest;
  const { js } = firstLoadFiles(manifest, pathname.split("?")[0]);
  return js.reduce((sum, f) => sum + zlib.brotliCompressSync(fs.readFileSync(path.join(dir, f))).length, 0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runLighthouseBenchmark(opts: { runs: number; log: (line: string) => void }): Promise<void> {
  const { log } = opts;
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  ensureBuild({ quiet: false });
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const { base, stop } = await startServer();
  const pages = await pagesOf(base);
  // Warm-up: the image variants are made on their first request (app/services/image-variants.server.ts).
  for (const [, p] of pages) await (await fetch(`${base}${p}`)).text();
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  onCleanup(async () => chrome.kill());
  const rows: string[][] = [];
  try {
    for (const [name, p] of pages) {
      // One unmeasured load per page so the server's caches are as a returning visitor's network finds them.
      await lighthouse(`${base}${p}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
      const runs: PageRun[] = [];
      let failedRuns = 0;
      for (let i = 0; i < opts.runs; i++) {
        const result = await lighthouse(`${base}${p}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`lighthouse gave no result for ${p}`);
        // A run whose trace Chromium did not record (NO_NAVSTART, NO_FCP…) scores 0 everywhere: it measured
        // nothing, so it is run again (at most twice per page) instead of pulling the median down.
        if (lhr.runtimeError) {
          log(`  ${name}: run ${i + 1} gave no measurement (${lhr.runtimeError.code}), run again`);
          if (++failedRuns > 2) throw new Error(`lighthouse could not measure ${p}: ${lhr.runtimeError.message}`);
          i--;
          continue;
        }
        const score = (c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
        runs.push({
          scores: { performance: score("performance"), accessibility: score("accessibility"), "best-practices": score("best-practices"), seo: score("seo") },
          lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
          tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
          clsScore: lhr.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
        });
      }
      // The median run by performance, and each category's own median.
      const perf = median(runs.map((r) => r.scores.performance));
      const mid = runs.find((r) => r.scores.performance === perf)!;
      const js = firstLoadJsBrotli(p);
      const row = [
        name,
        p.length > 40 ? `${p.slice(0, 37)}…` : p,
        String(perf),
        String(median(runs.map((r) => r.scores.accessibility))),
        String(median(runs.map((r) => r.scores["best-practices"]))),
        String(median(runs.map((r) => r.scores.seo))),
        `${(mid.lcpMs / 1000).toFixed(2)} s`,
        `${Math.round(mid.tbtMs)} ms`,
        mid.clsScore.toFixed(3),
        js === null ? "—" : `${(js / 1024).toFixed(1)} KB`,
      ];
      rows.push(row);
      log(`  ${name}: performance ${row[2]} (runs ${runs.map((r) => r.scores.performance).join(", ")}), accessibility ${row[3]}, best practices ${row[4]}, SEO ${row[5]}`);
      addSummary({ section: "lighthouse", figure: `${name}: perf / a11y / best practices / SEO (mobile, median of ${opts.runs})`, value: `${row[2]} / ${row[3]} / ${row[4]} / ${row[5]}` });
    }
  } finally {
    chrome.kill();
    await stop();
  }
  printTable(["page", "path", "perf", "a11y", "best pr.", "SEO", "LCP", "TBT", "CLS", "first-load JS (br)"], rows);
  log("  targets (issue 20): performance ≥ 95 and accessibility ≥ 95 on mobile; first-load JS ≤ 120 KB brotli");
}
