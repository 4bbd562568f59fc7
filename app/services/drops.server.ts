/**
 * Drops: a named set of products published together on a date.
 *
 * - draft: no date yet (or unscheduled); scheduled: a future date is set, and every product of
 *   the drop is scheduled to publish on it through the commerce port (Shopify: a publication with
 *   a future publish date; local: the product's publishedAt); published: the date has passed
 *   (the `drops.publish-due` job, or any read, moves it); cancelled: withdrawn by an admin.
 * - The product companions keep the date too (ProductCompanion.scheduled_publish_date).
 * - Shoppers are told by email (queued through the email job), either chosen addresses or the
 *   active users: non-guests with an email who viewed a product or ordered in the last 90 days.
 */
import type { Drop as DropRow, Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { queueEmail } from "./email.server";
import { productCardSelect, requireProducts, toCard } from "./styles.server";

export const PUBLISH_DUE_QUEUE = "drops.publish-due";
export const ACTIVE_USER_DAYS = 90;

export type DropsCtx = Pick<AppContext, "db" | "queue" | "config" | "commerce">;

export function toDrop(d: DropRow) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    image_url: d.image_url,
    shopify_products_ids: d.shopify_products_ids,
    scheduled_publish_date: d.scheduled_publish_date,
    status: d.status,
    notified_at: d.notified_at,
    product_count: d.shopify_products_ids.length,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/** Scheduled drops whose date has passed become published. Cheap; runs on reads and as a job. */
export async function publishDueDrops(db: Db, now = new Date()): Promise<{ published: number }> {
  const r = await db.drop.updateMany({ where: { status: "scheduled", scheduled_publish_date: { lte: now } }, data: { status: "published" } });
  return { published: r.count };
}

async function loadDrop(db: Db, id: string): Promise<DropRow> {
  await publishDueDrops(db);
  const drop = await db.drop.findUnique({ where: { id } });
  if (!drop) throw notFoundError("Drop not found");
  return drop;
}

export async function listDrops(db: Db, q: { from?: Date; to?: Date; status?: DropRow["status"] }, canManage: boolean) {
  if (q.from && q.to && q.from > q.to) throw invalid("from must not be after to");
  await publishDueDrops(db);
  const range = q.from || q.to ? { scheduled_publish_date: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lte: q.to } : {}) } } : {};
  const status = canManage ? q.status : "published";
  const rows = await db.drop.findMany({
    where: { ...range, ...(status ? { status } : {}) },
    orderBy: [{ scheduled_publish_date: { sort: "asc", nulls: "last" } }, { created_at: "desc" }],
    take: 500,
  });
  return { drops: rows.map(toDrop) };
}

export async function getDrop(db: Db, id: string, canManage: boolean) {
  const drop = await loadDrop(db, id);
  // Unpublished drops are not announced yet: to shoppers they do not exist.
  if (!canManage && drop.status !== "published") throw notFoundError("Drop not found");
  return toDrop(drop);
}

// ---------------------------------------------------------------------------------------------
// Scheduled publishing of the products

/** Shopify calls go four at a time; the local adapter writes to our database one at a time. */
const parallelism = (ctx: DropsCtx) => (ctx.commerce.kind === "shopify" ? 4 : 1);

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Schedules products to publish at `date`: each product's companion keeps the date (created when
 * missing) and the store is asked to publish the product on that date.
 */
