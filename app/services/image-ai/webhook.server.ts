/**
 * fal webhooks: POST /api/fal/webhook?request=<our request id>&token=<HMAC-SHA256(FAL_WEBHOOK_SECRET, id) hex>.
 * The token binds the URL to one request (fal's webhook body is not signed with a secret of ours).
 * The route answers quickly: it checks the token, reads the body, and leaves the settlement
 * (downloading the images) to the job image-ai.webhook. Repeats and late or out-of-order
 * deliveries (an ERROR after an OK) change nothing: a settled request never changes again.
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { ImageAiOperation, ImageAiProviderName } from "~/providers/image-ai/port";
import { falWebhookUrl as buildFalWebhookUrl, parseFalWebhook, verifyFalWebhook } from "~/providers/image-ai/fal-webhook";
import { IMAGE_AI_POLL_JOB, IMAGE_AI_WEBHOOK_JOB, getImageAiRequest, isTerminal, type ImageAiOutcome } from "./requests.server";

export const FAL_WEBHOOK_PATH = "/api/fal/webhook";

/** The webhook URL handed to a queued provider, when a public origin (APP_URL) can receive it; otherwise we poll. */
export function falWebhookUrl(ctx: Pick<AppContext, "config">, provider: ImageAiProviderName, requestId: string): string | undefined {
  if (provider !== "fal") return undefined;
  const origin = ctx.config.APP_URL;
  if (!origin) return undefined;
  return buildFalWebhookUrl(origin, requestId, ctx.config.FAL_WEBHOOK_SECRET);
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

export async function handleFalWebhook(request: Request, ctx: AppContext): Promise<Response> {
  if (request.method !== "POST") return json(405, { error: "POST only" });
  const url = new URL(request.url);
  const requestId = url.searchParams.get("request") ?? "";
  if (!verifyFalWebhook({ requestId, token: url.searchParams.get("token"), secret: ctx.config.FAL_WEBHOOK_SECRET })) {
    ctx.log.warn({ requestId }, "fal webhook with a bad token");
    return json(401, { error: "Invalid webhook token" });
  }
  const req = await getImageAiRequest(ctx, requestId);
  if (!req) return json(404, { error: "Unknown request" });

  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json(400, { error: "The body is not JSON" });
  }

  let parsed: ReturnType<typeof parseFalWebhook>;
  try {
    parsed = parseFalWebhook(body);
  } catch (e) {
    return json(400, { error: `Not a fal webhook: ${(e as Error).message}` });
  }
  if (req.provider_request_id && parsed.providerRequestId && parsed.providerRequestId !== req.provider_request_id) {
    ctx.log.warn({ requestId, got: parsed.providerRequestId, expected: req.provider_request_id }, "fal webhook for another provider request: ignored");
    return json(200, { ok: true, ignored: "another provider request" });
  }
  if (isTerminal(req.status)) return json(200, { ok: true, ignored: `already ${req.status}` });

  if (parsed.status === "OK" && parsed.payloadMissing) {
    // fal could not put the result in the webhook: ask its queue now.
    await ctx.queue.enqueue(IMAGE_AI_POLL_JOB, { requestId, attempt: 0 }, { dedupeKey: `${IMAGE_AI_POLL_JOB}:${requestId}:webhook`, maxAttempts: 3 });
    return json(200, { ok: true, polling: true });
  }
  let outcome: ImageAiOutcome;
  if (parsed.status === "OK") {
    try {
      const { falOutputFromPayload } = await import("~/providers/image-ai/fal.server");
      outcome = { state: "completed", output: falOutputFromPayload(req.operation as ImageAiOperation, parsed.payload, req.input as { trigger_word?: string }) };
    } catch (e) {
      outcome = { state: "failed", error: `The image provider answered an unexpected result: ${(e as Error).message}` };
    }
  } else {
    outcome = { state: "failed", error: parsed.error || "The image provider reported an error" };
  }
  // One settlement job per request at a time: a repeat while the first is queued is dropped, and
  // a later one finds the request settled.
  await ctx.queue.enqueue(
    IMAGE_AI_WEBHOOK_JOB,
    { requestId, providerRequestId: parsed.providerRequestId, outcome } as unknown as Prisma.InputJsonValue,
    { dedupeKey: `${IMAGE_AI_WEBHOOK_JOB}:${requestId}`, maxAttempts: 4 },
  );
  return json(200, { ok: true });
}
