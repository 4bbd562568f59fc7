/**
 * Customers' data exports (customers/data_request): written to private storage, never under the
 * public uploads folder (checked through the storage adapter, the folder itself and Express's
 * static route as server.ts mounts it); listed and downloaded (no-store) only by admins with
 * privacy.manage; deleted when they expire (job sweep, and on access); exports an earlier version
 * left in the public folder moved out; redact webhooks delete them.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { resetConfigCache } from "../../app/config.server";
import { uploadsDir } from "../../app/providers/storage.server";
import { privateStorageDir } from "../../app/providers/private-storage.server";
import { moveLegacyPublicExports, PRIVACY_EXPORT_TTL_DAYS, PRIVACY_SWEEP_QUEUE } from "../../app/services/privacy-exports.server";
import { startWorker } from "../../app/jobs/worker.server";
import { PermissionNames } from "../../app/contract/permissions";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { shopifyWebhook, SHOPIFY_TEST_ENV as env, SHOPIFY_TEST_SHOP as SHOP } from "../helpers/shopify-webhook";

type Route = { action: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let app: TestApp;
let privacy: Route;
let admin: { id: string; token: string };

beforeAll(async () => {
  Object.assign(process.env, env);
  resetConfigCache();
  app = await createTestApp({ env });
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  privacy = (await import("../../app/routes/webhooks.privacy")) as unknown as Route;
  admin = await app.createUser({ role: "ADMIN", permissions: ["privacy.manage"] });
});
afterAll(() => app?.close());

/** Not callRouteAction: a Response the action threw fails the test. */
const deliver = (topic: string, payload: object, webhookId?: string) => privacy.action({ request: shopifyWebhook("/webhooks/privacy", topic, payload, { id: webhookId }), params: {}, context: {} });

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

/** GETs paths through Express's static route for /uploads, mounted as server.ts mounts it. */
async function throughUploadsRoute(paths: string[]): Promise<number[]> {
  const server = express()
    .use("/uploads", express.static(uploadsDir(app.ctx.config), { index: false }))
    .listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return await Promise.all(paths.map(async (p) => (await fetch(`${base}${p}`)).status));
  } finally {
    await new Promise((r) => server.close(r));
  }
}

async function dataRequestFor(shopifyRequestId: string) {
  return app.database.db.privacyDataRequest.findFirstOrThrow({ where: { shopify_request_id: shopifyRequestId } });
}

