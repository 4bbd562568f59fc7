/**
 * Images a vendor (or the ads team) uploads for an ad request: checked and normalised like every
 * upload (uploaded-images.server.ts: magic bytes, size, re-encoded JPEG without metadata), stored,
 * and recorded as an UploadedImage of the uploader, whose id the request then names
 * (`uploaded_image_ids`; the requests service accepts images of the vendor's users and of admins).
 */
import crypto from "node:crypto";
import type { AppContext } from "~/context.server";
import { processUploadedBlob } from "~/services/uploaded-images.server";

export const AD_REQUEST_IMAGE_PURPOSE = "ad_request";

export async function storeAdRequestImage(ctx: Pick<AppContext, "db" | "storage">, file: Blob, userId: string): Promise<{ id: string; url: string; width: number | null; height: number | null }> {
  const image = await processUploadedBlob(file);
  const key = `images/ad-requests/${crypto.randomUUID()}.jpg`;
  const stored = await ctx.storage.put(key, image.jpeg, "image/jpeg");
  try {
    const row = await ctx.db.uploadedImage.create({
      data: { url: stored.url, key, width: image.width, height: image.height, content_type: "image/jpeg", size_bytes: image.jpeg.byteLength, user_id: userId, purpose: AD_REQUEST_IMAGE_PURPOSE },
    });
    return { id: row.id, url: row.url, width: row.width, height: row.height };
  } catch (e) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw e;
  }
}
