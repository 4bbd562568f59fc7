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
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { notFoundError, tooLarge, unsupportedMedia } from "~/lib/domain-errors";
import { MAX_UPLOAD_BYTES } from "~/contract/internal-media";
import { deltaE2000, labToHex, lightnessWindow } from "./color.server";
import { VIDEO_REFUSAL, mb, processImage } from "./uploaded-images.server";
import { enqueueImagePrewarm } from "./image-prewarm.server";

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

// The checks and normalisation live in uploaded-images.server.ts (shared with photo search and
// review photos); re-exported here so existing imports keep working.
export { processImage, sniffType, type ProcessedImage, type SniffedType } from "./uploaded-images.server";

export async function uploadInternalMedia(
  ctx: Pick<AppContext, "db" | "storage"> & Partial<Pick<AppContext, "queue" | "log">>,
  input: { file: Blob; type: MediaType; title?: string; tags: string[] },
) {
  if (input.type === "video") throw unsupportedMedia(VIDEO_REFUSAL);
  if (input.file.size > MAX_UPLOAD_BYTES) throw tooLarge(`The file is ${mb(input.file.size)}; the maximum is 10 MB`);
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
    // The library's thumbnails are made now rather than on the first look at the grid.
    if (ctx.queue) await enqueueImagePrewarm({ queue: ctx.queue, log: ctx.log }, [stored.url], "media");
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
  if (!row) throw notFoundError("Media not found");
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
