/**
 * What a settled garment try-on (image-AI target "outfit", id `<outfit>:<attempt>:<garment>`)
 * means for its generated outfit. Imported for its side effect by app/jobs/handlers.server.ts, so
 * the worker and the fal webhook both see it.
 *
 * Every write is conditional on the outfit still being on the same run (attempt) and in progress:
 * a late report of a deleted, settled or retried outfit changes nothing, and a repeated completion
 * does not start the next garment twice (the image-AI request settles once).
 */
import type { AppContext } from "~/context.server";
import type { ImageAiOutput } from "~/providers/image-ai/port";
import { registerImageAiTarget, type ImageAiRequestRecord } from "../image-ai/requests.server";
import { loadGarment, outfitErrorMessage, OUTFIT_TARGET, parseOutfitTargetId, startGarment } from "./index.server";
import { OutfitTransitionError, PHASE_FIELDS, transition, type OutfitEvent } from "./state";

const IN_PROGRESS = [PHASE_FIELDS.queued, PHASE_FIELDS.rendering];

async function currentRun(ctx: AppContext, req: ImageAiRequestRecord) {
  const t = parseOutfitTargetId(req.target_id);
  if (!t) return null;
  const row = await ctx.db.outfit.findFirst({ where: { id: t.outfitId, source: "generated", generation_attempt: t.attempt } });
  return row ? { row, ...t } : null;
}

/** Applies `event` if allowed now; false when the outfit moved on meanwhile (or the event is refused). */
async function apply(
  ctx: AppContext,
  run: NonNullable<Awaited<ReturnType<typeof currentRun>>>,
  event: OutfitEvent,
  extra: { image_url?: string; error?: string | null } = {},
): Promise<boolean> {
  let next;
  try {
    next = transition(run.row, event);
  } catch (e) {
    if (e instanceof OutfitTransitionError) return false;
    throw e;
  }
  const r = await ctx.db.outfit.updateMany({
    where: { id: run.outfitId, generation_attempt: run.attempt, OR: IN_PROGRESS },
    data: { ...next, ...extra },
  });
  return r.count > 0;
}

export async function onOutfitGarmentProgress(ctx: AppContext, req: ImageAiRequestRecord): Promise<void> {
  const run = await currentRun(ctx, req);
  if (!run) return;
  await apply(ctx, run, { type: "progress", garment: run.garment, total: run.row.product_ids.length, percent: req.progress });
}

export async function onOutfitGarmentFailed(ctx: AppContext, req: ImageAiRequestRecord, error: string): Promise<void> {
  const run = await currentRun(ctx, req);
  if (!run) return;
  const productId = run.row.product_ids[run.garment];
  const title = productId ? (await ctx.db.product.findUnique({ where: { id: productId }, select: { title: true } }))?.title : undefined;
  await apply(ctx, run, { type: "fail" }, { error: outfitErrorMessage(error, title) });
}

export async function onOutfitGarmentCompleted(ctx: AppContext, req: ImageAiRequestRecord, output: ImageAiOutput): Promise<void> {
  const run = await currentRun(ctx, req);
  if (!run) return;
  const image = output.images[0]?.url;
  if (!image) {
    await onOutfitGarmentFailed(ctx, req, "The image provider returned no image");
    return;
  }
  const total = run.row.product_ids.length;
  const nextIndex = run.garment + 1;
  if (nextIndex >= total) {
    await apply(ctx, run, { type: "complete" }, { image_url: image, error: null });
    ctx.log.info({ outfitId: run.outfitId, garments: total }, "outfit generation completed");
    return;
  }
  // The image so far is kept, so a shopper watching sees the look build up.
  const moved = await apply(ctx, run, { type: "progress", garment: nextIndex, total, percent: 0 }, { image_url: image });
  if (!moved) return;
  const garment = await loadGarment(ctx.db, run.row.product_ids[nextIndex]);
  if (!garment) {
    await apply(ctx, { ...run, row: { ...run.row, ...PHASE_FIELDS.rendering } }, { type: "fail" }, { error: "A product of this outfit can no longer be tried on" });
    return;
  }
  try {
    await startGarment(ctx, run.row, nextIndex, garment, image);
  } catch (e) {
    const message = outfitErrorMessage(e instanceof Error ? e.message : String(e), garment.product.title);
    await apply(ctx, { ...run, row: { ...run.row, ...PHASE_FIELDS.rendering } }, { type: "fail" }, { error: message });
  }
}

registerImageAiTarget(OUTFIT_TARGET, { progress: onOutfitGarmentProgress, completed: onOutfitGarmentCompleted, failed: onOutfitGarmentFailed });
