/**
 * Job leases (app/jobs/queue.server.ts, worker.server.ts): a running job whose worker stopped
 * renewing its lease is taken over by the next claim, counting an attempt; a job that kills its
 * worker every time ends failed after max_attempts; a worker that lost its lease cannot complete,
 * fail or move the job afterwards; a live worker keeps its lease while the handler runs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createJobQueue, INTERRUPTED_ERROR } from "../../app/jobs/queue.server";
import { startWorker, withRecovery, type JobHandler } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { claimAsDeadWorker, expireLease } from "../helpers/jobs";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());
beforeEach(async () => {
  await app.database.db.job.deleteMany();
});

const job = (id: string) => app.database.db.job.findUniqueOrThrow({ where: { id } });

describe("job leases", () => {
  it("a running job is taken over only once its lease expired, as interrupted, counting an attempt", async () => {
    const { id } = await app.ctx.queue.enqueue("test.lease", { n: 1 });
    const dead = await claimAsDeadWorker(app, "test.lease", { expired: false });
    expect(dead).toMatchObject({ id, attempts: 1, interrupted: false });
    // Live lease: nobody else gets it.
    expect(await app.ctx.queue.claim("live", ["test.lease"])).toBeNull();
    await expireLease(app, id);
    const taken = await app.ctx.queue.claim("live", ["test.lease"]);
    expect(taken).toMatchObject({ id, attempts: 2, interrupted: true, locked_by: "live" });
    expect((await job(id)).locked_by).toBe("live");
  });

  it("a worker that lost its lease can neither complete, fail nor move the job; the new holder can", async () => {
    const { id } = await app.ctx.queue.enqueue("test.lost", {});
    const first = (await app.ctx.queue.claim("a", ["test.lost"]))!;
    await expireLease(app, id);
    const second = (await app.ctx.queue.claim("b", ["test.lost"]))!;
    expect(await app.ctx.queue.renew(first)).toBe(false);
    expect(await app.ctx.queue.progress(first, 80)).toBe(false);
    expect(await app.ctx.queue.complete(first, { by: "a" })).toBe(false);
    expect(await app.ctx.queue.fail(first, "late failure")).toEqual({ retrying: false, lost: true });
    expect(await job(id)).toMatchObject({ status: "running", locked_by: "b", progress: 0, error: null });

    expect(await app.ctx.queue.renew(second)).toBe(true);
    expect(await app.ctx.queue.complete(second, { by: "b" })).toBe(true);
    expect(await job(id)).toMatchObject({ status: "completed", result: { by: "b" } });
  });

  it("a job that kills its worker every time runs max_attempts times, then ends failed as interrupted (its rows closed once)", async () => {
    const runs: number[] = [];
    const closed: string[] = [];
    const handler: JobHandler = withRecovery(async () => void runs.push(1), {
      async onFailed(_payload, _ctx, error) {
        closed.push(error);
      },
    });
    const { id } = await app.ctx.queue.enqueue("test.crashy", {}, { maxAttempts: 2 });
    // Two runs, each dying part-way (their worker never comes back).
    for (let i = 0; i < 2; i++) await claimAsDeadWorker(app, "test.crashy");
    expect((await job(id)).attempts).toBe(2);

    expect(await startWorker(app.ctx, { "test.crashy": handler }, { autoStart: false }).drain()).toBe(1);
    expect(runs).toEqual([]); // no attempt left: not run a third time
    expect(await job(id)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR, attempts: 3, locked_by: null });
    expect(closed).toEqual([INTERRUPTED_ERROR]);
    expect(await startWorker(app.ctx, { "test.crashy": handler }, { autoStart: false }).drain()).toBe(0);
  });

  it("an interrupted job with attempts left runs again, told it was interrupted", async () => {
    const seen: (boolean | undefined)[] = [];
    const { id } = await app.ctx.queue.enqueue("test.resume", {}, { maxAttempts: 3 });
    await claimAsDeadWorker(app, "test.resume");
    await startWorker(app.ctx, { "test.resume": async (_p, _c, h) => void seen.push(h.interrupted) }, { autoStart: false }).drain();
    expect(seen).toEqual([true]);
    expect(await job(id)).toMatchObject({ status: "completed", attempts: 2 });
  });

  it("a live worker renews its lease while a long handler runs, so nobody takes the job over", async () => {
    const queue = createJobQueue(app.database.db, { leaseMs: 300 });
    const ctx = { ...app.ctx, queue };
    const { id } = await queue.enqueue("test.long", {});
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      const worker = startWorker(ctx, {
        "test.long": async () => {
          resolve();
          await new Promise<void>((r) => (release = r));
          return { finished: true };
        },
      }, { autoStart: false });
      void worker.drain();
    });
    await started;
    // Three lease periods later, the job is still held by the live worker.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await queue.claim("intruder", ["test.long"])).toBeNull();
    expect(await queue.leaseStats()).toEqual({ running: 1, expired: 0 });
    release();
    await expect.poll(async () => (await job(id)).status, { timeout: 5000, interval: 50 }).toBe("completed");
    expect((await job(id)).attempts).toBe(1);
  });

  it("dedupe answers a job that will still run, and enqueues anew over one whose worker died with no attempt left", async () => {
    const a = await app.ctx.queue.enqueue("test.sync", { s: 1 }, { dedupeKey: "test.sync:1", maxAttempts: 2 });
    await claimAsDeadWorker(app, "test.sync");
    // Dead, but the next claim restarts it (an attempt left): the same job answers.
    expect((await app.ctx.queue.enqueue("test.sync", { s: 1 }, { dedupeKey: "test.sync:1" })).id).toBe(a.id);
    await claimAsDeadWorker(app, "test.sync");
    expect(await app.ctx.queue.leaseStats()).toEqual({ running: 1, expired: 1 });
    // Dead on its last attempt: a later sync is not swallowed by it.
    const b = await app.ctx.queue.enqueue("test.sync", { s: 1 }, { dedupeKey: "test.sync:1" });
    expect(b.id).not.toBe(a.id);
    expect((await job(b.id)).status).toBe("queued");
  });

  it("/api/health shows running jobs and those whose lease expired (their worker died)", async () => {
    await app.ctx.queue.enqueue("test.health", {});
    await app.ctx.queue.enqueue("test.health", {});
    const dead = await claimAsDeadWorker(app, "test.health", { expired: false });
    await claimAsDeadWorker(app, "test.health", { expired: false, worker: "live-elsewhere" });
    await expireLease(app, dead.id);
    const res = await app.api("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body.worker.jobs).toEqual({ running: 2, expiredLeases: 1, leaseMs: app.ctx.queue.leaseMs });
    expect(res.body.worker.detail).toContain("1 job left by a worker that died");
  });
});
