/**
 * fal.ai adapter of the image-AI port, on fal's queue API through @fal-ai/client:
 *
 *   submit   POST {FAL_BASE_URL}/{endpoint}?fal_webhook=<url>   → {request_id, status_url, …}
 *   status   GET  {FAL_BASE_URL}/{app}/requests/{id}/status?logs=1 → IN_QUEUE | IN_PROGRESS | COMPLETED
 *   result   GET  {FAL_BASE_URL}/{app}/requests/{id}            → the endpoint's output (or its error)
 *   cancel   PUT  {FAL_BASE_URL}/{app}/requests/{id}/cancel
 *   Authorization: Key <FAL_KEY>
 *
 * `app` is the endpoint's owner/alias (fal-ai/flux-lora for fal-ai/flux-lora/image-to-image).
 * FAL_BASE_URL (default https://queue.fal.run) replaces the client's queue origin through its
 * request middleware, so tests and the benchmark run against tests/helpers/fal-server.ts.
 *
 * Which endpoint serves which operation, and the input mapping: ./fal-endpoints.ts (table there).
 * Training zips the photos (fflate, stored, not recompressed: they are JPEGs/PNGs), puts the zip
 * in our storage under images/ai/training/<requestId>.zip and gives fal its public URL as
 * `images_data_url`. Image refs that are our /uploads/ paths are made absolute with `publicUrl`
 * (APP_URL must then be reachable from fal).
 *
 * Errors → ImageAiProviderError: 401/403 (bad key), 400/404/422 (refused input, with fal's
 * detail) are final; 429, 5xx, network failures and timeouts are retryable. The client's own
 * retry loop (up to 5 attempts with 1–30 s sleeps) is cut short by default (`clientRetries`):
 * the caller — the image-ai job and its polling — owns retries and their backoff, and a job must
 * not sleep for half a minute inside one call.
 *
 * Webhooks: ./fal-webhook.ts (parse, token and signature verification), re-exported here.
 */
import { ApiError, createFalClient, type FalClient, type QueueStatus, type RequestLog } from "@fal-ai/client";
import { zipSync } from "fflate";
import type { Logger } from "~/lib/logger.server";
import type { StoragePort } from "~/providers/storage.server";
import { FAL_APPS, FAL_TRAINING_OPERATIONS, falCallFor } from "./fal-endpoints";
import { describeFalDetail } from "./fal-webhook";
import {
  IMAGE_AI_OPERATIONS,
  ImageAiOutput,
  ImageAiProviderError,
  type ImageAiImage,
  type ImageAiInput,
  type ImageAiOperation,
  type ImageAiProvider,
  type ImageAiStatus,
  type ImageAiSubmission,
  type SubmitOptions,
} from "./port";

export { FAL_APPS, falCallFor } from "./fal-endpoints";
export { falWebhookToken, falWebhookUrl, fetchFalJwks, parseFalWebhook, verifyFalWebhook, verifyFalWebhookSignature, type FalWebhook } from "./fal-webhook";

export const DEFAULT_FAL_BASE_URL = "https://queue.fal.run";
const FAL_QUEUE_ORIGIN = "https://queue.fal.run";

export interface FalImageAiDeps {
  credentials: string;
  /** FAL_BASE_URL: fal's queue origin (default https://queue.fal.run). */
  baseUrl?: string;
  storage: StoragePort;
  log: Logger;
  /** /uploads/… → absolute URL. */
  publicUrl: (ref: string) => string;
  /** Deadline of one HTTP call to fal (default 30 s). */
  timeoutMs?: number;
  /** Deadline of fetching one training photo given by absolute URL (default 30 s). */
  photoTimeoutMs?: number;
  /** Let @fal-ai/client retry 429/5xx itself with its backoff (default false: the caller retries). */
  clientRetries?: boolean;
  fetch?: typeof fetch;
}

const UPLOADS = "/uploads/";

