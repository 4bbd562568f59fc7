/**
 * The merchant's side of returns (issue 16): lists with status counts and search, lookups by
 * tracking number and order, the return request's decision (approve, decline), the return's
 * status machine, confirmation of what came back (restock, notes, order items → returned) and the
 * refund of what was received. The same rows as the shopper's returns (account-orders), so every
 * step shows in their GET /users/returns timeline at once; every step records an OrderEvent on the
 * order's timeline and queues the shopper's email in the same transaction.
 *
 * Writes follow one pattern, safe under retry and double submits:
 * 1. claim: a conditional update on the expected current status (`updateMany … where status = from`);
 *    under PostgreSQL's row lock the second of two simultaneous submits matches nothing, re-reads,
 *    finds the target status and answers the record (200) without recording anything twice;
 * 2. the store's call (Shopify: returnApproveRequest / returnDeclineRequest / returnCancel /
 *    a reverse delivery for the label and tracking / returnProcess and returnClose for the refund;
 *    locally the rows above are the store's record), made outside any transaction;
 *    if the store refuses, the claim is undone and the refusal answered;
 * 3. the record: the event and the email, in one transaction.
 * A process that dies between 1 and 3 leaves the move made without its event and email (logged
 * nowhere); the refund's claim leaves REFUNDED with refund_amount and no refunded_at — visible in
 * the admin detail, and never refunded twice.
 */
