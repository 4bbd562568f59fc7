/**
 * POST /api/fal/webhook: fal's completion callbacks. The URL carries our request id and an HMAC
 * token; settlement is idempotent (repeats, ERROR after OK, a webhook after the poll settled).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { falWebhookToken } from "../../app/providers/image-ai/fal-webhook";
import { getImageAiRequest, registerImageAiTarget, startImageAiRequest } from "../../app/services/image-ai/requests.server";
import { falWebhookSignatureRequired, handleFalWebhook } from "../../app/services/image-ai/webhook.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, fakePng, type FakeImageAi } from "../helpers/fake-image-ai";
import { startFakeFal, type FakeFal } from "../helpers/fal-server";

const settled: { id: string; kind: string }[] = [];
registerImageAiTarget("tool", {
  async completed(_ctx, req) {
    settled.push({ id: req.id, kind: "completed" });
  },
  async failed(_ctx, req) {
    settled.push({ id: req.id, kind: "failed" });
  },
});

let server: http.Server;
let origin = "";
let app: TestApp;
let fake: FakeImageAi;
let adminId: string;

beforeAll(async () => {
  const png = await fakePng();
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    res.end(Buffer.from(png));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = createFakeImageAi({ name: "fal", mode: "submitted" });
  app = await createTestApp({ imageAi: fake, env: { APP_URL: "https://shop.example.test", FAL_BASE_URL: origin, FAL_WEBHOOK_SECRET: "webhook-secret-for-tests" } });
  adminId = (await app.createUser({ role: "ADMIN", permissions: ["ai.train"] })).id;
});
afterAll(async () => {
  await app?.close();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => fake.reset());

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const row = async (id: string) => (await getImageAiRequest(app.ctx, id))!;

/** A submitted request: our id, fal's id and the webhook URL given to fal. */
async function submitted() {
  const req = await startImageAiRequest(app.ctx, {
    operation: "seedream-v4-edit",
    input: { image_urls: ["/uploads/images/a.png"], prompt: "make it red" },
    userId: adminId,
    target: { type: "tool", id: "webhook" },
  });
  await drain();
  const sub = fake.submits.find((s) => s.opts.requestId === req.id)!;
  const r = await row(req.id);
  return { id: req.id, falId: r.provider_request_id!, webhookUrl: sub.opts.webhookUrl! };
}

const post = (url: string, body: unknown) =>
  handleFalWebhook(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), app.ctx);
const ok = (falId: string) => ({ request_id: falId, gateway_request_id: falId, status: "OK", payload: { images: [{ url: `${origin}/result.png`, width: 64, height: 64 }], seed: 7 } });
const error = (falId: string) => ({ request_id: falId, gateway_request_id: falId, status: "ERROR", error: "Invalid status code: 422", payload: { detail: [{ loc: ["body", "prompt"], msg: "too long" }] } });

