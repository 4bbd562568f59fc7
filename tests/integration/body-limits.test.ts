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
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { createTestApp, TEST_API_KEY, type TestApp } from "../helpers/app";

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
  setAppContext(app.ctx);
  setPrisma(app.database.db);
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
    expect(res.body.error).toMatchObject({ code: "payload_too_large", message: "The request body is too large (at most 12 MB)" });
    expect(typeof res.body.error.requestId).toBe("string");
    const limit = bodyLimitOf(endpoints.visionProductSearch);
    expect(limit).toBe(12 * MB);
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
    for (const [name, def] of Object.entries(endpoints) as [string, { maxBodyBytes?: number; multipart?: object }][]) {
      expect(bodyLimitOf(def), name).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
      if (def.multipart) expect(bodyLimitOf(def), name).toBeGreaterThan(10 * MB);
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

describe("bodies read outside the API router", () => {
  type RouteFn = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown> | unknown;
  const route = async (module: string): Promise<RouteFn> => ((await import(/* @vite-ignore */ module)) as { action: RouteFn }).action;

  /** Runs an action with a generated body; a thrown Response (Remix convention) is returned. */
  async function post(action: RouteFn, path: string, total: number, headers: Record<string, string>) {
    const { stream, stats } = generatedBody(total);
    const request = new Request(`http://localhost${path}`, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);
    let out: unknown;
    try {
      out = await action({ request, params: {}, context: { clientIp: "192.0.2.9" } });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      out = thrown;
    }
    expect(out).toBeInstanceOf(Response);
    return { res: out as Response, stats };
  }

  it("the local admin login (anonymous) answers 413 with the API's JSON error, reading at most its 1 MB limit", async () => {
    const { res, stats } = await post(await route("../../app/routes/app_.login"), "/app/login", 200 * MB, { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ code: "payload_too_large", message: "The request body is too large (at most 1 MB)" });
    expect(stats.pulled).toBeLessThanOrEqual(MB / CHUNK + 1);
  });

  it("an admin page's form and the media upload route stop at their limits", async () => {
    const admin = await app.createUser({ role: "ADMIN", permissions: ["media.manage", "catalog.edit"] });
    const auth = { authorization: `Bearer ${admin.token}` };
    const stores = await post(await route("../../app/routes/app.stores"), "/app/stores", 200 * MB, { ...auth, "content-type": "application/x-www-form-urlencoded" });
    expect(stores.res.status).toBe(413);
    // The page guard's text check reads a copy first (request.clone()): its tee pulls one chunk ahead.
    expect(stores.stats.pulled).toBeLessThanOrEqual(MB / CHUNK + 2);
    const upload = await post(await route("../../app/routes/app.media_.upload"), "/app/media/upload", 200 * MB, { ...auth, "content-type": "multipart/form-data; boundary=----b" });
    expect(upload.res.status).toBe(413);
    expect(await upload.res.json()).toEqual({ ok: false, error: "The request body is too large (at most 12 MB)" });
    expect(upload.stats.pulled).toBeLessThanOrEqual((12 * MB) / CHUNK + 1);
  });

  it("Shopify webhooks, fal webhooks and the GraphQL endpoints stop reading at their limits", async () => {
    const webhook = await post(await route("../../app/routes/webhooks.products"), "/webhooks/products", 200 * MB, {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": "AAAA",
      "x-shopify-topic": "products/update",
      "x-shopify-shop-domain": "x.myshopify.com",
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": "w-1",
    });
    expect(webhook.res.status).toBe(413);
    expect(webhook.stats.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES / CHUNK + 1);

    const fal = await post(await route("../../app/routes/api.fal.webhook"), "/api/fal/webhook?request=r&token=t", 200 * MB, { "content-type": "application/json" });
    expect(fal.res.status).toBe(413);
    expect(fal.stats.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES / CHUNK + 1);

    for (const module of ["../../app/routes/api.graphql", "../../app/routes/api.storefront.graphql"]) {
      const gql = await post(await route(module), "/api/graphql", 200 * MB, { "content-type": "application/json", "x-api-key": TEST_API_KEY });
      expect(gql.res.status, module).toBe(413);
      expect(gql.stats.pulled, module).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES / CHUNK + 1);
    }
  });
});
