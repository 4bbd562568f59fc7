/**
 * What the /fal/* endpoints do beyond starting a request: the caller's view of a request,
 * ownership (the owner, or an admin with ai.train; anyone else gets 404, as for a missing one),
 * admin tools on clones (their LoRA and trigger word added to the input), capabilities.
 */
import type { User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { hasPermission } from "~/api/auth.server";
import { notFound, notImplemented, unprocessable } from "~/api/errors.server";
import { IMAGE_AI_OPERATIONS, type ImageAiOperation } from "~/providers/image-ai/port";
import type { ImageModelsRequest } from "~/contract/image-models";
import {
  cancelImageAiRequest,
  getImageAiRequest,
  requestOutput,
  startImageAiRequest,
  supportsOperation,
  type ImageAiRequestRecord,
} from "./requests.server";

export function imageRequestView(req: ImageAiRequestRecord): ImageModelsRequest {
  const out = requestOutput(req);
  return {
    request_id: req.id,
    operation: req.operation,
    provider: req.provider,
    status: req.status,
    progress: req.progress,
    message: req.message,
    error: req.error,
    images: out?.images ?? [],
    lora_url: out?.lora_url ?? null,
    trigger_word: out?.trigger_word ?? null,
    prepared: out?.prepared ?? null,
    seed: out?.seed ?? null,
    target_type: req.target_type,
    target_id: req.target_id,
    created_at: req.created_at,
    started_at: req.started_at,
    completed_at: req.completed_at,
  };
}

const canSeeAll = (user: Pick<User, "role" | "permissions">) => hasPermission(user, "ai.train");

/** The request if the user may see it (own, or admin with ai.train), else 404. */
export async function getVisibleImageRequest(ctx: AppContext, user: Pick<User, "id" | "role" | "permissions">, id: string): Promise<ImageAiRequestRecord> {
  const req = await getImageAiRequest(ctx, id);
  if (!req || (req.user_id !== user.id && !canSeeAll(user))) throw notFound("Image request not found");
  return req;
}

export async function cancelVisibleImageRequest(ctx: AppContext, user: Pick<User, "id" | "role" | "permissions">, id: string): Promise<ImageAiRequestRecord> {
  await getVisibleImageRequest(ctx, user, id);
  return cancelImageAiRequest(ctx, id);
}

export function imageCapabilities(ctx: AppContext) {
  return {
    adapter: ctx.config.IMAGE_AI_ADAPTER as "local" | "fal",
    operations: IMAGE_AI_OPERATIONS.map((operation) => ({ operation, ...supportsOperation(ctx, operation) })),
  };
}

/** 501 with the port's message when the provider routed for `op` cannot do it. */
export function assertSupported(ctx: AppContext, op: ImageAiOperation): void {
  const s = supportsOperation(ctx, op);
  if (!s.supported) throw notImplemented(s.message ?? `${op} is not available`);
}

const CLONE_OPS = new Set<ImageAiOperation>(["generate-flux-lora-clone", "generate-flux-lora-clone-raw"]);

/**
 * An admin tool call: the op's input (validated by the contract), on the "tool" target.
 * Generation "with a clone" (clone_id) gets the clone's LoRA first and its trigger word in the prompt.
 */
export async function startImageTool(ctx: AppContext, op: ImageAiOperation, body: Record<string, unknown>, userId: string): Promise<ImageAiRequestRecord> {
  assertSupported(ctx, op);
  let input: Record<string, unknown> = body;
  if (CLONE_OPS.has(op) && typeof body.clone_id === "string") {
    const { clone_id, ...rest } = body;
    const clone = await ctx.db.clone.findUnique({ where: { id: clone_id as string } });
    if (!clone) throw notFound("Clone not found");
    if (!clone.lora_url) throw unprocessable("This clone has no trained model yet: train it first (POST /fal/train-flux-admin)");
    const loras = [{ url: clone.lora_url, scale: 1 }, ...((rest.loras as unknown[]) ?? [])].slice(0, 3);
    const prompt = String(rest.prompt ?? "");
    const trigger = clone.trigger_word;
    input = { ...rest, loras, prompt: trigger && !prompt.includes(trigger) ? `${trigger} ${prompt}` : prompt };
  }
  return startImageAiRequest(ctx, { operation: op, input, userId, target: { type: "tool", id: op } });
}
