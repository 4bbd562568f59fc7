/**
 * Private object storage: files that must never have a public URL (customers' data exports).
 * The local adapter keeps them under DATA_DIR/private, a sibling of DATA_DIR/uploads: the /uploads
 * static route (server.ts) serves only the uploads folder, so nothing here is reachable by URL;
 * the app reads them back and answers them to callers it has authorised. An S3 adapter would use
 * a bucket (or prefix) without public read and no S3_PUBLIC_URL mapping; STORAGE_ADAPTER=s3 is
 * refused at start today, as for the public storage.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "~/config.server";
import { assertSafeKey } from "./storage.server";

export interface PrivateStoragePort {
  readonly kind: "local" | "s3";
  put(key: string, body: Uint8Array, contentType: string): Promise<{ key: string }>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

export function privateStorageDir(config: Pick<AppConfig, "DATA_DIR">): string {
  return path.join(config.DATA_DIR, "private");
}

export function createLocalPrivateStorage(rootDir: string): PrivateStoragePort {
  const full = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };
  return {
    kind: "local",
    async put(key, body) {
      const file = full(key);
      // Owner-only: other accounts on the machine have no business reading exports either.
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      try {
        await fs.writeFile(tmp, body, { mode: 0o600 });
        await fs.rename(tmp, file);
      } catch (e) {
        await fs.rm(tmp, { force: true });
        throw e;
      }
      return { key };
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
  };
}

export function createPrivateStorage(config: AppConfig): PrivateStoragePort {
  if (config.STORAGE_ADAPTER === "s3") {
    throw new Error("STORAGE_ADAPTER=s3 is not available in this version yet; use the local adapter (see README, Configuration)");
  }
  return createLocalPrivateStorage(privateStorageDir(config));
}
