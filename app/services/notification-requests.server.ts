/**
 * The shopper's notification requests (NotificationRequest): the list of every kind, back-in-stock
 * and drop requests, deleting one, and the two jobs that email them.
 *
 * Back in stock (kind back_in_stock, a product or one of its variants):
 * - created only while the product (or the variant) is sold out, by a signed-in non-guest user with
 *   an email (SPEC §6); idempotent per user, product and variant (a sent or unsubscribed request is
 *   made active again);
 * - the `notifications.back-in-stock` job emails every active request whose product is shown
 *   (active and published) and available again — the variant when the request names one — then
 *   marks it sent (one email per request). It is enqueued (dedupe key `…:soon`) where inventory
 *   changes: the commerce port's setInventory and a restocking cancelOrder (`withNotificationTriggers`,
 *   wired in app/context.server.ts), the product and inventory webhooks, the catalogue sync and
 *   inventory sync jobs and the companion's sync-inventory; and it runs hourly while active requests
 *   exist, which catches changes made any other way.
 *
 * Drops (kind drop): created for an announced drop (status scheduled) and emailed by the
 * `notifications.drop` job once the drop is published: enqueued by the `drops.publish-due` job,
 * and scheduled at the drop's date when the request is made.
 *
 * Emails go through queueEmail (the outbox in local mode) and carry the unsubscribe link
 * GET /api/notifications/unsubscribe/{token} (app/services/search/notifications.server.ts).
 */
import type { NotificationRequest, Prisma, User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import type { JobQueue } from "~/jobs/queue.server";
import type { Logger } from "~/lib/logger.server";
import type { CommercePort } from "~/providers/commerce/port";
import { conflictError as conflict, invalid, notFoundError as notFound, unprocessableError as unprocessable } from "~/lib/domain-errors";
import { gidTail, toProductGid, toVariantGid } from "~/lib/gid";
import { NOTIFICATION_REQUESTS_PAGE_SIZE } from "~/contract/notifications";
import { queueEmail, type OutgoingEmail } from "./email.server";
import { visibleProductWhere } from "~/lib/visibility";
import { publishDueDrops, formatDropDate } from "./drops.server";
import { appBaseUrl, savedSearchOf } from "./search/notifications.server";

export const BACK_IN_STOCK_QUEUE = "notifications.back-in-stock";
export const DROP_NOTIFICATIONS_QUEUE = "notifications.drop";
/** How often the back-in-stock check runs while active requests exist. */
export const BACK_IN_STOCK_CHECK_INTERVAL_MS = 60 * 60 * 1000;
const BATCH = 200;

export const NO_EMAIL_FOR_BACK_IN_STOCK = "Add an email address to your account to be told when this product is back in stock";
export const NO_EMAIL_FOR_DROP = "Add an email address to your account to be told when this drop goes live";
export const PRODUCT_NOT_FOUND = "Product not found";
export const VARIANT_NOT_OF_PRODUCT = "This variant is not a variant of this product";
export const PRODUCT_IN_STOCK = "This product is in stock: choose a sold-out size or colour to be told when it is back";
export const VARIANT_IN_STOCK = "This size or colour is in stock: you can buy it now";
export const DROP_NOT_FOUND = "Drop not found";
export const DROP_ALREADY_LIVE = "This drop is already live";
export const NOTIFICATION_REQUEST_NOT_FOUND = "Notification request not found";

type Caller = Pick<User, "id" | "email">;
type Ctx = Pick<AppContext, "db" | "queue">;

// ---------------------------------------------------------------------------------------------
// The list

const requestInclude = {
  product: { select: { id: true, title: true, handle: true, featuredImageUrl: true, availableForSale: true } },
  drop: { select: { id: true, name: true, status: true, scheduled_publish_date: true } },
} satisfies Prisma.NotificationRequestInclude;
type RequestRow = Prisma.NotificationRequestGetPayload<{ include: typeof requestInclude }>;

async function variantsOf(db: Db, rows: { variant_id: string | null }[]) {
  const ids = [...new Set(rows.map((r) => r.variant_id).filter((x): x is string => !!x))];
  if (!ids.length) return new Map<string, { id: string; title: string; availableForSale: boolean }>();
  const variants = await db.productVariant.findMany({ where: { id: { in: ids } }, select: { id: true, title: true, availableForSale: true } });
  return new Map(variants.map((v) => [v.id, v]));
}

function toDto(r: RequestRow, variants: Map<string, { id: string; title: string; availableForSale: boolean }>) {
  const saved = r.kind === "search" ? savedSearchOf(r) : null;
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    email: r.email,
    created_at: r.created_at,
    sent_at: r.sent_at,
    product: r.product ? { id: r.product.id, title: r.product.title, handle: r.product.handle, image_url: r.product.featuredImageUrl, availableForSale: r.product.availableForSale } : null,
    variant: r.variant_id ? (variants.get(r.variant_id) ?? null) : null,
    search: saved ? { searchId: r.search_id ?? "", query: saved.text, filters: saved.filters as Record<string, unknown> } : null,
    drop: r.drop ? { id: r.drop.id, name: r.drop.name, status: r.drop.status, scheduled_publish_date: r.drop.scheduled_publish_date } : null,
  };
}

