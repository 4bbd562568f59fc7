/**
 * Crash recovery, one scenario per queue of the handler table (app/jobs/handlers.server.ts): a
 * worker claims the job and dies (at once, after part of the work, or after all of it but before
 * recording the outcome); once its lease has expired a live worker takes the job over and it ends
 * as it should, with nothing duplicated or half-made (one product per Taobao item, one email per
 * notification, one invitation per order…). A queue added to the table without a scenario here
 * fails the first test.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { INTERRUPTED_ERROR, type ClaimedJob } from "../../app/jobs/queue.server";
import { startWorker, type JobHandler } from "../../app/jobs/worker.server";
import type { AppContext } from "../../app/context.server";
import type { CommercePort } from "../../app/providers/commerce/port";
import { queueEmail } from "../../app/services/email.server";
import { getImageAiRequest, IMAGE_AI_POLL_JOB, IMAGE_AI_RUN_JOB, IMAGE_AI_WEBHOOK_JOB, registerImageAiTarget, startImageAiRequest } from "../../app/services/image-ai/requests.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi } from "../helpers/fake-image-ai";
import { claimAsDeadWorker, expireLease } from "../helpers/jobs";
import { createProduct, pgid } from "./products-fixtures";
import { generateImageCreatives } from "../../app/services/product-ads/creatives.server";
import type { ImageAiRouter } from "../../app/providers/image-ai/index.server";
import { DEMO_ITEM, seedStores } from "./taobao-fixtures";
import sharp from "sharp";
import { IMAGE_PREWARM_QUEUE } from "../../app/services/image-prewarm.server";

const hooks: { id: string; kind: string; error?: string }[] = [];
registerImageAiTarget("tool", {
  async completed(_ctx, req) {
    hooks.push({ id: req.id, kind: "completed" });
  },
  async failed(_ctx, req, error) {
    hooks.push({ id: req.id, kind: "failed", error });
  },
});

let app: TestApp;
let admin: { id: string; token: string };
let shopper: { id: string; token: string; email: string | null };
const fake = createFakeImageAi({ name: "fal", mode: "submitted" });
const db = () => app.database.db;

beforeAll(async () => {
  app = await createTestApp({ imageAi: fake });
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.edit", "catalog.sync", "ai.train"] });
  shopper = await app.createUser({ email: "crash.shopper@example.test", firstName: "Cora" });
});
afterAll(() => app?.close());
// Each scenario claims its own job: whatever earlier ones left queued is out of the way.
beforeEach(async () => {
  await db().job.updateMany({ where: { status: "queued" }, data: { status: "completed" } });
});

const only = (...queues: string[]): Record<string, JobHandler> => Object.fromEntries(queues.map((q) => [q, jobHandlers[q]]));
const jobByDedupe = async (key: string) => (await db().job.findUniqueOrThrow({ where: { dedupe_key: key } })).id;
const noop = async () => {};
const outboxFiles = (emailId: string) => {
  const dir = path.join(app.dataDir, "outbox");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(`-${emailId}.json`)) : [];
};
/** Every email of `kind` to `to`: one outbox row, delivered once. */
async function expectOneEmail(to: string, kind: string) {
  const rows = await db().emailOutbox.findMany({ where: { to, kind } });
  expect(rows, `${kind} emails to ${to}`).toHaveLength(1);
  expect(rows[0].status).toBe("sent");
  expect(outboxFiles(rows[0].id)).toHaveLength(1);
}

interface Scenario {
  /** Prepares the data and enqueues the job; answers its id. */
  enqueue(): Promise<string>;
  /** What the dead worker did before dying: nothing, all of the handler's work (not recorded), or part of it. */
  dead: "nothing" | "everything" | ((job: ClaimedJob) => Promise<void>);
  /** Queues the live worker runs (the job's own, and what it hands on to, e.g. email.send). */
  live?: string[];
  /** How the job ends (default completed). */
  ends?: "completed" | "failed";
  check(jobId: string): Promise<void>;
}

