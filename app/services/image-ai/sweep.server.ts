/**
 * Stale image-AI work: a process that dies while a job of the image-AI queue runs (a local try-on
 * or training inside image-ai.run, a poll, a webhook settlement) leaves the job `running` with its
 * lock (jobs.locked_at, set by claim) and the request queued/in_progress for ever. The sweep (at
 * boot and every minute in the image-AI worker loop) looks for such jobs whose lock is older than
 * STALE_LOCK_MS while their request shows no sign of life (no progress written since either):
 * - image-ai.run of a request never submitted to a provider (local work, or a fal submit cut
 *   short): the job fails and the request is failed as interrupted, through settleImageAiRequest,
 *   so the target's hook runs once (try-on failed, clone training ERROR…);
 * - a request already at fal (provider_request_id), or a poll / webhook job: the job is released
 *   (queued again; the run follows the fal request by polling, polls and settlements are
 *   idempotent) while it has attempts left; otherwise it fails and so does the request.
 * Each stale job is taken with a conditional update on its claim (status, attempts, locked_by), so two sweeping
 * processes never handle it twice.
 */
import type { Job } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { IMAGE_AI_JOBS, IMAGE_AI_RUN_JOB, isTerminal, settleImageAiRequest } from "./requests.server";

/** A running image-AI job whose lock (and request) is older than this is considered abandoned. */
export const STALE_LOCK_MS = 10 * 60_000;
/** How often the image-AI worker loop sweeps. */
export const SWEEP_INTERVAL_MS = 60_000;
export const INTERRUPTED_ERROR = "Interrupted: the server restarted while this was running";

export interface SweepResult {
  /** Requests failed as interrupted. */
  failed: string[];
  /** Jobs queued again (fal-side work that polling can resume). */
  released: string[];
  /** Jobs failed (their request ended already, or could not be resumed). */
  jobsFailed: string[];
}

const requestIdOf = (job: Pick<Job, "payload">): string | null => {
  const p = job.payload as { requestId?: unknown } | null;
  return p && typeof p === "object" && typeof p.requestId === "string" ? p.requestId : null;
};

export async function sweepStaleImageAiRequests(ctx: AppContext, opts: { staleMs?: number; now?: Date } = {}): Promise<SweepResult> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - (opts.staleMs ?? STALE_LOCK_MS));
  const result: SweepResult = { failed: [], released: [], jobsFailed: [] };
  const stale = await ctx.db.job.findMany({
    where: { queue: { in: [...IMAGE_AI_JOBS] }, status: "running", locked_at: { lt: cutoff } },
    orderBy: { locked_at: "asc" },
    take: 200,
  });

  for (const job of stale) {
    const requestId = requestIdOf(job);
    const req = requestId ? await ctx.db.imageAiRequest.findUnique({ where: { id: requestId } }) : null;
    const active = req && !isTerminal(req.status);
    // Progress written recently: the work is alive (a long local training), whatever the lock's age.
    if (active && req.updated_at >= cutoff) continue;

    const resumable = active && (job.queue !== IMAGE_AI_RUN_JOB || req.provider_request_id) && job.attempts < job.max_attempts;
    const taken = await ctx.db.job.updateMany({
      // (attempts, locked_by) identify this claim: locked_at has microseconds a Date cannot compare.
      where: { id: job.id, status: "running", attempts: job.attempts, locked_by: job.locked_by },
      data: resumable
        ? { status: "queued", run_at: now, locked_at: null, locked_by: null, error: INTERRUPTED_ERROR }
        : { status: "failed", error: INTERRUPTED_ERROR, completed_at: now, locked_at: null, locked_by: null },
    });
    if (taken.count === 0) continue; // finished or swept by someone else meanwhile
    if (resumable) {
      result.released.push(job.id);
      ctx.log.warn({ jobId: job.id, queue: job.queue, requestId }, "image-ai job interrupted: queued again");
      continue;
    }
    result.jobsFailed.push(job.id);
    if (active && requestId) {
      const r = await settleImageAiRequest(ctx, requestId, { state: "failed", error: INTERRUPTED_ERROR });
      if (r.settled) result.failed.push(requestId);
    }
    ctx.log.warn({ jobId: job.id, queue: job.queue, requestId, requestFailed: Boolean(active) }, "image-ai job interrupted");
  }
  return result;
}
