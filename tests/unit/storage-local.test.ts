/**
 * The local storage adapter: writes land atomically (temporary dot-name, then rename), a write
 * that fails midway leaves nothing behind and keeps the previous file, and health() probes a real
 * write + read + delete (with a timeout, its answer reused for a few seconds).
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage, STORAGE_PROBE_CACHE_MS, type LocalStorageFs } from "../../app/providers/storage.server";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-storage-test-"));
});
afterEach(() => {
  fs.chmodSync(dir, 0o755);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file under a folder, dotfiles included, relative to it. */
const listAll = (root: string) => (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile()).map((d) => path.relative(root, path.join(d.parentPath, d.name))).sort();

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** The real fs, with writeFile writing half of the bytes and then failing as a full disk does. */
const fullDiskMidway: LocalStorageFs = {
  ...fsp,
  writeFile: (async (file: fs.PathLike, data: Uint8Array) => {
    await fsp.writeFile(file, data.subarray(0, Math.floor(data.length / 2)));
    throw enospc();
  }) as LocalStorageFs["writeFile"],
};

describe("writes", () => {
  it("a put lands under its key with nothing else left in the folder", async () => {
    const storage = createLocalStorage(dir);
    const r = await storage.put("images/a.jpg", new Uint8Array([1, 2, 3]), "image/jpeg");
    expect(r).toEqual({ key: "images/a.jpg", url: "/uploads/images/a.jpg" });
    expect(listAll(dir)).toEqual(["images/a.jpg"]);
    expect([...(await storage.get("images/a.jpg"))!]).toEqual([1, 2, 3]);
  });

  it("a write that fails midway (disk full) leaves no file, not even a 0-byte or partial one", async () => {
    const storage = createLocalStorage(dir, "/uploads", { fs: fullDiskMidway });
    await expect(storage.put("images/b.jpg", new Uint8Array(1000).fill(7), "image/jpeg")).rejects.toThrow(/ENOSPC/);
    expect(listAll(dir)).toEqual([]);
    expect(await storage.get("images/b.jpg")).toBeNull();
  });

  it("a failed overwrite keeps the previous file whole", async () => {
    await createLocalStorage(dir).put("images/c.jpg", new Uint8Array([9, 9, 9]), "image/jpeg");
    await expect(createLocalStorage(dir, "/uploads", { fs: fullDiskMidway }).put("images/c.jpg", new Uint8Array(100), "image/jpeg")).rejects.toThrow();
    expect([...fs.readFileSync(path.join(dir, "images/c.jpg"))]).toEqual([9, 9, 9]);
    expect(listAll(dir)).toEqual(["images/c.jpg"]);
  });

  it("a failed rename removes the temporary file", async () => {
    const storage = createLocalStorage(dir, "/uploads", { fs: { ...fsp, rename: async () => Promise.reject(Object.assign(new Error("EXDEV"), { code: "EXDEV" })) } });
    await expect(storage.put("d.jpg", new Uint8Array([1]), "image/jpeg")).rejects.toThrow(/EXDEV/);
    expect(listAll(dir)).toEqual([]);
  });
});

describe("health", () => {
  it("is ok when the folder takes a real write, and leaves no probe file behind", async () => {
    const h = await createLocalStorage(dir).health();
    expect(h).toMatchObject({ ok: true });
    expect(listAll(dir)).toEqual([]);
  });

  it("fails with the reason when writes fail although the folder exists and looks writable (disk full)", async () => {
    const h = await createLocalStorage(dir, "/uploads", { fs: fullDiskMidway }).health();
    expect(h.ok).toBe(false);
    expect(h.detail).toMatch(/cannot write to the uploads folder: ENOSPC/);
    expect(listAll(dir)).toEqual([]);
  });

  it("fails when the folder cannot be created (its path runs through a regular file)", async () => {
    fs.writeFileSync(path.join(dir, "not-a-folder"), "x");
    const h = await createLocalStorage(path.join(dir, "not-a-folder", "uploads")).health();
    expect(h.ok).toBe(false);
    expect(h.detail).toMatch(/ENOTDIR|EEXIST/);
  });

  it.skipIf(process.getuid?.() === 0)("fails when the folder is read-only (chmod; root writes anyway, so skipped as root)", async () => {
    fs.chmodSync(dir, 0o555);
    const h = await createLocalStorage(dir).health();
    expect(h.ok).toBe(false);
    expect(h.detail).toMatch(/EACCES|EPERM/);
  });

  it("fails after the timeout when the disk does not answer", async () => {
    const hanging: LocalStorageFs = { ...fsp, writeFile: (() => new Promise(() => undefined)) as LocalStorageFs["writeFile"] };
    const h = await createLocalStorage(dir, "/uploads", { fs: hanging, probeTimeoutMs: 50 }).health();
    expect(h).toEqual({ ok: false, detail: "the uploads folder did not answer a test write within 50 ms" });
  });

  it(`reuses its answer for ${STORAGE_PROBE_CACHE_MS / 1000} s, then probes again`, async () => {
    let writes = 0;
    let clock = 1_000_000;
    const counting: LocalStorageFs = { ...fsp, writeFile: ((...args: Parameters<typeof fsp.writeFile>) => (writes++, fsp.writeFile(...args))) as LocalStorageFs["writeFile"] };
    const storage = createLocalStorage(dir, "/uploads", { fs: counting, now: () => clock });
    await Promise.all([storage.health(), storage.health()]);
    await storage.health();
    expect(writes).toBe(1);
    clock += STORAGE_PROBE_CACHE_MS + 1;
    await storage.health();
    expect(writes).toBe(2);
  });
});
