/**
 * A job queue in PostgreSQL (the `jobs` table). Workers claim jobs with
 * `FOR UPDATE SKIP LOCKED`, so several worker processes can share one database; in local mode the
 * worker runs in the web process. Kept small and in-house because it must run identically on the
 * embedded PGlite (one connection at a time, no LISTEN/NOTIFY through the socket) and on PostgreSQL.
 *
 * Leases: a claim holds the job for `leaseMs` (locked_at, locked_by); the worker renews it while the
 * handler runs. A process that dies mid-job stops renewing, and once the lease has expired the next
 * claim takes the job again (`interrupted`), counting an attempt, so a job that kills its worker
 * every time ends failed after max_attempts instead of looping. Every write of a claim's outcome is
 * conditioned on that claim (locked_by and attempts): a worker that lost its lease to another
 * cannot complete, fail or move the progress of the job afterwards.
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
  /** The worker holding the lease (with `attempts`, what identifies this claim). */
  locked_by: string;
  /** Taken over from a worker whose lease expired: that run died part-way, this one restarts it. */
  interrupted: boolean;
}

/** A job by id (admin tools, tests: unconditional), or a claim (only while that claim holds the lease). */
export type JobRef = string | Pick<ClaimedJob, "id" | "locked_by" | "attempts">;

export interface JobQueue {
  /** How long a claim holds a job without being renewed. */
  readonly leaseMs: number;
  enqueue(queue: string, payload: Prisma.InputJsonValue, opts?: EnqueueOptions): Promise<{ id: string }>;
  /** The oldest ready job of `queues`: queued and due, or running under an expired lease. `exclude`: jobs this process runs. */
  claim(workerId: string, queues: string[], opts?: { exclude?: Iterable<string> }): Promise<ClaimedJob | null>;
  /** Extends the claim's lease; false when the claim lost it (another worker took the job, or it ended). */
  renew(job: Pick<ClaimedJob, "id" | "locked_by" | "attempts">): Promise<boolean>;
  progress(job: JobRef, progress: number): Promise<boolean>;
  complete(job: JobRef, result?: Prisma.InputJsonValue): Promise<boolean>;
  /** Back to the queue with a backoff while attempts are left (unless `final`), else failed. `lost`: the claim no longer held the job. */
  fail(job: ClaimedJob, error: string, opts?: { final?: boolean }): Promise<{ retrying: boolean; lost?: boolean }>;
  /**
   * Which of these dedupe keys belong to a job that is still going to run: queued, or running under
   * a live lease, or (unless `held`) running under an expired lease with attempts left (the next
   * claim restarts it). `held`: only jobs a live worker holds right now.
   */
  liveDedupeKeys(keys: string[], opts?: { held?: boolean }): Promise<Set<string>>;
  /** Running jobs, and among them those whose lease expired (their worker died: taken up by the next claim). */
  leaseStats(): Promise<{ running: number; expired: number }>;
}

/** Exponential backoff: 2 s, 4 s, 8 s, … capped at 10 minutes. */
export const backoffMs = (attempt: number) => Math.min(600_000, 1000 * 2 ** attempt);

/** The default lease (JOB_LEASE_MS): renewed every third of it, so two missed renewals still hold. */
export const DEFAULT_LEASE_MS = 60_000;

export const INTERRUPTED_ERROR = "Interrupted: the server restarted while this was running";

const claimWhere = (job: JobRef): Prisma.JobWhereInput =>
  typeof job === "string" ? { id: job } : { id: job.id, status: "running", locked_by: job.locked_by, attempts: job.attempts };