async function dtoOf(db: Db, id: string) {
  const row = await db.notificationRequest.findUniqueOrThrow({ where: { id }, include: requestInclude });
  return toDto(row, await variantsOf(db, [row]));
}

function encodeCursor(created: Date, id: string) {
  return Buffer.from(JSON.stringify([created.toISOString(), id])).toString("base64url");
}
function decodeCursor(cursor: string | undefined): { created: Date; id: string } | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown;
    if (Array.isArray(v) && typeof v[0] === "string" && typeof v[1] === "string" && !Number.isNaN(new Date(v[0]).getTime())) return { created: new Date(v[0]), id: v[1] };
  } catch {
    /* fall through */
  }
  throw invalid("cursor is invalid: pass the nextCursor of the previous page");
}

export async function listMyNotificationRequests(db: Db, user: Caller, q: { kind?: NotificationRequest["kind"]; product_id?: string; cursor?: string; limit?: number }) {
  const limit = Math.max(1, Math.min(100, q.limit ?? NOTIFICATION_REQUESTS_PAGE_SIZE));
  const c = decodeCursor(q.cursor);
  const rows = await db.notificationRequest.findMany({
    where: {
      user_id: user.id,
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.product_id ? { product_id: toProductGid(q.product_id) } : {}),
      ...(c ? { OR: [{ created_at: { lt: c.created } }, { created_at: c.created, id: { lt: c.id } }] } : {}),
    },
    include: requestInclude,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const variants = await variantsOf(db, page);
  const last = page[page.length - 1];
  return { items: page.map((r) => toDto(r, variants)), nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null };
}

export async function deleteMyNotificationRequest(db: Db, user: Caller, id: string) {
  const r = await db.notificationRequest.deleteMany({ where: { id, user_id: user.id } });
  if (r.count === 0) throw notFound(NOTIFICATION_REQUEST_NOT_FOUND);
  return { ok: true as const, id };
}

// ---------------------------------------------------------------------------------------------
// Back in stock: the request

export async function createBackInStockRequest(ctx: Ctx, user: Caller, body: { product_id: string; variant_id?: string | null }) {
  if (!user.email) throw unprocessable(NO_EMAIL_FOR_BACK_IN_STOCK);
  const productId = toProductGid(body.product_id);
  const product = await ctx.db.product.findFirst({
    where: { id: productId, ...visibleProductWhere() },
    select: { id: true, availableForSale: true, variants: { select: { id: true, availableForSale: true } } },
  });
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  const variantId = body.variant_id ? toVariantGid(body.variant_id) : null;
  if (variantId) {
    const variant = product.variants.find((v) => v.id === variantId);
    if (!variant) throw unprocessable(VARIANT_NOT_OF_PRODUCT);
    if (variant.availableForSale) throw conflict(VARIANT_IN_STOCK);
  } else if (product.availableForSale) {
    throw conflict(PRODUCT_IN_STOCK);
  }

  const existing = await ctx.db.notificationRequest.findFirst({
    where: { kind: "back_in_stock", user_id: user.id, product_id: productId, variant_id: variantId },
    orderBy: { created_at: "asc" },
  });
  let id: string;
  if (existing) {
    id = existing.id;
    if (existing.status !== "active" || existing.email !== user.email) {
      await ctx.db.notificationRequest.update({ where: { id }, data: { status: "active", email: user.email } });
    }
  } else {
    id = (await ctx.db.notificationRequest.create({ data: { kind: "back_in_stock", user_id: user.id, email: user.email, product_id: productId, variant_id: variantId, status: "active" } })).id;
  }
  await scheduleBackInStockCheck(ctx);
  return dtoOf(ctx.db, id);
}

// ---------------------------------------------------------------------------------------------
// Drops: the request

export async function createDropRequest(ctx: Ctx, user: Caller, body: { drop_id: string }) {
  if (!user.email) throw unprocessable(NO_EMAIL_FOR_DROP);
  await publishDueDrops(ctx.db);
  const drop = await ctx.db.drop.findUnique({ where: { id: body.drop_id } });
  // Drafts and cancelled drops are not announced: to shoppers they do not exist.
  if (!drop || drop.status === "draft" || drop.status === "cancelled") throw notFound(DROP_NOT_FOUND);
  if (drop.status === "published") throw conflict(DROP_ALREADY_LIVE);

  const existing = await ctx.db.notificationRequest.findFirst({ where: { kind: "drop", user_id: user.id, drop_id: drop.id }, orderBy: { created_at: "asc" } });
  let id: string;
  if (existing) {
    id = existing.id;
    if (existing.status !== "active" || existing.email !== user.email) await ctx.db.notificationRequest.update({ where: { id }, data: { status: "active", email: user.email } });
  } else {
    id = (await ctx.db.notificationRequest.create({ data: { kind: "drop", user_id: user.id, email: user.email, drop_id: drop.id, status: "active" } })).id;
  }
  if (drop.scheduled_publish_date) {
    // Besides the drops.publish-due job's trigger: a run at the drop's date (a moved date is
    // caught by the publish-due job of the new date).
    const runAt = drop.scheduled_publish_date;
    await ctx.queue.enqueue(DROP_NOTIFICATIONS_QUEUE, { reason: "drop-date", dropId: drop.id }, { runAt, dedupeKey: `${DROP_NOTIFICATIONS_QUEUE}:${drop.id}:${runAt.toISOString()}` });
  }
  return dtoOf(ctx.db, id);
}

/**
 * "Notify me" by email address (guests, GET /drops/upcoming's drops): one request per drop and
 * address, linked to the caller's session when there is one (a guest who registers later keeps
 * it). An address that unsubscribed stays unsubscribed (typing it proves nothing); the answer is the
 * same either way, so it tells nothing about the address.
 */
export async function createDropRequestByEmail(ctx: Ctx, caller: Pick<User, "id"> | null, dropId: string, email: string) {
  await publishDueDrops(ctx.db);
  const drop = await ctx.db.drop.findUnique({ where: { id: dropId } });
  if (!drop || drop.status === "draft" || drop.status === "cancelled") throw notFound(DROP_NOT_FOUND);
  if (drop.status === "published") throw conflict(DROP_ALREADY_LIVE);
  const existing = await ctx.db.notificationRequest.findFirst({ where: { kind: "drop", drop_id: drop.id, email }, orderBy: { created_at: "asc" } });
  if (!existing) {
    await ctx.db.notificationRequest.create({ data: { kind: "drop", user_id: caller?.id ?? null, email, drop_id: drop.id, status: "active" } });
  } else if (existing.status === "sent") {
    await ctx.db.notificationRequest.update({ where: { id: existing.id }, data: { status: "active" } });
  }
  if (drop.scheduled_publish_date) {
    const runAt = drop.scheduled_publish_date;
    await ctx.queue.enqueue(DROP_NOTIFICATIONS_QUEUE, { reason: "drop-date", dropId: drop.id }, { runAt, dedupeKey: `${DROP_NOTIFICATIONS_QUEUE}:${drop.id}:${runAt.toISOString()}` });
  }
  return { ok: true as const, drop_id: drop.id, email };
}

// ---------------------------------------------------------------------------------------------
// Triggers

const hourSlot = (d: Date) => new Date(Math.floor(d.getTime() / BACK_IN_STOCK_CHECK_INTERVAL_MS) * BACK_IN_STOCK_CHECK_INTERVAL_MS);

/** Makes sure the periodic back-in-stock check will run (at the next hour). */
export async function scheduleBackInStockCheck(ctx: { queue: JobQueue }, now = new Date()) {
  const runAt = new Date(hourSlot(now).getTime() + BACK_IN_STOCK_CHECK_INTERVAL_MS);
  await ctx.queue.enqueue(BACK_IN_STOCK_QUEUE, { reason: "scheduled" }, { runAt, dedupeKey: `${BACK_IN_STOCK_QUEUE}:${runAt.toISOString()}` });
}

/**
 * Inventory may have come back (for these products, or any with null): runs the back-in-stock
 * check soon, when someone waits for one of them. Never throws (the inventory write succeeded).
 */
export async function enqueueBackInStockCheck(ctx: { db: Db; queue: JobQueue; log?: Logger }, productIds: string[] | null, reason: string) {
  try {
    if (productIds && productIds.length === 0) return null;
    const waiting = await ctx.db.notificationRequest.findFirst({
      where: { kind: "back_in_stock", status: "active", ...(productIds ? { product_id: { in: [...new Set(productIds)] } } : {}) },
      select: { id: true },
    });
    if (!waiting) return null;
    return await ctx.queue.enqueue(BACK_IN_STOCK_QUEUE, { reason }, { dedupeKey: `${BACK_IN_STOCK_QUEUE}:soon` });
  } catch (e) {
    ctx.log?.warn({ err: e, reason }, "could not enqueue the back-in-stock check");
    return null;
  }
}

/** A drop may have been published: sends its waiting requests soon. Never throws. */
export async function enqueueDropNotifications(ctx: { db: Db; queue: JobQueue; log?: Logger }, reason: string) {
  try {
    const waiting = await ctx.db.notificationRequest.findFirst({ where: { kind: "drop", status: "active" }, select: { id: true } });
    if (!waiting) return null;
    return await ctx.queue.enqueue(DROP_NOTIFICATIONS_QUEUE, { reason }, { dedupeKey: `${DROP_NOTIFICATIONS_QUEUE}:soon` });
  } catch (e) {
    ctx.log?.warn({ err: e, reason }, "could not enqueue the drop notifications");
    return null;
  }
}

/**
 * The commerce port with a back-in-stock check enqueued after inventory goes up through it:
 * setInventory, cancelOrder with restock, and receiveReturnItems with received items (both adapters).
 */
export function withNotificationTriggers(commerce: CommercePort, ctx: { db: Db; queue: JobQueue; log?: Logger }): CommercePort {
  const wrapped: CommercePort = Object.create(commerce) as CommercePort;
  wrapped.setInventory = async (levels) => {
    await commerce.setInventory(levels);
    if (levels.some((l) => l.available > 0)) await enqueueBackInStockCheck(ctx, null, "commerce.setInventory");
  };
  wrapped.cancelOrder = async (id, opts) => {
    await commerce.cancelOrder(id, opts);
    if (opts.restock) await enqueueBackInStockCheck(ctx, null, "commerce.cancelOrder");
  };
  wrapped.receiveReturnItems = async (returnId, opts) => {
    await commerce.receiveReturnItems(returnId, opts);
    if (opts.lines.some((l) => l.received)) await enqueueBackInStockCheck(ctx, null, "commerce.receiveReturnItems");
  };
  return wrapped;
}

// ---------------------------------------------------------------------------------------------
// Emails

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/api/notifications/unsubscribe/${encodeURIComponent(token)}`;
function formatPrice(amount: string, currencyCode: string) {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currencyCode }).format(Number(amount));
  } catch {
    return `${amount} ${currencyCode}`;
  }
}

export function backInStockEmail(input: {
  to: string;
  product: { id: string; title: string; handle: string; price: string; currencyCode: string; imageUrl: string | null };
  variantTitle: string | null;
  baseUrl: string;
  unsubscribeToken: string;
}): OutgoingEmail {
  const { product } = input;
  const what = input.variantTitle ? `${product.title} (${input.variantTitle})` : product.title;
  const link = `${input.baseUrl}/products/${gidTail(product.id)}/${encodeURIComponent(product.handle)}`;
  const image = product.imageUrl ? (product.imageUrl.startsWith("/") ? `${input.baseUrl}${product.imageUrl}` : product.imageUrl) : null;
  const unsubscribe = unsubscribeUrl(input.baseUrl, input.unsubscribeToken);
  const price = formatPrice(product.price, product.currencyCode);
  const text = ["Hello,", "", `Good news: ${what} is back in stock (from ${price}).`, "", `Get it before it sells out again: ${link}`, "", `Stop these emails: ${unsubscribe}`, ""].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello,</p><p>Good news: <strong>${escapeHtml(what)}</strong> is back in stock (from ${escapeHtml(price)}).</p>` +
    `${image ? `<p><img src="${escapeHtml(image)}" alt="" width="240" style="max-width:100%"></p>` : ""}` +
    `<p><a href="${escapeHtml(link)}">Get it before it sells out again</a></p>` +
    `<p style="font-size:12px;color:#6d7175">You asked to be told when this product is back in stock. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></body></html>`;
  return { to: input.to, subject: `Back in stock: ${what}`, html, text, kind: "back_in_stock" };
}

