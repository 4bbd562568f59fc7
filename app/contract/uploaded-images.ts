/**
 * Uploaded images editing (SPEC §7 "uploaded-images editing", §5; issue 19): the photos people
 * uploaded for ad requests, reviews and product requests (stored as `.jpg` under `images/`), listed,
 * cropped, rotated, cut out of their background (the local CPU background-removal model), replaced
 * and deleted.
 *
 * An edit keeps the image's id, storage key and URL (`/uploads/images/…`), so the ad requests
 * (by id), reviews and product requests (by URL) that name it show the new picture; `version`
 * counts the edits and `versioned_url` (`url?v=<version>`) gets past a cached copy. Results are at
 * most 1024 px on the longer side, JPEG, with the EXIF kept except its location (GPS) tags.
 *
 * Who: any signed-in user (guests too: their review photos) on their own uploads; admins with
 * `media.manage` on everyone's. Another user's image answers 404. A photo of a submitted review is
 * the moderators' once sent: only admins change it. An image something still uses cannot be
 * deleted (409 naming what uses it).
 */
import { z } from "zod";
import { access, endpoint, MULTIPART_ROOM_BYTES } from "./endpoint";
import { IsoDate, Ok, RecordId as Id, RecordIdParams as IdParams } from "./common";
import { MAX_UPLOAD_BYTES } from "./internal-media";

export const UPLOADED_IMAGES_PAGE_SIZE = 30;
/** Longest side of an edited image (SPEC §5: images are at most 1024 px). */
export const UPLOADED_IMAGE_MAX_SIDE = 1024;

export const UploadedImageMessages = {
  NOT_FOUND: "Uploaded image not found",
  FILE_MISSING: "The uploaded image's file is missing",
  CROP_OUTSIDE: "The crop must lie inside the image",
  EDITED_MEANWHILE: "The image was changed at the same time: load it again and retry",
  REVIEW_LOCKED: "This photo belongs to a submitted review: only the moderators can change it now",
  ADMIN_ONLY_FILTER: "Only admins with media.manage can list other people's uploads",
  inUse: (what: string[]) => `This image is still used by ${what.join(", ")}: remove it there first`,
} as const;

export const UploadedImageSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** The URL with `?v=<version>`: use it to show the image right after an edit. */
  versioned_url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  /** What it was uploaded for: ad_request, review, product_request, … */
  purpose: z.string(),
  user_id: z.string().nullable(),
  version: z.number().int(),
  /** What names it: "ad request", "review", "product request" (one entry per kind). */
  used_by: z.array(z.string()),
  created_at: IsoDate,
  updated_at: IsoDate.nullable(),
});
export type UploadedImage = z.output<typeof UploadedImageSchema>;


export const UploadedImagesQuery = z.object({
  purpose: z.string().trim().min(1).max(60).optional(),
  userId: Id.optional().describe("admins with media.manage: one user's uploads"),
  all: z
    .union([z.boolean(), z.enum(["true", "false"])])
    .transform((v) => v === true || v === "true")
    .optional()
    .describe("admins with media.manage: everyone's uploads (default: the caller's own)"),
  cursor: z.string().trim().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(UPLOADED_IMAGES_PAGE_SIZE),
});

const Px = z.number("must be a number").int("must be a whole number of pixels").min(0);
export const CropBody = z.object({
  x: Px,
  y: Px,
  width: Px.min(1, "must be at least 1 pixel"),
  height: Px.min(1, "must be at least 1 pixel"),
});
export const RotateBody = z.object({
  degrees: z.union([z.literal(90), z.literal(180), z.literal(270), z.literal(-90)], { message: "degrees must be 90, 180, 270 or -90 (clockwise)" }),
});
export const RemoveBackgroundBody = z
  .object({ background: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #rrggbb").default("#ffffff") })
  .default({ background: "#ffffff" });

export const ReplaceBody = z
  .instanceof(FormData, { message: 'Send the new image as multipart/form-data in a "file" field' })
  .transform((fd, ctx): unknown => {
    const file = fd.get("file") ?? fd.get("image");
    if (!(file instanceof Blob)) {
      ctx.issues.push({ code: "custom", message: 'file is required: attach the image in a "file" field', input: file });
      return z.NEVER;
    }
    return { file };
  })
  .pipe(z.object({ file: z.instanceof(Blob) }));

const tags = ["Uploaded images"] as const;

export const uploadedImagesEndpoints = {
  uploadedImagesList: endpoint({
    method: "GET",
    path: "/uploaded-images",
    summary: "The caller's uploaded images, newest first (purpose filter, cursor paging); admins with media.manage: all=true or userId for others'",
    tags,
    access: access.user,
    query: UploadedImagesQuery,
    response: z.object({ items: z.array(UploadedImageSchema), nextCursor: z.string().nullable() }),
  }),
  uploadedImagesGet: endpoint({
    method: "GET",
    path: "/uploaded-images/{id}",
    summary: "One uploaded image (own, or any for admins with media.manage; else 404)",
    tags,
    access: access.user,
    params: IdParams,
    response: UploadedImageSchema,
  }),
  uploadedImagesCrop: endpoint({
    method: "POST",
    path: "/uploaded-images/{id}/crop",
    summary: "Crop to a rectangle in pixels of the image as shown (422 when it is not inside); same id and URL, version + 1",
    tags,
    access: access.user,
    rateLimit: "image",
    params: IdParams,
    body: CropBody,
    response: UploadedImageSchema,
  }),
  uploadedImagesRotate: endpoint({
    method: "POST",
    path: "/uploaded-images/{id}/rotate",
    summary: "Rotate clockwise by 90, 180 or 270 degrees (-90: anticlockwise); same id and URL, version + 1",
    tags,
    access: access.user,
    rateLimit: "image",
    params: IdParams,
    body: RotateBody,
    response: UploadedImageSchema,
  }),
  uploadedImagesRemoveBackground: endpoint({
    method: "POST",
    path: "/uploaded-images/{id}/remove-background",
    summary: "Cut the subject out of its background with the local background-removal model (ISNet, on the CPU) and put it on a plain colour (default white); same id and URL, version + 1",
    tags,
    access: access.user,
    rateLimit: "image",
    params: IdParams,
    body: RemoveBackgroundBody,
    response: UploadedImageSchema,
  }),
  uploadedImagesReplace: endpoint({
    method: "PUT",
    path: "/uploaded-images/{id}",
    summary: "Replace the picture with a new file (multipart `file`: JPEG, PNG or WebP, at most 10 MB and 40 megapixels), keeping the id and URL",
    tags,
    access: access.user,
    rateLimit: "image",
    params: IdParams,
    body: ReplaceBody,
    maxBodyBytes: MAX_UPLOAD_BYTES + MULTIPART_ROOM_BYTES,
    multipart: { file: { kind: "file", required: true, description: "JPEG, PNG or WebP, at most 10 MB and 40 megapixels" } },
    response: UploadedImageSchema,
  }),
  uploadedImagesDelete: endpoint({
    method: "DELETE",
    path: "/uploaded-images/{id}",
    summary: "Delete an uploaded image and its file; 409 while an ad request, a review or a product request uses it",
    tags,
    access: access.user,
    params: IdParams,
    response: Ok,
  }),
};
