/**
 * Internal media: images the team keeps for campaigns and editing, with their dominant colour in
 * CIELAB so they can be found by colour (CIEDE2000 distance).
 *
 * Uploads are checked by content (JPEG, PNG or WebP magic bytes; the name and the declared type
 * are not trusted), size (10 MB) and pixel count (40 MP); the EXIF orientation is applied, every
 * metadata block (EXIF, GPS, ICC, XMP) is dropped, and the image is stored as a JPEG under
 * `images/internal/<uuid>.jpg`.
 */
import crypto from "node:crypto";
import type { InternalMedia as MediaRow, Prisma } from "@prisma/client";
import sharp, { type Metadata } from "sharp";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { ApiError, notFound, unprocessable } from "~/api/errors.server";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS } from "~/contract/internal-media";
import { deltaE2000, dominantLab, labToHex, lightnessWindow, type Lab } from "./color.server";

export type MediaType = "image" | "video";

export function toMedia(m: MediaRow) {
  const hasColor = m.l !== null && m.a !== null && m.b !== null;
  return {
    id: m.id,
    type: m.type,
    format: m.format,
    url: m.url,
    title: m.title,
    width: m.width,
    height: m.height,
    duration: m.duration,
    color: hasColor ? { l: m.l!, a: m.a!, b: m.b!, hex: labToHex({ l: m.l!, a: m.a!, b: m.b! }) } : null,
    tags: m.tags,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Upload

export type SniffedType = "jpeg" | "png" | "webp" | "video" | null;

/** The file's real type from its first bytes. */
export function sniffType(bytes: Uint8Array): SniffedType {
  const at = (offset: number, sig: number[]) => sig.every((v, i) => bytes[offset + i] === v);
  const ascii = (offset: number, text: string) => at(offset, [...text].map((c) => c.charCodeAt(0)));
  if (at(0, [0xff, 0xd8, 0xff])) return "jpeg";
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "webp";
  // MP4 / QuickTime (…ftyp), WebM / Matroska (EBML), AVI (RIFF…AVI ).
  if (ascii(4, "ftyp") || at(0, [0x1a, 0x45, 0xdf, 0xa3]) || (ascii(0, "RIFF") && ascii(8, "AVI "))) return "video";
  return null;
}

const VIDEO_REFUSAL = "Video uploads are not supported yet: upload a JPEG, PNG or WebP image";
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export interface ProcessedImage {
  jpeg: Buffer;
  width: number;
  height: number;
  color: Lab;
}

/** Checks and normalises an uploaded image; throws ApiErrors a caller can show as they are. */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new ApiError(413, `The file is ${mb(bytes.byteLength)}; the maximum is 10 MB`);
  const kind = sniffType(bytes);
  if (kind === "video") throw new ApiError(415, VIDEO_REFUSAL);
  if (!kind) throw new ApiError(415, "Unsupported file type: upload a JPEG, PNG or WebP image (the type is read from the file's content, not its name)");
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unprocessable(`The ${kind.toUpperCase()} image could not be read; the file may be damaged`);
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels) throw unprocessable("The image has no size; the file may be damaged");
  if (pixels > MAX_UPLOAD_PIXELS) {
    throw unprocessable(`The image is ${meta.width}×${meta.height} (${(pixels / 1e6).toFixed(1)} megapixels); the maximum is 40 megapixels`);
  }
  try {
    // rotate(): applies the EXIF orientation. sharp writes no metadata unless asked, so EXIF
    // (with any GPS position), ICC and XMP blocks are dropped.
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS })
      .rotate()
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 86, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const small = await sharp(data).resize(64, 64, { fit: "inside" }).removeAlpha().raw().toBuffer();
    return { jpeg: data, width: info.width, height: info.height, color: dominantLab(small, 3) };
  } catch {
    throw unprocessable(`The ${kind.toUpperCase()} image could not be decoded; the file may be damaged`);
  }
}