export async function scheduleProducts(ctx: DropsCtx, productIds: string[], date: Date): Promise<void> {
  if (productIds.length === 0) return;
  await inBatches(productIds, parallelism(ctx), async (id) => {
    try {
      await ctx.commerce.publishProduct(id, { publishDate: date });
    } catch (e) {
      throw unprocessableError(`The store refused to schedule ${id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  await ctx.db.productCompanion.createMany({ data: productIds.map((id) => ({ shopify_product_id: id, scheduled_publish_date: date })), skipDuplicates: true });
  await ctx.db.productCompanion.updateMany({ where: { shopify_product_id: { in: productIds } }, data: { scheduled_publish_date: date } });
}

/**
 * Withdraws the scheduled publishing that a drop set up: companions scheduled for the drop's date
 * lose it, and products whose publication is still in the future are unpublished. Products that
 * are already live stay live.
 */
export async function withdrawProducts(ctx: DropsCtx, productIds: string[], date: Date | null): Promise<void> {
  if (productIds.length === 0 || !date) return;
  await ctx.db.productCompanion.updateMany({ where: { shopify_product_id: { in: productIds }, scheduled_publish_date: date }, data: { scheduled_publish_date: null } });
  const pending = await ctx.db.product.findMany({ where: { id: { in: productIds }, publishedAt: { gt: new Date() } }, select: { id: true } });
  await inBatches(pending, parallelism(ctx), async (p) => {
    try {
      await ctx.commerce.unpublishProduct(p.id);
    } catch (e) {
      throw unprocessableError(`The store refused to unpublish ${p.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}

async function enqueuePublishDue(ctx: DropsCtx, drop: { id: string }, date: Date) {
  await ctx.queue.enqueue(PUBLISH_DUE_QUEUE, { dropId: drop.id }, { runAt: date, dedupeKey: `${PUBLISH_DUE_QUEUE}:${drop.id}:${date.toISOString()}` });
}

function requireFuture(date: Date) {
  if (!(date.getTime() > Date.now())) throw invalid("scheduled_publish_date must be in the future");
}

// ---------------------------------------------------------------------------------------------
// Writes

export interface DropInput {
  name: string;
  description?: string | null;
  image_url?: string | null;
  shopify_products_ids?: string[];
}

export async function createDrop(ctx: DropsCtx, input: DropInput & { scheduled_publish_date?: Date | null }) {
  const ids = await requireProducts(ctx.db, input.shopify_products_ids ?? []);
  const date = input.scheduled_publish_date ?? null;
  if (date) requireFuture(date);
  const drop = await ctx.db.drop.create({
    data: { name: input.name, description: input.description ?? null, image_url: input.image_url ?? null, shopify_products_ids: ids, status: "draft" },
  });
  if (!date) return toDrop(drop);
  return setScheduledPublishDate(ctx, drop.id, date);
}

export async function updateDrop(ctx: DropsCtx, id: string, input: DropInput & { status?: "draft" | "cancelled" }) {
  let drop = await loadDrop(ctx.db, id);
  const data: Prisma.DropUpdateInput = { name: input.name, description: input.description, image_url: input.image_url };
  drop = await ctx.db.drop.update({ where: { id }, data });
  if (input.shopify_products_ids) await setDropProducts(ctx, id, input.shopify_products_ids);
  if (input.status && input.status !== drop.status) {
    drop = await ctx.db.drop.findUniqueOrThrow({ where: { id } });
    if (drop.status === "published") throw conflictError("This drop is already published; its status cannot change");
    if (input.status === "cancelled") {
      if (drop.status === "scheduled") await withdrawProducts(ctx, drop.shopify_products_ids, drop.scheduled_publish_date);
      await ctx.db.drop.update({ where: { id }, data: { status: "cancelled" } });
    } else if (drop.status === "scheduled") {
      // Unschedule: back to a draft without a date.
      await withdrawProducts(ctx, drop.shopify_products_ids, drop.scheduled_publish_date);
      await ctx.db.drop.update({ where: { id }, data: { status: "draft", scheduled_publish_date: null } });
    } else if (drop.status === "cancelled") {
      // Reopen: still in the future → scheduled again; otherwise a draft that needs a new date.
      const date = drop.scheduled_publish_date;
      if (date && date.getTime() > Date.now()) return setScheduledPublishDate(ctx, id, date, { reopen: true });
      await ctx.db.drop.update({ where: { id }, data: { status: "draft", scheduled_publish_date: null } });
    }
  }
  return toDrop(await ctx.db.drop.findUniqueOrThrow({ where: { id } }));
}

export async function deleteDrop(ctx: DropsCtx, id: string) {
  const drop = await loadDrop(ctx.db, id);
  if (drop.status === "scheduled") await withdrawProducts(ctx, drop.shopify_products_ids, drop.scheduled_publish_date);
  await ctx.db.drop.delete({ where: { id } });
  return { ok: true as const };
}

/**
 * Replaces the drop's products. A scheduled drop schedules the products it gains and withdraws
 * the ones it loses; a published drop publishes the ones it gains at once.
 */
export async function setDropProducts(ctx: DropsCtx, id: string, rawIds: string[]) {
  const drop = await loadDrop(ctx.db, id);
  const ids = await requireProducts(ctx.db, rawIds);
  const before = new Set(drop.shopify_products_ids);
  const after = new Set(ids);
  const added = ids.filter((p) => !before.has(p));
  const removed = drop.shopify_products_ids.filter((p) => !after.has(p));
  if (drop.status === "scheduled" && drop.scheduled_publish_date) {
    await scheduleProducts(ctx, added, drop.scheduled_publish_date);
    await withdrawProducts(ctx, removed, drop.scheduled_publish_date);
  } else if (drop.status === "published") {
    await scheduleProducts(ctx, added, new Date());
  }
  return toDrop(await ctx.db.drop.update({ where: { id }, data: { shopify_products_ids: ids } }));
}

/**
 * Sets the drop's date (it must be in the future) and schedules the publishing of every product
 * of the drop on it; a `drops.publish-due` job marks the drop published when the date comes.
 */
export async function setScheduledPublishDate(ctx: DropsCtx, id: string, date: Date, opts: { reopen?: boolean } = {}) {
  requireFuture(date);
  const drop = await loadDrop(ctx.db, id);
  if (drop.status === "published") throw conflictError("This drop is already published");
  if (drop.status === "cancelled" && !opts.reopen) throw conflictError("This drop is cancelled; reopen it (status draft) before scheduling it");
  await scheduleProducts(ctx, drop.shopify_products_ids, date);
  const updated = await ctx.db.drop.update({ where: { id }, data: { scheduled_publish_date: date, status: "scheduled" } });
  await enqueuePublishDue(ctx, updated, date);
  return toDrop(updated);
}

// ---------------------------------------------------------------------------------------------
// Companions (the drop's products as cards)

export async function dropCompanions(db: Db, id: string, q: { skip: number; take: number }) {
  const drop = await loadDrop(db, id);
  const pageIds = drop.shopify_products_ids.slice(q.skip, q.skip + q.take);
  const rows = await db.product.findMany({
    where: { id: { in: pageIds } },
    select: { ...productCardSelect, publishedAt: true, companion: { select: { id: true, status: true, scheduled_publish_date: true } } },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const products = pageIds
    .map((pid) => byId.get(pid))
    .filter((r): r is NonNullable<typeof r> => !!r)
    .map((r) => ({ ...toCard(r), publishedAt: r.publishedAt, companion: r.companion }));
  return { products, total: drop.shopify_products_ids.length, skip: q.skip, take: q.take };
}

// ---------------------------------------------------------------------------------------------
// Notifications

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function formatDropDate(date: Date): string {
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(date)} UTC`;
}

export function dropNoticeEmail(input: {
  to: string;
  firstName?: string | null;
  drop: { id?: string; name: string; description: string | null; status: string; date: Date };
  titles: string[];
  totalProducts: number;
  appUrl?: string;
}) {
  const { drop } = input;
  const when = formatDropDate(drop.date);
  const live = drop.status === "published";
  const subject = live ? `${drop.name} is live` : `${drop.name} drops on ${when}`;
  const greeting = input.firstName ? `Hello ${input.firstName},` : "Hello,";
  const shown = input.titles.slice(0, 12);
  const more = input.totalProducts - shown.length;
  const lead = live ? `${drop.name} went live on ${when}.` : `${drop.name} drops on ${when}.`;
  const link = input.appUrl ? `${input.appUrl.replace(/\/$/, "")}/` : null;
  // Before the drop: a link to be reminded when it goes live (a notification request of kind drop).
  const remind = input.appUrl && drop.id && !live ? `${input.appUrl.replace(/\/$/, "")}/account/notifications?drop=${encodeURIComponent(drop.id)}` : null;
  const text = [
    greeting,
    "",
    lead,
    ...(drop.description ? [drop.description] : []),
    "",
    ...(shown.length ? ["In this drop:", ...shown.map((t) => `- ${t}`), ...(more > 0 ? [`…and ${more} more`] : [])] : []),
    ...(link ? ["", `Shop it: ${link}`] : []),
    ...(remind ? ["", `Remind me when it is live: ${remind}`] : []),
    "",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>${escapeHtml(greeting)}</p><p><strong>${escapeHtml(lead)}</strong></p>${
    drop.description ? `<p>${escapeHtml(drop.description)}</p>` : ""
  }${shown.length ? `<p>In this drop:</p><ul>${shown.map((t) => `<li>${escapeHtml(t)}</li>`).join("")}${more > 0 ? `<li>…and ${more} more</li>` : ""}</ul>` : ""}${
    link ? `<p><a href="${escapeHtml(link)}">Shop the drop</a></p>` : ""
  }${remind ? `<p><a href="${escapeHtml(remind)}">Remind me when it is live</a></p>` : ""}</body></html>`;
  return { to: input.to, subject, html, text, kind: "drop_notice" };
}

/** Active users: non-guests with an email who viewed a product or ordered in the last 90 days. */
export function activeUsersWhere(now = new Date()): Prisma.UserWhereInput {
  const since = new Date(now.getTime() - ACTIVE_USER_DAYS * 86_400_000);
  return {
    auth_provider: { not: "guest" },
    email: { not: null },
    OR: [{ product_view_events: { some: { created_at: { gte: since } } } }, { orders: { some: { created_at: { gte: since } } } }],
  };
}

export async function notifyDrop(ctx: DropsCtx, id: string, body: { emails?: string[]; skip: number; limit: number }) {
  const drop = await loadDrop(ctx.db, id);
  if (drop.status === "cancelled") throw conflictError("This drop is cancelled");
  if (!drop.scheduled_publish_date) throw conflictError("Set the drop's publish date before telling shoppers about it");

  let recipients: { email: string; first_name: string | null }[];
  let total: number;
  if (body.emails) {
    const unique = [...new Set(body.emails)];
    total = unique.length;
    const page = unique.slice(body.skip, body.skip + body.limit);
    const known = await ctx.db.user.findMany({ where: { email: { in: page } }, select: { email: true, first_name: true } });
    const names = new Map(known.map((u) => [u.email, u.first_name]));
    recipients = page.map((email) => ({ email, first_name: names.get(email) ?? null }));
  } else {
    const where = activeUsersWhere();
    const rows = await ctx.db.user.findMany({ where, select: { email: true, first_name: true }, orderBy: [{ created_at: "asc" }, { id: "asc" }], skip: body.skip, take: body.limit });
    total = await ctx.db.user.count({ where });
    recipients = rows.filter((u): u is { email: string; first_name: string | null } => !!u.email);
  }

  const products = await ctx.db.product.findMany({ where: { id: { in: drop.shopify_products_ids } }, select: { id: true, title: true } });
  const titleById = new Map(products.map((p) => [p.id, p.title]));
  const titles = drop.shopify_products_ids.map((pid) => titleById.get(pid)).filter((t): t is string => !!t);
  for (const r of recipients) {
    await queueEmail(
      ctx,
      dropNoticeEmail({
        to: r.email,
        firstName: r.first_name,
        drop: { id: drop.id, name: drop.name, description: drop.description, status: drop.status, date: drop.scheduled_publish_date },
        titles,
        totalProducts: titles.length,
        appUrl: ctx.config.APP_URL,
      }),
    );
  }
  if (recipients.length) await ctx.db.drop.update({ where: { id }, data: { notified_at: new Date() } });
  return { queued: recipients.length, skip: body.skip, limit: body.limit, total };
}