/** A storage key from one of our /uploads/ paths (query and fragment dropped), or null. */
export function storageKeyFromRef(ref: string): string | null {
  if (!ref.startsWith(UPLOADS)) return null;
  const key = decodeURIComponent(ref.slice(UPLOADS.length).split(/[?#]/)[0]);
  return key && !key.includes("..") ? key : null;
}

function sniffImage(bytes: Uint8Array): { ext: string; type: string } | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { ext: "jpg", type: "image/jpeg" };
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return { ext: "png", type: "image/png" };
  if (bytes[0] === 0x52 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x46 && bytes[8] === 0x57 && bytes[9] === 0x45) return { ext: "webp", type: "image/webp" };
  return null;
}

/** Progress 0–100 from fal's logs ("step 120/1000", "45%"), the latest that says one. */
export function progressFromLogs(logs: RequestLog[] | undefined): { progress?: number; message?: string } {
  if (!logs || logs.length === 0) return {};
  const message = logs[logs.length - 1]?.message?.trim().slice(0, 300) || undefined;
  for (let i = logs.length - 1; i >= 0; i--) {
    const m = logs[i]?.message ?? "";
    const pct = /(\d{1,3}(?:\.\d+)?)\s?%/.exec(m);
    if (pct) return { progress: Math.max(0, Math.min(99, Math.round(Number(pct[1])))), message };
    const frac = /(\d+)\s*\/\s*(\d+)/.exec(m);
    if (frac && Number(frac[2]) > 0 && Number(frac[1]) <= Number(frac[2])) return { progress: Math.min(99, Math.round((100 * Number(frac[1])) / Number(frac[2]))), message };
  }
  return { message };
}

const FalImage = (v: unknown): ImageAiImage | null => {
  if (!v || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  if (typeof o.url !== "string" || !o.url) return null;
  const img: ImageAiImage = { url: o.url };
  if (typeof o.width === "number" && Number.isInteger(o.width) && o.width > 0) img.width = o.width;
  if (typeof o.height === "number" && Number.isInteger(o.height) && o.height > 0) img.height = o.height;
  if (typeof o.content_type === "string") img.content_type = o.content_type;
  return img;
};

/**
 * A fal endpoint's output → ImageAiOutput. `images[]` or a single `image`; training's
 * `diffusers_lora_file.url` → lora_url; `seed`/`used_seed` → seed. Throws a non-retryable
 * ImageAiProviderError when the payload has nothing usable for the operation.
 */
export function falOutputFromPayload(op: ImageAiOperation, payload: unknown, input?: { trigger_word?: string }): ImageAiOutput {
  if (!payload || typeof payload !== "object") throw new ImageAiProviderError(`fal returned no result for ${op}`, false);
  const p = payload as Record<string, unknown>;
  const meta: Record<string, unknown> = { provider: "fal", app: FAL_APPS[op] };
  if (FAL_TRAINING_OPERATIONS.has(op)) {
    const lora = p.diffusers_lora_file as { url?: unknown } | undefined;
    if (!lora || typeof lora.url !== "string" || !lora.url) throw new ImageAiProviderError(`fal training finished without LoRA weights (diffusers_lora_file)`, false);
    const config = p.config_file as { url?: unknown } | undefined;
    if (config && typeof config.url === "string") meta.config_file = config.url;
    const debug = p.debug_preprocessed_output as { url?: unknown } | undefined;
    if (debug && typeof debug.url === "string") meta.debug_preprocessed_output = debug.url;
    return ImageAiOutput.parse({ images: [], lora_url: lora.url, ...(input?.trigger_word ? { trigger_word: input.trigger_word } : {}), meta });
  }
  const list = Array.isArray(p.images) ? p.images : p.image ? [p.image] : [];
  const images = list.map(FalImage).filter((i): i is ImageAiImage => i !== null);
  if (images.length === 0) throw new ImageAiProviderError(`fal returned no image for ${op}`, false);
  const seed = typeof p.seed === "number" ? p.seed : typeof p.used_seed === "number" ? p.used_seed : undefined;
  if (typeof p.description === "string" && p.description) meta.description = p.description;
  if (Array.isArray(p.has_nsfw_concepts)) meta.has_nsfw_concepts = p.has_nsfw_concepts;
  if (typeof p.prompt === "string") meta.prompt = p.prompt;
  return ImageAiOutput.parse({ images, ...(seed !== undefined && Number.isFinite(seed) ? { seed } : {}), meta });
}

const NO_RETRY = Symbol("fal-no-client-retry");
const isAbort = (e: unknown) => e instanceof Error && (e.name === "AbortError" || e.name === "TimeoutError");

/** An ImageAiProviderError that keeps fal's HTTP status and whether fal explained the failure. */
export class FalProviderError extends ImageAiProviderError {
  constructor(
    message: string,
    retryable: boolean,
    readonly httpStatus?: number,
    readonly detailed = false,
  ) {
    super(message, retryable);
  }
}

/** Any failure of a call to fal → ImageAiProviderError (retryable or final). */
export function toFalProviderError(e: unknown, what: string): ImageAiProviderError {
  if (e instanceof ImageAiProviderError) return e;
  if (e instanceof ApiError) {
    const status = e.status;
    const body = e.body as unknown;
    const explained = describeFalDetail(body);
    const detail = explained ?? (e.message && !/^HTTP \d+/.test(e.message) ? e.message : undefined);
    const msg = detail ? `${detail}` : `HTTP ${status}`;
    const err = (m: string, retryable: boolean) => new FalProviderError(m, retryable, status, explained !== undefined);
    if (status === 401 || status === 403) return err(`fal refused the credentials (${status}) on ${what}: ${msg}. Check FAL_KEY.`, false);
    if (status === 422) return err(`fal refused the input of ${what} (422): ${msg}`, false);
    if (status === 429) return err(`fal is throttling requests (429) on ${what}: ${msg}`, true);
    if (status === 408 || status >= 500) return err(`fal failed on ${what} (${status}): ${msg}`, true);
    return err(`fal answered ${status} on ${what}: ${msg}`, false);
  }
  if (e instanceof Error && e.name === "TimeoutError") return new ImageAiProviderError(`fal did not answer ${what} in time`, true);
  if (e instanceof Error && e.name === "AbortError") return new ImageAiProviderError(`${what} was cancelled`, false);
  const cause = e instanceof Error && e.cause instanceof Error ? `: ${(e.cause as Error & { code?: string }).code ?? e.cause.message}` : "";
  return new ImageAiProviderError(`fal cannot be reached for ${what} (${e instanceof Error ? e.message : String(e)}${cause})`, true);
}

export function createFalImageAi(deps: FalImageAiDeps): ImageAiProvider {
  if (!deps.credentials) throw new Error("The fal image provider needs FAL_KEY");
  const baseUrl = (deps.baseUrl ?? DEFAULT_FAL_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const photoTimeoutMs = deps.photoTimeoutMs ?? 30_000;
  const realFetch = deps.fetch ?? fetch;
  const log = deps.log;

  // Calls whose signal is registered here get one attempt: on a retryable status or a network
  // failure the controller is aborted, which the client's retry loop treats as "stop".
  const oneShot = new WeakMap<AbortSignal, AbortController>();
  const fetchOnce: typeof fetch = async (input, init) => {
    const ctl = init?.signal ? oneShot.get(init.signal) : undefined;
    let res: Response;
    try {
      res = await realFetch(input, init);
    } catch (e) {
      if (ctl && !ctl.signal.aborted) ctl.abort(NO_RETRY);
      throw e;
    }
    if (ctl && (res.status === 429 || res.status >= 500)) {
      const body = await res.arrayBuffer();
      ctl.abort(NO_RETRY);
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    return res;
  };

  const client: FalClient = createFalClient({
    credentials: deps.credentials,
    fetch: fetchOnce,
    requestMiddleware: async (req) => {
      if (baseUrl !== FAL_QUEUE_ORIGIN && req.url.startsWith(FAL_QUEUE_ORIGIN)) return { ...req, url: baseUrl + req.url.slice(FAL_QUEUE_ORIGIN.length) };
      return req;
    },
  });

  /** Runs one client call with our deadline, the caller's signal, and (by default) no client retries. */
  async function call<T>(what: string, fn: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
    if (outer?.aborted) throw new ImageAiProviderError(`${what} was cancelled`, false);
    const ctl = new AbortController();
    if (!deps.clientRetries) oneShot.set(ctl.signal, ctl);
    const timer = setTimeout(() => ctl.abort(new DOMException(`fal did not answer ${what} within ${timeoutMs} ms`, "TimeoutError")), timeoutMs);
    const onAbort = () => ctl.abort(outer?.reason ?? new DOMException("cancelled", "AbortError"));
    outer?.addEventListener("abort", onAbort, { once: true });
    try {
      return await fn(ctl.signal);
    } catch (e) {
      const reason: unknown = ctl.signal.reason;
      // Our deadline or the caller's abort surface as the abort reason (fetch rejects with it).
      if (isAbort(e) || (e === reason && reason !== NO_RETRY)) throw toFalProviderError(reason instanceof Error ? reason : e, what);
      throw toFalProviderError(e, what);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    }
  }

  const abs = (ref: string) => (ref.startsWith(UPLOADS) ? deps.publicUrl(ref) : ref);

  async function readPhoto(ref: string, signal?: AbortSignal): Promise<Uint8Array> {
    const key = storageKeyFromRef(ref);
    if (key) {
      const bytes = await deps.storage.get(key);
      if (!bytes) throw new ImageAiProviderError(`Training photo ${ref} is not in storage`, false);
      return bytes;
    }
    const s = signal ? AbortSignal.any([signal, AbortSignal.timeout(photoTimeoutMs)]) : AbortSignal.timeout(photoTimeoutMs);
    let res: Response;
    try {
      res = await realFetch(ref, { signal: s });
    } catch (e) {
      throw new ImageAiProviderError(`Training photo ${ref} cannot be fetched (${e instanceof Error ? e.message : String(e)})`, !signal?.aborted);
    }
    if (!res.ok) throw new ImageAiProviderError(`Training photo ${ref} answered ${res.status}`, res.status === 429 || res.status >= 500);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** Zips the photos into our storage; answers the zip's public URL. */
  async function trainingZip(requestId: string, refs: string[], signal?: AbortSignal): Promise<{ url: string; key: string; bytes: number }> {
    const files: Record<string, [Uint8Array, { level: 0 }]> = {};
    let n = 0;
    for (const ref of refs) {
      const bytes = await readPhoto(ref, signal);
      const kind = sniffImage(bytes);
      if (!kind) throw new ImageAiProviderError(`Training photo ${ref} is not a JPEG, PNG or WebP image`, false);
      n++;
      files[`photo-${String(n).padStart(2, "0")}.${kind.ext}`] = [bytes, { level: 0 }];
    }
    const zip = zipSync(files);
    const key = `images/ai/training/${requestId.replace(/[^A-Za-z0-9_-]/g, "_")}.zip`;
    const stored = await deps.storage.put(key, zip, "application/zip");
    const url = /^https?:\/\//.test(stored.url) ? stored.url : deps.publicUrl(stored.url.startsWith("/") ? stored.url : `${UPLOADS}${key}`);
    return { url, key, bytes: zip.byteLength };
  }

  async function fetchResult(op: ImageAiOperation, requestId: string): Promise<ImageAiStatus> {
    const app = FAL_APPS[op];
    try {
      const r = await call(`result of ${op}`, (signal) => client.queue.result(app, { requestId, abortSignal: signal }));
      return { state: "completed", output: falOutputFromPayload(op, r.data) };
    } catch (e) {
      const err = e instanceof ImageAiProviderError ? e : toFalProviderError(e, `result of ${op}`);
      // The request itself failed (its result is fal's error, e.g. 422, or 500 with the app's
      // detail): settle it. Gateway trouble (502–504, 429, no answer): retry later.
      const appFailure = err instanceof FalProviderError && err.httpStatus === 500 && err.detailed;
      if (!err.retryable || appFailure) return { state: "failed", error: err.message };
      throw err;
    }
  }

  const provider: ImageAiProvider = {
    name: "fal",
    supports(op) {
      return (IMAGE_AI_OPERATIONS as readonly string[]).includes(op);
    },

    async submit<Op extends ImageAiOperation>(op: Op, input: ImageAiInput<Op>, opts: SubmitOptions): Promise<ImageAiSubmission> {
      let imagesDataUrl: string | undefined;
      if (FAL_TRAINING_OPERATIONS.has(op)) {
        const refs = (input as ImageAiInput<"train-flux">).image_urls;
        await opts.onProgress?.(1, `Packing ${refs.length} photos for training`);
        const zip = await trainingZip(opts.requestId, refs, opts.signal);
        imagesDataUrl = zip.url;
        log.info({ requestId: opts.requestId, key: zip.key, bytes: zip.bytes, photos: refs.length }, "fal training photos zipped");
      }
      const { endpoint, input: falInput } = falCallFor(op, input, { abs, imagesDataUrl });
      const queued = await call(
        `submit of ${op}`,
        (signal) => client.queue.submit(endpoint, { input: falInput as never, webhookUrl: opts.webhookUrl, abortSignal: signal }),
        opts.signal,
      );
      if (!queued?.request_id) throw new ImageAiProviderError(`fal accepted ${op} without a request id`, true);
      log.info({ requestId: opts.requestId, op, endpoint, falRequestId: queued.request_id, webhook: Boolean(opts.webhookUrl) }, "fal request submitted");
      return { state: "submitted", providerRequestId: queued.request_id };
    },

    async status(op, providerRequestId) {
      const app = FAL_APPS[op];
      const s = (await call(`status of ${op}`, (signal) => client.queue.status(app, { requestId: providerRequestId, logs: true, abortSignal: signal }))) as QueueStatus & {
        error?: string | null;
        error_type?: string | null;
      };
      switch (s.status) {
        case "IN_QUEUE":
          return { state: "queued", ...(typeof s.queue_position === "number" ? { queuePosition: s.queue_position } : {}) };
        case "IN_PROGRESS": {
          const p = progressFromLogs(s.logs);
          return { state: "in_progress", ...(p.progress !== undefined ? { progress: p.progress } : {}), ...(p.message ? { message: p.message } : {}) };
        }
        case "COMPLETED":
          if (s.error) return { state: "failed", error: `fal: ${s.error}${s.error_type ? ` (${s.error_type})` : ""}` };
          return fetchResult(op, providerRequestId);
        default:
          throw new ImageAiProviderError(`fal answered an unknown status ${JSON.stringify((s as { status?: unknown }).status)} for ${op}`, true);
      }
    },

    async cancel(op, providerRequestId) {
      const app = FAL_APPS[op];
      try {
        await call(`cancel of ${op}`, (signal) => client.queue.cancel(app, { requestId: providerRequestId, abortSignal: signal }));
      } catch (e) {
        const cause = e instanceof ImageAiProviderError ? e : toFalProviderError(e, `cancel of ${op}`);
        // 400 ALREADY_COMPLETED / 404: nothing left to cancel on fal's side.
        if (cause instanceof FalProviderError && (cause.httpStatus === 400 || cause.httpStatus === 404)) {
          log.info({ op, falRequestId: providerRequestId, detail: cause.message }, "fal request already settled; nothing to cancel");
          return;
        }
        throw cause;
      }
    },

    async health() {
      // No call to fal: health is polled often and fal bills nothing for being idle. The key is
      // proven by the first submit (401 → a clear error naming FAL_KEY).
      return { ok: true, detail: `fal queue at ${baseUrl} (key configured; not checked until the first request)` };
    },
  };
  return provider;
}
