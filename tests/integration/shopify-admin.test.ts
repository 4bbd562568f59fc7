/**
 * The Shopify side of the foundation, offline: the embedded admin (`authenticate.admin` with a
 * locally signed session token and a stored online session → staff mapped to an app user) and the
 * webhooks (HMAC verified, idempotent by webhook id, privacy topics doing their job).
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestType, setUpValidRequest, setUpValidSession } from "@shopify/shopify-api/test-helpers";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { resetConfigCache } from "../../app/config.server";
import { hashPassword } from "../../app/services/passwords.server";
import { issueToken, resolveToken } from "../../app/services/tokens.server";
import {
  callRouteAction,
  shopifyWebhook,
  SHOPIFY_TEST_API_KEY as API_KEY,
  SHOPIFY_TEST_APP_URL as APP_URL,
  SHOPIFY_TEST_ENV as env,
  SHOPIFY_TEST_SECRET as SECRET,
  SHOPIFY_TEST_SHOP as SHOP,
} from "../helpers/shopify-webhook";

const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

let app: TestApp;
type Route = { loader?: (a: { request: Request; params: object; context: object }) => Promise<unknown>; action?: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let appLayout: Route;
let privacy: Route;
let uninstalled: Route;
let shopify: typeof import("../../app/shopify.server");

beforeAll(async () => {
  Object.assign(process.env, env);
  resetConfigCache();
  app = await createTestApp({ env });
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  shopify = await import("../../app/shopify.server");
  appLayout = (await import("../../app/routes/app")) as Route;
  privacy = (await import("../../app/routes/webhooks.privacy")) as Route;
  uninstalled = (await import("../../app/routes/webhooks.app.uninstalled")) as Route;
});
afterAll(() => app?.close());

async function storeStaffSession(user: { id?: number; email: string; account_owner: boolean }) {
  const session = setUpValidSession({
    shop: SHOP,
    isOnline: true,
    expires: new Date(Date.now() + 86_400_000),
    onlineAccessInfo: { associated_user: { account_owner: user.account_owner, email: user.email, first_name: "Sam", last_name: "Staff" } },
  });
  await shopify.sessionStorage.storeSession(session);
  await shopify.sessionStorage.storeSession(setUpValidSession({ shop: SHOP, expires: new Date(Date.now() + 86_400_000) }));
}

async function embeddedRequest(path = "/app") {
  return setUpValidRequest(
    { type: RequestType.Admin, store: "test-shop", apiKey: API_KEY, apiSecretKey: SECRET },
    new Request(`${APP_URL}${path}`, { headers: { "user-agent": BROWSER_UA } }),
  );
}

async function callLoader(route: Route, request: Request): Promise<{ data?: unknown; thrown?: Response }> {
  try {
    return { data: await route.loader!({ request, params: {}, context: {} }) };
  } catch (e) {
    if (e instanceof Response) return { thrown: e };
    throw e;
  }
}

describe("embedded admin: authenticate.admin maps the staff member to an app user", () => {
  it("the store owner becomes an admin with every permission on first visit", async () => {
    await storeStaffSession({ email: "owner@shop.test", account_owner: true });
    const r = await callLoader(appLayout, await embeddedRequest());
    expect(r.thrown).toBeUndefined();
    const data = r.data as { embedded: boolean; user: { role: string; email: string }; nav: { url: string }[] };
    expect(data.embedded).toBe(true);
    expect(data.user).toMatchObject({ role: "ADMIN", email: "owner@shop.test" });
    expect(data.nav.map((n) => n.url)).toContain("/app/admins");
    const user = await app.database.db.user.findFirstOrThrow({ where: { email: "owner@shop.test" } });
    expect(user.shopify_staff_id).toBe("12345");
    expect(user.permissions).toContain("admins.manage");
  });

  it("a staff member an admin registered by email is linked to that user (vendor)", async () => {
    await app.database.db.user.deleteMany({});
    const vendor = await app.database.db.vendor.create({ data: { name: "V", handle: "v" } });
    await app.database.db.user.create({ data: { email: "staff@shop.test", role: "VENDOR", vendor_id: vendor.id, auth_provider: "password" } });
    await storeStaffSession({ email: "staff@shop.test", account_owner: false });
    const r = await callLoader(appLayout, await embeddedRequest());
    const data = r.data as { user: { role: string }; nav: { url: string }[] };
    expect(data.user.role).toBe("VENDOR");
    expect(data.nav.map((n) => n.url)).toEqual(["/app/vendor", "/app/vendor/products", "/app/vendor/stores", "/app/vendor/payouts", "/app/vendor/ads", "/app/vendor/socials"]);
  });

  it("a staff member with a pending invitation is refused until the invitee accepts it; then mapped by email", async () => {
    await app.database.db.user.deleteMany({});
    const manager = await app.database.db.user.create({ data: { email: "boss@shop.test", role: "ADMIN", permissions: ["admins.manage"], auth_provider: "password" } });
    // The invitee already has a shopper account.
    const existing = await app.database.db.user.create({ data: { email: "invitee@shop.test", auth_provider: "password", password_hash: await hashPassword("invitees-own-password") } });
    const { inviteStaff, acceptInvitation } = await import("../../app/services/staff-invitations.server");
    const { acceptUrl } = await inviteStaff({ db: app.database.db }, manager, { email: "invitee@shop.test", first_name: "In", last_name: "Vitee", role: "ADMIN", send_email: false });
    const token = new URL(acceptUrl!, APP_URL).searchParams.get("token")!;

    await storeStaffSession({ email: "invitee@shop.test", account_owner: false });
    const pending = await callLoader(appLayout, await embeddedRequest());
    expect(pending.thrown?.status).toBe(302);
    expect(pending.thrown?.headers.get("location")).toBe("/app/no-access");
    expect(await app.database.db.user.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({ role: "SHOPPER", shopify_staff_id: null });

    await expect(acceptInvitation({ db: app.database.db }, null, { token, password: "not-the-password" })).rejects.toThrow("Wrong password for invitee@shop.test");
    await acceptInvitation({ db: app.database.db }, null, { token, password: "invitees-own-password" });
    const mapped = await callLoader(appLayout, await embeddedRequest());
    expect(mapped.thrown).toBeUndefined();
    expect((mapped.data as { user: { role: string; email: string } }).user).toMatchObject({ role: "ADMIN", email: "invitee@shop.test" });
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: existing.id } })).shopify_staff_id).toBe("12345");
  });

  it("the store owner's email on a shopper account someone registered: that account's password and sessions end before it becomes the owner's admin", async () => {
    await app.database.db.user.deleteMany({});
    const squatter = await app.database.db.user.create({ data: { email: "owner@shop.test", auth_provider: "password", password_hash: await hashPassword("squatters-password") } });
    const token = await issueToken(app.database.db, squatter.id);
    await storeStaffSession({ email: "owner@shop.test", account_owner: true });
    const r = await callLoader(appLayout, await embeddedRequest());
    expect((r.data as { user: { role: string } }).user.role).toBe("ADMIN");
    const owner = await app.database.db.user.findUniqueOrThrow({ where: { id: squatter.id } });
    expect(owner).toMatchObject({ role: "ADMIN", password_hash: null, auth_provider: "shopify" });
    expect(await app.database.db.authToken.count({ where: { user_id: squatter.id } })).toBe(0);
    expect(await resolveToken(app.database.db, token)).toBeNull();
  });

  it("an unknown staff member who is not the owner is refused", async () => {
    await app.database.db.user.deleteMany({});
    await storeStaffSession({ email: "stranger@shop.test", account_owner: false });
    const r = await callLoader(appLayout, await embeddedRequest());
    expect(r.thrown?.status).toBe(302);
    expect(r.thrown?.headers.get("location")).toBe("/app/no-access");
    expect(await app.database.db.user.count()).toBe(0);
  });

  it("a request without a session token is not let in", async () => {
    const r = await callLoader(appLayout, new Request(`${APP_URL}/app`, { headers: { "user-agent": BROWSER_UA } }));
    expect(r.data).toBeUndefined();
    expect(r.thrown).toBeInstanceOf(Response);
    expect(r.thrown!.status).not.toBe(200);
  });
});

function webhook(topic: string, payload: object, opts: { id?: string; secret?: string } = {}) {
  return shopifyWebhook("/webhooks/privacy", topic, payload, { ...opts, headers: { "user-agent": BROWSER_UA } });
}

describe("webhooks", () => {
  it("refuses a delivery with a wrong HMAC", async () => {
    const res = await callRouteAction(privacy, webhook("customers/redact", { customer: { id: 1 } }, { secret: "wrong" }));
    expect(res.status).toBe(401);
  });

  it("customers/redact deletes the customer's user, once per webhook id", async () => {
    await app.database.db.user.create({ data: { email: "buyer@shop.test", shopify_customer_id: "777", auth_provider: "shopify" } });
    const id = crypto.randomUUID();
    const res = await callRouteAction(privacy, webhook("customers/redact", { shop_domain: SHOP, customer: { id: 777, email: "buyer@shop.test" } }, { id }));
    expect(res.status).toBe(200);
    expect(await app.database.db.user.count({ where: { shopify_customer_id: "777" } })).toBe(0);
    expect(await app.database.db.webhookDelivery.count({ where: { id } })).toBe(1);
    // A repeat delivery is acknowledged and does nothing more.
    await app.database.db.user.create({ data: { email: "buyer@shop.test", shopify_customer_id: "777", auth_provider: "shopify" } });
    expect((await callRouteAction(privacy, webhook("customers/redact", { customer: { id: 777 } }, { id }))).status).toBe(200);
    expect(await app.database.db.user.count({ where: { shopify_customer_id: "777" } })).toBe(1);
  });

  it("customers/data_request writes an export of the customer's data, privately (tests/integration/privacy-exports.test.ts)", async () => {
    await app.database.db.user.create({ data: { email: "export@shop.test", shopify_customer_id: "888", auth_provider: "shopify", first_name: "Ada" } });
    const res = await callRouteAction(privacy, webhook("customers/data_request", { customer: { id: 888 }, data_request: { id: 4242 } }));
    expect(res.status).toBe(200);
    expect(await app.ctx.storage.get("privacy/data-requests/4242.json")).toBeNull();
    const row = await app.database.db.privacyDataRequest.findFirstOrThrow({ where: { shopify_request_id: "4242" } });
    const file = await app.ctx.privateStorage.get(row.storage_key!);
    expect(file).not.toBeNull();
    const exported = JSON.parse(new TextDecoder().decode(file!));
    expect(exported.users[0]).toMatchObject({ email: "export@shop.test", first_name: "Ada" });
  });

  it("shop/redact removes the shop's sessions and its customers", async () => {
    await storeStaffSession({ email: "owner@shop.test", account_owner: true });
    await app.database.db.user.create({ data: { shopify_customer_id: "999", auth_provider: "shopify" } });
    const res = await callRouteAction(privacy, webhook("shop/redact", { shop_domain: SHOP }));
    expect(res.status).toBe(200);
    expect(await app.database.db.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await app.database.db.user.count({ where: { auth_provider: "shopify", role: "SHOPPER" } })).toBe(0);
  });

  it("app/uninstalled deletes the shop's sessions", async () => {
    await storeStaffSession({ email: "owner@shop.test", account_owner: true });
    const req = webhook("app/uninstalled", { id: 1 });
    const res = await callRouteAction(uninstalled, new Request(req.url.replace("privacy", "app/uninstalled"), { method: "POST", headers: req.headers, body: await req.text() }));
    expect(res.status).toBe(200);
    expect(await app.database.db.session.count({ where: { shop: SHOP } })).toBe(0);
  });
});
