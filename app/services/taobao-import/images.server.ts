/**
 * The images of an import: each URL fetched once through the Taobao source, checked by content
 * (JPEG, PNG or WebP; the declared type is not trusted), normalised (orientation applied, metadata
 * dropped, at most 1024 px on the longer side, JPEG) and stored content-addressed under
 * `images/taobao/<sha256>.jpg`, so the same picture under two URLs, or in two items, is stored once.
 * SKU images also give the dominant garment colour (hex and name) for the variants' colour hex.
 *
 * Main and SKU images must all load: one that fails or is not an image fails the import with a
 * clear message (a transient failure is retried by the job). Detail images (size charts, close-ups
 * of the description) are optional: one that fails is left out and noted.
 */
import crypto from "node:crypto";
import sharp from "sharp";
import type { StoragePort } from "~/providers/storage.server";
import { TaobaoSourceError, type TaobaoSourcePort } from "~/providers/taobao/port";
import { sniffType } from "~/services/uploaded-images.server";
import { colourName, dominantColours } from "~/services/companion.server";
import { hexToLab } from "~/services/color.server";

export const TAOBAO_IMAGE_PREFIX = "images/taobao";
const MAX_SIDE = 1024;
const MAX_BYTES = 15 * 1024 * 1024;

export type ImageRole = "main" | "sku" | "detail";

export interface StoredImage {
  sourceUrl: string;
  key: string;
  /** As our storage serves it (`/uploads/images/taobao/….jpg`). */
  url: string;
  sha256: string;
  width: number;
  height: number;
  /** Dominant garment colour (SKU and main images). */
  hex: string | null;
  colourName: string | null;
}

export interface ImageRun {
  byUrl: Map<string, StoredImage>;
  /** Storage keys this run wrote (removed again if the import fails). */
  created: string[];
  /** Detail images left out, with why. */
  skipped: { url: string; reason: string }[];
  /** Distinct pictures (by content) among the URLs. */
  distinct: number;
  /** URLs that were the same picture as another URL. */
  duplicates: number;
}

/** Thrown for a main or SKU image that cannot be used; `retryable` for transient download failures. */
export function imageProblem(e: unknown): TaobaoSourceError {
  if (e instanceof TaobaoSourceError) return e;
  return new TaobaoSourceError("image_failed", `An image of the item could not be downloaded (${e instanceof Error ? e.message : String(e)})`, { retryable: true });
}

/** Checks the bytes are an image the import can use; throws `not_an_image` otherwise. */
function checkKind(bytes: Uint8Array, declared: string) {
  const kind = sniffType(bytes);
  if (!kind || kind === "video") {
    const what = declared ? declared.split(";")[0].trim() : "unknown content";
    throw new TaobaoSourceError("not_an_image", `An image of the item is not an image (${what || "unknown content"})`, { retryable: false });
  }
  if (bytes.byteLength > MAX_BYTES) throw new TaobaoSourceError("not_an_image", `An image of the item is larger than ${MAX_BYTES / 1024 / 1024} MB`, { retryable: false });
  return kind;
}

const damaged = (kind: string) => new TaobaoSourceError("not_an_image", `An image of the item could not be read (a damaged ${kind.toUpperCase()} file)`, { retryable: false });

/** Dominant garment colour, from a small decode of the source (JPEG shrink-on-load keeps it cheap). */
async function colourOf(bytes: Uint8Array): Promise<{ hex: string | null; name: string | null }> {
  const small = await sharp(bytes, { limitInputPixels: 40_000_000 }).rotate().resize(48, 64, { fit: "inside" }).flatten({ background: "#ffffff" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const top = dominantColours(new Uint8Array(small.data), small.info.width, small.info.height)[0];
  if (!top) return { hex: null, name: null };
  const lab = hexToLab(top.hex);
  return { hex: top.hex, name: lab ? colourName(lab) : top.name };
}

/** The stored JPEG's size, from the source's header (no decode): the longer side capped at MAX_SIDE. */
async function outputSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const m = await sharp(bytes).metadata();
  let w = m.width ?? 0;
  let h = m.height ?? 0;
  if (!w || !h) throw new Error("no size");
  if ((m.orientation ?? 1) >= 5) [w, h] = [h, w];
  const scale = Math.min(1, MAX_SIDE / Math.max(w, h));
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
}

async function normalise(bytes: Uint8Array, declared: string, opts: { withColour: boolean; encode: boolean }) {
  const kind = checkKind(bytes, declared);
  try {
    const colour = opts.withColour ? await colourOf(bytes) : { hex: null, name: null };
    if (!opts.encode) return { jpeg: null, ...(await outputSize(bytes)), ...colour };
    const { data, info } = await sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height, ...colour };
  } catch {
    throw damaged(kind);
  }
}

