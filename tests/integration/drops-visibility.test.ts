/**
 * What drops do to their products' visibility (docs/drops.md), through HTTP: a live product stays
 * live unless the drop holds live products back; withdrawing (remove, delete, cancel, unschedule,
 * hold back off, a product's own date cleared) restores what was before; the publish job and
 * Publish now make held products live; a past date is refused; one hold per product. The drop
 * status machine with every transition, allowed and refused. Upcoming drops and "Notify me".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let manager: { token: string };
let editor: { token: string };
let shopper: { token: string };

const gid = (n: number) => `gid://shopify/Product/${n}`;
const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY);
const LIVE_SINCE = new Date(Date.now() - 30 * DAY);
const PAST = "scheduled_publish_date must be in the future (to publish the drop at once, use Publish now)";
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

/** Live products 801–819, unpublished (new) products 851–869. */
const live = (n: number) => 800 + n;
const fresh = (n: number) => 850 + n;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  for (let i = 1; i <= 19; i++) {
    await db.product.create({ data: { id: gid(live(i)), title: `Live Piece ${i}`, handle: `live-piece-${i}`, productType: "Coat", priceMin: 80, priceMax: 90, publishedAt: LIVE_SINCE } });
    await db.product.create({ data: { id: gid(fresh(i)), title: `New Piece ${i}`, handle: `new-piece-${i}`, productType: "Coat", priceMin: 80, priceMax: 90, publishedAt: null } });
  }
  manager = await app.createUser({ role: "ADMIN", permissions: ["drops.manage", "catalog.edit"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  shopper = await app.createUser({ email: "shopper.drops@example.test" });
});
afterAll(() => app?.close());

const publishedAt = async (n: number) => (await app.database.db.product.findUniqueOrThrow({ where: { id: gid(n) } })).publishedAt;
/** Whether shoppers see the product (the public product read). */
const shown = async (n: number) => (await app.api("GET", `/products/${n}`)).status === 200;
const create = async (body: Record<string, unknown>) => {
  const res = await app.api("POST", "/drops", { token: manager.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string; scheduled_publish_date: string | null; hold_back_live: boolean };
};
const put = (id: string, body: Record<string, unknown>) => app.api("PUT", `/drops/${id}`, { token: manager.token, body: { name: "Drop", ...body } });
const schedule = (id: string, date: Date) => app.api("PUT", `/drops/${id}/scheduled-publish-date`, { token: manager.token, body: { scheduled_publish_date: date.toISOString() } });
const setProducts = (id: string, ids: number[]) => app.api("PUT", `/drops/${id}/companions`, { token: manager.token, body: { shopify_products_ids: ids.map(String) } });
const publishNow = (id: string, token = manager.token) => app.api("POST", `/drops/${id}/publish`, { token });

describe("a live product stays live", () => {
  it("added to a draft drop (no date): still visible, nothing held", async () => {
    const drop = await create({ name: "Draft With Live", shopify_products_ids: [String(live(1)), String(fresh(1))] });
    expect(drop).toMatchObject({ status: "draft", hold_back_live: false });
    expect(await shown(live(1))).toBe(true);
    expect((await publishedAt(live(1)))?.toISOString()).toBe(LIVE_SINCE.toISOString());
    expect(await publishedAt(fresh(1))).toBeNull();
    expect(await app.database.db.productPublishHold.count({ where: { drop_id: drop.id } })).toBe(0);
  });

  it("in a scheduled drop: the live product stays visible, the new one is held for the date", async () => {
    const date = inDays(10);
    const drop = await create({ name: "Scheduled With Live", shopify_products_ids: [String(live(2)), String(fresh(2))], scheduled_publish_date: date.toISOString() });
    expect(drop.status).toBe("scheduled");
    expect(await shown(live(2))).toBe(true);
    expect((await publishedAt(fresh(2)))?.toISOString()).toBe(date.toISOString());
    expect(await shown(fresh(2))).toBe(false);
    const holds = await app.database.db.productPublishHold.findMany({ where: { drop_id: drop.id } });
    expect(holds.map((h) => [h.product_id, h.prior_published_at])).toEqual([[gid(fresh(2)), null]]);
    // Adding another live product to the scheduled drop leaves it live too.
    expect((await setProducts(drop.id, [live(2), fresh(2), live(3)])).status).toBe(200);
    expect(await shown(live(3))).toBe(true);
  });
});

describe("hold back live products", () => {
  it("hides live products until the drop; turning it off makes them live again (new products stay held)", async () => {
    const date = inDays(12);
    const drop = await create({ name: "Held Back", hold_back_live: true, shopify_products_ids: [String(live(4)), String(fresh(4))], scheduled_publish_date: date.toISOString() });
    expect(drop.hold_back_live).toBe(true);
    expect(await shown(live(4))).toBe(false);
    expect((await publishedAt(live(4)))?.toISOString()).toBe(date.toISOString());

    const off = await put(drop.id, { name: "Held Back", hold_back_live: false });
    expect(off.status).toBe(200);
    expect(off.body.hold_back_live).toBe(false);
    expect(await shown(live(4))).toBe(true);
    expect((await publishedAt(live(4)))?.toISOString()).toBe(LIVE_SINCE.toISOString());
    expect((await publishedAt(fresh(4)))?.toISOString()).toBe(date.toISOString());

    const on = await put(drop.id, { name: "Held Back", hold_back_live: true });
    expect(on.body.hold_back_live).toBe(true);
    expect(await shown(live(4))).toBe(false);
  });

  it("on a draft drop: nothing is hidden until the drop gets a date", async () => {
    const drop = await create({ name: "Held Draft", hold_back_live: true, shopify_products_ids: [String(live(5))] });
    expect(await shown(live(5))).toBe(true);
    expect((await schedule(drop.id, inDays(5))).status).toBe(200);
    expect(await shown(live(5))).toBe(false);
  });
});

describe("withdrawing restores what was before", () => {
  it("removing products from a scheduled drop: a held live product is live again, a new one unpublished again", async () => {
    const date = inDays(9);
    const drop = await create({ name: "Remove", hold_back_live: true, shopify_products_ids: [String(live(6)), String(fresh(6)), String(live(7))], scheduled_publish_date: date.toISOString() });
    expect(await shown(live(6))).toBe(false);
    const res = await setProducts(drop.id, [live(7)]);
    expect(res.status).toBe(200);
    expect(await shown(live(6))).toBe(true);
    expect((await publishedAt(live(6)))?.toISOString()).toBe(LIVE_SINCE.toISOString());
    expect(await publishedAt(fresh(6))).toBeNull();
    const companion = await app.database.db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: gid(fresh(6)) } });
    expect(companion.scheduled_publish_date).toBeNull();
    expect(await shown(live(7))).toBe(false);
  });

  it("deleting a scheduled drop restores every product", async () => {
    const drop = await create({ name: "Delete Me", hold_back_live: true, shopify_products_ids: [String(live(8)), String(fresh(8))], scheduled_publish_date: inDays(4).toISOString() });
    expect(await shown(live(8))).toBe(false);
    expect((await app.api("DELETE", `/drops/${drop.id}`, { token: manager.token })).body).toEqual({ ok: true });
    expect(await shown(live(8))).toBe(true);
    expect((await publishedAt(live(8)))?.toISOString()).toBe(LIVE_SINCE.toISOString());
    expect(await publishedAt(fresh(8))).toBeNull();
    expect(await app.database.db.productPublishHold.count({ where: { product_id: { in: [gid(live(8)), gid(fresh(8))] } } })).toBe(0);
  });

  it("a product changed since (published by hand) is left alone", async () => {
    const drop = await create({ name: "Changed Since", shopify_products_ids: [String(fresh(9))], scheduled_publish_date: inDays(4).toISOString() });
    const byHand = new Date(Date.now() - 60_000);
    await app.database.db.product.update({ where: { id: gid(fresh(9)) }, data: { publishedAt: byHand } });
    await app.api("DELETE", `/drops/${drop.id}`, { token: manager.token });
    expect((await publishedAt(fresh(9)))?.toISOString()).toBe(byHand.toISOString());
  });

  it("a product's own date: set hides it, cleared (null) makes a live product live again; a past date is refused; publish-now", async () => {
    const C = "/shopify/companion/products";
    const date = inDays(3);
    const set = await app.api("PATCH", `${C}/${live(10)}/scheduled-publish`, { token: editor.token, body: { scheduled_publish_date: date.toISOString() } });
    expect(set.status).toBe(200);
    expect(await shown(live(10))).toBe(false);
    // Moving the date keeps what was before the first one.
    const moved = await app.api("PATCH", `${C}/${live(10)}/scheduled-publish`, { token: editor.token, body: { scheduled_publish_date: inDays(6).toISOString() } });
    expect(moved.status).toBe(200);
    const cleared = await app.api("PATCH", `${C}/${live(10)}/scheduled-publish`, { token: editor.token, body: { scheduled_publish_date: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ product_id: gid(live(10)), scheduled_publish_date: null, publishedAt: LIVE_SINCE.toISOString() });
    expect(await shown(live(10))).toBe(true);

    const past = await app.api("PATCH", `${C}/${fresh(10)}/scheduled-publish`, { token: editor.token, body: { scheduled_publish_date: new Date(Date.now() - 60_000).toISOString() } });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe("scheduled_publish_date must be in the future");
    expect(await shown(fresh(10))).toBe(false);
    const now = await app.api("POST", `${C}/${fresh(10)}/publish-now`, { token: editor.token });
    expect(now.status).toBe(200);
    expect(now.body.scheduled_publish_date).toBeNull();
    expect(new Date(now.body.publishedAt).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await shown(fresh(10))).toBe(true);
    expect((await app.api("POST", `${C}/424242/publish-now`, { token: editor.token })).status).toBe(404);
    expect((await app.api("POST", `${C}/${fresh(10)}/publish-now`, { token: shopper.token })).status).toBe(403);
    expect((await app.api("POST", `${C}/${fresh(10)}/publish-now`, { token: manager.token })).status).toBe(200);
  });

  it("a product held by a drop is changed through the drop: its own date, clearing and publish-now are refused", async () => {
    const C = "/shopify/companion/products";
    await create({ name: "Owner Drop", shopify_products_ids: [String(fresh(11))], scheduled_publish_date: inDays(8).toISOString() });
    const own = await app.api("PATCH", `${C}/${fresh(11)}/scheduled-publish`, { token: editor.token, body: { scheduled_publish_date: inDays(2).toISOString() } });
    expect(own.status).toBe(409);
    expect(own.body.error.message).toMatch(/^New Piece 11 is already scheduled to publish on .* by the drop “Owner Drop”: withdraw it there first$/);
    expect((await app.api("PATCH", `${C}/${fresh(11)}/scheduled-publish`, { token: editor.token, body: { scheduled_publish_date: null } })).status).toBe(409);
    expect((await app.api("POST", `${C}/${fresh(11)}/publish-now`, { token: editor.token })).status).toBe(409);
    expect(await shown(fresh(11))).toBe(false);
  });
});