export async function uploadInternalMedia(
  ctx: Pick<AppContext, "db" | "storage">,
  input: { file: Blob; type: MediaType; title?: string; tags: string[] },
) {
  if (input.type === "video") throw new ApiError(415, VIDEO_REFUSAL);
  if (input.file.size > MAX_UPLOAD_BYTES) throw new ApiError(413, `The file is ${mb(input.file.size)}; the maximum is 10 MB`);
  const image = await processImage(new Uint8Array(await input.file.arrayBuffer()));
  const id = crypto.randomUUID();
  const key = `images/internal/${id}.jpg`;
  const stored = await ctx.storage.put(key, image.jpeg, "image/jpeg");
  const name = input.file instanceof File ? input.file.name : "";
  const title = input.title ?? (name.replace(/\.[^.]*$/, "").trim().slice(0, 200) || null);
  try {
    const row = await ctx.db.internalMedia.create({
      data: { id, type: "image", format: "jpg", url: stored.url, key, title, width: image.width, height: image.height, l: image.color.l, a: image.color.a, b: image.color.b, tags: input.tags },
    });
    return toMedia(row);
  } catch (e) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Reads and writes

/** Formats are stored as file extensions: `jpeg` means `jpg`. */
const normaliseFormat = (f: string) => (f === "jpeg" ? "jpg" : f);

export interface ListMediaQuery {
  type?: MediaType;
  format?: string;
  tag?: string;
  page: number;
  limit: number;
  similar_to_color?: { l: number; a: number; b: number; threshold: number };
}

/**
 * Lists media newest first, or, with `similar_to_color`, only those within the threshold of that
 * colour (CIEDE2000), nearest first. The lightness window (see color.server.ts) narrows the
 * candidates in SQL; the exact distance is computed here.
 */
export async function listInternalMedia(db: Db, q: ListMediaQuery) {
  const where: Prisma.InternalMediaWhereInput = {
    ...(q.type ? { type: q.type } : {}),
    ...(q.format ? { format: normaliseFormat(q.format) } : {}),
    ...(q.tag ? { tags: { has: q.tag } } : {}),
  };
  const skip = (q.page - 1) * q.limit;
  const page = (media: (ReturnType<typeof toMedia> & { distance: number | null })[], total: number) => ({
    media,
    page: q.page,
    limit: q.limit,
    total,
    totalPages: Math.ceil(total / q.limit),
  });

  if (!q.similar_to_color) {
    const rows = await db.internalMedia.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip, take: q.limit });
    const total = await db.internalMedia.count({ where });
    return page(rows.map((r) => ({ ...toMedia(r), distance: null })), total);
  }

  const target = q.similar_to_color;
  const window = lightnessWindow(target.threshold);
  const candidates = await db.internalMedia.findMany({
    where: { ...where, l: { gte: target.l - window, lte: target.l + window }, a: { not: null }, b: { not: null } },
    select: { id: true, l: true, a: true, b: true, created_at: true },
  });
  const matches = candidates
    .map((c) => ({ id: c.id, created_at: c.created_at, distance: deltaE2000(target, { l: c.l!, a: c.a!, b: c.b! }) }))
    .filter((c) => c.distance <= target.threshold)
    .sort((x, y) => x.distance - y.distance || y.created_at.getTime() - x.created_at.getTime() || x.id.localeCompare(y.id));
  const slice = matches.slice(skip, skip + q.limit);
  const rows = await db.internalMedia.findMany({ where: { id: { in: slice.map((s) => s.id) } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return page(
    slice.filter((s) => byId.has(s.id)).map((s) => ({ ...toMedia(byId.get(s.id)!), distance: Math.round(s.distance * 100) / 100 })),
    matches.length,
  );
}

async function findMedia(db: Db, id: string) {
  const row = await db.internalMedia.findUnique({ where: { id } });
  if (!row) throw notFound("Media not found");
  return row;
}

export async function getInternalMedia(db: Db, id: string) {
  return toMedia(await findMedia(db, id));
}

export async function updateInternalMedia(db: Db, id: string, patch: { tags?: string[]; type?: MediaType; title?: string | null }) {
  await findMedia(db, id);
  const row = await db.internalMedia.update({
    where: { id },
    data: { tags: patch.tags ? [...new Set(patch.tags)] : undefined, type: patch.type, title: patch.title },
  });
  return toMedia(row);
}

export async function deleteInternalMedia(ctx: Pick<AppContext, "db" | "storage">, id: string) {
  const row = await findMedia(ctx.db, id);
  await ctx.db.internalMedia.delete({ where: { id } });
  if (row.key) await ctx.storage.delete(row.key);
  return { ok: true as const };
}
