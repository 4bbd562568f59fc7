/**
 * Sign-in abuse: the client address comes from Express's req.ip under TRUST_PROXY (a forged
 * X-Forwarded-For changes nothing), a per-account limit holds across addresses (API and the local
 * admin login), new passwords are refused when common or made of the email, and an unknown email
 * costs one Argon2 verification like a known one.
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "../../app/api/index.server";
import { Messages } from "../../app/contract/messages";
import { loadConfig } from "../../app/config.server";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { PASSWORD_CONTAINS_EMAIL, PASSWORD_TOO_COMMON } from "../../app/services/password-policy.server";
import { TOO_MANY_SIGN_INS } from "../../app/services/users.server";
import { createTestApp, type TestApp } from "../helpers/app";

// Counts real Argon2 verifications (the module is wrapped, not replaced).
const argon2 = vi.hoisted(() => ({ verifyCalls: 0 }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/argon2")>();
  return {
    ...real,
    verify: (...args: Parameters<typeof real.verify>) => {
      argon2.verifyCalls++;
      return real.verify(...args);
    },
  };
});

const GOOD = "amber-otter-lantern-42";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ loginAccountRateLimit: { points: 3, durationSeconds: 60 } });
});
afterAll(() => app?.close());

const login = (email: string, password: string, ip: string) => app.api("POST", "/auth/login", { ip, body: { email, password } });

describe("per-account sign-in limit", () => {
  it("trips for one account across rotating addresses, with 429 and Retry-After; other accounts are not affected", async () => {
    const victim = await app.createUser({ email: "victim@example.test", password: GOOD });
    await app.createUser({ email: "bystander@example.test", password: GOOD });
    for (let i = 1; i <= 3; i++) expect((await login("victim@example.test", `guess-number-${i}`, `198.51.100.${i}`)).status).toBe(401);
    // The email as typed (case, spaces) is the same account.
    const refused = await login("  Victim@Example.TEST ", "guess-number-4", "198.51.100.4");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: "rate_limited", message: TOO_MANY_SIGN_INS });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Even the right password waits now: the attacker cannot learn it is right.
    expect((await login("victim@example.test", GOOD, "198.51.100.5")).status).toBe(429);
    expect(victim.email).toBe("victim@example.test");
    expect((await login("bystander@example.test", GOOD, "198.51.100.1")).status).toBe(200);
  });

  it("counts failures only: an owner who signs in often is never limited", async () => {
    await app.createUser({ email: "regular@example.test", password: GOOD });
    for (let i = 0; i < 6; i++) expect((await login("regular@example.test", GOOD, "192.0.2.10")).status).toBe(200);
  });

  it("parallel guesses cannot slip past the limit", async () => {
    await app.createUser({ email: "parallel@example.test", password: GOOD });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => login("parallel@example.test", `parallel-guess-${i}`, `192.0.2.${20 + i}`)));
    expect(answers.filter((r) => r.status === 401)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(5);
  });
});

describe("local admin login (/app/login)", () => {
  type Action = (args: ActionFunctionArgs) => Promise<unknown>;
  let action: Action;
  beforeAll(async () => {
    setAppContext(app.ctx);
    setPrisma(app.database.db);
    action = ((await import("../../app/routes/app_.login")) as { action: Action }).action;
  });

  const post = async (email: string, password: string, clientIp: string, headers: Record<string, string> = {}) => {
    const request = new Request("http://localhost/app/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ email, password, next: "/app" }),
    });
    try {
      return await action({ request, params: {}, context: { clientIp } } as ActionFunctionArgs);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  /** `data()` results carry their status in `init`; plain objects are 200s. */
  const statusOf = (r: unknown) => (r instanceof Response ? r.status : ((r as { init?: { status?: number } }).init?.status ?? 200));
  const headersOf = (r: unknown) => new Headers((r as { init?: { headers?: HeadersInit } }).init?.headers);

  it("shares the per-account limit: rotating addresses ends in 429 with Retry-After", async () => {
    await app.createUser({ email: "staff@example.test", password: GOOD, role: "ADMIN" });
    for (let i = 1; i <= 3; i++) expect(await post("staff@example.test", `wrong-guess-${i}`, `203.0.113.${i}`)).toEqual({ error: Messages.INVALID_CREDENTIALS });
    const refused = await post("staff@example.test", GOOD, "203.0.113.99");
    expect(statusOf(refused)).toBe(429);
    expect(Number(headersOf(refused).get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another staff account signs in (a redirect with the session cookie).
    await app.createUser({ email: "staff2@example.test", password: GOOD, role: "ADMIN" });
    const ok = await post("staff2@example.test", GOOD, "203.0.113.1");
    expect(ok).toBeInstanceOf(Response);
    expect((ok as Response).status).toBe(302);
  });

  it("keys the per-address limit on the resolved client address, never on a client-sent X-Forwarded-For", async () => {
    const limited = await createTestApp({ authRateLimit: { points: 2, durationSeconds: 60 } });
    try {
      setAppContext(limited.ctx);
      for (let i = 0; i < 2; i++) expect(statusOf(await post(`nobody${i}@example.test`, "wrong-guess", "192.0.2.200", { "x-forwarded-for": `10.9.9.${i}` }))).toBe(200);
      expect(statusOf(await post("nobody9@example.test", "wrong-guess", "192.0.2.200", { "x-forwarded-for": "10.9.9.77" }))).toBe(429);
      expect(statusOf(await post("nobody9@example.test", "wrong-guess", "192.0.2.201"))).toBe(200);
    } finally {
      setAppContext(app.ctx);
      await limited.close();
    }
  });
});

