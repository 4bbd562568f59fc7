import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { endpoints, type EndpointDef } from "../../app/contract";
import { Messages } from "../../app/contract/messages";
import { handlers } from "../../app/api/index.server";
import { createApiHandler, type AllHandlers } from "../../app/api/router.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("routing errors", () => {
  it("an unknown path is 404 with the error body and a request id", async () => {
    const res = await app.api("GET", "/no/such/thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.error.code).toBe("not_found");
    expect(res.body.error.message).toContain("/no/such/thing");
    expect(res.body.error.requestId).toMatch(UUID);
    expect(res.headers.get("x-request-id")).toBe(res.body.error.requestId);
    expect(Object.keys(res.body)).toEqual(["error"]);
  });

  it("a known path with the wrong method is 405 with an allow header", async () => {
    const res = await app.api("DELETE", "/products");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.body.error.code).toBe("method_not_allowed");
    expect(res.body.error.requestId).toBeTruthy();

    const me = await app.api("PUT", "/users/me");
    expect(me.status).toBe(405);
    expect(me.headers.get("allow")!.split(", ").sort()).toEqual(["DELETE", "GET", "PATCH"]);
  });

  it("a trailing slash matches the same endpoint", async () => {
    const res = await app.api("GET", "/products/");
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.products)).toBe(true);
  });
});

