/**
 * The API router: matches a request to a contract endpoint, then authenticates → authorises →
 * validates → runs the handler → validates the response. Errors become
 * `{"error": {"code", "message", "details?", "requestId"}}` with the right status.
 */
import crypto from "node:crypto";
import { Prisma } from "@prisma/client";
import { z } from "zod";
import type { EndpointDef, EndpointParsed, EndpointResult } from "~/contract/endpoint";
import { endpoints, type EndpointName, type Endpoints } from "~/contract";
import { ErrorCodes, Messages, type ErrorStatus } from "~/contract/messages";
import type { AppContext } from "~/context.server";
import type { Logger } from "~/lib/logger.server";
import { DomainError, type DomainErrorKind } from "~/lib/domain-errors";
import { MAX_JSON_BODY_BYTES, MAX_REQUEST_BODY_BYTES, readFormData, readText } from "~/lib/body-limit.server";
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "~/lib/unstorable-text";
import { ApiError } from "./errors.server";
import { authenticateApiKey, authenticateRequest, authorize, type AuthState } from "./auth.server";
import {
  claimIdempotencyKey,
  idempotencyCallerOf,
  readIdempotencyKey,
  replayedResponse,
  requestFingerprint,
  settleIdempotencyKey,
  sweepExpiredIdempotencyKeysNow,
  type RawBody,
} from "./idempotency.server";

export interface HandlerArgs<E> {
  input: EndpointParsed<E>;
  auth: AuthState;
  ctx: AppContext;
  request: Request;
  log: Logger;
  /** Headers added to the JSON response (cookies, caching). */
  headers: Headers;
  clientIp: string;
}

export type Handler<E> = (args: HandlerArgs<E>) => Promise<EndpointResult<E> | Response>;

/** Each area's handlers, checked at compile time to cover every endpoint of the area. */
export type HandlersFor<T extends Record<string, EndpointDef>> = { [K in keyof T]: Handler<T[K]> };

export type AllHandlers = HandlersFor<Endpoints>;

interface CompiledRoute {
  name: EndpointName;
  def: EndpointDef;
  regex: RegExp;
  paramNames: string[];
  staticSegments: number;
}

export function compileRoutes(): CompiledRoute[] {
  const routes = (Object.entries(endpoints) as [EndpointName, EndpointDef][]).map(([name, def]) => {
    const segments = def.path.split("/").filter(Boolean);
    const paramNames: string[] = [];
    const pattern = segments
      .map((s) => {
        const m = /^\{(\w+)\}$/.exec(s);
        if (m) {
          paramNames.push(m[1]);
          return "([^/]+)";
        }
        return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    return { name, def, regex: new RegExp(`^/${pattern}/?$`), paramNames, staticSegments: segments.length - paramNames.length };
  });
  // Static paths win over parameters: /users/me before /users/{id}.
  return routes.sort((a, b) => b.staticSegments - a.staticSegments || a.paramNames.length - b.paramNames.length);
}

/** URLSearchParams → object: repeated keys become arrays, `a[b]=c` becomes `{a: {b: c}}`. */
export function parseQuery(search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of search) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(rawKey);
    if (nested) {
      const obj = (out[nested[1]] ??= {}) as Record<string, unknown>;
      obj[nested[2]] = value;
      continue;
    }
    const key = rawKey.endsWith("[]") ? rawKey.slice(0, -2) : rawKey;
    const prev = out[key];
    if (prev === undefined) out[key] = rawKey.endsWith("[]") ? [value] : value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** The endpoint's body limit: its own (uploads), else the JSON limit; never above the ceiling. */
export function bodyLimitOf(def: Pick<EndpointDef, "maxBodyBytes">): number {
  return Math.min(def.maxBodyBytes ?? MAX_JSON_BODY_BYTES, MAX_REQUEST_BODY_BYTES);
}

/**
 * The body, read with the endpoint's limit: 413 before buffering more than that
 * (body-limit.server.ts). `raw` is what was read, for the Idempotency-Key's fingerprint.
 */
async function readBody(request: Request, maxBytes: number): Promise<{ value: unknown; raw: RawBody }> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.includes("multipart/form-data")) {
    try {
      const form = await readFormData(request, maxBytes);
      return { value: form, raw: form };
    } catch (e) {
      if (e instanceof DomainError) throw e;
      throw new ApiError(400, "The request body is not valid multipart/form-data");
    }
  }
  const text = await readText(request, Math.min(maxBytes, MAX_JSON_BODY_BYTES));
  if (!text.trim()) return { value: {}, raw: text };
  if (type && !type.includes("application/json") && !type.includes("+json")) {
    throw new ApiError(415, "Send the request body as application/json");
  }
  try {
    return { value: JSON.parse(text), raw: text };
  } catch {
    throw new ApiError(400, "The request body is not valid JSON");
  }
}

