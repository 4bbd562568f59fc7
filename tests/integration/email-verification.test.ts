/**
 * Orders are linked only to proven emails (issue 14, item 3). A guest who becomes a lead (or
 * registers) with someone else's address must not see that person's orders when the order webhook
 * arrives; the owner sees them after following the emailed link. Links are single-use and expire;
 * resending is limited; Shopify's customer id still links; a changed address is unverified again.
 * Everything goes through the API and the orders webhook route, as the store would call it.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../app/config.server";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { RESENDS_PER_DAY, VerificationMessages } from "../../app/services/email-verification.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { linkSentTo as linkFrom } from "../helpers/email-verification";
import { shopifyWebhook } from "../helpers/shopify-webhook";
import { createProduct, pgid, vgid } from "./products-fixtures";

type Route = { action: (a: { request: Request; params: object; context: object }) => Promise<Response> };
let app: TestApp;
let orders: Route;
let seq = 0;

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  orders = (await import("../../app/routes/webhooks.orders")) as Route;
  await createProduct(app.database.db, { n: 6601, title: "Wool Coat" });
});
afterAll(() => app?.close());

/** An orders/create webhook as Shopify sends it (HMAC with the app's secret). */
async function orderWebhook(o: { n: number; email: string; customerId?: string; delivered?: boolean }) {
  const payload = {
    id: o.n,
    admin_graphql_api_id: `gid://shopify/Order/${o.n}`,
    name: `#${o.n}`,
    email: o.email,
    created_at: new Date().toISOString(),
    financial_status: "paid",
    fulfillment_status: o.delivered ? "fulfilled" : null,
    currency: "EUR",
    total_price: "180.00",
    customer: o.customerId ? { id: Number(o.customerId), email: o.email } : null,
    shipping_address: { first_name: "Vera", last_name: "Victim", address1: "12 Private Lane", city: "Lyon", zip: "69001", country: "FR" },
    line_items: [{ id: o.n * 10, product_id: 6601, variant_id: Number(vgid(6601, 0).split("/").pop()), title: "Wool Coat", quantity: 1, price: "180.00", fulfillment_status: o.delivered ? "fulfilled" : null }],
    fulfillments: o.delivered ? [{ shipment_status: "delivered", tracking_number: "TRACK1", line_items: [{ id: o.n * 10 }] }] : [],
  };
  const request = shopifyWebhook("http://localhost:3000/webhooks/orders", "orders/create", payload, { secret: getConfig().SHOPIFY_API_SECRET! });
  const res = await orders.action({ request, params: {}, context: {} });
  expect(res.status).toBe(200);
  return `gid://shopify/Order/${o.n}`;
}

const linkSentTo = (to: string) => linkFrom(app, to);

const uniqueEmail = (name: string) => `${name}-${++seq}@example.test`;

async function guest() {
  const res = await app.api("POST", "/users/guest");
  expect(res.status).toBe(201);
  return { id: res.body.user.id as string, token: res.body.token as string };
}

