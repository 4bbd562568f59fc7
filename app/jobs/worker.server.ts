/**
 * The job worker: claims jobs, runs their handler, records progress and outcome, and writes a
 * heartbeat that /api/health reports. In local mode it runs inside the web process.
 *
 * While a handler runs, its claim's lease is renewed every third of the lease (see
 * queue.server.ts): a worker that stops renewing (its process died) loses the job to the next
 * claim once the lease expires. A job taken over that way is `interrupted`: its handler runs again
 * (handlers are idempotent: a restart after a crash at any point duplicates nothing), unless the
 * queue's `onInterrupted` abandons it or no attempt is left; then `onFailed` puts the area's rows
 * that still show it running into their final state.
 */
import crypto from "node:crypto";
import os from "node:os";
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { INTERRUPTED_ERROR, type ClaimedJob } from "./queue.server";

export interface JobHelpers {
  progress(percent: number): Promise<void>;
  /** This run restarts one whose worker died part-way (the lease expired). */
  interrupted?: boolean;
}

export interface JobRecovery {
  /** A run whose worker died part-way: "resume" runs the handler again (the default), "abandon" fails the job without running it. */
  onInterrupted?(payload: Prisma.JsonValue, ctx: AppContext): Promise<"resume" | "abandon">;
  /**
   * The job ended failed: abandoned after a crash, no attempt left after one, or its handler's
   * last attempt threw. Rows of the area that show the work queued or running are closed here.
   */
  onFailed?(payload: Prisma.JsonValue, ctx: AppContext, error: string): Promise<void>;
}

export type JobHandler = ((payload: Prisma.JsonValue, ctx: AppContext, helpers: JobHelpers) => Promise<Prisma.InputJsonValue | void>) & JobRecovery;

/** A handler with its recovery hooks. */
export const withRecovery = (handler: JobHandler, recovery: JobRecovery): JobHandler => Object.assign((...args: Parameters<JobHandler>) => handler(...args), recovery);

/** Jobs this process is running: never taken over by its own lanes, even when a long synchronous step held up the renewals. */
const runningHere = new Set<string>();

export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A worker that has not beaten for this long is reported as down. */
export const HEARTBEAT_STALE_MS = 30_000;

export interface Worker {
  id: string;
  stop(): Promise<void>;
  /** Runs queued jobs until none is ready (tests). */
  drain(): Promise<number>;
}

export function startWorker(ctx: AppContext, handlers: Record<string, JobHandler>, opts: { pollMs?: number; autoStart?: boolean } = {}): Worker {
  const id = `${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
  const queues = Object.keys(handlers);
  const pollMs = opts.pollMs ?? 1000;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;

  const beat = () =>
    ctx.db.workerHeartbeat
      .upsert({ where: { id: "worker" }, create: { id: "worker", last_seen_at: new Date() }, update: { last_seen_at: new Date() } })
      .catch((e: unknown) => ctx.log.warn({ err: e }, "worker heartbeat failed"));

  async function runOne(job: ClaimedJob) {
    const log = ctx.log.child({ jobId: job.id, queue: job.queue, attempt: job.attempts });
    const handler = handlers[job.queue];
    runningHere.add(job.id);
    let lost = false;
    const renewal = setInterval(() => {
      void ctx.queue
        .renew(job)
        .then((held) => {
          if (!held && !lost) log.warn("job lease lost: another worker has taken the job over");
          lost ||= !held;
        })
        .catch((e: unknown) => log.warn({ err: e }, "job lease renewal failed"));
    }, Math.max(50, Math.floor(ctx.queue.leaseMs / 3)));
    try {
      if (job.interrupted) {
        const decision = job.attempts > job.max_attempts ? "abandon" : ((await handler.onInterrupted?.(job.payload, ctx)) ?? "resume");
        if (decision === "abandon") {
          // The hook first: if it cannot run now, the job is left running until its lease expires and is abandoned again.
          try {
            await handler.onFailed?.(job.payload, ctx, INTERRUPTED_ERROR);
          } catch (e) {
            log.error({ err: e }, "interrupted job: closing its rows failed; tried again when the lease expires");
            return;
          }
          await ctx.queue.fail(job, INTERRUPTED_ERROR, { final: true });
          log.warn("job interrupted: failed");
          return;
        }
        log.warn("job interrupted: running it again");
      }
      const result = await handler(job.payload, ctx, { progress: (p) => ctx.queue.progress(job, p).then(() => undefined), interrupted: job.interrupted });
      if (await ctx.queue.complete(job, result ?? undefined)) log.info("job completed");
      else log.warn("job finished after its lease was lost: the result is left to the worker that took it over");
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const { retrying, lost: notOurs } = await ctx.queue.fail(job, message);
      log.warn({ err: e, retrying, leaseLost: notOurs ?? false }, "job failed");
      if (!retrying && !notOurs) await handler.onFailed?.(job.payload, ctx, message).catch((err: unknown) => log.error({ err }, "failed job: closing its rows failed"));
    } finally {
      clearInterval(renewal);
      runningHere.delete(job.id);
    }
  }

  async function drain(): Promise<number> {
    let count = 0;
    for (;;) {
      if (stopped && opts.autoStart !== false) break;
      const job = await ctx.queue.claim(id, queues, { exclude: runningHere });
      if (!job) return count;
      await runOne(job);
      count++;
    }
    return count;
  }

  const loop = async () => {
    if (stopped) return;
    running = drain()
      .then(() => undefined)
      .catch((e: unknown) => ctx.log.error({ err: e }, "worker loop error"));
    await running;
    if (!stopped) timer = setTimeout(loop, pollMs);
  };

  if (opts.autoStart !== false) {
    void beat();
    heartbeatTimer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
    timer = setTimeout(loop, 50);
  }

  return {
    id,
    drain,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      await running;
    },
  };
}
