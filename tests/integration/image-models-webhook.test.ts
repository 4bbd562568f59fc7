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
import { handleFalWebhook } from "../../app/services/image-ai/webhook.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, fakePng, type FakeImageAi } from "../helpers/fake-image-ai";

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
