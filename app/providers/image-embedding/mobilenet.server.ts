/**
 * MobileNetV2 as shipped inside the nsfwjs 4.3.0 package (`dist/models/mobilenet_v2`: the model
 * topology and its uint8-quantised weights as base64, 3.5 MB), cut at the layer `flatten_1`
 * (global average pool, 1280 values). Loaded from disk on first use, once per process; no network.
 */
import path from "node:path";
import { createRequire } from "node:module";
import type { LayersModel, io } from "@tensorflow/tfjs";
import { packageDir, tensorflow } from "./tf-runtime.server";

const require = createRequire(import.meta.url);

export const MOBILENET_LAYER = "flatten_1";
export const MOBILENET_INPUT = 224;
export const MOBILENET_FEATURES = 1280;

interface ModelJson {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: io.WeightsManifestEntry[] }[];
}

let model: Promise<{ cut: LayersModel; loadMs: number }> | null = null;

/** The model files of nsfwjs (UMD bundles exporting the JSON and the base64 weight shards). */
function readArtifacts(): io.ModelArtifacts {
  const dir = path.join(packageDir("nsfwjs"), "dist", "models", "mobilenet_v2");
  const json = require(path.join(dir, "model.min.js")) as ModelJson;
  const weightSpecs: io.WeightsManifestEntry[] = [];
  const buffers: Buffer[] = [];
  for (const group of json.weightsManifest) {
    for (const p of group.paths) buffers.push(Buffer.from(require(path.join(dir, `${p}.min.js`)) as string, "base64"));
    weightSpecs.push(...group.weights);
  }
  const all = Buffer.concat(buffers);
  return {
    modelTopology: json.modelTopology,
    weightSpecs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer,
    format: "layers-model",
  };
}

export function loadMobileNet(): Promise<{ cut: LayersModel; loadMs: number }> {
  model ??= (async () => {
    const started = performance.now();
    const tf = await tensorflow();
    const full = await tf.loadLayersModel({ load: async () => readArtifacts() });
    const cut = tf.model({ inputs: full.inputs, outputs: full.getLayer(MOBILENET_LAYER).output });
    // One run compiles the kernels, so the first real image is not slower than the others.
    tf.tidy(() => cut.predict(tf.zeros([1, MOBILENET_INPUT, MOBILENET_INPUT, 3])));
    return { cut, loadMs: Math.round(performance.now() - started) };
  })().catch((e: unknown) => {
    model = null;
    throw e;
  });
  return model;
}

/** 1280 features of a 224×224 RGB image (bytes 0–255; scaled to 0–1 as nsfwjs does). */
export async function mobileNetFeatures(rgb224: Uint8Array): Promise<Float32Array> {
  if (rgb224.length !== MOBILENET_INPUT * MOBILENET_INPUT * 3) throw new Error("MobileNetV2 needs a 224×224 RGB image");
  const { cut } = await loadMobileNet();
  const tf = await tensorflow();
  const out = tf.tidy(() => {
    const input = tf.tensor4d(Float32Array.from(rgb224, (v) => v / 255), [1, MOBILENET_INPUT, MOBILENET_INPUT, 3]);
    return cut.predict(input) as import("@tensorflow/tfjs").Tensor;
  });
  try {
    const data = (await out.data()) as Float32Array;
    if (data.length !== MOBILENET_FEATURES) throw new Error(`Layer ${MOBILENET_LAYER} gave ${data.length} values, expected ${MOBILENET_FEATURES}`);
    return data;
  } finally {
    out.dispose();
  }
}
