/**
 * The local image embedding adapter (CPU, offline). See ./features.ts for the vector layout:
 * MobileNetV2 `flatten_1` of the grey foreground crop + silhouette grid + Lab colour histogram,
 * L2-normalised, model id IMAGE_EMBEDDING_MODEL. Faces: human's blazeface (./faces.server.ts).
 * Models load lazily on first use (≈ 1 s each) and stay loaded for the process.
 */
import sharp from "sharp";
import { detectFacesRgb, FACE_MODEL, loadFaceDetector } from "./faces.server";
import { composeImageVector, IMAGE_EMBEDDING_DIMENSIONS, IMAGE_EMBEDDING_MODEL, prepareImage } from "./features";
import { loadMobileNet, mobileNetFeatures } from "./mobilenet.server";
import type { ImageEmbeddingPort } from "./port";

/** Faces are looked for on an image of at most this many pixels on its longer side. */
const FACE_MAX_SIDE = 1024;

export const LOCAL_LOGO_REASON =
  "Logo detection is not available with the local image provider: no offline logo model exists; it needs a hosted image-AI provider";

export function createLocalImageEmbedding(): ImageEmbeddingPort {
  return {
    provider: "local",
    model: IMAGE_EMBEDDING_MODEL,
    dimensions: IMAGE_EMBEDDING_DIMENSIONS,

    async embed(image) {
      const started = performance.now();
      const prepared = await prepareImage(image);
      const prepareMs = performance.now() - started;
      const cnn = await mobileNetFeatures(prepared.cnnInput);
      const modelMs = performance.now() - started - prepareMs;
      return {
        vector: composeImageVector({ cnn, shape: prepared.shape, colour: prepared.colour }),
        model: IMAGE_EMBEDDING_MODEL,
        dimensions: IMAGE_EMBEDDING_DIMENSIONS,
        foreground: prepared.foreground,
        timings: { prepareMs: Math.round(prepareMs), modelMs: Math.round(modelMs) },
      };
    },

    async detectFaces(image) {
      const { data, info } = await sharp(image, { limitInputPixels: 100_000_000 })
        .rotate()
        .resize(FACE_MAX_SIDE, FACE_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
        .flatten({ background: "#ffffff" })
        .removeAlpha()
        .toColourspace("srgb")
        .raw()
        .toBuffer({ resolveWithObject: true });
      const faces = await detectFacesRgb(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
      // Boxes in the pixels of the oriented original (the detector saw a downscaled copy).
      const meta = await sharp(image).metadata();
      const rotated = (meta.orientation ?? 1) >= 5;
      const ow = (rotated ? meta.height : meta.width) ?? info.width;
      const oh = (rotated ? meta.width : meta.height) ?? info.height;
      const s = ow / info.width;
      const scaled = faces.map((f) => ({ ...f, x: Math.round(f.x * s), y: Math.round(f.y * s), width: Math.round(f.width * s), height: Math.round(f.height * s) }));
      return { faces: scaled, width: ow, height: oh, model: FACE_MODEL };
    },

    logoDetection: { supported: false, provider: "local", reason: LOCAL_LOGO_REASON },

    async detectLogos() {
      return [];
    },

    async warmup() {
      const started = performance.now();
      await loadMobileNet();
      await loadFaceDetector();
      return { ms: Math.round(performance.now() - started) };
    },
  };
}
