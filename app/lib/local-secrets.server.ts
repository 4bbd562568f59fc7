/**
 * Secrets of the embedded default (local mode), generated once per DATA_DIR. A constant in the
 * source would be public: anyone could sign webhooks, App Proxy calls or review links for any
 * installation that forgot to configure one. Production mode never gets here (configuration
 * requires real secrets there).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const cache = new Map<string, string>();

/** The secret `name` kept in DATA_DIR/secrets/<name>, created (random, 32 bytes) on first use. */
export function localSecret(dataDir: string, name: string): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`Invalid local secret name "${name}"`);
  const dir = path.join(dataDir, "secrets");
  const file = path.join(dir, name);
  const cached = cache.get(file);
  if (cached) return cached;
  let value = readSecret(file);
  if (!value) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written whole to a private temporary file, then linked into place: link() fails when another
    // process got there first, so every process (test workers, the server, scripts) ends up with
    // the same value and nobody reads a half-written file.
    const tmp = path.join(dir, `.${name}.${process.pid}.${crypto.randomBytes(6).toString("hex")}`);
    fs.writeFileSync(tmp, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    value = readSecret(file);
    if (!value) throw new Error(`Could not create the local secret ${file}`);
  }
  cache.set(file, value);
  return value;
}

function readSecret(file: string): string | undefined {
  try {
    const value = fs.readFileSync(file, "utf8").trim();
    return value.length >= 32 ? value : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}
