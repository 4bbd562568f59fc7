/**
 * Image-AI jobs whose worker died (app/services/image-ai/recovery.server.ts): once the lease has
 * expired, a live worker takes the job over; a request never submitted fails as interrupted
 * through the settle path (the target hook runs once); one already at fal is followed by polling.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { INTERRUPTED_ERROR } from "../../app/jobs/queue.server";
import { getImageAiRequest, registerImageAiTarget, startImageAiRequest } from "../../app/services/image-ai/requests.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi } from "../helpers/fake-image-ai";
import { claimAsDeadWorker } from "../helpers/jobs";

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
const fake = createFakeImageAi({ name: "local" });

beforeAll(async () => {
  app = await createTestApp({ imageAi: fake });
  userId = (await app.createUser({ role: "ADMIN", permissions: ["ai.train"] })).id;
});
afterAll(async () => {
  await app?.close();
});

const row = async (id: string) => (await getImageAiRequest(app.ctx, id))!;
const job = (id: string) => app.database.db.job.findUniqueOrThrow({ where: { id } });
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

/** A request whose run job a worker claimed and started, then died: job running, request in_progress. */
async function stuck(opts: { expired?: boolean } = {}) {
  const req = await startImageAiRequest(app.ctx, { operation: "seedream-v4-edit", input: { image_urls: ["/uploads/images/a.png"], prompt: "make it red" }, userId, target: { type: "tool", id: "recovery" } });
  const claimed = await claimAsDeadWorker(app, "image-ai.run", opts);
  expect(claimed.payload).toMatchObject({ requestId: req.id });
  await app.database.db.imageAiRequest.update({ where: { id: req.id }, data: { status: "in_progress", started_at: new Date(), message: "Starting" } });
  return { id: req.id, jobId: claimed.id };
}

describe("image-AI jobs after a crash", () => {
  it("a local request whose worker died fails as interrupted once its lease expired; its hook runs once; a live lease is untouched", async () => {
    const live = await stuck({ expired: false });
    const dead = await stuck();
    const submits = fake.calls.length;

    await drain();
    const r = await row(dead.id);
    expect(r.status).toBe("failed");
    expect(r.error).toBe(INTERRUPTED_ERROR);
    expect(await job(dead.jobId)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR, locked_at: null, locked_by: null });
    expect(hooks.filter((h) => h.id === dead.id)).toEqual([{ id: dead.id, kind: "failed", error: INTERRUPTED_ERROR }]);
    // Not submitted again: the local work may be what killed the process.
    expect(fake.calls.length).toBe(submits);

    expect((await row(live.id)).status).toBe("in_progress");
    expect((await job(live.jobId)).status).toBe("running");
    expect(hooks.filter((h) => h.id === live.id)).toEqual([]);

    // Another worker later: nothing happens twice.
    await drain();
    expect(hooks.filter((h) => h.id === dead.id)).toHaveLength(1);
    await app.database.db.job.update({ where: { id: live.jobId }, data: { status: "failed" } });
  });

  it("a request already at the provider (fal) is not failed: the run is taken over and follows it by polling", async () => {
    const s = await stuck();
    await app.database.db.imageAiRequest.update({ where: { id: s.id }, data: { provider_request_id: "fal-123" } });
    await startWorker(app.ctx, { "image-ai.run": jobHandlers["image-ai.run"] }, { autoStart: false }).drain();
    expect(await job(s.jobId)).toMatchObject({ status: "completed", result: { following: "fal-123" } });
    expect((await row(s.id)).status).toBe("in_progress");
    const polls = await app.database.db.job.findMany({ where: { queue: "image-ai.poll", status: "queued" } });
    expect(polls.some((p) => (p.payload as { requestId?: string }).requestId === s.id)).toBe(true);
    expect(hooks.filter((h) => h.id === s.id)).toEqual([]);
  });

  it("a poll whose worker died on its last attempt fails the job and its request (hook once)", async () => {
    const s = await stuck();
    await app.database.db.job.update({ where: { id: s.jobId }, data: { status: "completed", locked_at: null, locked_by: null } });
    await app.database.db.imageAiRequest.update({ where: { id: s.id }, data: { provider_request_id: "fal-456" } });
    const { id: pollId } = await app.ctx.queue.enqueue("image-ai.poll", { requestId: s.id, attempt: 0 }, { maxAttempts: 1 });
    const dead = await claimAsDeadWorker(app, "image-ai.poll");
    expect(dead.id).toBe(pollId);

    await startWorker(app.ctx, { "image-ai.poll": jobHandlers["image-ai.poll"] }, { autoStart: false }).drain();
    expect(await job(pollId)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR, attempts: 2 });
    expect(await row(s.id)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
    expect(hooks.filter((h) => h.id === s.id)).toEqual([{ id: s.id, kind: "failed", error: INTERRUPTED_ERROR }]);
  });
});
