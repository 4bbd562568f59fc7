/**
 * Image bytes of a storefront page's product cards before and after responsive images (issue 20):
 * the full-size originals the cards loaded before, against the candidate a browser picks from the
 * card's srcset/sizes (AVIF in Chromium, WebP, JPEG fallback) at Lighthouse's mobile preset
 * (412 px wide at 1.75×) and a 1366 px laptop at 1×, made by the image route's own code. Also the
 * time to make a variant the first time and to answer it from the cache.
 *
 *   npx tsx scripts/bench/images.ts [uploadsDir] [cards]
 *
 * uploadsDir defaults to DATA_DIR/uploads (.data/uploads after `npm start`); its
 * `images/demo/*.jpg` garment images stand in for the cards (the first `cards`, default 24).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTHS } from "../../storefront/src/lib/image-sizes";
import { snapImageWidth, type ImageFormat } from "../../app/client/images";
import { createLocalStorage } from "../../app/providers/storage.server";
import { createImageVariants } from "../../app/services/image-variants.server";

export interface ImageBenchResult {
  cards: number;
  originalBytes: number;
  rows: Array<{ viewport: string; width: number; format: ImageFormat; bytes: number; saved: number }>;
  firstMakeMs: { avif: number; webp: number; jpeg: number };
  cachedMs: number;
}

/** The CSS width `sizes` gives at a viewport (only the forms CARD_IMAGE_SIZES uses). */
function slotWidth(viewport: number): number {
  for (const part of CARD_IMAGE_SIZES.split(", ")) {
    const m = /^\(max-width: ([\d.]+)px\) calc\((\d+)vw - (\d+)px\)$/.exec(part);
    if (m) {
      if (viewport <= Number(m[1])) return (viewport * Number(m[2])) / 100 - Number(m[3]);
      continue;
    }
    return Number.parseFloat(part);
  }
  return viewport;
}

/** The srcset candidate a browser takes: the smallest at least slot × density wide. */
function picked(viewport: number, dpr: number): number {
  const need = slotWidth(viewport) * dpr;
  return CARD_IMAGE_WIDTHS.find((w) => w >= need) ?? CARD_IMAGE_WIDTHS[CARD_IMAGE_WIDTHS.length - 1];
}

export async function runImageBench(uploadsDir: string, cards = 24): Promise<ImageBenchResult> {
  const dir = path.join(uploadsDir, "images", "demo");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".jpg") && !f.startsWith("store-")).sort().slice(0, cards);
  if (!files.length) throw new Error(`No demo images under ${dir}: start the app once (npm start) or pass an uploads folder`);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-image-bench-"));
  try {
    const variants = createImageVariants({ storage: createLocalStorage(uploadsDir), cache: createLocalStorage(cacheDir) });
    const originalBytes = files.reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0);
    const rows: ImageBenchResult["rows"] = [];
    const firstMakeMs = { avif: 0, webp: 0, jpeg: 0 };
    for (const [viewport, label, dpr] of [
      [412, "mobile 412 px @1.75x", 1.75],
      [1366, "laptop 1366 px @1x", 1],
    ] as const) {
      const width = snapImageWidth(picked(viewport, dpr));
      for (const format of ["avif", "webp", "jpeg"] as const) {
        let bytes = 0;
        for (const f of files) {
          const started = performance.now();
          const v = await variants.get({ path: `demo/${f}`, query: { w: String(width), fm: format } });
          if (!v.cached) firstMakeMs[format] += performance.now() - started;
          bytes += v.body.byteLength;
        }
        rows.push({ viewport: label, width, format, bytes, saved: originalBytes - bytes });
      }
    }
    const started = performance.now();
    for (const f of files) await variants.get({ path: `demo/${f}`, query: { w: "320", fm: "avif" } });
    const cachedMs = (performance.now() - started) / files.length;
    const made = files.length * 2;
    return { cards: files.length, originalBytes, rows, firstMakeMs: { avif: firstMakeMs.avif / made, webp: firstMakeMs.webp / made, jpeg: firstMakeMs.jpeg / made }, cachedMs };
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const uploadsDir = path.resolve(process.argv[2] ?? path.join(process.env.DATA_DIR ?? ".data", "uploads"));
  const cards = Number(process.argv[3] ?? 24);
  runImageBench(uploadsDir, cards).then(
    (r) => {
      console.log(`Product card images, ${r.cards} cards: originals ${kb(r.originalBytes)} (600×800 JPEG)`);
      for (const row of r.rows) console.log(`  ${row.viewport.padEnd(22)} w=${String(row.width).padEnd(4)} ${row.format.padEnd(5)} ${kb(row.bytes).padStart(9)}  saves ${kb(row.saved).padStart(9)} (${((row.saved / r.originalBytes) * 100).toFixed(0)} %)`);
      console.log(`  first request per variant (sharp): AVIF ${r.firstMakeMs.avif.toFixed(0)} ms, WebP ${r.firstMakeMs.webp.toFixed(0)} ms, JPEG ${r.firstMakeMs.jpeg.toFixed(0)} ms; from the cache ${r.cachedMs.toFixed(1)} ms`);
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    },
  );
}
