/**
 * What image-AI requests mean for clones (imported for its side effect by
 * app/jobs/handlers.server.ts, so the worker and the webhook both see it):
 *
 * - "clone_training" (target id: the CloneTrainingJob): progress moves the job to preprocessing /
 *   training and the clone to PROCESSING_IMAGES / PROCESSING with its progress; completion makes
 *   the job completed (completed_at, duration in seconds) and the clone READY / COMPLETED with its
 *   LoRA (null for the local provider, which only prepares the photos), trigger word and the
 *   per-photo results in attributes.prepared; failure makes the job failed and the clone
 *   ERROR / ERROR. A job that is no longer the clone's newest leaves the clone alone.
 * - "clone_profile" (target id: the clone): completion sets profileImageUrl to the first output
 *   image and records it as a generated image (kind "profile"); failure is logged and recorded.
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { registerImageAiTarget, type ImageAiRequestRecord } from "~/services/image-ai/requests.server";
import { cloneAttributes, setProfileState, ACTIVE_TRAINING_STATUSES } from "./index.server";

async function jobOf(ctx: AppContext, req: ImageAiRequestRecord) {
  if (!req.target_id) return null;
  return ctx.db.cloneTrainingJob.findUnique({ where: { id: req.target_id } });
}

/** Whether the job is its clone's newest training (an older one must not overwrite the clone). */
async function isNewestJob(ctx: AppContext, job: { id: string; clone_id: string | null }): Promise<boolean> {
  if (!job.clone_id) return false;
  const newest = await ctx.db.cloneTrainingJob.findFirst({ where: { clone_id: job.clone_id }, orderBy: [{ created_at: "desc" }, { id: "desc" }], select: { id: true } });
  return newest?.id === job.id;
}

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

registerImageAiTarget("clone_training", {
  async progress(ctx, req) {
    const job = await jobOf(ctx, req);
    if (!job) return;
    const progress = clamp(req.progress ?? 0);
    const status = progress < 20 ? "preprocessing" : "training";
    const r = await ctx.db.cloneTrainingJob.updateMany({
      where: { id: job.id, status: { in: [...ACTIVE_TRAINING_STATUSES] } },
      data: { status, progress: Math.max(job.progress, progress) },
    });
    if (r.count === 0 || !(await isNewestJob(ctx, job))) return;
    await ctx.db.clone.updateMany({
      where: { id: job.clone_id!, processing_status: "PROCESSING_IMAGES" },
      data: { outfit_generation_status: "PROCESSING", processing_progress: progress },
    });
  },

  async completed(ctx, req, output) {
    const job = await jobOf(ctx, req);
    if (!job) return;
    const now = new Date();
    const prepared = output.prepared ?? [];
    const usable = prepared.filter((p) => p.ok).length;
    if (prepared.length > 0 && usable === 0) {
      const error = `None of the photos could be prepared: ${prepared.map((p) => p.reason).filter(Boolean)[0] ?? "no usable person found"}`;
      await fail(ctx, job, error, prepared);
      return;
    }
    const r = await ctx.db.cloneTrainingJob.updateMany({
      where: { id: job.id, status: { in: [...ACTIVE_TRAINING_STATUSES] } },
      data: { status: "completed", progress: 100, error: null, completed_at: now, duration: Math.max(0, Math.round((now.getTime() - job.created_at.getTime()) / 1000)) },
    });
    if (r.count === 0 || !(await isNewestJob(ctx, job))) return;
    const clone = await ctx.db.clone.findUnique({ where: { id: job.clone_id! } });
    if (!clone) return;
    await ctx.db.clone.update({
      where: { id: clone.id },
      data: {
        lora_url: output.lora_url ?? null,
        trigger_word: output.trigger_word ?? clone.trigger_word,
        processing_status: "READY",
        outfit_generation_status: "COMPLETED",
        processing_progress: 100,
        attributes: {
          ...cloneAttributes(clone),
          prepared,
          training: { job_id: job.id, request_id: req.id, provider: req.provider, completed_at: now.toISOString(), meta: output.meta ?? null },
        } as unknown as Prisma.InputJsonValue,
      },
    });
    ctx.log.info({ cloneId: clone.id, jobId: job.id, usable, lora: !!output.lora_url }, "clone training completed");
  },

  async failed(ctx, req, error) {
    const job = await jobOf(ctx, req);
    if (!job) return;
    await fail(ctx, job, error);
  },
});

async function fail(ctx: AppContext, job: { id: string; clone_id: string | null }, error: string, prepared?: unknown[]) {
  const cancelled = error === "Cancelled";
  const r = await ctx.db.cloneTrainingJob.updateMany({
    where: { id: job.id, status: { in: [...ACTIVE_TRAINING_STATUSES] } },
    data: { status: cancelled ? "cancelled" : "failed", error: error.slice(0, 2000), completed_at: new Date() },
  });
  if (r.count === 0 || !(await isNewestJob(ctx, job))) return;
  const clone = await ctx.db.clone.findUnique({ where: { id: job.clone_id! } });
  if (!clone) return;
  await ctx.db.clone.update({
    where: { id: clone.id },
    data: {
      processing_status: "ERROR",
      outfit_generation_status: "ERROR",
      attributes: { ...cloneAttributes(clone), ...(prepared ? { prepared } : {}), training_error: error.slice(0, 500) } as unknown as Prisma.InputJsonValue,
    },
  });
  ctx.log.warn({ cloneId: clone.id, jobId: job.id, error }, "clone training failed");
}

registerImageAiTarget("clone_profile", {
  async completed(ctx, req, output) {
    const cloneId = req.target_id;
    if (!cloneId) return;
    const image = output.images[0];
    const clone = await ctx.db.clone.findUnique({ where: { id: cloneId } });
    if (!clone) return;
    if (!image) {
      await setProfileState(ctx, cloneId, { request_id: req.id, status: "failed", error: "The provider answered no image" });
      ctx.log.warn({ cloneId, requestId: req.id }, "clone profile image: no output image");
      return;
    }
    await ctx.db.generatedImage.create({
      data: { clone_id: cloneId, image_url: image.url, kind: "profile", status: "completed", width: image.width ?? null, height: image.height ?? null },
    });
    await setProfileState(ctx, cloneId, { request_id: req.id, status: "completed", error: null }, { profileImageUrl: image.url });
    ctx.log.info({ cloneId, requestId: req.id }, "clone profile image generated");
  },
  async failed(ctx, req, error) {
    const cloneId = req.target_id;
    ctx.log.warn({ cloneId, requestId: req.id, error }, "clone profile image generation failed");
    if (cloneId) await setProfileState(ctx, cloneId, { request_id: req.id, status: "failed", error: error.slice(0, 500) });
  },
});
