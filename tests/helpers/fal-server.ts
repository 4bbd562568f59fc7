/**
 * A local HTTP server speaking fal.ai's queue protocol, the part @fal-ai/client 1.10.1 uses
 * (URL shapes read from its src/queue.js and src/request.js):
 *
 *   POST /{endpoint…}?fal_webhook=<url>          submit → {request_id, gateway_request_id, status: "IN_QUEUE",
 *                                                 queue_position, response_url, status_url, cancel_url}
 *   GET  /{owner}/{alias}/requests/{id}/status?logs=1 → IN_QUEUE (queue_position) | IN_PROGRESS (logs) | COMPLETED
 *   GET  /{owner}/{alias}/requests/{id}           → the endpoint's output, or its error (status + {detail})
 *   PUT  /{owner}/{alias}/requests/{id}/cancel    → 202 CANCELLATION_REQUESTED | 400 ALREADY_COMPLETED
 *   GET  /files/…                                 → a 1×1 PNG (the "CDN" of result images)
 *
 * `Authorization: Key <key>` is checked on every queue call (401 {detail}). Submits are checked
 * like fal's validation does: required fields per endpoint (422 with Pydantic-style
 * `detail: [{loc, msg, type}]`) and image URLs must be absolute http(s) (fal cannot read our
 * /uploads/ paths).
 *
 * Scripting per test:
 * - `script(endpointPrefix, s)`: how requests to matching endpoints progress — `queuePolls` status
 *   answers IN_QUEUE, then `progressPolls` answer IN_PROGRESS with `logs`, then COMPLETED; or
 *   complete by themselves after `completeAfterMs` (default 5 ms when a webhook URL was given).
 *   `result(input)` builds the output; `fail: {status, detail}` makes the request end in error.
 * - `failNext(kind, status, {count, detail})`: inject HTTP errors (e.g. 500 then OK, 429, 503);
 *   `delayNext(kind, ms)`: a slow answer (timeouts).
 * - Webhooks: on completion fal POSTs {request_id, gateway_request_id, status: OK|ERROR, payload,
 *   error} to the submit's fal_webhook URL, signed like fal (X-Fal-Webhook-* headers, ED25519 over
 *   "id\nuser\ntimestamp\nsha256(body)"; `jwks` is the public key set). Non-2xx answers and
 *   connection failures are retried (`webhookRetries`, `webhookRetryDelayMs`); `webhook:
 *   {duplicates}` re-delivers; `holdWebhooks()` / `releaseWebhooks({reverse})` deliver out of
 *   order; `deliverWebhook(id)` re-sends one by hand. `idle()` waits for deliveries in flight.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export const FAL_TEST_KEY = "fal-test-key-id:fal-test-key-secret";

/** 1×1 transparent PNG. */
export const FAKE_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

export type FalCallKind = "submit" | "status" | "result" | "cancel";

export interface FalScript {
  /** Status answers IN_QUEUE this many times (queue_position counting down). */
  queuePolls?: number;
  /** Then IN_PROGRESS this many times, with the logs so far. */
  progressPolls?: number;
  /** Completes by itself after this delay (webhook flows); null: only through polls. */
  completeAfterMs?: number | null;
  logs?: string[];
  /** The endpoint's output. Default: see `defaultFalOutput`. */
  result?: (input: Record<string, unknown>, ctx: { endpoint: string; requestId: string; baseUrl: string }) => unknown;
  /** The request ends in error: the result answers this status with {detail}; the webhook is ERROR. */
  fail?: { status: number; detail: unknown };
  webhook?: { duplicates?: number; delayMs?: number };
}

export interface FalJob {
  id: string;
  endpoint: string;
  app: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  polls: number;
  state: "queued" | "in_progress" | "completed";
  cancelled: boolean;
  script: FalScript;
  submittedAt: number;
}

export interface RecordedFalCall {
  kind: FalCallKind | "file" | "unknown";
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  status: number;
}

export interface WebhookAttempt {
  requestId: string;
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** The receiver's HTTP status, or the connection error. */
  status: number | string;
  attempt: number;
}

