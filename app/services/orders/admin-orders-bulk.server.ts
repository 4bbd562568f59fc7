/**
 * Bulk item status of the admin orders list (contract: app/contract/admin-orders-bulk.ts). Each
 * order goes through setAdminItemStatus — the service of PATCH /orders/admin/{id}/items/status —
 * so the rules, the order lock, the store call for → fulfilled and the timeline are the single
 * call's. Orders are handled one after another: the store's fulfilments must not race, and the
 * embedded database serves one statement stream at a time.
 */
import { z } from "zod";
import type { User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { DomainError } from "~/lib/domain-errors";
import { ITEM_STATUS_TRANSITIONS } from "~/contract/admin-orders";
import type { BulkItemStatus, BulkItemsStatusResult } from "~/contract/admin-orders-bulk";
import { getAdminOrder, setAdminItemStatus } from "./admin-orders.server";

type Ctx = Pick<AppContext, "db" | "commerce" | "log" | "queue">;
type Admin = Pick<User, "id" | "email" | "first_name" | "last_name">;
type OrderResult = BulkItemsStatusResult["results"][number];
type AdminOrderDetail = Awaited<ReturnType<typeof getAdminOrder>>;
type Item = AdminOrderDetail["items"][number];

const ref = (i: Item) => ({ id: i.id, title: i.title, variant_title: i.variant_title });
const label = (i: Item) => `"${i.title}${i.variant_title ? ` (${i.variant_title})` : ""}"`;

/** Why an item may not move to `target` (the same words as the single call's 409). */
function refusalReason(i: Item, target: BulkItemStatus): string {
  const allowed = ITEM_STATUS_TRANSITIONS[i.status];
  return `${label(i)} cannot move from ${i.status} to ${target}${allowed.length ? ` (from ${i.status}: ${allowed.join(" or ")})` : ` (${i.status} is final)`}`;
}

/** The item ids a timeline event says were moved (items.status: items[].id; fulfillment.created: itemIds). */
const MovedItems = z.union([z.object({ items: z.array(z.object({ id: z.string() })) }).transform((d) => d.items.map((i) => i.id)), z.object({ itemIds: z.array(z.string()) }).transform((d) => d.itemIds)]);

async function markOrder(ctx: Ctx, admin: Admin, rawId: string, target: BulkItemStatus): Promise<OrderResult> {
  let before: AdminOrderDetail;
  try {
    before = await getAdminOrder(ctx.db, rawId);
  } catch (e) {
    return { order_id: rawId, name: null, outcome: "refused", moved: [], already: [], refused: [], error: errorOf(ctx, e, rawId) };
  }
  const movable = before.items.filter((i) => ITEM_STATUS_TRANSITIONS[i.status].includes(target));
  const already = before.items.filter((i) => i.status === target).map(ref);
  const refused = before.items.filter((i) => i.status !== target && !movable.includes(i)).map((i) => ({ ...ref(i), status: i.status, reason: refusalReason(i, target) }));
  const base = { order_id: before.id, name: before.name, already, refused };
  if (!movable.length) {
    const nothing = refused.length && !already.length;
    return {
      ...base,
      outcome: nothing ? "refused" : "unchanged",
      moved: [],
      error: nothing ? { code: "conflict", message: `No item of ${before.name} can move to ${target}` } : null,
    };
  }
  let after: AdminOrderDetail;
  try {
    after = await setAdminItemStatus(ctx, admin, before.id, { itemIds: movable.map((i) => i.id), status: target });
  } catch (e) {
    // The single call refused the order as a whole (the store said no, an item changed meanwhile): nothing of it moved.
    return { ...base, outcome: "refused", moved: [], error: errorOf(ctx, e, before.id) };
  }
  // Moved by this call: what the timeline events it added say — an identical submit of another
  // admin that got there first moved them, and this call then changed nothing (no event). Events
  // are told apart by their admin, so one admin's own double submit may report the move in both answers.
  const seen = new Set(before.timeline.map((e) => e.id));
  const movedIds = new Set(
    after.timeline
      .filter((e) => !seen.has(e.id) && e.actor.user_id === admin.id && (e.kind === "items.status" || e.kind === "fulfillment.created"))
      .flatMap((e) => MovedItems.safeParse(e.data).data ?? []),
  );
  const moved = movable.filter((i) => movedIds.has(i.id)).map((i) => ({ ...ref(i), from: i.status }));
  const alreadyNow = movable.filter((i) => !movedIds.has(i.id) && after.items.find((x) => x.id === i.id)?.status === target).map(ref);
  return { ...base, already: [...already, ...alreadyNow], outcome: moved.length ? "moved" : "unchanged", moved, error: null };
}

/** A refusal as the order's answer; an unexpected failure is logged and answered without its details. */
function errorOf(ctx: Ctx, e: unknown, orderId: string): { code: string; message: string } {
  if (e instanceof DomainError) return { code: e.kind, message: e.message };
  ctx.log.error({ err: e, orderId }, "bulk item status: an order failed");
  return { code: "failed", message: "The items of this order could not be marked: an unexpected error (see the server log)" };
}

export async function bulkSetAdminItemStatus(ctx: Ctx, admin: Admin, body: { orderIds: string[]; status: BulkItemStatus }): Promise<BulkItemsStatusResult> {
  const ids = [...new Set(body.orderIds.map((id) => id.trim()))];
  const results: OrderResult[] = [];
  for (const id of ids) results.push(await markOrder(ctx, admin, id, body.status));
  const count = (o: OrderResult["outcome"]) => results.filter((r) => r.outcome === o).length;
  return { status: body.status, moved: count("moved"), unchanged: count("unchanged"), refused: count("refused"), results };
}
