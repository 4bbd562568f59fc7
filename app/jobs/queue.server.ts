/**
 * A job queue in PostgreSQL (the `jobs` table). Workers claim jobs with
 * `FOR UPDATE SKIP LOCKED`, so several worker processes can share one database; in local mode the
 * worker runs in the web process. Kept small and in-house because it must run identically on the
 * embedded PGlite (one connection at a time, no LISTEN/NOTIFY through the socket) and on PostgreSQL.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** A job with the same key that is still queued or running is not enqueued twice. */
  dedupeKey?: string;
}

export interface ClaimedJob {
  id: string;
  queue: string;
  payload: Prisma.JsonValue;
  attempts: number;
  max_attempts: number;
}

export interface JobQueue {
  enqueue(queue: string, payload: Prisma.InputJsonValue, opts?: EnqueueOptions): Promise<{ id: string }>;
  claim(workerId: string, queues: string[]): Promise<ClaimedJob | null>;
  progress(id: string, progress: number): Promise<void>;
  complete(id: string, result?: Prisma.InputJsonValue): Promise<void>;
  fail(job: ClaimedJob, error: string): Promise<{ retrying: boolean }>;
}

/** Exponential backoff: 2 s, 4 s, 8 s, … capped at 10 minutes. */
export const backoffMs = (attempt: number) => Math.min(600_000, 1000 * 2 ** attempt);

export function createJobQueue(db: Db): JobQueue {
  return {
    async enqueue(queue, payload, opts = {}) {
      for (let attempt = 0; ; attempt++) {
        if (opts.dedupeKey) {
          const existing = await db.job.findUnique({ where: { dedupe_key: opts.dedupeKey } });
          if (existing && (existing.status === "queued" || existing.status === "running")) return { id: existing.id };
          if (existing) await db.job.updateMany({ where: { id: existing.id, dedupe_key: opts.dedupeKey }, data: { dedupe_key: null } });
        }
        try {
          const job = await db.job.create({
            data: { queue, payload, run_at: opts.runAt ?? new Date(), max_attempts: opts.maxAttempts ?? 5, dedupe_key: opts.dedupeKey },
          });
          return { id: job.id };
        } catch (e) {
          // A concurrent enqueue with the same key won: look again and answer with its job.
          const duplicate = e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
          if (!opts.dedupeKey || !duplicate || attempt >= 3) throw e;
        }
      }
    },

    async claim(workerId, queues) {
      if (queues.length === 0) return null;
      // Prisma keeps DateTime columns as UTC in `timestamp` (no zone): compare and write UTC,
      // whatever the session's TimeZone setting is.
      const rows = await db.$queryRaw<ClaimedJob[]>`
        UPDATE jobs SET status = 'running', locked_at = (now() AT TIME ZONE 'UTC'), locked_by = ${workerId}, attempts = attempts + 1, updated_at = (now() AT TIME ZONE 'UTC')
        WHERE id = (
          SELECT id FROM jobs
          WHERE status = 'queued' AND run_at <= (now() AT TIME ZONE 'UTC') AND queue = ANY(${queues}::text[])
          ORDER BY run_at, created_at
          FOR UPDATE SKIP LOCKED
          LIMIT 1
        )
        RETURNING id, queue, payload, attempts, max_attempts`;
      return rows[0] ?? null;
    },

    async progress(id, progress) {
      await db.job.update({ where: { id }, data: { progress: Math.max(0, Math.min(100, Math.round(progress))) } });
    },

    async complete(id, result) {
      await db.job.update({
        where: { id },
        data: { status: "completed", progress: 100, result: result ?? undefined, completed_at: new Date(), locked_at: null, locked_by: null },
      });
    },

    async fail(job, error) {
      const retrying = job.attempts < job.max_attempts;
      await db.job.update({
        where: { id: job.id },
        data: retrying
          ? { status: "queued", error, run_at: new Date(Date.now() + backoffMs(job.attempts)), locked_at: null, locked_by: null }
          : { status: "failed", error, completed_at: new Date(), locked_at: null, locked_by: null },
      });
      return { retrying };
    },
  };
}
