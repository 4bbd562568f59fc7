/**
 * The shopper's move of the return-request machine: cancelling their own request while the store
 * has not decided (REQUESTED → CANCELED), with its return cancelled at the store (Shopify:
 * returnCancel). Same claim → store → record pattern as the admin's moves (admin-returns.server.ts):
 * a retry or a double submit answers the cancelled entry and records one event; a request the
 * store already approved or declined answers 409. Another shopper's request answers 404.
 */
import type { User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { conflictError, DomainError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { CommerceError } from "~/providers/commerce/port";
import { itemsById, ownedOrdersWhere, requestEntry, returnEntryInclude } from "../account-orders.server";
import { recordOrderEvent, userActor } from "../orders/order-events.server";

export const RETURN_REQUEST_NOT_YOURS = "Return request not found";

type Caller = Pick<User, "id" | "email" | "email_verified_at" | "shopify_customer_id" | "first_name" | "last_name">;
type Ctx = Pick<AppContext, "db" | "commerce" | "log">;

const CANCEL_REFUSAL: Record<string, string> = {
  OPEN: "The store has already approved this return, so it can no longer be cancelled here. Contact the store if you no longer want to return the items.",
  DECLINED: "The store declined this return request",
  CLOSED: "This return is closed",
};

export async function cancelMyReturnRequest(ctx: Ctx, user: Caller, id: string) {
  const answer = async () => {
    const row = await ctx.db.returnRequest.findUniqueOrThrow({ where: { id }, include: returnEntryInclude });
    return requestEntry(row, await itemsById(ctx.db, row.order_item_ids));
  };
  const found = await ctx.db.returnRequest.findFirst({ where: { id, order: ownedOrdersWhere(user) }, include: { return: true } });
  if (!found) throw notFoundError(RETURN_REQUEST_NOT_YOURS);
  if (found.status === "CANCELED") return answer();
  if (found.status !== "REQUESTED") throw conflictError(CANCEL_REFUSAL[found.status] ?? "This return request can no longer be cancelled");

  // 1. claim (the request and its return, which never started)
  const claimed = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.returnRequest.updateMany({ where: { id, status: "REQUESTED" }, data: { status: "CANCELED" } });
    if (moved.count === 0) return false;
    if (found.return_id) await tx.return.updateMany({ where: { id: found.return_id, status: "REQUESTED" }, data: { status: "CANCELED" } });
    return true;
  });
  if (!claimed) {
    const now = await ctx.db.returnRequest.findUniqueOrThrow({ where: { id } });
    if (now.status === "CANCELED") return answer();
    throw conflictError(CANCEL_REFUSAL[now.status] ?? "This return request can no longer be cancelled");
  }
  // 2. the store
  if (found.return) {
    try {
      await ctx.commerce.cancelReturn(found.return.shopify_return_id ?? found.return.id, { notifyCustomer: false });
    } catch (e) {
      await ctx.db.$transaction(async (tx) => {
        await tx.returnRequest.updateMany({ where: { id, status: "CANCELED" }, data: { status: "REQUESTED" } });
        if (found.return_id && found.return?.status === "REQUESTED") await tx.return.updateMany({ where: { id: found.return_id, status: "CANCELED" }, data: { status: "REQUESTED" } });
      });
      if (e instanceof CommerceError) {
        if (e.status === 409) throw conflictError(e.message);
        if (e.status === 429 || e.status === 502) throw new DomainError("unavailable", "The store is not answering right now; the return was not cancelled. Please try again.", { reason: e.message });
        if (e.status !== 404) throw unprocessableError(`The store refused: ${e.message}`, { userErrors: e.userErrors });
        // 404: the store no longer knows the return; nothing left to cancel there.
      } else throw e;
    }
  }
  // 3. the record
  await recordOrderEvent(ctx.db, {
    orderId: found.order_id,
    kind: "return.cancelled_by_customer",
    message: "The customer cancelled their return request",
    actor: userActor(user),
    data: { requestId: id, returnId: found.return_id },
  });
  ctx.log.info({ requestId: id, userId: user.id }, "return request cancelled by its shopper");
  return answer();
}
