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
import type { JobHandler } from "./worker.server";

export const jobHandlers: Record<string, JobHandler> = {
  /** Keeps the worker observable end to end: /api/health and tests enqueue it. */
  "system.ping": async (payload) => ({ pong: payload ?? null, at: new Date().toISOString() }),
  "email.send": async (payload, ctx) => deliverQueuedEmail(ctx, z.object({ emailId: z.string() }).parse(payload).emailId),
  "styles.categorise": async (payload, ctx, { progress }) => runStyleCategorisation(ctx, z.object({ styleId: z.string() }).parse(payload).styleId, progress),
  "drops.publish-due": async (_payload, ctx) => {
    const r = await publishDueDrops(ctx.db);
    // Products of the drop are now visible: saved searches may match them.
    await onProductsPublished(ctx, "drops.publish-due");
    return r;
  },
  [INVENTORY_QUEUE]: async (payload, ctx, { progress }) => runInventorySync(ctx, z.object({ outOfStockOnly: z.boolean() }).parse(payload), progress),
  [CATALOG_SYNC_QUEUE]: async (payload, ctx, { progress }) => {
    const r = await runCatalogSync(ctx, payload, progress);
    await onProductsPublished(ctx, CATALOG_SYNC_QUEUE);
    return r;
  },
  [RECOMMENDATIONS_REBUILD_QUEUE]: async (_payload, ctx, { progress }) => ({ ...(await runRecommendationsRebuild(ctx.db, progress)) }),
  [SEARCH_NOTIFICATIONS_QUEUE]: async (_payload, ctx, { progress }) => ({ ...(await runSearchNotificationCheck(ctx, new Date(), progress)) }),
  [PRODUCT_INDEX_QUEUE]: async (payload, ctx, { progress }) => runProductIndexJob(ctx, payload, progress),
};