describe("customers/data_request", () => {
  it("writes the export privately: nothing under /uploads, not by the old name nor through the static route", async () => {
    await app.database.db.user.create({ data: { email: "export@shop.test", shopify_customer_id: "888", auth_provider: "shopify", first_name: "Ada" } });
    const res = await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 888, email: "export@shop.test" }, data_request: { id: 4242 } });
    expect(res.status).toBe(200);

    const row = await dataRequestFor("4242");
    expect(row).toMatchObject({ shop: SHOP, customer_id: "888", customer_email: "export@shop.test", status: "ready", users_found: 1 });
    // Not named after Shopify's sequential id.
    expect(row.storage_key).toMatch(/^data-requests\/[0-9a-f-]{36}\.json$/);
    const days = (row.expires_at.getTime() - row.created_at.getTime()) / 86_400_000;
    expect(days).toBe(PRIVACY_EXPORT_TTL_DAYS);

    // Nothing in the public storage or its folder; the file is in the private folder, outside it.
    expect(await app.ctx.storage.get("privacy/data-requests/4242.json")).toBeNull();
    expect(await app.ctx.storage.get(row.storage_key!)).toBeNull();
    expect(await app.ctx.storage.get(`privacy/${row.storage_key!}`)).toBeNull();
    expect(filesUnder(uploadsDir(app.ctx.config))).toEqual([]);
    const privateDir = privateStorageDir(app.ctx.config);
    expect(path.relative(uploadsDir(app.ctx.config), privateDir).startsWith("..")).toBe(true);
    expect(filesUnder(privateDir)).toEqual([row.storage_key]);
    const exported = JSON.parse(new TextDecoder().decode((await app.ctx.privateStorage.get(row.storage_key!))!));
    expect(exported.users[0]).toMatchObject({ email: "export@shop.test", first_name: "Ada" });

    const statuses = await throughUploadsRoute([
      "/uploads/privacy/data-requests/4242.json",
      `/uploads/${row.storage_key}`,
      `/uploads/../private/${row.storage_key}`,
      `/uploads/%2e%2e/private/${row.storage_key}`,
    ]);
    expect(statuses).toEqual([404, 404, 404, 404]);
  });

  it("an admin with privacy.manage lists the requests and downloads the export as JSON, never cached", async () => {
    const row = await dataRequestFor("4242");
    const list = await app.api("GET", "/admin/privacy/data-requests", { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: row.id, shopify_request_id: "4242", customer_email: "export@shop.test", status: "ready", users_found: 1, downloaded_at: null }),
    ]);

    const file = await app.api("GET", `/admin/privacy/data-requests/${row.id}/export`, { token: admin.token });
    expect(file.status).toBe(200);
    expect(file.headers.get("cache-control")).toBe("no-store");
    expect(file.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="data-request-4242.json"');
    expect(file.body.users[0]).toMatchObject({ email: "export@shop.test", first_name: "Ada" });
    expect(file.body.dataRequestId).toBe(4242);
    expect((await dataRequestFor("4242")).downloaded_at).not.toBeNull();

    const missing = await app.api("GET", "/admin/privacy/data-requests/00000000-0000-0000-0000-000000000000/export", { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Data request not found");
  });

  it("refuses shoppers, vendors, admins without privacy.manage and anonymous callers", async () => {
    const row = await dataRequestFor("4242");
    const vendor = await app.database.db.vendor.create({ data: { name: "V", handle: "v-privacy" } });
    const callers = [
      [(await app.createUser()).token, 403],
      [(await app.createUser({ role: "VENDOR", vendorId: vendor.id })).token, 403],
      [(await app.createUser({ role: "ADMIN", permissions: ["admins.manage", "apikeys.manage", "orders.manage"] })).token, 403],
      [null, 401],
    ] as const;
    for (const [token, status] of callers) {
      const list = await app.api("GET", "/admin/privacy/data-requests", { token });
      expect(list.status).toBe(status);
      const file = await app.api("GET", `/admin/privacy/data-requests/${row.id}/export`, { token });
      expect(file.status).toBe(status);
      expect(JSON.stringify(file.body)).not.toContain("export@shop.test");
    }
  });

  it("is deleted when it expires: by the sweep job, and answers 404 afterwards", async () => {
    const row = await dataRequestFor("4242");
    // The sweep is scheduled for the export's expiry.
    const job = await app.database.db.job.findFirstOrThrow({ where: { queue: PRIVACY_SWEEP_QUEUE, status: "queued" } });
    expect(Math.abs(job.run_at.getTime() - row.expires_at.getTime())).toBeLessThan(1000);

    // Time passes: the export and its job are due.
    const past = new Date(Date.now() - 1000);
    await app.database.db.privacyDataRequest.update({ where: { id: row.id }, data: { expires_at: past } });
    await app.database.db.job.update({ where: { id: job.id }, data: { run_at: past } });
    await startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

    expect(await app.ctx.privateStorage.get(row.storage_key!)).toBeNull();
    expect(filesUnder(privateStorageDir(app.ctx.config))).toEqual([]);
    const after = await dataRequestFor("4242");
    expect(after).toMatchObject({ status: "expired", storage_key: null });
    const file = await app.api("GET", `/admin/privacy/data-requests/${row.id}/export`, { token: admin.token });
    expect(file.status).toBe(404);
    expect(file.body.error.message).toMatch(/^This data export expired on \d{4}-\d{2}-\d{2} and was deleted$/);
    const list = await app.api("GET", "/admin/privacy/data-requests", { token: admin.token, query: { status: "expired" } });
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([row.id]);
  });

  it("an export past its expiry is refused and deleted on access even before the sweep runs", async () => {
    const res = await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 889 }, data_request: { id: 4243 } });
    expect(res.status).toBe(200);
    const row = await dataRequestFor("4243");
    await app.database.db.privacyDataRequest.update({ where: { id: row.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect((await app.api("GET", `/admin/privacy/data-requests/${row.id}/export`, { token: admin.token })).status).toBe(404);
    expect(await app.ctx.privateStorage.get(row.storage_key!)).toBeNull();
    expect((await dataRequestFor("4243")).status).toBe("expired");
  });

  it("a delivery that failed to write its export is done by Shopify's retry, not skipped as a repeat", async () => {
    const put = app.ctx.privateStorage.put;
    app.ctx.privateStorage.put = async () => {
      throw new Error("ENOSPC: no space left on device");
    };
    const id = crypto.randomUUID();
    try {
      expect((await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 890 }, data_request: { id: 4244 } }, id)).status).toBe(500);
    } finally {
      app.ctx.privateStorage.put = put;
    }
    expect(await app.database.db.privacyDataRequest.count({ where: { shopify_request_id: "4244" } })).toBe(0);
    expect((await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 890 }, data_request: { id: 4244 } }, id)).status).toBe(200);
    expect((await dataRequestFor("4244")).status).toBe("ready");
    // A true repeat after that is acknowledged without a second export.
    expect((await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 890 }, data_request: { id: 4244 } }, id)).status).toBe(200);
    expect(await app.database.db.privacyDataRequest.count({ where: { shopify_request_id: "4244" } })).toBe(1);
  });

  it("customers/redact and shop/redact delete the exports about the customer or the shop", async () => {
    await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 900, email: "gone@shop.test" }, data_request: { id: 5000 } });
    await deliver("customers/data_request", { shop_domain: SHOP, customer: { id: 901, email: "other@shop.test" }, data_request: { id: 5001 } });
    const gone = await dataRequestFor("5000");
    const other = await dataRequestFor("5001");
    expect((await deliver("customers/redact", { shop_domain: SHOP, customer: { id: 900, email: "gone@shop.test" } })).status).toBe(200);
    expect(await app.database.db.privacyDataRequest.count({ where: { id: gone.id } })).toBe(0);
    expect(await app.ctx.privateStorage.get(gone.storage_key!)).toBeNull();
    expect(await app.ctx.privateStorage.get(other.storage_key!)).not.toBeNull();

    expect((await deliver("shop/redact", { shop_domain: SHOP })).status).toBe(200);
    expect(await app.database.db.privacyDataRequest.count({ where: { shop: SHOP } })).toBe(0);
    expect(await app.ctx.privateStorage.get(other.storage_key!)).toBeNull();
  });
});

