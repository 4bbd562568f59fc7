/**
 * The Privacy requests page (app/routes/app.privacy.tsx) and its download
 * (app/routes/app_.privacy_.$id.export.tsx) in local mode: privacy.manage admins only, the list
 * with status and expiry, the JSON file never cached, an expired export gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { recordCustomerDataRequest } from "../../app/services/privacy-exports.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { refusal, renderRoute, staffRequest } from "../helpers/route";

type PageRoute = typeof import("../../app/routes/app.privacy");
type ExportRoute = typeof import("../../app/routes/app_.privacy_.$id.export");
let page: PageRoute;
let download: ExportRoute;
let app: TestApp;
let admin: { token: string };
let requestId: string;

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  page = await import("../../app/routes/app.privacy");
  download = await import("../../app/routes/app_.privacy_.$id.export");
  admin = await app.createUser({ role: "ADMIN", permissions: ["privacy.manage"] });
  await app.database.db.user.create({ data: { email: "asker@shop.test", shopify_customer_id: "321", first_name: "Asa" } });
  const row = await recordCustomerDataRequest(app.ctx, "shop.myshopify.com", { customer: { id: 321, email: "asker@shop.test" }, data_request: { id: 77 } });
  requestId = row.id;
});
afterAll(() => app?.close());

const loadPage = (token: string | null) => page.loader({ request: staffRequest("/app/privacy", token), params: {}, context: {} });
const loadExport = (token: string | null, id = requestId) => download.loader({ request: staffRequest(`/app/privacy/${id}/export`, token), params: { id }, context: {} });

describe("privacy requests page", () => {
  it("lists the requests with their status and expiry, and links the download", async () => {
    const data = await loadPage(admin.token);
    expect(data.items).toEqual([expect.objectContaining({ id: requestId, customer: "asker@shop.test", shopifyRequestId: "77", status: "ready", usersFound: 1, downloadedAt: null })]);
    const html = await renderRoute({ id: "routes/app.privacy", path: "/app/privacy", url: "/app/privacy", data, Component: page.default });
    expect(html).toContain("Privacy requests");
    expect(html).toContain("asker@shop.test");
    expect(html).toContain("Download JSON");
    expect(html).toContain(data.items[0].expiresAt.slice(0, 10));
    expect(navigationFor({ role: "ADMIN", permissions: ["privacy.manage"] }).map((n) => n.url)).toContain("/app/privacy");
    expect(navigationFor({ role: "ADMIN", permissions: ["admins.manage", "apikeys.manage"] }).map((n) => n.url)).not.toContain("/app/privacy");
  });

  it("downloads the export as a JSON file, never cached", async () => {
    const res = (await loadExport(admin.token)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="data-request-77.json"');
    expect((await res.json()).users[0]).toMatchObject({ email: "asker@shop.test", first_name: "Asa" });
  });

  it("refuses admins without privacy.manage, vendors and shoppers; signed-out callers go to the login", async () => {
    const vendor = await app.database.db.vendor.create({ data: { name: "P Vendor", handle: "p-vendor" } });
    const others = [
      (await app.createUser({ role: "ADMIN", permissions: ["admins.manage", "apikeys.manage", "orders.manage"] })).token,
      (await app.createUser({ role: "VENDOR", vendorId: vendor.id })).token,
    ];
    for (const token of others) {
      expect(await refusal(loadPage(token))).toBe(403);
      expect(await refusal(loadExport(token))).toBe(403);
    }
    const shopper = (await app.createUser()).token;
    expect(await refusal(loadExport(shopper))).toBe("login");
    expect(await refusal(loadPage(null))).toBe("login");
    expect(await refusal(loadExport(null))).toBe("login");
  });

  it("an expired export is gone: 404 and listed as expired", async () => {
    await app.database.db.privacyDataRequest.update({ where: { id: requestId }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect(await refusal(loadExport(admin.token))).toBe(404);
    expect((await loadPage(admin.token)).items[0]).toMatchObject({ id: requestId, status: "expired" });
    expect(await refusal(loadExport(admin.token, "00000000-0000-0000-0000-000000000000"))).toBe(404);
  });
});
