/**
 * Image-AI requests: one row per model call (image_ai_requests), run by the worker on queue
 * "image-ai" (jobs image-ai.run / image-ai.poll / image-ai.webhook, see ./jobs.server.ts).
 *
 * Life of a request: queued → in_progress → completed | failed | cancelled. A terminal row never
 * changes again: every settlement is a conditional update on the status, so the job, the poll,
 * a webhook (or a repeat of it) and a cancellation can race and exactly one of them wins. The
 * winner copies output images into our storage first, then calls the target's hook once.
 *
 * Areas say what a settled request means for them with `registerImageAiTarget` (try-ons, clone
 * training, clone profile images); the "tool" target (admin tools) only keeps the output.
 */
import type { ImageAiRequest, Prisma } from "@prisma/client";
import { z } from "zod";
import type { AppContext } from "~/context.server";
import { ApiError, badRequest, notFound, notImplemented } from "~/api/errors.server";
import {
  ImageAiOutput,
  ImageAiUnsupportedError,
  imageAiInputs,
  type ImageAiOperation,
  type ImageAiProvider,
  type ImageAiProviderName,
} from "~/providers/image-ai/port";
import { copyOutputImages } from "./outputs.server";

export type ImageAiRequestRecord = ImageAiRequest;
export type ImageAiTarget = { type: "tryon" | "clone_training" | "clone_profile" | "tool" | "outfit"; id: string };
export type ImageAiRequestStatus = ImageAiRequest["status"];

export interface ImageAiTargetHooks {
  progress?(ctx: AppContext, req: ImageAiRequestRecord): Promise<void>;
  completed(ctx: AppContext, req: ImageAiRequestRecord, output: ImageAiOutput): Promise<void>;
  failed(ctx: AppContext, req: ImageAiRequestRecord, error: string): Promise<void>;
}

export const IMAGE_AI_RUN_JOB = "image-ai.run";
export const IMAGE_AI_POLL_JOB = "image-ai.poll";
export const IMAGE_AI_WEBHOOK_JOB = "image-ai.webhook";
/** Every job of the image-AI queue (a worker loop of its own, so imports and indexing never hold up try-ons). */
export const IMAGE_AI_JOBS = [IMAGE_AI_RUN_JOB, IMAGE_AI_POLL_JOB, IMAGE_AI_WEBHOOK_JOB] as const;

const ACTIVE: ImageAiRequestStatus[] = ["queued", "in_progress"];
export const isTerminal = (status: ImageAiRequestStatus) => status === "completed" || status === "failed" || status === "cancelled";

// ---------------------------------------------------------------------------------------------
// Target hooks

const targetHooks = new Map<ImageAiTarget["type"], ImageAiTargetHooks>();

export function registerImageAiTarget(type: ImageAiTarget["type"], hooks: ImageAiTargetHooks): void {
  targetHooks.set(type, hooks);
}

let hooksLoaded: Promise<unknown> | null = null;
/** Areas register their hooks in modules that app/jobs/handlers.server.ts imports: make sure they ran in this process. */
async function ensureHooks(): Promise<void> {
  hooksLoaded ??= import("~/jobs/handlers.server").catch(() => {
    hooksLoaded = null;
  });
  await hooksLoaded;
}

async function hooksFor(req: ImageAiRequestRecord): Promise<ImageAiTargetHooks | undefined> {
  if (!req.target_type) return undefined;
  await ensureHooks();
  return targetHooks.get(req.target_type as ImageAiTarget["type"]);
}

// ---------------------------------------------------------------------------------------------
// Providers

/** The provider a request runs on: the one recorded on the row (routes may change between deploys). */
export function providerOf(ctx: AppContext, req: Pick<ImageAiRequestRecord, "provider" | "operation">): ImageAiProvider {
  return ctx.imageAi.providers[req.provider as ImageAiProviderName] ?? ctx.imageAi.providerFor(req.operation as ImageAiOperation);
}

