/**
 * Demo data for the merchant's orders and returns (issue 16): on top of the generated orders
 * (./generate.ts: unfulfilled, fulfilled with tracking, shipped, delivered and cancelled ones over
 * 120 days) and the demo shopper's own (./account-orders.ts), rows so that every tab, filter and
 * chart of the admin screens has something real in the 90 days before BASE_DATE:
 * - partly fulfilled orders (some items sent with tracking, the rest not yet), two of them with a
 *   payment only authorised or pending;
 * - returns on other shoppers' delivered orders in every Return status (REQUESTED, LABEL_SENT,
 *   IN_TRANSIT, DELIVERED, REFUNDED, CANCELED) with their return requests in every status
 *   (REQUESTED, OPEN, CLOSED, DECLINED, CANCELED); a DELIVERED one and a REFUNDED one where only
 *   part of what was announced came back (per-item notes); refunded items are marked `returned`
 *   and their orders partly (or wholly) refunded;
 * - the timeline events of those steps (customer's request, the demo admin's approval, label,
 *   receipt, refund, decline with its reason, withdrawal), with the kinds and data the order and
 *   return services write, so the order pages and the returns list (decline reasons) show them.
 * The demo shopper's orders and returns are left alone (their screens are described by
 * ./account-orders.ts and tested in tests/integration/account-orders-demo.test.ts).
 *
 * Dates are fixed relative to BASE_DATE like everything else in the demo (identical rows on every
 * seed); the first start and `npm run seed` move them all by whole days so the demo ends yesterday
 * (./shift-dates.ts), and the analytics' default ranges show it.
 *
 * `addAdminOrderDemo` changes the generated rows in place (item statuses, financial statuses), so
 * it runs before they are written; it returns the new rows, written after the generated ones.
 */
import type { Prisma } from "@prisma/client";
import { BASE_DATE, DEMO_EMAIL_DOMAIN, type DemoRows } from "./generate";
import { demoUuid, Random } from "./prng";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = BASE_DATE.getTime();
const at = (ms: number) => new Date(Math.floor(Math.min(ms, BASE - 5 * 60_000) / 1000) * 1000);
const dateOf = (v: Date | string | null | undefined) => (v ? new Date(v).getTime() : BASE);
const money = (n: number) => n.toFixed(2);

export interface AdminOrderExtras {
  orders: Prisma.OrderCreateManyInput[];
  orderItems: Prisma.OrderItemCreateManyInput[];
  purchaseEvents: Prisma.ProductPurchaseEventCreateManyInput[];
  returns: Prisma.ReturnCreateManyInput[];
  returnLineItems: Prisma.ReturnLineItemCreateManyInput[];
  returnRequests: Prisma.ReturnRequestCreateManyInput[];
  /** Timeline entries of what the demo admin and the customers did (kinds as the services write them). */
  orderEvents: Prisma.OrderEventCreateManyInput[];
}

type ReturnStatus = "REQUESTED" | "LABEL_SENT" | "IN_TRANSIT" | "DELIVERED" | "REFUNDED" | "CANCELED";
type RequestStatus = "REQUESTED" | "OPEN" | "CLOSED" | "DECLINED" | "CANCELED";
type Reason = "COLOR" | "DEFECTIVE" | "NOT_AS_DESCRIBED" | "OTHER" | "SIZE_TOO_LARGE" | "SIZE_TOO_SMALL" | "STYLE" | "UNWANTED" | "WRONG_ITEM";

interface ReturnPlan {
  key: string;
  ret: ReturnStatus;
  request: RequestStatus;
  reason: Reason;
  note: string | null;
  /** Items announced: the first one, or two (needs an order with two delivered items). */
  items: 1 | 2;
  /** Of the announced items, how many came back (DELIVERED / REFUNDED); the others get a note. */
  received?: 1 | 2;
  storeNote?: string;
}

