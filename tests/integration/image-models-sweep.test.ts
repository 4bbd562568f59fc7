/**
 * The stale sweep: image-AI jobs left `running` by a process that died (a local try-on mid-submit)
 * fail their request as interrupted, through the settle path (the target hook runs once).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { getImageAiRequest, registerImageAiTarget, startImageAiRequest } from "../../app/services/image-ai/requests.server";
import { INTERRUPTED_ERROR, STALE_LOCK_MS, sweepStaleImageAiRequests } from "../../app/services/image-ai/sweep.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi } from "../helpers/fake-image-ai";

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
let userId: string;

beforeAll(async () => {
  app = await createTestApp({ imageAi: createFakeImageAi({ name: "local" }) });
  userId = (await app.createUser({ role: "ADMIN", permissions: ["ai.train"] })).id;
});
afterAll(async () => {
  await app?.close();
});

const row = async (id: string) => (await getImageAiRequest(app.ctx, id))!;
const jobOf = async (requestId: string) =>
  (await app.database.db.job.findMany({ where: { queue: "image-ai.run" } })).find((j) => (j.payload as { requestId?: string }).requestId === requestId)!;

/** A request whose run job a (now dead) worker claimed and started: job running, request in_progress. */
async function stuck(opts: { ageMs: number; requestAgeMs?: number }) {
  const req = await startImageAiRequest(app.ctx, { operation: "seedream-v4-edit", input: { image_urls: ["/uploads/images/a.png"], prompt: "make it red" }, userId, target: { type: "tool", id: "sweep" } });
  const claimed = await app.ctx.queue.claim("dead-host-1-abc", ["image-ai.run"]);
  expect(claimed?.payload).toMatchObject({ requestId: req.id });
  await app.database.db.imageAiRequest.update({ where: { id: req.id }, data: { status: "in_progress", started_at: new Date(), message: "Starting" } });
  const ms = (n: number) => `${Math.round(n)} milliseconds`;
  await app.database.db.$executeRawUnsafe(`UPDATE jobs SET locked_at = locked_at - interval '${ms(opts.ageMs)}' WHERE id = $1`, claimed!.id);
  await app.database.db.$executeRawUnsafe(`UPDATE image_ai_requests SET updated_at = updated_at - interval '${ms(opts.requestAgeMs ?? opts.ageMs)}' WHERE id = $1`, req.id);
  return { id: req.id, jobId: claimed!.id };
}

describe("stale image-AI sweep", () => {
  it("fails a request whose job lock is older than the deadline; its hook runs once; a fresh one is untouched", async () => {
    const old = await stuck({ ageMs: STALE_LOCK_MS + 60_000 });
    const fresh = await stuck({ ageMs: 1000 });
    // an old lock, but the request reported progress a minute ago: still alive (a long local training)
    const alive = await stuck({ ageMs: STALE_LOCK_MS + 60_000, requestAgeMs: 60_000 });

    const result = await sweepStaleImageAiRequests(app.ctx);
    expect(result.failed).toEqual([old.id]);
    expect(result.jobsFailed).toEqual([old.jobId]);
    expect(result.released).toEqual([]);

    const r = await row(old.id);
    expect(r.status).toBe("failed");
    expect(r.error).toBe(INTERRUPTED_ERROR);
    expect(r.completed_at).not.toBeNull();
    const job = await app.database.db.job.findUnique({ where: { id: old.jobId } });
    expect(job).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR, locked_at: null, locked_by: null });
    expect(hooks.filter((h) => h.id === old.id)).toEqual([{ id: old.id, kind: "failed", error: INTERRUPTED_ERROR }]);

    for (const untouched of [fresh, alive]) {
      expect((await row(untouched.id)).status).toBe("in_progress");
      expect((await app.database.db.job.findUnique({ where: { id: untouched.jobId } }))?.status).toBe("running");
      expect(hooks.filter((h) => h.id === untouched.id)).toEqual([]);
    }

    // A second sweep (another process, the next minute) changes nothing: the hook ran once.
    const again = await sweepStaleImageAiRequests(app.ctx);
    expect(again.failed).toEqual([]);
    expect(hooks.filter((h) => h.id === old.id)).toHaveLength(1);

    // Later, the fresh one goes stale too.
    const later = await sweepStaleImageAiRequests(app.ctx, { now: new Date(Date.now() + STALE_LOCK_MS + 60_000) });
    expect(later.failed.sort()).toEqual([alive.id, fresh.id].sort());
    expect((await row(fresh.id)).error).toBe(INTERRUPTED_ERROR);
    expect(hooks.filter((h) => h.id === fresh.id)).toHaveLength(1);
  });

  it("a request already at the provider (fal) is not failed: its job is released and polling resumes", async () => {
    const s = await stuck({ ageMs: STALE_LOCK_MS + 60_000 });
    await app.database.db.$executeRawUnsafe(`UPDATE image_ai_requests SET provider_request_id = 'fal-123', updated_at = updated_at - interval '20 minutes' WHERE id = $1`, s.id);
    const result = await sweepStaleImageAiRequests(app.ctx);
    expect(result.released).toEqual([s.jobId]);
    expect(result.failed).toEqual([]);
    expect((await app.database.db.job.findUnique({ where: { id: s.jobId } }))?.status).toBe("queued");
    expect((await row(s.id)).status).toBe("in_progress");
    // The run sees the provider request id and follows it with a poll instead of submitting again.
    await startWorker(app.ctx, { "image-ai.run": jobHandlers["image-ai.run"] }, { autoStart: false }).drain();
    expect((await jobOf(s.id)).result).toEqual({ following: "fal-123" });
    const polls = await app.database.db.job.findMany({ where: { queue: "image-ai.poll", status: "queued" } });
    expect(polls.some((p) => (p.payload as { requestId?: string }).requestId === s.id)).toBe(true);
    expect(hooks.filter((h) => h.id === s.id)).toEqual([]);
  });
});
