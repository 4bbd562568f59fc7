/**
 * Drops: a named set of products published together on a date. The rules of what a drop does to
 * its products' visibility are in docs/drops.md (the holds in ./publish-holds.server.ts).
 *
 * - draft: no date yet (or unscheduled): the drop touches nothing. scheduled: a future date is set;
 *   the products not live yet (and, with `hold_back_live`, the live ones) are held for that date
 *   through the commerce port (Shopify: a publication with a future publish date; local: the
 *   product's publishedAt), each hold remembering the visibility before. published: the date has
 *   passed (the `drops.publish-due` job, or any read, moves it) or Publish now. cancelled:
 *   withdrawn by an admin. Withdrawing (remove, delete, cancel, unschedule) restores what was before.
 * - The product companions keep the date too (ProductCompanion.scheduled_publish_date).
 * - Shoppers are told by email (queued through the email job), either chosen addresses or the
 *   active users: non-guests with an email who viewed a product or ordered in the last 90 days.
 *   Announced (scheduled) drops are listed for them (GET /drops/upcoming) with "Notify me".
 */
import type { Drop as DropRow, Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError, invalid, notFoundError } from "~/lib/domain-errors";
import { queueEmail } from "./email.server";
import { productCardSelect, requireProducts, toCard } from "./styles.server";
import { dueHeldNotLive, forgetPassedHolds, holdProducts, isLive, publishProductsNow, releaseHolds } from "./publish-holds.server";

export const PUBLISH_DUE_QUEUE = "drops.publish-due";
export const ACTIVE_USER_DAYS = 90;
export const UPCOMING_DROPS_LIMIT = 50;
export const PAST_DATE_MESSAGE = "scheduled_publish_date must be in the future (to publish the drop at once, use Publish now)";

export type DropsCtx = Pick<AppContext, "db" | "queue" | "config" | "commerce">;

export function toDrop(d: DropRow) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    teaser: d.teaser,
    image_url: d.image_url,
    shopify_products_ids: d.shopify_products_ids,
    scheduled_publish_date: d.scheduled_publish_date,
    status: d.status,
    hold_back_live: d.hold_back_live,
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

/**
 * The `drops.publish-due` job: held products whose date has come and that are still not live are
 * published (a safety net: the store's scheduled publication normally did it), due drops become
 * published, and the holds that are done are forgotten.
 */
