/**
 * The inline worker's lanes (app/jobs/lanes.server.ts): image AI, admin-interactive work (Taobao
 * import, catalogue sync, inventory update, style categorisation) and background maintenance each
 * have a loop of their own, so a job an admin watches never waits behind a long indexing run.
 * Real queue and worker code on the test database; only the handlers are stand-ins that block on
 * a promise the test releases.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Prisma } from "@prisma/client";
import type { JobHandler, Worker } from "../../app/jobs/worker.server";
import { ADMIN_LANE_QUEUES, WORKER_LANES, laneOf, startWorkerLoops, type WorkerLane } from "../../app/jobs/lanes.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { TAOBAO_IMPORT_QUEUE } from "../../app/services/taobao-import/jobs.server";
import { CATALOG_SYNC_QUEUE } from "../../app/services/catalog-sync.server";
import { INVENTORY_QUEUE } from "../../app/services/catalog.server";
import { CATEGORISE_QUEUE } from "../../app/services/styles.server";
import { PRODUCT_INDEX_QUEUE } from "../../app/services/product-index.server";
import { REBUILD_QUEUE } from "../../app/services/recommendations/aggregates.server";
import { BACK_IN_STOCK_QUEUE, DROP_NOTIFICATIONS_QUEUE } from "../../app/services/notification-requests.server";
import { SEARCH_NOTIFICATIONS_QUEUE } from "../../app/services/search/notifications.server";
import { IMAGE_AI_JOBS, IMAGE_AI_RUN_JOB } from "../../app/services/image-ai/requests.server";
import { EMAIL_QUEUE, queueEmail } from "../../app/services/email.server";
import { IMAGE_PREWARM_QUEUE } from "../../app/services/image-prewarm.server";
import { createTestApp, type TestApp } from "../helpers/app";

/** Gates not yet released: released after each test, so a failing test cannot leave stop() waiting. */
const openGates = new Set<() => void>();

/** A promise the test settles: `started` once the handler runs, `release()` lets it finish. */
function gate() {
  let release!: () => void;
  let markStarted!: () => void;
  const released = new Promise<void>((r) => (release = r));
  // Fails instead of hanging when the handler never gets a loop to run on.
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the blocked job did not start within 10 s")), 10_000);
    markStarted = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  openGates.add(release);
  return { released, started, release, markStarted };
}

/** One representative queue per lane (the real queue names, so the real lane table decides). */
const QUEUE_OF: Record<WorkerLane, string> = { "image-ai": IMAGE_AI_RUN_JOB, admin: TAOBAO_IMPORT_QUEUE, email: EMAIL_QUEUE, background: PRODUCT_INDEX_QUEUE, media: IMAGE_PREWARM_QUEUE };

