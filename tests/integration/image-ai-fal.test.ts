/**
 * The fal.ai adapter of the image-AI port against a local server speaking fal's queue protocol
 * (tests/helpers/fal-server.ts): submit/status/result/cancel, training zips, error mapping,
 * webhooks (token, signature, retries, duplicates, order) and output mapping. No database: the
 * adapter only needs storage, which is a local folder here.
 */
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "~/lib/logger.server";
import { createLocalStorage, type StoragePort } from "~/providers/storage.server";
import {
  FAL_APPS,
  createFalImageAi,
  falCallFor,
  falOutputFromPayload,
  falWebhookToken,
  falWebhookUrl,
  parseFalWebhook,
  progressFromLogs,
  verifyFalWebhook,
  verifyFalWebhookSignature,
} from "~/providers/image-ai/fal.server";
import { IMAGE_AI_OPERATIONS, ImageAiProviderError, imageAiInputs, type ImageAiOperation, type ImageAiProvider, type ImageAiStatus } from "~/providers/image-ai/port";
import { FAL_TEST_KEY, startFakeFal, validateFalInput, type FakeFal } from "../helpers/fal-server";

const ORIGIN = "https://shop.example";
const publicUrl = (ref: string) => (ref.startsWith("/") ? `${ORIGIN}${ref}` : ref);
const log = createLogger("silent");
const SECRET = "test-webhook-secret";

let fal: FakeFal;
let dir: string;
let storage: StoragePort;
let provider: ImageAiProvider;

const make = (over: Partial<Parameters<typeof createFalImageAi>[0]> = {}) =>
  createFalImageAi({ credentials: FAL_TEST_KEY, baseUrl: fal.baseUrl, storage, log, publicUrl, ...over });

async function jpeg(shade: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width: 32, height: 40, channels: 3, background: { r: shade, g: 100, b: 150 } } }).jpeg().toBuffer());
}

async function rejection(p: Promise<unknown>): Promise<ImageAiProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ImageAiProviderError);
    return e as ImageAiProviderError;
  }
  throw new Error("expected a rejection");
}

/** Polls status until a terminal state (as the image-ai job does), collecting what it saw. */
async function pollToEnd(p: ImageAiProvider, op: ImageAiOperation, id: string, max = 20): Promise<ImageAiStatus[]> {
  const seen: ImageAiStatus[] = [];
  for (let i = 0; i < max; i++) {
    const s = await p.status(op, id);
    seen.push(s);
    if (s.state === "completed" || s.state === "failed") return seen;
  }
  throw new Error(`${op} did not settle in ${max} polls`);
}

const submitted = (s: Awaited<ReturnType<ImageAiProvider["submit"]>>) => {
  if (s.state !== "submitted") throw new Error(`expected submitted, got ${s.state}`);
  return s.providerRequestId;
};
const submits = () => fal.calls.filter((c) => c.kind === "submit");

