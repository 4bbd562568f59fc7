/**
 * The inline worker as five lanes, each a loop of its own (`startWorker`) claiming from the same
 * jobs table (FOR UPDATE SKIP LOCKED) for its own queues only:
 *
 * - image-ai: try-ons, clone training, tools (`image-ai.run`, `.poll`, `.webhook`): a shopper
 *   waits for these;
 * - admin: work an admin starts from a screen and watches with a progress bar (Taobao import,
 *   catalogue sync, inventory update, style categorisation);
 * - email: sending the outbox's emails (`email.send`: sign-in links, password resets, order and
 *   notification emails): short jobs a person waits for;
 * - background: everything else (boot-time product indexing, recommendation aggregates,
 *   notifications, scheduled drops, review requests…);
 * - media: image variants made ahead of the first request (`images.prewarm` after an upload or
 *   an import): the lowest priority, kept apart so an import's hundreds of encodes hold up
 *   neither the background lane's drops and notifications nor anything a person waits for; one
 *   job and one encode at a time, so it takes at most one core.
 *
 * So an admin's import never waits behind a re-indexing on a fresh start, an email of a fresh
 * server is not sent a minute late behind the start-up indexing, and neither waits behind a
 * try-on (or the other way round). Within a lane jobs still run one at a time, oldest first.
 * Which queue goes to which lane is the table below; a queue it does not name is background work.
 */
import type { AppContext } from "~/context.server";
import { CATALOG_SYNC_QUEUE } from "~/services/catalog-sync.server";
import { INVENTORY_QUEUE } from "~/services/catalog.server";
import { IMAGE_AI_JOBS } from "~/services/image-ai/requests.server";
import { CATEGORISE_QUEUE } from "~/services/styles.server";
import { EMAIL_QUEUE } from "~/services/email.server";
import { ADS_CREATIVES_QUEUE } from "~/services/product-ads/creatives.server";
import { ADS_SYNC_METRICS_QUEUE } from "~/services/product-ads/metrics.server";
import { TAOBAO_IMPORT_QUEUE } from "~/services/taobao-import/jobs.server";
import { IMAGE_PREWARM_QUEUE } from "~/services/image-prewarm.server";
import { startWorker, type JobHandler, type Worker } from "./worker.server";

export type WorkerLane = "image-ai" | "admin" | "email" | "background" | "media";
export const WORKER_LANES: readonly WorkerLane[] = ["image-ai", "admin", "email", "background", "media"];

/** Jobs an admin starts from a screen (/app/import, /app/sync, /app/products, /app/styles/:id, an ad's creatives, the ads metrics sync) and watches. */
export const ADMIN_LANE_QUEUES = [TAOBAO_IMPORT_QUEUE, CATALOG_SYNC_QUEUE, INVENTORY_QUEUE, CATEGORISE_QUEUE, ADS_CREATIVES_QUEUE, ADS_SYNC_METRICS_QUEUE] as const;

/** Which lane runs a queue. Queues not named here run in the background lane. */
export const QUEUE_LANES: Readonly<Record<string, Exclude<WorkerLane, "background">>> = {
  ...Object.fromEntries(IMAGE_AI_JOBS.map((q) => [q, "image-ai" as const])),
  ...Object.fromEntries(ADMIN_LANE_QUEUES.map((q) => [q, "admin" as const])),
  [EMAIL_QUEUE]: "email",
  [IMAGE_PREWARM_QUEUE]: "media",
};

export const laneOf = (queue: string): WorkerLane => QUEUE_LANES[queue] ?? "background";

/** The handlers of one lane. */
export function handlersOfLane(handlers: Record<string, JobHandler>, lane: WorkerLane): Record<string, JobHandler> {
  return Object.fromEntries(Object.entries(handlers).filter(([queue]) => laneOf(queue) === lane));
}

/**
 * Starts one loop per lane (a lane without handlers claims nothing). `drain()` runs every lane
 * until none has work left (a job of one lane may enqueue one for another); `stop()` waits for
 * the job running in each lane.
 */
export function startWorkerLoops(ctx: AppContext, handlers: Record<string, JobHandler>, opts: { pollMs?: number; autoStart?: boolean } = {}): Worker {
  // Jobs of a process that died mid-run are taken over by these loops once their lease expires
  // (app/jobs/queue.server.ts); image-AI requests follow their job (app/services/image-ai/recovery.server.ts).
  const loops = WORKER_LANES.map((lane) => startWorker(ctx, handlersOfLane(handlers, lane), opts));
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
