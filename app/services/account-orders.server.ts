/**
 * The shopper's own orders and returns: list (10 a page, newest first), detail with item statuses
 * and tracking, cancel with a reason, request a return of chosen items, and the returns with their
 * statuses as a timeline. The rules are in ./account-orders-rules.ts; the store is asked through
 * the commerce port (local adapter: the app's tables; Shopify: orderCancel / returnRequest).
 *
 * Ownership — an order is the caller's when
 * - it is linked to the caller's user id (links are made only on proof: the order webhooks link by
 *   Shopify customer id or by an email its owner verified, verifying an email links that
 *   address's unlinked orders, the demo data links its verified accounts directly), or
 * - its Shopify customer id is the caller's, or
 * - the caller verified their email (the emailed link) and the order was placed with it and is
 *   linked to no user. An address that was only typed (a lead, an unverified registration) gives
 *   nothing: anyone can type anyone's address, and an order carries its shipping address.
 * Every other order answers 404, exactly like an unknown id, and nothing is changed.
 */
import type { Prisma, ReturnReason, User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { decodeNewestFirstCursor, encodeNewestFirstCursor, rowsAfterCursor } from "~/lib/newest-first-cursor";
import { conflictError, DomainError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { CommerceError } from "~/providers/commerce/port";
import { CANCEL_REASON_LABELS, ORDERS_PAGE_SIZE, RETURNS_PAGE_SIZE, type CancelReasonValue, type ReturnReasonValue } from "~/contract/account-orders";
import { applyOrderPurchases } from "./recommendations/aggregates.server";
import { recordOrderEvent } from "./orders/order-events.server";
import { sentQuantity } from "~/lib/order-quantities";
import { buildReturnTimeline, cancelClaimActive, cancelEligibility, heldItemIds, orderStage, returnEligibility } from "./account-orders-rules";

export const ORDER_NOT_FOUND = "Order not found";
export const ITEMS_NOT_IN_ORDER = (ids: string[]) => `${ids.length === 1 ? "Item" : "Items"} ${ids.join(", ")} ${ids.length === 1 ? "is" : "are"} not part of this order`;

type Caller = Pick<User, "id" | "email" | "email_verified_at" | "shopify_customer_id">;
type OrdersCtx = Pick<AppContext, "db" | "commerce" | "log">;

/** `5400004` → `gid://shopify/Order/5400004`; anything else as given (trimmed). */
export function toOrderGid(id: string): string {
  const v = String(id).trim();
  return /^\d+$/.test(v) ? `gid://shopify/Order/${v}` : v;
}

/** The caller's email when its owner proved it, else null. */
const verifiedEmail = (u: Caller) => (u.email && u.email_verified_at ? u.email.toLowerCase() : null);

/** The orders that are the caller's (see the file comment). */
export function ownedOrdersWhere(user: Caller): Prisma.OrderWhereInput {
  const or: Prisma.OrderWhereInput[] = [{ user_id: user.id }];
  if (user.shopify_customer_id) or.push({ shopify_customer_id: user.shopify_customer_id });
  const email = verifiedEmail(user);
  if (email) or.push({ user_id: null, email });
  return { OR: or };
}

const money = (v: Prisma.Decimal | null | undefined, currencyCode: string) => (v === null || v === undefined ? null : { amount: v.toFixed(2), currencyCode });

// ---------------------------------------------------------------------------------------------
// Reads

const orderInclude = {
  items: { orderBy: [{ created_at: "asc" }, { id: "asc" }], include: { fulfillments: { select: { quantity: true } } } },
  return_requests: { orderBy: [{ created_at: "desc" }, { id: "desc" }], include: { return: { select: { status: true } } } },
  returns: { include: { line_items: { select: { order_item_id: true } } } },
} satisfies Prisma.OrderInclude;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

const summaryInclude = { items: { orderBy: [{ created_at: "asc" }, { id: "asc" }], include: { fulfillments: { select: { quantity: true } } } }, return_requests: { select: { status: true } } } satisfies Prisma.OrderInclude;
type SummaryRow = Prisma.OrderGetPayload<{ include: typeof summaryInclude }>;

const liveRequests = (o: { return_requests: { status: string }[] }) => o.return_requests.filter((r) => r.status === "REQUESTED" || r.status === "OPEN").length;

/** The order as the rules see it: its status, items, live return requests and a cancellation with the store. */
const cancelFacts = (o: SummaryRow | OrderRow, now?: Date) => ({
  status: o.status,
  items: o.items,
  liveReturnRequests: liveRequests(o),
  cancelling: cancelClaimActive(o.cancel_requested_at, now),
});

function toSummary(o: SummaryRow | OrderRow) {
  const cancel = cancelEligibility(cancelFacts(o));
  return {
    id: o.id,
    name: o.name,
    status: o.status,
    stage: orderStage(o),
    financial_status: o.financial_status,
    fulfillment_status: o.fulfillment_status,
    created_at: o.created_at,
    cancelled_at: o.cancelled_at,
    total: { amount: o.total_price.toFixed(2), currencyCode: o.currencyCode },
    item_count: o.items.reduce((n, i) => n + i.quantity, 0),
    items_preview: o.items.slice(0, 4).map((i) => ({ title: i.title, image_url: i.image_url })),
    can_cancel: cancel.allowed,
  };
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
function shippingAddress(v: Prisma.JsonValue | null) {
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const a = v as Record<string, unknown>;
  const name = [str(a.first_name), str(a.last_name)].filter(Boolean).join(" ") || str(a.name);
  return { name: name || null, address1: str(a.address1), city: str(a.city), province: str(a.province), zip: str(a.zip), country: str(a.country) };
}

async function toDetail(db: Db, o: OrderRow) {
  const productIds = [...new Set(o.items.map((i) => i.product_id).filter((x): x is string => !!x))];
  const handles = new Map((await db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, handle: true } })).map((p) => [p.id, p.handle]));
  const held = heldItemIds(o.return_requests, o.returns);
  const facts = cancelFacts(o);
  const cancel = cancelEligibility(facts);
  const items = o.items.map((i) => {
    const r = returnEligibility(facts, i, held);
    const request = o.return_requests.find((rr) => rr.order_item_ids.includes(i.id)) ?? null;
    return {
      id: i.id,
      product_id: i.product_id,
      variant_id: i.variant_id,
      product_handle: i.product_id ? (handles.get(i.product_id) ?? null) : null,
      title: i.title,
      variant_title: i.variant_title,
      sku: i.sku,
      quantity: i.quantity,
      fulfilled_quantity: sentQuantity(i),
      price: { amount: i.price.toFixed(2), currencyCode: i.currencyCode },
      status: i.status,
      tracking: i.tracking_number ? { tracking_number: i.tracking_number, tracking_url: i.tracking_url, provider: i.provider } : null,
      image_url: i.image_url,
      returnable: r.allowed,
      return_block_reason: r.reason,
      return_request: request ? { id: request.id, status: request.status, return_status: request.return?.status ?? null } : null,
    };
  });
  return {
    ...toSummary(o),
    subtotal: money(o.subtotal_price, o.currencyCode),
    shipping: money(o.total_shipping, o.currencyCode),
    tax: money(o.total_tax, o.currencyCode),
    cancel_reason: o.cancel_reason,
    cancel_block_reason: cancel.reason,
    closed_at: o.closed_at,
    note: o.note,
    shipping_address: shippingAddress(o.shipping_address),
    items,
    can_return: items.some((i) => i.returnable),
  };
}

