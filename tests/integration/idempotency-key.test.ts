/**
 * `Idempotency-Key` on API writes (app/api/idempotency.server.ts), through the router: a retry
 * replays the first answer (same status, body, Location; `Idempotent-Replayed: true`) without
 * running the handler again; another body or path with the key is 422; a key whose first request
 * still runs is 409; a malformed key is 400; a 5xx or a validation failure keeps nothing; keys
 * expire after 24 h and an abandoned claim is taken over; keys are per caller; GET ignores the
 * header; anonymous callers are refused. A last section has two admins submitting the same order
 * and return moves at once (natural keys, no header) — fulfilment, a return on the customer's
 * behalf, a decline — and each moves once (parallel cancel, approve, status, confirm and refund are
 * in admin-orders.test.ts and admin-returns.test.ts).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { handlers } from "../../app/api/index.server";
import { createApiHandler, type AllHandlers } from "../../app/api/router.server";
import {
  deleteExpiredIdempotencyKeys,
  idempotencyCallerOf,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_STALE_CLAIM_MS,
  IdempotencyMessages,
  requestFingerprint,
} from "../../app/api/idempotency.server";
import { PermissionNames } from "../../app/contract/permissions";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, vgid } from "./products-fixtures";

type U = { id: string; token: string; email: string | null };
let app: TestApp;
let admin: U;
let otherAdmin: U;
let ann: U;
let seq = 0;

const collection = (title = `Linen ${++seq}`) => ({ title, description: "Summer linen", image_url: "" });
const key = (name: string) => `${name}-${Date.now()}-${++seq}`;
const collectionCount = () => app.database.db.collection.count();
const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const orderPath = (n: number, rest = "") => `/orders/admin/${encodeURIComponent(oid(n))}${rest}`;
const eventsOf = (n: number, kind: string) => app.database.db.orderEvent.findMany({ where: { order_id: oid(n), kind } });

async function createOrder(n: number, itemStatus: "unfulfilled" | "delivered") {
  await app.database.db.order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      order_number: n,
      user_id: ann.id,
      email: "ann@example.test",
      status: "open",
      financial_status: "PAID",
      fulfillment_status: itemStatus === "delivered" ? "FULFILLED" : "UNFULFILLED",
      total_price: new Prisma.Decimal(100),
      items: {
        create: [{ id: lid(n, 0), product_id: pgid(901), variant_id: vgid(901, 0), title: "Wool Coat", variant_title: "Black / S", quantity: 2, price: new Prisma.Decimal(50), status: itemStatus }],
      },
    },
  });
}

/** A call through a router built over `override`n handlers (a handler held open, one that fails). */
async function callWith(override: Partial<AllHandlers>, method: string, path: string, opts: { token: string; body?: unknown; key?: string }) {
  const handle = createApiHandler({ ...handlers, ...override } as AllHandlers);
  const headers: Record<string, string> = { authorization: `Bearer ${opts.token}`, "content-type": "application/json" };
  if (opts.key !== undefined) headers["idempotency-key"] = opts.key;
  const res = await handle(new Request(`http://localhost/api${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }), app.ctx, { clientIp: "127.0.0.1" });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ role: "ADMIN", permissions: [...PermissionNames], firstName: "Ada" });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: [...PermissionNames], firstName: "Ben" });
  ann = await app.createUser({ email: "ann@example.test", firstName: "Ann" });
  await createProduct(app.database.db, { n: 901, title: "Wool Coat", inventory: 10 });
});
afterAll(() => app?.close());

describe("replay", () => {
  it("answers a retry with the first answer and the replay header, without running the handler again", async () => {
    const k = key("create");
    const body = collection();
    const before = await collectionCount();
    const first = await app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await collectionCount()).toBe(before + 1);
    // Without the key the same body is a new request (and here a new collection).
    expect((await app.api("POST", "/collections", { token: admin.token, body: collection() })).status).toBe(201);
    expect(await collectionCount()).toBe(before + 2);
  });

  it("creates one fulfilment for a retried POST …/fulfillments, and the retry answers the same order", async () => {
    await createOrder(9101, "unfulfilled");
    const k = key("fulfil");
    const body = { items: [{ itemId: lid(9101, 0), quantity: 2 }], trackingCompany: "UPS", trackingNumber: "1Z9101", notifyCustomer: true };
    const first = await app.api("POST", orderPath(9101, "/fulfillments"), { token: admin.token, body, headers: { "Idempotency-Key": k } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await app.api("POST", orderPath(9101, "/fulfillments"), { token: admin.token, body, headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await eventsOf(9101, "fulfillment.created")).toHaveLength(1);
    expect(await app.database.db.emailOutbox.count({ where: { to: "ann@example.test", kind: "order.shipped" } })).toBe(1);
  });

  it("replays a handler's own Response: a 204 without a body, and a Location header", async () => {
    let runs = 0;
    const own: Partial<AllHandlers> = {
      collectionsCreate: async ({ headers }) => {
        runs++;
        const h = new Headers(headers);
        h.set("location", "/api/collections/abc");
        h.set("set-cookie", "fd_session=secret; Path=/");
        return new Response(null, { status: 204, headers: h });
      },
    };
    const body = collection();
    const k = key("own");
    const first = await callWith(own, "POST", "/collections", { token: admin.token, body, key: k });
    expect(first.status).toBe(204);
    expect(first.headers.get("set-cookie")).toContain("fd_session");
    const replay = await callWith(own, "POST", "/collections", { token: admin.token, body, key: k });
    expect(replay.status).toBe(204);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("location")).toBe("/api/collections/abc");
    // Cookies may carry a session token: never kept, never replayed.
    expect(replay.headers.get("set-cookie")).toBeNull();
    expect(runs).toBe(1);
  });

  it("keeps the handler's refusals (4xx) too: the retry gets the same 409", async () => {
    const body = { ...collection(), handle: `taken-${++seq}` };
    expect((await app.api("POST", "/collections", { token: admin.token, body })).status).toBe(201);
    const k = key("refused");
    const first = await app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } });
    expect(first.status).toBe(409);
    const again = await app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.error.message).toBe(first.body.error.message);
  });

  it("keeps nothing for a request refused before it ran (validation 400): the corrected request runs with the same key", async () => {
    const k = key("invalid");
    const bad = await app.api("POST", "/collections", { token: admin.token, body: { description: "no title" }, headers: { "Idempotency-Key": k } });
    expect(bad.status).toBe(400);
    expect(await app.database.db.idempotencyKey.count({ where: { key: k } })).toBe(0);
    const good = await app.api("POST", "/collections", { token: admin.token, body: collection(), headers: { "Idempotency-Key": k } });
    expect(good.status).toBe(201);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("the same key for another request", () => {
  it("is 422 with another body, and with another path", async () => {
    const k = key("mismatch");
    const before = await collectionCount();
    expect((await app.api("POST", "/collections", { token: admin.token, body: collection("First"), headers: { "Idempotency-Key": k } })).status).toBe(201);
    const other = await app.api("POST", "/collections", { token: admin.token, body: collection("Second"), headers: { "Idempotency-Key": k } });
    expect(other.status).toBe(422);
    expect(other.body.error).toMatchObject({ code: "unprocessable", message: IdempotencyMessages.MISMATCH });
    expect(other.body.error.details).toMatchObject({ header: "Idempotency-Key", firstRequest: "POST /collections" });
    await createOrder(9102, "unfulfilled");
    const elsewhere = await app.api("POST", orderPath(9102, "/cancel"), { token: admin.token, body: { reason: "CUSTOMER" }, headers: { "Idempotency-Key": k } });
    expect(elsewhere.status).toBe(422);
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(9102) } })).status).toBe("open");
    expect(await collectionCount()).toBe(before + 1);
  });
});

describe("a key whose first request still runs", () => {
  it("is 409 for the second request; once the first is answered, the retry replays it", async () => {
    let release!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const running = new Promise<void>((r) => (started = r));
    let runs = 0;
    const slow: Partial<AllHandlers> = {
      collectionsCreate: async (args) => {
        runs++;
        started();
        await gate;
        return handlers.collectionsCreate(args);
      },
    };
    const k = key("inflight");
    const body = collection();
    const first = callWith(slow, "POST", "/collections", { token: admin.token, body, key: k });
    await running;
    const second = await callWith(slow, "POST", "/collections", { token: admin.token, body, key: k });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe("A request with this Idempotency-Key is still being processed");
    expect(second.headers.get("retry-after")).toBe("1");
    release();
    expect((await first).status).toBe(201);
    const third = await callWith(slow, "POST", "/collections", { token: admin.token, body, key: k });
    expect(third.status).toBe(201);
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(1);
  });

  it("runs once when the same request with one key arrives twice at the same moment", async () => {
    const k = key("race");
    const body = collection();
    const before = await collectionCount();
    const both = await Promise.all([1, 2].map(() => app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } })));
    // One ran (201); the other either saw it running (409) or, if it came after, was answered its copy (201, replayed).
    expect(both.map((r) => r.status).sort()).toEqual(expect.arrayContaining([201]));
    for (const r of both) expect([201, 409]).toContain(r.status);
    expect(await collectionCount()).toBe(before + 1);
  });

  it("an abandoned claim (its process died mid-request) is taken over after the stale limit", async () => {
    const k = key("abandoned");
    const body = collection();
    const text = JSON.stringify(body);
    const stale = new Date(Date.now() - IDEMPOTENCY_STALE_CLAIM_MS - 1000);
    await app.database.db.idempotencyKey.create({
      data: { caller: `user:${admin.id}`, key: k, method: "POST", path: "/collections", request_hash: await requestFingerprint("POST", "/collections", "", text), claim_token: "dead", locked_at: stale, created_at: stale, expires_at: new Date(Date.now() + IDEMPOTENCY_KEY_TTL_MS) },
    });
    const res = await app.api("POST", "/collections", { token: admin.token, body: text, headers: { "Idempotency-Key": k } });
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    const row = await app.database.db.idempotencyKey.findFirstOrThrow({ where: { key: k } });
    expect(row.response_status).toBe(201);
    expect(row.claim_token).not.toBe("dead");

    // A fresh claim is not taken over.
    const k2 = key("fresh-claim");
    await app.database.db.idempotencyKey.create({
      data: { caller: `user:${admin.id}`, key: k2, method: "POST", path: "/collections", request_hash: await requestFingerprint("POST", "/collections", "", text), claim_token: "alive", expires_at: new Date(Date.now() + IDEMPOTENCY_KEY_TTL_MS) },
    });
    expect((await app.api("POST", "/collections", { token: admin.token, body: text, headers: { "Idempotency-Key": k2 } })).status).toBe(409);
  });
});

describe("failures free the key", () => {
  it("a 5xx is not kept: the retry runs the handler again", async () => {
    let runs = 0;
    const flaky: Partial<AllHandlers> = {
      collectionsCreate: async (args) => {
        runs++;
        if (runs === 1) throw new Error("database went away");
        return handlers.collectionsCreate(args);
      },
    };
    const k = key("flaky");
    const body = collection();
    const first = await callWith(flaky, "POST", "/collections", { token: admin.token, body, key: k });
    expect(first.status).toBe(500);
    expect(await app.database.db.idempotencyKey.count({ where: { key: k } })).toBe(0);
    const retry = await callWith(flaky, "POST", "/collections", { token: admin.token, body, key: k });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(2);
  });
});

describe("the header itself", () => {
  it("refuses a malformed key with 400 naming the header, before anything runs", async () => {
    const before = await collectionCount();
    for (const bad of ["", "   ", "x".repeat(256), "has space", "tab\there", "caf\u00e9"]) {
      const res = await app.api("POST", "/collections", { token: admin.token, body: collection(), headers: { "Idempotency-Key": bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.message).toBe(IdempotencyMessages.INVALID_KEY);
      expect(res.body.error.message).toContain("Idempotency-Key");
    }
    expect(await collectionCount()).toBe(before);
    // 255 visible characters is the longest key.
    expect((await app.api("POST", "/collections", { token: admin.token, body: collection(), headers: { "Idempotency-Key": "k".repeat(255) } })).status).toBe(201);
  });

  it("any header value a client can send is either a key or a 400 naming the header, never a 5xx", async () => {
    // Header values are byte strings (Latin-1); control characters other than tab are not sendable.
    const byteString = fc.string({ unit: fc.integer({ min: 0x09, max: 0xff }).filter((c) => c === 0x09 || c >= 0x20).map((c) => String.fromCharCode(c)), maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(byteString, async (value) => {
        const res = await app.api("PATCH", "/users/me", { token: ann.token, body: {}, headers: { "Idempotency-Key": value } });
        const trimmed = value.trim();
        const valid = /^[\x21-\x7e]{1,255}$/.test(trimmed);
        expect(res.status, JSON.stringify(value)).toBeLessThan(500);
        if (!valid) expect(res.body.error.message, JSON.stringify(value)).toBe(IdempotencyMessages.INVALID_KEY);
        else expect(res.status === 400 && res.body.error.message === IdempotencyMessages.INVALID_KEY).toBe(false);
      }),
      { numRuns: 40, seed: 20_261_127 },
    );
  });

  it("is ignored on GET (a malformed one too), and nothing is kept", async () => {
    const rows = await app.database.db.idempotencyKey.count();
    const res = await app.api("GET", "/collections", { token: admin.token, headers: { "Idempotency-Key": "" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    const again = await app.api("GET", "/collections", { token: admin.token, headers: { "Idempotency-Key": "same-key-get" } });
    expect(again.status).toBe(200);
    expect(await app.database.db.idempotencyKey.count()).toBe(rows);
  });

  it("is refused from anonymous callers (no stable identity to keep it under); authorisation still comes first", async () => {
    const login = await app.api("POST", "/auth/login", { body: { email: "nobody@example.test", password: "whatever1" }, headers: { "Idempotency-Key": key("anon") } });
    expect(login.status).toBe(400);
    expect(login.body.error.message).toBe(IdempotencyMessages.ANONYMOUS);
    const closed = await app.api("POST", "/collections", { body: collection(), headers: { "Idempotency-Key": key("anon") } });
    expect(closed.status).toBe(401);
    const shopper = await app.api("POST", "/collections", { token: ann.token, body: collection(), headers: { "Idempotency-Key": "not a key" } });
    expect(shopper.status).toBe(403);
  });

  it("is accepted from a guest (a user with a session): a retried toggle toggles once", async () => {
    const guest = await app.createUser({ authProvider: "guest" });
    const k = key("guest");
    const body = { product_id: pgid(901) };
    const first = await app.api("POST", "/users/saved-products/toggle", { token: guest.token, body, headers: { "Idempotency-Key": k } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.saved).toBe(true);
    const again = await app.api("POST", "/users/saved-products/toggle", { token: guest.token, body, headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(200);
    expect(again.body.saved).toBe(true);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await app.api("GET", "/users/saved-products", { token: guest.token })).body.items).toHaveLength(1);
  });
});

describe("callers and expiry", () => {
  it("keeps keys per caller: another admin with the same key runs normally", async () => {
    const k = key("shared");
    const body = collection();
    const before = await collectionCount();
    const a = await app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } });
    const b = await app.api("POST", "/collections", { token: otherAdmin.token, body: { ...body, title: `${body.title} B` }, headers: { "Idempotency-Key": k } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(await collectionCount()).toBe(before + 2);
  });

  it("an expired key runs again (any body), and expired rows are deleted", async () => {
    const k = key("expiring");
    const body = collection();
    expect((await app.api("POST", "/collections", { token: admin.token, body, headers: { "Idempotency-Key": k } })).status).toBe(201);
    const row = await app.database.db.idempotencyKey.findFirstOrThrow({ where: { key: k } });
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(IDEMPOTENCY_KEY_TTL_MS);
    await app.database.db.idempotencyKey.update({ where: { id: row.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    const before = await collectionCount();
    const again = await app.api("POST", "/collections", { token: admin.token, body: collection(), headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await collectionCount()).toBe(before + 1);

    const old = key("old");
    await app.database.db.idempotencyKey.create({
      data: { caller: `user:${admin.id}`, key: old, method: "POST", path: "/collections", request_hash: "x", claim_token: "t", response_status: 201, completed_at: new Date(), expires_at: new Date(Date.now() - 1000) },
    });
    expect(await deleteExpiredIdempotencyKeys(app.database.db)).toBeGreaterThanOrEqual(1);
    expect(await app.database.db.idempotencyKey.count({ where: { key: old } })).toBe(0);
    expect(await app.database.db.idempotencyKey.count({ where: { key: k } })).toBe(1);
  });
});

describe("documentation and callers", () => {
  it("the OpenAPI document lists the optional header on every write and on no read", async () => {
    const doc = (await app.api("GET", "/openapi.json")).body;
    const headerOf = (op: { parameters: { name: string; in: string; required?: boolean }[] }) => op.parameters.find((p) => p.in === "header" && p.name === "Idempotency-Key");
    expect(headerOf(doc.paths["/collections"].post)).toMatchObject({ required: false, schema: { maxLength: 255 } });
    expect(headerOf(doc.paths["/orders/admin/{id}/fulfillments"].post)).toBeTruthy();
    expect(headerOf(doc.paths["/collections"].get)).toBeUndefined();
    for (const ops of Object.values(doc.paths as Record<string, Record<string, { parameters: { name: string; in: string }[] }>>)) {
      for (const [method, op] of Object.entries(ops)) expect(Boolean(headerOf(op)), `${method} ${op}`).toBe(method !== "get");
    }
  });

  it("keeps a data-service key's keys under that key, a user's under the user, and refuses nobody's", () => {
    const none = { user: null, token: null, via: null } as const;
    expect(idempotencyCallerOf({ kind: "apiKey" }, { ...none, via: "apiKey", apiKey: { id: "k1", name: "ETL", source: "database" } })).toBe("apikey:k1");
    expect(idempotencyCallerOf({ kind: "apiKey" }, { ...none, via: "apiKey", apiKey: { id: null, name: "DATA_SERVICE_API_KEY", source: "config" } })).toBe("apikey:config");
    expect(idempotencyCallerOf({ kind: "user" }, { ...none, user: { id: "u1" } as never })).toBe("user:u1");
    expect(() => idempotencyCallerOf({ kind: "public" }, none)).toThrow(IdempotencyMessages.ANONYMOUS);
  });
});

describe("fingerprints", () => {
  it("a multipart form counts by its fields and its files' bytes; the query string counts", async () => {
    const form = (bytes: number[]) => {
      const f = new FormData();
      f.set("name", "Ann");
      f.append("photos", new File([new Uint8Array(bytes)], "a.jpg", { type: "image/jpeg" }));
      return f;
    };
    const a = await requestFingerprint("POST", "/clones", "", form([1, 2, 3]));
    expect(await requestFingerprint("POST", "/clones", "", form([1, 2, 3]))).toBe(a);
    expect(await requestFingerprint("POST", "/clones", "", form([1, 2, 4]))).not.toBe(a);
    expect(await requestFingerprint("POST", "/clones", "?x=1", form([1, 2, 3]))).not.toBe(a);
    expect(await requestFingerprint("POST", "/clones", "", "{}")).not.toBe(await requestFingerprint("POST", "/clones", "", null));
    expect(await requestFingerprint("PUT", "/a", "", "{}")).not.toBe(await requestFingerprint("POST", "/a", "", "{}"));
  });
});

describe("two admins submitting the same move at once (natural keys, no header)", () => {
  it("fulfils once", async () => {
    await createOrder(9201, "unfulfilled");
    const body = { items: [{ itemId: lid(9201, 0), quantity: 2 }], trackingCompany: "UPS", trackingNumber: "1Z9201", notifyCustomer: true };
    const both = await Promise.all([admin, otherAdmin].map((u) => app.api("POST", orderPath(9201, "/fulfillments"), { token: u.token, body })));
    for (const r of both) expect([201, 409], JSON.stringify(r.body)).toContain(r.status);
    expect(both.some((r) => r.status === 201)).toBe(true);
    expect(await eventsOf(9201, "fulfillment.created")).toHaveLength(1);
    expect(await app.database.db.emailOutbox.count({ where: { to: "ann@example.test", kind: "order.shipped", text: { contains: "1Z9201" } } })).toBe(1);
  });

  it("starts one return for the same items", async () => {
    await createOrder(9202, "delivered");
    const body = { itemIds: [lid(9202, 0)], reason: "SIZE_TOO_SMALL" };
    const both = await Promise.all([admin, otherAdmin].map((u) => app.api("POST", orderPath(9202, "/initiate-return"), { token: u.token, body })));
    for (const r of both) expect([201, 409], JSON.stringify(r.body)).toContain(r.status);
    expect(both.some((r) => r.status === 201)).toBe(true);
    expect(await app.database.db.returnRequest.count({ where: { order_id: oid(9202) } })).toBe(1);
  });

  it("declines a return request once", async () => {
    await createOrder(9203, "delivered");
    const started = await app.api("POST", orderPath(9203, "/initiate-return"), { token: admin.token, body: { itemIds: [lid(9203, 0)], reason: "SIZE_TOO_SMALL" } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const request = await app.database.db.returnRequest.findFirstOrThrow({ where: { order_id: oid(9203) } });
    const body = { reason: "Worn", decline_reason: "OTHER" };
    const both = await Promise.all([admin, otherAdmin].map((u) => app.api("POST", `/returns/admin/requests/${request.id}/decline`, { token: u.token, body })));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("DECLINED");
    expect(await eventsOf(9203, "return.declined")).toHaveLength(1);
  });
});
