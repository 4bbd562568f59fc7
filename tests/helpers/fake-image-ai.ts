/**
 * A fake image-AI provider for integration tests (inject with `createTestApp({ imageAi: fake })`).
 *
 * By default it supports every operation and completes inside `submit` with a 64×64 PNG stored
 * under images/ai/ through the storage it is given (createTestApp attaches the app's storage).
 * Options make it fail, answer "submitted" (the test settles the provider request later with
 * `complete()` / `failRequest()` / `setProgress()`, read by `status()`), or refuse operations.
 * Every call is recorded in `calls`.
 */
import sharp from "sharp";
import type { StoragePort } from "../../app/providers/storage.server";
import {
  IMAGE_AI_OPERATIONS,
  ImageAiProviderError,
  type ImageAiInput,
  type ImageAiOperation,
  type ImageAiOutput,
  type ImageAiProvider,
  type ImageAiProviderName,
  type ImageAiStatus,
  type ImageAiSubmission,
  type SubmitOptions,
} from "../../app/providers/image-ai/port";

export interface FakeImageAiOptions {
  name?: ImageAiProviderName;
  /** Operations it answers `supports(op) === false` for (everything else is supported). */
  unsupported?: ImageAiOperation[];
  /** Or only these operations are supported. */
  only?: ImageAiOperation[];
  /** "complete": finish inside submit (default); "submitted": answer a provider request id, settled later by the test. */
  mode?: "complete" | "submitted";
  /** submit throws ImageAiProviderError(message, retryable). `times`: only the first N submits fail (default: all). */
  fail?: { message?: string; retryable?: boolean; times?: number };
  /** Replace the output of an operation (default: one stored PNG per requested image; training: prepared photos). */
  output?: (op: ImageAiOperation, input: any, opts: SubmitOptions) => ImageAiOutput | Promise<ImageAiOutput>;
  /** Progress reports made inside submit (default: [[50, "Working"]]). */
  progress?: Array<[number, string?]>;
  storage?: StoragePort;
}

export type FakeCall =
  | { method: "submit"; op: ImageAiOperation; input: unknown; opts: SubmitOptions }
  | { method: "status"; op: ImageAiOperation; providerRequestId: string }
  | { method: "cancel"; op: ImageAiOperation; providerRequestId: string };

export interface FakeImageAi extends ImageAiProvider {
  options: FakeImageAiOptions;
  calls: FakeCall[];
  /** Submitted calls (all modes), in order. */
  readonly submits: Extract<FakeCall, { method: "submit" }>[];
  /** Provider request ids answered in "submitted" mode, in order. */
  readonly submitted: string[];
  /** createTestApp calls this with the app's storage. */
  attachStorage(storage: StoragePort): void;
  /** Settles a submitted provider request (default: the last one) as completed; the default output is computed now. */
  complete(providerRequestId?: string, output?: ImageAiOutput): Promise<ImageAiOutput>;
  failRequest(providerRequestId: string | undefined, error: string): void;
  setProgress(providerRequestId: string | undefined, progress: number, message?: string): void;
  /** The state status() answers for a provider request. */
  stateOf(providerRequestId: string): ImageAiStatus | undefined;
  reset(): void;
}

let pngCache: Promise<Uint8Array> | null = null;
/** A 64×64 PNG (a flat colour). */
export function fakePng(): Promise<Uint8Array> {
  pngCache ??= sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 90, b: 120 } } })
    .png()
    .toBuffer()
    .then((b) => new Uint8Array(b));
  return pngCache;
}

const isTraining = (op: ImageAiOperation) => op === "train-flux" || op === "train-flux-admin" || op === "train-flux-product";

