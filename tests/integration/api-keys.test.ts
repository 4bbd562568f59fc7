/**
 * API keys of the data service: the REST endpoints (/api/admin/api-keys), the key lifecycle
 * (create → use → revoke → refused), the `apikeys.manage` permission, `access.apiKey` in the
 * router with keys from the database, `last_used_at` at most once a minute, and the admin screen
 * (app/routes/app.api-keys.tsx) through its loader and action.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TEST_API_KEY, createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { access, endpoint } from "../../app/contract/endpoint";
import { DEFAULT_ADMIN_PERMISSIONS, PermissionNames, endpoints, type EndpointDef } from "../../app/contract";
import { handlers } from "../../app/api/index.server";
import { createApiHandler, type AllHandlers } from "../../app/api/router.server";
import { handleDataServiceRequest } from "../../app/services/data-service/graphql.server";
import { ApiKeyMessages, LAST_USED_RESOLUTION_MS, createApiKey, generateApiKey, hashApiKey, verifyApiKey } from "../../app/services/api-keys.server";
import { navigationFor } from "../../app/services/staff.server";
import { staffRequest, thrownResponse as thrown } from "../helpers/route";

type ScreenModule = typeof import("../../app/routes/app.api-keys");

let app: TestApp;
let screen: ScreenModule;
let manager: { id: string; token: string; email: string | null };

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/** POST /api/graphql with a key (the data service's own handler, as the route calls it). */
async function graphql(key: string | null, query = "{ __typename }") {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers["x-api-key"] = key;
  const res = await handleDataServiceRequest(new Request("http://localhost/api/graphql", { method: "POST", headers, body: JSON.stringify({ query }) }), app.ctx);
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] } };
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  screen = await import("../../app/routes/app.api-keys");
  manager = await app.createUser({ role: "ADMIN", permissions: ["apikeys.manage"] });
});
afterAll(() => app?.close());

describe("the permission", () => {
  it("apikeys.manage exists and is not among the defaults of a new admin", () => {
    expect(PermissionNames).toContain("apikeys.manage");
    expect(DEFAULT_ADMIN_PERMISSIONS).not.toContain("apikeys.manage");
    expect(endpoints.apiKeysList.access).toEqual({ kind: "role", roles: ["ADMIN"], permission: "apikeys.manage" });
    expect(endpoints.apiKeysCreate.access).toEqual(endpoints.apiKeysList.access);
    expect(endpoints.apiKeysRevoke.access).toEqual(endpoints.apiKeysList.access);
  });

  it("callers without it are refused and nothing changes", async () => {
    const existing = await createApiKey(app.database.db, { name: "Refusal target" });
    const lacking = await app.createUser({ role: "ADMIN", permissions: [...DEFAULT_ADMIN_PERMISSIONS] });
    const shopper = await app.createUser();
    for (const who of [lacking, shopper]) {
      expect((await app.api("GET", "/admin/api-keys", { token: who.token })).status).toBe(403);
      const create = await app.api("POST", "/admin/api-keys", { token: who.token, body: { name: "Sneaky" } });
      expect(create.status).toBe(403);
      expect(create.body.error.code).toBe("forbidden");
      expect((await app.api("DELETE", `/admin/api-keys/${existing.apiKey.id}`, { token: who.token })).status).toBe(403);
    }
    expect((await app.api("GET", "/admin/api-keys")).status).toBe(401);
    expect(await app.database.db.apiKey.count({ where: { name: "Sneaky" } })).toBe(0);
    expect((await app.database.db.apiKey.findUniqueOrThrow({ where: { id: existing.apiKey.id } })).revoked_at).toBeNull();
    // The key still works: nobody revoked it.
    expect((await graphql(existing.key)).status).toBe(200);
  });
});