beforeAll(async () => {
  fal = await startFakeFal();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "fal-adapter-"));
  storage = createLocalStorage(dir);
  provider = make();
});
afterAll(async () => {
  await fal.close();
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(() => fal.reset());

describe("training (train-flux*)", () => {
  it("zips the photos into our storage, passes the zip URL, trigger word and steps, and maps the LoRA", async () => {
    const refs: string[] = [];
    const originals: Uint8Array[] = [];
    for (let i = 0; i < 4; i++) {
      const bytes = await jpeg(40 * i);
      originals.push(bytes);
      await storage.put(`images/clones/c1/photo-${i}.jpg`, bytes, "image/jpeg");
      refs.push(`/uploads/images/clones/c1/photo-${i}.jpg`);
    }
    refs.push(`${fal.baseUrl}/files/elsewhere/photo.png`); // an absolute URL is fetched
    // progress through polls only (with a webhook URL the fake would otherwise complete by itself)
    fal.script("fal-ai/flux-lora-fast-training", { queuePolls: 2, progressPolls: 2, completeAfterMs: null, logs: ["Preprocessing 5 images", "step 250/1000"] });
    const hook = "http://127.0.0.1:9/api/fal/webhook?request=req_train_1&token=abc";

    const input = imageAiInputs["train-flux"].parse({ image_urls: refs, trigger_word: "ANNA_7", steps: 1000 });
    const progress: [number, string | undefined][] = [];
    const id = submitted(
      await provider.submit("train-flux", input, { requestId: "req_train_1", webhookUrl: hook, onProgress: (p, m) => void progress.push([p, m]) }),
    );
    expect(progress[0]?.[1]).toMatch(/Packing 5 photos/);

    const zip = await storage.get("images/ai/training/req_train_1.zip");
    expect(zip).not.toBeNull();
    const files = unzipSync(zip!);
    const names = Object.keys(files).sort();
    expect(names).toEqual(["photo-01.jpg", "photo-02.jpg", "photo-03.jpg", "photo-04.jpg", "photo-05.png"]);
    expect(Buffer.from(files["photo-01.jpg"]).equals(Buffer.from(originals[0]))).toBe(true);

    const [call] = submits();
    expect(call.path).toBe("/fal-ai/flux-lora-fast-training");
    expect(call.query.fal_webhook).toBe(hook);
    expect(call.headers.authorization).toBe(`Key ${FAL_TEST_KEY}`);
    expect(call.body).toMatchObject({ images_data_url: `${ORIGIN}/uploads/images/ai/training/req_train_1.zip`, trigger_word: "ANNA_7", steps: 1000, create_masks: true });

    const seen = await pollToEnd(provider, "train-flux", id);
    expect(seen.map((s) => s.state)).toEqual(["queued", "queued", "in_progress", "in_progress", "completed"]);
    expect(seen[0]).toEqual({ state: "queued", queuePosition: 1 });
    expect(seen[3]).toEqual({ state: "in_progress", progress: 25, message: "step 250/1000" });
    const done = seen[4];
    if (done.state !== "completed") throw new Error("not completed");
    expect(done.output.lora_url).toBe(`${fal.baseUrl}/files/${id}/pytorch_lora_weights.safetensors`);
    expect(done.output.images).toEqual([]);
    expect(done.output.meta?.config_file).toContain("config.json");
    // status/result go to the app's queue address
    expect(fal.calls.filter((c) => c.kind === "status").every((c) => c.path === `/fal-ai/flux-lora-fast-training/requests/${id}/status` && c.query.logs === "1")).toBe(true);
    expect(fal.calls.find((c) => c.kind === "result")?.path).toBe(`/fal-ai/flux-lora-fast-training/requests/${id}`);
    await fal.idle(); // the webhook to the unreachable hook is tried and given up
    expect(fal.webhooks.filter((w) => w.requestId === id)).toHaveLength(4);
  });

  it("product training needs no face masks; a missing photo fails before anything is sent", async () => {
    await storage.put("images/products/p1.jpg", await jpeg(10), "image/jpeg");
    const ok = imageAiInputs["train-flux-product"].parse({ image_urls: ["/uploads/images/products/p1.jpg"], trigger_word: "SKU_1" });
    submitted(await provider.submit("train-flux-product", ok, { requestId: "req_prod" }));
    expect(submits()[0].body).toMatchObject({ create_masks: false, steps: 1000, trigger_word: "SKU_1" });
    expect(submits()[0].query.fal_webhook).toBeUndefined();

    const missing = imageAiInputs["train-flux"].parse({ image_urls: ["/uploads/images/none-1.jpg", "/uploads/images/none-2.jpg", "/uploads/images/none-3.jpg", "/uploads/images/none-4.jpg"], trigger_word: "X_1" });
    const err = await rejection(provider.submit("train-flux", missing, { requestId: "req_missing" }));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/not in storage/);
    expect(submits()).toHaveLength(1);
  });
});

describe("try-on and edits", () => {
  it("vton-flux: our paths become absolute URLs, the category and detail mode are passed, images come back", async () => {
    fal.script("fal-ai/fashn", { progressPolls: 1, logs: ["Running try-on"] });
    const input = imageAiInputs["vton-flux"].parse({ person_image_url: "/uploads/images/clones/c1/p.jpg", garment_image_url: "https://cdn.shopify.com/g.jpg", category: "tops", seed: 5 });
    const id = submitted(await provider.submit("vton-flux", input, { requestId: "req_vton" }));
    expect(submits()[0].path).toBe("/fal-ai/fashn/tryon/v1.6");
    expect(submits()[0].body).toMatchObject({ model_image: `${ORIGIN}/uploads/images/clones/c1/p.jpg`, garment_image: "https://cdn.shopify.com/g.jpg", category: "tops", mode: "quality", seed: 5, num_samples: 1 });
    const seen = await pollToEnd(provider, "vton-flux", id);
    expect(seen[0]).toEqual({ state: "in_progress", message: "Running try-on" });
    const done = seen.at(-1)!;
    if (done.state !== "completed") throw new Error("not completed");
    expect(done.output.images).toEqual([{ url: `${fal.baseUrl}/files/${id}/0.png`, width: 1, height: 1, content_type: "image/png" }]);
    expect(fal.calls.find((c) => c.kind === "status")?.path).toBe(`/fal-ai/fashn/requests/${id}/status`);
  });

  it("edit operations reach their endpoints (one or several images) and settle", async () => {
    const cases: [ImageAiOperation, unknown, string][] = [
      ["seedream-v4-edit", { image_urls: ["/uploads/images/a.jpg", "https://x.test/b.jpg"], prompt: "make it red", seed: 3 }, "/fal-ai/bytedance/seedream/v4/edit"],
      ["reve-edit", { image_urls: ["/uploads/images/a.jpg"], prompt: "make it red" }, "/fal-ai/reve/edit"],
      ["reve-edit", { image_urls: ["/uploads/images/a.jpg", "/uploads/images/b.jpg"], prompt: "combine" }, "/fal-ai/reve/remix"],
      ["gemini-image-edit", { image_urls: ["/uploads/images/a.jpg"], prompt: "add a hat" }, "/fal-ai/gemini-25-flash-image/edit"],
      ["chrono-edit", { image_urls: ["/uploads/images/a.jpg"], prompt: "turn left" }, "/fal-ai/chrono-edit"],
      ["remove-object", { image_url: "/uploads/images/a.jpg", box: { x: 10, y: 20, width: 30, height: 40 } }, "/fal-ai/finegrain-eraser/bbox"],
      ["generate-flux-product-shot", { image_url: "/uploads/images/a.jpg", scene: "marble table #1", background_color: "#f0f0f0" }, "/fal-ai/bria/product-shot"],
    ];
    for (const [op, raw, endpoint] of cases) {
      fal.reset();
      const input = imageAiInputs[op].parse(raw);
      const id = submitted(await provider.submit(op, input as never, { requestId: `req_${op}` }));
      expect(submits()[0].path, op).toBe(endpoint);
      const done = (await pollToEnd(provider, op, id)).at(-1)!;
      expect(done.state, op).toBe("completed");
      if (done.state === "completed") expect(done.output.images.length, op).toBe(1);
    }
  });
});

describe("errors", () => {
  const editInput = () => imageAiInputs["gemini-image-edit"].parse({ image_urls: ["https://x.test/a.jpg"], prompt: "p" });

  it("a wrong key is refused (401) and is final, naming FAL_KEY", async () => {
    const bad = make({ credentials: "wrong:key" });
    const err = await rejection(bad.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/401/);
    expect(err.message).toMatch(/FAL_KEY/);
    expect(fal.calls.at(-1)?.status).toBe(401);
  });

  it("422 is final and carries fal's detail", async () => {
    fal.failNext("submit", 422, { detail: [{ loc: ["body", "prompt"], msg: "field required", type: "value_error.missing" }] });
    const err = await rejection(provider.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/422.*prompt: field required/);

    // a ref fal cannot fetch (no public origin) is refused by fal's own validation
    const local = make({ publicUrl: (ref) => ref });
    const err2 = await rejection(local.submit("gemini-image-edit", imageAiInputs["gemini-image-edit"].parse({ image_urls: ["/uploads/images/a.jpg"], prompt: "p" }), { requestId: "r2" }));
    expect(err2.retryable).toBe(false);
    expect(err2.message).toMatch(/image_urls\.0: invalid or missing URL scheme/);
  });

  it("500, 503 and 429 are retryable, each after ONE call (the client's own retries are cut short)", async () => {
    for (const status of [500, 503, 429]) {
      fal.reset();
      fal.failNext("submit", status);
      const t0 = Date.now();
      const err = await rejection(provider.submit("gemini-image-edit", editInput(), { requestId: "r" }));
      expect(err.retryable, String(status)).toBe(true);
      expect(submits(), String(status)).toHaveLength(1);
      expect(Date.now() - t0).toBeLessThan(900); // the client would have slept ≥ 750 ms before a retry
    }
    // plain-text gateway error
    fal.failNext("submit", 502, { text: "<html>Bad gateway</html>" });
    expect((await rejection(provider.submit("gemini-image-edit", editInput(), { requestId: "r" }))).retryable).toBe(true);
  });

  it("500 then OK: a failed status poll is retryable and the next poll succeeds", async () => {
    const id = submitted(await provider.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    fal.failNext("status", 500);
    const err = await rejection(provider.status("gemini-image-edit", id));
    expect(err.retryable).toBe(true);
    expect((await provider.status("gemini-image-edit", id)).state).toBe("completed");
  });

  it("a slow fal is a retryable timeout; an unreachable one is retryable too", async () => {
    const quick = make({ timeoutMs: 150 });
    fal.delayNext("submit", 600);
    const err = await rejection(quick.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/in time/);

    const down = make({ baseUrl: "http://127.0.0.1:1" });
    const err2 = await rejection(down.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    expect(err2.retryable).toBe(true);
    expect(err2.message).toMatch(/cannot be reached/);
  });

  it("the caller's abort signal stops a submit (final)", async () => {
    fal.delayNext("submit", 500);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await rejection(provider.submit("gemini-image-edit", editInput(), { requestId: "r", signal: ctl.signal }));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/cancelled/);
  });

  it("a request that fails on fal settles as failed with fal's message; a gateway error on the result is retried", async () => {
    fal.script("fal-ai/gemini-25-flash-image", { fail: { status: 422, detail: [{ loc: ["body", "image_urls", 0], msg: "Image could not be downloaded", type: "value_error" }] } });
    const id = submitted(await provider.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    const s = await provider.status("gemini-image-edit", id);
    expect(s).toEqual({ state: "failed", error: expect.stringMatching(/image_urls\.0: Image could not be downloaded/) });

    fal.script("fal-ai/gemini-25-flash-image", { fail: { status: 500, detail: "CUDA out of memory" } });
    const id2 = submitted(await provider.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    expect(await provider.status("gemini-image-edit", id2)).toEqual({ state: "failed", error: expect.stringMatching(/CUDA out of memory/) });

    fal.script("fal-ai/gemini-25-flash-image", {});
    const id3 = submitted(await provider.submit("gemini-image-edit", editInput(), { requestId: "r" }));
    fal.failNext("result", 503, { text: "unavailable" });
    expect((await rejection(provider.status("gemini-image-edit", id3))).retryable).toBe(true);
    expect((await provider.status("gemini-image-edit", id3)).state).toBe("completed");
  });

  it("an unknown request id is final", async () => {
    const err = await rejection(provider.status("gemini-image-edit", "00000000-0000-0000-0000-000000000000"));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/404/);
  });
});

describe("cancel", () => {
  it("cancels a queued request (its status then fails); cancelling a settled one is a no-op", async () => {
    fal.script("fal-ai/fashn", { queuePolls: 5, completeAfterMs: null });
    const input = imageAiInputs["vton-flux"].parse({ person_image_url: "https://x.test/p.jpg", garment_image_url: "https://x.test/g.jpg", category: "bottoms" });
    const id = submitted(await provider.submit("vton-flux", input, { requestId: "r" }));
    expect((await provider.status("vton-flux", id)).state).toBe("queued");
    await provider.cancel("vton-flux", id);
    const cancel = fal.calls.find((c) => c.kind === "cancel")!;
    expect(cancel.method).toBe("PUT");
    expect(cancel.path).toBe(`/fal-ai/fashn/requests/${id}/cancel`);
    expect(cancel.status).toBe(202);
    const after = await provider.status("vton-flux", id);
    expect(after.state).toBe("failed");
    await expect(provider.cancel("vton-flux", id)).resolves.toBeUndefined(); // 400 ALREADY_COMPLETED
  });
});

describe("webhooks", () => {
  let receiver: http.Server;
  let receiverUrl: string;
  const received: { request: string | null; ok: boolean; parsed?: ReturnType<typeof parseFalWebhook>; raw: string; headers: http.IncomingHttpHeaders }[] = [];
  let failFirst = 0;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const url = new URL(req.url ?? "/", "http://r");
        const request = url.searchParams.get("request");
        const ok = verifyFalWebhook({ requestId: request, token: url.searchParams.get("token"), secret: SECRET });
        if (!ok) {
          received.push({ request, ok, raw, headers: req.headers });
          res.writeHead(401).end();
          return;
        }
        if (failFirst > 0) {
          failFirst--;
          received.push({ request, ok, raw, headers: req.headers });
          res.writeHead(500).end();
          return;
        }
        received.push({ request, ok, parsed: parseFalWebhook(JSON.parse(raw)), raw, headers: req.headers });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
  beforeEach(() => {
    received.length = 0;
    failFirst = 0;
  });

  const hookFor = (ours: string) => falWebhookUrl(receiverUrl, ours, SECRET);
  const edit = () => imageAiInputs["seedream-v4-edit"].parse({ image_urls: ["https://x.test/a.jpg"], prompt: "p" });

  it("delivers the result to our signed URL; the body parses and maps to an output; fal's signature verifies", async () => {
    const id = submitted(await provider.submit("seedream-v4-edit", edit(), { requestId: "ours_1", webhookUrl: hookFor("ours_1") }));
    await fal.idle();
    expect(received).toHaveLength(1);
    const got = received[0];
    expect(got).toMatchObject({ request: "ours_1", ok: true });
    expect(got.parsed).toMatchObject({ providerRequestId: id, status: "OK" });
    const output = falOutputFromPayload("seedream-v4-edit", got.parsed!.payload);
    expect(output.images[0].url).toBe(`${fal.baseUrl}/files/${id}/0.png`);

    expect(verifyFalWebhookSignature({ headers: got.headers as never, rawBody: got.raw, jwks: fal.jwks })).toMatchObject({ ok: true, requestId: id });
    expect(verifyFalWebhookSignature({ headers: got.headers as never, rawBody: got.raw.replace('"OK"', '"ERROR"'), jwks: fal.jwks })).toEqual({ ok: false, reason: expect.stringMatching(/does not match/) });
    const later = Number(got.headers["x-fal-webhook-timestamp"]) + 3600;
    expect(verifyFalWebhookSignature({ headers: got.headers as never, rawBody: got.raw, jwks: fal.jwks, nowSeconds: later })).toMatchObject({ ok: false, reason: expect.stringMatching(/timestamp/) });
    const other = { keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }] };
    expect(verifyFalWebhookSignature({ headers: got.headers as never, rawBody: got.raw, jwks: other }).ok).toBe(false);
  });

  it("retries when our endpoint fails, and sends duplicates we must tolerate", async () => {
    failFirst = 2;
    fal.script("fal-ai/bytedance", { webhook: { duplicates: 1 } });
    submitted(await provider.submit("seedream-v4-edit", edit(), { requestId: "ours_2", webhookUrl: hookFor("ours_2") }));
    await fal.idle();
    const parsed = received.filter((r) => r.parsed);
    expect(parsed).toHaveLength(2); // the original (after 2 failures) and the duplicate
    expect(received.length).toBe(4);
    expect(new Set(parsed.map((r) => r.parsed!.providerRequestId)).size).toBe(1);
    expect(fal.webhooks.map((w) => w.status)).toEqual([500, 500, 200, 200]);
  });

  it("a bad token is refused (401) and fal gives up after its retries", async () => {
    const url = new URL(hookFor("ours_3"));
    url.searchParams.set("token", falWebhookToken("someone_else", SECRET));
    submitted(await provider.submit("seedream-v4-edit", edit(), { requestId: "ours_3", webhookUrl: url.toString() }));
    await fal.idle();
    expect(received.every((r) => !r.ok)).toBe(true);
    expect(fal.webhooks.map((w) => w.status)).toEqual([401, 401, 401, 401]);
  });

  it("out-of-order delivery: the later request's webhook can arrive first", async () => {
    fal.holdWebhooks();
    const a = submitted(await provider.submit("seedream-v4-edit", edit(), { requestId: "ours_a", webhookUrl: hookFor("ours_a") }));
    const b = submitted(await provider.submit("seedream-v4-edit", edit(), { requestId: "ours_b", webhookUrl: hookFor("ours_b") }));
    await new Promise((r) => setTimeout(r, 30));
    expect(received).toHaveLength(0);
    await fal.releaseWebhooks({ reverse: true });
    await fal.idle();
    expect(received.map((r) => [r.request, r.parsed?.providerRequestId])).toEqual([
      ["ours_b", b],
      ["ours_a", a],
    ]);
  });

  it("a failed request's webhook is ERROR with fal's detail; a late manual re-delivery parses the same", async () => {
    fal.script("fal-ai/bytedance", { fail: { status: 422, detail: [{ loc: ["body", "prompt"], msg: "too long", type: "value_error" }] } });
    const id = submitted(await provider.submit("seedream-v4-edit", edit(), { requestId: "ours_4", webhookUrl: hookFor("ours_4") }));
    await fal.idle();
    expect(received[0].parsed).toMatchObject({ providerRequestId: id, status: "ERROR", error: "Invalid status code: 422: prompt: too long" });
    await fal.deliverWebhook(id);
    expect(received[1].parsed).toEqual(received[0].parsed);
  });
});

describe("webhook parsing and token verification", () => {
  it("parses OK, ERROR and payload-less bodies and refuses anything else", () => {
    expect(parseFalWebhook({ request_id: "r1", gateway_request_id: "g1", status: "OK", payload: { images: [] } })).toEqual({ providerRequestId: "r1", gatewayRequestId: "g1", status: "OK", payload: { images: [] } });
    expect(parseFalWebhook({ request_id: "r1", status: "ERROR", error: "Invalid status code: 500", payload: { detail: "boom" } })).toMatchObject({ status: "ERROR", error: "Invalid status code: 500: boom" });
    expect(parseFalWebhook({ request_id: "r1", status: "OK", payload: null, payload_error: "too large" })).toMatchObject({ status: "OK", payload: null, payloadMissing: true, error: expect.stringMatching(/too large/) });
    for (const bad of [null, "x", {}, { request_id: "r", status: "DONE" }, { status: "OK" }]) {
      expect(() => parseFalWebhook(bad)).toThrow(ImageAiProviderError);
    }
  });

  it("verifies the HMAC token of our request id, timing-safely, and nothing else", () => {
    const token = falWebhookToken("req_1", SECRET);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyFalWebhook({ requestId: "req_1", token, secret: SECRET })).toBe(true);
    expect(verifyFalWebhook({ requestId: "req_1", token: token.toUpperCase(), secret: SECRET })).toBe(true);
    expect(verifyFalWebhook({ requestId: "req_2", token, secret: SECRET })).toBe(false);
    expect(verifyFalWebhook({ requestId: "req_1", token, secret: "other" })).toBe(false);
    expect(verifyFalWebhook({ requestId: "req_1", token: token.slice(0, 63), secret: SECRET })).toBe(false);
    expect(verifyFalWebhook({ requestId: "req_1", token: "zz".repeat(32), secret: SECRET })).toBe(false);
    expect(verifyFalWebhook({ requestId: "req_1", token: null, secret: SECRET })).toBe(false);
    expect(verifyFalWebhook({ requestId: null, token, secret: SECRET })).toBe(false);
    const url = new URL(falWebhookUrl("https://shop.example", "req_1", SECRET));
    expect(url.pathname).toBe("/api/fal/webhook");
    expect(url.searchParams.get("request")).toBe("req_1");
    expect(url.searchParams.get("token")).toBe(token);
  });
});