/** Newest first: the most recent returns are the least advanced. */
const PLANS: ReturnPlan[] = [
  { key: "requested-1", ret: "REQUESTED", request: "REQUESTED", reason: "SIZE_TOO_LARGE", note: "Runs a size large, I'd like to send it back.", items: 1 },
  { key: "requested-2", ret: "REQUESTED", request: "REQUESTED", reason: "UNWANTED", note: null, items: 2 },
  { key: "withdrawn", ret: "CANCELED", request: "CANCELED", reason: "STYLE", note: "Changed my mind, keeping it after all.", items: 1 },
  { key: "label-sent-1", ret: "LABEL_SENT", request: "OPEN", reason: "COLOR", note: "The green is much darker than on screen.", items: 1 },
  { key: "label-sent-2", ret: "LABEL_SENT", request: "OPEN", reason: "SIZE_TOO_SMALL", note: null, items: 1 },
  { key: "declined", ret: "CANCELED", request: "DECLINED", reason: "UNWANTED", note: "Wore it once, not for me.", items: 1, storeNote: "Declined: worn items can't be returned (return policy §2)." },
  { key: "in-transit-1", ret: "IN_TRANSIT", request: "OPEN", reason: "WRONG_ITEM", note: "I received a different colour than I ordered.", items: 1 },
  { key: "in-transit-2", ret: "IN_TRANSIT", request: "OPEN", reason: "NOT_AS_DESCRIBED", note: "The fabric feels thinner than described.", items: 2 },
  { key: "delivered-1", ret: "DELIVERED", request: "OPEN", reason: "DEFECTIVE", note: "A seam came apart after the first wash.", items: 1, received: 1, storeNote: "Seam defect confirmed on arrival." },
  { key: "delivered-partial", ret: "DELIVERED", request: "OPEN", reason: "SIZE_TOO_SMALL", note: "Both too small.", items: 2, received: 1, storeNote: "Only one of the two items was in the parcel." },
  { key: "refunded-1", ret: "REFUNDED", request: "CLOSED", reason: "SIZE_TOO_LARGE", note: null, items: 1, received: 1 },
  { key: "refunded-partial", ret: "REFUNDED", request: "CLOSED", reason: "STYLE", note: "Not my style after all.", items: 2, received: 1, storeNote: "Refunded the item that came back; the second was never sent." },
  { key: "refunded-2", ret: "REFUNDED", request: "CLOSED", reason: "DEFECTIVE", note: "Zip broken on arrival.", items: 1, received: 1 },
];

/** Days from delivery to the return's creation, and from creation to its last change. */
const PROGRESS_DAYS: Record<ReturnStatus, number> = { REQUESTED: 0, CANCELED: 1, LABEL_SENT: 1, IN_TRANSIT: 4, DELIVERED: 7, REFUNDED: 10 };