function validationError(error: z.ZodError, where: string): ApiError {
  const first = error.issues[0];
  const message = first?.message && first.code === "custom" ? first.message : first ? issueMessage(first) : "Invalid input";
  return new ApiError(400, message, { where, issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code })) });
}

/** A spec message (e.g. "User ID is required") is used as is; generic zod messages get the field name. */
function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.join(".");
  if (Object.values(Messages).includes(issue.message as never)) return issue.message;
  if (!field) return issue.message;
  if (issue.message.startsWith("Invalid input: expected") && issue.code === "invalid_type") {
    return (issue as { input?: unknown }).input === undefined ? `${field} is required` : `${field}: ${issue.message}`;
  }
  return `${field}: ${issue.message}`;
}

export function errorResponse(status: number, code: string, message: string, requestId: string, details?: unknown, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  h.set("x-request-id", requestId);
  return new Response(JSON.stringify({ error: { code, message, ...(details === undefined ? {} : { details }), requestId } }), { status, headers: h });
}

export interface ApiRequestMeta {
  clientIp?: string;
  /** The path under /api, when the caller already stripped a prefix (App Proxy). */
  apiPath?: string;
  /** Auth resolved by the caller (App Proxy: the logged-in customer). */
  auth?: AuthState;
}

export function createApiHandler(handlers: AllHandlers) {
  const routes = compileRoutes();

  return async function handleApiRequest(request: Request, ctx: AppContext, meta: ApiRequestMeta = {}): Promise<Response> {
    const started = performance.now();
    const requestId = request.headers.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
    const url = new URL(request.url);
    const apiPath = meta.apiPath ?? url.pathname.replace(/^\/api(?=\/|$)/, "");
    const method = request.method.toUpperCase() === "HEAD" ? "GET" : request.method.toUpperCase();
    const log = ctx.log.child({ requestId, method, path: apiPath });
    const clientIp = meta.clientIp ?? "unknown";

    let status = 500;
    let userId: string | undefined;
    try {
      const candidates = routes.filter((r) => r.regex.test(apiPath));
      if (candidates.length === 0) throw new ApiError(404, `No API endpoint at ${apiPath}`);
      const route = candidates.find((r) => r.def.method === method);
      if (!route) {
        const allow = [...new Set(candidates.map((r) => r.def.method))].join(", ");
        status = 405;
        return errorResponse(405, "method_not_allowed", `Use ${allow} for ${apiPath}`, requestId, undefined, { allow });
      }
      const def = route.def;
      const match = route.regex.exec(apiPath)!;

      let auth = meta.auth ?? (await authenticateRequest(ctx, request));
      // Data-service endpoints: the x-api-key is checked against the keys admins created (401 if not valid).
      if (def.access.kind === "apiKey") auth = { ...auth, apiKey: await authenticateApiKey(ctx, request) };
      userId = auth.user?.id;
      authorize(def.access, auth, ctx, request);
      const idempotencyKey = readIdempotencyKey(request, method);
      const idempotencyCaller = idempotencyKey === null ? null : idempotencyCallerOf(def.access, auth);

      if (def.rateLimit) {
        // Image work and language-model work each share one budget per caller across their endpoints;
        // sign-in is per endpoint and address.
        const r =
          def.rateLimit === "auth"
            ? await ctx.authRateLimiter.consume(`${route.name}:${clientIp}`)
            : def.rateLimit === "language"
              ? await ctx.languageRateLimiter.consume(`language:${auth.user?.id ?? clientIp}`)
              : await ctx.imageRateLimiter.consume(`image:${auth.user?.id ?? clientIp}`);
        if (!r.allowed) {
          status = 429;
          const message =
            def.rateLimit === "language"
              ? `Too many assistant requests, please wait ${r.retryAfterSeconds} second${r.retryAfterSeconds === 1 ? "" : "s"} and try again`
              : Messages.TOO_MANY_REQUESTS;
          return errorResponse(429, ErrorCodes[429], message, requestId, undefined, { "retry-after": String(r.retryAfterSeconds) });
        }
      }

      const decode = (v: string) => {
        try {
          return decodeURIComponent(v);
        } catch {
          throw new ApiError(400, "The path is not valid URL encoding");
        }
      };
      const rawParams = Object.fromEntries(route.paramNames.map((n, i) => [n, decode(match[i + 1])]));

      const parse = (schema: z.ZodType | undefined, value: unknown, where: string) => {
        if (!schema) return undefined;
        // Refused here, once for every endpoint (params, query, JSON and multipart fields alike):
        // PostgreSQL cannot store these characters and would fail the request with a 500.
        const unstorable = findUnstorableText(value);
        if (unstorable !== null) throw new ApiError(400, `${where}${unstorable ? `.${unstorable}` : ""} ${UNSTORABLE_TEXT_MESSAGE}`, { where, path: unstorable });
        // reportInput: tells "missing" from "present but of the wrong type" (issueMessage).
        const r = schema.safeParse(value, { reportInput: true });
        if (!r.success) throw validationError(r.error, where);
        return r.data;
      };
      const params = parse(def.params, rawParams, "params");
      const query = parse(def.query, parseQuery(url.searchParams), "query");
      let rawBody: RawBody = null;
      let body: unknown;
      if (def.body) {
        const read = await readBody(request, bodyLimitOf(def));
        rawBody = read.raw;
        body = parse(def.body, read.value, "body");
      }
      const input = { params, query, body };

      const headers = new Headers({ "x-request-id": requestId });
      const handler = handlers[route.name] as unknown as Handler<EndpointDef>;
      const invoke = async (): Promise<Response> => {
        const result = await handler({ input: input as never, auth, ctx, request, log, headers, clientIp });
        if (result instanceof Response) {
          result.headers.set("x-request-id", requestId);
          return result;
        }
        const okStatus = def.status ?? 200;
        if (def.responseType === "html") {
          headers.set("content-type", "text/html; charset=utf-8");
          return new Response(String(result), { status: okStatus, headers });
        }
        const out = def.response.safeParse(result);
        if (!out.success) {
          log.error({ issues: out.error.issues.slice(0, 5), endpoint: route.name }, "response does not match the contract");
          throw new ApiError(500, Messages.INTERNAL);
        }
        headers.set("content-type", "application/json; charset=utf-8");
        return new Response(JSON.stringify(out.data), { status: okStatus, headers });
      };

      if (idempotencyKey === null || idempotencyCaller === null) {
        const res = await invoke();
        status = res.status;
        return res;
      }
      // Claimed only once the request is valid (Stripe's rule): a refused request keeps nothing.
      const fingerprint = await requestFingerprint(method, apiPath, url.search, rawBody);
      const outcome = await claimIdempotencyKey(ctx.db, { caller: idempotencyCaller, key: idempotencyKey, method, path: apiPath, fingerprint });
      if (outcome.kind === "replay") {
        status = outcome.response.status;
        return replayedResponse(outcome.response, requestId);
      }
      // The handler's refusals (4xx) are answers to keep like any other; a 5xx frees the key.
      let res: Response;
      try {
        res = await invoke();
      } catch (e) {
        res = errorResponseOf(e, log, requestId);
      }
      res = await settleIdempotencyKey(ctx.db, outcome.claim, res, log);
      await sweepExpiredIdempotencyKeysNow(ctx.db, log);
      status = res.status;
      return res;
    } catch (e) {
      const res = errorResponseOf(e, log, requestId);
      status = res.status;
      return res;
    } finally {
      log.info({ status, ms: Math.round(performance.now() - started), userId }, "api request");
    }
  };
}

