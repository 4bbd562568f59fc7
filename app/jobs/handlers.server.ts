/**
 * Job handlers by queue name. Areas register theirs here as they land (imports, training,
 * try-ons, syncs, emails, scheduled publishing).
 *
 * Every handler may run again after its worker died part-way (app/jobs/worker.server.ts: leases),
 * so each is idempotent: what a dead run did is found and not done twice (a created product, a
 * sent email, an invitation); areas whose rows show the work running close them in `onFailed`.
 */
import { z } from "zod";
import { deliverQueuedEmail, EMAIL_QUEUE, markEmailUndelivered } from "~/services/email.server";
import { CATEGORISE_QUEUE, closeStyleCategorisation, runStyleCategorisation } from "~/services/styles.server";
import { publishDueDropsNow } from "~/services/drops.server";
import { INVENTORY_QUEUE, runInventorySync } from "~/services/catalog.server";
import { CATALOG_SYNC_QUEUE, runCatalogSync } from "~/services/catalog-sync.server";
import { REBUILD_QUEUE as RECOMMENDATIONS_REBUILD_QUEUE, runRecommendationsRebuild } from "~/services/recommendations.server";
import { SEARCH_NOTIFICATIONS_QUEUE, runSearchNotificationCheck } from "~/services/search/notifications.server";
import { onProductsPublished } from "~/services/search/hooks.server";
import { PRODUCT_INDEX_QUEUE, runProductIndexJob } from "~/services/product-index.server";
import { REVIEWS_REQUEST_QUEUE, runReviewRequest } from "~/services/review-requests.server";
import { PRIVACY_SWEEP_QUEUE, sweepExpiredDataExports } from "~/services/privacy-exports.server";
import { BACK_IN_STOCK_QUEUE, DROP_NOTIFICATIONS_QUEUE, enqueueBackInStockCheck, enqueueDropNotifications, runBackInStockCheck, runDropNotifications } from "~/services/notification-requests.server";
import { withRecovery, type JobHandler } from "./worker.server";
import { IMAGE_PREWARM_QUEUE, runImagePrewarm } from "~/services/image-prewarm.server";
import { createImageVariants } from "~/services/image-variants.server";
import { ownStorageKey } from "~/lib/image-source.server";
import { imageVariantCache } from "~/lib/image-route.server";
import { TAOBAO_IMPORT_QUEUE, importJobHandler } from "~/services/taobao-import/jobs.server";
import { imageAiJobHandlers } from "~/services/image-ai/jobs.server";
import { imageAiRecovery } from "~/services/image-ai/recovery.server";
import { ADS_CREATIVES_QUEUE, closeCreativesJob, runCreativesJob } from "~/services/product-ads/creatives.server";
import { ADS_SYNC_METRICS_QUEUE, runMetricsSyncJob } from "~/services/product-ads/metrics.server";
// Image-AI target hooks of clone training and profile images (side effect: registerImageAiTarget).
import "~/services/clones/image-ai-hooks.server";
import "~/services/tryons/image-ai-hooks.server";
import "~/services/outfit-generations/image-ai-hooks.server";

const EmailPayload = z.object({ emailId: z.string() });
const StylePayload = z.object({ styleId: z.string() });

