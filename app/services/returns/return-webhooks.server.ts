/**
 * Shopify's returns webhooks (returns/request, approve, decline, cancel, close, reopen, process)
 * keep the app's Return and ReturnRequest rows in step with what happened in Shopify: a return the
 * customer requested in Shopify's customer accounts, or a merchant made in the Shopify admin,
 * appears on its order; decisions taken there move the app's two machines.
 *
 * Rules:
 * - Moves go forward only. A move the app's machines do not allow from where the row is (a reopen,
 *   a cancel after the parcel was received, an approval of a declined request…) is logged and
 *   ignored; the webhook is still answered 200, since Shopify would only deliver it again.
 * - The app's own writes come back as webhooks too (the app calls returnApproveRequest, Shopify
 *   reports returns/approve): the row is already there, so nothing is recorded twice.
 * - A return or order the app does not know is ignored.
 * - No email: Shopify notifies the customer of what happened in Shopify, as the merchant chose.
 * Each move is a conditional update on the status it moves from, under the row's lock, with its
 * timeline event in the same transaction (the admin services' pattern).
 */
import { Prisma, type ReturnReason, type ReturnRequestStatus, type ReturnStatus } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { RETURN_REASONS } from "~/contract/account-orders";
import { recordOrderEvent, type OrderEventActor } from "../orders/order-events.server";

type Ctx = Pick<AppContext, "db" | "commerce" | "log">;
type Tx = Prisma.TransactionClient;

/** The topics as the Shopify library names them (x-shopify-topic "returns/request" → RETURNS_REQUEST). */
export const RETURN_WEBHOOK_TOPICS = ["RETURNS_REQUEST", "RETURNS_APPROVE", "RETURNS_DECLINE", "RETURNS_CANCEL", "RETURNS_CLOSE", "RETURNS_REOPEN", "RETURNS_PROCESS"] as const;
export type ReturnWebhookTopic = (typeof RETURN_WEBHOOK_TOPICS)[number];
export const isReturnWebhookTopic = (t: string): t is ReturnWebhookTopic => (RETURN_WEBHOOK_TOPICS as readonly string[]).includes(t);

/** The part of the payload the app reads; everything else comes from the store (getReturn). */
export interface ReturnWebhookPayload {
  id?: number | string | null;
  admin_graphql_api_id?: string | null;
  decline?: { reason?: string | null; note?: string | null } | null;
}

export type ReturnWebhookOutcome =
  | { outcome: "applied"; returnId: string; change: string }
  | { outcome: "unchanged"; returnId: string }
  | { outcome: "refused"; returnId: string; reason: string }
  | { outcome: "ignored"; reason: string };

const SHOPIFY: OrderEventActor = { kind: "system", label: "Shopify" };

export function returnGidOf(p: ReturnWebhookPayload): string | null {
  if (typeof p.admin_graphql_api_id === "string" && p.admin_graphql_api_id.startsWith("gid://shopify/Return/")) return p.admin_graphql_api_id;
  if ((typeof p.id === "number" && Number.isSafeInteger(p.id) && p.id > 0) || (typeof p.id === "string" && /^\d+$/.test(p.id))) return `gid://shopify/Return/${p.id}`;
  return null;
}

const REASONS = new Set<string>(RETURN_REASONS);
function toReason(r: string): ReturnReason {
  const up = r.trim().toUpperCase().replace(/[\s-]+/g, "_");
  return (REASONS.has(up) ? up : "OTHER") as ReturnReason;
}

const plural = (n: number) => (n === 1 ? "1 item" : `${n} items`);