/** ads.creatives runs on a provider that answers at once; the file's own fake is fal-like (submitted). */
const adsFake = createFakeImageAi({ name: "local" });
let imageAiBefore: ImageAiRouter | null = null;

const scenarios: Record<string, Scenario> = {
  "system.ping": {
    enqueue: async () => (await app.ctx.queue.enqueue("system.ping", { n: 1 })).id,
    dead: "everything",
    check: async (id) => expect((await db().job.findUniqueOrThrow({ where: { id } })).result).toMatchObject({ pong: { n: 1 } }),
  },

  "email.send": {
    async enqueue() {
      const { id } = await queueEmail(app.ctx, { to: "mail.crash@example.test", subject: "Hello", html: "<p>Hello</p>", text: "Hello", kind: "crash_test" });
      return (await db().job.findFirstOrThrow({ where: { queue: "email.send", payload: { equals: { emailId: id } } } })).id;
    },
    // Delivered through the port, then died before marking the outbox row sent.
    dead: async (job) => {
      const row = await db().emailOutbox.findUniqueOrThrow({ where: { id: (job.payload as { emailId: string }).emailId } });
      await app.ctx.email.deliver({ id: row.id, to: row.to, subject: row.subject, html: row.html, text: row.text }, app.ctx.config.EMAIL_FROM);
    },
    check: () => expectOneEmail("mail.crash@example.test", "crash_test"),
  },

  "taobao.import": {
    async enqueue() {
      const { menswear } = await seedStores(app);
      const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: DEMO_ITEM, store_id: menswear.id } });
      expect(r.status).toBe(202);
      return jobByDedupe(`taobao.import:${r.body.jobs[0].id}`);
    },
    // The store accepted the product, then the process died before the companion was written
    // (and before the job recorded the product id: found by the variants' Taobao SKU codes).
    dead: async (job) => {
      let reached!: () => void;
      const created = new Promise<void>((r) => (reached = r));
      const commerce: CommercePort = Object.assign(Object.create(app.ctx.commerce) as CommercePort, {
        createProduct: async (input: Parameters<CommercePort["createProduct"]>[0]) => {
          await app.ctx.commerce.createProduct(input);
          reached();
          return new Promise<never>(() => {}); // never comes back: the process is gone
        },
      });
      const deadCtx: AppContext = { ...app.ctx, commerce };
      void jobHandlers["taobao.import"](job.payload, deadCtx, { progress: noop });
      await created;
      expect(await db().product.count({ where: { companion: null, variants: { some: { sku: { startsWith: `TB-${DEMO_ITEM}-` } } } } })).toBe(1);
    },
    async check(id) {
      const importJobId = ((await db().job.findUniqueOrThrow({ where: { id } })).payload as { importJobId: string }).importJobId;
      const importJob = await db().importJob.findUniqueOrThrow({ where: { id: importJobId } });
      expect(importJob).toMatchObject({ status: "completed", attempts: 2, error_message: null });
      const products = await db().product.findMany({ where: { variants: { some: { sku: { startsWith: `TB-${DEMO_ITEM}-` } } } }, include: { companion: true } });
      expect(products).toHaveLength(1);
      expect(products[0].companion?.taobao_id).toBe(DEMO_ITEM);
      expect(importJob.product_id).toBe(products[0].id);
      expect(JSON.stringify(importJob.result)).toContain("half-made by an interrupted run was removed");
    },
  },

  "catalog.sync": {
    async enqueue() {
      const { other } = await seedStores(app);
      for (const n of [8101, 8102, 8103]) await createProduct(db(), { n, title: `Synced Tee ${n}`, storeId: other.id, vendor: other.name });
      const r = await app.api("POST", `/catalog-sync/stores/${other.id}/sync`, { token: admin.token });
      expect(r.status).toBe(202);
      return r.body.jobId;
    },
    dead: "everything",
    async check(id) {
      const job = await db().job.findUniqueOrThrow({ where: { id } });
      const storeId = (job.payload as { storeId: string }).storeId;
      expect(await db().product.count({ where: { store_id: storeId } })).toBe(3);
      expect(await db().product.count({ where: { title: { startsWith: "Synced Tee" } } })).toBe(3);
      expect(job.result).toMatchObject({ removed: 0 });
    },
  },

  "products.inventory-sync": {
    enqueue: async () => (await app.ctx.queue.enqueue("products.inventory-sync", { outOfStockOnly: false })).id,
    dead: "everything",
    check: async (id) => expect((await db().job.findUniqueOrThrow({ where: { id } })).status).toBe("completed"),
  },

  "styles.categorise": {
    async enqueue() {
      await createProduct(db(), { n: 8201, title: "Style Shirt", productType: "Shirts" });
      const style = await db().style.create({ data: { name: "Crash Style", handle: `crash-style-${Date.now()}`, categorisation_status: "processing", products: { create: [{ product_id: pgid(8201) }] } } });
      return (await app.ctx.queue.enqueue("styles.categorise", { styleId: style.id })).id;
    },
    dead: "nothing",
    async check(id) {
      const styleId = ((await db().job.findUniqueOrThrow({ where: { id } })).payload as { styleId: string }).styleId;
      expect((await db().style.findUniqueOrThrow({ where: { id: styleId } })).categorisation_status).toBe("completed");
    },
  },

  "drops.publish-due": {
    async enqueue() {
      await createProduct(db(), { n: 8301, title: "Drop Jacket" });
      const drop = await db().drop.create({ data: { name: "Crash Drop", status: "scheduled", scheduled_publish_date: new Date(Date.now() + 60_000), shopify_products_ids: [pgid(8301)] } });
      const r = await app.api("POST", "/users/notification-requests/drop", { token: shopper.token, body: { drop_id: drop.id } });
      expect(r.status).toBe(201);
      await db().drop.update({ where: { id: drop.id }, data: { scheduled_publish_date: new Date(Date.now() - 1000) } });
      return (await app.ctx.queue.enqueue("drops.publish-due", {})).id;
    },
    dead: "everything",
    live: ["drops.publish-due", "notifications.drop", "email.send"],
    async check() {
      expect((await db().drop.findFirstOrThrow({ where: { name: "Crash Drop" } })).status).toBe("published");
      // The dead run's notification job and the live run's: one email all the same.
      await startWorker(app.ctx, only("notifications.drop", "email.send"), { autoStart: false }).drain();
      await expectOneEmail(shopper.email!, "drop_live");
    },
  },

  "notifications.drop": {
    async enqueue() {
      const drop = await db().drop.create({ data: { name: "Live Crash Drop", status: "published", scheduled_publish_date: new Date(Date.now() - 1000), shopify_products_ids: [] } });
      await db().notificationRequest.create({ data: { kind: "drop", user_id: shopper.id, email: "drop.crash@example.test", drop_id: drop.id, status: "active" } });
      return (await app.ctx.queue.enqueue("notifications.drop", {})).id;
    },
    dead: "everything",
    live: ["notifications.drop", "email.send"],
    check: () => expectOneEmail("drop.crash@example.test", "drop_live"),
  },

  "notifications.back-in-stock": {
    async enqueue() {
      await createProduct(db(), { n: 8401, title: "Restocked Parka", inventory: 5 });
      await db().notificationRequest.create({ data: { kind: "back_in_stock", user_id: shopper.id, email: "stock.crash@example.test", product_id: pgid(8401), status: "active" } });
      return (await app.ctx.queue.enqueue("notifications.back-in-stock", {})).id;
    },
    dead: "everything",
    live: ["notifications.back-in-stock", "email.send"],
    check: () => expectOneEmail("stock.crash@example.test", "back_in_stock"),
  },

  "reviews.request": {
    async enqueue() {
      await createProduct(db(), { n: 8501, title: "Reviewed Coat" });
      await db().order.create({
        data: {
          id: "gid://shopify/Order/8501",
          name: "#8501",
          user_id: shopper.id,
          email: "review.crash@example.test",
          total_price: 50,
          items: { create: [{ id: "gid://shopify/LineItem/85010", product_id: pgid(8501), title: "Reviewed Coat", variant_title: "Black / M", quantity: 1, price: 50, status: "delivered" }] },
        },
      });
      return (await app.ctx.queue.enqueue("reviews.request", { orderId: "gid://shopify/Order/8501" })).id;
    },
    dead: "everything",
    live: ["reviews.request", "email.send"],
    async check(id) {
      expect((await db().job.findUniqueOrThrow({ where: { id } })).result).toMatchObject({ status: "already-sent" });
      expect(await db().reviewInvitation.count({ where: { order_id: "gid://shopify/Order/8501" } })).toBe(1);
      await expectOneEmail("review.crash@example.test", "review_request");
    },
  },

  "recommendations.rebuild": {
    enqueue: async () => (await app.ctx.queue.enqueue("recommendations.rebuild", {})).id,
    dead: "everything",
    check: async (id) => expect((await db().job.findUniqueOrThrow({ where: { id } })).result).toMatchObject({ popularity: expect.any(Number) }),
  },

  "ads.sync-metrics": {
    async enqueue() {
      const vendor = await db().vendor.create({ data: { name: "Crash Metrics", handle: "crash-metrics" } });
      await createProduct(db(), { n: 8951, title: "Crash Metrics Shirt", vendorId: vendor.id });
      const ad = await db().productAd.create({ data: { product_id: pgid(8951), vendor_id: vendor.id, title: "Crash metrics", status: "LIVE", media_urls: ["https://cdn.example.test/a.jpg"] } });
      await db().productAd.update({ where: { id: ad.id }, data: { meta_campaign_id: `local-campaign-${ad.id}`, meta_adset_id: `local-adset-${ad.id}`, meta_creative_id: `local-creative-${ad.id}`, meta_ad_id: `local-ad-${ad.id}` } });
      await db().productAdEvent.create({ data: { ad_id: ad.id, kind: "publish", from_status: "APPROVED", to_status: "LIVE", created_at: new Date(Date.now() - 6 * 86_400_000) } });
      const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
      return (await app.ctx.queue.enqueue("ads.sync-metrics", { from: day(4), to: day(1), adIds: [ad.id] })).id;
    },
    // The dead run stored every day and the totals, then died before recording the outcome.
    dead: "everything",
    async check(id) {
      const ad = await db().productAd.findFirstOrThrow({ where: { title: "Crash metrics" } });
      const rows = await db().productAdMetricDaily.findMany({ where: { ad_id: ad.id } });
      // One row per day (the upsert on (ad_id, date)), totals the sum of those rows, not twice it.
      expect(rows).toHaveLength(4);
      expect(ad.impressions).toBe(rows.reduce((s, r) => s + r.impressions, 0));
      expect(ad.spend.toFixed(2)).toBe(rows.reduce((s, r) => s + Number(r.spend), 0).toFixed(2));
      expect((await db().job.findUniqueOrThrow({ where: { id } })).result).toMatchObject({ total: 1, done: 1, rows: 4 });
    },
  },

  "search-notifications.check": {
    async enqueue() {
      const hourAgo = new Date(Date.now() - 3_600_000);
      await db().notificationRequest.create({
        data: { kind: "search", user_id: shopper.id, email: "search.crash@example.test", search_id: "s_crash", search_query: "", search_filters: {}, status: "active", checked_until: hourAgo },
      });
      const recent = new Date(Date.now() - 60_000);
      await createProduct(db(), { n: 8601, title: "Fresh Linen Shirt", publishedAt: recent, createdAt: recent });
      return (await app.ctx.queue.enqueue("search-notifications.check", { reason: "test" })).id;
    },
    dead: "everything",
    live: ["search-notifications.check", "email.send"],
    check: () => expectOneEmail("search.crash@example.test", "search_notification"),
  },

  // Variants already made by the dead worker are found in the cache: none is encoded twice.
  [IMAGE_PREWARM_QUEUE]: {
    async enqueue() {
      const jpeg = await sharp({ create: { width: 480, height: 640, channels: 3, background: "#6b4f3a" } }).jpeg().toBuffer();
      await app.ctx.storage.put("images/crash/warm.jpg", new Uint8Array(jpeg), "image/jpeg");
      return (await app.ctx.queue.enqueue(IMAGE_PREWARM_QUEUE, { urls: ["/uploads/images/crash/warm.jpg"], profile: "media" })).id;
    },
    dead: "everything",
    check: async (id) => expect((await db().job.findUniqueOrThrow({ where: { id } })).result).toEqual({ images: 1, made: 0, cached: 2, skipped: 0 }),
  },

  "privacy.sweep-exports": {
    enqueue: async () => (await app.ctx.queue.enqueue("privacy.sweep-exports", {})).id,
    dead: "everything",
    check: async (id) => expect((await db().job.findUniqueOrThrow({ where: { id } })).result).toEqual({ expired: 0 }),
  },

  "products.index": {
    async enqueue() {
      await createProduct(db(), { n: 8701, title: "Indexed Knit", images: 0 });
      return (await app.ctx.queue.enqueue("products.index", { productIds: [pgid(8701)] })).id;
    },
    dead: "everything",
    check: async (id) => expect((await db().job.findUniqueOrThrow({ where: { id } })).status).toBe("completed"),
  },

  [IMAGE_AI_RUN_JOB]: {
    // Never submitted to the provider: failed as interrupted rather than run again (recovery.server.ts).
    async enqueue() {
      const req = await startImageAiRequest(app.ctx, { operation: "seedream-v4-edit", input: { image_urls: ["/uploads/images/a.png"], prompt: "crash run" }, userId: admin.id, target: { type: "tool", id: "crash-run" } });
      return (await db().job.findFirstOrThrow({ where: { queue: IMAGE_AI_RUN_JOB, payload: { path: ["requestId"], equals: req.id } } })).id;
    },
    dead: "nothing",
    ends: "failed",
    async check(id) {
      const requestId = ((await db().job.findUniqueOrThrow({ where: { id } })).payload as { requestId: string }).requestId;
      expect(await getImageAiRequest(app.ctx, requestId)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
      expect(hooks.filter((h) => h.id === requestId)).toEqual([{ id: requestId, kind: "failed", error: INTERRUPTED_ERROR }]);
    },
  },

  [IMAGE_AI_POLL_JOB]: {
    async enqueue() {
      const req = await startImageAiRequest(app.ctx, { operation: "seedream-v4-edit", input: { image_urls: ["/uploads/images/a.png"], prompt: "crash poll" }, userId: admin.id, target: { type: "tool", id: "crash-poll" } });
      await startWorker(app.ctx, only(IMAGE_AI_RUN_JOB), { autoStart: false }).drain();
      fake.failRequest(fake.submitted.at(-1), "The provider gave up");
      const poll = await db().job.findFirstOrThrow({ where: { queue: IMAGE_AI_POLL_JOB, payload: { path: ["requestId"], equals: req.id } } });
      await db().job.update({ where: { id: poll.id }, data: { run_at: new Date(Date.now() - 1000) } });
      return poll.id;
    },
    dead: "everything",
    async check(id) {
      const requestId = ((await db().job.findUniqueOrThrow({ where: { id } })).payload as { requestId: string }).requestId;
      expect(await getImageAiRequest(app.ctx, requestId)).toMatchObject({ status: "failed", error: "The provider gave up" });
      expect(hooks.filter((h) => h.id === requestId)).toHaveLength(1);
    },
  },

  "ads.creatives": {
    async enqueue() {
      imageAiBefore = app.ctx.imageAi;
      adsFake.attachStorage(app.ctx.storage);
      app.ctx.imageAi = { providerFor: () => adsFake, providers: { local: adsFake } };
      const vendor = await db().vendor.create({ data: { name: "Crash Ads", handle: "crash-ads" } });
      await createProduct(db(), { n: 8901, title: "Crash Ad Shirt", vendorId: vendor.id });
      const ad = await db().productAd.create({ data: { product_id: pgid(8901), vendor_id: vendor.id, title: "" } });
      return (await generateImageCreatives(app.ctx, ad.id, { kinds: ["product_shot"], count: 3 })).jobId;
    },
    // The dead run made and recorded the first candidate, then died.
    dead: async (job) => {
      const first = (job.payload as { items: Array<{ creativeId: string }> }).items[0].creativeId;
      await db().productAdCreative.update({ where: { id: first }, data: { status: "ready", image_url: "/uploads/images/ai/dead-run.png" } });
    },
    async check(id) {
      if (imageAiBefore) app.ctx.imageAi = imageAiBefore;
      const items = ((await db().job.findUniqueOrThrow({ where: { id } })).payload as { items: Array<{ creativeId: string }> }).items;
      const rows = await db().productAdCreative.findMany({ where: { job_id: id } });
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.status === "ready")).toBe(true);
      expect(rows.find((r) => r.id === items[0].creativeId)?.image_url).toBe("/uploads/images/ai/dead-run.png");
      // Only the two candidates the dead run had not made were made by the live one.
      expect(adsFake.submits).toHaveLength(2);
    },
  },

  [IMAGE_AI_WEBHOOK_JOB]: {
    async enqueue() {
      const req = await startImageAiRequest(app.ctx, { operation: "seedream-v4-edit", input: { image_urls: ["/uploads/images/a.png"], prompt: "crash webhook" }, userId: admin.id, target: { type: "tool", id: "crash-webhook" } });
      await startWorker(app.ctx, only(IMAGE_AI_RUN_JOB), { autoStart: false }).drain();
      await db().job.updateMany({ where: { queue: IMAGE_AI_POLL_JOB, status: "queued" }, data: { status: "completed" } });
      return (await app.ctx.queue.enqueue(IMAGE_AI_WEBHOOK_JOB, { requestId: req.id, providerRequestId: fake.submitted.at(-1), outcome: { state: "failed", error: "Webhook says no" } })).id;
    },
    dead: "everything",
    async check(id) {
      const requestId = ((await db().job.findUniqueOrThrow({ where: { id } })).payload as { requestId: string }).requestId;
      expect(await getImageAiRequest(app.ctx, requestId)).toMatchObject({ status: "failed", error: "Webhook says no" });
      expect(hooks.filter((h) => h.id === requestId)).toHaveLength(1);
    },
  },
};

