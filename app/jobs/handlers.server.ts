/**
 * Job handlers by queue name. Areas register theirs here as they land (imports, training,
 * try-ons, syncs, emails, scheduled publishing).
 */
import { z } from "zod";
import { deliverQueuedEmail } from "~/services/email.server";
import { runStyleCategorisation } from "~/services/styles.server";
import { publishDueDrops } from "~/services/drops.server";
import { INVENTORY_QUEUE, runInventorySync } from "~/services/catalog.server";
import { CATALOG_SYNC_QUEUE, runCatalogSync } from "~/services/catalog-sync.server";
import { REBUILD_QUEUE as RECOMMENDATIONS_REBUILD_QUEUE, runRecommendationsRebuild } from "~/services/recommendations.server";
import { SEARCH_NOTIFICATIONS_QUEUE, runSearchNotificationCheck } from "~/services/search/notifications.server";
import { onProductsPublished } from "~/services/search/hooks.server";
import { PRODUCT_INDEX_QUEUE, runProductIndexJob } from "~/services/product-index.server";
import { REVIEWS_REQUEST_QUEUE, runReviewRequest } from "~/services/review-requests.server";
import { BACK_IN_STOCK_QUEUE, DROP_NOTIFICATIONS_QUEUE, enqueueBackInStockCheck, enqueueDropNotifications, runBackInStockCheck, runDropNotifications } from "~/services/notification-requests.server";
import type { JobHandler } from "./worker.server";
import { TAOBAO_IMPORT_QUEUE, runImportJob } from "~/services/taobao-import/jobs.server";
import { imageAiJobHandlers } from "~/services/image-ai/jobs.server";
// Image-AI target hooks of clone training and profile images (side effect: registerImageAiTarget).
import "~/services/clones/image-ai-hooks.server";
import "~/services/tryons/image-ai-hooks.server";

export const jobHandlers: Record<string, JobHandler> = {
  /** image-ai.run / image-ai.poll / image-ai.webhook: a worker lane of their own (app/jobs/lanes.server.ts). */
  ...imageAiJobHandlers,
  [TAOBAO_IMPORT_QUEUE]: async (payload, ctx, { progress }) => runImportJob(ctx, payload, progress),
  /** Keeps the worker observable end to end: /api/health and tests enqueue it. */
  "system.ping": async (payload) => ({ pong: payload ?? null, at: new Date().toISOString() }),
  "email.send": async (payload, ctx) => deliverQueuedEmail(ctx, z.object({ emailId: z.string() }).parse(payload).emailId),
  "styles.categorise": async (payload, ctx, { progress }) => runStyleCategorisation(ctx, z.object({ styleId: z.string() }).parse(payload).styleId, progress),
  "drops.publish-due": async (_payload, ctx) => {
    const r = await publishDueDrops(ctx.db);
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
  [BACK_IN_STOCK_QUEUE]: async (_payload, ctx) => ({ ...(await runBackInStockCheck(ctx)) }),
  [DROP_NOTIFICATIONS_QUEUE]: async (_payload, ctx) => ({ ...(await runDropNotifications(ctx)) }),
  [REVIEWS_REQUEST_QUEUE]: async (payload, ctx) => ({ ...(await runReviewRequest(ctx, z.object({ orderId: z.string(), force: z.boolean().optional() }).parse(payload))) }),
};