describe("POST /api/fal/webhook", () => {
  it("gives fal a signed webhook URL when APP_URL is set", async () => {
    const { id, webhookUrl } = await submitted();
    const u = new URL(webhookUrl);
    expect(u.origin + u.pathname).toBe("https://shop.example.test/api/fal/webhook");
    expect(u.searchParams.get("request")).toBe(id);
    expect(u.searchParams.get("token")).toBe(falWebhookToken(id, "webhook-secret-for-tests"));
  });

  it("a good webhook settles the request: the image is copied into our storage, the hook runs once", async () => {
    const { id, falId, webhookUrl } = await submitted();
    const res = await post(webhookUrl, ok(falId));
    expect(res.status).toBe(200);
    await drain();
    const r = await row(id);
    expect(r.status).toBe("completed");
    const images = (r.output as { images: { url: string }[]; seed: number }).images;
    expect(images[0].url).toBe(`/uploads/images/ai/${id}-1.png`);
    expect(await app.ctx.storage.get(`images/ai/${id}-1.png`)).not.toBeNull();
    expect((r.output as { seed: number }).seed).toBe(7);
    expect(settled.filter((s) => s.id === id)).toEqual([{ id, kind: "completed" }]);
  });

  it("refuses a bad or missing token (401) and answers 404 for an unknown request", async () => {
    const { id, falId, webhookUrl } = await submitted();
    const bad = new URL(webhookUrl);
    bad.searchParams.set("token", "0".repeat(64));
    expect((await post(bad.href, ok(falId))).status).toBe(401);
    bad.searchParams.delete("token");
    expect((await post(bad.href, ok(falId))).status).toBe(401);
    // a token for another request does not work for this one
    const other = new URL(webhookUrl);
    other.searchParams.set("token", falWebhookToken("another-id", "webhook-secret-for-tests"));
    expect((await post(other.href, ok(falId))).status).toBe(401);
    const unknownId = "11111111-1111-4111-8111-111111111111";
    const unknown = new URL(webhookUrl);
    unknown.searchParams.set("request", unknownId);
    unknown.searchParams.set("token", falWebhookToken(unknownId, "webhook-secret-for-tests"));
    expect((await post(unknown.href, ok(falId))).status).toBe(404);
    expect((await post(webhookUrl, { nonsense: true })).status).toBe(400);
    await drain();
    expect((await row(id)).status).toBe("in_progress");
  });

  it("duplicates are harmless: the same webhook twice (before and after settling) settles once", async () => {
    const { id, falId, webhookUrl } = await submitted();
    expect((await post(webhookUrl, ok(falId))).status).toBe(200);
    expect((await post(webhookUrl, ok(falId))).status).toBe(200);
    await drain();
    const again = await post(webhookUrl, ok(falId));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ignored: "already completed" });
    await drain();
    expect((await row(id)).status).toBe("completed");
    expect(settled.filter((s) => s.id === id)).toHaveLength(1);
  });

  it("out of order: an ERROR after the OK is ignored, whether the OK was processed or still queued", async () => {
    const a = await submitted();
    await post(a.webhookUrl, ok(a.falId));
    await drain();
    expect((await post(a.webhookUrl, error(a.falId))).status).toBe(200);
    await drain();
    expect((await row(a.id)).status).toBe("completed");

    const b = await submitted();
    await post(b.webhookUrl, ok(b.falId));
    await post(b.webhookUrl, error(b.falId));
    await drain();
    expect((await row(b.id)).status).toBe("completed");
    expect(settled.filter((s) => s.id === b.id)).toEqual([{ id: b.id, kind: "completed" }]);
  });

  it("an ERROR webhook fails the request with fal's message", async () => {
    const { id, falId, webhookUrl } = await submitted();
    expect((await post(webhookUrl, error(falId))).status).toBe(200);
    await drain();
    const r = await row(id);
    expect(r.status).toBe("failed");
    expect(r.error).toMatch(/422/);
    expect(r.error).toMatch(/prompt: too long/);
  });

  it("a webhook for another fal request of ours is ignored", async () => {
    const { id, webhookUrl } = await submitted();
    const res = await post(webhookUrl, ok("some-other-fal-id"));
    expect(res.status).toBe(200);
    await drain();
    expect((await row(id)).status).toBe("in_progress");
  });

  it("after the poll settled it, a late webhook changes nothing", async () => {
    const { id, falId, webhookUrl } = await submitted();
    await fake.complete(falId, { images: [{ url: "/uploads/images/from-poll.png" }] });
    await app.database.db.job.updateMany({ where: { status: "queued" }, data: { run_at: new Date(Date.now() - 1000) } });
    await drain();
    expect((await row(id)).status).toBe("completed");
    await post(webhookUrl, error(falId));
    await drain();
    const r = await row(id);
    expect(r.status).toBe("completed");
    expect((r.output as { images: { url: string }[] }).images[0].url).toBe("/uploads/images/from-poll.png");
    expect(settled.filter((s) => s.id === id)).toHaveLength(1);
  });

  it("OK without a payload makes us ask fal's queue now", async () => {
    const { id, falId, webhookUrl } = await submitted();
    await fake.complete(falId);
    const res = await post(webhookUrl, { request_id: falId, status: "OK", payload: null, payload_error: "too large" });
    expect(res.status).toBe(200);
    await drain(); // the immediate poll, no fast-forward needed
    expect((await row(id)).status).toBe("completed");
  });
});

