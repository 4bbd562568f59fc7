/**
 * `Idempotency-Key` on API writes (IETF draft "The Idempotency-Key HTTP Header Field", Stripe's
 * behaviour). A POST, PUT, PATCH or DELETE carrying the header claims the key for its caller with
 * an insert that conflicts on (caller, key), so two processes racing with one key cannot both run
 * the handler. The first request's answer (status < 500) is kept for 24 hours and replayed to a
 * retry with `Idempotent-Replayed: true`; a 5xx or a crash frees the key so the retry runs again.
 *
 * Decisions: keys are scoped per caller only (not per path), so the same key on another path or
 * with another body is a 422 rather than a second, silent run; anonymous callers have no stable
 * identity and are refused (400) — guests are users and have one; multipart uploads are
 * fingerprinted from their parsed fields and files (already in memory when the router parsed them);
 * Set-Cookie is never stored (it may carry a session token) and so never replayed.
 */
import crypto from "node:crypto";
import type { Db } from "~/db.server";
import type { Access } from "~/contract/endpoint";
import type { Logger } from "~/lib/logger.server";
import { DomainError } from "~/lib/domain-errors";
import { ApiError } from "./errors.server";
import type { AuthState } from "./auth.server";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
/** How long a key holds its answer (Stripe: 24 h). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still unanswered after this long is taken to be from a process that died mid-request:
 * the next request with the key may take it over instead of answering 409 for a whole day.
 */
export const IDEMPOTENCY_STALE_CLAIM_MS = 10 * 60 * 1000;
/** Answers larger than this are not kept (no write endpoint answers that much); the key is freed. */
export const MAX_STORED_RESPONSE_BYTES = 5_000_000;

export const IdempotencyMessages = {
  INVALID_KEY: `The ${IDEMPOTENCY_KEY_HEADER} header must be 1–255 visible ASCII characters`,
  ANONYMOUS: `The ${IDEMPOTENCY_KEY_HEADER} header needs a signed-in caller or an API key; send the request without it`,
  IN_PROGRESS: "A request with this Idempotency-Key is still being processed",
  MISMATCH: "This Idempotency-Key was already used for a different request; use a new key for a new request",
} as const;

/** Statuses a Response may not carry a body with (the Response constructor throws). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers of an answer that say what it is or where it points; the rest belong to the moment. */
const KEPT_HEADERS = ["content-type", "content-disposition", "content-language", "location", "cache-control", "etag", "last-modified", "x-content-type-options"];

/** The request's key, or null when it has none or is not a write (GET ignores the header). Throws 400 on a malformed key. */
export function readIdempotencyKey(request: Request, method: string): string | null {
  if (!WRITE_METHODS.has(method)) return null;
  const raw = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (raw === null) return null;
  const key = raw.trim();
  if (!KEY_PATTERN.test(key)) throw new ApiError(400, IdempotencyMessages.INVALID_KEY, { header: IDEMPOTENCY_KEY_HEADER });
  return key;
}

/** Whose key it is: the data-service key on x-api-key endpoints, else the signed-in user (guests included). */
export function idempotencyCallerOf(access: Access, auth: AuthState): string {
  if (access.kind === "apiKey" && auth.apiKey) return auth.apiKey.id ? `apikey:${auth.apiKey.id}` : "apikey:config";
  if (auth.user) return `user:${auth.user.id}`;
  throw new ApiError(400, IdempotencyMessages.ANONYMOUS, { header: IDEMPOTENCY_KEY_HEADER });
}

/** The raw body the router read: JSON text, a parsed multipart form, or nothing. */
export type RawBody = string | FormData | null;

/** SHA-256 over method, path, query and body; a form's files count by name, type, size and bytes. */
export async function requestFingerprint(method: string, path: string, search: string, body: RawBody): Promise<string> {
  const h = crypto.createHash("sha256");
  const part = (s: string) => h.update(`${Buffer.byteLength(s)}:${s}`);
  part(method);
  part(path);
  part(search);
  if (typeof body === "string") part(`json:${body}`);
  else if (body) {
    part("form");
    for (const [name, value] of body.entries()) {
      part(name);
      if (typeof value === "string") part(`text:${value}`);
      else {
        part(`file:${value.name}:${value.type}:${value.size}`);
        h.update(new Uint8Array(await value.arrayBuffer()));
      }
    }
  } else part("none");
  return h.digest("hex");
}

export interface IdempotencyClaim {
  id: string;
  claimToken: string;
}

export type ClaimOutcome = { kind: "claimed"; claim: IdempotencyClaim } | { kind: "replay"; response: StoredResponse };

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export interface ClaimInput {
  caller: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  now?: Date;
}

/**
 * Claims the key (insert-or-conflict), or answers what an earlier request with it decided:
 * its stored response (replay), 422 for another request, 409 while it still runs. An expired row
 * or an abandoned claim is taken over with a conditional update, so only one taker wins.
 */
