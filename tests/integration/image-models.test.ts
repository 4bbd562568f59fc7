/**
 * /fal/* image-model endpoints and the request life cycle (app/services/image-ai): start → job →
 * settle (outputs copied into storage, target hook once), the poll path of queued providers,
 * retries, cancellation, ownership and access.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { IMAGE_AI_OPERATIONS, LOCAL_OPERATIONS } from "../../app/providers/image-ai/port";
import {
  getImageAiRequest,
  registerImageAiTarget,
  settleImageAiRequest,
  startImageAiRequest,
  type ImageAiRequestRecord,
} from "../../app/services/image-ai/requests.server";
import { POLL_DEADLINE_MS } from "../../app/services/image-ai/jobs.server";
import { startWorkerLoops } from "../../app/jobs/lanes.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, fakePng, type FakeImageAi } from "../helpers/fake-image-ai";

const hookCalls: { kind: string; id: string; arg: unknown }[] = [];
registerImageAiTarget("tool", {
  async progress(_ctx, req) {
    hookCalls.push({ kind: "progress", id: req.id, arg: req.progress });
  },
  async completed(_ctx, req, output) {
    hookCalls.push({ kind: "completed", id: req.id, arg: output });
  },
  async failed(_ctx, req, error) {
    hookCalls.push({ kind: "failed", id: req.id, arg: error });
  },
});
const hooksOf = (id: string, kind?: string) => hookCalls.filter((c) => c.id === id && (!kind || c.kind === kind));

// A stand-in for a provider's file host (fal's CDN): PNG, text, and a slow answer.
let server: http.Server;
let origin = "";
beforeAll(async () => {
  const png = await fakePng();
  server = http.createServer((req, res) => {
    if (req.url?.startsWith("/out.png")) {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.from(png));
    } else if (req.url?.startsWith("/not-an-image")) {
      res.writeHead(200, { "content-type": "image/png" });
      res.end("<html>nope</html>");
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let app: TestApp;
let fake: FakeImageAi;
let admin: { id: string; token: string };
let shopper: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  fake = createFakeImageAi();
  app = await createTestApp({ imageAi: fake, env: { FAL_BASE_URL: origin } });
  admin = await app.createUser({ role: "ADMIN", permissions: ["ai.train"] });
  shopper = await app.createUser();
  other = await app.createUser();
});
afterAll(() => app?.close());
beforeEach(() => {
  fake.reset();
  fake.options = {};
});

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
/** Makes jobs scheduled for later (poll, retry backoff) due now. */
const fastForward = () => app.database.db.job.updateMany({ where: { status: "queued" }, data: { run_at: new Date(Date.now() - 1000) } });
const row = async (id: string) => (await getImageAiRequest(app.ctx, id))!;

const removeObject = { image_url: "/uploads/images/source.png", box: { x: 1, y: 2, width: 10, height: 10 } };