export function createJobQueue(db: Db, opts: { leaseMs?: number } = {}): JobQueue {
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  // Prisma keeps DateTime columns as UTC in `timestamp` (no zone): every comparison and write of
  // a lock uses the database's clock in UTC, whatever the session's TimeZone and the processes' clocks.
  const expiredBefore = Prisma.sql`((now() AT TIME ZONE 'UTC') - ${leaseMs}::int * interval '1 millisecond')`;

  async function liveDedupeKeys(keys: string[], opts: { held?: boolean } = {}): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const restartable = opts.held ? Prisma.sql`FALSE` : Prisma.sql`attempts < max_attempts`;
    const rows = await db.$queryRaw<{ dedupe_key: string }[]>`
      SELECT dedupe_key FROM jobs
      WHERE dedupe_key = ANY(${keys}::text[])
        AND (status = 'queued' OR (status = 'running' AND (locked_at >= ${expiredBefore} OR ${restartable})))`;
    return new Set(rows.map((r) => r.dedupe_key));
  }

  return {
    leaseMs,

    async enqueue(queue, payload, opts = {}) {
      for (let attempt = 0; ; attempt++) {
        if (opts.dedupeKey) {
          const existing = await db.job.findUnique({ where: { dedupe_key: opts.dedupeKey } });
          // A running job whose worker died with no attempt left is not live: the next claim fails it.
          if (existing && (existing.status === "queued" || existing.status === "running") && (await liveDedupeKeys([opts.dedupeKey])).has(opts.dedupeKey)) return { id: existing.id };
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

    async claim(workerId, queues, opts = {}) {
      if (queues.length === 0) return null;
      const exclude = [...(opts.exclude ?? [])];
      const rows = await db.$queryRaw<ClaimedJob[]>`
        WITH picked AS (
          SELECT id, status AS was FROM jobs
          WHERE queue = ANY(${queues}::text[]) AND NOT (id = ANY(${exclude}::text[]))
            AND ((status = 'queued' AND run_at <= (now() AT TIME ZONE 'UTC')) OR (status = 'running' AND locked_at < ${expiredBefore}))
          ORDER BY run_at, created_at
          FOR UPDATE SKIP LOCKED
          LIMIT 1
        )
        UPDATE jobs SET status = 'running', locked_at = (now() AT TIME ZONE 'UTC'), locked_by = ${workerId}, attempts = jobs.attempts + 1, updated_at = (now() AT TIME ZONE 'UTC')
        FROM picked WHERE jobs.id = picked.id
        RETURNING jobs.id, jobs.queue, jobs.payload, jobs.attempts, jobs.max_attempts, jobs.locked_by, (picked.was = 'running') AS interrupted`;
      return rows[0] ?? null;
    },

    async renew(job) {
      const n = await db.$executeRaw`
        UPDATE jobs SET locked_at = (now() AT TIME ZONE 'UTC')
        WHERE id = ${job.id} AND status = 'running' AND locked_by = ${job.locked_by} AND attempts = ${job.attempts}`;
      return n > 0;
    },

    async progress(job, progress) {
      const r = await db.job.updateMany({ where: claimWhere(job), data: { progress: Math.max(0, Math.min(100, Math.round(progress))) } });
      return r.count > 0;
    },

    async complete(job, result) {
      const r = await db.job.updateMany({
        where: claimWhere(job),
        data: { status: "completed", progress: 100, result: result ?? undefined, completed_at: new Date(), locked_at: null, locked_by: null },
      });
      return r.count > 0;
    },

    async fail(job, error, opts = {}) {
      const retrying = !opts.final && job.attempts < job.max_attempts;
      const r = await db.job.updateMany({
        where: claimWhere(job),
        data: retrying
          ? { status: "queued", error, run_at: new Date(Date.now() + backoffMs(job.attempts)), locked_at: null, locked_by: null }
          : { status: "failed", error, completed_at: new Date(), locked_at: null, locked_by: null },
      });
      return r.count > 0 ? { retrying } : { retrying: false, lost: true };
    },

    liveDedupeKeys,

    async leaseStats() {
      const [row] = await db.$queryRaw<{ running: number; expired: number }[]>`
        SELECT count(*)::int AS running, (count(*) FILTER (WHERE locked_at < ${expiredBefore}))::int AS expired
        FROM jobs WHERE status = 'running'`;
      return { running: row?.running ?? 0, expired: row?.expired ?? 0 };
    },
  };
}