export async function handleReturnWebhook(ctx: Ctx, topic: ReturnWebhookTopic, payload: ReturnWebhookPayload): Promise<ReturnWebhookOutcome> {
  const gid = returnGidOf(payload);
  if (!gid) return { outcome: "ignored", reason: "the payload names no return" };
  const known = await ctx.db.return.findUnique({ where: { shopify_return_id: gid }, select: { id: true } });
  let outcome: ReturnWebhookOutcome;
  if (!known) {
    // A return made in Shopify: requested by the customer, or created (already approved) by the merchant.
    outcome = topic === "RETURNS_REQUEST" || topic === "RETURNS_APPROVE" ? await importReturn(ctx, gid, topic) : { outcome: "ignored", reason: "unknown return" };
  } else if (topic === "RETURNS_REQUEST") {
    outcome = { outcome: "unchanged", returnId: known.id };
  } else {
    let body = payload;
    if (topic === "RETURNS_DECLINE" && !payload.decline?.reason && !payload.decline?.note) {
      // The decline's reason and note from the store when the payload has none (read before the
      // row lock is taken); without them the decline still stands, with a generic reason.
      const snap = await ctx.commerce.getReturn(gid).catch((err: unknown) => void ctx.log.warn({ err, shopifyReturnId: gid }, "returns webhook: could not read the decline"));
      if (snap?.decline) body = { ...payload, decline: snap.decline };
    }
    outcome = await ctx.db.$transaction((tx) => move(tx, known.id, topic, body));
  }
  if (outcome.outcome === "refused") ctx.log.warn({ topic, shopifyReturnId: gid, ...outcome }, "returns webhook: a move the app's machines do not allow; ignored");
  else ctx.log.info({ topic, shopifyReturnId: gid, ...outcome }, "returns webhook handled");
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// A return the app does not know yet

async function importReturn(ctx: Ctx, gid: string, topic: "RETURNS_REQUEST" | "RETURNS_APPROVE"): Promise<ReturnWebhookOutcome> {
  const snap = await ctx.commerce.getReturn(gid);
  if (!snap) return { outcome: "ignored", reason: "the store has no such return" };
  if (snap.status !== "REQUESTED" && snap.status !== "OPEN") return { outcome: "ignored", reason: `the return is already ${snap.status.toLowerCase()} in the store` };
  const order = await ctx.db.order.findUnique({ where: { id: snap.orderId }, select: { id: true } });
  if (!order) return { outcome: "ignored", reason: "unknown order" };

  return ctx.db.$transaction(async (tx) => {
    // The order's lock orders this against the shopper's own request of the same items (which
    // holds it while claiming) and against a second delivery of another topic for the same return.
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${order.id} FOR UPDATE`;
    const current = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { id: true, user_id: true, currencyCode: true, items: { select: { id: true } } } });
    const existing = await tx.return.findUnique({ where: { shopify_return_id: gid }, select: { id: true } });
    if (existing) return { outcome: "unchanged" as const, returnId: existing.id };
    const itemIds = new Set(current.items.map((i) => i.id));
    const byItem = new Map<string, { quantity: number; reason: ReturnReason; note: string | null }>();
    for (const l of snap.lines) {
      if (!itemIds.has(l.orderLineId)) continue;
      const prev = byItem.get(l.orderLineId);
      byItem.set(l.orderLineId, { quantity: (prev?.quantity ?? 0) + l.quantity, reason: prev?.reason ?? toReason(l.reason), note: prev?.note ?? l.note });
    }
    if (!byItem.size) return { outcome: "ignored" as const, reason: "none of the return's lines are on the order" };
    const first = [...byItem.values()][0];
    const ret = await tx.return.create({
      data: {
        order_id: current.id,
        user_id: current.user_id,
        shopify_return_id: gid,
        status: "REQUESTED",
        reason: first.reason,
        reason_note: first.note,
        currencyCode: current.currencyCode,
        line_items: { create: [...byItem].map(([orderItemId, l]) => ({ order_item_id: orderItemId, quantity: l.quantity, reason: l.reason, note: l.note })) },
      },
    });
    const ids = [...byItem.keys()];

    if (topic === "RETURNS_APPROVE") {
      // Made in the Shopify admin (approved from the start): a return without a request, ready for its label.
      await recordOrderEvent(tx, {
        orderId: current.id,
        kind: "return.created",
        message: `A return of ${plural(ids.length)} was created in Shopify`,
        actor: SHOPIFY,
        data: { returnId: ret.id, shopifyReturnId: gid, itemIds: ids },
      });
      return { outcome: "applied" as const, returnId: ret.id, change: "return created" };
    }

    // The shopper's own request through the app, whose store call has answered but whose rows are
    // not written yet: this is its return, and the app's path links the same request to it.
    const sameItems = (a: string[]) => a.length === ids.length && a.every((id) => byItem.has(id));
    const inFlight = (await tx.returnRequest.findMany({ where: { order_id: current.id, return_id: null, status: "REQUESTED" } })).find((r) => sameItems(r.order_item_ids));
    if (inFlight) {
      await tx.returnRequest.update({ where: { id: inFlight.id }, data: { return_id: ret.id } });
      return { outcome: "applied" as const, returnId: ret.id, change: "linked to the shopper's request" };
    }
    // A request delivered after its approval arrives approved.
    const rr = await tx.returnRequest.create({
      data: { order_id: current.id, user_id: current.user_id, status: snap.status === "OPEN" ? "OPEN" : "REQUESTED", reason: first.reason, note: first.note, order_item_ids: ids, return_id: ret.id },
    });
    await recordOrderEvent(tx, {
      orderId: current.id,
      kind: "return.requested",
      message: `The customer requested a return of ${plural(ids.length)} in Shopify (${first.reason})`,
      actor: SHOPIFY,
      data: { requestId: rr.id, returnId: ret.id, shopifyReturnId: gid, itemIds: ids, reason: first.reason, note: first.note },
    });
    return { outcome: "applied" as const, returnId: ret.id, change: "request created" };
  });
}

// ---------------------------------------------------------------------------------------------
// A known return: the machines' moves

const RECEIVED: ReturnStatus[] = ["DELIVERED", "REFUNDED"];
const ON_ITS_WAY: ReturnStatus[] = ["REQUESTED", "LABEL_SENT", "IN_TRANSIT"];

async function move(tx: Tx, id: string, topic: Exclude<ReturnWebhookTopic, "RETURNS_REQUEST">, payload: ReturnWebhookPayload): Promise<ReturnWebhookOutcome> {
  await tx.$queryRaw`SELECT id FROM returns WHERE id = ${id} FOR UPDATE`;
  const ret = await tx.return.findUniqueOrThrow({ where: { id }, include: { request: true } });
  const req = ret.request;
  const event = (kind: string, message: string, data: Record<string, Prisma.InputJsonValue | null> = {}) =>
    recordOrderEvent(tx, { orderId: ret.order_id, kind, message, actor: SHOPIFY, data: { returnId: ret.id, shopifyReturnId: ret.shopify_return_id, ...data } });
  const unchanged = { outcome: "unchanged" as const, returnId: ret.id };
  const refused = (reason: string) => ({ outcome: "refused" as const, returnId: ret.id, reason });
  const applied = (change: string) => ({ outcome: "applied" as const, returnId: ret.id, change });
  const setRequest = async (from: ReturnRequestStatus, to: ReturnRequestStatus) => (await tx.returnRequest.updateMany({ where: { id: req!.id, status: from }, data: { status: to } })).count === 1;
  const setReturn = async (from: ReturnStatus, to: ReturnStatus) => (await tx.return.updateMany({ where: { id: ret.id, status: from }, data: { status: to } })).count === 1;

  switch (topic) {
    case "RETURNS_APPROVE": {
      if (!req || req.status === "OPEN") return unchanged;
      if (req.status !== "REQUESTED") return refused(`the request is ${req.status}`);
      if (ret.status === "CANCELED") return refused("the return was cancelled");
      await setRequest("REQUESTED", "OPEN");
      await event("return.approved", "Approved the return request in Shopify", { requestId: req.id });
      return applied("request approved");
    }
    case "RETURNS_DECLINE": {
      if (req?.status === "DECLINED") return unchanged;
      if (!req || req.status !== "REQUESTED") return refused(req ? `the request is ${req.status}` : "the return has no request to decline");
      await setRequest("REQUESTED", "DECLINED");
      if (ret.status === "REQUESTED") await setReturn("REQUESTED", "CANCELED");
      const note = payload.decline?.note?.trim() || null;
      const declineReason = payload.decline?.reason?.trim().toUpperCase() || "OTHER";
      // `reason` is what the admin lists show as the decline reason (see declineReasons).
      const reason = note ?? `Declined in Shopify (${declineReason.toLowerCase().replace(/_/g, " ")})`;
      await event("return.declined", `Declined the return request in Shopify: ${reason}`, { requestId: req.id, reason, declineReason });
      return applied("request declined");
    }
    case "RETURNS_CANCEL": {
      if (ret.status === "CANCELED") return unchanged;
      if (!ON_ITS_WAY.includes(ret.status)) return refused(`the return is ${ret.status}`);
      await setReturn(ret.status, "CANCELED");
      if (req?.status === "REQUESTED") await setRequest("REQUESTED", "CANCELED");
      if (req?.status === "OPEN") await setRequest("OPEN", "CLOSED");
      await event("return.status", "Cancelled the return in Shopify", { from: ret.status, to: "CANCELED" });
      return applied("return cancelled");
    }
    case "RETURNS_CLOSE": {
      if (req && req.status !== "OPEN" && req.status !== "CLOSED") return refused(`the request is ${req.status}`);
      const closedRequest = req?.status === "OPEN" ? await setRequest("OPEN", "CLOSED") : false;
      // The app's own refund or cancel closes the return in Shopify too: nothing more to tell.
      if (ret.status === "REFUNDED" || ret.status === "CANCELED") return closedRequest ? applied("request closed") : unchanged;
      if (!closedRequest && req?.status === "CLOSED") return unchanged;
      await event("return.closed", "Closed the return in Shopify", { requestId: req?.id ?? null, status: ret.status });
      return applied("closed in Shopify");
    }
    case "RETURNS_PROCESS": {
      if (RECEIVED.includes(ret.status)) return unchanged;
      if (ret.status === "CANCELED") return refused("the return was cancelled");
      if (req && req.status !== "OPEN") return refused(`the request is ${req.status}`);
      // Processing confirms in Shopify that the items came back: the parcel is here.
      await setReturn(ret.status, "DELIVERED");
      await event("return.status", "Processed the return in Shopify: the items came back", { from: ret.status, to: "DELIVERED" });
      return applied("return delivered");
    }
    case "RETURNS_REOPEN":
      // CLOSED → OPEN is backwards in the app's request machine.
      return refused("a closed return is not reopened in the app");
  }
}