export function dropLiveEmail(input: { to: string; drop: { name: string; description: string | null; date: Date }; titles: string[]; baseUrl: string; unsubscribeToken: string }): OutgoingEmail {
  const { drop } = input;
  const shown = input.titles.slice(0, 12);
  const more = input.titles.length - shown.length;
  const link = `${input.baseUrl}/`;
  const unsubscribe = unsubscribeUrl(input.baseUrl, input.unsubscribeToken);
  const lead = `${drop.name} went live on ${formatDropDate(drop.date)}.`;
  const text = [
    "Hello,",
    "",
    lead,
    ...(drop.description ? [drop.description] : []),
    "",
    ...(shown.length ? ["In this drop:", ...shown.map((t) => `- ${t}`), ...(more > 0 ? [`…and ${more} more`] : []), ""] : []),
    `Shop it: ${link}`,
    "",
    `Stop these emails: ${unsubscribe}`,
    "",
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello,</p><p><strong>${escapeHtml(lead)}</strong></p>` +
    `${drop.description ? `<p>${escapeHtml(drop.description)}</p>` : ""}` +
    `${shown.length ? `<p>In this drop:</p><ul>${shown.map((t) => `<li>${escapeHtml(t)}</li>`).join("")}${more > 0 ? `<li>…and ${more} more</li>` : ""}</ul>` : ""}` +
    `<p><a href="${escapeHtml(link)}">Shop the drop</a></p>` +
    `<p style="font-size:12px;color:#6d7175">You asked to be told when this drop goes live. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p></body></html>`;
  return { to: input.to, subject: `${drop.name} is live`, html, text, kind: "drop_live" };
}

/**
 * Marks the request sent (only if it is still active: a concurrent run or an unsubscribe wins)
 * and queues its email, in one transaction: a job killed between the two cannot leave a request
 * marked sent with no email, and its next run does not email it again.
 */
async function sendOnce(ctx: Ctx, requestId: string, now: Date, email: () => OutgoingEmail): Promise<boolean> {
  return ctx.db.$transaction(async (tx) => {
    const claimed = await tx.notificationRequest.updateMany({ where: { id: requestId, status: "active" }, data: { status: "sent", sent_at: now } });
    if (claimed.count !== 1) return false;
    await queueEmail(ctx, email(), tx);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// The jobs

export interface NotificationRunResult {
  checked: number;
  emailed: number;
}

/** The back-in-stock job: emails the active requests whose product (or variant) can be bought again. */
export async function runBackInStockCheck(ctx: Pick<AppContext, "db" | "queue" | "config">, now = new Date()): Promise<NotificationRunResult> {
  const baseUrl = appBaseUrl(ctx.config);
  let checked = 0;
  let emailed = 0;
  let after: string | undefined;
  for (;;) {
    // Only products that are shown and available: a variant can only be available then.
    const batch = await ctx.db.notificationRequest.findMany({
      where: { kind: "back_in_stock", status: "active", product: { is: { ...visibleProductWhere(now), availableForSale: true } }, ...(after ? { id: { gt: after } } : {}) },
      include: { product: { select: { id: true, title: true, handle: true, priceMin: true, currencyCode: true, featuredImageUrl: true } } },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (batch.length === 0) break;
    after = batch[batch.length - 1].id;
    const variantIds = [...new Set(batch.map((r) => r.variant_id).filter((x): x is string => !!x))];
    const variants = new Map(
      (await ctx.db.productVariant.findMany({ where: { id: { in: variantIds } }, select: { id: true, product_id: true, title: true, availableForSale: true, price: true } })).map((v) => [v.id, v]),
    );
    for (const r of batch) {
      checked++;
      const p = r.product!;
      const variant = r.variant_id ? variants.get(r.variant_id) : undefined;
      // A request for a variant the product no longer has falls back to the product (available here).
      if (variant && (!variant.availableForSale || variant.product_id !== p.id)) continue;
      const sent = await sendOnce(ctx, r.id, now, () =>
        backInStockEmail({
          to: r.email,
          product: { id: p.id, title: p.title, handle: p.handle, price: (variant?.price ?? p.priceMin).toFixed(2), currencyCode: p.currencyCode, imageUrl: p.featuredImageUrl },
          variantTitle: variant && variant.title !== "Default Title" ? variant.title : null,
          baseUrl,
          unsubscribeToken: r.unsubscribe_token,
        }),
      );
      if (sent) emailed++;
    }
  }
  if (await ctx.db.notificationRequest.findFirst({ where: { kind: "back_in_stock", status: "active" }, select: { id: true } })) await scheduleBackInStockCheck(ctx, now);
  return { checked, emailed };
}

/** The drop job: emails the active requests of drops that are published now. */
export async function runDropNotifications(ctx: Pick<AppContext, "db" | "queue" | "config">, now = new Date()): Promise<NotificationRunResult> {
  await publishDueDrops(ctx.db, now);
  const baseUrl = appBaseUrl(ctx.config);
  let checked = 0;
  let emailed = 0;
  let after: string | undefined;
  const titlesByDrop = new Map<string, string[]>();
  for (;;) {
    const batch = await ctx.db.notificationRequest.findMany({
      where: { kind: "drop", status: "active", drop: { is: { status: "published" } }, ...(after ? { id: { gt: after } } : {}) },
      include: { drop: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (batch.length === 0) break;
    after = batch[batch.length - 1].id;
    for (const r of batch) {
      checked++;
      const drop = r.drop!;
      let titles = titlesByDrop.get(drop.id);
      if (!titles) {
        const products = await ctx.db.product.findMany({ where: { id: { in: drop.shopify_products_ids } }, select: { id: true, title: true } });
        const byId = new Map(products.map((p) => [p.id, p.title]));
        titles = drop.shopify_products_ids.map((id) => byId.get(id)).filter((t): t is string => !!t);
        titlesByDrop.set(drop.id, titles);
      }
      const sent = await sendOnce(ctx, r.id, now, () =>
        dropLiveEmail({ to: r.email, drop: { name: drop.name, description: drop.description, date: drop.scheduled_publish_date ?? now }, titles: titles!, baseUrl, unsubscribeToken: r.unsubscribe_token }),
      );
      if (sent) emailed++;
    }
  }
  return { checked, emailed };
}