/** The JSON error answer of anything thrown while a request was handled (5xx logged). */
function errorResponseOf(e: unknown, log: Logger, requestId: string): Response {
  const err = toApiError(e);
  if (err.status >= 500) log.error({ err: e }, "request failed");
  const retryAfter = e instanceof DomainError && e.retryAfterSeconds ? { "retry-after": String(e.retryAfterSeconds) } : undefined;
  return errorResponse(err.status, err.code, err.message, requestId, err.details, retryAfter);
}

const STATUS_OF_DOMAIN_ERROR: Record<DomainErrorKind, ErrorStatus> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  failed: 500,
};

export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof DomainError) return new ApiError(STATUS_OF_DOMAIN_ERROR[e.kind], e.message, e.details);
  if (isUnstorableTextDbError(e)) return new ApiError(400, `The request ${UNSTORABLE_TEXT_MESSAGE}`);
  if (e instanceof Prisma.PrismaClientKnownRequestError) {
    if (e.code === "P2025") return new ApiError(404, Messages.NOT_FOUND);
    if (e.code === "P2002") return new ApiError(409, "This record already exists");
    if (e.code === "P2003") return new ApiError(409, "This record is referenced by another record");
  }
  return new ApiError(500, Messages.INTERNAL);
}

/**
 * PostgreSQL refusing a character of the input (22021: NUL in text; 22P05: \u0000 in jsonb; 22P02
 * with a surrogate: an unpaired one in jsonb), however the driver wraps it. The boundaries refuse
 * such text first; this keeps any path they miss a 400 rather than a 500.
 */
function isUnstorableTextDbError(e: unknown): boolean {
  const pending: unknown[] = [e];
  for (let i = 0; i < pending.length && i < 8; i++) {
    const x = pending[i];
    if (!x || typeof x !== "object") continue;
    const o = x as { code?: unknown; originalCode?: unknown; detail?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    const code = typeof o.originalCode === "string" ? o.originalCode : o.code;
    if (code === "22021" || code === "22P05") return true;
    if (code === "22P02" && typeof o.detail === "string" && /surrogate/i.test(o.detail)) return true;
    pending.push(o.cause, o.meta?.driverAdapterError);
  }
  return false;
}