describe("mapping", () => {
  const sample: Record<ImageAiOperation, unknown> = {
    "train-flux": { image_urls: ["/uploads/a.jpg", "/uploads/b.jpg", "/uploads/c.jpg", "/uploads/d.jpg"], trigger_word: "ANNA" },
    "train-flux-admin": { image_urls: ["/uploads/a.jpg", "/uploads/b.jpg", "/uploads/c.jpg", "/uploads/d.jpg"], trigger_word: "HOUSE_1" },
    "train-flux-product": { image_urls: ["/uploads/a.jpg"], trigger_word: "SKU" },
    "generate-flux-lora": { prompt: "a coat", loras: [{ url: "https://x.test/l.safetensors", scale: 0.8 }] },
    "generate-flux-lora-clone": { prompt: "ANNA in a coat", loras: [{ url: "https://x.test/l.safetensors" }] },
    "generate-flux-lora-raw": { prompt: "a coat" },
    "generate-flux-lora-clone-raw": { prompt: "ANNA in a coat", loras: [{ url: "https://x.test/l.safetensors" }] },
    "generate-custom-flux-lora-raw": { prompt: "x", loras: [{ url: "/uploads/loras/x.safetensors" }] },
    "flux-change-model": { image_url: "/uploads/p.jpg", loras: [{ url: "https://x.test/l.safetensors" }], prompt: "ANNA wearing the dress" },
    "flux-profile-image": { image_urls: ["/uploads/a.jpg"], trigger_word: "ANNA" },
    "remove-object": { image_url: "/uploads/p.jpg", mask_url: "/uploads/m.png" },
    "generate-flux-product-shot": { image_url: "/uploads/p.jpg" },
    "edit-flux-product-shot": { image_url: "/uploads/p.jpg", prompt: "on a beach" },
    "vton-flux": { person_image_url: "/uploads/p.jpg", garment_image_url: "/uploads/g.jpg", category: "one-pieces", enable_add_details: false },
    "flux-lora-fill": { image_url: "/uploads/p.jpg", mask_url: "/uploads/m.png" },
    "chrono-edit": { image_urls: ["/uploads/p.jpg"], prompt: "x" },
    "reve-edit": { image_urls: ["/uploads/p.jpg"], prompt: "x" },
    "seedream-v4-edit": { image_urls: ["/uploads/p.jpg"], prompt: "x" },
    "gemini-image-edit": { image_urls: ["/uploads/p.jpg"], prompt: "x" },
  };

  it("every operation maps to an endpoint of its app with an input fal's validation accepts", () => {
    for (const op of IMAGE_AI_OPERATIONS) {
      const input = imageAiInputs[op].parse(sample[op]);
      const call = falCallFor(op, input as never, { abs: publicUrl, imagesDataUrl: `${ORIGIN}/uploads/images/ai/training/x.zip` });
      expect(call.endpoint === FAL_APPS[op] || call.endpoint.startsWith(`${FAL_APPS[op]}/`), op).toBe(true);
      expect(validateFalInput(call.endpoint, call.input), op).toEqual([]);
      expect(provider.supports(op)).toBe(true);
    }
  });

  it("raw prompts are sent as written, others get the photo-quality suffix; LoRA urls become paths", () => {
    const raw = falCallFor("generate-flux-lora-raw", imageAiInputs["generate-flux-lora-raw"].parse({ prompt: "a coat" }), { abs: publicUrl });
    const enhanced = falCallFor("generate-flux-lora", imageAiInputs["generate-flux-lora"].parse({ prompt: "a coat", seed: 9 }), { abs: publicUrl });
    expect(raw.input.prompt).toBe("a coat");
    expect(String(enhanced.input.prompt)).toMatch(/^a coat, .*photograph/);
    expect(enhanced.input).toMatchObject({ seed: 9, image_size: "portrait_4_3", num_images: 1 });
    const custom = falCallFor("generate-custom-flux-lora-raw", imageAiInputs["generate-custom-flux-lora-raw"].parse({ prompt: "x", loras: [{ url: "/uploads/l.safetensors", scale: 1.2 }] }), { abs: publicUrl });
    expect(custom.input.loras).toEqual([{ path: `${ORIGIN}/uploads/l.safetensors`, scale: 1.2 }]);
    const shot = falCallFor("generate-flux-product-shot", imageAiInputs["generate-flux-product-shot"].parse({ image_url: "/uploads/p.jpg", scene: "beach <b>", background_color: "#1b2a80", image_size: "square_hd" }), { abs: publicUrl });
    expect(shot.input).toMatchObject({ scene_description: "beach b, plain navy background", shot_size: [1024, 1024], num_results: 1 });
    const vton = falCallFor("vton-flux", imageAiInputs["vton-flux"].parse({ person_image_url: "https://x/p.jpg", garment_image_url: "https://x/g.jpg", category: "tops", enable_add_details: false }), { abs: publicUrl });
    expect(vton.input.mode).toBe("balanced");
    expect(vton.meta).toEqual({ prompt_strength: 0.85 });
    const profile = falCallFor("flux-profile-image", imageAiInputs["flux-profile-image"].parse({ image_urls: ["/uploads/a.jpg"], loras: [{ url: "https://x/l" }], trigger_word: "ANNA" }), { abs: publicUrl });
    expect(profile.endpoint).toBe("fal-ai/flux-lora");
    expect(profile.input).toMatchObject({ image_size: "square_hd", prompt: expect.stringMatching(/^ANNA, head-and-shoulders/) });
  });

  it("falOutputFromPayload per family", () => {
    expect(falOutputFromPayload("train-flux", { diffusers_lora_file: { url: "https://f/l.safetensors" }, config_file: { url: "https://f/c.json" } }, { trigger_word: "ANNA" })).toMatchObject({
      images: [],
      lora_url: "https://f/l.safetensors",
      trigger_word: "ANNA",
      meta: { config_file: "https://f/c.json" },
    });
    expect(falOutputFromPayload("generate-flux-lora", { images: [{ url: "https://f/1.jpg", width: 768, height: 1024, content_type: "image/jpeg" }], seed: 12, has_nsfw_concepts: [false], prompt: "p" })).toMatchObject({
      images: [{ url: "https://f/1.jpg", width: 768, height: 1024, content_type: "image/jpeg" }],
      seed: 12,
      meta: { has_nsfw_concepts: [false] },
    });
    expect(falOutputFromPayload("remove-object", { image: { url: "https://f/e.png" }, used_seed: 4 })).toMatchObject({ images: [{ url: "https://f/e.png" }], seed: 4 });
    expect(falOutputFromPayload("vton-flux", { images: [{ url: "https://f/v.png", width: 0 }] }).images).toEqual([{ url: "https://f/v.png" }]);
    expect(falOutputFromPayload("gemini-image-edit", { images: [{ url: "https://f/g.png" }], description: "Done" }).meta).toMatchObject({ description: "Done" });
    expect(falOutputFromPayload("generate-flux-product-shot", { images: [{ url: "https://f/s.png" }] }).images).toHaveLength(1);
    for (const [op, payload] of [
      ["train-flux", { config_file: { url: "x" } }],
      ["vton-flux", { images: [] }],
      ["chrono-edit", null],
      ["reve-edit", { images: [{ nope: 1 }] }],
    ] as [ImageAiOperation, unknown][]) {
      expect(() => falOutputFromPayload(op, payload), op).toThrow(ImageAiProviderError);
    }
  });

  it("progress from fal's logs", () => {
    const l = (message: string) => ({ message, level: "INFO" as const, source: "USER" as const, timestamp: "" });
    expect(progressFromLogs([l("Loading"), l("step 300/1000"), l("saving")])).toEqual({ progress: 30, message: "saving" });
    expect(progressFromLogs([l("45%|████")])).toEqual({ progress: 45, message: "45%|████" });
    expect(progressFromLogs([])).toEqual({});
  });

  it("health does not call fal and a missing key is refused at construction", async () => {
    const before = fal.calls.length;
    expect((await provider.health()).ok).toBe(true);
    expect(fal.calls.length).toBe(before);
    expect(() => make({ credentials: "" })).toThrow(/FAL_KEY/);
  });
});
