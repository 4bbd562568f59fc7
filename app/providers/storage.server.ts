/**
 * Object storage port. Keys look like `images/<name>.jpg` (SPEC §5). The local adapter keeps
 * files under DATA_DIR/uploads and the app serves them at /uploads/<key>.
 */
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

export function createLocalStorage(rootDir: string, urlPrefix = "/uploads"): StoragePort {
  const full = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };
  return {
    kind: "local",
    async put(key, body, _contentType) {
      const file = full(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, body);
      return { key, url: `${urlPrefix}/${key}` };
    },
    async get(key) {
      try {
        return new Uint8Array(await fs.readFile(full(key)));
      } catch {
        return null;
      }
    },
    async delete(key) {
      await fs.rm(full(key), { force: true });
    },
    publicUrl: (key) => `${urlPrefix}/${key}`,
    async health() {
      try {
        await fs.mkdir(rootDir, { recursive: true });
        await fs.access(rootDir, fs.constants.W_OK);
        return { ok: true, detail: "local folder" };
      } catch (e) {
        return { ok: false, detail: (e as Error).message };
      }
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