export async function publishDueDropsNow(ctx: Pick<AppContext, "db" | "commerce">, now = new Date()): Promise<{ published: number; productsPublished: number }> {
  const pending = await dueHeldNotLive(ctx.db, now);
  const done = await publishProductsNow(ctx, pending);
  const r = await publishDueDrops(ctx.db, now);
  await forgetPassedHolds(ctx.db, now);
  return { published: r.published, productsPublished: done.length };
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

/** Announced drops for shoppers: scheduled, date ahead, soonest first (never drafts or cancelled ones). */
export async function listUpcomingDrops(db: Db, now = new Date()) {
  await publishDueDrops(db, now);
  const rows = await db.drop.findMany({
    where: { status: "scheduled", scheduled_publish_date: { gt: now } },
    orderBy: [{ scheduled_publish_date: "asc" }, { id: "asc" }],
    take: UPCOMING_DROPS_LIMIT,
  });
  return {
    drops: rows.map((d) => ({
      id: d.id,
      name: d.name,
      teaser: d.teaser ?? d.description,
      image_url: d.image_url,
      scheduled_publish_date: d.scheduled_publish_date!,
      product_count: d.shopify_products_ids.length,
    })),
  };
}

export async function getDrop(db: Db, id: string, canManage: boolean) {
  const drop = await loadDrop(db, id);
  // Unpublished drops are not announced yet: to shoppers they do not exist.
  if (!canManage && drop.status !== "published") throw notFoundError("Drop not found");
  return toDrop(drop);
}

// ---------------------------------------------------------------------------------------------
// The products' visibility (docs/drops.md)

/** The products a scheduled drop holds: those not live yet, and with hold back the live ones too. */
async function productsToHold(db: Db, ids: string[], holdBack: boolean): Promise<string[]> {
  if (ids.length === 0 || holdBack) return ids;
  const now = new Date();
  const rows = await db.product.findMany({ where: { id: { in: ids } }, select: { id: true, publishedAt: true } });
  const notLive = new Set(rows.filter((r) => !isLive(r.publishedAt, now)).map((r) => r.id));
  return ids.filter((id) => notLive.has(id));
}

/** How many of the drop's products it holds (they publish on its date; the others are live already). */
export async function heldProductCount(db: Db, dropId: string): Promise<number> {
  return db.productPublishHold.count({ where: { drop_id: dropId } });
}

async function enqueuePublishDue(ctx: DropsCtx, drop: { id: string }, date: Date) {
  await ctx.queue.enqueue(PUBLISH_DUE_QUEUE, { dropId: drop.id }, { runAt: date, dedupeKey: `${PUBLISH_DUE_QUEUE}:${drop.id}:${date.toISOString()}` });
}

function requireFuture(date: Date) {
  if (!(date.getTime() > Date.now())) throw invalid(PAST_DATE_MESSAGE);
}

// ---------------------------------------------------------------------------------------------
// Writes

export interface DropInput {
  name: string;
  description?: string | null;
  teaser?: string | null;
  image_url?: string | null;
  hold_back_live?: boolean;
  shopify_products_ids?: string[];
}

export async function createDrop(ctx: DropsCtx, input: DropInput & { scheduled_publish_date?: Date | null }) {
  const ids = await requireProducts(ctx.db, input.shopify_products_ids ?? []);
  const date = input.scheduled_publish_date ?? null;
  if (date) requireFuture(date);
  const drop = await ctx.db.drop.create({
    data: {
      name: input.name,
      description: input.description ?? null,
      teaser: input.teaser ?? null,
      image_url: input.image_url ?? null,
      hold_back_live: input.hold_back_live ?? false,
      shopify_products_ids: ids,
      status: "draft",
    },
  });
  if (!date) return toDrop(drop);
  try {
    return await setScheduledPublishDate(ctx, drop.id, date);
  } catch (e) {
    // Refused (a product held by another drop): nothing is left half made.
    await ctx.db.drop.delete({ where: { id: drop.id } });
    throw e;
  }
}

export async function updateDrop(ctx: DropsCtx, id: string, input: DropInput & { status?: "draft" | "cancelled" }) {
  let drop = await loadDrop(ctx.db, id);
  const holdBack = input.hold_back_live ?? drop.hold_back_live;
  if (input.shopify_products_ids) drop = await replaceProducts(ctx, id, input.shopify_products_ids, { holdBack });
  if (holdBack !== drop.hold_back_live && drop.status === "scheduled" && drop.scheduled_publish_date) {
    // Hold back on: the live products are hidden until the drop; off: they are live again.
    if (holdBack) await holdProducts(ctx, drop.shopify_products_ids, drop.scheduled_publish_date, id);
    else await releaseHolds(ctx, id, { onlyPriorLive: true });
  }
  const data: Prisma.DropUpdateInput = { name: input.name, description: input.description, teaser: input.teaser, image_url: input.image_url, hold_back_live: input.hold_back_live };
  drop = await ctx.db.drop.update({ where: { id }, data });
  if (input.status && input.status !== drop.status) {
    if (drop.status === "published") throw conflictError("This drop is already published; its status cannot change");
    if (input.status === "cancelled") {
      if (drop.status === "scheduled") await releaseHolds(ctx, id);
      await ctx.db.drop.update({ where: { id }, data: { status: "cancelled" } });
    } else if (drop.status === "scheduled") {
      // Unschedule: back to a draft without a date.
      await releaseHolds(ctx, id);
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

/** Deletes the drop; a scheduled drop's holds are withdrawn first (a published drop's products stay live). */
export async function deleteDrop(ctx: DropsCtx, id: string) {
  const drop = await loadDrop(ctx.db, id);
  if (drop.status === "scheduled") await releaseHolds(ctx, id);
  await ctx.db.drop.delete({ where: { id } });
  return { ok: true as const };
}

/**
 * Replaces the drop's products. A scheduled drop holds the products it gains (per docs/drops.md)
 * and restores the ones it loses; a published drop publishes the ones it gains at once.
 */
export async function setDropProducts(ctx: DropsCtx, id: string, rawIds: string[]) {
  return toDrop(await replaceProducts(ctx, id, rawIds));
}

async function replaceProducts(ctx: DropsCtx, id: string, rawIds: string[], opts: { holdBack?: boolean } = {}): Promise<DropRow> {
  const drop = await loadDrop(ctx.db, id);
  const ids = await requireProducts(ctx.db, rawIds);
  const before = new Set(drop.shopify_products_ids);
  const after = new Set(ids);
  const added = ids.filter((p) => !before.has(p));
  const removed = drop.shopify_products_ids.filter((p) => !after.has(p));
  if (drop.status === "scheduled" && drop.scheduled_publish_date) {
    await holdProducts(ctx, await productsToHold(ctx.db, added, opts.holdBack ?? drop.hold_back_live), drop.scheduled_publish_date, id);
    await releaseHolds(ctx, id, { productIds: removed });
  } else if (drop.status === "published") {
    await publishProductsNow(ctx, added);
  }
  return ctx.db.drop.update({ where: { id }, data: { shopify_products_ids: ids } });
}

/**
 * Sets the drop's date (it must be in the future) and holds its products for it (docs/drops.md);
 * a `drops.publish-due` job publishes the drop when the date comes.
 */
export async function setScheduledPublishDate(ctx: DropsCtx, id: string, date: Date, opts: { reopen?: boolean } = {}) {
  requireFuture(date);
  const drop = await loadDrop(ctx.db, id);
  if (drop.status === "published") throw conflictError("This drop is already published");
  if (drop.status === "cancelled" && !opts.reopen) throw conflictError("This drop is cancelled; reopen it (status draft) before scheduling it");
  await holdProducts(ctx, await productsToHold(ctx.db, drop.shopify_products_ids, drop.hold_back_live), date, id);
  const updated = await ctx.db.drop.update({ where: { id }, data: { scheduled_publish_date: date, status: "scheduled" } });
  await enqueuePublishDue(ctx, updated, date);
  return toDrop(updated);
}

/**
 * Publish now: a draft or scheduled drop is published at once — its products not live yet go live,
 * its date becomes now, and the publish-due job runs (shoppers waiting for it are emailed).
 */
export async function publishDropNow(ctx: DropsCtx, id: string) {
  const drop = await loadDrop(ctx.db, id);
  if (drop.status === "published") throw conflictError("This drop is already published");
  if (drop.status === "cancelled") throw conflictError("This drop is cancelled; reopen it (status draft) before publishing it");
  await publishProductsNow(ctx, drop.shopify_products_ids);
  await releaseHolds(ctx, id);
  const now = new Date();
  const updated = await ctx.db.drop.update({ where: { id }, data: { status: "published", scheduled_publish_date: now } });
  await enqueuePublishDue(ctx, updated, now);
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
