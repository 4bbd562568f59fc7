/**
 * Checking and normalising uploaded images, shared by every upload (internal media, photo search,
 * review photos; DESIGN.md "Images").
 *
 * Files are checked by content (JPEG, PNG or WebP magic bytes; the name and the declared type are
 * not trusted), size (10 MB) and pixel count (40 MP); the EXIF orientation is applied, every
 * metadata block (EXIF with any GPS position, ICC, XMP) is dropped, and the result is a JPEG the
 * caller stores under `images/…/<uuid>.jpg`.
 */
import sharp, { type Metadata } from "sharp";
import { ApiError, unprocessable } from "~/api/errors.server";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS } from "~/contract/internal-media";
import { withoutLocation } from "~/lib/exif-location";
import { dominantLab, type Lab } from "./color.server";

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

export const VIDEO_REFUSAL = "Video uploads are not supported yet: upload a JPEG, PNG or WebP image";
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** 413 with the file's size when it is over the limit (checked before reading a Blob's bytes). */
export function assertUploadSize(bytes: number, maxBytes: number = MAX_UPLOAD_BYTES): void {
  if (bytes > maxBytes) throw new ApiError(413, `The file is ${mb(bytes)}; the maximum is ${Math.round(maxBytes / 1024 / 1024)} MB`);
}

export interface ProcessedImage {
  jpeg: Buffer;
  width: number;
  height: number;
  color: Lab;
}

export interface ProcessOptions {
  /**
   * Keep the EXIF block without its location (uploaded-image edits and replacements, DESIGN.md
   * "Images"); by default every metadata block is dropped.
   */
  keepExifWithoutLocation?: boolean;
  /** Longest side in pixels (never enlarged); unlimited by default. */
  maxSide?: number;
}

/**
 * The bytes with their EXIF block's GPS tags emptied in place (same length, so the block stays
 * where the container expects it); null when the block cannot be found or read: then the caller
 * drops EXIF altogether rather than keep a position.
 */
export async function locationFree(bytes: Uint8Array): Promise<Uint8Array | null> {
  const exif = (await sharp(bytes, { limitInputPixels: false }).metadata()).exif;
  if (!exif) return bytes;
  const clean = withoutLocation(exif);
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(exif);
  if (!clean || at < 0) return null;
  const out = new Uint8Array(bytes);
  out.set(clean, at);
  return out;
}

/** Checks and normalises an uploaded image; throws ApiErrors a caller can show as they are. */
export async function processImage(bytes: Uint8Array, opts: ProcessOptions = {}): Promise<ProcessedImage> {
  assertUploadSize(bytes.byteLength);
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
    const source = opts.keepExifWithoutLocation ? await locationFree(bytes) : null;
    let pipeline = sharp(source ?? bytes, { limitInputPixels: MAX_UPLOAD_PIXELS }).rotate();
    if (opts.maxSide) pipeline = pipeline.resize({ width: opts.maxSide, height: opts.maxSide, fit: "inside", withoutEnlargement: true });
    pipeline = pipeline.flatten({ background: "#ffffff" });
    if (source) pipeline = pipeline.keepExif();
    const { data, info } = await pipeline.jpeg({ quality: 86, mozjpeg: true }).toBuffer({ resolveWithObject: true });
    const small = await sharp(data).resize(64, 64, { fit: "inside" }).removeAlpha().raw().toBuffer();
    return { jpeg: data, width: info.width, height: info.height, color: dominantLab(small, 3) };
  } catch {
    throw unprocessable(`The ${kind.toUpperCase()} image could not be decoded; the file may be damaged`);
  }
}

/** A Blob (multipart upload) → checked, normalised JPEG. */
export async function processUploadedBlob(file: Blob, maxBytes: number = MAX_UPLOAD_BYTES, opts: ProcessOptions = {}): Promise<ProcessedImage> {
  assertUploadSize(file.size, maxBytes);
  return processImage(new Uint8Array(await file.arrayBuffer()), opts);
}
