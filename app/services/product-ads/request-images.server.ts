/**
 * Images a vendor (or the ads team) uploads for an ad request: checked, normalised, stored and
 * recorded as an UploadedImage of the uploader (uploaded-image-store.server.ts), whose id the request then names
 * (`uploaded_image_ids`; the requests service accepts images of the vendor's users and of admins).
 */
import type { AppContext } from "~/context.server";
import { storeUploadedImage } from "~/services/uploaded-image-store.server";

export const AD_REQUEST_IMAGE_PURPOSE = "ad_request";

export async function storeAdRequestImage(ctx: Pick<AppContext, "db" | "storage">, file: Blob, userId: string): Promise<{ id: string; url: string; width: number | null; height: number | null }> {
  const row = await storeUploadedImage(ctx, { file, userId, purpose: AD_REQUEST_IMAGE_PURPOSE, folder: "ad-requests" });
  return { id: row.id, url: row.url, width: row.width, height: row.height };
}
