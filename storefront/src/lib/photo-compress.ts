/**
 * Preparing a photo for the photo search, in the browser: crop (canvas), then compress to at most
 * 1024 px on the longer side as JPEG with browser-image-compression, KEEPING the EXIF data
 * (SPEC §5; `preserveExif`). A crop is drawn on a canvas, which drops EXIF, so the original's EXIF
 * block is copied onto the cropped JPEG first (orientation reset to 1, since the browser already
 * applied it when drawing).
 */
import type imageCompressionFn from "browser-image-compression";
import { IMAGE_MAX_DIMENSION } from "./constants";
import { fitWithin, isFullRect, type Rect, type Size } from "./crop";
import { photoType } from "./photo";

/** Runtime helper of browser-image-compression that its type definitions leave out. */
type WithExifCopy = typeof imageCompressionFn & { copyExifWithoutOrientation?: (source: Blob, target: Blob) => Promise<Blob> };

/** The library (50 KB) loads when a photo is first prepared, not with the pages that offer an upload. */
async function imageCompression(): Promise<WithExifCopy> {
  return (await import("browser-image-compression")).default;
}

/** Crops are drawn at most this large before compression (memory on phones). */
const CROP_CANVAS_MAX = 4096;

export function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = "async";
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("This photo could not be read. Choose another JPEG, PNG or WebP image."));
    img.src = url;
  });
}

async function cropToJpeg(file: File, crop: Rect): Promise<File> {
  const url = URL.createObjectURL(file);
  try {
    const img = await loadImage(url);
    const out = fitWithin({ width: crop.w, height: crop.h }, CROP_CANVAS_MAX);
    const canvas = document.createElement("canvas");
    canvas.width = out.width;
    canvas.height = out.height;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("This browser cannot crop photos.");
    ctx.drawImage(img, crop.x, crop.y, crop.w, crop.h, 0, 0, out.width, out.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.95));
    if (!blob) throw new Error("The cropped photo could not be made.");
    let result: Blob = blob;
    const copy = (await imageCompression()).copyExifWithoutOrientation;
    if (photoType(file) === "image/jpeg" && copy) {
      try {
        result = await copy(file, blob);
      } catch {
        /* no EXIF block in the original */
      }
    }
    return new File([result], "photo.jpg", { type: "image/jpeg", lastModified: file.lastModified });
  } finally {
    URL.revokeObjectURL(url);
  }
}

export interface PreparedPhoto {
  file: File;
  /** Bytes before and after. */
  originalBytes: number;
  bytes: number;
}

/**
 * The photo to upload: cropped (unless the crop is the whole image), at most 1024 px on the
 * longer side, JPEG named photo.jpg, EXIF kept. `onProgress` gets 0–100.
 */
export async function preparePhoto(file: File, crop: Rect | null, size: Size, onProgress?: (percent: number) => void, signal?: AbortSignal): Promise<PreparedPhoto> {
  const source = crop && !isFullRect(crop, size) ? await cropToJpeg(file, crop) : file;
  const compress = await imageCompression();
  const compressed = await compress(source, {
    maxWidthOrHeight: IMAGE_MAX_DIMENSION,
    preserveExif: true,
    // The web worker would load the library from a CDN; the main thread is fine for one photo.
    useWebWorker: false,
    fileType: "image/jpeg",
    initialQuality: 0.85,
    onProgress,
    signal,
  });
  return { file: new File([compressed], "photo.jpg", { type: "image/jpeg", lastModified: Date.now() }), originalBytes: file.size, bytes: compressed.size };
}
