/**
 * What a settled `vton-flux` request means for its try-on (image-AI target "tryon"), and what a
 * flat-image request means for its product (target id "flat:<product id>", ./products.server).
 * Imported for its side effect by app/jobs/handlers.server.ts, so the worker and the webhook see it.
 *
 * Every update is conditional on the try-on still being active (queued or processing): a late
 * progress report never moves a settled try-on back, and a repeated completion adds no images.
 */
import type { AppContext } from "~/context.server";
import { registerImageAiTarget, type ImageAiRequestRecord } from "../image-ai/requests.server";
import type { ImageAiOutput } from "~/providers/image-ai/port";
import { FLAT_TARGET_PREFIX, storeFlatImage } from "./products.server";

const ACTIVE = ["queued", "processing"] as const;

function flatProductOf(req: ImageAiRequestRecord): string | null {
  return req.target_id?.startsWith(FLAT_TARGET_PREFIX) ? req.target_id.slice(FLAT_TARGET_PREFIX.length) : null;
}

/** Shopper-facing words for a provider failure (the raw error stays on the image request). */
export function tryOnErrorMessage(error: string): string {
  const e = error.trim();
  if (!e) return "The try-on failed";
  if (/cancel/i.test(e)) return "The try-on was cancelled";
  return e.length > 500 ? `${e.slice(0, 497)}...` : e;
}

export async function onTryOnProgress(ctx: AppContext, req: ImageAiRequestRecord): Promise<void> {
  if (flatProductOf(req) || !req.target_id) return;
  await ctx.db.tryOn.updateMany({
    where: { id: req.target_id, status: { in: [...ACTIVE] } },
    data: { status: "processing", progress: Math.max(0, Math.min(99, req.progress)) },
  });
}

export async function onTryOnCompleted(ctx: AppContext, req: ImageAiRequestRecord, output: ImageAiOutput): Promise<void> {
  const productId = flatProductOf(req);
  if (productId) {
    const url = output.images[0]?.url;
    if (url) await storeFlatImage(ctx.db, productId, url);
    else ctx.log.warn({ requestId: req.id, productId }, "flat image request completed without an image");
    return;
  }
  if (!req.target_id) return;
  const tryonId = req.target_id;
  if (output.images.length === 0) {
    await onTryOnFailed(ctx, req, "The image provider returned no image");
    return;
  }
  await ctx.db.$transaction(async (tx) => {
    const won = await tx.tryOn.updateMany({
      where: { id: tryonId, status: { in: [...ACTIVE] } },
      data: { status: "completed", progress: 100, error: null, completed_at: new Date() },
    });
    if (won.count === 0) return; // deleted or already settled
    await tx.generatedImage.createMany({
      data: output.images.map((img) => ({
        tryon_id: tryonId,
        image_url: img.url,
        kind: "tryon",
        status: "completed" as const,
        width: img.width ?? null,
        height: img.height ?? null,
      })),
    });
  });
}

export async function onTryOnFailed(ctx: AppContext, req: ImageAiRequestRecord, error: string): Promise<void> {
  const productId = flatProductOf(req);
  if (productId) {
    ctx.log.warn({ requestId: req.id, productId, error }, "flat image request failed");
    return;
  }
  if (!req.target_id) return;
  await ctx.db.tryOn.updateMany({
    where: { id: req.target_id, status: { in: [...ACTIVE] } },
    data: { status: "failed", error: tryOnErrorMessage(error), completed_at: new Date() },
  });
}

registerImageAiTarget("tryon", { progress: onTryOnProgress, completed: onTryOnCompleted, failed: onTryOnFailed });