export function supportsOperation(ctx: AppContext, op: ImageAiOperation): { provider: ImageAiProviderName; supported: boolean; message?: string } {
  const provider = ctx.imageAi.providerFor(op);
  const supported = provider.supports(op);
  return supported ? { provider: provider.name, supported } : { provider: provider.name, supported, message: new ImageAiUnsupportedError(op, provider.name).message };
}

// ---------------------------------------------------------------------------------------------
// Public API

function inputError(op: ImageAiOperation, error: z.ZodError): ApiError {
  const first = error.issues[0];
  const field = first?.path.join(".");
  const message = first ? (field ? `${field}: ${first.message}` : first.message) : "Invalid input";
  return badRequest(`Invalid ${op} input: ${message}`, { issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code })) });
}

export async function startImageAiRequest(
  ctx: AppContext,
  args: { operation: ImageAiOperation; input: unknown; userId: string | null; target?: ImageAiTarget },
): Promise<ImageAiRequestRecord> {
  const schema = imageAiInputs[args.operation] as z.ZodType | undefined;
  if (!schema) throw badRequest(`Unknown image operation ${String(args.operation)}`);
  const parsed = schema.safeParse(args.input);
  if (!parsed.success) throw inputError(args.operation, parsed.error);
  const provider = ctx.imageAi.providerFor(args.operation);
  if (!provider.supports(args.operation)) throw notImplemented(new ImageAiUnsupportedError(args.operation, provider.name).message);
  const row = await ctx.db.imageAiRequest.create({
    data: {
      operation: args.operation,
      provider: provider.name,
      status: "queued",
      input: parsed.data as Prisma.InputJsonValue,
      user_id: args.userId,
      target_type: args.target?.type ?? null,
      target_id: args.target?.id ?? null,
      message: "Queued",
    },
  });
  await ctx.queue.enqueue(IMAGE_AI_RUN_JOB, { requestId: row.id }, { dedupeKey: `${IMAGE_AI_RUN_JOB}:${row.id}:0`, maxAttempts: 3 });
  ctx.log.info({ requestId: row.id, operation: row.operation, provider: row.provider, target: args.target }, "image-ai request queued");
  return row;
}

export async function getImageAiRequest(ctx: AppContext, id: string): Promise<ImageAiRequestRecord | null> {
  if (!z.string().uuid().safeParse(id).success) return null;
  return ctx.db.imageAiRequest.findUnique({ where: { id } });
}

/**
 * Cancels a queued or running request (the provider is asked to drop it too) and tells its target
 * it failed with "Cancelled". A request that already ended is answered unchanged.
 */
export async function cancelImageAiRequest(ctx: AppContext, id: string): Promise<ImageAiRequestRecord> {
  const req = await getImageAiRequest(ctx, id);
  if (!req) throw notFound("Image request not found");
  if (isTerminal(req.status)) return req;
  const won = await ctx.db.imageAiRequest.updateMany({
    where: { id, status: { in: ACTIVE } },
    data: { status: "cancelled", message: "Cancelled", error: "Cancelled", completed_at: new Date() },
  });
  const after = (await ctx.db.imageAiRequest.findUnique({ where: { id } }))!;
  if (won.count === 0) return after;
  if (req.provider_request_id) {
    await providerOf(ctx, req)
      .cancel(req.operation as ImageAiOperation, req.provider_request_id)
      .catch((e: unknown) => ctx.log.warn({ err: e, requestId: id }, "image-ai provider cancel failed"));
  }
  await callHook(ctx, after, "failed", "Cancelled");
  return after;
}

// ---------------------------------------------------------------------------------------------
// Progress and settlement (jobs and webhook)

/** Records progress of an active request and tells its target. False when the request is no longer active. */
export async function recordImageAiProgress(ctx: AppContext, id: string, progress: number, message?: string): Promise<boolean> {
  const p = Math.max(0, Math.min(99, Math.round(progress)));
  const r = await ctx.db.imageAiRequest.updateMany({
    where: { id, status: { in: ACTIVE } },
    data: { status: "in_progress", progress: p, ...(message !== undefined ? { message: message.slice(0, 500) } : {}) },
  });
  if (r.count === 0) return false;
  const req = await ctx.db.imageAiRequest.findUnique({ where: { id } });
  const hooks = req ? await hooksFor(req) : undefined;
  if (req && hooks?.progress) {
    await hooks.progress(ctx, req).catch((e: unknown) => ctx.log.warn({ err: e, requestId: id }, "image-ai progress hook failed"));
  }
  return true;
}