describe("one hold per product", () => {
  it("a new product held by one scheduled drop cannot be scheduled by another; a live one can be in both", async () => {
    const a = await create({ name: "First Claim", shopify_products_ids: [String(fresh(12)), String(live(12))], scheduled_publish_date: inDays(7).toISOString() });
    const b = await create({ name: "Second Claim", shopify_products_ids: [String(fresh(12)), String(live(12))] });
    const refused = await schedule(b.id, inDays(9));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/^New Piece 12 is already scheduled to publish on .* by the drop “First Claim”: withdraw it there first$/);
    expect((await app.api("GET", `/drops/${b.id}`, { token: manager.token })).body.status).toBe("draft");
    // Creating a drop with a date that is refused leaves nothing behind.
    const before = await app.database.db.drop.count();
    const createRefused = await app.api("POST", "/drops", { token: manager.token, body: { name: "Third Claim", shopify_products_ids: [String(fresh(12))], scheduled_publish_date: inDays(3).toISOString() } });
    expect(createRefused.status).toBe(409);
    expect(await app.database.db.drop.count()).toBe(before);
    // Without the new product, the second drop schedules (the live one stays live).
    expect((await setProducts(b.id, [live(12)])).status).toBe(200);
    expect((await schedule(b.id, inDays(9))).status).toBe(200);
    expect(await shown(live(12))).toBe(true);
    // Once the first drop lets go, the second may take it.
    expect((await put(a.id, { name: "First Claim", status: "cancelled" })).status).toBe(200);
    expect((await setProducts(b.id, [live(12), fresh(12)])).status).toBe(200);
    expect((await publishedAt(fresh(12)))?.toISOString()).toBe((await app.api("GET", `/drops/${b.id}`, { token: manager.token })).body.scheduled_publish_date);
  });
});

