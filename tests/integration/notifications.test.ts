/**
 * Notification requests: back in stock (POST /users/notification-requests/product: non-guests only,
 * sold-out products or variants, idempotent), drops (POST …/drop), the caller's list of every kind
 * (GET /users/notification-requests) and deleting one (DELETE …/{id}; another shopper gets 404 and
 * nothing changes); the back-in-stock job (enqueued where inventory comes back: the commerce port,
 * a restocking cancellation, the product webhook) and the drop job (after drops.publish-due), both
 * emailing through the outbox with the unsubscribe link; and the guest merge moving requests and
 * the cart.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { applyProductWebhook } from "../../app/services/catalog-sync.server";
import { dropNoticeEmail } from "../../app/services/drops.server";
import { BACK_IN_STOCK_QUEUE, DROP_NOTIFICATIONS_QUEUE } from "../../app/services/notification-requests.server";
import { issueToken } from "../../app/services/tokens.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let uma: { id: string; token: string; email: string | null };
let vic: { id: string; token: string; email: string | null };
let guest: { id: string; token: string };

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const create = (body: unknown, token?: string) => app.api("POST", "/users/notification-requests/product", { body, token });
const queued = (queue: string) => app.database.db.job.count({ where: { queue, status: "queued", run_at: { lte: new Date() } } });
const mailsTo = (to: string, kind: string) => app.database.db.emailOutbox.findMany({ where: { to, kind }, orderBy: { created_at: "asc" } });

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await createProduct(db, { n: 601, title: "Sold Out Parka", inventory: 0 });
  await createProduct(db, { n: 602, title: "Wool Scarf", inventory: 4 });
  // One sold-out size of the scarf (variant 1: Black / M).
  await db.productVariant.update({ where: { id: vgid(602, 1) }, data: { inventory_quantity: 0, availableForSale: false } });
  await createProduct(db, { n: 603, title: "Hidden Draft Coat", inventory: 0, status: "draft" });
  await createProduct(db, { n: 604, title: "Sold Out Beanie", inventory: 0 });
  await createProduct(db, { n: 605, title: "Sold Out Gloves", inventory: 0 });
  uma = await app.createUser({ email: "uma@example.test" });
  vic = await app.createUser({ email: "vic@example.test" });
  guest = await app.createUser({ authProvider: "guest" });
});
afterAll(() => app?.close());

describe("POST /users/notification-requests/product", () => {
  it("creates a request for a sold-out product, once (idempotent)", async () => {
    const res = await create({ product_id: "601" }, uma.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: "back_in_stock",
      status: "active",
      email: "uma@example.test",
      sent_at: null,
      product: { id: pgid(601), title: "Sold Out Parka", handle: "sold-out-parka-601", availableForSale: false },
      variant: null,
      search: null,
      drop: null,
    });
    const again = await create({ product_id: pgid(601) }, uma.token);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(res.body.id);
    expect(await app.database.db.notificationRequest.count({ where: { user_id: uma.id, product_id: pgid(601) } })).toBe(1);
    // The periodic check is scheduled while requests wait.
    const periodic = await app.database.db.job.findFirst({ where: { queue: BACK_IN_STOCK_QUEUE, status: "queued" } });
    expect(periodic!.run_at.getTime()).toBeGreaterThan(Date.now());
  });

  it("creates a request for a sold-out variant of a product in stock", async () => {
    const res = await create({ product_id: pgid(602), variant_id: "60201" }, uma.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ product: { id: pgid(602), availableForSale: true }, variant: { id: vgid(602, 1), title: "Black / M", availableForSale: false } });
  });

  it("refuses guests and anonymous callers (401), products in stock (409), unknown or hidden products (404), foreign variants (422), a missing email (422)", async () => {
    const g = await create({ product_id: pgid(601) }, guest.token);
    expect(g.status).toBe(401);
    expect(g.body.error.message).toBe("User is not authenticated");
    expect((await create({ product_id: pgid(601) })).status).toBe(401);

    const inStock = await create({ product_id: pgid(602) }, uma.token);
    expect(inStock.status).toBe(409);
    expect(inStock.body.error.message).toMatch(/in stock/);
    const variantInStock = await create({ product_id: pgid(602), variant_id: vgid(602, 0) }, uma.token);
    expect(variantInStock.status).toBe(409);
    expect((await create({ product_id: pgid(999) }, uma.token)).status).toBe(404);
    expect((await create({ product_id: pgid(603) }, uma.token)).status).toBe(404);
    const foreign = await create({ product_id: pgid(601), variant_id: vgid(602, 1) }, uma.token);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.message).toBe("This variant is not a variant of this product");
    expect((await create({}, uma.token)).status).toBe(400);

    const noEmail = await app.database.db.user.create({ data: { auth_provider: "shopify" } });
    const r = await create({ product_id: pgid(601) }, await issueToken(app.database.db, noEmail.id));
    expect(r.status).toBe(422);
    expect(await app.database.db.notificationRequest.count({ where: { user_id: { in: [guest.id, noEmail.id] } } })).toBe(0);
  });
});

describe("GET and DELETE /users/notification-requests", () => {
  it("lists the caller's requests of every kind, newest first, by kind and product, by cursor; nobody else's", async () => {
    const db = app.database.db;
    await db.notificationRequest.create({ data: { kind: "search", user_id: uma.id, email: "uma@example.test", search_id: "s-linen", search_query: "linen", search_filters: { target_gender: "menswear" } } });
    const all = await app.api("GET", "/users/notification-requests", { token: uma.token });
    expect(all.status).toBe(200);
    expect(all.body.items.map((r: { kind: string }) => r.kind)).toEqual(["search", "back_in_stock", "back_in_stock"]);
    expect(all.body.items[0].search).toEqual({ searchId: "s-linen", query: "linen", filters: { target_gender: "menswear" } });
    const byKind = await app.api("GET", "/users/notification-requests", { token: uma.token, query: { kind: "back_in_stock", product_id: "602" } });
    expect(byKind.body.items).toHaveLength(1);
    expect(byKind.body.items[0].variant.id).toBe(vgid(602, 1));
    const p1 = await app.api("GET", "/users/notification-requests", { token: uma.token, query: { limit: 2 } });
    const p2 = await app.api("GET", "/users/notification-requests", { token: uma.token, query: { limit: 2, cursor: p1.body.nextCursor } });
    expect([...p1.body.items, ...p2.body.items].map((r: { id: string }) => r.id)).toEqual(all.body.items.map((r: { id: string }) => r.id));
    expect(p2.body.nextCursor).toBeNull();

    expect((await app.api("GET", "/users/notification-requests", { token: vic.token })).body.items).toEqual([]);
    expect((await app.api("GET", "/users/notification-requests", { token: guest.token })).body.items).toEqual([]);
    expect((await app.api("GET", "/users/notification-requests")).status).toBe(401);
    expect((await app.api("GET", "/users/notification-requests", { token: uma.token, query: { kind: "weekly" } })).status).toBe(400);
  });

  it("deletes one of the caller's requests; another shopper gets 404 and nothing changes", async () => {
    const db = app.database.db;
    const search = await db.notificationRequest.findFirstOrThrow({ where: { user_id: uma.id, kind: "search" } });
    const other = await app.api("DELETE", `/users/notification-requests/${search.id}`, { token: vic.token });
    expect(other.status).toBe(404);
    expect(await db.notificationRequest.count({ where: { id: search.id } })).toBe(1);
    const mine = await app.api("DELETE", `/users/notification-requests/${search.id}`, { token: uma.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ ok: true, id: search.id });
    expect(await db.notificationRequest.count({ where: { id: search.id } })).toBe(0);
    expect((await app.api("DELETE", `/users/notification-requests/${search.id}`, { token: uma.token })).status).toBe(404);
  });
});

describe("the back-in-stock job", () => {
  it("runs when inventory comes back through the commerce port, emails the waiting shopper once with the unsubscribe link, and marks the request sent", async () => {
    const db = app.database.db;
    await drain(); // nothing due yet
    expect(await mailsTo("uma@example.test", "back_in_stock")).toHaveLength(0);

    await app.ctx.commerce.setInventory([{ variantId: vgid(601, 0), available: 5 }]);
    expect(await queued(BACK_IN_STOCK_QUEUE)).toBe(1);
    await drain();
    const mails = await mailsTo("uma@example.test", "back_in_stock");
    expect(mails).toHaveLength(1);
    expect(mails[0].status).toBe("sent");
    expect(mails[0].subject).toBe("Back in stock: Sold Out Parka");
    expect(mails[0].text).toContain("/products/601/sold-out-parka-601");
    const request = await db.notificationRequest.findFirstOrThrow({ where: { user_id: uma.id, product_id: pgid(601) } });
    expect(request.status).toBe("sent");
    expect(request.sent_at).toBeInstanceOf(Date);
    const link = `/api/notifications/unsubscribe/${request.unsubscribe_token}`;
    expect(mails[0].text).toContain(link);
    expect(mails[0].html).toContain(link);
    expect(fs.readdirSync(path.join(app.dataDir, "outbox")).some((f) => f.endsWith(".html"))).toBe(true);

    // The scarf's sold-out size still waits; nothing is sent twice.
    expect((await db.notificationRequest.findFirstOrThrow({ where: { user_id: uma.id, product_id: pgid(602) } })).status).toBe("active");
    await app.ctx.queue.enqueue(BACK_IN_STOCK_QUEUE, { reason: "test" });
    await drain();
    expect(await mailsTo("uma@example.test", "back_in_stock")).toHaveLength(1);

    // Sold out again: the same request is made active again.
    await app.ctx.commerce.setInventory([{ variantId: vgid(601, 0), available: 0 }]);
    const again = await create({ product_id: pgid(601) }, uma.token);
    expect(again.body).toMatchObject({ id: request.id, status: "active" });
    const unsub = await app.api("GET", `/notifications/unsubscribe/${request.unsubscribe_token}`);
    expect(unsub.status).toBe(200);
    expect(unsub.body).toMatchObject({ kind: "back_in_stock", status: "unsubscribed" });
    await app.ctx.commerce.setInventory([{ variantId: vgid(601, 0), available: 2 }]);
    await drain();
    expect(await mailsTo("uma@example.test", "back_in_stock")).toHaveLength(1);
  });

  it("runs after a product webhook brings a variant back, and only for that variant", async () => {
    const db = app.database.db;
    await db.productVariant.update({ where: { id: vgid(602, 1) }, data: { inventory_quantity: 3, availableForSale: true } });
    const outcome = await applyProductWebhook({ db, commerce: app.ctx.commerce, log: app.ctx.log, queue: app.ctx.queue }, "PRODUCTS_UPDATE", { id: 602 });
    expect(outcome).toBe("upserted");
    expect(await queued(BACK_IN_STOCK_QUEUE)).toBe(1);
    await drain();
    const mails = await mailsTo("uma@example.test", "back_in_stock");
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe("Back in stock: Wool Scarf (Black / M)");
    expect((await db.notificationRequest.findFirstOrThrow({ where: { user_id: uma.id, product_id: pgid(602) } })).status).toBe("sent");
  });

  it("runs when a shopper's cancellation restocks a product someone waits for; hidden products are never announced", async () => {
    const db = app.database.db;
    const req = await create({ product_id: pgid(604) }, vic.token);
    expect(req.status).toBe(201);
    await db.notificationRequest.create({ data: { kind: "back_in_stock", user_id: vic.id, email: "vic@example.test", product_id: pgid(603) } });
    await db.productVariant.updateMany({ where: { product_id: pgid(603) }, data: { inventory_quantity: 9, availableForSale: true } });
    await db.product.update({ where: { id: pgid(603) }, data: { availableForSale: true, totalInventory: 18 } });
    await db.order.create({
      data: {
        id: "gid://shopify/Order/7001",
        name: "#7001",
        user_id: uma.id,
        total_price: new Prisma.Decimal(50),
        items: { create: [{ id: "gid://shopify/LineItem/70010", product_id: pgid(604), variant_id: vgid(604, 0), title: "Sold Out Beanie", quantity: 1, price: new Prisma.Decimal(50) }] },
      },
    });
    const cancel = await app.api("POST", "/users/orders/7001/cancel", { token: uma.token, body: { reason: "CHANGED_MIND" } });
    expect(cancel.status).toBe(200);
    expect(await queued(BACK_IN_STOCK_QUEUE)).toBe(1);
    await drain();
    const mails = await mailsTo("vic@example.test", "back_in_stock");
    expect(mails.map((m) => m.subject)).toEqual(["Back in stock: Sold Out Beanie"]);
    expect((await db.notificationRequest.findFirstOrThrow({ where: { user_id: vic.id, product_id: pgid(603) } })).status).toBe("active");
  });
});

describe("drop notification requests", () => {
  it("creates one for an announced drop (idempotent), refuses drafts, live drops and guests, and emails it when the drop goes live", async () => {
    const db = app.database.db;
    const future = new Date(Date.now() + 3 * 86_400_000);
    const drop = await db.drop.create({ data: { name: "Winter Capsule", description: "Eight warm pieces", status: "scheduled", scheduled_publish_date: future, shopify_products_ids: [pgid(601), pgid(602)] } });
    const draft = await db.drop.create({ data: { name: "Secret", status: "draft" } });
    const live = await db.drop.create({ data: { name: "Old News", status: "published", scheduled_publish_date: new Date(Date.now() - 86_400_000) } });

    const res = await app.api("POST", "/users/notification-requests/drop", { token: uma.token, body: { drop_id: drop.id } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "drop", status: "active", drop: { id: drop.id, name: "Winter Capsule", status: "scheduled" }, product: null });
    const again = await app.api("POST", "/users/notification-requests/drop", { token: uma.token, body: { drop_id: drop.id } });
    expect(again.body.id).toBe(res.body.id);
    const atDate = await db.job.findFirst({ where: { queue: DROP_NOTIFICATIONS_QUEUE, status: "queued" } });
    expect(atDate!.run_at.getTime()).toBe(future.getTime());

    expect((await app.api("POST", "/users/notification-requests/drop", { token: uma.token, body: { drop_id: draft.id } })).status).toBe(404);
    expect((await app.api("POST", "/users/notification-requests/drop", { token: uma.token, body: { drop_id: "nope" } })).status).toBe(404);
    const liveRes = await app.api("POST", "/users/notification-requests/drop", { token: uma.token, body: { drop_id: live.id } });
    expect(liveRes.status).toBe(409);
    expect(liveRes.body.error.message).toBe("This drop is already live");
    expect((await app.api("POST", "/users/notification-requests/drop", { token: guest.token, body: { drop_id: drop.id } })).status).toBe(401);

    // Not live yet: nothing is sent.
    await app.ctx.queue.enqueue("drops.publish-due", {});
    await drain();
    expect(await mailsTo("uma@example.test", "drop_live")).toHaveLength(0);

    // The date passes: the publish-due job publishes the drop and the drop job emails.
    await db.drop.update({ where: { id: drop.id }, data: { scheduled_publish_date: new Date(Date.now() - 1000) } });
    await app.ctx.queue.enqueue("drops.publish-due", { dropId: drop.id });
    await drain();
    const mails = await mailsTo("uma@example.test", "drop_live");
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Winter Capsule is live");
    expect(mails[0].text).toContain("Sold Out Parka");
    const row = await db.notificationRequest.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.status).toBe("sent");
    expect(mails[0].text).toContain(`/api/notifications/unsubscribe/${row.unsubscribe_token}`);
    await app.ctx.queue.enqueue(DROP_NOTIFICATIONS_QUEUE, { reason: "test" });
    await drain();
    expect(await mailsTo("uma@example.test", "drop_live")).toHaveLength(1);
  });

  it("the announcement of a scheduled drop links to the reminder; a live drop's does not", () => {
    const drop = { id: "drop-1", name: "Capsule", description: null, date: new Date("2026-12-01T09:00:00Z") };
    const soon = dropNoticeEmail({ to: "a@example.test", drop: { ...drop, status: "scheduled" }, titles: [], totalProducts: 0, appUrl: "https://shop.example/" });
    expect(soon.text).toContain("Remind me when it is live: https://shop.example/account/notifications?drop=drop-1");
    expect(soon.html).toContain('href="https://shop.example/account/notifications?drop=drop-1"');
    const live = dropNoticeEmail({ to: "a@example.test", drop: { ...drop, status: "published" }, titles: [], totalProducts: 0, appUrl: "https://shop.example/" });
    expect(live.text).not.toContain("Remind me");
  });
});

describe("merging a guest into an account", () => {
  it("moves the guest's notification requests (dropping the account's duplicates), its orders and its cart", async () => {
    const db = app.database.db;
    const account = await app.createUser({ email: "wes@example.test" });
    await db.user.update({ where: { id: account.id }, data: { cart_id: "gid://shopify/Cart/old" } });
    const lead = await app.createUser({ authProvider: "lead", email: "lead-wes@example.test" });
    await db.user.update({ where: { id: lead.id }, data: { cart_id: "gid://shopify/Cart/new" } });
    // The lead waits for the gloves (the account too: a duplicate) and the beanie; saved a search.
    const dupRes = await create({ product_id: pgid(605) }, lead.token);
    expect(dupRes.status).toBe(201);
    const dup = dupRes.body;
    await db.notificationRequest.create({ data: { kind: "back_in_stock", user_id: account.id, email: "wes@example.test", product_id: pgid(605) } });
    const beanie = await db.notificationRequest.create({ data: { kind: "back_in_stock", user_id: lead.id, email: "lead-wes@example.test", product_id: pgid(604), status: "active" } });
    const search = await db.notificationRequest.create({ data: { kind: "search", user_id: lead.id, email: "lead-wes@example.test", search_id: "s-wool", search_query: "wool" } });
    await db.order.create({ data: { id: "gid://shopify/Order/7101", name: "#7101", user_id: lead.id, email: "lead-wes@example.test", total_price: new Prisma.Decimal(10) } });

    const res = await app.api("POST", "/users/merge-guest-into-me", { token: account.token, body: { guestToken: lead.token } });
    expect(res.status).toBe(200);
    expect(res.body.merged).toMatchObject({ notificationRequests: 2, orders: 1, cartMoved: true });
    expect(await db.notificationRequest.count({ where: { id: dup.id } })).toBe(0);
    for (const id of [beanie.id, search.id]) {
      expect(await db.notificationRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({ user_id: account.id, email: "wes@example.test" });
    }
    expect(await db.notificationRequest.count({ where: { user_id: account.id, kind: "back_in_stock", product_id: pgid(605) } })).toBe(1);
    const user = await db.user.findUniqueOrThrow({ where: { id: account.id } });
    expect(user.cart_id).toBe("gid://shopify/Cart/new");
    expect(user.metadata).toMatchObject({ previousCartId: "gid://shopify/Cart/old" });
    expect((await db.order.findUniqueOrThrow({ where: { id: "gid://shopify/Order/7101" } })).user_id).toBe(account.id);
    const mine = await app.api("GET", "/users/notification-requests", { token: account.token });
    expect(mine.body.items).toHaveLength(3);
  });

  it("a guest without a cart leaves the account's cart alone; a guest's cart fills an account without one", async () => {
    const db = app.database.db;
    const account = await app.createUser({ email: "xia@example.test" });
    await db.user.update({ where: { id: account.id }, data: { cart_id: "gid://shopify/Cart/xia" } });
    const g1 = await app.createUser({ authProvider: "guest" });
    const r1 = await app.api("POST", "/users/merge-guest-into-me", { token: account.token, body: { guestToken: g1.token } });
    expect(r1.body.merged).toMatchObject({ notificationRequests: 0, orders: 0, cartMoved: false });
    expect((await db.user.findUniqueOrThrow({ where: { id: account.id } })).cart_id).toBe("gid://shopify/Cart/xia");

    const bare = await app.createUser({ email: "yan@example.test" });
    const g2 = await app.createUser({ authProvider: "guest" });
    await db.user.update({ where: { id: g2.id }, data: { cart_id: "gid://shopify/Cart/g2" } });
    const r2 = await app.api("POST", "/users/merge-guest-into-me", { token: bare.token, body: { guestToken: g2.token } });
    expect(r2.body.merged.cartMoved).toBe(true);
    const u = await db.user.findUniqueOrThrow({ where: { id: bare.id } });
    expect(u.cart_id).toBe("gid://shopify/Cart/g2");
    expect(u.metadata).toEqual({});
  });
});
