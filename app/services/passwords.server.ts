/**
 * Password hashing with Argon2id (@node-rs/argon2: maintained, N-API prebuilt binaries that
 * install from the npm registry and load under any Node version).
 */
import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

export function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

let dummyHash: Promise<string> | undefined;
/**
 * A real hash (same parameters as hashPassword) of a random password nobody knows: checking a
 * password against it costs what checking a real account costs.
 */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(32).toString("base64url"));
  return dummyHash;
}

/**
 * True when `password` matches `hashValue`. Without a hash (unknown email, an account with no
 * password) the password is still verified, against a dummy hash, so the answer takes as long as
 * for a real account and its timing does not tell which emails have one.
 */
export async function verifyPassword(hashValue: string | null | undefined, password: string): Promise<boolean> {
  const target = hashValue || (await dummyPasswordHash());
  try {
    const ok = await verify(target, password);
    return ok && Boolean(hashValue);
  } catch {
    return false;
  }
}
