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
import type { JobHandler } from "./worker.server";

export const jobHandlers: Record<string, JobHandler> = {
  /** Keeps the worker observable end to end: /api/health and tests enqueue it. */
  "system.ping": async (payload) => ({ pong: payload ?? null, at: new Date().toISOString() }),
  "email.send": async (payload, ctx) => deliverQueuedEmail(ctx, z.object({ emailId: z.string() }).parse(payload).emailId),
  "styles.categorise": async (payload, ctx, { progress }) => runStyleCategorisation(ctx, z.object({ styleId: z.string() }).parse(payload).styleId, progress),
  "drops.publish-due": async (_payload, ctx) => publishDueDrops(ctx.db),
  [INVENTORY_QUEUE]: async (payload, ctx, { progress }) => runInventorySync(ctx, z.object({ outOfStockOnly: z.boolean() }).parse(payload), progress),
  [CATALOG_SYNC_QUEUE]: async (payload, ctx, { progress }) => runCatalogSync(ctx, payload, progress),
};
