/**
 * Sized variants of stored images (issue 20): `/images/<key>?w=<width>&fm=<format>` answers the
 * stored image `images/<key>` resized with sharp to one of the allowed widths (never enlarged) in
 * AVIF, WebP, JPEG or PNG (without `fm`: the original's format).
 *
 * Variants are made lazily, on the first request for them, and kept in a cache (a storage port:
 * a local folder `DATA_DIR/image-cache` here; the same bucket under a `variants/` prefix with S3).
 * The cache key carries a hash of the original's bytes, so an image rewritten under the same key
 * gets new variants, and the hash is the answer's ETag. The same variant asked for twice at once
 * is made once; at most `MAX_CONCURRENT_ENCODES` encodes run at a time (sharp uses every core).
 */
import crypto from "node:crypto";
import sharp from "sharp";
import { z } from "zod";
import { IMAGE_FORMATS, IMAGE_WIDTHS, type ImageFormat } from "~/client/images";
import { invalid, notFoundError, unsupportedMedia } from "~/lib/domain-errors";
import type { StoragePort } from "~/providers/storage.server";

export const MAX_CONCURRENT_ENCODES = 2;
/** Originals bigger than this are not resized (the uploads are at most a few MB). */
const MAX_INPUT_PIXELS = 40_000_000;

const CONTENT_TYPES: Record<ImageFormat, string> = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg", png: "image/png" };
const ORIGINAL_FORMATS: Record<string, ImageFormat> = { jpg: "jpeg", jpeg: "jpeg", png: "png", webp: "webp", avif: "avif" };

/** A key segment: letters, digits, `-`, `_`, `.` (no empty segment, no `.`/`..`, no dot first). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The query of the image route; unknown parameters are refused. */
export const imageVariantQuerySchema = z
  .object({
    w: z
      .string()
      .regex(/^\d{1,4}$/, "w must be a whole number")
      .transform(Number)
      .refine((w) => (IMAGE_WIDTHS as readonly number[]).includes(w), { message: `w must be one of ${IMAGE_WIDTHS.join(", ")}` })
      .optional(),
    fm: z.enum(IMAGE_FORMATS).optional(),
  })
  .strict();

export type ImageVariantQuery = z.infer<typeof imageVariantQuerySchema>;

export interface ImageVariantRequest {
  /** The path after `/images/` as it came (still percent-encoded). */
  path: string;
  query: Record<string, unknown>;
}

export interface ImageVariant {
  body: Uint8Array;
  contentType: string;
  etag: string;
  /** Whether the cache had it (false: made now). */
  cached: boolean;
}

export interface ImageVariantDeps {
  /** Where the originals are (the app's storage). */
  storage: Pick<StoragePort, "get">;
  /** Where the variants are kept. */
  cache: Pick<StoragePort, "get" | "put">;
}

/** The storage key `images/<path>` of a request path, or an `invalid` error (traversal, odd characters, not an image name). */
export function imageKeyOfPath(rawPath: string): { key: string; originalFormat: ImageFormat } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw invalid("The image path is not valid");
  }
  const segments = decoded.split("/");
  if (!decoded || decoded.length > 300 || segments.some((s) => !SEGMENT.test(s) || s === "." || s === "..")) throw invalid("The image path is not valid");
  const ext = /\.([A-Za-z0-9]+)$/.exec(decoded)?.[1]?.toLowerCase() ?? "";
  const originalFormat = ORIGINAL_FORMATS[ext];
  if (!originalFormat) throw invalid("The image path must end in .jpg, .jpeg, .png, .webp or .avif");
  return { key: `images/${decoded}`, originalFormat };
}

/** Validates the query (400 on an unknown width, format or parameter). */
export function parseImageVariantQuery(query: Record<string, unknown>): ImageVariantQuery {
  const parsed = imageVariantQuerySchema.safeParse(query);
  if (!parsed.success) throw invalid("The image size or format is not valid", parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })));
  return parsed.data;
}

async function encode(original: Uint8Array, width: number | undefined, format: ImageFormat): Promise<Uint8Array> {
  let image = sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).rotate();
  if (width) image = image.resize({ width, withoutEnlargement: true });
  switch (format) {
    case "avif":
      image = image.avif({ quality: 50, effort: 2 });
      break;
    case "webp":
      image = image.webp({ quality: 75, effort: 4 });
      break;
    case "jpeg":
      image = image.jpeg({ quality: 78, progressive: true, mozjpeg: true });
      break;
    case "png":
      image = image.png({ compressionLevel: 9 });
      break;
  }
  return new Uint8Array(await image.toBuffer());
}

