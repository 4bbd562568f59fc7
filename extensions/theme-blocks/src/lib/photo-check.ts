/**
 * Which photos the blocks accept before compressing and uploading them: the storefront's own
 * rules (storefront/src/lib/photo.ts: JPEG, PNG or WebP, not empty, at most 25 MB before
 * compression), with the message chosen by the block from its locale texts. The server checks
 * again (type, size, pixel count).
 */
import { PHOTO_MAX_INPUT_BYTES } from "../../../../storefront/src/lib/constants";
import { PHOTO_TYPES, photoType } from "../../../../storefront/src/lib/photo";

export type PhotoProblem = "heic" | "type" | "empty" | "size";

/** Why a file cannot be used, or null. */
export function photoProblem(file: { name: string; type: string; size: number }, maxBytes = PHOTO_MAX_INPUT_BYTES): PhotoProblem | null {
  const type = photoType(file);
  if (type === "image/heic" || type === "image/heif") return "heic";
  if (!(PHOTO_TYPES as readonly string[]).includes(type)) return "type";
  if (file.size === 0) return "empty";
  if (file.size > maxBytes) return "size";
  return null;
}
