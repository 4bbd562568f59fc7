/**
 * Publish holds (docs/drops.md): a product whose publishing a drop — or, with `dropId` null, the
 * product's own schedule — moved to a date, with the visibility it had before. Holding schedules
 * the publication through the commerce port and records the hold; releasing restores the earlier
 * visibility (unless something else changed the product since); publishing makes held products
 * live and forgets their holds. One hold per product: a hold of another owner is refused.
 *
 * The read model (`product.publishedAt`) is kept in step here for both adapters (the local one
 * writes it too; Shopify's webhooks confirm it later).
 */
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError, unprocessableError } from "~/lib/domain-errors";

export type HoldCtx = Pick<AppContext, "db" | "commerce">;

const sameTime = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());
export const isLive = (publishedAt: Date | null, now = new Date()) => !!publishedAt && publishedAt.getTime() <= now.getTime();

/** Shopify calls go four at a time; the local adapter writes to our database one at a time. */
const parallelism = (ctx: HoldCtx) => (ctx.commerce.kind === "shopify" ? 4 : 1);
async function inBatches<T>(ctx: HoldCtx, items: T[], fn: (item: T) => Promise<void>) {
  const size = parallelism(ctx);
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function storePublish(ctx: HoldCtx, productId: string, date: Date | null, what: string) {
  try {
    if (date) await ctx.commerce.publishProduct(productId, { publishDate: date });
    else await ctx.commerce.unpublishProduct(productId);
  } catch (e) {
    throw unprocessableError(`The store refused to ${what} ${productId}: ${e instanceof Error ? e.message : String(e)}`);
  }
  await ctx.db.product.update({ where: { id: productId }, data: { publishedAt: date } });
}

const formatDate = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * Refuses (409) when one of the products is held by another owner than `dropId` (a drop id, or
 * null for the product's own schedule). Checked before anything changes.
 */
export async function assertHoldable(db: Db, productIds: string[], dropId: string | null): Promise<void> {
  if (productIds.length === 0) return;
  const others = await db.productPublishHold.findMany({
    // A hold whose date has passed is done (the product went live then): it holds nothing.
    where: { product_id: { in: productIds }, publish_at: { gt: new Date() }, NOT: dropId ? { drop_id: dropId } : { drop_id: null } },
    include: { drop: { select: { name: true } } },
    orderBy: { product_id: "asc" },
  });
  if (others.length === 0) return;
  const titles = new Map((await db.product.findMany({ where: { id: { in: others.map((h) => h.product_id) } }, select: { id: true, title: true } })).map((p) => [p.id, p.title]));
  const first = others[0];
  const title = titles.get(first.product_id) ?? first.product_id;
  const by = first.drop ? `the drop “${first.drop.name}”` : "its own schedule";
  const more = others.length > 1 ? ` (and ${others.length - 1} more product${others.length > 2 ? "s" : ""})` : "";
  throw conflictError(`${title}${more} is already scheduled to publish on ${formatDate(first.publish_at)} by ${by}: withdraw it there first`, {
    products: others.map((h) => ({ product_id: h.product_id, drop_id: h.drop_id, publish_at: h.publish_at })),
  });
}

/**
 * Holds the products for `date` (owner `dropId`): each is scheduled to publish then; a new hold
 * remembers the product's visibility before, an existing hold of the same owner just moves.
 */
export async function holdProducts(ctx: HoldCtx, productIds: string[], date: Date, dropId: string | null): Promise<void> {
  if (productIds.length === 0) return;
  await assertHoldable(ctx.db, productIds, dropId);
  await forgetPassedHolds(ctx.db);
  const products = await ctx.db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, publishedAt: true } });
  const existing = new Set((await ctx.db.productPublishHold.findMany({ where: { product_id: { in: productIds } }, select: { product_id: true } })).map((h) => h.product_id));
  await inBatches(ctx, products, async (p) => {
    if (!existing.has(p.id)) {
      await ctx.db.productPublishHold.create({ data: { product_id: p.id, drop_id: dropId, publish_at: date, prior_published_at: p.publishedAt } });
    } else {
      await ctx.db.productPublishHold.update({ where: { product_id: p.id }, data: { publish_at: date } });
    }
    await storePublish(ctx, p.id, date, "schedule");
  });
  await ctx.db.productCompanion.createMany({ data: productIds.map((id) => ({ shopify_product_id: id, scheduled_publish_date: date })), skipDuplicates: true });
  await ctx.db.productCompanion.updateMany({ where: { shopify_product_id: { in: productIds } }, data: { scheduled_publish_date: date } });
}