describe("fal's ED25519 signature (FAL_WEBHOOK_VERIFY_SIGNATURE)", () => {
  let fal: FakeFal;
  let receiver: http.Server;
  let receiverOrigin = "";
  let jwksLoads = 0;
  const loadJwks = async () => {
    jwksLoads++;
    return fal.jwks;
  };
  let original: TestApp["ctx"]["config"];

  beforeAll(async () => {
    fal = await startFakeFal();
    // Our route's part in front of handleFalWebhook: the raw text of the body, as received.
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void (async () => {
          const rawBody = Buffer.concat(chunks).toString("utf8");
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
          const request = new Request(`${receiverOrigin}${req.url}`, { method: req.method, headers, body: rawBody });
          const response = await handleFalWebhook(request, app.ctx, { rawBody, loadJwks });
          res.writeHead(response.status, { "content-type": "application/json" });
          res.end(await response.text());
        })();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    original = app.ctx.config;
    app.ctx.config = { ...original, FAL_WEBHOOK_VERIFY_SIGNATURE: "on" };
  });
  afterAll(async () => {
    if (original) app.ctx.config = original;
    await fal?.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  /** A request of ours submitted to the fake fal server, which delivers its signed webhook to our receiver. */
  async function submittedToFal() {
    const { id, webhookUrl } = await submitted();
    const ours = new URL(webhookUrl);
    const target = `${receiverOrigin}${ours.pathname}${ours.search}`;
    const res = await fetch(`${fal.baseUrl}/fal-ai/bytedance/seedream/v4/edit?fal_webhook=${encodeURIComponent(target)}`, {
      method: "POST",
      headers: { authorization: `Key ${fal.key}`, "content-type": "application/json" },
      body: JSON.stringify({ image_urls: ["https://cdn.example.test/a.png"], prompt: "make it red" }),
    });
    const falId = ((await res.json()) as { request_id: string }).request_id;
    await app.database.db.imageAiRequest.update({ where: { id }, data: { provider_request_id: falId } });
    return { id, falId, webhookUrl };
  }

  it("auto means on in production mode, and only when the fal provider is in use", () => {
    const ctx = { config: { ...original, FAL_WEBHOOK_VERIFY_SIGNATURE: "auto" as const }, imageAi: app.ctx.imageAi };
    expect(falWebhookSignatureRequired(ctx)).toBe(false);
    expect(falWebhookSignatureRequired({ ...ctx, config: { ...ctx.config, APP_MODE: "production" } })).toBe(true);
    expect(falWebhookSignatureRequired({ ...ctx, config: { ...ctx.config, FAL_WEBHOOK_VERIFY_SIGNATURE: "off", APP_MODE: "production" } })).toBe(false);
    expect(falWebhookSignatureRequired({ config: { ...ctx.config, FAL_WEBHOOK_VERIFY_SIGNATURE: "on" }, imageAi: { ...app.ctx.imageAi, providers: {} } })).toBe(false);
    expect(original.FAL_WEBHOOK_VERIFY_SIGNATURE).toBe("auto");
    expect(original.FAL_WEBHOOK_JWKS_URL).toBe("https://rest.fal.ai/.well-known/jwks.json");
  });

  let delivered: { id: string; webhookUrl: string; headers: Record<string, string>; raw: string } | null = null;

  it("a delivery signed by fal passes and settles the request", async () => {
    const { id, falId, webhookUrl } = await submittedToFal();
    await fal.idle();
    const attempt = fal.webhooks.filter((w) => w.requestId === falId).at(-1)!;
    expect(attempt.status).toBe(200);
    expect(attempt.headers["x-fal-webhook-signature"]).toMatch(/^[0-9a-f]{128}$/);
    expect(jwksLoads).toBeGreaterThan(0);
    await drain();
    expect((await row(id)).status).toBe("completed");
    expect(settled.filter((s) => s.id === id)).toEqual([{ id, kind: "completed" }]);
    delivered = { id, webhookUrl, headers: attempt.headers, raw: JSON.stringify(attempt.body) };
  });

  const send = (url: string, body: string, headers: Record<string, string>, loader = loadJwks) =>
    handleFalWebhook(new Request(url, { method: "POST", headers, body }), app.ctx, { rawBody: body, loadJwks: loader });

  it("a tampered body is refused (401); the untouched one passes", async () => {
    const d = delivered!;
    const tampered = d.raw.replace('"status":"OK"', '"status":"ERROR"');
    expect(tampered).not.toBe(d.raw);
    const res = await send(d.webhookUrl, tampered, d.headers);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/signature/);
    const genuine = await send(d.webhookUrl, d.raw, d.headers);
    expect(genuine.status).toBe(200);
    expect(await genuine.json()).toMatchObject({ ignored: "already completed" });
  });

  it("missing signature headers with verification on: 401 without fetching keys; the request stays open", async () => {
    const { id, falId, webhookUrl } = await submitted();
    const loads = jwksLoads;
    expect((await send(webhookUrl, JSON.stringify(ok(falId)), { "content-type": "application/json" })).status).toBe(401);
    // a signature made for another delivery does not cover this body either
    expect((await send(webhookUrl, JSON.stringify(ok(falId)), delivered!.headers)).status).toBe(401);
    expect(jwksLoads).toBe(loads + 1);
    await drain();
    expect((await row(id)).status).toBe("in_progress");
    expect(settled.filter((s) => s.id === id)).toEqual([]);
  });

  it("the keys cannot be fetched: 503, so fal delivers again later", async () => {
    const d = delivered!;
    const res = await send(d.webhookUrl, d.raw, d.headers, async () => {
      throw new Error("getaddrinfo ENOTFOUND rest.fal.ai");
    });
    expect(res.status).toBe(503);
  });

  it("verification off: the URL token alone suffices", async () => {
    app.ctx.config = { ...original, FAL_WEBHOOK_VERIFY_SIGNATURE: "off" };
    try {
      const { id, falId, webhookUrl } = await submitted();
      expect((await post(webhookUrl, ok(falId))).status).toBe(200);
      await drain();
      expect((await row(id)).status).toBe("completed");
    } finally {
      app.ctx.config = { ...original, FAL_WEBHOOK_VERIFY_SIGNATURE: "on" };
    }
  });
});
