/**
 * Jobs of the image-AI queue:
 * - image-ai.run {requestId}: submits to the provider. Local work completes inside submit and is
 *   settled at once; a queued provider (fal) answers a request id, followed by image-ai.poll
 *   (2 s → 30 s apart) whether or not a webhook arrives, until it settles or times out.
 * - image-ai.poll {requestId, attempt}: asks the provider for the status.
 * - image-ai.webhook {requestId, ...}: settles from a verified fal webhook (the route answers at
 *   once and leaves the downloads to this job).
 * Provider errors marked retryable (timeouts, 5xx, throttling) run again with a backoff, up to
 * RUN_ATTEMPTS; final errors fail the request with their message.
 */
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import type { AppContext } from "~/context.server";
import type { JobHandler } from "~/jobs/worker.server";
import { ImageAiProviderError, ImageAiUnsupportedError, imageAiInputs, type ImageAiOperation } from "~/providers/image-ai/port";
import {
  IMAGE_AI_POLL_JOB,
  IMAGE_AI_RUN_JOB,
  IMAGE_AI_WEBHOOK_JOB,
  isTerminal,
  providerOf,
  recordImageAiProgress,
  settleImageAiRequest,
  type ImageAiOutcome,
} from "./requests.server";
import { falWebhookUrl } from "./webhook.server";

/** Submissions of one request before a retryable failure is final. */
export const RUN_ATTEMPTS = 4;
/** A queued provider request not settled after this long fails as timed out. */
export const POLL_DEADLINE_MS = 30 * 60_000;
/** Progress is written at most this often (the last report of a burst is written by the next one). */
export const PROGRESS_THROTTLE_MS = 750;

export const runBackoffMs = (attempt: number) => Math.min(60_000, 2_000 * 2 ** attempt);
export const pollDelayMs = (attempt: number) => Math.min(30_000, 2_000 * 2 ** attempt);

const RunPayload = z.object({ requestId: z.string(), attempt: z.number().int().min(0).default(0) });
const PollPayload = z.object({ requestId: z.string(), attempt: z.number().int().min(0).default(0) });
export const WebhookPayload = z.object({
  requestId: z.string(),
  providerRequestId: z.string().optional(),
  outcome: z.discriminatedUnion("state", [
    z.object({ state: z.literal("completed"), output: z.unknown() }),
    z.object({ state: z.literal("failed"), error: z.string() }),
  ]),
});

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Provider failures we retry: those marked retryable, and unexpected errors (a crash, a lost connection). */
const isRetryable = (e: unknown) => (e instanceof ImageAiProviderError ? e.retryable : !(e instanceof ImageAiUnsupportedError));

async function schedulePoll(ctx: AppContext, requestId: string, attempt: number) {
  await ctx.queue.enqueue(IMAGE_AI_POLL_JOB, { requestId, attempt }, { runAt: new Date(Date.now() + pollDelayMs(attempt)), dedupeKey: `${IMAGE_AI_POLL_JOB}:${requestId}:${attempt}`, maxAttempts: 3 });
}

/** Settles, turning a failed download of the outputs into a retry of the caller (false) or a final failure. */
async function settle(ctx: AppContext, requestId: string, outcome: ImageAiOutcome): Promise<"settled" | "ignored" | "retry"> {
  try {
    const r = await settleImageAiRequest(ctx, requestId, outcome);
    return r.settled ? "settled" : "ignored";
  } catch (e) {
    if (isRetryable(e)) {
      ctx.log.warn({ err: e, requestId }, "image-ai settlement failed, will retry");
      return "retry";
    }
    await settleImageAiRequest(ctx, requestId, { state: "failed", error: errorText(e) });
    return "settled";
  }
}

