/**
 * One TensorFlow.js runtime per process, on the WebAssembly backend (@tensorflow/tfjs-backend-wasm:
 * @tensorflow/tfjs-node would download libtensorflow, which these machines cannot). The .wasm
 * files are read from the package folder on disk. MobileNetV2 (embeddings) and human (faces)
 * share it: human.node-wasm.js requires the same @tensorflow/tfjs-core.
 *
 * Note: inference runs on the calling thread (the wasm backend has no worker pool in Node), so a
 * model run holds the event loop for its duration (≈ 0.1 s for MobileNetV2 at 224×224).
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

type Tf = typeof import("@tensorflow/tfjs");
let runtime: Promise<Tf> | null = null;

/**
 * The folder of an installed package, found along Node's module search path from this module
 * (works for packages whose exports map hides their files or that have no entry point).
 */
export function packageDir(name: string): string {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = path.join(base, name);
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
  }
  throw new Error(`The package ${name} is not installed (run npm install)`);
}

export function wasmDir(): string {
  return `${path.join(packageDir("@tensorflow/tfjs-backend-wasm"), "dist")}${path.sep}`;
}

export function tensorflow(): Promise<Tf> {
  runtime ??= (async () => {
    const tf = await import("@tensorflow/tfjs");
    const wasm = await import("@tensorflow/tfjs-backend-wasm");
    if (tf.getBackend() !== "wasm") {
      wasm.setWasmPaths(wasmDir());
      if (!(await tf.setBackend("wasm"))) throw new Error("TensorFlow.js could not start its WebAssembly backend");
    }
    await tf.ready();
    return tf;
  })().catch((e: unknown) => {
    runtime = null;
    throw e;
  });
  return runtime;
}

/**
 * Runs `fn` with a fetch that serves file:// URLs from disk (other URLs go to the real fetch): human
 * loads its models with fetch, which in Node does not read files.
 */
export async function withFileFetch<T>(fn: () => Promise<T>): Promise<T> {
  const real = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith("file://")) {
      try {
        const data = await fs.promises.readFile(new URL(url));
        return new Response(new Uint8Array(data), { status: 200, headers: { "content-type": url.endsWith(".json") ? "application/json" : "application/octet-stream" } });
      } catch {
        return new Response("not found", { status: 404 });
      }
    }
    return real(input, init);
  }) as typeof fetch;
  try {
    return await fn();
  } finally {
    globalThis.fetch = real;
  }
}