import { Prisma, type ReturnRequestStatus, type ReturnStatus, type User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { appBaseUrl } from "~/lib/app-url";
import { decodeNewestFirstCursor, encodeNewestFirstCursor, rowsAfterCursor } from "~/lib/newest-first-cursor";
import { conflictError, DomainError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { CommerceError } from "~/providers/commerce/port";
import { RETURN_REQUEST_STATUSES, RETURN_STATUSES } from "~/contract/account-orders";
import { ADMIN_RETURNS_PAGE_SIZE, RETURN_DECLINE_REASONS } from "~/contract/admin-returns";
import { queueEmail } from "../email.server";
import { recordOrderEvent, userActor } from "../orders/order-events.server";
import { toOrderGid } from "../account-orders.server";
import { allowedRequestMoves, allowedReturnStatuses, returnMoveRefusal, RETURN_RULE_MESSAGES } from "./return-rules";
import { applyReturnReceivedToDailyStats, applyReturnRefundToDailyStats } from "../vendor-stats/daily-stats.server";
import {
  returnApprovedEmail,
  returnCancelledEmail,
  returnDeclinedEmail,
  returnLabelSentEmail,
  returnReceivedEmail,
  returnRefundedEmail,
  type ReturnEmailBase,
} from "./return-emails";

export const RETURN_NOT_FOUND = "Return not found";
export const RETURN_REQUEST_NOT_FOUND = "Return request not found";
export const ORDER_NOT_FOUND = "Order not found";

type Admin = Pick<User, "id" | "email" | "first_name" | "last_name">;
type Ctx = Pick<AppContext, "db" | "commerce" | "queue" | "config" | "log">;
type Tx = Prisma.TransactionClient;

// ---------------------------------------------------------------------------------------------
// Reading

const returnInclude = {
  order: { select: { id: true, name: true, email: true, currencyCode: true } },
  // In the order's item order (line items of one return are created in the same instant).
  line_items: { include: { order_item: true }, orderBy: [{ order_item: { created_at: "asc" } }, { order_item_id: "asc" }] },
  request: true,
} satisfies Prisma.ReturnInclude;
type ReturnRow = Prisma.ReturnGetPayload<{ include: typeof returnInclude }>;

const requestInclude = {
  order: { select: { id: true, name: true, email: true, items: { select: { id: true, title: true, variant_title: true, quantity: true } } } },
  return: { select: { id: true, status: true, line_items: { select: { order_item_id: true, quantity: true } } } },
} satisfies Prisma.ReturnRequestInclude;
type RequestRow = Prisma.ReturnRequestGetPayload<{ include: typeof requestInclude }>;

const money = (v: Prisma.Decimal, currencyCode: string) => ({ amount: v.toFixed(2), currencyCode });

/** What a refund pays: the received items' prices × quantities (only what came back). */
function receivedValue(ret: ReturnRow): Prisma.Decimal | null {
  let total: Prisma.Decimal | null = null;
  for (const li of ret.line_items) {
    if (!li.received) continue;
    const v = li.order_item.price.mul(li.quantity);
    total = total ? total.add(v) : v;
  }
  return total;
}

/** Decline reasons live on the request's timeline event (kind return.declined, data.requestId). */
async function declineReasons(db: Db | Tx, orderIds: string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const events = await db.orderEvent.findMany({ where: { order_id: { in: [...new Set(orderIds)] }, kind: "return.declined" }, select: { data: true } });
  const out = new Map<string, string>();
  for (const e of events) {
    const d = e.data as { requestId?: unknown; reason?: unknown } | null;
    if (d && typeof d.requestId === "string" && typeof d.reason === "string") out.set(d.requestId, d.reason);
  }
  return out;
}

function toAdminReturn(r: ReturnRow, declined: Map<string, string>) {
  const currency = r.currencyCode || r.order.currencyCode;
  const refundable = receivedValue(r) ?? new Prisma.Decimal(0);
  const req = r.request;
  return {
    id: r.id,
    shopify_return_id: r.shopify_return_id,
    order: { id: r.order.id, name: r.order.name, email: r.order.email },
    user_id: r.user_id,
    status: r.status,
    reason: r.reason,
    reason_note: r.reason_note,
    tracking_number: r.tracking_number,
    tracking_company: r.tracking_company,
    label_url: r.label_url,
    note_text: r.note_text,
    refund: r.refund_amount ? money(r.refund_amount, currency) : null,
    refundable: money(refundable, currency),
    received_at: r.received_at,
    refunded_at: r.refunded_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    line_items: r.line_items.map((li) => ({
      id: li.id,
      order_item_id: li.order_item_id,
      title: li.order_item.title,
      variant_title: li.order_item.variant_title,
      sku: li.order_item.sku,
      image_url: li.order_item.image_url,
      price: money(li.order_item.price, li.order_item.currencyCode),
      quantity: li.quantity,
      reason: li.reason,
      received: li.received,
      note: li.note,
      order_item_status: li.order_item.status,
    })),
    request: req
      ? {
          id: req.id,
          user_id: req.user_id,
          status: req.status,
          reason: req.reason,
          note: req.note,
          decline_reason: declined.get(req.id) ?? null,
          allowed_moves: allowedRequestMoves(req.status),
          created_at: req.created_at,
          updated_at: req.updated_at,
        }
      : null,
    allowed_statuses: allowedReturnStatuses(r.status, req?.status ?? null),
  };
}

function toAdminRequest(rr: RequestRow, declined: Map<string, string>) {
  const quantities = new Map((rr.return?.line_items ?? []).map((li) => [li.order_item_id, li.quantity]));
  return {
    id: rr.id,
    order: { id: rr.order.id, name: rr.order.name, email: rr.order.email },
    user_id: rr.user_id,
    status: rr.status,
    reason: rr.reason,
    note: rr.note,
    decline_reason: declined.get(rr.id) ?? null,
    items: rr.order_item_ids
      .map((id) => rr.order.items.find((i) => i.id === id))
      .filter((i): i is RequestRow["order"]["items"][number] => !!i)
      .map((i) => ({ order_item_id: i.id, title: i.title, variant_title: i.variant_title, quantity: quantities.get(i.id) ?? i.quantity })),
    return_id: rr.return?.id ?? null,
    return_status: rr.return?.status ?? null,
    allowed_moves: allowedRequestMoves(rr.status),
    created_at: rr.created_at,
    updated_at: rr.updated_at,
  };
}

async function detailOf(db: Db, r: ReturnRow) {
  const [declined, orderItems] = await Promise.all([
    declineReasons(db, [r.order_id]),
    db.orderItem.findMany({ where: { order_id: r.order_id }, orderBy: [{ created_at: "asc" }, { id: "asc" }] }),
  ]);
  return {
    ...toAdminReturn(r, declined),
    order_items: orderItems.map((i) => ({ id: i.id, title: i.title, variant_title: i.variant_title, sku: i.sku, quantity: i.quantity, price: money(i.price, i.currencyCode), status: i.status })),
  };
}

async function findReturn(db: Db | Tx, id: string): Promise<ReturnRow | null> {
  return (await db.return.findUnique({ where: { id }, include: returnInclude })) ?? (await db.return.findUnique({ where: { shopify_return_id: id }, include: returnInclude }));
}
async function mustFindReturn(db: Db | Tx, id: string): Promise<ReturnRow> {
  const r = await findReturn(db, id);
  if (!r) throw notFoundError(RETURN_NOT_FOUND);
  return r;
}
async function mustFindRequest(db: Db | Tx, id: string): Promise<RequestRow> {
  const r = await db.returnRequest.findUnique({ where: { id }, include: requestInclude });
  if (!r) throw notFoundError(RETURN_REQUEST_NOT_FOUND);
  return r;
}


function searchWhere(q: string | undefined): Prisma.ReturnWhereInput {
  const term = q?.trim();
  if (!term) return {};
  const contains = { contains: term, mode: "insensitive" as const };
  return {
    OR: [
      { order: { name: contains } },
      { order: { email: contains } },
      { tracking_number: contains },
      { line_items: { some: { order_item: { title: contains } } } },
    ],
  };
}

function countsOf<S extends string>(all: readonly S[], groups: { status: S; _count: { _all: number } }[]): Record<string, number> {
  const counts: Record<string, number> = { ALL: 0 };
  for (const s of all) counts[s] = 0;
  for (const g of groups) {
    counts[g.status] = g._count._all;
    counts.ALL += g._count._all;
  }
  return counts;
}

export async function listAdminReturns(db: Db, q: { status?: ReturnStatus; q?: string; cursor?: string; limit?: number }) {
  const limit = Math.max(1, Math.min(100, q.limit ?? ADMIN_RETURNS_PAGE_SIZE));
  const cursor = decodeNewestFirstCursor(q.cursor);
  const search = searchWhere(q.q);
  const [rows, groups] = await Promise.all([
    db.return.findMany({
      where: { AND: [search, q.status ? { status: q.status } : {}, rowsAfterCursor(cursor)] },
      include: returnInclude,
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      take: limit + 1,
    }),
    db.return.groupBy({ by: ["status"], where: search, _count: { _all: true } }),
  ]);
  const page = rows.slice(0, limit);
  const declined = await declineReasons(db, page.map((r) => r.order_id));
  const last = page[page.length - 1];
  return {
    items: page.map((r) => toAdminReturn(r, declined)),
    counts: countsOf(RETURN_STATUSES, groups),
    nextCursor: rows.length > limit && last ? encodeNewestFirstCursor(last.created_at, last.id) : null,
  };
}

export async function adminReturnsByTracking(db: Db, trackingNumber: string) {
  const rows = await db.return.findMany({
    where: { tracking_number: { equals: trackingNumber.trim(), mode: "insensitive" } },
    include: returnInclude,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: 100,
  });
  const declined = await declineReasons(db, rows.map((r) => r.order_id));
  return { items: rows.map((r) => toAdminReturn(r, declined)) };
}

export async function adminReturnsByOrder(db: Db, rawOrderId: string) {
  const order = await db.order.findUnique({ where: { id: toOrderGid(rawOrderId) }, select: { id: true } });
  if (!order) throw notFoundError(ORDER_NOT_FOUND);
  const rows = await db.return.findMany({ where: { order_id: order.id }, include: returnInclude, orderBy: [{ created_at: "desc" }, { id: "desc" }] });
  const declined = await declineReasons(db, [order.id]);
  return { items: rows.map((r) => toAdminReturn(r, declined)) };
}

export async function getAdminReturn(db: Db, id: string) {
  return detailOf(db, await mustFindReturn(db, id));
}

export async function adminReturnLineItems(db: Db, id: string) {
  const r = await mustFindReturn(db, id);
  return { items: toAdminReturn(r, new Map()).line_items };
}

export async function listAdminReturnRequests(db: Db, q: { status?: (typeof RETURN_REQUEST_STATUSES)[number]; cursor?: string; limit?: number }) {
  const limit = Math.max(1, Math.min(100, q.limit ?? ADMIN_RETURNS_PAGE_SIZE));
  const cursor = decodeNewestFirstCursor(q.cursor);
  const [rows, groups] = await Promise.all([
    db.returnRequest.findMany({
      where: { AND: [q.status ? { status: q.status } : {}, rowsAfterCursor(cursor)] },
      include: requestInclude,
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      take: limit + 1,
    }),
    db.returnRequest.groupBy({ by: ["status"], _count: { _all: true } }),
  ]);
  const page = rows.slice(0, limit);
  const declined = await declineReasons(db, page.map((r) => r.order_id));
  const last = page[page.length - 1];
  return {
    items: page.map((r) => toAdminRequest(r, declined)),
    counts: countsOf(RETURN_REQUEST_STATUSES, groups),
    nextCursor: rows.length > limit && last ? encodeNewestFirstCursor(last.created_at, last.id) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Writing: helpers

/** A refusal of the store as an API error (its message is meant for people). */
function storeRefused(e: unknown, what: string): never {
  if (e instanceof DomainError) throw e;
  if (e instanceof CommerceError) {
    if (e.status === 404) throw notFoundError(RETURN_NOT_FOUND);
    if (e.status === 409) throw conflictError(e.message);
    if (e.status === 429 || e.status === 502) throw new DomainError("unavailable", `The store is not answering right now; ${what} was not done. Please try again.`, { reason: e.message });
    throw unprocessableError(`The store refused: ${e.message}`, { userErrors: e.userErrors });
  }
  throw e;
}

/** The store's id of a return (Shopify's GID when it has one, else ours: the local store's). */
const storeReturnId = (r: { id: string; shopify_return_id: string | null }) => r.shopify_return_id ?? r.id;

function shopperLink(ctx: Ctx) {
  return `${appBaseUrl(ctx.config)}/account/returns`;
}

/** Where the shopper's emails go: the order's email, else their account's. */
async function shopperEmail(tx: Tx, r: { order: { email: string | null }; user_id: string | null }): Promise<string | null> {
  if (r.order.email) return r.order.email;
  if (!r.user_id) return null;
  return (await tx.user.findUnique({ where: { id: r.user_id }, select: { email: true } }))?.email ?? null;
}

function emailBase(ctx: Ctx, to: string, r: ReturnRow, only?: (li: ReturnRow["line_items"][number]) => boolean): ReturnEmailBase {
  return {
    to,
    orderName: r.order.name,
    link: shopperLink(ctx),
    items: r.line_items.filter((li) => (only ? only(li) : true)).map((li) => ({ title: li.order_item.title, variantTitle: li.order_item.variant_title, quantity: li.quantity })),
  };
}

/** Sends a return email to the shopper, if there is an address (the step stands either way). */
async function emailShopper(ctx: Ctx, tx: Tx, r: ReturnRow, build: (to: string) => Parameters<typeof queueEmail>[1]) {
  const to = await shopperEmail(tx, r);
  if (to) await queueEmail(ctx, build(to), tx);
}

/** Returns the row again after a claim that matched nothing: the target status (someone else made this move: answer it) or a conflict. */
function raceOutcome(current: ReturnStatus, target: ReturnStatus, requestStatus: ReturnRequestStatus | null): "already" {
  if (current === target) return "already";
  throw conflictError(returnMoveRefusal(current, target, requestStatus) ?? `This return is now ${current}; reload it and try again`);
}

// ---------------------------------------------------------------------------------------------
// The return request: approve, decline

/** Makes sure an approved request has its return (the shopper's request normally created it with the store). */
async function ensureReturnFor(tx: Tx, rr: RequestRow): Promise<string> {
  if (rr.return) return rr.return.id;
  const items = await tx.orderItem.findMany({ where: { id: { in: rr.order_item_ids }, order_id: rr.order_id } });
  const order = await tx.order.findUniqueOrThrow({ where: { id: rr.order_id }, select: { currencyCode: true } });
  const ret = await tx.return.create({
    data: {
      order_id: rr.order_id,
      user_id: rr.user_id,
      status: "REQUESTED",
      reason: rr.reason,
      reason_note: rr.note,
      currencyCode: order.currencyCode,
      line_items: { create: items.map((i) => ({ order_item_id: i.id, quantity: i.quantity, reason: rr.reason, note: rr.note })) },
    },
  });
  await tx.returnRequest.update({ where: { id: rr.id }, data: { return_id: ret.id } });
  return ret.id;
}

async function requestAnswer(db: Db, id: string) {
  const rr = await mustFindRequest(db, id);
  return toAdminRequest(rr, await declineReasons(db, [rr.order_id]));
}

const requestRefusal = (status: string, verb: string) => `This return request is ${status.toLowerCase()}: only a requested return can be ${verb}`;

export async function approveReturnRequest(ctx: Ctx, admin: Admin, id: string) {
  const found = await mustFindRequest(ctx.db, id);
  if (found.status === "OPEN") return toAdminRequest(found, new Map());
  if (found.status !== "REQUESTED") throw conflictError(requestRefusal(found.status, "approved"));

  // 1. claim (and the return, should the request have none)
  const claimed = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.returnRequest.updateMany({ where: { id, status: "REQUESTED" }, data: { status: "OPEN" } });
    if (moved.count === 0) return null;
    const rr = await tx.returnRequest.findUniqueOrThrow({ where: { id }, include: requestInclude });
    return { returnId: await ensureReturnFor(tx, rr) };
  });
  if (!claimed) {
    const now = await mustFindRequest(ctx.db, id);
    if (now.status === "OPEN") return requestAnswer(ctx.db, id);
    throw conflictError(requestRefusal(now.status, "approved"));
  }
  // 2. the store (our own email tells the shopper what to do next)
  const ret = await mustFindReturn(ctx.db, claimed.returnId);
  try {
    await ctx.commerce.approveReturn(storeReturnId(ret), { notifyCustomer: false });
  } catch (e) {
    await ctx.db.returnRequest.updateMany({ where: { id, status: "OPEN" }, data: { status: "REQUESTED" } });
    storeRefused(e, "the approval");
  }
  // 3. the record
  await ctx.db.$transaction(async (tx) => {
    await recordOrderEvent(tx, {
      orderId: ret.order_id,
      kind: "return.approved",
      message: `Approved the return request (${ret.line_items.length} ${ret.line_items.length === 1 ? "item" : "items"})`,
      actor: userActor(admin),
      data: { requestId: id, returnId: ret.id },
    });
    await emailShopper(ctx, tx, ret, (to) => returnApprovedEmail(emailBase(ctx, to, ret)));
  });
  ctx.log.info({ requestId: id, returnId: ret.id, adminId: admin.id }, "return request approved");
  return requestAnswer(ctx.db, id);
}

export async function declineReturnRequest(ctx: Ctx, admin: Admin, id: string, body: { reason: string; decline_reason?: (typeof RETURN_DECLINE_REASONS)[number] }) {
  const found = await mustFindRequest(ctx.db, id);
  if (found.status === "DECLINED") return requestAnswer(ctx.db, id);
  if (found.status !== "REQUESTED") throw conflictError(requestRefusal(found.status, "declined"));
  const reason = body.reason.trim();

  // 1. claim: the request is declined and its return cancelled with it (it never started).
  const claimed = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.returnRequest.updateMany({ where: { id, status: "REQUESTED" }, data: { status: "DECLINED" } });
    if (moved.count === 0) return null;
    const rr = await tx.returnRequest.findUniqueOrThrow({ where: { id }, select: { return_id: true } });
    let returnFrom: ReturnStatus | null = null;
    if (rr.return_id) {
      const ret = await tx.return.findUniqueOrThrow({ where: { id: rr.return_id }, select: { status: true } });
      returnFrom = ret.status;
      if (ret.status === "REQUESTED") await tx.return.update({ where: { id: rr.return_id }, data: { status: "CANCELED" } });
    }
    return { returnId: rr.return_id, returnFrom };
  });
  if (!claimed) {
    const now = await mustFindRequest(ctx.db, id);
    if (now.status === "DECLINED") return requestAnswer(ctx.db, id);
    throw conflictError(requestRefusal(now.status, "declined"));
  }
  // 2. the store
  const ret = claimed.returnId ? await mustFindReturn(ctx.db, claimed.returnId) : null;
  if (ret) {
    try {
      await ctx.commerce.declineReturn(storeReturnId(ret), { reason: body.decline_reason ?? "OTHER", note: reason, notifyCustomer: false });
    } catch (e) {
      await ctx.db.$transaction(async (tx) => {
        await tx.returnRequest.updateMany({ where: { id, status: "DECLINED" }, data: { status: "REQUESTED" } });
        if (claimed.returnFrom === "REQUESTED") await tx.return.updateMany({ where: { id: ret.id, status: "CANCELED" }, data: { status: "REQUESTED" } });
      });
      storeRefused(e, "the decline");
    }
  }
  // 3. the record
  await ctx.db.$transaction(async (tx) => {
    await recordOrderEvent(tx, {
      orderId: found.order_id,
      kind: "return.declined",
      message: `Declined the return request: ${reason}`,
      actor: userActor(admin),
      data: { requestId: id, returnId: ret?.id ?? null, reason, declineReason: body.decline_reason ?? "OTHER" },
    });
    const to = found.order.email ?? (found.user_id ? ((await tx.user.findUnique({ where: { id: found.user_id }, select: { email: true } }))?.email ?? null) : null);
    if (to) {
      const items = toAdminRequest(found, new Map()).items.map((i) => ({ title: i.title, variantTitle: i.variant_title, quantity: i.quantity }));
      await queueEmail(ctx, returnDeclinedEmail({ to, orderName: found.order.name, items, link: shopperLink(ctx), reason }), tx);
    }
  });
  ctx.log.info({ requestId: id, adminId: admin.id }, "return request declined");
  return requestAnswer(ctx.db, id);
}