describe("request bodies", () => {
  it("a body that is not JSON is 415", async () => {
    const res = await app.api("POST", "/auth/login", {
      body: "email=a%40b.test&password=secret",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");

    const text = await app.api("POST", "/auth/login", { body: "hello", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
  });

  it("malformed JSON is 400", async () => {
    const res = await app.api("POST", "/auth/login", { body: '{"email": "a@b.test", "password": ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "bad_request", message: "The request body is not valid JSON" });
  });

  it("a body over 5 MB is 413, even without a content-length header", async () => {
    const res = await app.api("POST", "/auth/login", { body: { email: "big@example.test", password: "x".repeat(5_100_000) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("an +json content type is accepted", async () => {
    const res = await app.api("POST", "/auth/login", {
      body: JSON.stringify({ email: "nobody@example.test", password: "whatever1" }),
      headers: { "content-type": "application/vnd.api+json" },
    });
    expect(res.status).toBe(401);
  });

  it("validation errors list every issue in details", async () => {
    const res = await app.api("POST", "/auth/register", { body: { email: "not-an-email", password: "short" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad_request");
    expect(res.body.error.details.where).toBe("body");
    const issues = res.body.error.details.issues as { path: string; message: string; code: string }[];
    expect(issues.map((i) => i.path).sort()).toEqual(["email", "password"]);
    for (const i of issues) {
      expect(typeof i.message).toBe("string");
      expect(typeof i.code).toBe("string");
    }
    expect(res.body.error.message).toMatch(/^(email|password): /);
  });

  it("a missing required field is named in the message", async () => {
    const res = await app.api("POST", "/auth/login", { body: { password: "whatever1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("email is required");
    expect(res.body.error.details.issues[0].path).toBe("email");
  });

  it("a field of the wrong type is not reported as missing", async () => {
    const res = await app.api("POST", "/auth/login", { body: { email: 42, password: "whatever1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^email: /);
    expect(res.body.error.message).not.toContain("required");
  });

  it("query validation errors say so", async () => {
    const res = await app.api("GET", "/products", { query: { limit: "many" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.where).toBe("query");
    expect(res.body.error.details.issues[0].path).toBe("limit");
    expect(res.body.error.message).toMatch(/^limit: /);
    expect(res.body.error.message).not.toContain("required");
  });

  it("validation details never echo the values sent", async () => {
    const res = await app.api("POST", "/auth/register", { body: { email: "a@b.test", password: "sekrit" } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain("sekrit");
  });

  it("a path parameter with broken percent-encoding is 400, not 500", async () => {
    const adminUser = await app.createUser({ role: "ADMIN", permissions: ["admins.manage"] });
    const res = await app.api("GET", "/users/admin/%E0%A4%A/permissions", { token: adminUser.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad_request");
    // Authentication still comes first.
    expect((await app.api("GET", "/users/admin/%ZZ/permissions")).status).toBe(401);
    // Well-formed encoding is decoded.
    const ok = await app.api("GET", `/users/admin/${encodeURIComponent(adminUser.id)}/permissions`, { token: adminUser.token });
    expect(ok.body.userId).toBe(adminUser.id);
  });
});

describe("request ids", () => {
  it("echoes the caller's x-request-id", async () => {
    const ok = await app.api("GET", "/products", { headers: { "x-request-id": "trace-abc-123" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe("trace-abc-123");

    const err = await app.api("GET", "/users/me", { headers: { "x-request-id": "trace-def-456" } });
    expect(err.status).toBe(401);
    expect(err.headers.get("x-request-id")).toBe("trace-def-456");
    expect(err.body.error.requestId).toBe("trace-def-456");
  });

  it("generates a fresh one otherwise", async () => {
    const a = await app.api("GET", "/products");
    const b = await app.api("GET", "/products");
    expect(a.headers.get("x-request-id")).toMatch(UUID);
    expect(b.headers.get("x-request-id")).toMatch(UUID);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("responses are held to the contract", () => {
  const call = (h: AllHandlers, path: string) =>
    createApiHandler(h)(new Request(`http://localhost/api${path}`), app.ctx, { clientIp: "127.0.0.1" });

  it("a handler answer that does not match the response schema becomes a 500 without details", async () => {
    const broken = { ...handlers, health: async () => ({ status: "ok", secret: "do not leak" }) } as unknown as AllHandlers;
    const res = await call(broken, "/health");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: "internal", message: Messages.INTERNAL });
    expect(JSON.stringify(body)).not.toContain("do not leak");
  });

  it("fields outside the response schema are stripped", async () => {
    const extra = {
      ...handlers,
      listProducts: async () => ({ products: [], pageInfo: { hasNextPage: false, endCursor: null }, internal: "hidden" }),
    } as unknown as AllHandlers;
    const res = await call(extra, "/products");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ products: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it("unexpected errors are 500 with a generic message; Prisma's not-found and unique errors map to 404 and 409", async () => {
    const throwing = (e: unknown) => ({ ...handlers, listProducts: async () => Promise.reject(e) }) as unknown as AllHandlers;
    const boom = await call(throwing(new Error("connection string postgres://secret")), "/products");
    expect(boom.status).toBe(500);
    const body = await boom.json();
    expect(body.error.message).toBe(Messages.INTERNAL);
    expect(JSON.stringify(body)).not.toContain("secret");

    const known = (code: string) => new Prisma.PrismaClientKnownRequestError("x", { code, clientVersion: "test" });
    expect((await call(throwing(known("P2025")), "/products")).status).toBe(404);
    expect((await call(throwing(known("P2002")), "/products")).status).toBe(409);
  });
});

describe("OpenAPI and docs", () => {
  it("GET /openapi.json is OpenAPI 3.1 with every contract endpoint", async () => {
    const res = await app.api("GET", "/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBeTruthy();
    expect(doc.servers).toEqual([{ url: "/api" }]);
    expect(doc.components.schemas.Error).toBeTruthy();

    const all = Object.entries(endpoints) as [string, EndpointDef][];
    let operations = 0;
    for (const p of Object.values(doc.paths as Record<string, Record<string, unknown>>)) operations += Object.keys(p).length;
    expect(operations).toBe(all.length);

    for (const [name, def] of all) {
      const op = doc.paths[def.path]?.[def.method.toLowerCase()];
      expect(op, `${def.method} ${def.path} is documented`).toBeTruthy();
      expect(op.operationId).toBe(name);
      expect(op.responses[String(def.status ?? 200)], `${name} documents its success status`).toBeTruthy();
      expect(op.security).toEqual(def.access.kind === "public" ? [] : expect.arrayContaining([expect.any(Object)]));
      if (def.multipart) {
        const schema = op.requestBody?.content?.["multipart/form-data"]?.schema;
        expect(schema?.properties, `${name} documents its multipart fields`).toBeTruthy();
        for (const [field, f] of Object.entries(def.multipart)) {
          expect(schema.properties[field], `${name} documents ${field}`).toBeTruthy();
          if (f.kind === "file") expect(schema.properties[field].format).toBe("binary");
        }
      } else if (def.body) expect(op.requestBody?.content?.["application/json"]?.schema, `${name} documents its body`).toBeTruthy();
      for (const param of def.path.match(/\{(\w+)\}/g) ?? []) {
        const n = param.slice(1, -1);
        expect(op.parameters.some((p: { name: string; in: string }) => p.name === n && p.in === "path"), `${name} documents path parameter ${n}`).toBe(true);
      }
    }
    // Query parameters come from the zod schema.
    const list = doc.paths["/products"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["query", "limit", "cursor", "sortKey", "target_gender"]));
  });

  it("GET /docs is an HTML page that loads the OpenAPI document", async () => {
    const res = await app.api("GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(typeof res.body).toBe("string");
    expect(res.body.toLowerCase()).toContain("<!doctype html>");
    expect(res.body).toContain("/api/openapi.json");
  });
});

describe("health", () => {
  it("reports database, storage and worker", async () => {
    await app.database.db.workerHeartbeat.deleteMany();
    const before = await app.api("GET", "/health");
    expect(before.status).toBe(200);
    expect(before.headers.get("cache-control")).toBe("no-store");
    expect(before.body).toMatchObject({ mode: "local", database: { ok: true }, storage: { ok: true }, worker: { ok: false, lastSeenAt: null } });
    expect(before.body.status).toBe("degraded");
    expect(typeof before.body.version).toBe("string");

    const worker = startWorker(app.ctx, jobHandlers, { pollMs: 100 });
    try {
      await expect
        .poll(async () => (await app.api("GET", "/health")).body.worker.ok, { timeout: 10_000, interval: 100 })
        .toBe(true);
      const after = await app.api("GET", "/health");
      expect(after.body.status).toBe("ok");
      expect(Date.now() - Date.parse(after.body.worker.lastSeenAt)).toBeLessThan(30_000);

      // The worker also runs jobs end to end.
      const { id } = await app.ctx.queue.enqueue("system.ping", { hello: 1 });
      await expect.poll(async () => (await app.database.db.job.findUniqueOrThrow({ where: { id } })).status, { timeout: 10_000 }).toBe("completed");
    } finally {
      await worker.stop();
    }
  });

  it("reports a stale heartbeat as down", async () => {
    await app.database.db.workerHeartbeat.upsert({
      where: { id: "worker" },
      create: { id: "worker", last_seen_at: new Date(Date.now() - 120_000) },
      update: { last_seen_at: new Date(Date.now() - 120_000) },
    });
    const res = await app.api("GET", "/health");
    expect(res.body.worker.ok).toBe(false);
    expect(res.body.worker.lastSeenAt).not.toBeNull();
    expect(res.body.status).toBe("degraded");
  });
});
