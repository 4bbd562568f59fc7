import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let manager: { id: string; token: string };
let editorOnly: { token: string };

const gid = (n: number) => `gid://shopify/Product/${n}`;
const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY);
const PAST = "scheduled_publish_date must be in the future (to publish the drop at once, use Publish now)";
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  for (let n = 701; n <= 706; n++) {
    // New pieces, not published yet (live products in drops: drops-visibility.test.ts).
    await db.product.create({ data: { id: gid(n), title: `Drop Piece ${n}`, handle: `drop-piece-${n}`, productType: "Jacket", priceMin: 80, priceMax: 90, publishedAt: null } });
  }
  manager = await app.createUser({ role: "ADMIN", permissions: ["drops.manage"] });
  editorOnly = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
});
afterAll(() => app?.close());

describe("drops: create, read, schedule", () => {
  let id: string;

  it("creates a draft drop; refuses unknown products, a past date and callers without drops.manage", async () => {
    const res = await app.api("POST", "/drops", { token: manager.token, body: { name: "Winter Capsule", description: "Five coats", shopify_products_ids: ["701", gid(702)] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Winter Capsule", status: "draft", scheduled_publish_date: null, shopify_products_ids: [gid(701), gid(702)], product_count: 2, notified_at: null });
    id = res.body.id;

    const unknown = await app.api("POST", "/drops", { token: manager.token, body: { name: "Ghost", shopify_products_ids: ["999"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain(gid(999));
    const past = await app.api("POST", "/drops", { token: manager.token, body: { name: "Late", scheduled_publish_date: "2020-01-01T00:00:00Z" } });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe(PAST);
    const noName = await app.api("POST", "/drops", { token: manager.token, body: {} });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toBe("name is required");
    expect((await app.api("POST", "/drops", { token: editorOnly.token, body: { name: "x" } })).status).toBe(403);
    expect(await app.database.db.drop.count()).toBe(1);
  });

  it("unpublished drops are hidden from the public, visible to managers", async () => {
    expect((await app.api("GET", `/drops/${id}`)).status).toBe(404);
    expect((await app.api("GET", `/drops/${id}`, { token: editorOnly.token })).status).toBe(404);
    const asManager = await app.api("GET", `/drops/${id}`, { token: manager.token });
    expect(asManager.status).toBe(200);
    expect(asManager.body.name).toBe("Winter Capsule");
    expect((await app.api("GET", "/drops/missing", { token: manager.token })).status).toBe(404);
  });

  it("a future date schedules the drop and the publishing of each of its products", async () => {
    const bad = await app.api("PUT", `/drops/${id}/scheduled-publish-date`, { token: manager.token, body: { scheduled_publish_date: new Date(Date.now() - 60_000).toISOString() } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(PAST);
    const garbage = await app.api("PUT", `/drops/${id}/scheduled-publish-date`, { token: manager.token, body: { scheduled_publish_date: "next tuesday" } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.message).toBe("scheduled_publish_date must be an ISO 8601 date");

    const date = inDays(10);
    const res = await app.api("PUT", `/drops/${id}/scheduled-publish-date`, { token: manager.token, body: { scheduled_publish_date: date.toISOString() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "scheduled", scheduled_publish_date: date.toISOString() });

    const db = app.database.db;
    const companions = await db.productCompanion.findMany({ where: { shopify_product_id: { in: [gid(701), gid(702)] } } });
    expect(companions).toHaveLength(2);
    expect(companions.every((c) => c.scheduled_publish_date?.toISOString() === date.toISOString())).toBe(true);
    // The local commerce adapter schedules the publication on the product itself.
    const products = await db.product.findMany({ where: { id: { in: [gid(701), gid(702)] } } });
    expect(products.every((p) => p.publishedAt?.toISOString() === date.toISOString())).toBe(true);
    expect((await db.product.findUniqueOrThrow({ where: { id: gid(703) } })).publishedAt).toBeNull();
    // A job marks the drop published when the date comes.
    const job = await db.job.findFirstOrThrow({ where: { queue: "drops.publish-due", payload: { path: ["dropId"], equals: id } } });
    expect(job.run_at.toISOString()).toBe(date.toISOString());
  });

  it("lists drops by date range (managers see every status; the public only published ones)", async () => {
    const db = app.database.db;
    await db.drop.create({ data: { name: "Spring Preview", status: "scheduled", scheduled_publish_date: inDays(40) } });
    await db.drop.create({ data: { name: "Undated Idea" } });
    const from = inDays(5).toISOString().slice(0, 10);
    const to = inDays(20).toISOString();
    const ranged = await app.api("GET", "/drops", { token: manager.token, query: { from, to } });
    expect(ranged.status).toBe(200);
    expect(ranged.body.drops.map((d: { name: string }) => d.name)).toEqual(["Winter Capsule"]);
    const everything = await app.api("GET", "/drops", { token: manager.token });
    expect(everything.body.drops.map((d: { name: string }) => d.name)).toEqual(["Winter Capsule", "Spring Preview", "Undated Idea"]);
    const drafts = await app.api("GET", "/drops", { token: manager.token, query: { status: "draft" } });
    expect(drafts.body.drops.map((d: { name: string }) => d.name)).toEqual(["Undated Idea"]);
    const publicView = await app.api("GET", "/drops", { query: { from, to } });
    expect(publicView.body.drops).toEqual([]);

    const reversed = await app.api("GET", "/drops", { query: { from: to, to: from } });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.message).toBe("from must not be after to");
    const invalid = await app.api("GET", "/drops", { query: { from: "yesterday" } });
    expect(invalid.status).toBe(400);
  });

  it("a drop whose date has passed is published: by the job, or when read", async () => {
    const db = app.database.db;
    const due = await db.drop.create({ data: { name: "Flash", status: "scheduled", scheduled_publish_date: new Date(Date.now() - 1000), shopify_products_ids: [gid(706)] } });
    await app.ctx.queue.enqueue("drops.publish-due", { dropId: due.id });
    await drain();
    expect((await db.drop.findUniqueOrThrow({ where: { id: due.id } })).status).toBe("published");

    const past = await db.drop.create({ data: { name: "Yesterday", status: "scheduled", scheduled_publish_date: new Date(Date.now() - DAY) } });
    const publicRead = await app.api("GET", `/drops/${past.id}`);
    expect(publicRead.status).toBe(200);
    expect(publicRead.body.status).toBe("published");
    const list = await app.api("GET", "/drops", { query: { from: new Date(Date.now() - 2 * DAY).toISOString() } });
    expect(list.body.drops.map((d: { name: string }) => d.name)).toEqual(["Yesterday", "Flash"]);

    const again = await app.api("PUT", `/drops/${past.id}/scheduled-publish-date`, { token: manager.token, body: { scheduled_publish_date: inDays(3).toISOString() } });
    expect(again.status).toBe(409);
    await db.drop.delete({ where: { id: due.id } });
    await db.drop.delete({ where: { id: past.id } });
  });
});

describe("drop companions", () => {
  let id: string;
  const date = inDays(14);

  beforeAll(async () => {
    const res = await app.api("POST", "/drops", { token: manager.token, body: { name: "Companions", shopify_products_ids: ["703", "704"], scheduled_publish_date: date.toISOString() } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("scheduled");
    id = res.body.id;
  });

  it("lists the drop's products as cards with their companion (skip 0, take 60)", async () => {
    const res = await app.api("GET", `/drops/${id}/companions`, { token: manager.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, skip: 0, take: 60 });
    expect(res.body.products.map((p: { id: string }) => p.id)).toEqual([gid(703), gid(704)]);
    expect(res.body.products[0]).toMatchObject({ title: "Drop Piece 703", publishedAt: date.toISOString(), companion: { status: "draft", scheduled_publish_date: date.toISOString() } });
    const page = await app.api("GET", `/drops/${id}/companions`, { token: manager.token, query: { skip: 1, take: 1 } });
    expect(page.body.products.map((p: { id: string }) => p.id)).toEqual([gid(704)]);
    expect((await app.api("GET", `/drops/${id}/companions`)).status).toBe(401);
    expect((await app.api("GET", "/drops/none/companions", { token: manager.token })).status).toBe(404);
  });

  it("replaces the products: gained ones are scheduled, lost ones withdrawn; unknown ids refused", async () => {
    const bad = await app.api("PUT", `/drops/${id}/companions`, { token: manager.token, body: { shopify_products_ids: ["704", "123456"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.unknown).toEqual([gid(123456)]);
    const missing = await app.api("PUT", `/drops/${id}/companions`, { token: manager.token, body: {} });
    expect(missing.status).toBe(400);

    const res = await app.api("PUT", `/drops/${id}/companions`, { token: manager.token, body: { shopify_products_ids: ["704", "705"] } });
    expect(res.status).toBe(200);
    expect(res.body.shopify_products_ids).toEqual([gid(704), gid(705)]);
    const db = app.database.db;
    const gained = await db.product.findUniqueOrThrow({ where: { id: gid(705) }, include: { companion: true } });
    expect(gained.publishedAt?.toISOString()).toBe(date.toISOString());
    expect(gained.companion?.scheduled_publish_date?.toISOString()).toBe(date.toISOString());
    const lost = await db.product.findUniqueOrThrow({ where: { id: gid(703) }, include: { companion: true } });
    expect(lost.companion?.scheduled_publish_date).toBeNull();
    expect(lost.publishedAt).toBeNull();
  });

  it("updates, cancels (withdrawing the schedule), reopens and deletes", async () => {
    const renamed = await app.api("PUT", `/drops/${id}`, { token: manager.token, body: { name: "Companions II", description: "Two pieces" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Companions II", description: "Two pieces", status: "scheduled" });

    const cancelled = await app.api("PUT", `/drops/${id}`, { token: manager.token, body: { name: "Companions II", status: "cancelled" } });
    expect(cancelled.body.status).toBe("cancelled");
    const db = app.database.db;
    const c = await db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: gid(704) } });
    expect(c.scheduled_publish_date).toBeNull();
    const schedule = await app.api("PUT", `/drops/${id}/scheduled-publish-date`, { token: manager.token, body: { scheduled_publish_date: inDays(20).toISOString() } });
    expect(schedule.status).toBe(409);

    const reopened = await app.api("PUT", `/drops/${id}`, { token: manager.token, body: { name: "Companions II", status: "draft" } });
    expect(reopened.body).toMatchObject({ status: "scheduled", scheduled_publish_date: date.toISOString() });
    expect((await db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: gid(704) } })).scheduled_publish_date?.toISOString()).toBe(date.toISOString());

    const unscheduled = await app.api("PUT", `/drops/${id}`, { token: manager.token, body: { name: "Companions II", status: "draft" } });
    expect(unscheduled.body).toMatchObject({ status: "draft", scheduled_publish_date: null });

    const invalid = await app.api("PUT", `/drops/${id}`, { token: manager.token, body: { name: "x", status: "published" } });
    expect(invalid.status).toBe(400);

    const del = await app.api("DELETE", `/drops/${id}`, { token: manager.token });
    expect(del.body).toEqual({ ok: true });
    expect((await app.api("DELETE", `/drops/${id}`, { token: manager.token })).status).toBe(404);
  });
});

describe("notify active users", () => {
  let id: string;

  beforeAll(async () => {
    const db = app.database.db;
    const res = await app.api("POST", "/drops", { token: manager.token, body: { name: "Night Shift", shopify_products_ids: ["705", "706"], scheduled_publish_date: inDays(7).toISOString() } });
    expect(res.status).toBe(201);
    id = res.body.id;
    const viewer = await db.user.create({ data: { email: "viewer@example.test", auth_provider: "password", first_name: "Vera", created_at: new Date(Date.now() - 50 * DAY) } });
    await db.productViewEvent.create({ data: { user_id: viewer.id, product_id: gid(701), created_at: new Date(Date.now() - 3 * DAY) } });
    const buyer = await db.user.create({ data: { email: "buyer@example.test", auth_provider: "lead", created_at: new Date(Date.now() - 40 * DAY) } });
    await db.order.create({ data: { id: "gid://shopify/Order/1", name: "#1001", user_id: buyer.id, total_price: 90, created_at: new Date(Date.now() - 10 * DAY) } });
    const stale = await db.user.create({ data: { email: "stale@example.test", auth_provider: "password" } });
    await db.productViewEvent.create({ data: { user_id: stale.id, product_id: gid(701), created_at: new Date(Date.now() - 120 * DAY) } });
    const guest = await db.user.create({ data: { email: "guest@example.test", auth_provider: "guest" } });
    await db.productViewEvent.create({ data: { user_id: guest.id, product_id: gid(701) } });
    const noEmail = await db.user.create({ data: { auth_provider: "password" } });
    await db.productViewEvent.create({ data: { user_id: noEmail.id, product_id: gid(701) } });
  });

  it("queues a drop notice per active user, paged by skip/limit", async () => {
    const first = await app.api("POST", `/drops/${id}/notify-active-users`, { token: manager.token, body: { limit: 1 } });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ queued: 1, skip: 0, limit: 1, total: 2 });
    const second = await app.api("POST", `/drops/${id}/notify-active-users`, { token: manager.token, body: { skip: 1, limit: 1 } });
    expect(second.body).toEqual({ queued: 1, skip: 1, limit: 1, total: 2 });
    const past = await app.api("POST", `/drops/${id}/notify-active-users`, { token: manager.token, body: { skip: 2 } });
    expect(past.body).toEqual({ queued: 0, skip: 2, limit: 100, total: 2 });

    const db = app.database.db;
    const mails = await db.emailOutbox.findMany({ where: { kind: "drop_notice" }, orderBy: { created_at: "asc" } });
    expect(mails.map((m) => m.to)).toEqual(["viewer@example.test", "buyer@example.test"]);
    expect(mails[0].subject).toMatch(/^Night Shift drops on /);
    expect(mails[0].text).toContain("Hello Vera,");
    expect(mails[0].text).toContain("- Drop Piece 705");
    expect(mails[0].text).toContain("- Drop Piece 706");
    expect(mails[0].html).toContain("<li>Drop Piece 706</li>");
    expect((await db.drop.findUniqueOrThrow({ where: { id } })).notified_at).not.toBeNull();

    // The email job delivers them to the outbox.
    await drain();
    expect(await db.emailOutbox.count({ where: { kind: "drop_notice", status: "sent" } })).toBe(2);
    const files = fs.readdirSync(path.join(app.dataDir, "outbox")).filter((f) => f.endsWith(".json"));
    const records = files.map((f) => JSON.parse(fs.readFileSync(path.join(app.dataDir, "outbox", f), "utf8")));
    expect(records.map((r) => r.to).sort()).toEqual(["buyer@example.test", "viewer@example.test"]);
  });

  it("notifies given emails instead, and refuses bad input", async () => {
    const res = await app.api("POST", `/drops/${id}/notify-active-users`, { token: manager.token, body: { emails: ["A@Example.test", "a@example.test", "b@example.test"] } });
    expect(res.body).toEqual({ queued: 2, skip: 0, limit: 100, total: 2 });
    const db = app.database.db;
    expect(await db.emailOutbox.count({ where: { kind: "drop_notice", to: { in: ["a@example.test", "b@example.test"] } } })).toBe(2);

    const badEmail = await app.api("POST", `/drops/${id}/notify-active-users`, { token: manager.token, body: { emails: ["not-an-email"] } });
    expect(badEmail.status).toBe(400);
    const badLimit = await app.api("POST", `/drops/${id}/notify-active-users`, { token: manager.token, body: { limit: 0 } });
    expect(badLimit.status).toBe(400);
    expect((await app.api("POST", `/drops/${id}/notify-active-users`, { token: editorOnly.token, body: {} })).status).toBe(403);

    const undated = await app.api("POST", "/drops", { token: manager.token, body: { name: "Someday" } });
    const refused = await app.api("POST", `/drops/${undated.body.id}/notify-active-users`, { token: manager.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("Set the drop's publish date before telling shoppers about it");
    expect((await app.api("POST", "/drops/none/notify-active-users", { token: manager.token, body: {} })).status).toBe(404);
  });
});