// ---------------------------------------------------------------------------------------------
// The return's status

/** The request follows its return: OPEN → CLOSED once the return is refunded or cancelled. */
async function closeRequestOf(tx: Tx, returnId: string) {
  await tx.returnRequest.updateMany({ where: { return_id: returnId, status: "OPEN" }, data: { status: "CLOSED" } });
}

export async function changeReturnStatus(
  ctx: Ctx,
  admin: Admin,
  id: string,
  body: { status: ReturnStatus; trackingNumber?: string; trackingCompany?: string; labelUrl?: string },
) {
  const ret = await mustFindReturn(ctx.db, id);
  const to = body.status;
  const from = ret.status;
  const requestStatus = ret.request?.status ?? null;
  const tracking = {
    ...(body.trackingNumber !== undefined ? { tracking_number: body.trackingNumber } : {}),
    ...(body.trackingCompany !== undefined ? { tracking_company: body.trackingCompany } : {}),
    ...(body.labelUrl !== undefined ? { label_url: body.labelUrl } : {}),
  };

  if (from === to) {
    // Already there: the same call again answers the record. New tracking details on a label
    // already sent are a correction: kept, and on the timeline (no second email).
    const changed = Object.entries(tracking).some(([k, v]) => ret[k as keyof typeof tracking] !== v);
    if (changed && (to === "LABEL_SENT" || to === "IN_TRANSIT")) {
      // The store hears of the correction first (Shopify: the reverse delivery's label and
      // tracking); if it refuses, nothing is kept.
      const labelChanged = tracking.label_url !== undefined && tracking.label_url !== ret.label_url;
      const numberChanged = !!tracking.tracking_number && tracking.tracking_number !== ret.tracking_number;
      try {
        if (labelChanged) await ctx.commerce.sendReturnLabel(storeReturnId(ret), { trackingNumber: tracking.tracking_number ?? ret.tracking_number, labelUrl: tracking.label_url, notifyCustomer: false });
        else if (numberChanged) await ctx.commerce.updateReturnTracking(storeReturnId(ret), { trackingNumber: tracking.tracking_number!, notifyCustomer: false });
      } catch (e) {
        storeRefused(e, "the tracking update");
      }
      await ctx.db.$transaction(async (tx) => {
        await tx.return.update({ where: { id: ret.id }, data: tracking });
        await recordOrderEvent(tx, { orderId: ret.order_id, kind: "return.tracking", message: "Updated the return's tracking details", actor: userActor(admin), data: { returnId: ret.id, ...tracking } });
      });
    }
    return getAdminReturn(ctx.db, ret.id);
  }
  const refusal = returnMoveRefusal(from, to, requestStatus);
  if (refusal) throw conflictError(refusal);
  if (to === "LABEL_SENT" && !(tracking.label_url ?? ret.label_url) && !(tracking.tracking_number ?? ret.tracking_number)) throw unprocessableError(RETURN_RULE_MESSAGES.LABEL_NEEDS_TRACKING);

  const data: Prisma.ReturnUpdateManyMutationInput = { status: to, ...tracking };
  const record = async (tx: Tx) => {
    const after = await mustFindReturn(tx, ret.id);
    if (to === "CANCELED") await closeRequestOf(tx, ret.id);
    await recordOrderEvent(tx, {
      orderId: ret.order_id,
      kind: "return.status",
      message: STATUS_MESSAGES[to],
      actor: userActor(admin),
      data: { returnId: ret.id, from, to, ...tracking },
    });
    if (to === "LABEL_SENT") {
      await emailShopper(ctx, tx, after, (addr) =>
        returnLabelSentEmail({ ...emailBase(ctx, addr, after), labelUrl: after.label_url, trackingNumber: after.tracking_number, trackingCompany: after.tracking_company }),
      );
    }
    if (to === "CANCELED") await emailShopper(ctx, tx, after, (addr) => returnCancelledEmail(emailBase(ctx, addr, after)));
  };

  // The store hears of a cancel (returnCancel), of the label (a reverse delivery with the label
  // and tracking) and of a tracking number first given or changed on the way back (the reverse
  // delivery's tracking). Shopify's return has no "in transit" or "delivered" state of its own:
  // IN_TRANSIT without new tracking stays ours, and DELIVERED tells the store nothing until the
  // confirmation says what came back (receiveReturnItems disposes it there).
  const newTracking = to === "IN_TRANSIT" && !!tracking.tracking_number && tracking.tracking_number !== ret.tracking_number;
  const storeCall =
    to === "CANCELED"
      ? () => ctx.commerce.cancelReturn(storeReturnId(ret), { notifyCustomer: false })
      : to === "LABEL_SENT"
        ? () => ctx.commerce.sendReturnLabel(storeReturnId(ret), { trackingNumber: tracking.tracking_number ?? ret.tracking_number, labelUrl: tracking.label_url ?? ret.label_url, notifyCustomer: false })
        : newTracking
          ? () => ctx.commerce.updateReturnTracking(storeReturnId(ret), { trackingNumber: tracking.tracking_number!, notifyCustomer: false })
          : null;

  if (!storeCall) {
    // Claim and record together.
    const moved = await ctx.db.$transaction(async (tx) => {
      const m = await tx.return.updateMany({ where: { id: ret.id, status: from }, data });
      if (m.count === 0) return false;
      await record(tx);
      return true;
    });
    if (!moved) raceOutcome((await mustFindReturn(ctx.db, ret.id)).status, to, requestStatus);
    ctx.log.info({ returnId: ret.id, from, to, adminId: admin.id }, "return status changed");
    return getAdminReturn(ctx.db, ret.id);
  }

  // Claim, then the store, then the record; a refusal puts the return back as it was.
  const m = await ctx.db.return.updateMany({ where: { id: ret.id, status: from }, data });
  if (m.count === 0) {
    raceOutcome((await mustFindReturn(ctx.db, ret.id)).status, to, requestStatus);
    return getAdminReturn(ctx.db, ret.id);
  }
  try {
    await storeCall();
  } catch (e) {
    await ctx.db.return.updateMany({
      where: { id: ret.id, status: to },
      data: { status: from, tracking_number: ret.tracking_number, tracking_company: ret.tracking_company, label_url: ret.label_url },
    });
    storeRefused(e, to === "CANCELED" ? "the cancellation" : to === "LABEL_SENT" ? "sending the label" : "the tracking update");
  }
  await ctx.db.$transaction(record);
  ctx.log.info({ returnId: ret.id, from, to, adminId: admin.id }, "return status changed");
  return getAdminReturn(ctx.db, ret.id);
}

