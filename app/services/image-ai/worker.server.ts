/**
 * The inline worker as two loops: one for the image-AI jobs (try-ons, training, tools) and one
 * for everything else, so a long import or a re-indexing never keeps a shopper's try-on waiting.
 * Both claim from the same jobs table (FOR UPDATE SKIP LOCKED), each for its own job names.
 */
import type { AppContext } from "~/context.server";
import { startWorker, type JobHandler, type Worker } from "~/jobs/worker.server";
import { IMAGE_AI_JOBS } from "./requests.server";

export function startWorkerLoops(ctx: AppContext, handlers: Record<string, JobHandler>, opts: { pollMs?: number; autoStart?: boolean } = {}): Worker {
  const imageAi: Record<string, JobHandler> = {};
  const rest: Record<string, JobHandler> = {};
  for (const [name, handler] of Object.entries(handlers)) ((IMAGE_AI_JOBS as readonly string[]).includes(name) ? imageAi : rest)[name] = handler;
  const loops = [startWorker(ctx, rest, opts), startWorker(ctx, imageAi, opts)];
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
      await Promise.all(loops.map((w) => w.stop()));
    },
  };
}