describe("publishing", () => {
  it("the publish job makes the held products live when the date comes (even if the store did not)", async () => {
    const db = app.database.db;
    const drop = await create({ name: "Due Drop", hold_back_live: true, shopify_products_ids: [String(live(13)), String(fresh(13))], scheduled_publish_date: inDays(2).toISOString() });
    expect(await shown(live(13))).toBe(false);
    expect(await shown(fresh(13))).toBe(false);
    // The date comes; the store's own schedule has not published them (their read model still says later).
    const due = new Date(Date.now() - 1000);
    await db.drop.update({ where: { id: drop.id }, data: { scheduled_publish_date: due } });
    await db.productPublishHold.updateMany({ where: { drop_id: drop.id }, data: { publish_at: due } });
    await app.ctx.queue.enqueue("drops.publish-due", { dropId: drop.id });
    await drain();
    expect(await shown(live(13))).toBe(true);
    expect(await shown(fresh(13))).toBe(true);
    expect((await db.drop.findUniqueOrThrow({ where: { id: drop.id } })).status).toBe("published");
    expect(await db.productPublishHold.count({ where: { drop_id: drop.id } })).toBe(0);
    // Deleting a published drop leaves its products live.
    await app.api("DELETE", `/drops/${drop.id}`, { token: manager.token });
    expect(await shown(fresh(13))).toBe(true);
  });

  it("a past date is refused with a clear message; Publish now publishes a draft at once (live products untouched)", async () => {
    const drop = await create({ name: "Now Drop", shopify_products_ids: [String(live(14)), String(fresh(14))] });
    const past = await schedule(drop.id, new Date(Date.now() - DAY));
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe(PAST);
    const res = await publishNow(drop.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("published");
    expect(Math.abs(new Date(res.body.scheduled_publish_date).getTime() - Date.now())).toBeLessThan(60_000);
    expect(await shown(fresh(14))).toBe(true);
    expect((await publishedAt(live(14)))?.toISOString()).toBe(LIVE_SINCE.toISOString());
    // The publish job runs now: waiting shoppers are emailed (notifications tests), the public sees the drop.
    const job = await app.database.db.job.findFirstOrThrow({ where: { queue: "drops.publish-due", payload: { path: ["dropId"], equals: drop.id } } });
    expect(job.run_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await app.api("GET", `/drops/${drop.id}`)).status).toBe(200);
  });

  it("Publish now: refused without drops.manage, for unknown, published and cancelled drops", async () => {
    const drop = await create({ name: "Guarded" });
    expect((await publishNow(drop.id, editor.token)).status).toBe(403);
    expect((await app.api("POST", `/drops/${drop.id}/publish`)).status).toBe(401);
    expect((await publishNow("missing")).status).toBe(404);
    expect((await put(drop.id, { name: "Guarded", status: "cancelled" })).status).toBe(200);
    const cancelled = await publishNow(drop.id);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.message).toBe("This drop is cancelled; reopen it (status draft) before publishing it");
  });
});

