/**
 * The API of a fresh app over a fresh database, called through its public HTTP interface
 * (Request in, Response out: the same handler the server mounts at /api).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Role } from "@prisma/client";
import { loadConfig } from "../../app/config.server";
import { createAppContext, type AppContext } from "../../app/context.server";
import { createLogger } from "../../app/lib/logger.server";
import { handleApiRequest } from "../../app/api/index.server";
import { hashPassword } from "../../app/services/passwords.server";
import { issueToken } from "../../app/services/tokens.server";
import { createTestDatabase, type TestDatabase } from "./db";
import type { ImageAiProvider } from "../../app/providers/image-ai/port";

export const TEST_API_KEY = "test-data-service-key-0123456789";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  ip?: string;
}

export interface TestApp {
  ctx: AppContext;
  database: TestDatabase;
  dataDir: string;
  api<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiResponse<T>>;
  createUser(opts?: { role?: Role; permissions?: string[]; vendorId?: string | null; authProvider?: "guest" | "lead" | "password"; email?: string; password?: string; firstName?: string }): Promise<{ id: string; token: string; email: string | null }>;
  close(): Promise<void>;
}

let userSeq = 0;

export async function createTestApp(
  opts: { env?: Record<string, string>; authRateLimit?: { points: number; durationSeconds: number }; imageRateLimit?: { points: number; durationSeconds: number }; languageRateLimit?: { points: number; durationSeconds: number }; loginAccountRateLimit?: { points: number; durationSeconds: number };
    /** Replaces the image-AI provider for every operation (tests/helpers/fake-image-ai.ts); gets the app's storage when it asks for it. */
    imageAi?: ImageAiProvider | ((ctx: AppContext) => ImageAiProvider);
    /** A database and data directory prepared by the caller (tests/helpers/demo-template.ts); the app closes them. */
    prepared?: { database: TestDatabase; dataDir: string };
  } = {},
): Promise<TestApp> {
  const database = opts.prepared?.database ?? (await createTestDatabase());
  const dataDir = opts.prepared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "fd-test-data-"));
  const config = loadConfig({ DATA_DIR: dataDir, DATA_SERVICE_API_KEY: TEST_API_KEY, NODE_ENV: "test", ...opts.env });
  const ctx = createAppContext({
    config,
    db: database.db,
    log: createLogger(process.env.LOG_LEVEL ?? "silent"),
    authRateLimit: opts.authRateLimit ?? { points: 10_000, durationSeconds: 60 },
    imageRateLimit: opts.imageRateLimit ?? { points: 10_000, durationSeconds: 60 },
    languageRateLimit: opts.languageRateLimit ?? { points: 10_000, durationSeconds: 60 },
    loginAccountRateLimit: opts.loginAccountRateLimit ?? { points: 10_000, durationSeconds: 60 },
  });
  if (opts.imageAi) {
    const provider = typeof opts.imageAi === "function" ? opts.imageAi(ctx) : opts.imageAi;
    (provider as { attachStorage?: (s: AppContext["storage"]) => void }).attachStorage?.(ctx.storage);
    ctx.imageAi = { providerFor: () => provider, providers: { [provider.name]: provider } };
  }

  async function api(method: string, apiPath: string, o: CallOptions = {}): Promise<ApiResponse> {
    const url = new URL(`http://localhost/api${apiPath}`);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | FormData | undefined;
    // A FormData body goes through untouched (fetch sets the multipart content type and boundary).
    if (o.body instanceof FormData) body = o.body;
    else if (o.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
    }
    const res = await handleApiRequest(new Request(url, { method, headers, body }), ctx, { clientIp: o.ip ?? "127.0.0.1" });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* html or text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  return {
    ctx,
    database,
    dataDir,
    api,
    async createUser(u = {}) {
      const n = ++userSeq;
      const email = u.authProvider === "guest" ? null : (u.email ?? `user${n}-${Date.now()}@example.test`);
      const user = await database.db.user.create({
        data: {
          email,
          auth_provider: u.authProvider ?? "password",
          password_hash: u.password ? await hashPassword(u.password) : null,
          role: u.role ?? "SHOPPER",
          permissions: u.permissions ?? [],
          vendor_id: u.vendorId ?? null,
          first_name: u.firstName ?? null,
        },
      });
      return { id: user.id, email, token: await issueToken(database.db, user.id) };
    },
    async close() {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Replaces one method of the app's commerce port for the duration of `run` (a store that refuses, other inventory levels…). */
export async function withCommerce<K extends keyof import("../../app/providers/commerce/port").CommercePort>(
  app: Pick<TestApp, "ctx">,
  name: K,
  impl: import("../../app/providers/commerce/port").CommercePort[K],
  run: () => Promise<void>,
) {
  const commerce = app.ctx.commerce as unknown as Record<string, unknown>;
  const original = commerce[name];
  commerce[name] = impl;
  try {
    await run();
  } finally {
    commerce[name] = original;
  }
}