export function createFakeImageAi(options: FakeImageAiOptions = {}): FakeImageAi {
  let storage: StoragePort | undefined = options.storage;
  const calls: FakeCall[] = [];
  const states = new Map<string, { op: ImageAiOperation; input: unknown; opts: SubmitOptions; status: ImageAiStatus }>();
  const submittedIds: string[] = [];
  let seq = 0;
  let failures = 0;

  async function defaultOutput(op: ImageAiOperation, input: any, opts: SubmitOptions): Promise<ImageAiOutput> {
    if (isTraining(op)) {
      const urls: string[] = Array.isArray(input?.image_urls) ? input.image_urls : [];
      return {
        images: [],
        lora_url: null,
        trigger_word: input?.trigger_word,
        prepared: urls.map((image_url) => ({ image_url, ok: true })),
        meta: { provider: "fake" },
      };
    }
    if (!storage) throw new Error("fake image AI: no storage attached (use createTestApp({ imageAi }) or options.storage)");
    const n = typeof input?.num_images === "number" ? input.num_images : 1;
    const png = await fakePng();
    const images = [];
    for (let i = 0; i < n; i++) {
      const { url } = await storage.put(`images/ai/fake-${opts.requestId}-${++seq}.png`, png, "image/png");
      images.push({ url, width: 64, height: 64, content_type: "image/png" });
    }
    return { images, seed: 42, meta: { provider: "fake" } };
  }

  const makeOutput = (op: ImageAiOperation, input: unknown, opts: SubmitOptions) =>
    fake.options.output ? fake.options.output(op, input, opts) : defaultOutput(op, input, opts);

  const pick = (id?: string) => {
    const key = id ?? submittedIds[submittedIds.length - 1];
    const state = key ? states.get(key) : undefined;
    if (!key || !state) throw new Error(`fake image AI: no submitted request ${id ?? "(none yet)"}`);
    return { key, state };
  };

  const fake: FakeImageAi = {
    get name() {
      return fake.options.name ?? "local";
    },
    options,
    calls,
    get submits() {
      return calls.filter((c): c is Extract<FakeCall, { method: "submit" }> => c.method === "submit");
    },
    get submitted() {
      return [...submittedIds];
    },
    supports(op) {
      if (fake.options.only) return fake.options.only.includes(op);
      return !(fake.options.unsupported ?? []).includes(op);
    },
    async submit<Op extends ImageAiOperation>(op: Op, input: ImageAiInput<Op>, opts: SubmitOptions): Promise<ImageAiSubmission> {
      calls.push({ method: "submit", op, input, opts });
      const f = fake.options.fail;
      if (f && (f.times === undefined || failures < f.times)) {
        failures++;
        throw new ImageAiProviderError(f.message ?? "fake provider failure", f.retryable ?? false);
      }
      for (const [p, m] of fake.options.progress ?? [[50, "Working"]]) await opts.onProgress?.(p, m);
      if ((fake.options.mode ?? "complete") === "submitted") {
        const id = `fake-req-${opts.requestId}-${++seq}`;
        states.set(id, { op, input, opts, status: { state: "queued", queuePosition: 0 } });
        submittedIds.push(id);
        return { state: "submitted", providerRequestId: id };
      }
      return { state: "completed", output: await makeOutput(op, input, opts) };
    },
    async status(op, providerRequestId) {
      calls.push({ method: "status", op, providerRequestId });
      const s = states.get(providerRequestId);
      if (!s) return { state: "failed", error: `unknown request ${providerRequestId}` };
      return s.status;
    },
    async cancel(op, providerRequestId) {
      calls.push({ method: "cancel", op, providerRequestId });
      const s = states.get(providerRequestId);
      if (s && (s.status.state === "queued" || s.status.state === "in_progress")) s.status = { state: "failed", error: "cancelled" };
    },
    async health() {
      return { ok: true, detail: "fake" };
    },
    attachStorage(s) {
      storage ??= s;
    },
    async complete(providerRequestId, output) {
      const { state } = pick(providerRequestId);
      const out = output ?? (await makeOutput(state.op, state.input, state.opts));
      state.status = { state: "completed", output: out };
      return out;
    },
    failRequest(providerRequestId, error) {
      pick(providerRequestId).state.status = { state: "failed", error };
    },
    setProgress(providerRequestId, progress, message) {
      pick(providerRequestId).state.status = { state: "in_progress", progress, message };
    },
    stateOf(providerRequestId) {
      return states.get(providerRequestId)?.status;
    },
    reset() {
      calls.length = 0;
      states.clear();
      submittedIds.length = 0;
      failures = 0;
    },
  };
  return fake;
}

/** Every operation, for tests that walk them. */
export const ALL_IMAGE_AI_OPERATIONS = IMAGE_AI_OPERATIONS;