describe("worker lanes", () => {
  let app: TestApp;
  let worker: Worker | null = null;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());
  beforeEach(async () => {
    await app.database.db.job.deleteMany();
  });
  afterEach(async () => {
    for (const release of openGates) release();
    openGates.clear();
    await worker?.stop();
    worker = null;
  });

  const status = async (id: string) => (await app.database.db.job.findUniqueOrThrow({ where: { id } })).status;
  async function waitForStatus(id: string, want: string, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const s = await status(id);
      if (s === want) return;
      if (Date.now() > until) throw new Error(`job ${id} is ${s}, expected ${want} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Handlers for one queue per lane; the queue of `blockedLane` waits on the returned gate. */
  function handlersBlocking(blockedLane: WorkerLane) {
    const g = gate();
    const handlers: Record<string, JobHandler> = {};
    for (const lane of WORKER_LANES) {
      handlers[QUEUE_OF[lane]] =
        lane === blockedLane
          ? async (payload) => {
              g.markStarted();
              await g.released;
              return { lane, payload } as Prisma.InputJsonValue;
            }
          : async (payload) => ({ lane, payload }) as Prisma.InputJsonValue;
    }
    return { handlers, gate: g };
  }

  it("routes queues to lanes from one table: admin screens' jobs, image AI, everything else in the background", () => {
    expect(WORKER_LANES).toEqual(["image-ai", "admin", "email", "background", "media"]);
    expect(laneOf(EMAIL_QUEUE)).toBe("email");
    expect(laneOf(IMAGE_PREWARM_QUEUE)).toBe("media");
    for (const q of [TAOBAO_IMPORT_QUEUE, CATALOG_SYNC_QUEUE, INVENTORY_QUEUE, CATEGORISE_QUEUE]) expect(laneOf(q)).toBe("admin");
    for (const q of IMAGE_AI_JOBS) expect(laneOf(q)).toBe("image-ai");
    for (const q of [PRODUCT_INDEX_QUEUE, REBUILD_QUEUE, SEARCH_NOTIFICATIONS_QUEUE, BACK_IN_STOCK_QUEUE, DROP_NOTIFICATIONS_QUEUE, "system.ping", "a.queue-nobody-listed"]) {
      expect(laneOf(q)).toBe("background");
    }
    // Every queue the table names has a real handler (a renamed queue would silently fall back).
    for (const q of [...ADMIN_LANE_QUEUES, ...IMAGE_AI_JOBS, IMAGE_PREWARM_QUEUE]) expect(jobHandlers[q], q).toBeTypeOf("function");
  });

  it("an admin's import enqueued after a background job completes while the background job is still running; so does an image-AI job", async () => {
    const { handlers, gate: g } = handlersBlocking("background");
    const indexing = await app.ctx.queue.enqueue(PRODUCT_INDEX_QUEUE, { boot: true });
    worker = startWorkerLoops(app.ctx, handlers, { pollMs: 20 });
    await g.started;

    const imported = await app.ctx.queue.enqueue(TAOBAO_IMPORT_QUEUE, { importJobId: "imp-1" });
    await waitForStatus(imported.id, "completed");
    expect(await status(indexing.id)).toBe("running");

    const tryon = await app.ctx.queue.enqueue(IMAGE_AI_RUN_JOB, { requestId: "req-1" });
    await waitForStatus(tryon.id, "completed");
    expect(await status(indexing.id)).toBe("running");

    // The blocked job finishes once released.
    g.release();
    await waitForStatus(indexing.id, "completed");
    const done = await app.database.db.job.findUniqueOrThrow({ where: { id: indexing.id } });
    expect(done.result).toEqual({ lane: "background", payload: { boot: true } });
    expect((await app.database.db.job.findUniqueOrThrow({ where: { id: imported.id } })).result).toEqual({ lane: "admin", payload: { importJobId: "imp-1" } });
  });

  it("issue 20: an email of a fresh server is sent while the start-up indexing still runs (the real email.send handler)", async () => {
    const g = gate();
    const handlers: Record<string, JobHandler> = {
      ...jobHandlers,
      [PRODUCT_INDEX_QUEUE]: async () => {
        g.markStarted();
        await g.released;
        return { indexed: true };
      },
    };
    const indexing = await app.ctx.queue.enqueue(PRODUCT_INDEX_QUEUE, { boot: true });
    worker = startWorkerLoops(app.ctx, handlers, { pollMs: 20 });
    await g.started;

    const email = await queueEmail(app.ctx, { to: "ada@example.test", subject: "Reset your password", html: "<p>Hi</p>", text: "Hi", kind: "password_reset" });
    const job = await app.database.db.job.findFirstOrThrow({ where: { queue: EMAIL_QUEUE, payload: { equals: { emailId: email.id } } } });
    await waitForStatus(job.id, "completed");
    expect((await app.database.db.emailOutbox.findUniqueOrThrow({ where: { id: email.id } })).status).toBe("sent");
    expect(await status(indexing.id)).toBe("running");
    g.release();
    await waitForStatus(indexing.id, "completed");
  });

  it.each<WorkerLane>(["admin", "image-ai", "email", "media"])("a blocked %s job holds up neither of the other lanes, and completes after release", async (blockedLane) => {
    const { handlers, gate: g } = handlersBlocking(blockedLane);
    const blocked = await app.ctx.queue.enqueue(QUEUE_OF[blockedLane], { blocked: true });
    worker = startWorkerLoops(app.ctx, handlers, { pollMs: 20 });
    await g.started;

    for (const lane of WORKER_LANES.filter((l) => l !== blockedLane)) {
      const { id } = await app.ctx.queue.enqueue(QUEUE_OF[lane], { lane });
      await waitForStatus(id, "completed");
    }
    expect(await status(blocked.id)).toBe("running");
    g.release();
    await waitForStatus(blocked.id, "completed");
  });

  it("stop() waits for the job running in every lane", async () => {
    const gates = Object.fromEntries(WORKER_LANES.map((l) => [l, gate()])) as Record<WorkerLane, ReturnType<typeof gate>>;
    const handlers: Record<string, JobHandler> = {};
    for (const lane of WORKER_LANES) {
      handlers[QUEUE_OF[lane]] = async () => {
        gates[lane].markStarted();
        await gates[lane].released;
        return { lane };
      };
    }
    const ids: Record<string, string> = {};
    for (const lane of WORKER_LANES) ids[lane] = (await app.ctx.queue.enqueue(QUEUE_OF[lane], {})).id;
    const w = (worker = startWorkerLoops(app.ctx, handlers, { pollMs: 20 }));
    await Promise.all(WORKER_LANES.map((l) => gates[l].started));

    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    for (const lane of WORKER_LANES) {
      await new Promise((r) => setTimeout(r, 100));
      expect(stopped, `stop() returned while the ${lane} job was still running`).toBe(false);
      gates[lane].release();
    }
    await stopping;
    for (const lane of WORKER_LANES) expect(await status(ids[lane])).toBe("completed");

    // A stopped worker claims nothing more.
    const late = await app.ctx.queue.enqueue(TAOBAO_IMPORT_QUEUE, {});
    await new Promise((r) => setTimeout(r, 200));
    expect(await status(late.id)).toBe("queued");
  });

  it("drain() runs the jobs of every lane, including jobs one lane enqueues for another", async () => {
    const order: string[] = [];
    const handlers: Record<string, JobHandler> = {
      [IMAGE_AI_RUN_JOB]: async () => void order.push("image-ai"),
      // Like a catalogue sync, which asks for back-in-stock emails when it finishes.
      [CATALOG_SYNC_QUEUE]: async (_p, ctx) => {
        order.push("admin");
        await ctx.queue.enqueue(BACK_IN_STOCK_QUEUE, {});
      },
      [BACK_IN_STOCK_QUEUE]: async () => void order.push("background"),
    };
    await app.ctx.queue.enqueue(IMAGE_AI_RUN_JOB, {});
    await app.ctx.queue.enqueue(CATALOG_SYNC_QUEUE, { storeId: "s" });
    const w = startWorkerLoops(app.ctx, handlers, { autoStart: false });
    expect(await w.drain()).toBe(3);
    expect(order.sort()).toEqual(["admin", "background", "image-ai"]);
    expect(await app.database.db.job.count({ where: { status: { not: "completed" } } })).toBe(0);
    await w.stop();
  });
});