describe("client address behind proxies (Express trust proxy from TRUST_PROXY)", () => {
  /** Mounts the API the way server.ts does: `trust proxy` from the configuration, clientIp = req.ip. */
  async function serve(target: TestApp, env: Record<string, string>) {
    const web = express();
    web.set("trust proxy", loadConfig({ DATA_DIR: target.dataDir, ...env }).TRUST_PROXY);
    web.use(express.text({ type: "*/*" }));
    const seen: string[] = [];
    web.all("/api/*", async (req, res) => {
      const clientIp = req.ip ?? req.socket.remoteAddress ?? "unknown";
      seen.push(clientIp);
      const headers = new Headers({ "content-type": "application/json" });
      const out = await handleApiRequest(
        new Request(`http://localhost${req.originalUrl}`, { method: req.method, headers, body: typeof req.body === "string" ? req.body : undefined }),
        target.ctx,
        { clientIp },
      );
      res.status(out.status);
      out.headers.forEach((v, k) => res.setHeader(k, v));
      res.send(await out.text());
    });
    const server = await new Promise<import("node:http").Server>((resolve) => {
      const s = web.listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  const attempt = (base: string, forwardedFor: string) =>
    fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ email: `someone-${Math.random()}@example.test`, password: "guessing-1" }),
    });

  it("no proxy trusted (default): a rotating X-Forwarded-For is ignored and the address limit holds", async () => {
    const limited = await createTestApp({ authRateLimit: { points: 3, durationSeconds: 60 } });
    const web = await serve(limited, {});
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt(web.base, `10.0.0.${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(new Set(web.seen)).toEqual(new Set(["127.0.0.1"]));
    } finally {
      await web.close();
      await limited.close();
    }
  });

  it("one hop trusted: the address the proxy appended counts, the client-supplied values to its left do not", async () => {
    const limited = await createTestApp({ authRateLimit: { points: 3, durationSeconds: 60 } });
    const web = await serve(limited, { TRUST_PROXY: "1" });
    try {
      const statuses: number[] = [];
      // What a client sends is kept by the proxy at the left; the proxy appends the real peer.
      for (let i = 0; i < 5; i++) statuses.push((await attempt(web.base, `10.0.0.${i}, 172.16.${i}.1, 203.0.113.50`)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(new Set(web.seen)).toEqual(new Set(["203.0.113.50"]));
      // Another real client behind the same proxy has its own budget.
      expect((await attempt(web.base, "10.0.0.1, 203.0.113.51")).status).toBe(401);
    } finally {
      await web.close();
      await limited.close();
    }
  });
});

describe("password rules", () => {
  it("registration refuses the most common passwords with a clear message", async () => {
    for (const password of ["password123", "12345678", "qwertyuiop", "Password1!", "iloveyou1", "football1"]) {
      const res = await app.api("POST", "/auth/register", { body: { email: `common-${Math.random()}@example.test`, password } });
      expect(res.status, password).toBe(400);
      expect(res.body.error.message).toBe(PASSWORD_TOO_COMMON);
    }
  });

  it("registration refuses the email itself, or a password containing it or its name part", async () => {
    for (const password of ["jane.doe@example.test", "Jane.Doe@Example.test!", "jane.doe", "JANE.DOE-2024-secure"]) {
      const res = await app.api("POST", "/auth/register", { body: { email: "jane.doe@example.test", password } });
      expect(res.status, password).toBe(400);
      expect(res.body.error.message).toBe(PASSWORD_CONTAINS_EMAIL);
    }
    expect(await app.database.db.user.count({ where: { email: "jane.doe@example.test" } })).toBe(0);
  });

  it("keeps the length rule and accepts good passwords, including the demo accounts' password", async () => {
    expect((await app.api("POST", "/auth/register", { body: { email: "short@example.test", password: "short" } })).body.error.message).toContain("Password must be at least 8 characters");
    for (const password of [GOOD, "demo-password", "correct horse battery", "brand new password"]) {
      const res = await app.api("POST", "/auth/register", { body: { email: `good-${Math.random()}@example.test`, password } });
      expect(res.status, password).toBe(201);
    }
  });

  it("changing the password applies the same rules", async () => {
    const u = await app.createUser({ email: "changer@example.test", password: GOOD });
    const change = (new_password: string) => app.api("POST", "/users/change-password", { token: u.token, body: { old_password: GOOD, new_password } });
    expect((await change("password1")).body.error.message).toBe(PASSWORD_TOO_COMMON);
    expect((await change("changer@example.test")).body.error.message).toBe(PASSWORD_CONTAINS_EMAIL);
    expect((await change("my-changer-password")).body.error.message).toBe(PASSWORD_CONTAINS_EMAIL);
    expect((await change("violet-harbour-comet-7")).status).toBe(200);
  });
});

describe("same work for known and unknown emails", () => {
  beforeEach(() => {
    argon2.verifyCalls = 0;
  });

  it("an unknown email runs one Argon2 verification, as a known one does", async () => {
    await app.createUser({ email: "known@example.test", password: GOOD });
    expect((await login("known@example.test", "not-the-password", "192.0.2.50")).status).toBe(401);
    expect(argon2.verifyCalls).toBe(1);
    argon2.verifyCalls = 0;
    const unknown = await login("nobody-here@example.test", "not-the-password", "192.0.2.50");
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(Messages.INVALID_CREDENTIALS);
    expect(argon2.verifyCalls).toBe(1);
  });

  it("an account without a password (a lead) also runs one, and is never signed in", async () => {
    await app.createUser({ email: "lead@example.test", authProvider: "lead" });
    expect((await login("lead@example.test", "anything-at-all", "192.0.2.51")).status).toBe(401);
    expect(argon2.verifyCalls).toBe(1);
  });
});