export function addAdminOrderDemo(rows: DemoRows): AdminOrderExtras {
  const out: AdminOrderExtras = { orders: [], orderItems: [], purchaseEvents: [], returns: [], returnLineItems: [], returnRequests: [], orderEvents: [] };
  const adminRow = rows.users.find((u) => u.email === `admin@${DEMO_EMAIL_DOMAIN}`);
  const labelOf = (u: { first_name?: string | null; last_name?: string | null; email?: string | null } | undefined, fallback: string) =>
    [u?.first_name, u?.last_name].filter(Boolean).join(" ") || u?.email || fallback;
  const staff = { actor_user_id: adminRow?.id ?? null, actor_label: labelOf(adminRow, "Staff") };
  const event = (key: string, orderId: string, kind: string, message: string, when: Date, actor: { actor_user_id: string | null; actor_label: string }, data: Prisma.InputJsonValue = {}) =>
    out.orderEvents.push({ id: demoUuid("admin-order-event", key), order_id: orderId, kind, message, ...actor, data, created_at: when });
  const rnd = new Random(16_016);
  const demoShopper = rows.users.find((u) => u.email === `shopper@${DEMO_EMAIL_DOMAIN}`)?.id ?? null;
  const shoppers = rows.users.filter((u) => u.role === "SHOPPER" && u.id && u.id !== demoShopper && u.email);
  const inStock = rows.products.filter((p) => p.availableForSale);
  const itemsByOrder = new Map<string, Prisma.OrderItemCreateManyInput[]>();
  for (const i of rows.orderItems) {
    const list = itemsByOrder.get(i.order_id) ?? [];
    list.push(i);
    itemsByOrder.set(i.order_id, list);
  }
  const addressOf = (userId: string) => rows.orders.find((o) => o.user_id === userId && o.shipping_address)?.shipping_address ?? null;

  // --- Partly fulfilled orders ------------------------------------------------------------------
  const partial = [
    { n: 1, daysAgo: 2.4, sent: ["fulfilled"], open: 2, financial: "PAID" },
    { n: 2, daysAgo: 4.1, sent: ["shipped"], open: 1, financial: "PAID" },
    { n: 3, daysAgo: 6.5, sent: ["shipped", "shipped"], open: 1, financial: "PAID" },
    { n: 4, daysAgo: 11, sent: ["delivered"], open: 1, financial: "PAID" },
    { n: 5, daysAgo: 19, sent: ["delivered", "delivered"], open: 1, financial: "PAID" },
    { n: 6, daysAgo: 33, sent: ["delivered"], open: 2, financial: "PAID" },
    { n: 7, daysAgo: 0.6, sent: [], open: 2, financial: "AUTHORIZED" },
    { n: 8, daysAgo: 1.3, sent: [], open: 1, financial: "PENDING" },
  ] as const;
  for (const p of partial) {
    const user = shoppers[(p.n * 7) % shoppers.length];
    const orderId = `gid://shopify/Order/${5_409_500 + p.n}`;
    const created = at(BASE - p.daysAgo * DAY);
    const sentAt = at(created.getTime() + (p.sent[0] === "delivered" ? 4 : p.sent[0] === "shipped" ? 1.5 : 0.5) * DAY);
    const statuses = [...p.sent, ...Array.from({ length: p.open }, () => "unfulfilled" as const)];
    const tracking = p.sent.length ? { provider: "UPS", number: `1ZADM${String(960_000 + p.n * 131).padStart(11, "0")}` } : null;
    let subtotal = 0;
    const chosen = rnd.sample(inStock, statuses.length);
    statuses.forEach((status, i) => {
      const product = chosen[i];
      const variant = rows.variants.find((v) => v.product_id === product.id && v.availableForSale);
      if (!variant) return;
      const price = Number(variant.price);
      subtotal += price;
      const lineId = `gid://shopify/LineItem/${(5_409_500 + p.n) * 10 + i}`;
      const sent = status !== "unfulfilled";
      out.orderItems.push({
        id: lineId,
        order_id: orderId,
        product_id: product.id,
        variant_id: variant.id,
        vendor_id: product.vendor_id ?? null,
        title: product.title,
        variant_title: variant.title,
        sku: variant.sku ?? null,
        quantity: 1,
        price: money(price),
        currencyCode: "USD",
        status,
        tracking_number: sent && tracking ? tracking.number : null,
        tracking_url: sent && tracking ? `https://www.ups.com/track?tracknum=${tracking.number}` : null,
        provider: sent && tracking ? tracking.provider : null,
        image_url: variant.image_url ?? null,
        created_at: created,
        updated_at: sent ? sentAt : created,
      });
      out.purchaseEvents.push({ id: demoUuid("purchase", lineId), user_id: user.id!, order_id: orderId, product_id: product.id!, variant_id: variant.id, quantity: 1, created_at: created });
    });
    const shipping = subtotal >= 150 ? 0 : 8;
    const tax = Math.round(subtotal * 0.0825 * 100) / 100;
    if (tracking) {
      const sentIds = out.orderItems.filter((i) => i.order_id === orderId && i.status !== "unfulfilled").map((i) => i.id!);
      event(`fulfilled:${p.n}`, orderId, "fulfillment.created", `Fulfilled ${sentIds.length} item${sentIds.length > 1 ? "s" : ""} with ${tracking.provider} ${tracking.number}`, at(created.getTime() + 0.5 * DAY), staff, {
        itemIds: sentIds,
        carrier: tracking.provider,
        trackingNumber: tracking.number,
      });
    }
    out.orders.push({
      id: orderId,
      name: `#${3000 + p.n}`,
      order_number: 3000 + p.n,
      user_id: user.id!,
      email: user.email!,
      status: "open",
      financial_status: p.financial,
      fulfillment_status: p.sent.length ? "PARTIALLY_FULFILLED" : "UNFULFILLED",
      subtotal_price: money(subtotal),
      total_shipping: money(shipping),
      total_tax: money(tax),
      total_price: money(subtotal + shipping + tax),
      currencyCode: "USD",
      shipping_address: addressOf(user.id!) ?? undefined,
      note: p.n === 3 ? "Second parcel to follow once the coat is back in stock." : null,
      created_at: created,
      updated_at: p.sent.length ? sentAt : created,
    });
  }

  // --- Returns on other shoppers' delivered orders (last 90 days) ---------------------------------
  const candidates = rows.orders
    .filter((o) => o.user_id && o.user_id !== demoShopper && o.status === "closed" && dateOf(o.created_at) >= BASE - 90 * DAY && dateOf(o.closed_at) < BASE - 2 * DAY)
    .map((o) => ({ order: o, items: (itemsByOrder.get(o.id!) ?? []).filter((i) => i.status === "delivered") }))
    .filter((x) => x.items.length > 0)
    .sort((a, b) => dateOf(b.order.created_at) - dateOf(a.order.created_at));
  const used = new Set<string>();
  PLANS.forEach((plan, k) => {
    // The newest free order whose delivery leaves time for the plan's progress before BASE_DATE.
    const target = candidates.find(
      (c) => !used.has(c.order.id!) && c.items.length >= plan.items && dateOf(c.order.closed_at) + (4 + PROGRESS_DAYS[plan.ret]) * DAY < BASE,
    );
    if (!target) return;
    used.add(target.order.id!);
    const announced = target.items.slice(0, plan.items);
    const receivedCount = plan.received ?? 0;
    const delivered = dateOf(target.order.closed_at);
    const created = at(delivered + (1 + (k % 3)) * DAY + 3 * HOUR);
    const updated = at(created.getTime() + PROGRESS_DAYS[plan.ret] * DAY + 2 * HOUR);
    const returnId = demoUuid("admin-return", plan.key);
    const tracking = `1ZRET${String(810_000 + k * 2311).padStart(11, "0")}`;
    const labelled = ["LABEL_SENT", "IN_TRANSIT", "DELIVERED", "REFUNDED"].includes(plan.ret);
    const refunded = plan.ret === "REFUNDED";
    const receivedItems = announced.slice(0, receivedCount);
    const refund = receivedItems.reduce((s, i) => s + Number(i.price) * i.quantity, 0);
    out.returns.push({
      id: returnId,
      order_id: target.order.id!,
      user_id: target.order.user_id ?? null,
      status: plan.ret,
      reason: plan.reason,
      reason_note: plan.note,
      tracking_number: labelled ? tracking : null,
      tracking_company: labelled ? "UPS" : null,
      label_url: labelled ? `https://www.ups.com/track?tracknum=${tracking}` : null,
      note_text: plan.storeNote ?? null,
      refund_amount: refunded ? money(refund) : null,
      currencyCode: "USD",
      received_at: receivedCount > 0 ? at(updated.getTime() - (refunded ? 2 * DAY : 0)) : null,
      refunded_at: refunded ? updated : null,
      created_at: created,
      updated_at: updated,
    });
    announced.forEach((item, i) => {
      const back = i < receivedCount;
      out.returnLineItems.push({
        id: demoUuid("admin-return-line", `${plan.key}:${i}`),
        return_id: returnId,
        order_item_id: item.id!,
        quantity: item.quantity,
        reason: plan.reason,
        received: back,
        note: receivedCount > 0 && !back ? "Not in the parcel." : back && plan.ret === "DELIVERED" && plan.reason === "DEFECTIVE" ? "Seam open at the left side." : null,
        created_at: created,
        updated_at: updated,
      });
      if (refunded && back) {
        item.status = "returned";
        item.updated_at = updated;
      }
    });
    out.returnRequests.push({
      id: demoUuid("admin-return-request", plan.key),
      order_id: target.order.id!,
      user_id: target.order.user_id ?? null,
      status: plan.request,
      reason: plan.reason,
      note: plan.note,
      order_item_ids: announced.map((i) => i.id!),
      return_id: returnId,
      created_at: created,
      updated_at: plan.request === "REQUESTED" ? created : at(created.getTime() + (plan.request === "CLOSED" ? PROGRESS_DAYS.REFUNDED : 1) * DAY),
    });
    // The timeline: the customer's request, then each step the store took.
    const orderId = target.order.id!;
    const customerRow = rows.users.find((u) => u.id === target.order.user_id);
    const customer = { actor_user_id: customerRow?.id ?? null, actor_label: labelOf(customerRow, "Customer") };
    const ids = { returnId, requestId: demoUuid("admin-return-request", plan.key) };
    const step = (n: number) => at(Math.min(created.getTime() + n * DAY, updated.getTime()));
    event(`${plan.key}:requested`, orderId, "return.requested", `Requested a return of ${announced.length} item${announced.length > 1 ? "s" : ""}`, created, customer, { ...ids, reason: plan.reason });
    if (plan.request === "CANCELED") event(`${plan.key}:withdrawn`, orderId, "return.cancelled_by_customer", "Withdrew the return request", updated, customer, ids);
    if (plan.request === "DECLINED")
      event(`${plan.key}:declined`, orderId, "return.declined", `Declined the return request: ${plan.storeNote}`, updated, staff, { ...ids, reason: plan.storeNote ?? "Declined", declineReason: "OTHER" });
    if (plan.request === "OPEN" || plan.request === "CLOSED") {
      event(`${plan.key}:approved`, orderId, "return.approved", "Approved the return request", step(0.5), staff, ids);
      const path: ReturnStatus[] = ["LABEL_SENT", "IN_TRANSIT", "DELIVERED"];
      const reached = plan.ret === "REFUNDED" ? path : path.slice(0, path.indexOf(plan.ret) + 1);
      reached.forEach((to, i) => {
        const from = i === 0 ? "REQUESTED" : path[i - 1];
        const message = to === "LABEL_SENT" ? `Sent a return label (UPS ${tracking})` : to === "IN_TRANSIT" ? "Return parcel on its way back" : "Return parcel delivered to the store";
        event(`${plan.key}:${to}`, orderId, "return.status", message, step(1 + i * 2), to === "IN_TRANSIT" ? { actor_user_id: null, actor_label: "UPS" } : staff, { ...ids, from, to });
      });
      if (receivedCount > 0)
        event(`${plan.key}:received`, orderId, "return.received", `Confirmed ${receivedCount} of ${announced.length} item${announced.length > 1 ? "s" : ""} received${plan.storeNote ? `: ${plan.storeNote}` : ""}`, at(updated.getTime() - (refunded ? 2 : 0) * DAY), staff, {
          ...ids,
          receivedItemIds: receivedItems.map((i) => i.id!),
        });
      if (refunded) event(`${plan.key}:refunded`, orderId, "return.refunded", `Refunded ${money(refund)} USD to the original payment`, updated, staff, { ...ids, amount: money(refund), currencyCode: "USD" });
    }
    if (refunded) {
      const all = itemsByOrder.get(target.order.id!) ?? [];
      target.order.financial_status = all.every((i) => i.status === "returned" || i.status === "cancelled") ? "REFUNDED" : "PARTIALLY_REFUNDED";
      target.order.updated_at = updated;
    }
  });
  return out;
}

/** Writes the new rows (after the generated orders and the demo shopper's extras). */
export async function seedAdminOrderExtras(db: Prisma.TransactionClient | import("@prisma/client").PrismaClient, x: AdminOrderExtras): Promise<void> {
  if (x.orders.length) await db.order.createMany({ data: x.orders });
  if (x.orderItems.length) await db.orderItem.createMany({ data: x.orderItems });
  if (x.purchaseEvents.length) await db.productPurchaseEvent.createMany({ data: x.purchaseEvents });
  if (x.returns.length) await db.return.createMany({ data: x.returns });
  if (x.returnLineItems.length) await db.returnLineItem.createMany({ data: x.returnLineItems });
  if (x.returnRequests.length) await db.returnRequest.createMany({ data: x.returnRequests });
  if (x.orderEvents.length) await db.orderEvent.createMany({ data: x.orderEvents });
}