async function exists(storage: StoragePort, key: string): Promise<boolean> {
  return (await storage.get(key)) !== null;
}

/**
 * Fetches, checks, normalises and stores every image; `onProgress(done, total)` after each one.
 * Runs `concurrency` images at a time.
 */
export async function storeImages(
  deps: { taobao: TaobaoSourcePort; storage: StoragePort },
  wanted: { url: string; role: ImageRole }[],
  opts: {
    concurrency?: number;
    onProgress?: (done: number, total: number) => Promise<void> | void;
    /** Clean-up of what this run stored when it fails; default: remove those files. The import passes one that keeps files another product already uses. */
    onFailure?: (createdKeys: string[]) => Promise<void>;
  } = {},
): Promise<ImageRun> {
  // One entry per URL; the strongest role wins (main > sku > detail).
  const rank: Record<ImageRole, number> = { main: 3, sku: 2, detail: 1 };
  const roles = new Map<string, ImageRole>();
  for (const w of wanted) {
    const prev = roles.get(w.url);
    if (!prev || rank[w.role] > rank[prev]) roles.set(w.url, w.role);
  }
  const list = [...roles.entries()];
  const run: ImageRun = { byUrl: new Map(), created: [], skipped: [], distinct: 0, duplicates: 0 };
  const byHash = new Map<string, Promise<StoredImage>>();
  let done = 0;
  let next = 0;
  let failure: unknown = null;

  const one = async (url: string, role: ImageRole) => {
    let fetched;
    try {
      fetched = await deps.taobao.fetchImage(url);
    } catch (e) {
      throw imageProblem(e);
    }
    const sha256 = crypto.createHash("sha256").update(fetched.bytes).digest("hex");
    let stored = byHash.get(sha256);
    if (stored) run.duplicates++;
    else {
      stored = (async () => {
        const key = `${TAOBAO_IMAGE_PREFIX}/${sha256.slice(0, 40)}.jpg`;
        // Stored before (the same picture in another item, or a re-import): checked and measured, not encoded again.
        const known = await exists(deps.storage, key);
        const img = await normalise(fetched.bytes, fetched.contentType, { withColour: role !== "detail", encode: !known });
        if (img.jpeg) {
          await deps.storage.put(key, img.jpeg, "image/jpeg");
          run.created.push(key);
        }
        run.distinct++;
        return { sourceUrl: url, key, url: deps.storage.publicUrl(key), sha256, width: img.width, height: img.height, hex: img.hex, colourName: img.name };
      })();
      byHash.set(sha256, stored);
    }
    const s = await stored;
    run.byUrl.set(url, { ...s, sourceUrl: url });
  };

  const worker = async () => {
    while (next < list.length && !failure) {
      const [url, role] = list[next++];
      try {
        await one(url, role);
      } catch (e) {
        if (role === "detail") run.skipped.push({ url, reason: e instanceof Error ? e.message : String(e) });
        else {
          failure ??= e;
          return;
        }
      }
      done++;
      await opts.onProgress?.(done, list.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, list.length)) }, worker));
  if (failure) {
    // Whatever this run wrote is removed: nothing half-imported stays in storage.
    await (opts.onFailure ? opts.onFailure(run.created) : removeStored(deps.storage, run.created));
    throw failure;
  }
  return run;
}

export async function removeStored(storage: StoragePort, keys: string[]): Promise<void> {
  for (const k of keys) await storage.delete(k).catch(() => undefined);
}
