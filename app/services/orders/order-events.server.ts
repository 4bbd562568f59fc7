/**
 * The order's timeline (OrderEvent rows): every admin write, every shopper action on the order and
 * every change the store reports is written here, in the same transaction as the change itself, so
 * the timeline never claims a change that was rolled back (nor misses one that stood).
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";

type Tx = Prisma.TransactionClient | Db;

/** Who did it. A user (admin or shopper) is kept by id and by a label that outlives the account. */
export type OrderEventActor =
  | { kind: "user"; userId: string; label: string }
  | { kind: "system"; label?: string };

export type OrderEventInput = {
  orderId: string;
  /** Dotted, stable kind, e.g. "order.updated", "items.status", "fulfillment.created", "return.status". */
  kind: string;
  /** What a person reads in the timeline ("Marked 2 items as shipped"). */
  message: string;
  actor: OrderEventActor;
  /** Machine-readable details (ids, from/to statuses); JSON only. */
  data?: Prisma.InputJsonValue;
};

/** A user's timeline label: their name, else their email, else "Staff". */
export function actorLabelOf(user: { first_name?: string | null; last_name?: string | null; email?: string | null }, fallback = "Staff"): string {
  const name = [user.first_name, user.last_name].filter((v) => v && v.trim()).join(" ").trim();
  return name || user.email || fallback;
}

/** The actor of an admin action (the acting user). */
export function userActor(user: { id: string; first_name?: string | null; last_name?: string | null; email?: string | null }): OrderEventActor {
  return { kind: "user", userId: user.id, label: actorLabelOf(user) };
}

export async function recordOrderEvent(tx: Tx, input: OrderEventInput): Promise<{ id: string; createdAt: Date }> {
  const row = await tx.orderEvent.create({
    data: {
      order_id: input.orderId,
      kind: input.kind,
      message: input.message,
      actor_user_id: input.actor.kind === "user" ? input.actor.userId : null,
      actor_label: input.actor.kind === "user" ? input.actor.label : (input.actor.label ?? "System"),
      data: input.data ?? {},
    },
    select: { id: true, created_at: true },
  });
  return { id: row.id, createdAt: row.created_at };
}

/** The timeline, newest first (created_at, then id for events of the same millisecond). */
export async function listOrderEvents(db: Tx, orderId: string, limit = 200) {
  return db.orderEvent.findMany({
    where: { order_id: orderId },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: limit,
  });
}
