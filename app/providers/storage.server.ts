/**
 * Object storage port. Keys look like `images/<name>.jpg` (SPEC §5). The local adapter keeps
 * files under DATA_DIR/uploads and the app serves them at /uploads/<key>.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "~/config.server";

export interface StoragePort {
  readonly kind: "local" | "s3";
  put(key: string, body: Uint8Array, contentType: string): Promise<{ key: string; url: string }>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
  health(): Promise<{ ok: boolean; detail?: string }>;
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes("..") || key.includes("//")) throw new Error(`Unsafe storage key: ${key}`);
}

/** The file-system calls the local adapter makes (tests inject failing ones: a full disk, a write that stops midway). */
export type LocalStorageFs = Pick<typeof fs, "mkdir" | "writeFile" | "rename" | "readFile" | "rm">;

/** How long the health probe may take, and how long its answer is reused (health stays cheap under polling). */
export const STORAGE_PROBE_TIMEOUT_MS = 2_000;
export const STORAGE_PROBE_CACHE_MS = 5_000;

export function createLocalStorage(rootDir: string, urlPrefix = "/uploads", deps: { fs?: LocalStorageFs; now?: () => number; probeTimeoutMs?: number } = {}): StoragePort {
  const files: LocalStorageFs = deps.fs ?? fs;
  const now = deps.now ?? Date.now;
  const full = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };

  /**
   * Writes under a temporary dot-name in the same folder (express.static does not serve
   * dotfiles), then renames it into place: a reader never sees half a file, a failed write
   * (disk full, read-only folder) removes what it left and keeps any previous file intact.
   */
  async function writeAtomically(file: string, body: Uint8Array) {
    await files.mkdir(path.dirname(file), { recursive: true });
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString("hex")}.tmp`);
    try {
      await files.writeFile(temp, body);
      await files.rename(temp, file);
    } catch (e) {
      await files.rm(temp, { force: true }).catch(() => undefined);
      throw e;
    }
  }

  /** A real write, read and delete of a small file: a full or read-only folder fails here. */
  async function probe(): Promise<{ ok: boolean; detail?: string }> {
    const key = `.health/probe-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
    const file = path.join(rootDir, key);
    const body = new TextEncoder().encode(`health probe ${new Date(now()).toISOString()}`);
    try {
      await writeAtomically(file, body);
      const read = new Uint8Array(await files.readFile(file));
      await files.rm(file, { force: true });
      if (Buffer.compare(Buffer.from(read), Buffer.from(body)) !== 0) return { ok: false, detail: "the uploads folder returned other bytes than were written" };
      return { ok: true, detail: "local folder (write, read and delete checked)" };
    } catch (e) {
      await files.rm(file, { force: true }).catch(() => undefined);
      return { ok: false, detail: `cannot write to the uploads folder: ${(e as Error).message}` };
    }
  }

  let cached: { at: number; result: Promise<{ ok: boolean; detail?: string }> } | null = null;

  return {
    kind: "local",
    async put(key, body, _contentType) {
      await writeAtomically(full(key), body);
      return { key, url: `${urlPrefix}/${key}` };
    },
    async get(key) {
      try {
        return new Uint8Array(await files.readFile(full(key)));
      } catch {
        return null;
      }
    },
    async delete(key) {
      await files.rm(full(key), { force: true });
    },
    publicUrl: (key) => `${urlPrefix}/${key}`,
    health() {
      if (cached && now() - cached.at < STORAGE_PROBE_CACHE_MS) return cached.result;
      const limitMs = deps.probeTimeoutMs ?? STORAGE_PROBE_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<{ ok: boolean; detail: string }>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, detail: `the uploads folder did not answer a test write within ${limitMs} ms` }), limitMs);
        timer.unref?.();
      });
      const result = Promise.race([probe(), timeout]).finally(() => clearTimeout(timer));
      cached = { at: now(), result };
      return result;
    },
  };
}

export function uploadsDir(config: Pick<AppConfig, "DATA_DIR">): string {
  return path.join(config.DATA_DIR, "uploads");
}

export function createStorage(config: AppConfig): StoragePort {
  if (config.STORAGE_ADAPTER === "s3") {
    throw new Error("STORAGE_ADAPTER=s3 is not available in this version yet; use the local adapter (see README, Configuration)");
  }
  return createLocalStorage(uploadsDir(config));
}