describe("every job recovers after its worker died", () => {
  it("every queue of the handler table has a crash scenario", () => {
    expect(Object.keys(scenarios).sort()).toEqual(Object.keys(jobHandlers).sort());
  });

  for (const [queue, s] of Object.entries(scenarios)) {
    it(`${queue}: taken over after the lease expired, finished with nothing duplicated`, async () => {
      const jobId = await s.enqueue();
      const dead = await claimAsDeadWorker(app, queue, { expired: false });
      expect(dead.id).toBe(jobId);
      if (s.dead === "everything") await jobHandlers[queue](dead.payload, app.ctx, { progress: noop });
      else if (s.dead !== "nothing") await s.dead(dead);
      expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("running");

      await expireLease(app, jobId);
      await startWorker(app.ctx, only(...(s.live ?? [queue, "email.send"])), { autoStart: false }).drain();
      const job = await db().job.findUniqueOrThrow({ where: { id: jobId } });
      expect(job, job.error ?? "").toMatchObject({ status: s.ends ?? "completed", attempts: 2, locked_by: null });
      await s.check(jobId);
    });
  }
});

describe("rows that show work running follow the job", () => {
  const submit = (storeId: string, item: string) => app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: item, store_id: storeId } });
  const ITEM = "720394008919";

  it("an import whose worker died on its last attempt ends failed as interrupted, and the item can be imported again", async () => {
    const { menswear } = await seedStores(app);
    const first = await submit(menswear.id, ITEM);
    const importJobId = first.body.jobs[0].id as string;
    const jobId = await jobByDedupe(`taobao.import:${importJobId}`);
    await db().job.update({ where: { id: jobId }, data: { max_attempts: 1 } });
    const dead = await claimAsDeadWorker(app, "taobao.import", { expired: false });
    await db().importJob.update({ where: { id: importJobId }, data: { status: "running", attempts: 1, step: "images" } });

    // While its lease is live, the item is being imported.
    const meanwhile = await submit(menswear.id, ITEM);
    expect(meanwhile.body.jobs[0]).toMatchObject({ status: "failed", error_message: "This Taobao item is already being imported by another job" });

    await expireLease(app, dead.id);
    await startWorker(app.ctx, only("taobao.import"), { autoStart: false }).drain();
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
    expect(await db().importJob.findUniqueOrThrow({ where: { id: importJobId } })).toMatchObject({ status: "failed", error_message: INTERRUPTED_ERROR });

    const again = await submit(menswear.id, ITEM);
    expect(again.body.jobs[0].status).toBe("queued");
    await startWorker(app.ctx, only("taobao.import"), { autoStart: false }).drain();
    expect((await db().importJob.findUniqueOrThrow({ where: { id: again.body.jobs[0].id } })).status).toBe("completed");
    expect(await db().productCompanion.count({ where: { taobao_id: ITEM } })).toBe(1);
  });

  it("an import row left running with no live job behind it does not block the item: it is closed as interrupted", async () => {
    const { menswear } = await seedStores(app);
    const stuck = await db().importJob.create({ data: { taobao_product_id: "720394001002", store_id: menswear.id, store_name: menswear.name, status: "running", step: "create", attempts: 1 } });
    await db().$executeRawUnsafe(`UPDATE import_jobs SET updated_at = updated_at - interval '2 hours' WHERE id = $1`, stuck.id);
    const r = await submit(menswear.id, "720394001002");
    expect(r.body.jobs[0].status).toBe("queued");
    expect(await db().importJob.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({ status: "failed", error_message: INTERRUPTED_ERROR });
  });

  it("ad creatives whose job died on its last attempt are closed as failed, not left queued", async () => {
    const vendor = await db().vendor.create({ data: { name: "Crash Ads Last", handle: "crash-ads-last" } });
    await createProduct(db(), { n: 8902, title: "Last Attempt Shirt", vendorId: vendor.id });
    const ad = await db().productAd.create({ data: { product_id: pgid(8902), vendor_id: vendor.id, title: "" } });
    const { jobId } = await generateImageCreatives(app.ctx, ad.id, { kinds: ["product_shot"], count: 2 });
    await db().job.update({ where: { id: jobId }, data: { max_attempts: 1 } });
    await claimAsDeadWorker(app, "ads.creatives");
    await startWorker(app.ctx, only("ads.creatives"), { autoStart: false }).drain();
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
    const rows = await db().productAdCreative.findMany({ where: { job_id: jobId } });
    expect(rows.map((r) => [r.status, r.error])).toEqual([
      ["failed", INTERRUPTED_ERROR],
      ["failed", INTERRUPTED_ERROR],
    ]);
  });

  it("a catalogue sync whose worker died on its last attempt does not swallow the next sync of the store", async () => {
    const { other } = await seedStores(app);
    const sync = () => app.api("POST", `/catalog-sync/stores/${other.id}/sync`, { token: admin.token });
    const first = (await sync()).body.jobId as string;
    for (let i = 0; i < 3; i++) await claimAsDeadWorker(app, "catalog.sync"); // max_attempts 3, each run killed
    const second = (await sync()).body.jobId as string;
    expect(second).not.toBe(first);
    await startWorker(app.ctx, only("catalog.sync"), { autoStart: false }).drain();
    expect((await db().job.findUniqueOrThrow({ where: { id: first } })).status).toBe("failed");
    expect((await db().job.findUniqueOrThrow({ where: { id: second } })).status).toBe("completed");
    expect((await app.api("GET", `/catalog-sync/jobs/${second}`, { token: admin.token })).body.status).toBe("completed");
  });
});
