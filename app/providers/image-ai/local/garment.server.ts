/**
 * Garment (product) cut-out with @imgly/background-removal-node (ISNet, model "medium", on
 * onnxruntime-node; 3–4 s per image on 2 cores). The model files are read from the package's
 * dist/ folder (publicPath file://…), never from the network. Cut-outs are RGBA PNGs at most
 * CUTOUT_MAX px on the long side, cached by sha256 of the source bytes: in memory and under
 * `<cacheDir>/garments/<sha>.png`.
 */
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { packageDir } from "~/providers/image-embedding/tf-runtime.server";
import { sha256 } from "./person.server";

export const CUTOUT_MAX = 1024;

export interface Cutout {
  sha: string;
  /** RGBA, width × height × 4 */
  data: Uint8Array;
  width: number;
  height: number;
  /** Bounding box of alpha > 24, or null when nothing was kept. */
  bbox: { x0: number; y0: number; x1: number; y1: number } | null;
  /** Share of the picture the cut-out covers (0..1). */
  coverage: number;
}

export const garmentStats = { cutouts: 0, diskHits: 0, memoryHits: 0 };

type RemoveBackground = (image: Blob, config: object) => Promise<Blob>;
let removeBg: Promise<RemoveBackground> | null = null;

function loadRemover(): Promise<RemoveBackground> {
  removeBg ??= import("@imgly/background-removal-node")
    .then((m) => (m.removeBackground ?? (m as unknown as { default: RemoveBackground }).default) as unknown as RemoveBackground)
    .catch((e: unknown) => {
      removeBg = null;
      throw e;
    });
  return removeBg;
}

export function cutoutPublicPath(): string {
  return `file://${path.join(packageDir("@imgly/background-removal-node"), "dist")}/`;
}

const memory = new Map<string, Cutout>();
const MEMORY_MAX = 24;
const inflight = new Map<string, Promise<Cutout>>();

function describe(sha: string, data: Uint8Array, width: number, height: number): Cutout {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  let n = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    for (let x = 0; x < width; x++) {
      if (data[row + x * 4 + 3] > 24) {
        n++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  return { sha, data, width, height, bbox: x1 >= 0 ? { x0, y0, x1, y1 } : null, coverage: n / (width * height) };
}

async function compute(bytes: Uint8Array, sha: string): Promise<Cutout> {
  const { data, info } = await sharp(bytes, { failOn: "none" })
    .rotate()
    .resize({ width: CUTOUT_MAX, height: CUTOUT_MAX, fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const remove = await loadRemover();
  const input = new Blob([new Uint8Array(data)], { type: `image/x-rgba8;width=${info.width};height=${info.height}` });
  const out = await remove(input, { publicPath: cutoutPublicPath(), model: "medium", output: { format: "image/x-rgba8" } });
  const rgba = new Uint8Array(await out.arrayBuffer());
  if (rgba.length !== info.width * info.height * 4) throw new Error("Background removal answered an image of the wrong size");
  garmentStats.cutouts++;
  return describe(sha, rgba, info.width, info.height);
}

function remember(c: Cutout): Cutout {
  memory.delete(c.sha);
  memory.set(c.sha, c);
  while (memory.size > MEMORY_MAX) memory.delete(memory.keys().next().value as string);
  return c;
}

/** The garment cut out of its background (cached, see the file comment). */
export async function garmentCutout(bytes: Uint8Array, opts: { cacheDir?: string } = {}): Promise<Cutout> {
  const sha = sha256(bytes);
  const hit = memory.get(sha);
  if (hit) {
    garmentStats.memoryHits++;
    return hit;
  }
  const running = inflight.get(sha);
  if (running) return running;
  const work = (async () => {
    const file = opts.cacheDir ? path.join(opts.cacheDir, "garments", `${sha}.png`) : null;
    if (file) {
      try {
        const { data, info } = await sharp(await fs.readFile(file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        garmentStats.diskHits++;
        return remember(describe(sha, new Uint8Array(data), info.width, info.height));
      } catch {
        /* not cached yet */
      }
    }
    const c = await compute(bytes, sha);
    if (file) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}`;
      await fs.writeFile(tmp, await cutoutPng(c));
      await fs.rename(tmp, file);
    }
    return remember(c);
  })();
  inflight.set(sha, work);
  try {
    return await work;
  } finally {
    inflight.delete(sha);
  }
}

export function cutoutPng(c: Cutout): Promise<Buffer> {
  return sharp(Buffer.from(c.data.buffer, c.data.byteOffset, c.data.length), { raw: { width: c.width, height: c.height, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

export function clearGarmentMemoryCache(): void {
  memory.clear();
}