async function loadOwnedOrder(db: Db, user: Caller, rawId: string): Promise<OrderRow> {
  const id = toOrderGid(rawId);
  const order = await db.order.findFirst({ where: { AND: [{ id }, ownedOrdersWhere(user)] }, include: orderInclude });
  if (!order) throw notFoundError(ORDER_NOT_FOUND);
  return order;
}

export async function listMyOrders(db: Db, user: Caller, q: { cursor?: string; limit?: number }) {
  const limit = Math.max(1, Math.min(50, q.limit ?? ORDERS_PAGE_SIZE));
  const cursor = decodeNewestFirstCursor(q.cursor);
  const rows = await db.order.findMany({
    where: { AND: [ownedOrdersWhere(user), rowsAfterCursor(cursor)] },
    include: summaryInclude,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(toSummary), nextCursor: rows.length > limit && last ? encodeNewestFirstCursor(last.created_at, last.id) : null };
}

export async function getMyOrder(db: Db, user: Caller, rawId: string) {
  return toDetail(db, await loadOwnedOrder(db, user, rawId));
}

/** A refusal of the store as an API error (its message is meant for people). */
function storeRefused(e: unknown, what: string): never {
  if (e instanceof DomainError) throw e;
  if (e instanceof CommerceError) {
    if (e.status === 404) throw notFoundError(ORDER_NOT_FOUND);
    if (e.status === 409) throw conflictError(e.message);
    if (e.status === 429 || e.status === 502) throw new DomainError("unavailable", `The store is not answering right now; ${what} was not done. Please try again.`, { reason: e.message });
    throw unprocessableError(`The store refused: ${e.message}`, { userErrors: e.userErrors });
  }
  throw e;
}

// ---------------------------------------------------------------------------------------------
// Cancel

export async function cancelMyOrder(ctx: OrdersCtx, user: Caller, rawId: string, body: { reason: CancelReasonValue; note?: string }) {
  const found = await loadOwnedOrder(ctx.db, user, rawId);
  const note = body.note?.trim();
  const staffNote = `Cancelled by the customer: ${CANCEL_REASON_LABELS[body.reason]}${note ? ` — ${note}` : ""}`;

  // Check and claim under the lock on the order row that return requests take (initiateMyReturn):
  // whichever comes second sees the first — a live return request refuses the cancel, and the
  // claim (cancel_requested_at) refuses return requests and other cancels while the store works.
  // No lock is held across the store's call (the local adapter writes this very row).
  const claimedAt = new Date();
  await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${found.id} FOR UPDATE`;
    const order = await tx.order.findUniqueOrThrow({ where: { id: found.id }, include: orderInclude });
    const rule = cancelEligibility(cancelFacts(order, claimedAt));
    if (!rule.allowed) throw conflictError(rule.reason);
    await tx.order.update({ where: { id: order.id }, data: { cancel_requested_at: claimedAt } });
  });
  const releaseClaim = () =>
    ctx.db.order
      .updateMany({ where: { id: found.id, cancel_requested_at: claimedAt }, data: { cancel_requested_at: null } })
      .catch((err: unknown) => ctx.log.error({ err, orderId: found.id }, "could not release a refused cancellation's claim"));

  try {
    await ctx.commerce.cancelOrder(found.id, { reason: "CUSTOMER", staffNote, refund: true, restock: true });
  } catch (e) {
    await releaseClaim();
    storeRefused(e, "the cancellation");
  }
  // The read model: the local adapter wrote it already; with Shopify the orders/updated webhook
  // will, and the shopper sees the cancellation at once. Purchases leave the recommendations as
  // the webhook does for a cancelled order (a no-op once done).
  const now = new Date();
  await ctx.db.$transaction(async (tx) => {
    const current = await tx.order.findUniqueOrThrow({ where: { id: found.id }, select: { cancelled_at: true, cancel_reason: true } });
    await tx.order.update({
      where: { id: found.id },
      data: { status: "cancelled", cancelled_at: current.cancelled_at ?? now, cancel_reason: current.cancel_reason ?? "customer", cancel_requested_at: null },
    });
    await tx.orderItem.updateMany({ where: { order_id: found.id, status: { not: "cancelled" } }, data: { status: "cancelled" } });
    await applyOrderPurchases(tx, found.id, -1);
    await tx.productPurchaseEvent.deleteMany({ where: { order_id: found.id } });
    // The order's timeline (admin orders) shows who cancelled.
    await recordOrderEvent(tx, { orderId: found.id, kind: "order.cancelled", message: `The customer cancelled the order: ${CANCEL_REASON_LABELS[body.reason]}`, actor: { kind: "user", userId: user.id, label: user.email ?? "Customer" }, data: { reason: body.reason, note: note ?? null } });
  });
  ctx.log.info({ orderId: found.id, userId: user.id, reason: body.reason }, "order cancelled by its shopper");
  return getMyOrder(ctx.db, user, found.id);
}

// ---------------------------------------------------------------------------------------------
// Returns

export const returnEntryInclude = {
  order: { select: { id: true, name: true } },
  return: { include: { line_items: true } },
} satisfies Prisma.ReturnRequestInclude;
type RequestRow = Prisma.ReturnRequestGetPayload<{ include: typeof returnEntryInclude }>;

const bareReturnInclude = { order: { select: { id: true, name: true } }, line_items: true } satisfies Prisma.ReturnInclude;
type BareReturnRow = Prisma.ReturnGetPayload<{ include: typeof bareReturnInclude }>;

type ItemInfo = { id: string; title: string; variant_title: string | null; image_url: string | null; quantity: number };

function returnTracking(r: { tracking_number: string | null; tracking_company: string | null; label_url: string | null } | null) {
  if (!r || (!r.tracking_number && !r.label_url)) return null;
  return { tracking_number: r.tracking_number, tracking_company: r.tracking_company, label_url: r.label_url };
}

export function requestEntry(rr: RequestRow, items: Map<string, ItemInfo>) {
  const ret = rr.return;
  const quantities = new Map((ret?.line_items ?? []).map((li) => [li.order_item_id, li.quantity]));
  return {
    id: rr.id,
    kind: "request" as const,
    order: rr.order,
    status: rr.status,
    return_status: ret?.status ?? null,
    reason: rr.reason,
    note: rr.note,
    items: rr.order_item_ids
      .map((id) => items.get(id))
      .filter((i): i is ItemInfo => !!i)
      .map((i) => ({ order_item_id: i.id, title: i.title, variant_title: i.variant_title, image_url: i.image_url, quantity: quantities.get(i.id) ?? i.quantity })),
    tracking: returnTracking(ret),
    refund: ret?.refund_amount ? { amount: ret.refund_amount.toFixed(2), currencyCode: ret.currencyCode } : null,
    created_at: rr.created_at,
    updated_at: ret && ret.updated_at > rr.updated_at ? ret.updated_at : rr.updated_at,
    timeline: buildReturnTimeline({ request: rr, ret }),
  };
}

function bareReturnEntry(r: BareReturnRow, items: Map<string, ItemInfo>) {
  return {
    id: r.id,
    kind: "return" as const,
    order: r.order,
    status: null,
    return_status: r.status,
    reason: r.reason,
    note: r.reason_note,
    items: r.line_items
      .map((li) => ({ li, item: items.get(li.order_item_id) }))
      .filter((x): x is { li: (typeof r.line_items)[number]; item: ItemInfo } => !!x.item)
      .map(({ li, item }) => ({ order_item_id: item.id, title: item.title, variant_title: item.variant_title, image_url: item.image_url, quantity: li.quantity })),
    tracking: returnTracking(r),
    refund: r.refund_amount ? { amount: r.refund_amount.toFixed(2), currencyCode: r.currencyCode } : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
    timeline: buildReturnTimeline({ request: null, ret: r }),
  };
}

export async function itemsById(db: Db, ids: string[]): Promise<Map<string, ItemInfo>> {
  const rows = ids.length ? await db.orderItem.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, title: true, variant_title: true, image_url: true, quantity: true } }) : [];
  return new Map(rows.map((r) => [r.id, r]));
}

export async function initiateMyReturn(ctx: OrdersCtx, user: Caller, rawId: string, body: { order_item_ids: string[]; reason: ReturnReasonValue; note?: string }) {
  const found = await loadOwnedOrder(ctx.db, user, rawId);
  return initiateReturnOnOrder(ctx, found, user.id, body, (tx, ids) =>
    recordOrderEvent(tx, {
      orderId: found.id,
      kind: "return.requested",
      message: `The customer requested a return of ${new Set(body.order_item_ids).size === 1 ? "1 item" : `${new Set(body.order_item_ids).size} items`} (${body.reason})`,
      actor: { kind: "user", userId: user.id, label: user.email ?? "Customer" },
      data: { ...ids, itemIds: [...new Set(body.order_item_ids)], reason: body.reason, note: body.note?.trim() || null },
    }).then(() => undefined),
  );
}

/**
 * A return request for chosen items of `found` (the shopper's own, or an admin's on the customer's
 * behalf: admin orders): the same rules and path. `requesterId` is the user the request belongs to
 * (the shopper). `onRecorded` runs inside the final transaction (the admin's timeline event).
 */
export async function initiateReturnOnOrder(
  ctx: OrdersCtx,
  found: { id: string; items: { id: string }[] },
  requesterId: string | null,
  body: { order_item_ids: string[]; reason: ReturnReasonValue; note?: string; quantities?: { itemId: string; quantity: number }[] },
  onRecorded?: (tx: Prisma.TransactionClient, ids: { requestId: string; returnId: string }) => Promise<void>,
) {
  const user = { id: requesterId };
  const ids = [...new Set(body.order_item_ids)];
  const foreign = ids.filter((id) => !found.items.some((i) => i.id === id));
  if (foreign.length) throw unprocessableError(ITEMS_NOT_IN_ORDER(foreign));
  const note = body.note?.trim() || undefined;
  const reason = body.reason as ReturnReason;
  const quantityOf = (item: { id: string; status: OrderRow["items"][number]["status"]; quantity: number; fulfillments: { quantity: number }[] }) =>
    body.quantities?.find((q) => q.itemId === item.id)?.quantity ?? sentQuantity(item);

  // Check and claim in one step: with the order row locked, read its requests and returns again,
  // check every chosen item, and insert the request (which holds those items). A concurrent request
  // for the same order waits for the lock and then sees this one, so an item is never claimed twice.
  // The store is asked only after the claim (no lock is held across its call); if it refuses, the
  // claim is removed. A cancellation takes the same lock, so cancel and return never both win.
  const { order, chosen, requestId } = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${found.id} FOR UPDATE`;
    const order = await tx.order.findUniqueOrThrow({ where: { id: found.id }, include: orderInclude });
    const held = heldItemIds(order.return_requests, order.returns);
    const facts = cancelFacts(order);
    const chosen = ids.map((id) => order.items.find((i) => i.id === id)).filter((i): i is OrderRow["items"][number] => !!i);
    if (chosen.length !== ids.length) throw unprocessableError(ITEMS_NOT_IN_ORDER(ids.filter((id) => !chosen.some((i) => i.id === id))));
    for (const item of chosen) {
      const rule = returnEligibility(facts, item, held);
      if (!rule.allowed) throw conflictError(`${item.title}${item.variant_title ? ` (${item.variant_title})` : ""}: ${rule.reason}`);
      // Only the units that were sent can come back (all of them unless a quantity is chosen).
      const q = quantityOf(item);
      if (q > sentQuantity(item)) throw unprocessableError(`${item.title}${item.variant_title ? ` (${item.variant_title})` : ""}: quantity ${q} is more than the ${sentQuantity(item)} sent`);
    }
    const rr = await tx.returnRequest.create({
      data: { order_id: order.id, user_id: user.id, status: "REQUESTED", reason, note: note ?? null, order_item_ids: ids },
    });
    return { order, chosen, requestId: rr.id };
  });

  let returnId: string;
  try {
    ({ returnId } = await ctx.commerce.requestReturn(
      order.id,
      chosen.map((i) => ({ orderLineId: i.id, quantity: quantityOf(i), reason: body.reason, note })),
    ));
  } catch (e) {
    await ctx.db.returnRequest.deleteMany({ where: { id: requestId, return_id: null } }).catch((err) => ctx.log.error({ err, requestId }, "could not release a refused return request"));
    storeRefused(e, "the return request");
  }

  // The store's return in our tables (the local adapter wrote it; Shopify answered its GID), and
  // the shopper's return request pointing at it.
  await ctx.db.$transaction(async (tx) => {
    let ret = (await tx.return.findUnique({ where: { id: returnId } })) ?? (await tx.return.findUnique({ where: { shopify_return_id: returnId } }));
    if (!ret) {
      ret = await tx.return.create({
        data: {
          order_id: order.id,
          user_id: user.id,
          shopify_return_id: returnId,
          status: "REQUESTED",
          reason,
          reason_note: note ?? null,
          currencyCode: order.currencyCode,
          line_items: { create: chosen.map((i) => ({ order_item_id: i.id, quantity: quantityOf(i), reason, note: note ?? null })) },
        },
      });
    } else if (ret.user_id !== user.id) {
      ret = await tx.return.update({ where: { id: ret.id }, data: { user_id: user.id } });
    }
    await tx.returnRequest.update({ where: { id: requestId }, data: { return_id: ret.id } });
    if (onRecorded) await onRecorded(tx, { requestId, returnId: ret.id });
  });
  ctx.log.info({ orderId: order.id, userId: user.id, requestId, items: ids.length, reason: body.reason }, "return requested by its shopper");
  const row = await ctx.db.returnRequest.findUniqueOrThrow({ where: { id: requestId }, include: returnEntryInclude });
  return requestEntry(row, await itemsById(ctx.db, row.order_item_ids));
}

