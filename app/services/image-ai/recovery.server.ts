/**
 * Image-AI jobs after a crash. A process that dies while a job of the image-AI queue runs (a local
 * try-on or training inside image-ai.run, a poll, a webhook settlement) stops renewing the job's
 * lease; the next claim takes the job over (app/jobs/queue.server.ts) and asks here what to do:
 * - image-ai.run of a request never submitted to a provider (local work, or a fal submit cut
 *   short) is abandoned: the local work may well be what killed the process, and a shopper is
 *   waiting for an answer, so the request fails as interrupted instead of running again;
 * - a request already at fal (provider_request_id), or a poll / webhook job, resumes: the run
 *   follows the fal request by polling, polls and settlements are idempotent.
 * When the job ends failed (abandoned, or no attempt left), its request, if still open, is failed
 * through settleImageAiRequest, so the target's hook runs once (try-on failed, clone training ERROR…).
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { JobRecovery } from "~/jobs/worker.server";
import { IMAGE_AI_RUN_JOB, isTerminal, settleImageAiRequest } from "./requests.server";

const requestIdOf = (payload: Prisma.JsonValue): string | null => {
  const p = payload as { requestId?: unknown } | null;
  return p && typeof p === "object" && typeof p.requestId === "string" ? p.requestId : null;
};

async function openRequest(ctx: AppContext, payload: Prisma.JsonValue) {
  const requestId = requestIdOf(payload);
  const req = requestId ? await ctx.db.imageAiRequest.findUnique({ where: { id: requestId }, select: { id: true, status: true, provider_request_id: true } }) : null;
  return req && !isTerminal(req.status) ? req : null;
}

export function imageAiRecovery(queue: string): JobRecovery {
  return {
    async onInterrupted(payload, ctx) {
      if (queue !== IMAGE_AI_RUN_JOB) return "resume";
      const req = await openRequest(ctx, payload);
      return req && !req.provider_request_id ? "abandon" : "resume";
    },
    async onFailed(payload, ctx, error) {
      const req = await openRequest(ctx, payload);
      if (!req) return;
      await settleImageAiRequest(ctx, req.id, { state: "failed", error });
      ctx.log.warn({ requestId: req.id, queue, error }, "image-ai request failed with its job");
    },
  };
}