async function register(email: string, token?: string) {
  const res = await app.api("POST", "/auth/register", { token, body: { email, password: "Velvet-Harbour-2931" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.user.id as string, token: res.body.token as string, user: res.body.user };
}

const myOrders = async (token: string) => (await app.api("GET", "/users/orders", { token })).body.items.map((o: { id: string }) => o.id);

describe("the attack: a lead with someone else's email", () => {
  it("sees none of that person's orders (no address, no returns, no verified-buyer review), even after registering the address with a password", async () => {
    const victim = uniqueEmail("vera");
    const attacker = await guest();
    const lead = await app.api("POST", "/users/lead", { token: attacker.token, body: { userId: attacker.id, email: victim, origin: "newsletter" } });
    expect(lead.status).toBe(200);
    expect(lead.body).toMatchObject({ auth_provider: "lead", email: victim, email_verified_at: null });

    const orderId = await orderWebhook({ n: 700001, email: victim, delivered: true });
    const row = await app.database.db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(row.user_id).toBeNull();
    expect(await app.database.db.productPurchaseEvent.count({ where: { order_id: orderId, user_id: { not: null } } })).toBe(0);

    const list = await app.api("GET", "/users/orders", { token: attacker.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    const detail = await app.api("GET", "/users/orders/700001", { token: attacker.token });
    expect(detail.status).toBe(404);
    expect(JSON.stringify(detail.body)).not.toContain("Private Lane");
    expect((await app.api("GET", "/users/returns", { token: attacker.token })).body.items).toEqual([]);
    expect((await app.api("POST", "/users/orders/700001/cancel", { token: attacker.token, body: { reason: "CHANGED_MIND" } })).status).toBe(404);

    // Registering the address (a password) proves nothing either.
    const squatter = await register(victim, attacker.token);
    expect(squatter.user).toMatchObject({ id: attacker.id, email: victim, email_verified_at: null });
    expect(await myOrders(squatter.token)).toEqual([]);
    expect((await app.api("GET", "/users/orders/700001", { token: squatter.token })).status).toBe(404);
    // The reviews side: no verified-buyer review and no reviewable order from someone else's purchase.
    expect((await app.api("GET", "/users/reviewable-orders", { token: squatter.token })).body.orders).toEqual([]);
    const review = await app.api("POST", "/product-reviews", { token: squatter.token, body: { product_id: pgid(6601), rating: 1, title: "Meh", body: "Not my coat at all" } });
    expect(review.status).toBe(201);
    expect(review.body.verified_buyer).toBe(false);
    // Both verification links went to the owner's inbox; the attacker has none of them.
    expect(await app.database.db.emailOutbox.count({ where: { to: victim, kind: "email_verification" } })).toBeGreaterThanOrEqual(1);
    expect(await app.database.db.emailOutbox.count({ where: { to: { not: victim }, kind: "email_verification", text: { contains: "Vera" } } })).toBe(0);
  });

  it("a lead's unproven address does not block its owner from registering; the owner verifies and sees the order with its address, the lead nothing", async () => {
    const owner = uniqueEmail("olga");
    const attacker = await guest();
    expect((await app.api("POST", "/users/lead", { token: attacker.token, body: { userId: attacker.id, email: owner, origin: "quiz" } })).status).toBe(200);
    const orderId = await orderWebhook({ n: 700002, email: owner });

    const account = await register(owner);
    expect(account.user).toMatchObject({ email: owner, email_verified_at: null });
    expect(await myOrders(account.token)).toEqual([]);
    const lead = await app.database.db.user.findUniqueOrThrow({ where: { id: attacker.id } });
    expect(lead.email).toBeNull();
    expect(lead.metadata).toMatchObject({ leadEmail: owner });

    const verified = await app.api("POST", "/auth/verify-email", { body: { token: await linkSentTo(owner) } });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ email: owner, linked_orders: 1 });
    expect((await app.api("GET", "/users/me", { token: account.token })).body.email_verified_at).toEqual(expect.any(String));
    expect(await myOrders(account.token)).toEqual([orderId]);
    const detail = await app.api("GET", "/users/orders/700002", { token: account.token });
    expect(detail.status).toBe(200);
    expect(detail.body.shipping_address).toMatchObject({ name: "Vera Victim", address1: "12 Private Lane", city: "Lyon" });
    expect(await app.database.db.productPurchaseEvent.count({ where: { order_id: orderId, user_id: account.id } })).toBe(1);
    expect(await myOrders(attacker.token)).toEqual([]);
    // Now a buyer of the coat: the owner's review carries the verified buyer badge.
    const review = await app.api("POST", "/product-reviews", { token: account.token, body: { product_id: pgid(6601), rating: 5, title: "Warm", body: "Exactly as pictured" } });
    expect(review.status).toBe(201);
    expect(review.body.verified_buyer).toBe(true);

    // Later orders with the proven address are linked as they arrive.
    const next = await orderWebhook({ n: 700003, email: owner });
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: next } })).user_id).toBe(account.id);
    expect(await myOrders(account.token)).toEqual([next, orderId]);
  });
});

describe("POST /auth/verify-email", () => {
  it("refuses a used, an expired, an unknown and an empty link with a clear message", async () => {
    const email = uniqueEmail("tess");
    const u = await register(email);
    const token = await linkSentTo(email);
    const ok = await app.api("POST", "/auth/verify-email", { body: { token } });
    expect(ok.status).toBe(200);

    const again = await app.api("POST", "/auth/verify-email", { body: { token } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(VerificationMessages.USED_VERIFIED);

    const other = uniqueEmail("uma");
    const v = await register(other);
    const stale = await linkSentTo(other);
    await app.database.db.emailVerification.updateMany({ where: { user_id: v.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    const expired = await app.api("POST", "/auth/verify-email", { body: { token: stale } });
    expect(expired.status).toBe(422);
    expect(expired.body.error.message).toBe(VerificationMessages.EXPIRED);
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: v.id } })).email_verified_at).toBeNull();

    const unknown = await app.api("POST", "/auth/verify-email", { body: { token: crypto.randomBytes(32).toString("base64url") } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(VerificationMessages.INVALID);
    const empty = await app.api("POST", "/auth/verify-email", { body: { token: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/no token/);
    expect(u.id).not.toBe(v.id);
  });

  it("one link used twice at once verifies once", async () => {
    const email = uniqueEmail("ida");
    await register(email);
    const token = await linkSentTo(email);
    const results = await Promise.all([0, 1, 2].map(() => app.api("POST", "/auth/verify-email", { body: { token } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it("does not take orders already linked to another account", async () => {
    const email = uniqueEmail("nia");
    // Shopify's customer 8801 (an App Proxy shopper) placed it with this address: theirs.
    const customer = await app.database.db.user.create({ data: { auth_provider: "shopify", shopify_customer_id: "8801" } });
    const theirs = await orderWebhook({ n: 700010, email, customerId: "8801" });
    const free = await orderWebhook({ n: 700011, email });
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: theirs } })).user_id).toBe(customer.id);
    const u = await register(email);
    const res = await app.api("POST", "/auth/verify-email", { body: { token: await linkSentTo(email) } });
    expect(res.body.linked_orders).toBe(1);
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: theirs } })).user_id).toBe(customer.id);
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: free } })).user_id).toBe(u.id);
  });
});