/**
 * Releases the holds of `dropId` (null: the products' own schedules) on these products (all of
 * the owner's when `productIds` is undefined), restoring each product's earlier visibility when it
 * still has the hold's date. `onlyPriorLive`: just the products that were live before (hold back
 * turned off). Returns the released product ids.
 */
export async function releaseHolds(ctx: HoldCtx, dropId: string | null, opts: { productIds?: string[]; onlyPriorLive?: boolean } = {}): Promise<string[]> {
  const now = new Date();
  const holds = await ctx.db.productPublishHold.findMany({
    where: { drop_id: dropId, ...(opts.productIds ? { product_id: { in: opts.productIds } } : {}), ...(opts.onlyPriorLive ? { prior_published_at: { lte: now } } : {}) },
  });
  if (holds.length === 0) return [];
  const current = new Map((await ctx.db.product.findMany({ where: { id: { in: holds.map((h) => h.product_id) } }, select: { id: true, publishedAt: true } })).map((p) => [p.id, p.publishedAt]));
  await inBatches(ctx, holds, async (h) => {
    // Still what the hold made it (not published by its date yet): put back what was before.
    if (current.has(h.product_id) && sameTime(current.get(h.product_id) ?? null, h.publish_at) && !isLive(h.publish_at, now)) {
      await storePublish(ctx, h.product_id, h.prior_published_at, "withdraw the scheduled publishing of");
    }
    await ctx.db.productCompanion.updateMany({
      where: { shopify_product_id: h.product_id, scheduled_publish_date: h.publish_at },
      data: { scheduled_publish_date: h.prior_published_at && !isLive(h.prior_published_at, now) ? h.prior_published_at : null },
    });
    await ctx.db.productPublishHold.delete({ where: { product_id: h.product_id } });
  });
  return holds.map((h) => h.product_id);
}

/**
 * Publishes the products now: those not live yet go live (through the store), and every hold on
 * them is forgotten (whoever held them). Live products are left as they are.
 */
export async function publishProductsNow(ctx: HoldCtx, productIds: string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const now = new Date();
  const pending = await ctx.db.product.findMany({ where: { id: { in: productIds }, OR: [{ publishedAt: null }, { publishedAt: { gt: now } }] }, select: { id: true } });
  await inBatches(ctx, pending, async (p) => {
    try {
      await ctx.commerce.publishProduct(p.id);
    } catch (e) {
      throw unprocessableError(`The store refused to publish ${p.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
    await ctx.db.product.update({ where: { id: p.id }, data: { publishedAt: now } });
  });
  await ctx.db.productCompanion.updateMany({ where: { shopify_product_id: { in: productIds }, scheduled_publish_date: { not: null } }, data: { scheduled_publish_date: null } });
  await ctx.db.productPublishHold.deleteMany({ where: { product_id: { in: productIds } } });
  return pending.map((p) => p.id);
}

/** Holds whose date has come are done (the store published the products then): forgotten. */
export async function forgetPassedHolds(db: Db, now = new Date()): Promise<void> {
  await db.productPublishHold.deleteMany({ where: { publish_at: { lte: now } } });
}

/**
 * Products a drop held whose date has come but which are still not live (the store did not publish
 * them, or their read model lags): the publish job's safety net publishes them.
 */
export async function dueHeldNotLive(db: Db, now = new Date()): Promise<string[]> {
  const rows = await db.productPublishHold.findMany({ where: { drop_id: { not: null }, publish_at: { lte: now } }, select: { product_id: true } });
  if (rows.length === 0) return [];
  const pending = await db.product.findMany({ where: { id: { in: rows.map((r) => r.product_id) }, OR: [{ publishedAt: null }, { publishedAt: { gt: now } }] }, select: { id: true } });
  return pending.map((p) => p.id);
}