export type ImageAiOutcome = { state: "completed"; output: unknown } | { state: "failed"; error: string };

/**
 * Settles a request once: the first caller whose conditional update wins stores the outcome and
 * calls the target hook; later or concurrent calls (a repeated webhook, an ERROR after an OK, the
 * poll after the webhook) change nothing and answer `settled: false`. Output images that are not
 * in our storage yet are copied first (a failed download throws, so the caller can retry).
 */
export async function settleImageAiRequest(ctx: AppContext, id: string, outcome: ImageAiOutcome): Promise<{ settled: boolean; request: ImageAiRequestRecord | null }> {
  const req = await ctx.db.imageAiRequest.findUnique({ where: { id } });
  if (!req || isTerminal(req.status)) return { settled: false, request: req };

  if (outcome.state === "completed") {
    const parsed = ImageAiOutput.safeParse(outcome.output ?? {});
    if (!parsed.success) {
      ctx.log.warn({ requestId: id, issues: parsed.error.issues.slice(0, 3) }, "image-ai provider answered an unexpected output");
      return settleImageAiRequest(ctx, id, { state: "failed", error: "The image provider answered an unexpected result" });
    }
    const output = await copyOutputImages(ctx, req.id, parsed.data);
    const won = await ctx.db.imageAiRequest.updateMany({
      where: { id, status: { in: ACTIVE } },
      data: { status: "completed", output: output as Prisma.InputJsonValue, progress: 100, message: "Completed", error: null, completed_at: new Date() },
    });
    const after = await ctx.db.imageAiRequest.findUnique({ where: { id } });
    if (won.count === 0 || !after) return { settled: false, request: after };
    ctx.log.info({ requestId: id, operation: req.operation, images: output.images.length }, "image-ai request completed");
    await callHook(ctx, after, "completed", output);
    return { settled: true, request: after };
  }

  const error = (outcome.error || "The image provider failed").slice(0, 2000);
  const won = await ctx.db.imageAiRequest.updateMany({
    where: { id, status: { in: ACTIVE } },
    data: { status: "failed", error, message: "Failed", completed_at: new Date() },
  });
  const after = await ctx.db.imageAiRequest.findUnique({ where: { id } });
  if (won.count === 0 || !after) return { settled: false, request: after };
  ctx.log.warn({ requestId: id, operation: req.operation, error }, "image-ai request failed");
  await callHook(ctx, after, "failed", error);
  return { settled: true, request: after };
}

async function callHook(ctx: AppContext, req: ImageAiRequestRecord, kind: "completed", arg: ImageAiOutput): Promise<void>;
async function callHook(ctx: AppContext, req: ImageAiRequestRecord, kind: "failed", arg: string): Promise<void>;
async function callHook(ctx: AppContext, req: ImageAiRequestRecord, kind: "completed" | "failed", arg: ImageAiOutput | string): Promise<void> {
  const hooks = await hooksFor(req);
  if (!hooks) return;
  try {
    if (kind === "completed") await hooks.completed(ctx, req, arg as ImageAiOutput);
    else await hooks.failed(ctx, req, arg as string);
  } catch (e) {
    // The request stays settled: a hook must not be run twice. Its failure is logged for a human.
    ctx.log.error({ err: e, requestId: req.id, target: { type: req.target_type, id: req.target_id }, kind }, "image-ai target hook failed");
  }
}

/** The stored output of a completed request (parsed), or null. */
export function requestOutput(req: Pick<ImageAiRequestRecord, "output">): ImageAiOutput | null {
  if (!req.output) return null;
  const parsed = ImageAiOutput.safeParse(req.output);
  return parsed.success ? parsed.data : null;
}
