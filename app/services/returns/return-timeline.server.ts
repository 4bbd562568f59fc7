/**
 * One return's history for the admin return page: the events of its order's timeline that name
 * this return or its request (data.returnId / data.requestId, as the order and return services and
 * the demo write them), oldest first, so the page reads as the return's story.
 */
import type { Db } from "~/db.server";
import { listOrderEvents } from "../orders/order-events.server";

export interface ReturnTimelineEntry {
  id: string;
  kind: string;
  message: string;
  actor: string;
  created_at: string;
}

export async function returnTimeline(db: Db, ret: { orderId: string; returnId: string; requestId: string | null }): Promise<ReturnTimelineEntry[]> {
  // An order has a handful of returns at most; its whole timeline is small (the reader caps it).
  const events = await listOrderEvents(db, ret.orderId);
  return events
    .filter((e) => {
      const d = e.data as { returnId?: unknown; requestId?: unknown } | null;
      return !!d && (d.returnId === ret.returnId || (ret.requestId !== null && d.requestId === ret.requestId));
    })
    .reverse()
    .map((e) => ({ id: e.id, kind: e.kind, message: e.message, actor: e.actor_label, created_at: e.created_at.toISOString() }));
}
