/**
 * Helpers of the AI image tools screen (app/routes/app.ai-tools.tsx): uploads of source photos
 * and the fill tool's mask (a box drawn on the image becomes a black PNG with the box in white).
 */
import crypto from "node:crypto";
import sharp from "sharp";
import type { AppContext } from "~/context.server";
import { invalid } from "~/lib/domain-errors";
import { readImageUrl, toDomainImageError } from "~/lib/image-source.server";
import { processUploadedBlob } from "./uploaded-images.server";

export const AI_TOOLS_PREFIX = "images/ai-tools/";

export interface ToolBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A checked, normalised (JPEG, metadata dropped) upload stored under `prefix` (images/ai-tools/); answers its URL. */
export async function storeToolUpload(ctx: Pick<AppContext, "storage">, file: Blob, prefix: string = AI_TOOLS_PREFIX): Promise<string> {
  const image = await processUploadedBlob(file);
  return (await ctx.storage.put(`${prefix}${crypto.randomUUID()}.jpg`, new Uint8Array(image.jpeg), "image/jpeg")).url;
}

/** A black PNG the size of the image with `box` (image pixels, clamped to the image) in white. */
export async function maskForBox(ctx: Pick<AppContext, "storage" | "config">, imageUrl: string, box: ToolBox): Promise<string> {
  const bytes = await readImageUrl(ctx, imageUrl).catch(toDomainImageError);
  const meta = await sharp(bytes).metadata().catch(() => ({ width: 0, height: 0 }));
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) throw invalid("The image could not be read");
  const left = Math.max(0, Math.min(w - 1, Math.round(box.x)));
  const top = Math.max(0, Math.min(h - 1, Math.round(box.y)));
  const width = Math.max(1, Math.min(w - left, Math.round(box.width)));
  const height = Math.max(1, Math.min(h - top, Math.round(box.height)));
  const white = await sharp({ create: { width, height, channels: 3, background: "#ffffff" } }).png().toBuffer();
  const mask = await sharp({ create: { width: w, height: h, channels: 3, background: "#000000" } }).composite([{ input: white, left, top }]).png().toBuffer();
  return (await ctx.storage.put(`${AI_TOOLS_PREFIX}masks/${crypto.randomUUID()}.png`, new Uint8Array(mask), "image/png")).url;
}
