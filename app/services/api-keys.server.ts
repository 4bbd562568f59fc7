/**
 * API keys of the data service (GraphQL at /api/graphql, header `x-api-key`).
 *
 * - A key is `fdk_` + 43 characters of base64url (32 random bytes from crypto.randomBytes):
 *   256 bits, so a plain SHA-256 is a safe one-way hash and lets the lookup use the unique index.
 * - Only the hash (`key_hash`) and the first 12 characters (`key_prefix`, to recognise the key in
 *   lists) are stored; the key itself is answered once, by `createApiKey`.
 * - Verification hashes what the caller sent and looks the hash up: the database compares hashes,
 *   never keys, so timing tells an attacker nothing about a valid key; the stored hash is compared
 *   again with `crypto.timingSafeEqual`.
 * - `last_used_at` is written at most once a minute per key (a conditional update), so a busy
 *   service does not turn every read into a write.
 * - Revoking sets `revoked_at`; a revoked key is refused at once (no cache in between).
 */
import crypto from "node:crypto";
import type { ApiKey, Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { ApiKeyInfo } from "~/contract/api-keys";
import { conflictError, notFoundError } from "~/lib/domain-errors";

export const API_KEY_PREFIX = "fdk_";
/** Characters of the key kept in clear to recognise it (`fdk_` + 8). */
export const API_KEY_PREFIX_LENGTH = 12;
/** `last_used_at` is refreshed when it is older than this. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** Longer values are not keys of ours: refused without a lookup. */
const MAX_KEY_LENGTH = 200;

export const ApiKeyMessages = {
  MISSING: "A valid x-api-key header is required",
  UNKNOWN: "The x-api-key header does not hold a valid API key",
  REVOKED: "This API key has been revoked: ask an admin for a new key",
  NOT_FOUND: "API key not found",
} as const;

export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
}

export function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key, "utf8").digest("hex");
}

/** Compares two strings in constant time (their SHA-256 digests, so lengths do not leak). */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = crypto.createHash("sha256").update(a, "utf8").digest();
  const db = crypto.createHash("sha256").update(b, "utf8").digest();
  return crypto.timingSafeEqual(da, db);
}

const withCreator = { created_by: { select: { id: true, email: true } } } satisfies Prisma.ApiKeyInclude;
type ApiKeyRow = Prisma.ApiKeyGetPayload<{ include: typeof withCreator }>;

export function toApiKeyInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    status: row.revoked_at ? "revoked" : "active",
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_by: row.created_by ? { id: row.created_by.id, email: row.created_by.email } : null,
  };
}

export type ApiKeyStatusFilter = "all" | "active" | "revoked";

const statusWhere = (status: ApiKeyStatusFilter): Prisma.ApiKeyWhereInput =>
  status === "active" ? { revoked_at: null } : status === "revoked" ? { revoked_at: { not: null } } : {};

/** Keys newest first (active and revoked alike unless filtered), with the total for paging. */
export async function listApiKeys(db: Db, opts: { status?: ApiKeyStatusFilter; skip?: number; take?: number } = {}) {
  const where = statusWhere(opts.status ?? "all");
  const [rows, total] = await Promise.all([
    db.apiKey.findMany({ where, include: withCreator, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: opts.skip ?? 0, take: opts.take ?? 50 }),
    db.apiKey.count({ where }),
  ]);
  return { items: rows.map(toApiKeyInfo), total };
}

/**
 * Creates a key named `name` (unique among active keys, ignoring case) and answers it with its
 * record. The key is not stored and cannot be shown again.
 */
export async function createApiKey(db: Db, input: { name: string; createdById?: string | null }): Promise<{ apiKey: ApiKeyInfo; key: string }> {
  const name = input.name.trim();
  const clash = await db.apiKey.findFirst({ where: { revoked_at: null, name: { equals: name, mode: "insensitive" } }, select: { id: true } });
  if (clash) throw conflictError(`An active API key named "${name}" already exists: choose another name or revoke that key first`);
  const key = generateApiKey();
  const row = await db.apiKey.create({
    data: { name, key_prefix: key.slice(0, API_KEY_PREFIX_LENGTH), key_hash: hashApiKey(key), created_by_id: input.createdById ?? null },
    include: withCreator,
  });
  return { apiKey: toApiKeyInfo(row), key };
}

/** Revokes a key; revoking a revoked key answers it unchanged (the first date stays). */
export async function revokeApiKey(db: Db, id: string, now: Date = new Date()): Promise<ApiKeyInfo> {
  await db.apiKey.updateMany({ where: { id, revoked_at: null }, data: { revoked_at: now } });
  const row = await db.apiKey.findUnique({ where: { id }, include: withCreator });
  if (!row) throw notFoundError(ApiKeyMessages.NOT_FOUND);
  return toApiKeyInfo(row);
}

export type ApiKeyVerification =
  | { ok: true; key: Pick<ApiKey, "id" | "name" | "key_prefix"> }
  | { ok: false; reason: "missing" | "unknown" | "revoked"; message: string };

/**
 * Checks a key a caller sent. Answers the key's id and name, or why it is refused. Updates
 * `last_used_at` when it is more than a minute old.
 */
export async function verifyApiKey(db: Db, presented: string | null | undefined, now: Date = new Date()): Promise<ApiKeyVerification> {
  const raw = presented?.trim() ?? "";
  if (!raw) return { ok: false, reason: "missing", message: ApiKeyMessages.MISSING };
  if (raw.length > MAX_KEY_LENGTH) return { ok: false, reason: "unknown", message: ApiKeyMessages.UNKNOWN };
  const hash = hashApiKey(raw);
  const row = await db.apiKey.findUnique({ where: { key_hash: hash }, select: { id: true, name: true, key_prefix: true, key_hash: true, revoked_at: true, last_used_at: true } });
  if (!row || !crypto.timingSafeEqual(Buffer.from(row.key_hash, "hex"), Buffer.from(hash, "hex"))) {
    return { ok: false, reason: "unknown", message: ApiKeyMessages.UNKNOWN };
  }
  if (row.revoked_at) return { ok: false, reason: "revoked", message: ApiKeyMessages.REVOKED };
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Conditional: of concurrent requests, one writes; none waits on a lock held by another.
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await db.apiKey.updateMany({
      where: { id: row.id, revoked_at: null, OR: [{ last_used_at: null }, { last_used_at: { lte: staleBefore } }] },
      data: { last_used_at: now },
    });
  }
  return { ok: true, key: { id: row.id, name: row.name, key_prefix: row.key_prefix } };
}