describe("admin tools: POST /fal/<op>", () => {
  it("starts a request (201, queued) that the worker completes, with the output in our storage", async () => {
    const res = await app.api("POST", "/fal/remove-object", { token: admin.token, body: removeObject });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ operation: "remove-object", status: "queued", provider: "local", progress: 0, images: [], target_type: "tool" });
    const id = res.body.request_id as string;

    expect(await drain()).toBeGreaterThan(0);
    expect(fake.submits).toHaveLength(1);
    expect(fake.submits[0].op).toBe("remove-object");
    expect(fake.submits[0].input).toMatchObject(removeObject);
    expect(fake.submits[0].opts.requestId).toBe(id);
    expect(fake.submits[0].opts.webhookUrl).toBeUndefined(); // not fal, no APP_URL

    const got = await app.api("GET", `/fal/requests/${id}`, { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ request_id: id, status: "completed", progress: 100, error: null });
    expect(got.body.images).toHaveLength(1);
    const url = got.body.images[0].url as string;
    expect(url).toMatch(/^\/uploads\/images\/ai\//);
    expect(await app.ctx.storage.get(url.replace("/uploads/", ""))).not.toBeNull();
    expect(got.body.started_at).toBeTruthy();
    expect(got.body.completed_at).toBeTruthy();
    // progress reported inside submit reached the hook, then completion once
    expect(hooksOf(id, "progress").length).toBeGreaterThanOrEqual(1);
    expect(hooksOf(id, "completed")).toHaveLength(1);
  });

  it("validates the operation's input (400)", async () => {
    const noTarget = await app.api("POST", "/fal/remove-object", { token: admin.token, body: { image_url: "/uploads/images/a.png" } });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error.message).toMatch(/mask_url or box/);
    const noPrompt = await app.api("POST", "/fal/generate-flux-lora", { token: admin.token, body: {} });
    expect(noPrompt.status).toBe(400);
    const badUrl = await app.api("POST", "/fal/chrono-edit", { token: admin.token, body: { image_urls: ["file:///etc/passwd"], prompt: "x" } });
    expect(badUrl.status).toBe(400);
    expect(await app.database.db.imageAiRequest.count({ where: { user_id: admin.id, operation: "chrono-edit" } })).toBe(0);
  });

  it("answers 501 naming fal when the provider cannot do the operation", async () => {
    fake.options.unsupported = ["chrono-edit"];
    const res = await app.api("POST", "/fal/chrono-edit", { token: admin.token, body: { image_urls: ["https://cdn.example.com/a.jpg"], prompt: "make it blue" } });
    expect(res.status).toBe(501);
    expect(res.body.error.message).toMatch(/chrono-edit needs the fal image provider/);
    expect(fake.submits).toHaveLength(0);
  });

  it("is for admins with ai.train only (403)", async () => {
    const asShopper = await app.api("POST", "/fal/remove-object", { token: shopper.token, body: removeObject });
    expect(asShopper.status).toBe(403);
    const lacking = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
    expect((await app.api("POST", "/fal/remove-object", { token: lacking.token, body: removeObject })).status).toBe(403);
    expect((await app.api("POST", "/fal/remove-object", { body: removeObject })).status).toBe(401);
  });

  it("every tool operation starts a request on the tool target", async () => {
    const bodies: Record<string, unknown> = {
      "generate-flux-lora": { prompt: "a red dress" },
      "generate-flux-lora-raw": { prompt: "a red dress", num_images: 2 },
      "generate-custom-flux-lora-raw": { prompt: "x", loras: [{ url: "https://cdn.example.com/l.safetensors" }] },
      "flux-change-model": { image_url: "https://cdn.example.com/p.jpg", loras: [{ url: "https://cdn.example.com/l.safetensors" }], prompt: "x" },
      "generate-flux-product-shot": { image_url: "/uploads/images/p.png" },
      "edit-flux-product-shot": { image_url: "/uploads/images/p.png", prompt: "on a beach" },
      "flux-lora-fill": { image_url: "/uploads/images/p.png", mask_url: "/uploads/images/m.png" },
      "reve-edit": { image_urls: ["/uploads/images/p.png"], prompt: "x" },
      "seedream-v4-edit": { image_urls: ["/uploads/images/p.png"], prompt: "x" },
      "gemini-image-edit": { image_urls: ["/uploads/images/p.png"], prompt: "x" },
    };
    for (const [op, body] of Object.entries(bodies)) {
      const res = await app.api("POST", `/fal/${op}`, { token: admin.token, body });
      expect(res.status, `${op}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body).toMatchObject({ operation: op, status: "queued", target_type: "tool", target_id: op });
    }
    await drain();
    expect(fake.submits.map((s) => s.op).sort()).toEqual(Object.keys(bodies).sort());
    const raw = fake.submits.find((s) => s.op === "generate-flux-lora-raw")!;
    const done = await row(raw.opts.requestId);
    expect(done.status).toBe("completed");
    expect((done.output as { images: unknown[] }).images).toHaveLength(2);
  });

  it("generation with a clone adds the clone's LoRA and trigger word; a clone without one is refused", async () => {
    const trained = await app.database.db.clone.create({ data: { name: "Ava", lora_url: "https://cdn.example.com/ava.safetensors", trigger_word: "AVA_01", isPublic: true } });
    const untrained = await app.database.db.clone.create({ data: { name: "Bo" } });
    const res = await app.api("POST", "/fal/generate-flux-lora-clone", { token: admin.token, body: { clone_id: trained.id, prompt: "walking in Paris" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = await row(res.body.request_id);
    expect(stored.input).toMatchObject({ prompt: "AVA_01 walking in Paris", loras: [{ url: "https://cdn.example.com/ava.safetensors", scale: 1 }] });
    expect(stored.input).not.toHaveProperty("clone_id");
    expect((await app.api("POST", "/fal/generate-flux-lora-clone-raw", { token: admin.token, body: { clone_id: untrained.id, prompt: "x" } })).status).toBe(422);
    expect((await app.api("POST", "/fal/generate-flux-lora-clone", { token: admin.token, body: { clone_id: "00000000-0000-4000-8000-000000000000", prompt: "x" } })).status).toBe(404);
  });
});

describe("GET /fal/requests/{id} and ownership", () => {
  it("the owner and admins with ai.train see a request; other users get 404", async () => {
    const req = await startImageAiRequest(app.ctx, { operation: "remove-object", input: removeObject, userId: shopper.id, target: { type: "tool", id: "t" } });
    expect((await app.api("GET", `/fal/requests/${req.id}`, { token: shopper.token })).status).toBe(200);
    expect((await app.api("GET", `/fal/requests/${req.id}`, { token: admin.token })).status).toBe(200);
    const stranger = await app.api("GET", `/fal/requests/${req.id}`, { token: other.token });
    expect(stranger.status).toBe(404);
    const lacking = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
    expect((await app.api("GET", `/fal/requests/${req.id}`, { token: lacking.token })).status).toBe(404);
    expect((await app.api("GET", "/fal/requests/not-a-uuid", { token: admin.token })).status).toBe(404);
    expect((await app.api("GET", `/fal/requests/${req.id}`)).status).toBe(401);
    expect((await app.api("POST", `/fal/requests/${req.id}/cancel`, { token: other.token })).status).toBe(404);
  });
});

describe("GET /fal/capabilities", () => {
  it("lists every operation with its provider and whether it is supported", async () => {
    fake.options.unsupported = ["gemini-image-edit"];
    const res = await app.api("GET", "/fal/capabilities", { token: shopper.token });
    expect(res.status).toBe(200);
    expect(res.body.operations).toHaveLength(IMAGE_AI_OPERATIONS.length);
    const gemini = res.body.operations.find((o: { operation: string }) => o.operation === "gemini-image-edit");
    expect(gemini).toMatchObject({ provider: "local", supported: false });
    expect(gemini.message).toMatch(/fal/);
    expect((await app.api("GET", "/fal/capabilities")).status).toBe(401);
  });

  it("with the real configuration: the local provider does LOCAL_OPERATIONS, the rest need fal", async () => {
    const plain = await createTestApp();
    try {
      const guest = await plain.createUser({ authProvider: "guest" });
      const res = await plain.api("GET", "/fal/capabilities", { token: guest.token });
      expect(res.status).toBe(200);
      expect(res.body.adapter).toBe("local");
      for (const o of res.body.operations) {
        expect(o.provider).toBe("local");
        expect(o.supported, o.operation).toBe(LOCAL_OPERATIONS.has(o.operation));
      }
      const admin2 = await plain.createUser({ role: "ADMIN", permissions: ["ai.train"] });
      const r = await plain.api("POST", "/fal/seedream-v4-edit", { token: admin2.token, body: { image_urls: ["/uploads/images/a.png"], prompt: "x" } });
      expect(r.status).toBe(501);
      expect(r.body.error.message).toContain("IMAGE_AI_ROUTES=seedream-v4-edit=fal");
    } finally {
      await plain.close();
    }
  });
});

describe("settlement", () => {
  const start = () => startImageAiRequest(app.ctx, { operation: "remove-object", input: removeObject, userId: admin.id, target: { type: "tool", id: "settle" } });

  it("copies provider images that are not ours into images/ai/<id>-<n>", async () => {
    fake.options.output = () => ({ images: [{ url: `${origin}/out.png` }, { url: `/uploads/images/kept.png`, width: 5, height: 5 }] });
    const req = await start();
    await drain();
    const done = await row(req.id);
    expect(done.status, done.error ?? "").toBe("completed");
    const images = (done.output as { images: { url: string; width?: number; content_type?: string }[] }).images;
    expect(images[0]).toMatchObject({ url: `/uploads/images/ai/${req.id}-1.png`, width: 64, height: 64, content_type: "image/png" });
    expect(images[1].url).toBe("/uploads/images/kept.png");
    expect(await app.ctx.storage.get(`images/ai/${req.id}-1.png`)).not.toBeNull();
  });

  it("a result that is not an image fails the request", async () => {
    fake.options.output = () => ({ images: [{ url: `${origin}/not-an-image` }] });
    const req = await start();
    await drain();
    const done = await row(req.id);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/not an image/);
    expect(hooksOf(req.id, "failed")).toHaveLength(1);
  });

  it("settles once: repeats and concurrent settlements change nothing and call the hook once", async () => {
    fake.options.mode = "submitted";
    const req = await start();
    await drain();
    const output = { images: [{ url: "/uploads/images/x.png" }] };
    const results = await Promise.all([
      settleImageAiRequest(app.ctx, req.id, { state: "completed", output }),
      settleImageAiRequest(app.ctx, req.id, { state: "completed", output }),
      settleImageAiRequest(app.ctx, req.id, { state: "failed", error: "late error" }),
    ]);
    expect(results.filter((r) => r.settled)).toHaveLength(1);
    const again = await settleImageAiRequest(app.ctx, req.id, { state: "failed", error: "after" });
    expect(again.settled).toBe(false);
    const done = await row(req.id);
    expect(hooksOf(req.id, "completed").length + hooksOf(req.id, "failed").length).toBe(1);
    const completedAt = done.completed_at;
    await settleImageAiRequest(app.ctx, req.id, { state: "completed", output: { images: [] } });
    expect((await row(req.id)).completed_at).toEqual(completedAt);
  });

  it("a non-retryable provider error fails the request with its message", async () => {
    fake.options.fail = { message: "the photo has no person", retryable: false };
    const req = await start();
    await drain();
    const done = await row(req.id);
    expect(done).toMatchObject({ status: "failed", error: "the photo has no person" });
    expect(hooksOf(req.id, "failed")).toEqual([expect.objectContaining({ arg: "the photo has no person" })]);
  });

  it("a retryable provider error runs again with a backoff, then completes", async () => {
    fake.options.fail = { message: "fal answered 503", retryable: true, times: 1 };
    const req = await start();
    await drain();
    let r = await row(req.id);
    expect(r.status).toBe("in_progress");
    expect(r.message).toMatch(/Retrying: fal answered 503/);
    const retry = await app.database.db.job.findFirst({ where: { queue: "image-ai.run", status: "queued" } });
    expect(retry!.run_at.getTime()).toBeGreaterThan(Date.now());
    await fastForward();
    await drain();
    r = await row(req.id);
    expect(r.status).toBe("completed");
    expect(fake.submits).toHaveLength(2);
  });

  it("retryable errors that persist fail after the last attempt", async () => {
    fake.options.fail = { message: "timeout", retryable: true };
    const req = await start();
    for (let i = 0; i < 6; i++) {
      await fastForward();
      await drain();
    }
    const r = await row(req.id);
    expect(r).toMatchObject({ status: "failed", error: "timeout" });
    expect(fake.submits).toHaveLength(4);
  });
});

describe("queued providers: the poll path", () => {
  const start = () => startImageAiRequest(app.ctx, { operation: "vton-flux", input: { person_image_url: "/uploads/images/p.png", garment_image_url: "/uploads/images/g.png", category: "tops" }, userId: shopper.id, target: { type: "tool", id: "poll" } });

  it("stores the provider request id and polls (2 s → 30 s) until it completes", async () => {
    fake.options.mode = "submitted";
    const req = await start();
    await drain();
    let r = await row(req.id);
    expect(r.status).toBe("in_progress");
    expect(r.provider_request_id).toBe(fake.submitted[0]);
    const poll = await app.database.db.job.findFirst({ where: { queue: "image-ai.poll", status: "queued" } });
    expect(poll!.run_at.getTime()).toBeGreaterThan(Date.now());
    expect(poll!.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 2_500);

    await fastForward();
    await drain(); // queued at the provider
    expect((await row(req.id)).message).toMatch(/Waiting in the provider's queue/);

    fake.setProgress(undefined, 40, "Fitting the garment");
    await fastForward();
    await drain();
    r = await row(req.id);
    expect(r).toMatchObject({ status: "in_progress", progress: 40, message: "Fitting the garment" });
    const next = await app.database.db.job.findFirst({ where: { queue: "image-ai.poll", status: "queued" }, orderBy: { created_at: "desc" } });
    expect(next!.run_at.getTime()).toBeGreaterThan(Date.now() + 3_000); // backing off

    await fake.complete();
    await fastForward();
    await drain();
    r = await row(req.id);
    expect(r.status).toBe("completed");
    expect((r.output as { images: unknown[] }).images).toHaveLength(1);
    expect(hooksOf(req.id, "completed")).toHaveLength(1);
    expect(await app.database.db.job.count({ where: { queue: "image-ai.poll", status: "queued" } })).toBe(0);
  });

  it("a provider failure fails the request", async () => {
    fake.options.mode = "submitted";
    const req = await start();
    await drain();
    fake.failRequest(undefined, "garment not detected");
    await fastForward();
    await drain();
    expect(await row(req.id)).toMatchObject({ status: "failed", error: "garment not detected" });
  });

  it("gives up after the deadline (timed out) and cancels at the provider", async () => {
    fake.options.mode = "submitted";
    const req = await start();
    await drain();
    await app.database.db.imageAiRequest.update({ where: { id: req.id }, data: { started_at: new Date(Date.now() - POLL_DEADLINE_MS - 60_000) } });
    await fastForward();
    await drain();
    const r = await row(req.id);
    expect(r.status).toBe("failed");
    expect(r.error).toMatch(/timed out/);
    expect(fake.calls.some((c) => c.method === "cancel")).toBe(true);
  });
});

describe("POST /fal/requests/{id}/cancel", () => {
  it("cancels a running request at the provider, tells the target, and later results are ignored", async () => {
    fake.options.mode = "submitted";
    const res = await app.api("POST", "/fal/remove-object", { token: admin.token, body: removeObject });
    const id = res.body.request_id as string;
    await drain();
    const cancelled = await app.api("POST", `/fal/requests/${id}/cancel`, { token: admin.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    expect(fake.calls.filter((c) => c.method === "cancel")).toHaveLength(1);
    expect(hooksOf(id, "failed")).toEqual([expect.objectContaining({ arg: "Cancelled" })]);

    await fake.complete();
    await fastForward();
    await drain();
    expect((await row(id)).status).toBe("cancelled");
    const again = await app.api("POST", `/fal/requests/${id}/cancel`, { token: admin.token });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("cancelled");
    expect(hooksOf(id, "failed")).toHaveLength(1);
  });

  it("a queued request is cancelled before it runs (never submitted)", async () => {
    const res = await app.api("POST", "/fal/remove-object", { token: admin.token, body: removeObject });
    const cancelled = await app.api("POST", `/fal/requests/${res.body.request_id}/cancel`, { token: admin.token });
    expect(cancelled.body.status).toBe("cancelled");
    await drain();
    expect(fake.submits).toHaveLength(0);
    expect((await row(res.body.request_id)).status).toBe("cancelled");
  });

  it("a finished request is answered unchanged", async () => {
    const res = await app.api("POST", "/fal/remove-object", { token: admin.token, body: removeObject });
    await drain();
    const r = await app.api("POST", `/fal/requests/${res.body.request_id}/cancel`, { token: admin.token });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("completed");
  });
});

describe("shopper endpoints of other areas", () => {
  it("vton-flux, train-flux and flux-profile-image answer 501 when the provider cannot do them", async () => {
    fake.options.only = [];
    const vton = await app.api("POST", "/fal/vton-flux", { token: shopper.token, body: { ai_clone_id: "c", shopify_product_id: "1001" } });
    expect(vton.status).toBe(501);
    expect(vton.body.error.message).toMatch(/vton-flux needs the fal image provider/);
    expect((await app.api("POST", "/fal/train-flux", { token: shopper.token, body: { clone_id: "c" } })).status).toBe(501);
    expect((await app.api("POST", "/fal/flux-profile-image/c", { token: shopper.token })).status).toBe(501);
    expect((await app.api("POST", "/fal/train-flux-admin", { token: admin.token, body: { clone_id: "c" } })).status).toBe(501);
  });

  it("validate their bodies (400) and need a session (401)", async () => {
    expect((await app.api("POST", "/fal/vton-flux", { token: shopper.token, body: { ai_clone_id: "c" } })).status).toBe(400);
    expect((await app.api("POST", "/fal/vton-flux", { token: shopper.token, body: { ai_clone_id: "c", shopify_product_id: "1", prompt_strength: 3 } })).status).toBe(400);
    expect((await app.api("POST", "/fal/train-flux", { token: shopper.token, body: { trigger_word: "x y" } })).status).toBe(400);
    expect((await app.api("POST", "/fal/train-flux", { body: { clone_id: "c" } })).status).toBe(401);
    expect((await app.api("POST", "/fal/train-flux-product", { token: shopper.token, body: { clone_id: "c" } })).status).toBe(403);
  });

  it("add-product-generated-image validates its body and is admin-only", async () => {
    expect((await app.api("POST", "/fal/add-product-generated-image", { token: admin.token, body: { image_url: "/uploads/images/a.png" } })).status).toBe(400);
    expect((await app.api("POST", "/fal/add-product-generated-image", { token: shopper.token, body: { product_id: "1", image_url: "/uploads/images/a.png" } })).status).toBe(403);
  });
});

describe("worker loops", () => {
  it("the image-AI jobs run in a loop of their own; drain runs both", async () => {
    const req = await startImageAiRequest(app.ctx, { operation: "remove-object", input: removeObject, userId: admin.id });
    await app.ctx.queue.enqueue("system.ping", { hello: 1 });
    const w = startWorkerLoops(app.ctx, jobHandlers, { autoStart: false });
    expect(await w.drain()).toBeGreaterThanOrEqual(2);
    expect((await row(req.id)).status).toBe("completed");
    await w.stop();
  });
});

export type { ImageAiRequestRecord };