const STATUS_MESSAGES: Record<ReturnStatus, string> = {
  REQUESTED: "Return requested",
  LABEL_SENT: "Sent the return label",
  IN_TRANSIT: "Marked the return as on its way back",
  DELIVERED: "Marked the return as delivered to the store",
  REFUNDED: "Refunded the return",
  CANCELED: "Cancelled the return",
};

// ---------------------------------------------------------------------------------------------
// Confirm what came back

export async function confirmReturn(ctx: Ctx, admin: Admin, id: string, body: { received_item_ids: string[]; note_text?: string; item_notes?: Record<string, string> }) {
  const ret = await mustFindReturn(ctx.db, id);
  // Ids may name the return's line items or their order items.
  const lineOf = (key: string) => ret.line_items.find((li) => li.id === key || li.order_item_id === key);
  const unknown = [...body.received_item_ids, ...Object.keys(body.item_notes ?? {})].filter((k) => !lineOf(k));
  if (unknown.length) throw unprocessableError(`${unknown.length === 1 ? "Item" : "Items"} ${[...new Set(unknown)].join(", ")} ${unknown.length === 1 ? "is" : "are"} not part of this return`);
  const received = new Set(body.received_item_ids.map((k) => lineOf(k)!.id));
  const notes = new Map<string, string>();
  for (const [k, v] of Object.entries(body.item_notes ?? {})) notes.set(lineOf(k)!.id, v.trim());
  const noteText = body.note_text?.trim() || null;

  const sameAsConfirmed = (r: ReturnRow) => r.line_items.every((li) => li.received === received.has(li.id));
  const check = (r: ReturnRow): "confirm" | "already" => {
    if (r.received_at) {
      if (sameAsConfirmed(r)) return "already";
      throw conflictError(RETURN_RULE_MESSAGES.CONFIRMED_ALREADY);
    }
    if (r.status === "REFUNDED") throw conflictError(RETURN_RULE_MESSAGES.REFUNDED);
    if (r.status === "CANCELED") throw conflictError(RETURN_RULE_MESSAGES.CANCELED);
    if (r.status !== "IN_TRANSIT" && r.status !== "DELIVERED") throw conflictError(RETURN_RULE_MESSAGES.CONFIRM_TOO_EARLY);
    return "confirm";
  };
  if (check(ret) === "already") return getAdminReturn(ctx.db, ret.id);

  // Under the return's row lock: a second confirmation waits, then finds it confirmed.
  const done = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM returns WHERE id = ${ret.id} FOR UPDATE`;
    const cur = await mustFindReturn(tx, ret.id);
    if (check(cur) === "already") return null;
    const now = new Date();
    for (const li of cur.line_items) {
      await tx.returnLineItem.update({ where: { id: li.id }, data: { received: received.has(li.id), ...(notes.has(li.id) ? { note: notes.get(li.id) || null } : {}) } });
    }
    const receivedItems = cur.line_items.filter((li) => received.has(li.id));
    // A line is returned once all its units came back; part of a line keeps its status (the return's
    // line says how many came back, and the refund counts those).
    const wholeLines = receivedItems.filter((li) => li.quantity >= li.order_item.quantity);
    if (wholeLines.length) await tx.orderItem.updateMany({ where: { id: { in: wholeLines.map((li) => li.order_item_id) } }, data: { status: "returned" } });
    await tx.return.update({ where: { id: cur.id }, data: { status: "DELIVERED", received_at: now, note_text: noteText } });
    await applyReturnReceivedToDailyStats(tx, cur.id); // vendor stats: the received units, once (the claim above)
    const after = await mustFindReturn(tx, cur.id);
    const missing = after.line_items.filter((li) => !li.received);
    await recordOrderEvent(tx, {
      orderId: cur.order_id,
      kind: "return.received",
      message: `Confirmed the return: ${receivedItems.length} of ${cur.line_items.length} ${cur.line_items.length === 1 ? "item" : "items"} received${noteText ? ` — ${noteText}` : ""}`,
      actor: userActor(admin),
      data: {
        returnId: cur.id,
        from: cur.status,
        received: receivedItems.map((li) => li.order_item_id),
        missing: missing.map((li) => li.order_item_id),
        notes: Object.fromEntries([...notes].map(([lineId, n]) => [after.line_items.find((li) => li.id === lineId)!.order_item_id, n])),
      },
    });
    await emailShopper(ctx, tx, after, (to) =>
      returnReceivedEmail({
        ...emailBase(ctx, to, after, (li) => li.received),
        missing: missing.map((li) => ({ title: li.order_item.title, variantTitle: li.order_item.variant_title, quantity: li.quantity })),
      }),
    );
    return cur.line_items.map((li) => ({ orderLineId: li.order_item_id, quantity: li.quantity, received: received.has(li.id) }));
  });
  if (done) await restock(ctx, ret, done);
  ctx.log.info({ returnId: ret.id, received: received.size, adminId: admin.id }, "return confirmed");
  return getAdminReturn(ctx.db, ret.id);
}

/**
 * Tells the store what came back (commerce port receiveReturnItems): the received lines go back on
 * sale (locally the variants' stock; Shopify disposes them RESTOCKED, the rest MISSING, and its
 * inventory webhook brings the stock back here); the port the app wires triggers the back-in-stock
 * check. Runs once per confirmation (after its claim); a store that refuses leaves the confirmation
 * standing and is logged for a manual restock.
 */
async function restock(ctx: Ctx, ret: { id: string; shopify_return_id: string | null }, lines: { orderLineId: string; quantity: number; received: boolean }[]) {
  try {
    await ctx.commerce.receiveReturnItems(storeReturnId(ret), { lines });
  } catch (err) {
    ctx.log.error({ err, returnId: ret.id }, "could not restock a confirmed return; restock it by hand");
  }
}

// ---------------------------------------------------------------------------------------------
// Refund

export async function refundReturn(ctx: Ctx, admin: Admin, id: string, body: { amount?: string; notify?: boolean }) {
  const ret = await mustFindReturn(ctx.db, id);
  if (ret.status === "REFUNDED") return getAdminReturn(ctx.db, ret.id);
  if (ret.status === "CANCELED") throw conflictError(RETURN_RULE_MESSAGES.CANCELED);
  if (ret.status !== "DELIVERED" || !ret.received_at) throw conflictError(RETURN_RULE_MESSAGES.REFUND_NOT_CONFIRMED);
  const value = receivedValue(ret);
  if (!value || value.lte(0)) throw conflictError(RETURN_RULE_MESSAGES.NOTHING_RECEIVED);
  const amount = body.amount !== undefined ? new Prisma.Decimal(body.amount) : value;
  if (amount.gt(value)) throw unprocessableError(`The refund cannot be more than the received items are worth (${value.toFixed(2)} ${ret.currencyCode})`);
  const notify = body.notify ?? true;

  // 1. claim: DELIVERED → REFUNDED with the amount; refunded_at stays empty until the store refunded.
  const m = await ctx.db.return.updateMany({ where: { id: ret.id, status: "DELIVERED", refunded_at: null }, data: { status: "REFUNDED", refund_amount: amount } });
  if (m.count === 0) {
    raceOutcome((await mustFindReturn(ctx.db, ret.id)).status, "REFUNDED", ret.request?.status ?? null);
    return getAdminReturn(ctx.db, ret.id);
  }
  // 2. the store: refund to the original payment, and the return closed there
  const receivedLines = ret.line_items.filter((li) => li.received).map((li) => ({ orderLineId: li.order_item_id, quantity: li.quantity }));
  try {
    await ctx.commerce.refundReturn(storeReturnId(ret), { orderId: ret.order_id, lines: receivedLines, amount: amount.toFixed(2), currencyCode: ret.currencyCode, notifyCustomer: false });
  } catch (e) {
    await ctx.db.return.updateMany({ where: { id: ret.id, status: "REFUNDED", refunded_at: null }, data: { status: "DELIVERED", refund_amount: null } });
    storeRefused(e, "the refund");
  }
  // 3. the record; the request closes with its refunded return.
  await ctx.db.$transaction(async (tx) => {
    await tx.return.update({ where: { id: ret.id }, data: { refunded_at: new Date() } });
    await applyReturnRefundToDailyStats(tx, ret.id); // vendor stats: the refund over the received lines, once
    await closeRequestOf(tx, ret.id);
    await recordOrderEvent(tx, {
      orderId: ret.order_id,
      kind: "return.refunded",
      message: `Refunded ${amount.toFixed(2)} ${ret.currencyCode} for the returned items`,
      actor: userActor(admin),
      data: { returnId: ret.id, amount: amount.toFixed(2), currencyCode: ret.currencyCode, lines: receivedLines, notified: notify },
    });
    if (notify) {
      const after = await mustFindReturn(tx, ret.id);
      await emailShopper(ctx, tx, after, (to) => returnRefundedEmail({ ...emailBase(ctx, to, after, (li) => li.received), amount: amount.toFixed(2), currencyCode: ret.currencyCode }));
    }
  });
  ctx.log.info({ returnId: ret.id, amount: amount.toFixed(2), adminId: admin.id }, "return refunded");
  return getAdminReturn(ctx.db, ret.id);
}
