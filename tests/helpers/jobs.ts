/**
 * Crash simulation for job tests: a job claimed by a worker that then died, its lease expired.
 */
import type { ClaimedJob } from "../../app/jobs/queue.server";
import type { TestApp } from "./app";

/** Claims the next job of `queue` as a worker that dies at once; `expired: false` keeps its lease live. */
export async function claimAsDeadWorker(app: Pick<TestApp, "ctx" | "database">, queue: string, opts: { expired?: boolean; worker?: string } = {}): Promise<ClaimedJob> {
  const claimed = await app.ctx.queue.claim(opts.worker ?? `dead-host-${process.pid}-000000`, [queue]);
  if (!claimed) throw new Error(`nothing to claim in ${queue}`);
  if (opts.expired !== false) await expireLease(app, claimed.id);
  return claimed;
}

/** Moves the job's lease into the past, as if its worker had stopped renewing it a while ago. */
export async function expireLease(app: Pick<TestApp, "ctx" | "database">, jobId: string) {
  const ms = app.ctx.queue.leaseMs + 60_000;
  await app.database.db.$executeRawUnsafe(`UPDATE jobs SET locked_at = locked_at - (${ms} * interval '1 millisecond') WHERE id = $1`, jobId);
}
