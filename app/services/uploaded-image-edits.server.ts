/**
 * Uploaded images: list, crop, rotate, background removal, replace, delete (contract
 * app/contract/uploaded-images.ts, which says who may do what).
 *
 * Edits rewrite the file under the same storage key, so every reference keeps working: ad requests
 * name images by id, reviews and product requests by URL. The row is moved to the next version
 * first, guarded by the version read (a conditional update), and only then is the file written:
 * of two edits racing each other one moves the row and writes, the other answers 409 and writes
 * nothing. A failed file write puts the row back.
 *
 * Every result goes through the same pipeline: EXIF orientation applied, at most 1024 px on the
 * longer side, JPEG, EXIF kept without its GPS tags (app/lib/exif-location.ts).
 */
import sharp, { type Sharp } from "sharp";
import type { Prisma, UploadedImage as Row } from "@prisma/client";
import type { z } from "zod";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import {
  UPLOADED_IMAGE_MAX_SIDE,
  UploadedImageMessages as M,
  type CropBody,
  type UploadedImage,
  type UploadedImagesQuery,
} from "~/contract/uploaded-images";
import { conflictError, notAllowed, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { garmentCutout } from "~/providers/image-ai/local/garment.server";
import { locationFree, processImage } from "~/services/uploaded-images.server";

export interface UploadViewer {
  userId: string;
  /** An admin with media.manage: every upload. */
  admin: boolean;
}

type Ctx = Pick<AppContext, "db" | "storage" | "log">;

const REVIEW_PURPOSE = "review";

/** What still names each image (by id for ad requests, by URL for reviews and product requests). */
async function usesOf(db: Db, rows: Pick<Row, "id" | "url">[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(rows.map((r) => [r.id, []]));
  if (!rows.length) return out;
  const ids = rows.map((r) => r.id);
  const urls = rows.map((r) => r.url);
  const [ads, reviews, requests] = await Promise.all([
    db.productAdRequest.findMany({ where: { uploaded_image_ids: { hasSome: ids } }, select: { uploaded_image_ids: true } }),
    db.review.findMany({ where: { images: { hasSome: urls } }, select: { images: true } }),
    db.productRequest.findMany({ where: { image_url: { in: urls } }, select: { image_url: true } }),
  ]);
  for (const r of rows) {
    const used = out.get(r.id)!;
    if (ads.some((a) => a.uploaded_image_ids.includes(r.id))) used.push("an ad request");
    if (reviews.some((v) => v.images.includes(r.url))) used.push("a review");
    if (requests.some((p) => p.image_url === r.url)) used.push("a product request");
  }
  return out;
}

function toUploadedImage(r: Row, usedBy: string[]): UploadedImage {
  return {
    id: r.id,
    url: r.url,
    versioned_url: `${r.url}${r.url.includes("?") ? "&" : "?"}v=${r.version}`,
    width: r.width,
    height: r.height,
    content_type: r.content_type,
    size_bytes: r.size_bytes,
    purpose: r.purpose,
    user_id: r.user_id,
    version: r.version,
    used_by: usedBy,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at?.toISOString() ?? null,
  };
}

async function answer(db: Db, r: Row): Promise<UploadedImage> {
  return toUploadedImage(r, (await usesOf(db, [r])).get(r.id) ?? []);
}

async function findOwn(db: Db, viewer: UploadViewer, id: string): Promise<Row> {
  const row = await db.uploadedImage.findUnique({ where: { id } });
  if (!row || (!viewer.admin && row.user_id !== viewer.userId)) throw notFoundError(M.NOT_FOUND);
  return row;
}

/** A shopper's review photo is the moderators' once a review carries it. */
async function assertChangeable(db: Db, viewer: UploadViewer, row: Row): Promise<void> {
  if (viewer.admin || row.purpose !== REVIEW_PURPOSE) return;
  if (await db.review.findFirst({ where: { images: { has: row.url } }, select: { id: true } })) throw conflictError(M.REVIEW_LOCKED);
}

export async function listUploadedImages(db: Db, viewer: UploadViewer, q: z.output<typeof UploadedImagesQuery>): Promise<{ items: UploadedImage[]; nextCursor: string | null }> {
  if ((q.userId && q.userId !== viewer.userId) || q.all) {
    if (!viewer.admin) throw notAllowed(M.ADMIN_ONLY_FILTER);
  }
  const owner = q.userId ?? (q.all ? undefined : viewer.userId);
  let after: { at: Date; id: string } | null = null;
  if (q.cursor) {
    const [at, id] = q.cursor.split("|");
    const d = new Date(at ?? "");
    if (id && !Number.isNaN(d.getTime())) after = { at: d, id };
  }
  const where: Prisma.UploadedImageWhereInput = {
    ...(owner ? { user_id: owner } : {}),
    ...(q.purpose ? { purpose: q.purpose } : {}),
    ...(after ? { OR: [{ created_at: { lt: after.at } }, { created_at: after.at, id: { lt: after.id } }] } : {}),
  };
  const rows = await db.uploadedImage.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const uses = await usesOf(db, page);
  const last = page[page.length - 1];
  return { items: page.map((r) => toUploadedImage(r, uses.get(r.id) ?? [])), nextCursor: rows.length > q.limit && last ? `${last.created_at.toISOString()}|${last.id}` : null };
}

export async function getUploadedImage(db: Db, viewer: UploadViewer, id: string): Promise<UploadedImage> {
  return answer(db, await findOwn(db, viewer, id));
}

/** The file under the row's key, then `edit` on it, written back under the same key. */
async function rewrite(ctx: Ctx, viewer: UploadViewer, id: string, edit: (row: Row, bytes: Uint8Array) => Promise<Buffer>): Promise<UploadedImage> {
  const row = await findOwn(ctx.db, viewer, id);
  await assertChangeable(ctx.db, viewer, row);
  const bytes = await ctx.storage.get(row.key);
  if (!bytes) throw notFoundError(M.FILE_MISSING);
  const jpeg = await edit(row, bytes);
  const meta = await sharp(jpeg).metadata();
  // The row first, guarded by the version read: a concurrent edit that got there first wins and
  // this one writes nothing.
  const done = await ctx.db.uploadedImage.updateMany({
    where: { id: row.id, version: row.version },
    data: { width: meta.width ?? null, height: meta.height ?? null, size_bytes: jpeg.byteLength, content_type: "image/jpeg", version: row.version + 1, updated_at: new Date() },
  });
  if (done.count === 0) throw conflictError(M.EDITED_MEANWHILE);
  try {
    await ctx.storage.put(row.key, jpeg, "image/jpeg");
  } catch (e) {
    await ctx.db.uploadedImage.updateMany({ where: { id: row.id, version: row.version + 1 }, data: { width: row.width, height: row.height, size_bytes: row.size_bytes, version: row.version, updated_at: row.updated_at } });
    throw e;
  }
  ctx.log.info({ uploadedImageId: row.id, version: row.version + 1 }, "uploaded image edited");
  return answer(ctx.db, await ctx.db.uploadedImage.findUniqueOrThrow({ where: { id: row.id } }));
}

/**
 * The common end of every edit: orientation applied, at most 1024 px, JPEG, EXIF without location.
 * `transform` works on the upright picture.
 */
async function finish(bytes: Uint8Array, transform: (s: Sharp) => Sharp | Promise<Sharp>): Promise<Buffer> {
  const clean = await locationFree(bytes);
  let s = sharp(clean ?? bytes, { failOn: "none" }).autoOrient();
  s = await transform(s);
  s = s.resize({ width: UPLOADED_IMAGE_MAX_SIDE, height: UPLOADED_IMAGE_MAX_SIDE, fit: "inside", withoutEnlargement: true }).flatten({ background: "#ffffff" });
  if (clean) s = s.keepExif();
  return s.jpeg({ quality: 86, mozjpeg: true }).toBuffer();
}

/** Width and height as shown (EXIF orientation applied). */
async function uprightSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const m = await sharp(bytes, { failOn: "none" }).metadata();
  const swap = (m.orientation ?? 1) >= 5;
  return { width: (swap ? m.height : m.width) ?? 0, height: (swap ? m.width : m.height) ?? 0 };
}

export async function cropUploadedImage(ctx: Ctx, viewer: UploadViewer, id: string, box: z.output<typeof CropBody>): Promise<UploadedImage> {
  return rewrite(ctx, viewer, id, async (_row, bytes) => {
    const size = await uprightSize(bytes);
    if (box.x + box.width > size.width || box.y + box.height > size.height) {
      throw unprocessableError(M.CROP_OUTSIDE, { width: size.width, height: size.height });
    }
    // autoOrient() then extract(): sharp extracts from the upright picture when extract follows it.
    return finish(bytes, (s) => s.extract({ left: box.x, top: box.y, width: box.width, height: box.height }));
  });
}

export async function rotateUploadedImage(ctx: Ctx, viewer: UploadViewer, id: string, degrees: 90 | 180 | 270 | -90): Promise<UploadedImage> {
  return rewrite(ctx, viewer, id, (_row, bytes) => finish(bytes, (s) => s.rotate(degrees)));
}

export async function removeUploadedImageBackground(ctx: Ctx, viewer: UploadViewer, id: string, background: string): Promise<UploadedImage> {
  return rewrite(ctx, viewer, id, async (_row, bytes) => {
    const cut = await garmentCutout(bytes);
    if (!cut.bbox) throw unprocessableError("Nothing could be told apart from the background in this image");
    const cutout = await sharp(Buffer.from(cut.data), { raw: { width: cut.width, height: cut.height, channels: 4 } }).png().toBuffer();
    // The cut-out is upright and at most 1024 px; the EXIF of the original is kept on it.
    return finish(bytes, async (s) => {
      const upright = await uprightSize(bytes);
      const scaled = upright.width === cut.width && upright.height === cut.height ? cutout : await sharp(cutout).resize(upright.width, upright.height).toBuffer();
      return s.composite([{ input: { create: { width: upright.width, height: upright.height, channels: 4, background } }, blend: "source" }, { input: scaled }]);
    });
  });
}

export async function replaceUploadedImage(ctx: Ctx, viewer: UploadViewer, id: string, file: Blob): Promise<UploadedImage> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // Checked like every upload before anything is touched (type by content, size, pixel count).
  const processed = await processImage(bytes, { keepExifWithoutLocation: true, maxSide: UPLOADED_IMAGE_MAX_SIDE });
  return rewrite(ctx, viewer, id, async () => processed.jpeg);
}

export async function deleteUploadedImage(ctx: Ctx, viewer: UploadViewer, id: string): Promise<{ ok: true }> {
  const row = await findOwn(ctx.db, viewer, id);
  const used = (await usesOf(ctx.db, [row])).get(row.id) ?? [];
  if (used.length) throw conflictError(M.inUse(used));
  await ctx.db.uploadedImage.deleteMany({ where: { id: row.id } });
  await ctx.storage.delete(row.key).catch((e: unknown) => ctx.log.warn({ err: e, key: row.key }, "an uploaded image's file could not be deleted"));
  return { ok: true };
}
