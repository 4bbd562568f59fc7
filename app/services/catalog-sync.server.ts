/**
 * Keeping the product read model in step with the store:
 * - a full catalogue sync per store, as a job (`catalog.sync`) with progress: every product of the
 *   store is read through the commerce port (Shopify: one bulk operation) and upserted;
 * - the product and inventory webhooks: the payloads are REST-shaped and partial, so the product
 *   is re-read through the commerce port and upserted whole.
 */
import { z } from "zod";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import type { JobQueue } from "~/jobs/queue.server";
import type { CommercePort } from "~/providers/commerce/port";
import type { CatalogSyncResult } from "~/contract/catalog-sync";
import { notFoundError } from "~/lib/domain-errors";
import { deleteProductFromReadModel, upsertProductSnapshot } from "./product-read-model.server";
import { enqueueProductIndex } from "./product-index.server";
import { enqueueProductImagePrewarm } from "./image-prewarm.server";
import { enqueueBackInStockCheck } from "./notification-requests.server";

export const CATALOG_SYNC_QUEUE = "catalog.sync";

interface SyncDeps {
  db: Db;
  commerce: CommercePort;
  log: Logger;
  /** Given: changed products get a `products.index` job (vectors for search by photo). */
  queue?: JobQueue;
}

// ------------------------------------------------------------------------------------------------
// Full sync
// ------------------------------------------------------------------------------------------------

export async function startCatalogSync(ctx: { db: Db; queue: JobQueue }, storeId: string): Promise<{ jobId: string }> {
  const store = await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } });
  if (!store) throw notFoundError("Store not found");
  const { id } = await ctx.queue.enqueue(CATALOG_SYNC_QUEUE, { storeId }, { dedupeKey: `${CATALOG_SYNC_QUEUE}:${storeId}`, maxAttempts: 3 });
  return { jobId: id };
}

const SyncPayload = z.object({ storeId: z.string().min(1) });

/** The job: export the store's products from the commerce port and upsert each one. */
export async function runCatalogSync(ctx: SyncDeps, payload: unknown, progress: (percent: number) => Promise<void>): Promise<CatalogSyncResult> {
  const { storeId } = SyncPayload.parse(payload);
  const startedAt = new Date();
  const store = await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true, name: true } });
  if (!store) throw new Error(`Store ${storeId} not found`);
  const log = ctx.log.child({ storeId, source: ctx.commerce.kind });
  const counts = { created: 0, updated: 0, unchanged: 0, removed: 0 };
  const seen = new Set<string>();
  let fraction = 0;
  let reported = -1;
  const report = async (share: number) => {
    const percent = Math.floor(share * 100);
    if (percent > reported) {
      reported = percent;
      await progress(percent);
    }
  };

  await report(0);
  // Reading is 90 % of the work bar; the clean-up of products the store no longer has is the rest.
  const changed: string[] = [];
  for await (const snapshot of ctx.commerce.exportAllProducts((f) => (fraction = f), { storeId: store.id, vendor: store.name })) {
    seen.add(snapshot.id);
    const outcome = await upsertProductSnapshot(ctx.db, snapshot, { storeId: store.id });
    counts[outcome]++;
    if (outcome !== "unchanged") changed.push(snapshot.id);
    await report(Math.min(0.9, fraction * 0.9));
  }
  await report(0.9);

  // Products of this store in the read model that the export did not list: gone from the store,
  // or moved to another vendor (then re-read and kept).
  const stale = await ctx.db.product.findMany({ where: { store_id: store.id, id: { notIn: [...seen] } }, select: { id: true } });
  for (const p of stale) {
    const current = await ctx.commerce.getProduct(p.id);
    if (!current) {
      if (await deleteProductFromReadModel(ctx.db, p.id)) counts.removed++;
      changed.push(p.id);
    } else {
      const outcome = await upsertProductSnapshot(ctx.db, current);
      counts[outcome]++;
      if (outcome !== "unchanged") changed.push(p.id);
    }
  }
  if (ctx.queue) await enqueueProductIndex({ queue: ctx.queue, log }, changed);
  // Our stored images of new and changed products get their sizes before the first shopper asks.
  if (ctx.queue) await enqueueProductImagePrewarm({ queue: ctx.queue, log }, changed);

  await ctx.db.store.update({ where: { id: store.id }, data: { last_synced_at: new Date() } });
  const result: CatalogSyncResult = { storeId: store.id, source: ctx.commerce.kind, total: seen.size, ...counts, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString() };
  log.info(result, "catalogue sync finished");
  return result;
}

export async function getCatalogSyncJob(db: Db, id: string) {
  const job = await db.job.findFirst({ where: { id, queue: CATALOG_SYNC_QUEUE } });
  if (!job) throw notFoundError("Job not found");
  const payload = job.payload as { storeId?: unknown } | null;
  return {
    id: job.id,
    storeId: payload && typeof payload.storeId === "string" ? payload.storeId : null,
    status: job.status,
    progress: job.progress,
    attempts: job.attempts,
    maxAttempts: job.max_attempts,
    result: job.status === "completed" && job.result && typeof job.result === "object" ? (job.result as unknown as CatalogSyncResult) : null,
    error: job.error,
    createdAt: job.created_at,
    completedAt: job.completed_at,
  };
}

// ------------------------------------------------------------------------------------------------
// Webhooks
// ------------------------------------------------------------------------------------------------