/**
 * The caller's returns, newest first: their orders' return requests, and the returns the store
 * made for their orders without a request (both kinds merged on (created_at, id)).
 */
export async function listMyReturns(db: Db, user: Caller, q: { cursor?: string; limit?: number }) {
  const limit = Math.max(1, Math.min(50, q.limit ?? RETURNS_PAGE_SIZE));
  const cursor = decodeNewestFirstCursor(q.cursor);
  const owned = ownedOrdersWhere(user);
  const requests = await db.returnRequest.findMany({
    where: { AND: [{ order: owned }, rowsAfterCursor(cursor)] },
    include: returnEntryInclude,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const bare = await db.return.findMany({
    where: { AND: [{ order: owned }, { request: { is: null } }, rowsAfterCursor(cursor)] },
    include: bareReturnInclude,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const merged = [...requests.map((r) => ({ kind: "request" as const, row: r })), ...bare.map((r) => ({ kind: "return" as const, row: r }))].sort(
    (a, b) => b.row.created_at.getTime() - a.row.created_at.getTime() || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0),
  );
  const page = merged.slice(0, limit);
  const itemIds = page.flatMap((e) => (e.kind === "request" ? e.row.order_item_ids : e.row.line_items.map((li) => li.order_item_id)));
  const items = await itemsById(db, itemIds);
  const last = page[page.length - 1];
  return {
    items: page.map((e) => (e.kind === "request" ? requestEntry(e.row, items) : bareReturnEntry(e.row, items))),
    nextCursor: merged.length > limit && last ? encodeNewestFirstCursor(last.row.created_at, last.row.id) : null,
  };
}