describe("drop status: every transition", () => {
  const statusOf = async (id: string) => (await app.api("GET", `/drops/${id}`, { token: manager.token })).body.status as string;

  it("draft → scheduled → scheduled (new date: held products move) → draft → cancelled → draft (reopen without a future date)", async () => {
    const drop = await create({ name: "Walker", shopify_products_ids: [String(fresh(15))] });
    const first = inDays(5);
    expect((await schedule(drop.id, first)).body.status).toBe("scheduled");
    const second = inDays(6);
    expect((await schedule(drop.id, second)).body.scheduled_publish_date).toBe(second.toISOString());
    expect((await publishedAt(fresh(15)))?.toISOString()).toBe(second.toISOString());
    const unscheduled = await put(drop.id, { name: "Walker", status: "draft" });
    expect(unscheduled.body).toMatchObject({ status: "draft", scheduled_publish_date: null });
    expect(await publishedAt(fresh(15))).toBeNull();
    expect((await put(drop.id, { name: "Walker", status: "cancelled" })).body.status).toBe("cancelled");
    expect((await put(drop.id, { name: "Walker", status: "draft" })).body).toMatchObject({ status: "draft", scheduled_publish_date: null });
  });

  it("scheduled → cancelled (restores) → scheduled again (reopen with its future date: held again)", async () => {
    const date = inDays(11);
    const drop = await create({ name: "Reopen", hold_back_live: true, shopify_products_ids: [String(live(16))], scheduled_publish_date: date.toISOString() });
    expect((await put(drop.id, { name: "Reopen", status: "cancelled" })).body.status).toBe("cancelled");
    expect(await shown(live(16))).toBe(true);
    const refused = await schedule(drop.id, inDays(12));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This drop is cancelled; reopen it (status draft) before scheduling it");
    const reopened = await put(drop.id, { name: "Reopen", status: "draft" });
    expect(reopened.body).toMatchObject({ status: "scheduled", scheduled_publish_date: date.toISOString() });
    expect(await shown(live(16))).toBe(false);
  });

  it("draft → cancelled; scheduled → published (the date passes, on read); published refuses every change but deletion", async () => {
    const draft = await create({ name: "Short Lived" });
    expect((await put(draft.id, { name: "Short Lived", status: "cancelled" })).body.status).toBe("cancelled");

    const drop = await create({ name: "Goes Live", shopify_products_ids: [String(fresh(17))], scheduled_publish_date: inDays(1).toISOString() });
    await app.database.db.drop.update({ where: { id: drop.id }, data: { scheduled_publish_date: new Date(Date.now() - 1000) } });
    expect(await statusOf(drop.id)).toBe("published");
    for (const status of ["draft", "cancelled"]) {
      const r = await put(drop.id, { name: "Goes Live", status });
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe("This drop is already published; its status cannot change");
    }
    expect((await schedule(drop.id, inDays(3))).status).toBe(409);
    const again = await publishNow(drop.id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This drop is already published");
    expect((await put(drop.id, { name: "x", status: "published" })).status).toBe(400);
    expect((await app.api("DELETE", `/drops/${drop.id}`, { token: manager.token })).status).toBe(200);
  });
});

describe("upcoming drops and Notify me", () => {
  let announced: string;
  let draft: string;
  let published: string;

  beforeAll(async () => {
    announced = (await create({ name: "Aurora", description: "Long text", teaser: "Northern lights, in wool", image_url: "/uploads/aurora.jpg", shopify_products_ids: [String(live(18))], scheduled_publish_date: inDays(20).toISOString() })).id;
    await create({ name: "Borealis", description: "Only a description", scheduled_publish_date: inDays(21).toISOString() });
    draft = (await create({ name: "Secret Draft", teaser: "Hush" })).id;
    const cancelled = await create({ name: "Called Off", scheduled_publish_date: inDays(22).toISOString() });
    await put(cancelled.id, { name: "Called Off", status: "cancelled" });
    published = (await publishNow((await create({ name: "Already Out" })).id)).body.id;
  });

  it("lists announced drops (scheduled, date ahead) with name, date, teaser and image, to anyone; never drafts", async () => {
    const res = await app.api("GET", "/drops/upcoming");
    expect(res.status).toBe(200);
    const ours = res.body.drops.filter((d: { name: string }) => ["Aurora", "Borealis", "Secret Draft", "Called Off", "Already Out"].includes(d.name));
    expect(ours).toEqual([
      { id: announced, name: "Aurora", teaser: "Northern lights, in wool", image_url: "/uploads/aurora.jpg", scheduled_publish_date: expect.any(String), product_count: 1 },
      { id: expect.any(String), name: "Borealis", teaser: "Only a description", image_url: null, scheduled_publish_date: expect.any(String), product_count: 0 },
    ]);
    const dates = res.body.drops.map((d: { scheduled_publish_date: string }) => d.scheduled_publish_date);
    expect([...dates].sort()).toEqual(dates);
    expect(dates.every((d: string) => new Date(d).getTime() > Date.now())).toBe(true);
    expect((await app.api("GET", "/drops/upcoming", { token: shopper.token })).status).toBe(200);
  });

  it("a guest gives an email: one request per drop and address, emailed when the drop goes live", async () => {
    const db = app.database.db;
    const guest = await app.createUser({ authProvider: "guest" });
    const res = await app.api("POST", `/drops/${announced}/notify-me`, { token: guest.token, body: { email: "Guest.Fan@Example.test" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, drop_id: announced, email: "guest.fan@example.test" });
    const anonymous = await app.api("POST", `/drops/${announced}/notify-me`, { body: { email: "guest.fan@example.test" } });
    expect(anonymous.status).toBe(201);
    const rows = await db.notificationRequest.findMany({ where: { kind: "drop", drop_id: announced, email: "guest.fan@example.test" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "active", user_id: guest.id });

    // The drop goes live: the notifications job emails the address.
    await db.drop.update({ where: { id: announced }, data: { scheduled_publish_date: new Date(Date.now() - 1000) } });
    await app.ctx.queue.enqueue("drops.publish-due", { dropId: announced });
    await drain();
    const mails = await db.emailOutbox.findMany({ where: { kind: "drop_live", to: "guest.fan@example.test" } });
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Aurora is live");
    expect(mails[0].text).toContain("/api/notifications/unsubscribe/");
  });

  it("refuses a bad email, a draft, an unknown and a live drop", async () => {
    const bad = await app.api("POST", `/drops/${draft}/notify-me`, { body: { email: "not-an-email" } });
    expect(bad.status).toBe(400);
    expect((await app.api("POST", `/drops/${draft}/notify-me`, { body: {} })).status).toBe(400);
    const hidden = await app.api("POST", `/drops/${draft}/notify-me`, { body: { email: "a@example.test" } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe("Drop not found");
    expect((await app.api("POST", "/drops/nope/notify-me", { body: { email: "a@example.test" } })).status).toBe(404);
    const liveRes = await app.api("POST", `/drops/${published}/notify-me`, { body: { email: "a@example.test" } });
    expect(liveRes.status).toBe(409);
    expect(liveRes.body.error.message).toBe("This drop is already live");
  });

  it("teaser and hold back are saved through PUT; the teaser is at most 280 characters", async () => {
    const res = await put(draft, { name: "Secret Draft", teaser: "Soon", hold_back_live: true });
    expect(res.body).toMatchObject({ teaser: "Soon", hold_back_live: true });
    expect((await put(draft, { name: "Secret Draft", teaser: "x".repeat(281) })).status).toBe(400);
    expect((await app.api("PUT", `/drops/${draft}`, { token: editor.token, body: { name: "x", teaser: "y" } })).status).toBe(403);
  });
});
