/**
 * Storing a shopper's or a vendor's uploaded image (a review photo, a product request's photo, an ad
 * request's image) as an UploadedImage: checked and normalised like every upload
 * (uploaded-images.server.ts: content type by magic bytes, size, pixel count, orientation applied),
 * at most 1024 px on the longer side, its EXIF kept without the location (SPEC §5, DESIGN.md
 * "Images"), stored as a .jpg under `images/<folder>/`, and recorded with its uploader and purpose.
 * The file is removed again when the record cannot be written.
 */
import crypto from "node:crypto";
import type { UploadedImage } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { UPLOADED_IMAGE_MAX_SIDE } from "~/contract/uploaded-images";
import { processUploadedBlob } from "./uploaded-images.server";

export interface StoreUploadedImageInput {
  file: Blob;
  userId: string | null;
  /** The record's purpose (review, product_request, ad_request…). */
  purpose: string;
  /** The folder under images/ (reviews, product-requests, ad-requests…). */
  folder: string;
}

export async function storeUploadedImage(ctx: Pick<AppContext, "db" | "storage">, input: StoreUploadedImageInput): Promise<UploadedImage> {
  const image = await processUploadedBlob(input.file, undefined, { keepExifWithoutLocation: true, maxSide: UPLOADED_IMAGE_MAX_SIDE });
  const key = `images/${input.folder}/${crypto.randomUUID()}.jpg`;
  const stored = await ctx.storage.put(key, image.jpeg, "image/jpeg");
  try {
    return await ctx.db.uploadedImage.create({
      data: { url: stored.url, key, width: image.width, height: image.height, content_type: "image/jpeg", size_bytes: image.jpeg.byteLength, user_id: input.userId, purpose: input.purpose },
    });
  } catch (e) {
    await ctx.storage.delete(key).catch(() => undefined);
    throw e;
  }
}