export async function claimIdempotencyKey(db: Db, input: ClaimInput): Promise<ClaimOutcome> {
  const now = input.now ?? new Date();
  const claimToken = crypto.randomUUID();
  const fresh = {
    method: input.method,
    path: input.path,
    request_hash: input.fingerprint,
    claim_token: claimToken,
    created_at: now,
    locked_at: now,
    expires_at: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
  };
  // Two rounds: a row freed, or taken over by another request, between our insert and our read is tried once more.
  for (let round = 0; round < 2; round++) {
    const id = crypto.randomUUID();
    const inserted = await db.idempotencyKey.createMany({ data: [{ id, caller: input.caller, key: input.key, ...fresh }], skipDuplicates: true });
    if (inserted.count === 1) return { kind: "claimed", claim: { id, claimToken } };

    const row = await db.idempotencyKey.findUnique({ where: { caller_key: { caller: input.caller, key: input.key } } });
    if (!row) continue; // released in between: insert again

    const expired = row.expires_at <= now;
    const abandoned = row.completed_at === null && row.locked_at.getTime() <= now.getTime() - IDEMPOTENCY_STALE_CLAIM_MS;
    if (expired || (abandoned && row.request_hash === input.fingerprint)) {
      const taken = await db.idempotencyKey.updateMany({
        where: { id: row.id, claim_token: row.claim_token },
        data: { ...fresh, response_status: null, response_headers: {}, response_body: null, completed_at: null },
      });
      if (taken.count === 1) return { kind: "claimed", claim: { id: row.id, claimToken } };
      continue;
    }
    if (row.request_hash !== input.fingerprint) {
      throw new ApiError(422, IdempotencyMessages.MISMATCH, { header: IDEMPOTENCY_KEY_HEADER, firstRequest: `${row.method} ${row.path}` });
    }
    if (row.completed_at === null || row.response_status === null) throw stillRunning();
    return {
      kind: "replay",
      response: { status: row.response_status, headers: (row.response_headers ?? {}) as Record<string, string>, body: row.response_body ? new Uint8Array(row.response_body) : null },
    };
  }
  throw stillRunning();
}

/** 409 with Retry-After: the first request is usually answered within a second. */
const stillRunning = () => new DomainError("conflict", IdempotencyMessages.IN_PROGRESS, { header: IDEMPOTENCY_KEY_HEADER }, 1);

/** Frees the key (a 5xx, a crash of the handler, an answer too large to keep): a retry runs again. */
export async function releaseIdempotencyKey(db: Db, claim: IdempotencyClaim): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { id: claim.id, claim_token: claim.claimToken } });
}

/**
 * Keeps the handler's answer under the key (status < 500) and gives back an equal Response (the
 * original's body has been read). A 5xx frees the key instead.
 */
export async function settleIdempotencyKey(db: Db, claim: IdempotencyClaim, response: Response, log: Logger): Promise<Response> {
  if (response.status >= 500) {
    await releaseIdempotencyKey(db, claim);
    return response;
  }
  const bytes = response.body && !NULL_BODY_STATUSES.has(response.status) ? new Uint8Array(await response.arrayBuffer()) : null;
  const again = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  if (bytes && bytes.byteLength > MAX_STORED_RESPONSE_BYTES) {
    log.warn({ bytes: bytes.byteLength }, "answer too large to keep under its Idempotency-Key; the key is freed");
    await releaseIdempotencyKey(db, claim);
    return again;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = response.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  const kept = await db.idempotencyKey.updateMany({
    where: { id: claim.id, claim_token: claim.claimToken },
    data: { response_status: response.status, response_headers: headers, response_body: bytes ? Buffer.from(bytes) : null, completed_at: new Date() },
  });
  // Taken over as abandoned while this request ran (it ran longer than the stale limit): the
  // newer claim owns the key now; this answer still goes to its caller.
  if (kept.count === 0) log.warn("Idempotency-Key claim was taken over before the answer was kept");
  return again;
}

/** The kept answer, marked as a replay; the request id is this request's. */
export function replayedResponse(stored: StoredResponse, requestId: string): Response {
  const headers = new Headers(stored.headers);
  headers.set("x-request-id", requestId);
  headers.set(IDEMPOTENT_REPLAYED_HEADER, "true");
  const body = stored.body && !NULL_BODY_STATUSES.has(stored.status) ? Buffer.from(stored.body) : null;
  return new Response(body, { status: stored.status, headers });
}

/** Deletes expired keys, at most `limit` a call (the index on expires_at finds them). */
export async function deleteExpiredIdempotencyKeys(db: Db, now: Date = new Date(), limit = 500): Promise<number> {
  const expired = await db.idempotencyKey.findMany({ where: { expires_at: { lte: now } }, select: { id: true }, take: limit });
  if (expired.length === 0) return 0;
  const { count } = await db.idempotencyKey.deleteMany({ where: { id: { in: expired.map((r) => r.id) }, expires_at: { lte: now } } });
  return count;
}

const SWEEP_EVERY_MS = 60_000;
const lastSweep = new WeakMap<Db, number>();

/**
 * Expired keys are deleted on the way (no job queue for this): at most once a minute per process
 * and database, after a claimed request has been answered.
 */
export async function sweepExpiredIdempotencyKeysNow(db: Db, log: Logger): Promise<void> {
  const at = Date.now();
  if (at - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, at);
  try {
    await deleteExpiredIdempotencyKeys(db);
  } catch (err) {
    log.warn({ err }, "could not delete expired idempotency keys");
  }
}