describe("key lifecycle: create → use → revoke → refused", () => {
  it("creates a key shown once, stores only its hash, uses it, revokes it, and the data service refuses it", async () => {
    const created = await app.api("POST", "/admin/api-keys", { token: manager.token, body: { name: "  Recommendations backend  " } });
    expect(created.status).toBe(201);
    const key: string = created.body.key;
    expect(key).toMatch(/^fdk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.apiKey).toMatchObject({
      name: "Recommendations backend",
      key_prefix: key.slice(0, 12),
      status: "active",
      last_used_at: null,
      revoked_at: null,
      created_by: { id: manager.id, email: manager.email },
    });
    const id: string = created.body.apiKey.id;

    // Only the hash and the prefix are stored; no list shows the key again.
    const row = await app.database.db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(row.key_hash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
    const list = await app.api("GET", "/admin/api-keys", { token: manager.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: { id: string }) => k.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(key);

    // Use: the data service answers, and the key's last use is recorded.
    const used = await graphql(key);
    expect(used.status).toBe(200);
    expect(used.body.data).toEqual({ __typename: "Query" });
    const afterUse = await app.api("GET", "/admin/api-keys", { token: manager.token });
    const listed = afterUse.body.items.find((k: { id: string }) => k.id === id);
    expect(listed.last_used_at).not.toBeNull();

    // Revoke.
    const revoked = await app.api("DELETE", `/admin/api-keys/${id}`, { token: manager.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, status: "revoked" });
    expect(revoked.body.revoked_at).not.toBeNull();

    // Refused: 401, a clear message, no data.
    const refused = await graphql(key);
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]).toMatchObject({ message: ApiKeyMessages.REVOKED, extensions: { code: "UNAUTHENTICATED" } });
    expect(refused.body).not.toHaveProperty("data");

    // Revoking again keeps the first date.
    const again = await app.api("DELETE", `/admin/api-keys/${id}`, { token: manager.token });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it("refuses a missing, unknown, truncated or overlong key with 401 and no data", async () => {
    const { key } = await createApiKey(app.database.db, { name: "Truncation check" });
    for (const [sent, message] of [
      [null, ApiKeyMessages.MISSING],
      ["", ApiKeyMessages.MISSING],
      [generateApiKey(), ApiKeyMessages.UNKNOWN],
      [key.slice(0, -1), ApiKeyMessages.UNKNOWN],
      [`${key}x`, ApiKeyMessages.UNKNOWN],
      ["x".repeat(5000), ApiKeyMessages.UNKNOWN],
    ] as const) {
      const r = await graphql(sent);
      expect(r.status, String(sent).slice(0, 20)).toBe(401);
      expect(r.body.errors?.[0].message).toBe(message);
      expect(r.body).not.toHaveProperty("data");
    }
  });

  it("revoking an unknown key answers 404", async () => {
    const r = await app.api("DELETE", `/admin/api-keys/${crypto.randomUUID()}`, { token: manager.token });
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(ApiKeyMessages.NOT_FOUND);
  });
});

describe("creating keys: validation", () => {
  it("needs a name of at most 100 characters", async () => {
    for (const body of [{}, { name: "" }, { name: "   " }]) {
      const r = await app.api("POST", "/admin/api-keys", { token: manager.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain("name is required");
    }
    const long = await app.api("POST", "/admin/api-keys", { token: manager.token, body: { name: "x".repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain("at most 100");
  });

  it("refuses a second active key of the same name (ignoring case); a revoked one frees the name", async () => {
    const first = await app.api("POST", "/admin/api-keys", { token: manager.token, body: { name: "Search indexer" } });
    expect(first.status).toBe(201);
    const dup = await app.api("POST", "/admin/api-keys", { token: manager.token, body: { name: "search INDEXER" } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toContain('"search INDEXER" already exists');
    await app.api("DELETE", `/admin/api-keys/${first.body.apiKey.id}`, { token: manager.token });
    const reused = await app.api("POST", "/admin/api-keys", { token: manager.token, body: { name: "Search indexer" } });
    expect(reused.status).toBe(201);
    expect(reused.body.key).not.toBe(first.body.key);
  });

  it("every key is different", () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    expect(hashApiKey("a")).toBe(sha256("a"));
  });
});

describe("listing keys", () => {
  it("pages newest first, filters by status, and reports the total", async () => {
    const db = app.database.db;
    await db.apiKey.deleteMany({});
    const names = ["k1", "k2", "k3", "k4"];
    for (const [i, name] of names.entries()) {
      const { apiKey } = await createApiKey(db, { name });
      await db.apiKey.update({ where: { id: apiKey.id }, data: { created_at: new Date(Date.UTC(2026, 0, 1 + i)) } });
    }
    await app.api("DELETE", `/admin/api-keys/${(await db.apiKey.findFirstOrThrow({ where: { name: "k2" } })).id}`, { token: manager.token });

    const all = await app.api("GET", "/admin/api-keys", { token: manager.token });
    expect(all.body.total).toBe(4);
    expect(all.body.items.map((k: { name: string }) => k.name)).toEqual(["k4", "k3", "k2", "k1"]);
    const page = await app.api("GET", "/admin/api-keys", { token: manager.token, query: { skip: 1, take: 2 } });
    expect(page.body.items.map((k: { name: string }) => k.name)).toEqual(["k3", "k2"]);
    const active = await app.api("GET", "/admin/api-keys", { token: manager.token, query: { status: "active" } });
    expect(active.body).toMatchObject({ total: 3 });
    expect(active.body.items.every((k: { status: string }) => k.status === "active")).toBe(true);
    const revoked = await app.api("GET", "/admin/api-keys", { token: manager.token, query: { status: "revoked" } });
    expect(revoked.body.items.map((k: { name: string }) => k.name)).toEqual(["k2"]);
    expect((await app.api("GET", "/admin/api-keys", { token: manager.token, query: { take: 101 } })).status).toBe(400);
    expect((await app.api("GET", "/admin/api-keys", { token: manager.token, query: { status: "lost" } })).status).toBe(400);
  });
});

describe("last_used_at", () => {
  it("is written at most once a minute", async () => {
    const db = app.database.db;
    const { apiKey, key } = await createApiKey(db, { name: "Clock check" });
    const t0 = new Date("2026-11-23T10:00:00.000Z");
    const at = async () => (await db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).last_used_at?.toISOString() ?? null;

    expect((await verifyApiKey(db, key, t0)).ok).toBe(true);
    expect(await at()).toBe(t0.toISOString());
    expect((await verifyApiKey(db, key, new Date(t0.getTime() + 30_000))).ok).toBe(true);
    expect(await at()).toBe(t0.toISOString());
    expect((await verifyApiKey(db, key, new Date(t0.getTime() + LAST_USED_RESOLUTION_MS - 1))).ok).toBe(true);
    expect(await at()).toBe(t0.toISOString());
    const later = new Date(t0.getTime() + LAST_USED_RESOLUTION_MS + 1000);
    expect((await verifyApiKey(db, key, later)).ok).toBe(true);
    expect(await at()).toBe(later.toISOString());
  });

  it("is not written for a revoked key", async () => {
    const db = app.database.db;
    const { apiKey, key } = await createApiKey(db, { name: "Revoked clock" });
    await db.apiKey.update({ where: { id: apiKey.id }, data: { revoked_at: new Date() } });
    expect(await verifyApiKey(db, key)).toMatchObject({ ok: false, reason: "revoked" });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).last_used_at).toBeNull();
  });
});

describe("access.apiKey in the REST router checks keys from the database", () => {
  it("a created key opens an api-key endpoint; a revoked or unknown one gets 401 with its message", async () => {
    const registry = endpoints as unknown as Record<string, EndpointDef>;
    registry.__apiKeyProbe = endpoint({ method: "POST", path: "/__probe/data", summary: "", tags: [], access: access.apiKey, response: z.object({ ok: z.literal(true) }) });
    try {
      const handle = createApiHandler({ ...handlers, __apiKeyProbe: async () => ({ ok: true }) } as unknown as AllHandlers);
      const send = async (key?: string) => {
        const res = await handle(new Request("http://localhost/api/__probe/data", { method: "POST", headers: key === undefined ? {} : { "x-api-key": key } }), app.ctx, {});
        return { status: res.status, body: await res.json() };
      };
      const { apiKey, key } = await createApiKey(app.database.db, { name: "Router probe" });
      expect((await send(key)).status).toBe(200);
      // The operator's DATA_SERVICE_API_KEY works too.
      expect((await send(TEST_API_KEY)).status).toBe(200);
      expect(await send()).toMatchObject({ status: 401, body: { error: { code: "unauthenticated", message: ApiKeyMessages.MISSING } } });
      expect(await send(generateApiKey())).toMatchObject({ status: 401, body: { error: { message: ApiKeyMessages.UNKNOWN } } });
      await app.api("DELETE", `/admin/api-keys/${apiKey.id}`, { token: manager.token });
      expect(await send(key)).toMatchObject({ status: 401, body: { error: { message: ApiKeyMessages.REVOKED } } });
    } finally {
      delete registry.__apiKeyProbe;
    }
  });
});

describe("admin screen (loader and action)", () => {
  const request = (token: string | null, init: RequestInit = {}) => staffRequest("/app/api-keys", token, init);
  const load = (token: string | null) => screen.loader({ request: request(token), params: {}, context: {} });
  const act = (token: string | null, fields: Record<string, string>) =>
    screen.action({ request: request(token, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } }), params: {}, context: {} });

  it("needs apikeys.manage; signed out it sends to the login", async () => {
    const other = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "admins.manage"] });
    expect((await thrown(load(other.token))).status).toBe(403);
    expect((await thrown(act(other.token, { intent: "create", name: "Nope" }))).status).toBe(403);
    expect(await app.database.db.apiKey.count({ where: { name: "Nope" } })).toBe(0);
    const out = await thrown(load(null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fapi-keys");
  });

  it("the navigation shows API keys only with the permission", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["apikeys.manage"] }).map((n) => n.url)).toContain("/app/api-keys");
    expect(navigationFor({ role: "ADMIN", permissions: [...DEFAULT_ADMIN_PERMISSIONS] }).map((n) => n.url)).not.toContain("/app/api-keys");
  });

  it("creates a key (answered once), lists it by prefix, and revokes it", async () => {
    const created = await act(manager.token, { intent: "create", name: "Screen key" });
    if (!created.ok || created.intent !== "create") throw new Error(`not created: ${JSON.stringify(created)}`);
    expect(created.key).toMatch(/^fdk_/);
    expect(created.keyPrefix).toBe(created.key.slice(0, 12));

    const data = await load(manager.token);
    const row = data.keys.find((k) => k.name === "Screen key");
    expect(row).toMatchObject({ key_prefix: created.keyPrefix, status: "active", created_by: { id: manager.id } });
    expect(JSON.stringify(data)).not.toContain(created.key);
    expect(data.endpoint).toBe("http://localhost/api/graphql");
    expect((await graphql(created.key)).status).toBe(200);

    const bad = await act(manager.token, { intent: "create", name: "  " });
    expect(bad).toMatchObject({ ok: false });
    const dup = await act(manager.token, { intent: "create", name: "screen key" });
    expect(dup).toMatchObject({ ok: false, error: expect.stringContaining("already exists") });

    const revoked = await act(manager.token, { intent: "revoke", id: row!.id });
    expect(revoked).toMatchObject({ ok: true, message: 'Key "Screen key" revoked: requests with it are refused.' });
    expect((await load(manager.token)).keys.find((k) => k.id === row!.id)?.status).toBe("revoked");
    expect((await graphql(created.key)).status).toBe(401);

    expect(await act(manager.token, { intent: "revoke", id: crypto.randomUUID() })).toMatchObject({ ok: false, error: ApiKeyMessages.NOT_FOUND });
    expect(await act(manager.token, { intent: "explode" })).toMatchObject({ ok: false, error: "Unknown action" });
  });
});