export async function runImageAiRequest(ctx: AppContext, payload: unknown): Promise<Prisma.InputJsonValue> {
  const { requestId, attempt } = RunPayload.parse(payload);
  const req = await ctx.db.imageAiRequest.findUnique({ where: { id: requestId } });
  if (!req || isTerminal(req.status)) return { skipped: req ? req.status : "missing" };
  // Submitted already (a run repeated after a crash): follow it instead of paying twice.
  if (req.provider_request_id) {
    await schedulePoll(ctx, requestId, 0);
    return { following: req.provider_request_id };
  }
  const op = req.operation as ImageAiOperation;
  const started = await ctx.db.imageAiRequest.updateMany({
    where: { id: requestId, status: { in: ["queued", "in_progress"] } },
    data: { status: "in_progress", started_at: req.started_at ?? new Date(), message: attempt ? `Retrying (attempt ${attempt + 1})` : "Starting" },
  });
  if (started.count === 0) return { skipped: "settled meanwhile" };

  const provider = providerOf(ctx, req);
  const controller = new AbortController();
  let last = 0;
  const onProgress = async (progress: number, message?: string) => {
    const now = Date.now();
    if (now - last < PROGRESS_THROTTLE_MS) return;
    last = now;
    const active = await recordImageAiProgress(ctx, requestId, progress, message).catch(() => true);
    if (!active) controller.abort(); // cancelled meanwhile
  };

  let submission;
  try {
    if (!provider.supports(op)) throw new ImageAiUnsupportedError(op, provider.name);
    const input = (imageAiInputs[op] as z.ZodType).parse(req.input);
    submission = await provider.submit(op, input as never, { requestId, webhookUrl: falWebhookUrl(ctx, provider.name, requestId), onProgress, signal: controller.signal });
  } catch (e) {
    const current = await ctx.db.imageAiRequest.findUnique({ where: { id: requestId }, select: { status: true } });
    if (!current || isTerminal(current.status)) return { skipped: current?.status ?? "missing" };
    if (isRetryable(e) && attempt + 1 < RUN_ATTEMPTS) {
      const delay = runBackoffMs(attempt);
      await ctx.db.imageAiRequest.updateMany({ where: { id: requestId, status: { in: ["queued", "in_progress"] } }, data: { message: `Retrying: ${errorText(e)}`.slice(0, 500) } });
      await ctx.queue.enqueue(IMAGE_AI_RUN_JOB, { requestId, attempt: attempt + 1 }, { runAt: new Date(Date.now() + delay), dedupeKey: `${IMAGE_AI_RUN_JOB}:${requestId}:${attempt + 1}`, maxAttempts: 3 });
      ctx.log.warn({ err: e, requestId, attempt }, "image-ai submit failed, retrying");
      return { retrying: attempt + 1, inMs: delay };
    }
    await settleImageAiRequest(ctx, requestId, { state: "failed", error: errorText(e) });
    return { failed: errorText(e) };
  }

  if (submission.state === "completed") {
    const r = await settle(ctx, requestId, { state: "completed", output: submission.output });
    if (r === "retry") {
      // Local outputs are already ours; a provider's that could not be fetched yet: try again shortly.
      if (attempt + 1 < RUN_ATTEMPTS) {
        await ctx.queue.enqueue(IMAGE_AI_RUN_JOB, { requestId, attempt: attempt + 1 }, { runAt: new Date(Date.now() + runBackoffMs(attempt)), dedupeKey: `${IMAGE_AI_RUN_JOB}:${requestId}:${attempt + 1}`, maxAttempts: 3 });
      } else await settleImageAiRequest(ctx, requestId, { state: "failed", error: "The result images could not be downloaded" });
    }
    return { state: r };
  }

  await ctx.db.imageAiRequest.updateMany({
    where: { id: requestId, status: { in: ["queued", "in_progress"] } },
    data: { provider_request_id: submission.providerRequestId, message: "Submitted" },
  });
  await schedulePoll(ctx, requestId, 0);
  return { submitted: submission.providerRequestId };
}

export async function pollImageAiRequest(ctx: AppContext, payload: unknown): Promise<Prisma.InputJsonValue> {
  const { requestId, attempt } = PollPayload.parse(payload);
  const req = await ctx.db.imageAiRequest.findUnique({ where: { id: requestId } });
  if (!req || isTerminal(req.status)) return { skipped: req ? req.status : "missing" };
  if (!req.provider_request_id) return { skipped: "not submitted" };
  const op = req.operation as ImageAiOperation;
  const provider = providerOf(ctx, req);

  const since = (req.started_at ?? req.created_at).getTime();
  if (Date.now() - since > POLL_DEADLINE_MS) {
    await provider.cancel(op, req.provider_request_id).catch(() => undefined);
    await settleImageAiRequest(ctx, requestId, { state: "failed", error: `The image provider did not finish within ${Math.round(POLL_DEADLINE_MS / 60_000)} minutes (timed out)` });
    return { timedOut: true };
  }

  let status;
  try {
    status = await provider.status(op, req.provider_request_id);
  } catch (e) {
    if (!isRetryable(e)) {
      await settleImageAiRequest(ctx, requestId, { state: "failed", error: errorText(e) });
      return { failed: errorText(e) };
    }
    await schedulePoll(ctx, requestId, attempt + 1);
    return { error: errorText(e), next: attempt + 1 };
  }

  switch (status.state) {
    case "queued":
      await ctx.db.imageAiRequest.updateMany({
        where: { id: requestId, status: { in: ["queued", "in_progress"] } },
        data: { message: status.queuePosition !== undefined ? `Waiting in the provider's queue (position ${status.queuePosition})` : "Waiting in the provider's queue" },
      });
      break;
    case "in_progress":
      await recordImageAiProgress(ctx, requestId, status.progress ?? req.progress, status.message ?? "Generating");
      break;
    case "completed": {
      const r = await settle(ctx, requestId, { state: "completed", output: status.output });
      if (r !== "retry") return { state: r };
      break;
    }
    case "failed":
      await settleImageAiRequest(ctx, requestId, { state: "failed", error: status.error });
      return { state: "failed" };
  }
  await schedulePoll(ctx, requestId, attempt + 1);
  return { state: status.state, next: attempt + 1 };
}

export async function settleFromWebhook(ctx: AppContext, payload: unknown): Promise<Prisma.InputJsonValue> {
  const p = WebhookPayload.parse(payload);
  const r = await settle(ctx, p.requestId, p.outcome as ImageAiOutcome);
  // A download that failed: this job runs again with a backoff (and the poll is still scheduled).
  if (r === "retry") throw new Error("The result images could not be downloaded yet");
  return { state: r };
}

export const imageAiJobHandlers: Record<string, JobHandler> = {
  [IMAGE_AI_RUN_JOB]: async (payload, ctx) => runImageAiRequest(ctx, payload),
  [IMAGE_AI_POLL_JOB]: async (payload, ctx) => pollImageAiRequest(ctx, payload),
  [IMAGE_AI_WEBHOOK_JOB]: async (payload, ctx) => settleFromWebhook(ctx, payload),
};
