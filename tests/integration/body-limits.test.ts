/**
 * Request bodies are counted while they stream in: the API refuses one past its endpoint's limit
 * with a 413 (JSON error) before buffering it, and one whose Content-Length says too much without
 * reading it. Uploads within their limits work as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleApiRequest } from "../../app/api/index.server";
import { bodyLimitOf } from "../../app/api/router.server";
import { endpoints } from "../../app/contract";
import { MAX_JSON_BODY_BYTES, MAX_REQUEST_BODY_BYTES } from "../../app/lib/body-limit.server";
import { createTestApp, type TestApp } from "../helpers/app";

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

function generatedBody(total: number) {
  const stats = { pulled: 0 };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        stats.pulled++;
        const n = Math.min(CHUNK, total - sent);
        sent += n;
        controller.enqueue(new Uint8Array(n).fill(0x2d));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, stats };
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

async function send(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>, token?: string) {
  const request = new Request(`http://localhost/api${path}`, {
    method: "POST",
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
    duplex: "half",
  } as RequestInit);
  const res = await handleApiRequest(request, app.ctx, { clientIp: "192.0.2.1" });
  return { status: res.status, body: await res.json() };
}

describe("streamed request bodies", () => {
  it("an anonymous 200 MB chunked upload is refused with 413 after reading at most its limit plus one chunk", async () => {
    const { stream, stats } = generatedBody(200 * MB);
    const res = await send("/vision/product-search", stream, { "content-type": "multipart/form-data; boundary=----b" });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "payload_too_large", message: "The request body is too large (at most 11 MB)" });
    expect(typeof res.body.error.requestId).toBe("string");
    const limit = bodyLimitOf(endpoints.visionProductSearch);
    expect(limit).toBe(11 * MB);
    expect(stats.pulled).toBeLessThanOrEqual(Math.ceil(limit / CHUNK) + 1);
  });

  it("a body whose Content-Length is above the limit is refused without reading a byte", async () => {
    const { stream, stats } = generatedBody(200 * MB);
    const res = await send("/vision/product-search", stream, { "content-type": "multipart/form-data; boundary=----b", "content-length": String(200 * MB) });
    expect(res.status).toBe(413);
    expect(stats.pulled).toBe(0);
  });

  it("a chunked JSON body stops being read at the JSON limit", async () => {
    const { stream, stats } = generatedBody(200 * MB);
    const res = await send("/auth/login", stream, { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(stats.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES / CHUNK + 1);
  });

  it("a multipart body sent to a JSON endpoint gets the JSON limit, and a broken multipart body is a 400", async () => {
    const { stream, stats } = generatedBody(50 * MB);
    const res = await send("/auth/login", stream, { "content-type": "multipart/form-data; boundary=----b" });
    expect(res.status).toBe(413);
    expect(stats.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES / CHUNK + 1);
    const broken = await send("/vision/product-search", generatedBody(1000).stream, { "content-type": "multipart/form-data; boundary=----b" });
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toBe("The request body is not valid multipart/form-data");
  });

  it("every endpoint's limit is within the ceiling, and uploads have room for their files", () => {
    for (const [name, def] of Object.entries(endpoints)) {
      expect(bodyLimitOf(def), name).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
      if ("multipart" in def && def.multipart) expect(bodyLimitOf(def), name).toBeGreaterThan(10 * MB);
    }
  });

  it("an upload within its limit works as before", async () => {
    const admin = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
    const sharp = (await import("sharp")).default;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c04040" } }).jpeg().toBuffer();
    const form = new FormData();
    form.set("file", new File([jpeg], "look.jpg", { type: "image/jpeg" }));
    form.set("title", "Look");
    const res = await app.api("POST", "/internal-media", { token: admin.token, body: form });
    expect(res.status).toBe(201);
  });
});
