/**
 * fal webhooks: POST /api/fal/webhook?request=<our request id>&token=<HMAC-SHA256(FAL_WEBHOOK_SECRET, id) hex>.
 * The token binds the URL to one request (fal's webhook body is not signed with a secret of ours).
 * The route answers quickly: it checks the token, reads the body, and leaves the settlement
 * (downloading the images) to the job image-ai.webhook. Repeats and late or out-of-order
 * deliveries (an ERROR after an OK) change nothing: a settled request never changes again.
 *
 * Signature. fal also signs each delivery (ED25519, X-Fal-Webhook-* headers, keys from the JWKS
 * at FAL_WEBHOOK_JWKS_URL, cached 24 h). With FAL_WEBHOOK_VERIFY_SIGNATURE on (`auto`: in
 * production mode) and the fal provider in use, a delivery needs both the token and a valid
 * signature over the raw body: a bad or missing signature → 401, the JWKS unreachable → 503 (fal
 * retries the delivery later).
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { ImageAiOperation, ImageAiProviderName } from "~/providers/image-ai/port";
import {
  falWebhookUrl as buildFalWebhookUrl,
  fetchFalJwks,
  parseFalWebhook,
  verifyFalWebhook,
  verifyFalWebhookSignature,
  type FalJwks,
} from "~/providers/image-ai/fal-webhook";
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

/** Whether fal's webhook signatures are required (FAL_WEBHOOK_VERIFY_SIGNATURE; `auto` = production mode), given fal is in use. */
export function falWebhookSignatureRequired(ctx: Pick<AppContext, "config" | "imageAi">): boolean {
  const mode = ctx.config.FAL_WEBHOOK_VERIFY_SIGNATURE;
  const on = mode === "on" || (mode === "auto" && ctx.config.APP_MODE === "production");
  return on && Boolean(ctx.imageAi.providers.fal);
}

export interface FalWebhookOptions {
  /** The body exactly as received (the signature covers its bytes); read from `request` when absent. */
  rawBody?: string;
  /** fal's public keys; default: fetched from FAL_WEBHOOK_JWKS_URL (cached). Tests inject theirs. */
  loadJwks?: () => Promise<FalJwks>;
}

export async function handleFalWebhook(request: Request, ctx: AppContext, opts: FalWebhookOptions = {}): Promise<Response> {
  if (request.method !== "POST") return json(405, { error: "POST only" });
  const url = new URL(request.url);
  const requestId = url.searchParams.get("request") ?? "";
  if (!verifyFalWebhook({ requestId, token: url.searchParams.get("token"), secret: ctx.config.FAL_WEBHOOK_SECRET })) {
    ctx.log.warn({ requestId }, "fal webhook with a bad token");
    return json(401, { error: "Invalid webhook token" });
  }

  let rawBody: string;
  try {
    rawBody = opts.rawBody ?? (await request.text());
  } catch {
    return json(400, { error: "The body could not be read" });
  }

  let signedFor: string | undefined;
  if (falWebhookSignatureRequired(ctx)) {
    if (!request.headers.get("x-fal-webhook-signature")) {
      ctx.log.warn({ requestId }, "fal webhook without a signature");
      return json(401, { error: "Invalid webhook signature: missing X-Fal-Webhook-* signature headers" });
    }
    let jwks: FalJwks;
    try {
      jwks = await (opts.loadJwks ?? (() => fetchFalJwks(ctx.config.FAL_WEBHOOK_JWKS_URL)))();
    } catch (e) {
      ctx.log.error({ err: e, requestId, jwksUrl: ctx.config.FAL_WEBHOOK_JWKS_URL }, "fal webhook: the JWKS could not be fetched");
      return json(503, { error: "Cannot verify the webhook signature right now" });
    }
    const verified = verifyFalWebhookSignature({ headers: request.headers, rawBody, jwks });
    if (!verified.ok) {
      ctx.log.warn({ requestId, reason: verified.reason }, "fal webhook with a bad signature");
      return json(401, { error: `Invalid webhook signature: ${verified.reason}` });
    }
    signedFor = verified.requestId;
  }

  const req = await getImageAiRequest(ctx, requestId);
  if (!req) return json(404, { error: "Unknown request" });

  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return json(400, { error: "The body is not JSON" });
  }

  let parsed: ReturnType<typeof parseFalWebhook>;
  try {
    parsed = parseFalWebhook(body);
  } catch (e) {
    return json(400, { error: `Not a fal webhook: ${(e as Error).message}` });
  }
  if (signedFor && signedFor !== parsed.providerRequestId) {
    ctx.log.warn({ requestId, signedFor, body: parsed.providerRequestId }, "fal webhook signed for another fal request");
    return json(401, { error: "Invalid webhook signature: signed for another request" });
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