export const jobHandlers: Record<string, JobHandler> = {
  /** image-ai.run / image-ai.poll / image-ai.webhook: a worker lane of their own (app/jobs/lanes.server.ts). */
  ...Object.fromEntries(Object.entries(imageAiJobHandlers).map(([queue, handler]) => [queue, withRecovery(handler, imageAiRecovery(queue))])),
  [TAOBAO_IMPORT_QUEUE]: importJobHandler,
  /** Keeps the worker observable end to end: /api/health and tests enqueue it. */
  "system.ping": async (payload) => ({ pong: payload ?? null, at: new Date().toISOString() }),
  /** Delivered once per outbox id (the port skips an id it delivered: a run after a crash sends nothing twice). */
  [EMAIL_QUEUE]: withRecovery(async (payload, ctx) => deliverQueuedEmail(ctx, EmailPayload.parse(payload).emailId), {
    async onFailed(payload, ctx, error) {
      const p = EmailPayload.safeParse(payload);
      if (p.success) await markEmailUndelivered(ctx, p.data.emailId, error);
    },
  }),
  [CATEGORISE_QUEUE]: withRecovery(async (payload, ctx, { progress }) => runStyleCategorisation(ctx, StylePayload.parse(payload).styleId, progress), {
    async onFailed(payload, ctx) {
      const p = StylePayload.safeParse(payload);
      if (p.success) await closeStyleCategorisation(ctx, p.data.styleId);
    },
  }),
  "drops.publish-due": async (_payload, ctx) => {
    // Held products still not live are published, due drops marked published (docs/drops.md).
    const r = await publishDueDropsNow(ctx);
    // Products of the drop are now visible: saved searches may match them.
    await onProductsPublished(ctx, "drops.publish-due");
    // Shoppers who asked to be told when a drop goes live.
    await enqueueDropNotifications(ctx, "drops.publish-due");
    return r;
  },
  [INVENTORY_QUEUE]: async (payload, ctx, { progress }) => {
    const r = await runInventorySync(ctx, z.object({ outOfStockOnly: z.boolean() }).parse(payload), progress);
    await enqueueBackInStockCheck(ctx, null, INVENTORY_QUEUE); // restocked products: back-in-stock emails
    return r;
  },
  [CATALOG_SYNC_QUEUE]: async (payload, ctx, { progress }) => {
    const r = await runCatalogSync(ctx, payload, progress);
    await onProductsPublished(ctx, CATALOG_SYNC_QUEUE);
    await enqueueBackInStockCheck(ctx, null, CATALOG_SYNC_QUEUE); // restocked products: back-in-stock emails
    return r;
  },
  [RECOMMENDATIONS_REBUILD_QUEUE]: async (_payload, ctx, { progress }) => ({ ...(await runRecommendationsRebuild(ctx.db, progress)) }),
  [SEARCH_NOTIFICATIONS_QUEUE]: async (_payload, ctx, { progress }) => ({ ...(await runSearchNotificationCheck(ctx, new Date(), progress)) }),
  [PRODUCT_INDEX_QUEUE]: async (payload, ctx, { progress }) => runProductIndexJob(ctx, payload, progress),
  /** Variants of newly stored images, in the cache the image route reads (the media lane). */
  [IMAGE_PREWARM_QUEUE]: async (payload, ctx) => ({
    ...(await runImagePrewarm(
      { db: ctx.db, variants: createImageVariants({ storage: ctx.storage, cache: imageVariantCache(ctx.config) }), ownKey: (url) => ownStorageKey(ctx, url), log: ctx.log },
      payload,
    )),
  }),
  [BACK_IN_STOCK_QUEUE]: async (_payload, ctx) => ({ ...(await runBackInStockCheck(ctx)) }),
  [DROP_NOTIFICATIONS_QUEUE]: async (_payload, ctx) => ({ ...(await runDropNotifications(ctx)) }),
  /** Deletes customers' data exports whose time is up (and schedules the next expiry). */
  [PRIVACY_SWEEP_QUEUE]: async (_payload, ctx) => ({ ...(await sweepExpiredDataExports({ db: ctx.db, privateStorage: ctx.privateStorage, queue: ctx.queue, log: ctx.log })) }),
  /** Image candidates of a product ad (progress: candidates done); a failed job closes its queued candidates. */
  [ADS_CREATIVES_QUEUE]: withRecovery(async (payload, ctx, { progress }) => runCreativesJob(ctx, payload, progress), {
    async onFailed(payload, ctx, error) {
      await closeCreativesJob(ctx, payload, error);
    },
  }),
  /** Ads' daily metrics from the ads platform (progress: ads done / ads to do); the daily run queues the next day's. Upserts: a re-run after a crash stores nothing twice. */
  [ADS_SYNC_METRICS_QUEUE]: async (payload, ctx, { progress }) => ({ ...(await runMetricsSyncJob(ctx, payload, progress)) }),
  [REVIEWS_REQUEST_QUEUE]: async (payload, ctx) => ({ ...(await runReviewRequest(ctx, z.object({ orderId: z.string(), force: z.boolean().optional() }).parse(payload))) }),
};
