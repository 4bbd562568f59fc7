/**
 * The Catalogue sync admin screen (app/routes/app.sync.tsx) through its loader and action in local
 * mode: the permission guard, the store rows (products, last synced, latest job), starting a sync
 * and a sync of every store, a failed job with its error and Retry (also server-rendered).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { navigationFor } from "../../app/services/staff.server";
import type { ProductInput } from "../../app/providers/commerce/port";
import { renderRoute, staffRequest, thrownResponse as thrown } from "../helpers/route";

type RouteModule = typeof import("../../app/routes/app.sync");
let route: RouteModule;
let app: TestApp;
let syncer: { token: string };
let editor: { token: string };
let vendorUser: { token: string };
let northwind: string;
let kestrel: string;

const item = (title: string, storeId: string, vendor: string): ProductInput => ({
  title,
  vendor,
  productType: "Shirts",
  descriptionHtml: "<p>x</p>",
  status: "active",
  tags: [],
  targetGender: "both",
  options: [{ name: "Size", values: ["S"] }],
  variants: [{ price: "20.00", inventoryQuantity: 2, selectedOptions: [{ name: "Size", value: "S" }] }],
  images: [],
  storeId,
});

const request = (token: string | null, init: RequestInit = {}) => staffRequest("/app/sync", token, init);

async function load(token: string | null) {
  const data = await route.loader({ request: request(token), params: {}, context: {} });
  if (!data.stores) throw new Error("no stores in the answer");
  return { ...data, stores: data.stores };
}

async function act(token: string | null, fields: Record<string, string>) {
  const body = new URLSearchParams(fields);
  return route.action({ request: request(token, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }), params: {}, context: {} });
}


const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app.sync");
  syncer = await app.createUser({ role: "ADMIN", permissions: ["catalog.sync"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Northwind", handle: "northwind" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  northwind = (await app.database.db.store.create({ data: { name: "Northwind Atelier", handle: "northwind-atelier", vendor_id: vendor.id } })).id;
  kestrel = (await app.database.db.store.create({ data: { name: "Kestrel Outdoor", handle: "kestrel-outdoor", vendor_id: vendor.id } })).id;
  for (const t of ["Alpha", "Bravo", "Charlie"]) await app.ctx.commerce.createProduct(item(t, northwind, "Northwind Atelier"));
  await app.ctx.commerce.createProduct(item("Delta", kestrel, "Kestrel Outdoor"));
});
afterAll(() => app?.close());

describe("guard", () => {
  it("an admin without catalog.sync gets the 403 page, for the loader and the action", async () => {
    const res = await thrown(load(editor.token));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
    expect((await thrown(act(editor.token, { intent: "sync", storeId: northwind }))).status).toBe(403);
    expect((await thrown(load(vendorUser.token))).status).toBe(403);
    expect(await app.database.db.job.count({ where: { queue: "catalog.sync" } })).toBe(0);
  });

  it("signed out, the page sends to the login", async () => {
    const res = await thrown(load(null));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fsync");
  });

  it("the navigation shows Catalogue sync only with the permission", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.sync"] }).map((n) => n.url)).toContain("/app/sync");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/sync");
  });
});

describe("sync", () => {
  it("lists the stores with vendor and product counts, never synced", async () => {
    const data = await load(syncer.token);
    expect(data.stores.map((s) => [s.name, s.vendorName, s.productCount, s.lastSyncedAt, s.latestJob])).toEqual([
      ["Kestrel Outdoor", "Northwind", 1, null, null],
      ["Northwind Atelier", "Northwind", 3, null, null],
    ]);
  });

  it("starts a sync of one store; the loader shows it queued, then its result and last synced", async () => {
    const r = await act(syncer.token, { intent: "sync", storeId: northwind });
    expect(r).toMatchObject({ ok: true, jobIds: [expect.any(String)] });
    const queued = (await load(syncer.token)).stores.find((s) => s.id === northwind)!;
    expect(queued.latestJob).toMatchObject({ id: r.ok ? r.jobIds[0] : "", status: "queued", progress: 0, result: null });
    expect((await load(syncer.token)).stores.find((s) => s.id === kestrel)!.latestJob).toBeNull();

    expect(await drain()).toBe(1);
    const done = (await load(syncer.token)).stores.find((s) => s.id === northwind)!;
    expect(done.latestJob).toMatchObject({ status: "completed", progress: 100, result: { created: 0, updated: 0, unchanged: 3, removed: 0, total: 3 }, error: null });
    expect(done.lastSyncedAt).toEqual(expect.any(String));
    expect(Date.now() - new Date(done.lastSyncedAt!).getTime()).toBeLessThan(60_000);
  });

  it("refuses an unknown store with the server's message", async () => {
    expect(await act(syncer.token, { intent: "sync", storeId: "nope" })).toEqual({ ok: false, error: "Store not found" });
    expect(await act(syncer.token, { intent: "sync", storeId: "" })).toEqual({ ok: false, error: "Choose a store to sync" });
    expect(await act(syncer.token, { intent: "bogus" })).toEqual({ ok: false, error: "Unknown action" });
  });

  it("sync all stores starts one job per store", async () => {
    const r = await act(syncer.token, { intent: "sync-all" });
    expect(r).toMatchObject({ ok: true, message: "Syncing 2 stores." });
    expect(r.ok && r.jobIds.length).toBe(2);
    expect(await drain()).toBe(2);
    const data = await load(syncer.token);
    expect(data.stores.map((s) => s.latestJob?.status)).toEqual(["completed", "completed"]);
    expect(data.stores.find((s) => s.id === kestrel)!.latestJob!.result).toMatchObject({ unchanged: 1 });
  });
});

describe("a failed sync", () => {
  it("shows the job's error with a Retry, and Retry starts a new job", async () => {
    await app.database.db.job.create({
      data: { queue: "catalog.sync", payload: { storeId: kestrel }, status: "failed", attempts: 3, max_attempts: 3, error: "Throttled by the store", completed_at: new Date() },
    });
    const data = await load(syncer.token);
    const row = data.stores.find((s) => s.id === kestrel)!;
    expect(row.latestJob).toMatchObject({ status: "failed", error: "Throttled by the store", result: null, attempts: 3, maxAttempts: 3 });

    // Server render of the page with this data: the critical banner with the error and Retry.
    const html = await renderRoute({ id: "routes/app.sync", path: "/app/sync", url: "/app/sync", data, Component: route.default });
    expect(html).toContain("The sync of Kestrel Outdoor failed");
    expect(html).toContain("Throttled by the store");
    expect(html).toContain('aria-label="Retry Kestrel Outdoor"');
    expect(html).toContain('aria-label="Sync Northwind Atelier"');
    expect(html).toContain("3 unchanged"); // Northwind's last result
    expect(html).toContain("Products per store"); // the chart
    expect(html).toContain("Sync all stores");

    const retry = await act(syncer.token, { intent: "sync", storeId: kestrel });
    expect(retry.ok).toBe(true);
    expect((await load(syncer.token)).stores.find((s) => s.id === kestrel)!.latestJob).toMatchObject({ status: "queued", error: null });
    await drain();
    expect((await load(syncer.token)).stores.find((s) => s.id === kestrel)!.latestJob).toMatchObject({ status: "completed" });
  });

  it("a failing poll answers without stores (the page keeps what it shows); the page's own load fails loudly", async () => {
    const db = app.ctx.db;
    const broken = new Proxy(db, {
      get: (t, p) => (p === "store" ? { ...t.store, findMany: async () => Promise.reject(new Error("connection lost")) } : Reflect.get(t, p)),
    });
    setAppContext({ ...app.ctx, db: broken });
    try {
      const polled = await route.loader({ request: new Request("http://localhost/app/sync?poll=1", { headers: { authorization: `Bearer ${syncer.token}` } }), params: {}, context: {} });
      expect(polled).toEqual({ now: expect.any(String), stores: null });
      await expect(route.loader({ request: request(syncer.token), params: {}, context: {} })).rejects.toThrow("connection lost");
      // The guard still runs first.
      expect((await thrown(route.loader({ request: new Request("http://localhost/app/sync?poll=1", { headers: { authorization: `Bearer ${editor.token}` } }), params: {}, context: {} }))).status).toBe(403);
    } finally {
      setAppContext(app.ctx);
    }
  });

  it("relative times", () => {
    const now = "2025-06-01T12:00:00.000Z";
    expect(route.relativeTime(null, now)).toBe("Never");
    expect(route.relativeTime("2025-06-01T11:59:50.000Z", now)).toBe("just now");
    expect(route.relativeTime("2025-06-01T11:55:00.000Z", now)).toBe("5 minutes ago");
    expect(route.relativeTime("2025-06-01T09:00:00.000Z", now)).toBe("3 hours ago");
    expect(route.relativeTime("2025-05-31T12:00:00.000Z", now)).toBe("yesterday");
  });
});
