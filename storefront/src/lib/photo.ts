/**
 * Photo search input checks (pure): which files are accepted and the messages shoppers see.
 * The server checks again (type, size, pixel count); these checks only save a wasted upload.
 */
import { PHOTO_MAX_INPUT_BYTES } from "./constants";

/** Types the browser can decode and crop. */
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

export interface FileLike {
  name: string;
  type: string;
  size: number;
}

function extension(name: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1].toLowerCase() : "";
}

/** The type of a file, from its MIME type or (when the browser gave none) its extension. */
export function photoType(file: FileLike): string {
  const t = file.type.toLowerCase();
  if (t) return t === "image/jpg" || t === "image/pjpeg" ? "image/jpeg" : t;
  const ext = extension(file.name);
  if (ext === "jpg" || ext === "jpeg") return "image/jpeg";
  if (ext === "png") return "image/png";
  if (ext === "webp") return "image/webp";
  if (ext === "heic" || ext === "heif") return `image/${ext}`;
  return "";
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes >= 10 * 1024 * 1024 ? 0 : 1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Why a file cannot be used, or null when it can. */
export function validatePhotoFile(file: FileLike, maxBytes: number = PHOTO_MAX_INPUT_BYTES): string | null {
  const type = photoType(file);
  if (type === "image/heic" || type === "image/heif") {
    return "HEIC photos cannot be read in this browser. Choose a JPEG, PNG or WebP photo (on iPhone: Settings › Camera › Formats › Most Compatible).";
  }
  if (!(PHOTO_TYPES as readonly string[]).includes(type)) {
    return `“${file.name || "This file"}” is not a photo we can read. Choose a JPEG, PNG or WebP image.`;
  }
  if (file.size === 0) return `“${file.name || "This file"}” is empty. Choose another photo.`;
  if (file.size > maxBytes) return `This photo is too large (${formatBytes(file.size)}). Choose one under ${formatBytes(maxBytes)}.`;
  return null;
}
