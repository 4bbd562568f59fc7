/**
 * GET /api/health reports storage that cannot take a write (disk full, a folder that cannot be
 * created) as failing, with the reason, and the overall status as degraded.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { createLocalStorage, uploadsDir, type LocalStorageFs } from "../../app/providers/storage.server";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

it("storage is ok on a writable uploads folder", async () => {
  const res = await app.api("GET", "/health");
  expect(res.status).toBe(200);
  expect(res.body.storage).toMatchObject({ ok: true });
});

it("a disk that refuses writes (the folder still looks writable) makes storage fail and the status degraded", async () => {
  const original = app.ctx.storage;
  const full: LocalStorageFs = { ...fsp, writeFile: (async () => Promise.reject(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }))) as LocalStorageFs["writeFile"] };
  app.ctx.storage = createLocalStorage(uploadsDir(app.ctx.config), "/uploads", { fs: full });
  try {
    const res = await app.api("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("degraded");
    expect(res.body.storage).toEqual({ ok: false, detail: expect.stringMatching(/cannot write to the uploads folder: ENOSPC/) });
  } finally {
    app.ctx.storage = original;
  }
});

it("an uploads folder that cannot be created (a regular file is in its way) makes storage fail", async () => {
  const original = app.ctx.storage;
  const blocker = path.join(app.dataDir, "blocker");
  fs.writeFileSync(blocker, "not a folder");
  app.ctx.storage = createLocalStorage(path.join(blocker, "uploads"));
  try {
    const res = await app.api("GET", "/health");
    expect(res.body.status).toBe("degraded");
    expect(res.body.storage.ok).toBe(false);
  } finally {
    app.ctx.storage = original;
  }
});