describe("POST /auth/resend-verification", () => {
  it("sends a new link, at most one a minute and five a day (429 with Retry-After), and refuses when there is nothing to verify", async () => {
    const email = uniqueEmail("rose");
    const u = await register(email); // sent one
    const tooSoon = await app.api("POST", "/auth/resend-verification", { token: u.token });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.error.message).toMatch(/^We sent you a verification email moments ago\. Please wait \d+ seconds? before asking for another\.$/);
    expect(Number(tooSoon.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await app.database.db.emailOutbox.count({ where: { to: email, kind: "email_verification" } })).toBe(1);

    const db = app.database.db;
    const age = async () => db.$executeRaw`UPDATE email_verifications SET created_at = created_at - interval '2 minutes' WHERE user_id = ${u.id}`;
    for (let i = 1; i < RESENDS_PER_DAY; i++) {
      await age();
      const r = await app.api("POST", "/auth/resend-verification", { token: u.token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ sent: true, email });
    }
    await age();
    const daily = await app.api("POST", "/auth/resend-verification", { token: u.token });
    expect(daily.status).toBe(429);
    expect(daily.body.error.message).toBe(VerificationMessages.DAILY);
    expect(await db.emailOutbox.count({ where: { to: email, kind: "email_verification" } })).toBe(RESENDS_PER_DAY);
    // The newest link works; the earlier ones stop once one is used.
    const newest = await linkSentTo(email);
    expect((await app.api("POST", "/auth/verify-email", { body: { token: newest } })).status).toBe(200);

    const done = await app.api("POST", "/auth/resend-verification", { token: u.token });
    expect(done.status).toBe(409);
    expect(done.body.error.message).toBe(VerificationMessages.ALREADY_VERIFIED);
    const g = await guest();
    const none = await app.api("POST", "/auth/resend-verification", { token: g.token });
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe(VerificationMessages.NO_EMAIL);
    expect((await app.api("POST", "/auth/resend-verification")).status).toBe(401);
  });

  it("a script repeating POST /users/lead cannot flood an inbox nor mail many addresses", async () => {
    const email = uniqueEmail("flood");
    const g = await guest();
    for (let i = 0; i < 5; i++) expect((await app.api("POST", "/users/lead", { token: g.token, body: { userId: g.id, email, origin: "x" } })).status).toBe(200);
    expect(await app.database.db.emailOutbox.count({ where: { to: email, kind: "email_verification" } })).toBe(1);
    // A corrected address gets its link at once; past five a day, nothing more is sent.
    const others = Array.from({ length: RESENDS_PER_DAY + 2 }, (_, i) => uniqueEmail(`flood${i}`));
    for (const other of others) expect((await app.api("POST", "/users/lead", { token: g.token, body: { userId: g.id, email: other, origin: "x" } })).status).toBe(200);
    expect(await app.database.db.emailOutbox.count({ where: { to: { in: [email, ...others] }, kind: "email_verification" } })).toBe(RESENDS_PER_DAY);
  });
});

