/**
 * The job worker: claims jobs, runs their handler, records progress and outcome, and writes a
 * heartbeat that /api/health reports. In local mode it runs inside the web process.
 */
import crypto from "node:crypto";
import os from "node:os";
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { ClaimedJob } from "./queue.server";

export interface JobHelpers {
  progress(percent: number): Promise<void>;
}

export type JobHandler = (payload: Prisma.JsonValue, ctx: AppContext, helpers: JobHelpers) => Promise<Prisma.InputJsonValue | void>;

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
    try {
      const result = await handler(job.payload, ctx, { progress: (p) => ctx.queue.progress(job.id, p) });
      await ctx.queue.complete(job.id, result ?? undefined);
      log.info("job completed");
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const { retrying } = await ctx.queue.fail(job, message);
      log.warn({ err: e, retrying }, "job failed");
    }
  }

  async function drain(): Promise<number> {
    let count = 0;
    for (;;) {
      if (stopped && opts.autoStart !== false) break;
      const job = await ctx.queue.claim(id, queues);
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