const productGid = (payload: { id?: unknown; admin_graphql_api_id?: unknown }) =>
  typeof payload.admin_graphql_api_id === "string" ? payload.admin_graphql_api_id : payload.id !== undefined && payload.id !== null ? `gid://shopify/Product/${String(payload.id)}` : null;

/** products/create, products/update, products/delete. */
export async function applyProductWebhook(ctx: SyncDeps, topic: string, payload: Record<string, unknown>): Promise<"upserted" | "deleted" | "ignored"> {
  const id = productGid(payload);
  if (!id) return "ignored";
  const reindex = async () => {
    if (ctx.queue) await enqueueProductIndex({ queue: ctx.queue, log: ctx.log }, [id]);
  };
  if (topic === "PRODUCTS_DELETE") {
    await deleteProductFromReadModel(ctx.db, id);
    await reindex();
    return "deleted";
  }
  // The payload is REST-shaped and may be partial: read the product whole from the store.
  const snapshot = await ctx.commerce.getProduct(id);
  if (!snapshot) {
    await deleteProductFromReadModel(ctx.db, id); // deleted since the event
    await reindex();
    return "deleted";
  }
  if ((await upsertProductSnapshot(ctx.db, snapshot)) !== "unchanged") await reindex();
  if (ctx.queue) await enqueueBackInStockCheck({ db: ctx.db, queue: ctx.queue, log: ctx.log }, [id], "products webhook");
  return "upserted";
}

/** inventory_levels/update: `{ inventory_item_id, location_id, available }` → re-read the item's product. */
export async function applyInventoryWebhook(ctx: SyncDeps, payload: Record<string, unknown>): Promise<"upserted" | "ignored"> {
  const item = payload.inventory_item_id;
  if (item === undefined || item === null || !ctx.commerce.productIdForInventoryItem) return "ignored";
  const productId = await ctx.commerce.productIdForInventoryItem(String(item).startsWith("gid://") ? String(item) : `gid://shopify/InventoryItem/${String(item)}`);
  if (!productId) return "ignored";
  const snapshot = await ctx.commerce.getProduct(productId);
  if (!snapshot) return "ignored";
  await upsertProductSnapshot(ctx.db, snapshot);
  if (ctx.queue) await enqueueBackInStockCheck({ db: ctx.db, queue: ctx.queue, log: ctx.log }, [productId], "inventory webhook");
  return "upserted";
}

/**
 * A delivery whose processing failed is forgotten, so Shopify's retry of the same webhook id is
 * processed instead of being acknowledged as a repeat.
 */
export async function releaseWebhookDelivery(db: Db, webhookId: string | null) {
  if (webhookId) await db.webhookDelivery.deleteMany({ where: { id: webhookId } });
}

// ------------------------------------------------------------------------------------------------
// Admin screen reads (app/routes/app.sync.tsx)
// ------------------------------------------------------------------------------------------------

export type CatalogSyncJobView = Awaited<ReturnType<typeof getCatalogSyncJob>>;

function toCatalogSyncJobView(job: {
  id: string;
  payload: unknown;
  status: CatalogSyncJobView["status"];
  progress: number;
  attempts: number;
  max_attempts: number;
  result: unknown;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
}): CatalogSyncJobView {
  const payload = job.payload as { storeId?: unknown } | null;
  return {
    id: job.id,
    storeId: payload && typeof payload.storeId === "string" ? payload.storeId : null,
    status: job.status,
    progress: job.progress,
    attempts: job.attempts,
    maxAttempts: job.max_attempts,
    result: job.status === "completed" && job.result && typeof job.result === "object" ? (job.result as CatalogSyncResult) : null,
    error: job.error,
    createdAt: job.created_at,
    completedAt: job.completed_at,
  };
}

/** The latest catalogue sync job of each of these stores (stores never synced are absent). */
export async function latestCatalogSyncJobs(db: Db, storeIds: string[]): Promise<Map<string, CatalogSyncJobView>> {
  const out = new Map<string, CatalogSyncJobView>();
  if (storeIds.length === 0) return out;
  const latest = await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT ON (payload->>'storeId') id FROM jobs
    WHERE queue = ${CATALOG_SYNC_QUEUE} AND payload->>'storeId' = ANY(${storeIds}::text[])
    ORDER BY payload->>'storeId', created_at DESC, id DESC`;
  if (latest.length === 0) return out;
  const jobs = await db.job.findMany({ where: { id: { in: latest.map((j) => j.id) } } });
  for (const job of jobs) {
    const view = toCatalogSyncJobView(job);
    if (view.storeId) out.set(view.storeId, view);
  }
  return out;
}

/** Every store with its vendor, its products in the read model, when it was last synced and its latest sync job. */
export async function listCatalogSyncStores(db: Db) {
  // One query after the other: the admin polls this while the sync job writes, and the embedded
  // database (pglite-socket 0.1.x) can mix up concurrent queries of several connections.
  const stores = await db.store.findMany({
    select: { id: true, name: true, last_synced_at: true, vendor: { select: { name: true } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const counts = await db.product.groupBy({ by: ["store_id"], where: { store_id: { not: null } }, _count: { _all: true } });
  const jobs = await latestCatalogSyncJobs(db, stores.map((s) => s.id));
  const productCount = new Map(counts.map((c) => [c.store_id, c._count._all]));
  return stores.map((s) => ({
    id: s.id,
    name: s.name,
    vendorName: s.vendor.name,
    productCount: productCount.get(s.id) ?? 0,
    lastSyncedAt: s.last_synced_at,
    latestJob: jobs.get(s.id) ?? null,
  }));
}
