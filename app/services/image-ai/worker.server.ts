/**
 * The inline worker as two loops: one for the image-AI jobs (try-ons, training, tools) and one
 * for everything else, so a long import or a re-indexing never keeps a shopper's try-on waiting.
 * Both claim from the same jobs table (FOR UPDATE SKIP LOCKED), each for its own job names.
 */
import type { AppContext } from "~/context.server";
import { startWorker, type JobHandler, type Worker } from "~/jobs/worker.server";
import { IMAGE_AI_JOBS } from "./requests.server";
import { SWEEP_INTERVAL_MS, sweepStaleImageAiRequests } from "./sweep.server";

export function startWorkerLoops(ctx: AppContext, handlers: Record<string, JobHandler>, opts: { pollMs?: number; autoStart?: boolean } = {}): Worker {
  const imageAi: Record<string, JobHandler> = {};
  const rest: Record<string, JobHandler> = {};
  for (const [name, handler] of Object.entries(handlers)) ((IMAGE_AI_JOBS as readonly string[]).includes(name) ? imageAi : rest)[name] = handler;
  const loops = [startWorker(ctx, rest, opts), startWorker(ctx, imageAi, opts)];
  // Requests abandoned by a process that died mid-job (see ./sweep.server.ts); boot sweeps once first.
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweepTimer =
    opts.autoStart === false
      ? undefined
      : setInterval(() => {
          sweeping = sweepStaleImageAiRequests(ctx).catch((e: unknown) => ctx.log.warn({ err: e }, "image-ai stale sweep failed"));
        }, SWEEP_INTERVAL_MS);
  sweepTimer?.unref();
  return {
    id: loops[0].id,
    async drain() {
      let total = 0;
      for (;;) {
        let n = 0;
        for (const w of loops) n += await w.drain();
        total += n;
        if (n === 0) return total;
      }
    },
    async stop() {
      if (sweepTimer) clearInterval(sweepTimer);
      await Promise.all([...loops.map((w) => w.stop()), sweeping]);
    },
  };
}