/** The first 16 hex digits of the original's SHA-256: in the cache key and the ETag, so a rewritten image gets new variants. */
const digest = (original: Uint8Array) => crypto.createHash("sha256").update(original).digest("hex").slice(0, 16);
const cacheKeyOf = (key: string, hash: string, w: number | undefined, format: ImageFormat) => `variants/${key}/${hash}-${w ?? "o"}.${format}`;
const etagOf = (hash: string, w: number | undefined, format: ImageFormat) => `"${hash}-${w ?? "o"}-${format}"`;

/** A small semaphore: at most `limit` tasks at once, the others wait in order. */
function limiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** A variant to make ahead: a width and a format, or the original's own format. */
export type WarmTarget = { w: number; fm: ImageFormat | "original" };

export function createImageVariants(deps: ImageVariantDeps) {
  const inFlight = new Map<string, Promise<ImageVariant>>();
  const runEncode = limiter(MAX_CONCURRENT_ENCODES);

  async function make(key: string, original: Uint8Array, cacheKey: string, etag: string, width: number | undefined, format: ImageFormat): Promise<ImageVariant> {
    const hit = await deps.cache.get(cacheKey);
    if (hit) return { body: hit, contentType: CONTENT_TYPES[format], etag, cached: true };
    let body: Uint8Array;
    try {
      body = await runEncode(() => encode(original, width, format));
    } catch {
      throw unsupportedMedia(`The stored file ${key} is not an image that can be resized`);
    }
    await deps.cache.put(cacheKey, body, CONTENT_TYPES[format]);
    return { body, contentType: CONTENT_TYPES[format], etag, cached: false };
  }

  return {
    /**
     * Makes the variants of one stored image ahead of any request (the upload pre-warm), one
     * encode at a time, so a shopper's first request finds them in the cache. Widths beyond the
     * original's are cut to the first one covering it: sharp never enlarges, so the wider ones
     * would be the same picture encoded again. `not_found` when the image is gone;
     * `unsupported_media` when it cannot be read as an image.
     */
    async warm(path: string, targets: readonly WarmTarget[]): Promise<{ made: number; cached: number }> {
      const { key, originalFormat } = imageKeyOfPath(path);
      const original = await deps.storage.get(key);
      if (!original) throw notFoundError("No image here");
      let width: number;
      try {
        width = (await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).width ?? 0;
      } catch {
        throw unsupportedMedia(`The stored file ${key} is not an image that can be resized`);
      }
      const cover = [...new Set(targets.map((t) => t.w))].sort((a, b) => a - b).find((w) => w >= width);
      const wanted = targets.filter((t) => t.w <= width || t.w === cover);
      const hash = digest(original);
      let made = 0;
      let cached = 0;
      // "original": the variant a request without `fm` gets (the `<img>` fallback), the same cache entry.
      const resolved = [...new Map(wanted.map((t) => {
        const fm = t.fm === "original" ? originalFormat : t.fm;
        return [`${t.w}.${fm}`, { w: t.w, fm }] as const;
      })).values()];
      for (const t of resolved) {
        const v = await make(key, original, cacheKeyOf(key, hash, t.w, t.fm), etagOf(hash, t.w, t.fm), t.w, t.fm);
        if (v.cached) cached++;
        else made++;
      }
      return { made, cached };
    },

    /** The variant a request asks for: `invalid` (400), `not_found` (404), `unsupported_media` (415). */
    async get(request: ImageVariantRequest): Promise<ImageVariant> {
      const { key, originalFormat } = imageKeyOfPath(request.path);
      const query = parseImageVariantQuery(request.query);
      const original = await deps.storage.get(key);
      if (!original) throw notFoundError("No image here");
      const format = query.fm ?? originalFormat;
      const hash = digest(original);
      const etag = etagOf(hash, query.w, format);
      // Nothing to do: the original as it is.
      if (!query.w && format === originalFormat) return { body: original, contentType: CONTENT_TYPES[format], etag, cached: true };
      const cacheKey = cacheKeyOf(key, hash, query.w, format);
      const pending = inFlight.get(cacheKey);
      if (pending) return pending;
      const work = make(key, original, cacheKey, etag, query.w, format).finally(() => inFlight.delete(cacheKey));
      inFlight.set(cacheKey, work);
      return work;
    },
  };
}

export type ImageVariants = ReturnType<typeof createImageVariants>;