describe("an install upgraded from the public exports", () => {
  it("admins who held every permission get privacy.manage from the migration; others do not", async () => {
    const sql = fs.readFileSync(path.join(__dirname, "../../prisma/migrations/20261127110000_staff_invitations_privacy_exports/migration.sql"), "utf8");
    const update = sql.slice(sql.indexOf('UPDATE "users"'));
    const before = PermissionNames.filter((p) => p !== "privacy.manage");
    const full = await app.createUser({ role: "ADMIN", permissions: before });
    const partial = await app.createUser({ role: "ADMIN", permissions: before.filter((p) => p !== "apikeys.manage") });
    await app.database.db.$executeRawUnsafe(update);
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: full.id } })).permissions).toEqual([...before, "privacy.manage"]);
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: partial.id } })).permissions).not.toContain("privacy.manage");
    // Running it again adds nothing twice.
    await app.database.db.$executeRawUnsafe(update);
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: full.id } })).permissions.filter((p) => p === "privacy.manage")).toHaveLength(1);
  });

  it("moves exports left under uploads/privacy into private storage and deletes the public copies", async () => {
    const legacyDir = path.join(uploadsDir(app.ctx.config), "privacy", "data-requests");
    fs.mkdirSync(legacyDir, { recursive: true });
    fs.writeFileSync(path.join(legacyDir, "31337.json"), JSON.stringify({ requestedAt: new Date().toISOString(), customer: { id: 5 }, users: [{ email: "old@shop.test" }] }));
    const stale = path.join(legacyDir, "100.json");
    fs.writeFileSync(stale, "{}");
    const longAgo = new Date(Date.now() - (PRIVACY_EXPORT_TTL_DAYS + 1) * 86_400_000);
    fs.utimesSync(stale, longAgo, longAgo);
    expect(await throughUploadsRoute(["/uploads/privacy/data-requests/31337.json"])).toEqual([200]);

    const r = await moveLegacyPublicExports({ config: app.ctx.config, db: app.database.db, privateStorage: app.ctx.privateStorage, queue: app.ctx.queue });
    expect(r).toEqual({ moved: 1, deleted: 1 });
    expect(fs.existsSync(path.join(uploadsDir(app.ctx.config), "privacy"))).toBe(false);
    expect(await throughUploadsRoute(["/uploads/privacy/data-requests/31337.json", "/uploads/privacy/data-requests/100.json"])).toEqual([404, 404]);

    const row = await dataRequestFor("31337");
    expect(row.status).toBe("ready");
    const file = await app.api("GET", `/admin/privacy/data-requests/${row.id}/export`, { token: admin.token });
    expect(file.status).toBe(200);
    expect(file.body.users[0].email).toBe("old@shop.test");
    expect(await app.database.db.privacyDataRequest.count({ where: { shopify_request_id: "100" } })).toBe(0);

    // Nothing left to move on the next start.
    expect(await moveLegacyPublicExports({ config: app.ctx.config, db: app.database.db, privateStorage: app.ctx.privateStorage })).toEqual({ moved: 0, deleted: 0 });
  });
});
