import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db.server";
import { backoffMs, createJobQueue } from "../../app/jobs/queue.server";
import { startWorker, type JobHandler } from "../../app/jobs/worker.server";
import { createTestApp, type TestApp } from "../helpers/app";

describe("job queue", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());
  beforeEach(async () => {
    await app.database.db.job.deleteMany();
  });

  const job = (id: string) => app.database.db.job.findUniqueOrThrow({ where: { id } });

  it("enqueues, claims and completes a job", async () => {
    const { id } = await app.ctx.queue.enqueue("test.echo", { hello: "world" });
    const queued = await job(id);
    expect(queued.status).toBe("queued");
    expect(queued.attempts).toBe(0);
    expect(queued.max_attempts).toBe(5);

    const claimed = await app.ctx.queue.claim("worker-a", ["test.echo"]);
    expect(claimed).toMatchObject({ id, queue: "test.echo", payload: { hello: "world" }, attempts: 1, max_attempts: 5 });
    const running = await job(id);
    expect(running.status).toBe("running");
    expect(running.locked_by).toBe("worker-a");
    expect(running.locked_at).not.toBeNull();

    // A running job is not handed out twice.
    expect(await app.ctx.queue.claim("worker-b", ["test.echo"])).toBeNull();

    await app.ctx.queue.progress(id, 42.4);
    expect((await job(id)).progress).toBe(42);
    await app.ctx.queue.complete(id, { answer: 42 });
    const done = await job(id);
    expect(done.status).toBe("completed");
    expect(done.progress).toBe(100);
    expect(done.result).toEqual({ answer: 42 });
    expect(done.completed_at).not.toBeNull();
    expect(done.locked_by).toBeNull();
  });

  it("claims only the queues asked for, oldest run_at first", async () => {
    const later = await app.ctx.queue.enqueue("test.a", { n: 2 }, { runAt: new Date(Date.now() - 1_000) });
    const earlier = await app.ctx.queue.enqueue("test.a", { n: 1 }, { runAt: new Date(Date.now() - 60_000) });
    await app.ctx.queue.enqueue("test.other", { n: 3 });

    expect(await app.ctx.queue.claim("w", [])).toBeNull();
    expect((await app.ctx.queue.claim("w", ["test.a"]))?.id).toBe(earlier.id);
    expect((await app.ctx.queue.claim("w", ["test.a"]))?.id).toBe(later.id);
    expect(await app.ctx.queue.claim("w", ["test.a"])).toBeNull();
  });

  it("concurrent claims never hand out the same job twice", async () => {
    const enqueued = new Set<string>();
    for (let i = 0; i < 6; i++) enqueued.add((await app.ctx.queue.enqueue("test.race", { i })).id);
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => app.ctx.queue.claim(`w${i}`, ["test.race"])));
    const got = claims.filter((c) => c !== null).map((c) => c!.id);
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBeLessThanOrEqual(6);
    // Whatever a contended claim skipped is still there for the next one.
    for (;;) {
      const c = await app.ctx.queue.claim("late", ["test.race"]);
      if (!c) break;
      expect(got).not.toContain(c.id);
      got.push(c.id);
    }
    expect(new Set(got)).toEqual(enqueued);
  });

  it("skips jobs whose run_at is in the future", async () => {
    const { id } = await app.ctx.queue.enqueue("test.future", {}, { runAt: new Date(Date.now() + 3_600_000) });
    expect(await app.ctx.queue.claim("w", ["test.future"])).toBeNull();
    expect((await job(id)).status).toBe("queued");

    await app.database.db.job.update({ where: { id }, data: { run_at: new Date(Date.now() - 1_000) } });
    expect((await app.ctx.queue.claim("w", ["test.future"]))?.id).toBe(id);
  });

  it("retries a failed job with backoff until max_attempts, then marks it failed", async () => {
    const { id } = await app.ctx.queue.enqueue("test.flaky", { x: 1 }, { maxAttempts: 3 });

    for (let attempt = 1; attempt <= 2; attempt++) {
      const claimed = await app.ctx.queue.claim("w", ["test.flaky"]);
      expect(claimed?.attempts).toBe(attempt);
      const before = Date.now();
      expect(await app.ctx.queue.fail(claimed!, `boom ${attempt}`)).toEqual({ retrying: true });
      const row = await job(id);
      expect(row.status).toBe("queued");
      expect(row.error).toBe(`boom ${attempt}`);
      expect(row.locked_by).toBeNull();
      // Backoff grows with each attempt and puts the job in the future.
      expect(row.run_at.getTime()).toBeGreaterThanOrEqual(before + backoffMs(attempt) - 50);
      expect(row.run_at.getTime()).toBeLessThanOrEqual(Date.now() + backoffMs(attempt) + 50);
      expect(await app.ctx.queue.claim("w", ["test.flaky"])).toBeNull();
      // Fast-forward past the backoff.
      await app.database.db.job.update({ where: { id }, data: { run_at: new Date(Date.now() - 1_000) } });
    }

    const last = await app.ctx.queue.claim("w", ["test.flaky"]);
    expect(last?.attempts).toBe(3);
    expect(await app.ctx.queue.fail(last!, "boom 3")).toEqual({ retrying: false });
    const row = await job(id);
    expect(row.status).toBe("failed");
    expect(row.error).toBe("boom 3");
    expect(row.completed_at).not.toBeNull();
    expect(await app.ctx.queue.claim("w", ["test.flaky"])).toBeNull();
  });

  it("backoff doubles and is capped at ten minutes", () => {
    expect(backoffMs(1)).toBe(2_000);
    expect(backoffMs(2)).toBe(4_000);
    expect(backoffMs(3)).toBe(8_000);
    expect(backoffMs(30)).toBe(600_000);
  });

  it("returns the same job for a dedupeKey while it is queued or running, a new one after", async () => {
    const a = await app.ctx.queue.enqueue("test.dedupe", { n: 1 }, { dedupeKey: "sync:store-1" });
    const b = await app.ctx.queue.enqueue("test.dedupe", { n: 2 }, { dedupeKey: "sync:store-1" });
    expect(b.id).toBe(a.id);
    expect(await app.database.db.job.count({ where: { queue: "test.dedupe" } })).toBe(1);

    const claimed = await app.ctx.queue.claim("w", ["test.dedupe"]);
    expect(claimed?.id).toBe(a.id);
    const c = await app.ctx.queue.enqueue("test.dedupe", { n: 3 }, { dedupeKey: "sync:store-1" });
    expect(c.id).toBe(a.id);

    await app.ctx.queue.complete(a.id);
    const d = await app.ctx.queue.enqueue("test.dedupe", { n: 4 }, { dedupeKey: "sync:store-1" });
    expect(d.id).not.toBe(a.id);
    expect((await job(d.id)).payload).toEqual({ n: 4 });
    // The finished job keeps its history but releases the key.
    expect((await job(a.id)).dedupe_key).toBeNull();
    expect((await job(d.id)).dedupe_key).toBe("sync:store-1");
  });

  it("concurrent enqueues with one dedupeKey make one job and all get its id", async () => {
    for (let round = 0; round < 3; round++) {
      const key = `race-${round}`;
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => app.ctx.queue.enqueue("test.dedupe-race", { i }, { dedupeKey: key })));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect(await app.database.db.job.count({ where: { dedupe_key: key } })).toBe(1);
    }
  });

  it("a worker drains ready jobs and records progress, results and errors", async () => {
    const seen: unknown[] = [];
    const handlers: Record<string, JobHandler> = {
      "test.ok": async (payload, _ctx, helpers) => {
        seen.push(payload);
        await helpers.progress(50);
        return { doubled: (payload as { n: number }).n * 2 };
      },
      "test.progress-only": async (_payload, _ctx, helpers) => {
        await helpers.progress(30);
      },
      "test.broken": async () => {
        throw new Error("handler exploded");
      },
    };
    const ok = await app.ctx.queue.enqueue("test.ok", { n: 21 });
    const progressOnly = await app.ctx.queue.enqueue("test.progress-only", {});
    const broken = await app.ctx.queue.enqueue("test.broken", {}, { maxAttempts: 1 });
    const retried = await app.ctx.queue.enqueue("test.broken", {}, { maxAttempts: 2 });
    const notMine = await app.ctx.queue.enqueue("test.unhandled", {});

    const worker = startWorker(app.ctx, handlers, { autoStart: false });
    expect(await worker.drain()).toBe(4);
    await worker.stop();

    expect(seen).toEqual([{ n: 21 }]);
    const okRow = await job(ok.id);
    expect(okRow.status).toBe("completed");
    expect(okRow.result).toEqual({ doubled: 42 });
    expect(okRow.progress).toBe(100);
    expect((await job(progressOnly.id)).status).toBe("completed");

    const brokenRow = await job(broken.id);
    expect(brokenRow.status).toBe("failed");
    expect(brokenRow.error).toBe("handler exploded");
    const retriedRow = await job(retried.id);
    expect(retriedRow.status).toBe("queued");
    expect(retriedRow.attempts).toBe(1);
    expect(retriedRow.error).toBe("handler exploded");
    expect(retriedRow.run_at.getTime()).toBeGreaterThan(Date.now());

    // Queues without a handler are left alone.
    expect((await job(notMine.id)).status).toBe("queued");
    // A worker that is not started writes no heartbeat.
    expect(await app.database.db.workerHeartbeat.count()).toBe(0);
    // Nothing more is ready.
    expect(await startWorker(app.ctx, handlers, { autoStart: false }).drain()).toBe(0);
  });

  it("a started worker runs jobs on its own and beats", async () => {
    const { id } = await app.ctx.queue.enqueue("test.auto", { n: 1 });
    const worker = startWorker(app.ctx, { "test.auto": async () => ({ done: true }) }, { pollMs: 50 });
    try {
      await expect.poll(async () => (await job(id)).status, { timeout: 10_000, interval: 50 }).toBe("completed");
      await expect.poll(() => app.database.db.workerHeartbeat.count(), { timeout: 10_000, interval: 50 }).toBe(1);
    } finally {
      await worker.stop();
    }
    expect((await job(id)).result).toEqual({ done: true });
  });

  it("schedules by UTC whatever the database session's time zone is", async () => {
    // Prisma stores DateTime as UTC in `timestamp` columns; the claim query must compare run_at
    // with the current UTC time, not with now() read in the session's zone.
    const db = createPrismaClient(app.database.url, { maxConnections: 1 });
    try {
      await db.$executeRawUnsafe(`SET TIME ZONE 'Pacific/Pago_Pago'`); // UTC-11
      const queue = createJobQueue(db);
      const due = await queue.enqueue("test.tz", { due: true });
      const claimed = await queue.claim("w", ["test.tz"]);
      expect(claimed?.id).toBe(due.id);
      await queue.complete(due.id);

      await db.$executeRawUnsafe(`SET TIME ZONE 'Pacific/Kiritimati'`); // UTC+14
      const notYet = await queue.enqueue("test.tz", { due: false }, { runAt: new Date(Date.now() + 3_600_000) });
      expect(await queue.claim("w", ["test.tz"])).toBeNull();
      expect((await job(notYet.id)).status).toBe("queued");
      // Timestamps the queue writes itself are UTC too.
      await app.database.db.job.update({ where: { id: notYet.id }, data: { run_at: new Date(Date.now() - 1_000) } });
      const before = Date.now();
      expect((await queue.claim("w", ["test.tz"]))?.id).toBe(notYet.id);
      const lockedAt = (await job(notYet.id)).locked_at!.getTime();
      expect(Math.abs(lockedAt - before)).toBeLessThan(60_000);
    } finally {
      await db.$executeRawUnsafe(`RESET TIME ZONE`).catch(() => undefined);
      await db.$disconnect();
    }
  });
});