export interface FakeFal {
  baseUrl: string;
  key: string;
  calls: RecordedFalCall[];
  jobs: Map<string, FalJob>;
  webhooks: WebhookAttempt[];
  /** Public keys fal "signs" webhooks with (JWKS). */
  jwks: { keys: { kty: string; crv: string; x: string; kid: string }[] };
  script(endpointPrefix: string, s: FalScript): void;
  failNext(kind: FalCallKind | "any", status: number, opts?: { count?: number; detail?: unknown; text?: string }): void;
  delayNext(kind: FalCallKind | "any", ms: number, count?: number): void;
  /** Completes a job now (as if the GPU finished). */
  complete(requestId: string): void;
  holdWebhooks(): void;
  releaseWebhooks(opts?: { reverse?: boolean }): Promise<void>;
  deliverWebhook(requestId: string, override?: Partial<{ status: "OK" | "ERROR"; payload: unknown; error: string }>): Promise<void>;
  idle(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const isAbsolute = (v: unknown) => typeof v === "string" && /^https?:\/\/[^/\s]+/.test(v);

/** Required fields (and which hold image URLs) per endpoint, after fal's published schemas. */
const REQUIRED: [prefix: string, fields: string[], urls: string[]][] = [
  ["fal-ai/flux-lora-fast-training", ["images_data_url"], ["images_data_url"]],
  ["fal-ai/flux-lora-fill", ["image_url", "mask_url"], ["image_url", "mask_url"]],
  ["fal-ai/flux-lora/image-to-image", ["image_url", "prompt"], ["image_url"]],
  ["fal-ai/flux-lora", ["prompt"], []],
  ["fal-ai/finegrain-eraser/mask", ["image_url", "mask_url"], ["image_url", "mask_url"]],
  ["fal-ai/finegrain-eraser/bbox", ["image_url", "box_prompts"], ["image_url"]],
  ["fal-ai/bria/product-shot", ["image_url"], ["image_url"]],
  ["fal-ai/flux-pro/kontext", ["image_url", "prompt"], ["image_url"]],
  ["fal-ai/fashn/tryon", ["model_image", "garment_image"], ["model_image", "garment_image"]],
  ["fal-ai/chrono-edit", ["image_url", "prompt"], ["image_url"]],
  ["fal-ai/reve/edit", ["image_url", "prompt"], ["image_url"]],
  ["fal-ai/reve/remix", ["image_urls", "prompt"], ["image_urls"]],
  ["fal-ai/bytedance/seedream", ["image_urls", "prompt"], ["image_urls"]],
  ["fal-ai/gemini-25-flash-image/edit", ["image_urls", "prompt"], ["image_urls"]],
];

export function validateFalInput(endpoint: string, input: Record<string, unknown>): { loc: (string | number)[]; msg: string; type: string }[] {
  const rule = REQUIRED.find(([p]) => endpoint === p || endpoint.startsWith(`${p}/`));
  if (!rule) return [];
  const errors: { loc: (string | number)[]; msg: string; type: string }[] = [];
  for (const f of rule[1]) if (input[f] === undefined || input[f] === null || input[f] === "") errors.push({ loc: ["body", f], msg: "field required", type: "value_error.missing" });
  for (const f of rule[2]) {
    const v = input[f];
    const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
    list.forEach((u, i) => {
      if (!isAbsolute(u)) errors.push({ loc: Array.isArray(v) ? ["body", f, i] : ["body", f], msg: "invalid or missing URL scheme", type: "value_error.url.scheme" });
    });
  }
  if (Array.isArray(input.loras)) {
    (input.loras as { path?: unknown }[]).forEach((l, i) => {
      if (typeof l?.path !== "string" || !l.path) errors.push({ loc: ["body", "loras", i, "path"], msg: "field required", type: "value_error.missing" });
    });
  }
  return errors;
}

/** What a fal endpoint answers by default (shapes of the real outputs). */
export function defaultFalOutput(endpoint: string, input: Record<string, unknown>, ctx: { requestId: string; baseUrl: string }): unknown {
  const file = (name: string, type: string) => ({ url: `${ctx.baseUrl}/files/${ctx.requestId}/${name}`, content_type: type, file_name: name, file_size: FAKE_PNG.length });
  const image = (i: number) => ({ ...file(`${i}.png`, "image/png"), width: 1, height: 1 });
  if (endpoint.startsWith("fal-ai/flux-lora-fast-training")) {
    return { diffusers_lora_file: file("pytorch_lora_weights.safetensors", "application/octet-stream"), config_file: file("config.json", "application/json") };
  }
  if (endpoint.startsWith("fal-ai/finegrain-eraser")) return { image: image(0), used_seed: 7 };
  const n = typeof input.num_images === "number" ? input.num_images : typeof input.num_samples === "number" ? input.num_samples : 1;
  const images = Array.from({ length: Math.max(1, Math.min(4, n)) }, (_, i) => image(i));
  if (endpoint.startsWith("fal-ai/gemini")) return { images, description: "Edited." };
  if (endpoint.startsWith("fal-ai/fashn")) return { images };
  return { images, seed: typeof input.seed === "number" ? input.seed : 42, prompt: input.prompt ?? "", has_nsfw_concepts: images.map(() => false), timings: { inference: 0.01 } };
}

export async function startFakeFal(opts: { key?: string; webhookRetries?: number; webhookRetryDelayMs?: number } = {}): Promise<FakeFal> {
  const key = opts.key ?? FAL_TEST_KEY;
  const webhookRetries = opts.webhookRetries ?? 3;
  const webhookRetryDelayMs = opts.webhookRetryDelayMs ?? 20;
  const calls: RecordedFalCall[] = [];
  const jobs = new Map<string, FalJob>();
  const webhooks: WebhookAttempt[] = [];
  const scripts: [string, FalScript][] = [];
  let failures: { kind: FalCallKind | "any"; status: number; left: number; detail?: unknown; text?: string }[] = [];
  let delays: { kind: FalCallKind | "any"; ms: number; left: number }[] = [];
  let holding = false;
  let held: (() => Promise<void>)[] = [];
  const inflight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" }) as { x: string };
  const jwks = { keys: [{ kty: "OKP", crv: "Ed25519", x: jwk.x, kid: "fake-fal-1" }] };
  let baseUrl = "";

  const scriptFor = (endpoint: string): FalScript => {
    // The longest matching prefix wins; "*" matches everything, last.
    const rank = (p: string) => (p === "*" ? -1 : p.length);
    const matches = scripts.filter(([p]) => p === "*" || endpoint.startsWith(p)).sort((a, b) => rank(b[0]) - rank(a[0]));
    return matches[0]?.[1] ?? {};
  };

  const take = <T extends { kind: FalCallKind | "any"; left: number }>(list: T[], kind: FalCallKind): T | undefined => {
    const hit = list.find((f) => f.left > 0 && (f.kind === kind || f.kind === "any"));
    if (hit) hit.left--;
    return hit;
  };

  const track = (p: Promise<void>) => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    return p;
  };
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  function webhookBody(job: FalJob): Record<string, unknown> {
    const base = { request_id: job.id, gateway_request_id: job.id };
    if (job.cancelled) return { ...base, status: "ERROR", error: "Request cancelled by the user", payload: { detail: "Request cancelled by the user" } };
    if (job.script.fail) return { ...base, status: "ERROR", error: `Invalid status code: ${job.script.fail.status}`, payload: { detail: job.script.fail.detail } };
    return { ...base, status: "OK", payload: output(job) };
  }

  function output(job: FalJob): unknown {
    const ctx = { endpoint: job.endpoint, requestId: job.id, baseUrl };
    return job.script.result ? job.script.result(job.input, ctx) : defaultFalOutput(job.endpoint, job.input, ctx);
  }

  async function sendOnce(job: FalJob, body: Record<string, unknown>): Promise<void> {
    const raw = JSON.stringify(body);
    for (let attempt = 1; attempt <= webhookRetries + 1; attempt++) {
      const ts = String(Math.floor(Date.now() / 1000));
      const digest = crypto.createHash("sha256").update(raw).digest("hex");
      const signature = crypto.sign(null, Buffer.from([job.id, "fake-fal-user", ts, digest].join("\n")), privateKey).toString("hex");
      const headers = {
        "content-type": "application/json",
        "x-fal-webhook-request-id": job.id,
        "x-fal-webhook-user-id": "fake-fal-user",
        "x-fal-webhook-timestamp": ts,
        "x-fal-webhook-signature": signature,
      };
      let status: number | string;
      try {
        const res = await fetch(job.webhookUrl!, { method: "POST", headers, body: raw, signal: AbortSignal.timeout(15_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch (e) {
        status = e instanceof Error ? ((e.cause as { code?: string } | undefined)?.code ?? e.message) : String(e);
      }
      webhooks.push({ requestId: job.id, url: job.webhookUrl!, body, headers, status, attempt });
      if (typeof status === "number" && status >= 200 && status < 300) return;
      if (attempt <= webhookRetries) await new Promise((r) => setTimeout(r, webhookRetryDelayMs));
    }
  }

  function scheduleWebhooks(job: FalJob) {
    if (!job.webhookUrl) return;
    const copies = 1 + (job.script.webhook?.duplicates ?? 0);
    const body = webhookBody(job);
    for (let i = 0; i < copies; i++) {
      const run = () => track(sendOnce(job, body));
      if (holding) held.push(run);
      else {
        const delay = job.script.webhook?.delayMs ?? 0;
        if (delay > 0) track(new Promise<void>((resolve) => later(delay, () => void run().then(resolve))));
        else void run();
      }
    }
  }

  function completeJob(job: FalJob) {
    if (job.state === "completed") return;
    job.state = "completed";
    scheduleWebhooks(job);
  }

  const queueUrls = (job: FalJob) => {
    const base = `${baseUrl}/${job.app}/requests/${job.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  const logsUpTo = (job: FalJob, n: number) =>
    (job.script.logs ?? []).slice(0, Math.max(0, n)).map((message, i) => ({ message, level: "INFO", source: "USER", timestamp: new Date(job.submittedAt + i * 1000).toISOString() }));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://fake");
        const segs = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
        const query = Object.fromEntries(url.searchParams);
        const raw = Buffer.concat(chunks).toString("utf8");
        let body: unknown = null;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          body = raw;
        }
        const method = req.method ?? "GET";
        let kind: RecordedFalCall["kind"] = "unknown";
        if (segs[0] === "files") kind = "file";
        else if (method === "POST") kind = "submit";
        else if (segs[2] === "requests" && method === "GET" && segs[4] === "status") kind = "status";
        else if (segs[2] === "requests" && method === "GET" && segs.length === 4) kind = "result";
        else if (segs[2] === "requests" && method === "PUT" && segs[4] === "cancel") kind = "cancel";

        const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
          calls.push({ kind, method, path: url.pathname, query, headers: req.headers, body, status });
          if (res.destroyed) return;
          if (Buffer.isBuffer(payload)) {
            res.writeHead(status, { "content-type": "image/png", "content-length": String(payload.length), ...headers });
            res.end(payload);
            return;
          }
          res.writeHead(status, { "content-type": "application/json", "x-fal-request-id": segs[3] ?? "", ...headers });
          res.end(JSON.stringify(payload));
        };

        if (kind === "file") return send(200, FAKE_PNG);
        if (kind === "unknown") return send(404, { detail: `No route for ${method} ${url.pathname}` });
        if (req.headers.authorization !== `Key ${key}`) {
          return send(401, { detail: req.headers.authorization ? "No user found for Key ID and Secret" : "Missing authorization header" });
        }
        const delay = take(delays, kind);
        if (delay) await new Promise((r) => later(delay.ms, () => r(undefined)));
        const failure = take(failures, kind);
        if (failure) {
          if (failure.text !== undefined) {
            calls.push({ kind, method, path: url.pathname, query, headers: req.headers, body, status: failure.status });
            if (!res.destroyed) {
              res.writeHead(failure.status, { "content-type": "text/plain" });
              res.end(failure.text);
            }
            return;
          }
          return send(failure.status, { detail: failure.detail ?? `Injected ${failure.status}` });
        }

        if (kind === "submit") {
          const endpoint = segs.join("/");
          if (segs.length < 2) return send(404, { detail: `Application ${endpoint} not found` });
          const input = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
          const problems = validateFalInput(endpoint, input);
          if (problems.length) return send(422, { detail: problems });
          const id = crypto.randomUUID();
          const script = scriptFor(endpoint);
          const job: FalJob = {
            id,
            endpoint,
            app: segs.slice(0, 2).join("/"),
            input,
            webhookUrl: query.fal_webhook ?? null,
            polls: 0,
            state: "queued",
            cancelled: false,
            script,
            submittedAt: Date.now(),
          };
          jobs.set(id, job);
          const auto = script.completeAfterMs === undefined ? (job.webhookUrl ? 5 : null) : script.completeAfterMs;
          if (auto !== null) later(auto, () => completeJob(job));
          return send(200, { request_id: id, gateway_request_id: id, status: "IN_QUEUE", queue_position: script.queuePolls ?? 0, ...queueUrls(job) });
        }

        const app = segs.slice(0, 2).join("/");
        const job = jobs.get(segs[3]);
        if (!job || job.app !== app) return send(404, { detail: `Request ${segs[3]} not found` });

        if (kind === "status") {
          const logs = query.logs === "1";
          if (job.state !== "completed") {
            job.polls++;
            const q = job.script.queuePolls ?? 0;
            const p = job.script.progressPolls ?? 0;
            if (job.polls <= q) {
              return send(202, { status: "IN_QUEUE", request_id: job.id, queue_position: q - job.polls, ...queueUrls(job) });
            }
            if (job.polls <= q + p) {
              job.state = "in_progress";
              return send(202, { status: "IN_PROGRESS", request_id: job.id, logs: logs ? logsUpTo(job, job.polls - q) : null, ...queueUrls(job) });
            }
            completeJob(job);
          }
          const error = job.cancelled ? { error: "Request cancelled by the user", error_type: "cancelled" } : {};
          return send(200, { status: "COMPLETED", request_id: job.id, logs: logs ? logsUpTo(job, (job.script.logs ?? []).length) : null, metrics: { inference_time: 0.01 }, ...error, ...queueUrls(job) });
        }
        if (kind === "result") {
          if (job.state !== "completed") return send(400, { detail: "Request is still in progress" });
          if (job.cancelled) return send(400, { detail: "Request was cancelled" });
          if (job.script.fail) return send(job.script.fail.status, { detail: job.script.fail.detail });
          return send(200, output(job));
        }
        // cancel
        if (job.state === "completed") return send(400, { status: "ALREADY_COMPLETED" });
        job.cancelled = true;
        completeJob(job);
        return send(202, { status: "CANCELLATION_REQUESTED" });
      })().catch((e) => {
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ detail: `fake fal crashed: ${e instanceof Error ? e.message : String(e)}` }));
        }
      });
    });
  });
  server.keepAliveTimeout = 1000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    key,
    calls,
    jobs,
    webhooks,
    jwks,
    script(prefix, s) {
      const i = scripts.findIndex(([p]) => p === prefix);
      if (i >= 0) scripts.splice(i, 1);
      scripts.push([prefix, s]);
    },
    failNext(kind, status, o = {}) {
      failures.push({ kind, status, left: o.count ?? 1, detail: o.detail, text: o.text });
    },
    delayNext(kind, ms, count = 1) {
      delays.push({ kind, ms, left: count });
    },
    complete(id) {
      const job = jobs.get(id);
      if (!job) throw new Error(`no fake fal job ${id}`);
      completeJob(job);
    },
    holdWebhooks() {
      holding = true;
    },
    async releaseWebhooks(o = {}) {
      holding = false;
      const list = o.reverse ? [...held].reverse() : held;
      held = [];
      for (const run of list) await run();
    },
    async deliverWebhook(id, override) {
      const job = jobs.get(id);
      if (!job?.webhookUrl) throw new Error(`fake fal job ${id} has no webhook URL`);
      await track(sendOnce(job, { ...webhookBody(job), ...(override ?? {}) }));
    },
    async idle() {
      while (inflight.size > 0 || timers.size > 0) {
        await Promise.all([...inflight]);
        if (timers.size > 0) await new Promise((r) => setTimeout(r, 5));
      }
    },
    reset() {
      scripts.length = 0;
      failures = [];
      delays = [];
      calls.length = 0;
      webhooks.length = 0;
      holding = false;
      held = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
