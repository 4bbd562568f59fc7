/**
 * Opaque session tokens. Only a SHA-256 of each token is stored, so a database leak does not
 * leak sessions, and logout revokes a token at once (which a stateless JWT could not).
 */
import crypto from "node:crypto";
import type { Db } from "~/db.server";

export const TOKEN_TTL_DAYS = 180;

export const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export async function issueToken(db: Db, userId: string): Promise<string> {
  const token = `fd_${crypto.randomBytes(32).toString("base64url")}`;
  await db.authToken.create({
    data: { user_id: userId, token_hash: hashToken(token), expires_at: new Date(Date.now() + TOKEN_TTL_DAYS * 86_400_000) },
  });
  return token;
}

export async function resolveToken(db: Db, token: string) {
  const row = await db.authToken.findUnique({ where: { token_hash: hashToken(token) }, include: { user: true } });
  if (!row || row.expires_at.getTime() < Date.now()) return null;
  // Touch at most once an hour: a write per request would serialise reads on the embedded database.
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 3_600_000) {
    await db.authToken.update({ where: { id: row.id }, data: { last_used_at: new Date() } }).catch(() => undefined);
  }
  return row;
}

export async function revokeToken(db: Db, token: string): Promise<void> {
  await db.authToken.deleteMany({ where: { token_hash: hashToken(token) } });
}