describe("Shopify's customer id and a changed address", () => {
  it("links an order to the App Proxy customer by customer id (no email needed) and shows its address", async () => {
    const customer = await app.database.db.user.create({ data: { auth_provider: "shopify", shopify_customer_id: "9902" } });
    const token = (await app.createUser({ authProvider: "guest" })).token; // another shopper
    const { issueToken } = await import("../../app/services/tokens.server");
    const customerToken = await issueToken(app.database.db, customer.id);
    const id = await orderWebhook({ n: 700020, email: uniqueEmail("cust"), customerId: "9902" });
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id } })).user_id).toBe(customer.id);
    expect(await myOrders(customerToken)).toEqual([id]);
    expect((await app.api("GET", "/users/orders/700020", { token: customerToken })).body.shipping_address).toMatchObject({ city: "Lyon" });
    expect(await myOrders(token)).toEqual([]);
  });

  it("a lead who changes its address is unverified again, and the old link no longer verifies", async () => {
    const first = uniqueEmail("lou");
    const second = uniqueEmail("lou2");
    const g = await guest();
    await app.api("POST", "/users/lead", { token: g.token, body: { userId: g.id, email: first, origin: "x" } });
    const oldLink = await linkSentTo(first);
    const reLead = await app.api("POST", "/users/lead", { token: g.token, body: { userId: g.id, email: second, origin: "x" } });
    expect(reLead.body).toMatchObject({ email: second, email_verified_at: null });
    const stale = await app.api("POST", "/auth/verify-email", { body: { token: oldLink } });
    expect(stale.status).toBe(422);
    expect(stale.body.error.message).toBe(VerificationMessages.EMAIL_CHANGED);

    // Verified, then changed: verification is reset, and orders of the new address stay unlinked.
    expect((await app.api("POST", "/auth/verify-email", { body: { token: await linkSentTo(second) } })).status).toBe(200);
    const third = uniqueEmail("lou3");
    const changed = await app.api("POST", "/users/lead", { token: g.token, body: { userId: g.id, email: third, origin: "x" } });
    expect(changed.body).toMatchObject({ email: third, email_verified_at: null });
    await orderWebhook({ n: 700030, email: third });
    expect(await myOrders(g.token)).toEqual([]);
  });

  it("a verified lead who registers the same address stays verified; another address starts unverified", async () => {
    const email = uniqueEmail("kim");
    const g = await guest();
    await app.api("POST", "/users/lead", { token: g.token, body: { userId: g.id, email, origin: "x" } });
    expect((await app.api("POST", "/auth/verify-email", { body: { token: await linkSentTo(email) } })).status).toBe(200);
    const same = await register(email, g.token);
    expect(same.user.email_verified_at).toEqual(expect.any(String));

    const h = await guest();
    const a = uniqueEmail("kim-a");
    await app.api("POST", "/users/lead", { token: h.token, body: { userId: h.id, email: a, origin: "x" } });
    expect((await app.api("POST", "/auth/verify-email", { body: { token: await linkSentTo(a) } })).status).toBe(200);
    const other = await register(uniqueEmail("kim-b"), h.token);
    expect(other.user.email_verified_at).toBeNull();
  });
});

describe("the migration's data step", () => {
  it("unlinks orders linked to unverified users unless Shopify's customer id proves the link, and keeps the demo accounts' orders", async () => {
    const db = app.database.db;
    const sql = fs.readFileSync(path.resolve(__dirname, "../../prisma/migrations/20261127120000_email_verification/migration.sql"), "utf8");
    const data = sql.slice(sql.indexOf("-- Data."));
    const unverified = await db.user.create({ data: { email: uniqueEmail("old"), auth_provider: "password" } });
    const viaCustomer = await db.user.create({ data: { email: uniqueEmail("cid"), auth_provider: "shopify", shopify_customer_id: "5501" } });
    const demo = await db.user.create({ data: { email: `migr-${++seq}@demo.local`, auth_provider: "password" } });
    const verified = await db.user.create({ data: { email: uniqueEmail("ok"), auth_provider: "password", email_verified_at: new Date() } });
    const mk = (n: number, user_id: string, shopify_customer_id: string | null = null) =>
      db.order.create({ data: { id: `gid://shopify/Order/${n}`, name: `#${n}`, user_id, shopify_customer_id, total_price: 1, purchase_events: { create: { user_id, product_id: pgid(6601) } } } });
    await mk(790001, unverified.id);
    await mk(790002, viaCustomer.id, "5501");
    await mk(790003, demo.id);
    await mk(790004, verified.id);
    await mk(790005, viaCustomer.id, "5599");
    for (const statement of data.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s.replace(/--.*$/gm, "").trim())) await db.$executeRawUnsafe(statement);
    const owner = async (n: number) => (await db.order.findUniqueOrThrow({ where: { id: `gid://shopify/Order/${n}` }, include: { purchase_events: true } }));
    expect((await owner(790001)).user_id).toBeNull();
    expect((await owner(790001)).purchase_events[0].user_id).toBeNull();
    expect((await owner(790002)).user_id).toBe(viaCustomer.id);
    expect((await owner(790003)).user_id).toBe(demo.id);
    expect((await db.user.findUniqueOrThrow({ where: { id: demo.id } })).email_verified_at).not.toBeNull();
    expect((await owner(790004)).user_id).toBe(verified.id);
    expect((await owner(790005)).user_id).toBeNull();
  });
});
