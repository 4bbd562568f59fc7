/**
 * The merchant's side of orders (contract: app/contract/admin-orders.ts): search and filters,
 * detail with fulfilments, returns and the timeline, and the writes (note/tags/address, item
 * statuses, tracking, fulfilment, return on the customer's behalf, cancel). The same rows as the
 * shopper's orders (account-orders.server.ts), so the shopper sees every change at once.
 *
 * Concurrency: every write checks and writes under the order row's lock (SELECT … FOR UPDATE), so
 * two admins' double submits move a state once. The store (commerce port) is never called while the
 * lock is held (the local adapter writes these very rows, and the embedded database has one
 * connection): check under the lock, ask the store, then write under the lock again — re-checking,
 * and treating "the store refused because it is already done" as the idempotent answer.
 */
import type { OrderItemStatus, Prisma, User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError, DomainError, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { CommerceError, type OrderUpdateInput } from "~/providers/commerce/port";
import { ITEM_STATUS_TRANSITIONS, type OrderItemStatusValue } from "~/contract/admin-orders";
import type { ReturnReasonValue } from "~/contract/account-orders";
import { applyOrderPurchases } from "../recommendations/aggregates.server";
import { cancelClaimActive, cancelEligibility } from "../account-orders-rules";
import { initiateReturnOnOrder, toOrderGid } from "../account-orders.server";
import { queueEmail } from "../email.server";
import { listOrderEvents, recordOrderEvent, userActor, type OrderEventActor } from "./order-events.server";
import { orderCancelledEmail, shippingConfirmationEmail } from "./order-emails";
import { addressObject, customerOf, toSummary } from "./admin-order-search.server";
import { sentQuantity, unsentQuantity } from "~/lib/order-quantities";

// The list and its search plan live in admin-order-search.server.ts.
export { listAdminOrders, type AdminOrderQuery } from "./admin-order-search.server";

export const ORDER_NOT_FOUND = "Order not found";
type Ctx = Pick<AppContext, "db" | "commerce" | "log" | "queue">;
type Admin = Pick<User, "id" | "email" | "first_name" | "last_name">;
type Tx = Prisma.TransactionClient;

const SENT: readonly OrderItemStatus[] = ["fulfilled", "shipped", "delivered"];

// ---------------------------------------------------------------------------------------------
// Reading

const detailInclude = {
  items: { orderBy: [{ created_at: "asc" }, { id: "asc" }], include: { fulfillments: { orderBy: [{ created_at: "asc" }, { id: "asc" }] } } },
  returns: {
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    include: { line_items: { select: { order_item_id: true, quantity: true } } },
  },
  return_requests: { orderBy: [{ created_at: "desc" }, { id: "desc" }] },
  user: {
    select: { id: true, email: true, first_name: true, last_name: true },
  },
} satisfies Prisma.OrderInclude;
type DetailRow = Prisma.OrderGetPayload<{ include: typeof detailInclude }>;

const money = (v: Prisma.Decimal | null | undefined, currencyCode: string) => (v === null || v === undefined ? null : { amount: v.toFixed(2), currencyCode });
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);

const liveRequests = (o: DetailRow) => o.return_requests.filter((r) => r.status === "REQUESTED" || r.status === "OPEN").length;
const cancelRule = (o: DetailRow) =>
  cancelEligibility({
    status: o.status,
    items: o.items,
    liveReturnRequests: liveRequests(o),
    cancelling: cancelClaimActive(o.cancel_requested_at),
  });

/**
 * The parcels: each fulfilment record (how many units of which lines, its tracking), then the items
 * sent before the app kept records, grouped by their fulfilment or tracking as before.
 */
function fulfilmentsOf(o: DetailRow) {
  type Group = { id: string | null; tracking_company: string | null; tracking_number: string | null; tracking_url: string | null; item_ids: string[]; lines: { item_id: string; quantity: number }[] };
  const groups = new Map<string, Group>();
  // Parcels oldest first; within one, the lines in the order's order.
  const position = new Map(o.items.map((i, n) => [i.id, n]));
  const records = o.items
    .flatMap((i) => i.fulfillments)
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.fulfillment_id < b.fulfillment_id ? -1 : a.fulfillment_id > b.fulfillment_id ? 1 : 0) || (position.get(a.order_item_id) ?? 0) - (position.get(b.order_item_id) ?? 0));
  for (const f of records) {
    const g = groups.get(`f:${f.fulfillment_id}`) ?? { id: f.fulfillment_id, tracking_company: f.tracking_company, tracking_number: f.tracking_number, tracking_url: f.tracking_url, item_ids: [], lines: [] };
    g.item_ids.push(f.order_item_id);
    g.lines.push({ item_id: f.order_item_id, quantity: f.quantity });
    groups.set(`f:${f.fulfillment_id}`, g);
  }
  for (const i of o.items) {
    if (i.fulfillments.length) continue;
    if (!(SENT.includes(i.status) || i.status === "returned") && !i.fulfillment_id) continue;
    const key = i.fulfillment_id ? `f:${i.fulfillment_id}` : `t:${i.tracking_number ?? ""}|${i.provider ?? ""}`;
    const g = groups.get(key) ?? { id: i.fulfillment_id, tracking_company: i.provider, tracking_number: i.tracking_number, tracking_url: i.tracking_url, item_ids: [], lines: [] };
    g.item_ids.push(i.id);
    g.lines.push({ item_id: i.id, quantity: i.quantity });
    groups.set(key, g);
  }
  return [...groups.values()];
}

function toAddress(v: Prisma.JsonValue | null) {
  const a = addressObject(v);
  if (!a) return null;
  return {
    first_name: str(a.first_name),
    last_name: str(a.last_name),
    company: str(a.company),
    address1: str(a.address1),
    address2: str(a.address2),
    city: str(a.city),
    province: str(a.province),
    zip: str(a.zip),
    country: str(a.country),
    country_code: str(a.country_code),
    phone: str(a.phone),
  };
}

async function toDetail(db: Db | Tx, o: DetailRow) {
  const events = await listOrderEvents(db, o.id);
  const customer = customerOf(o);
  const rule = cancelRule(o);
  return {
    ...toSummary(o),
    subtotal: money(o.subtotal_price, o.currencyCode),
    shipping: money(o.total_shipping, o.currencyCode),
    tax: money(o.total_tax, o.currencyCode),
    cancel_reason: o.cancel_reason,
    closed_at: o.closed_at,
    note: o.note,
    shipping_address: toAddress(o.shipping_address),
    items: o.items.map((i) => ({
      id: i.id,
      product_id: i.product_id,
      variant_id: i.variant_id,
      vendor_id: i.vendor_id,
      title: i.title,
      variant_title: i.variant_title,
      sku: i.sku,
      quantity: i.quantity,
      fulfilled_quantity: sentQuantity(i),
      fulfillable_quantity: o.status === "cancelled" ? 0 : unsentQuantity(i),
      price: { amount: i.price.toFixed(2), currencyCode: i.currencyCode },
      status: i.status,
      next_statuses: [...ITEM_STATUS_TRANSITIONS[i.status]],
      tracking: i.tracking_number
        ? {
            tracking_number: i.tracking_number,
            tracking_url: i.tracking_url,
            provider: i.provider,
          }
        : null,
      fulfillment_id: i.fulfillment_id,
      image_url: i.image_url,
    })),
    fulfillments: fulfilmentsOf(o),
    returns: o.returns.map((r) => ({
      id: r.id,
      status: r.status,
      reason: r.reason,
      tracking_number: r.tracking_number,
      refund: money(r.refund_amount, r.currencyCode),
      item_ids: r.line_items.map((li) => li.order_item_id),
      lines: r.line_items.map((li) => ({ item_id: li.order_item_id, quantity: li.quantity })),
      created_at: r.created_at,
    })),
    return_requests: o.return_requests.map((r) => ({
      id: r.id,
      status: r.status,
      reason: r.reason,
      note: r.note,
      item_ids: r.order_item_ids,
      return_id: r.return_id,
      created_at: r.created_at,
    })),
    can_cancel: rule.allowed,
    cancel_block_reason: rule.reason,
    timeline: [
      ...events.map((e) => ({
        id: e.id,
        kind: e.kind,
        message: e.message,
        actor: { user_id: e.actor_user_id, label: e.actor_label },
        data: e.data,
        created_at: e.created_at,
      })),
      {
        id: `created:${o.id}`,
        kind: "order.created",
        message: `Order ${o.name} placed`,
        actor: {
          user_id: o.user_id,
          label: customer.name ?? customer.email ?? "Customer",
        },
        data: {},
        created_at: o.created_at,
      },
    ],
  };
}

async function loadDetailRow(db: Db | Tx, rawId: string): Promise<DetailRow> {
  const o = await db.order.findUnique({
    where: { id: toOrderGid(rawId) },
    include: detailInclude,
  });
  if (!o) throw notFoundError(ORDER_NOT_FOUND);
  return o;
}

export async function getAdminOrder(db: Db, rawId: string) {
  return toDetail(db, await loadDetailRow(db, rawId));
}

// ---------------------------------------------------------------------------------------------
// Writes: shared pieces

async function lockOrder(tx: Tx, rawId: string): Promise<DetailRow> {
  const id = toOrderGid(rawId);
  await tx.$queryRaw`SELECT id FROM orders WHERE id = ${id} FOR UPDATE`;
  return loadDetailRow(tx, id);
}

/** A refusal of the store as an API error (its message is meant for people). */
function storeRefused(e: unknown, what: string): never {
  if (e instanceof DomainError) throw e;
  if (e instanceof CommerceError) {
    if (e.status === 404) throw notFoundError(e.message);
    if (e.status === 409) throw conflictError(e.message);
    if (e.status === 429 || e.status === 502) throw new DomainError("unavailable", `The store is not answering right now; ${what} was not done. Please try again.`, { reason: e.message });
    throw unprocessableError(`The store refused: ${e.message}`, {
      userErrors: e.userErrors,
    });
  }
  throw e;
}

const itemLabel = (i: { id: string; title: string; variant_title: string | null }) => `"${i.title}${i.variant_title ? ` (${i.variant_title})` : ""}" (${i.id})`;

function chooseItems<T extends { id: string }>(order: { items: T[] }, ids: string[]): T[] {
  const unique = [...new Set(ids)];
  const missing = unique.filter((id) => !order.items.some((i) => i.id === id));
  if (missing.length) throw unprocessableError(`${missing.length === 1 ? "Item" : "Items"} ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not part of this order`);
  return unique.map((id) => order.items.find((i) => i.id === id)!);
}

/** The shopper's address for order emails. */
const shopperEmail = (o: DetailRow) => o.email ?? o.user?.email ?? null;

const COMPANY_URLS: [RegExp, (n: string) => string][] = [
  [/\bups\b/i, (n) => `https://www.ups.com/track?tracknum=${n}`],
  [/usps/i, (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`],
  [/fedex/i, (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`],
  [/dhl/i, (n) => `https://www.dhl.com/en/express/tracking.html?AWB=${n}`],
];
/** The carrier's tracking page when the admin gave no URL (the carriers Shopify knows best). */
export function carrierTrackingUrl(company: string | null | undefined, number: string): string | null {
  const hit = COMPANY_URLS.find(([re]) => re.test(company ?? ""));
  return hit ? hit[1](encodeURIComponent(number)) : null;
}

// ---------------------------------------------------------------------------------------------
// PATCH /orders/admin/{id}: note, tags, shipping address

export type AdminOrderPatch = {
  note?: string | null;
  tags?: string[];
  shipping_address?: {
    first_name?: string | null;
    last_name?: string | null;
    company?: string | null;
    address1?: string | null;
    address2?: string | null;
    city?: string | null;
    province?: string | null;
    zip?: string | null;
    country_code?: string | null;
    phone?: string | null;
  };
};

export async function updateAdminOrder(ctx: Ctx, admin: Admin, rawId: string, patch: AdminOrderPatch) {
  const before = await loadDetailRow(ctx.db, rawId);
  const input: OrderUpdateInput = {};
  const changed: string[] = [];
  if (patch.note !== undefined && (patch.note || null) !== before.note) {
    input.note = patch.note || null;
    changed.push("note");
  }
  if (patch.tags !== undefined) {
    const tags = [...new Set(patch.tags)];
    if (JSON.stringify(tags) !== JSON.stringify(before.tags ?? [])) {
      input.tags = tags;
      changed.push("tags");
    }
  }
  if (patch.shipping_address) {
    const a = patch.shipping_address;
    const current = toAddress(before.shipping_address);
    const diff = Object.entries(a).some(([k, v]) => v !== undefined && (v || null) !== (current?.[k as keyof typeof current] ?? null));
    if (diff) {
      input.shippingAddress = {
        firstName: a.first_name,
        lastName: a.last_name,
        company: a.company,
        address1: a.address1,
        address2: a.address2,
        city: a.city,
        province: a.province,
        zip: a.zip,
        countryCode: a.country_code,
        phone: a.phone,
      };
      changed.push("shipping address");
    }
  }
  // Nothing differs: a retry (or a no-op save) changes nothing and records nothing.
  if (!changed.length) return toDetail(ctx.db, before);
  try {
    await ctx.commerce.updateOrder(before.id, input);
  } catch (e) {
    storeRefused(e, "the change");
  }
  return ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${before.id} FOR UPDATE`;
    const current = await loadDetailRow(tx, before.id);
    // Only the fields given replace the stored ones (undefined keeps what is there).
    const address = input.shippingAddress
      ? Object.assign(
          {},
          addressObject(current.shipping_address) ?? {},
          Object.fromEntries(
            Object.entries({
              first_name: input.shippingAddress.firstName,
              last_name: input.shippingAddress.lastName,
              company: input.shippingAddress.company,
              address1: input.shippingAddress.address1,
              address2: input.shippingAddress.address2,
              city: input.shippingAddress.city,
              province: input.shippingAddress.province,
              zip: input.shippingAddress.zip,
              country_code: input.shippingAddress.countryCode,
              phone: input.shippingAddress.phone,
            }).filter(([, v]) => v !== undefined)
          )
        )
      : undefined;
    // The read model now (the local adapter wrote it already; Shopify's orders/updated webhook will).
    await tx.order.update({
      where: { id: before.id },
      data: {
        ...(input.note !== undefined ? { note: input.note } : {}),
        ...(input.tags ? { tags: input.tags } : {}),
        ...(address ? { shipping_address: address as Prisma.InputJsonValue } : {}),
      },
    });
    await recordOrderEvent(tx, {
      orderId: before.id,
      kind: "order.updated",
      message: `Changed the ${changed.join(", ")}`,
      actor: userActor(admin),
      data: {
        fields: changed,
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.note !== undefined ? { note: input.note } : {}),
      },
    });
    return toDetail(tx, await loadDetailRow(tx, before.id));
  });
}

// ---------------------------------------------------------------------------------------------
// Fulfilment (the store's fulfilOrderLines), shared by → fulfilled and POST …/fulfillments

type FulfilOpts = {
  trackingNumber?: string;
  trackingCompany?: string;
  trackingUrl?: string;
  notifyCustomer: boolean;
};

async function fulfilItems(ctx: Ctx, admin: Admin, orderId: string, lines: { itemId: string; quantity: number }[], opts: FulfilOpts, source: "status" | "fulfillment") {
  const quantityOf = (id: string, fallback: number) => lines.find((l) => l.itemId === id)?.quantity ?? fallback;
  // 1. Check under the lock.
  const checked = await ctx.db.$transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    const chosen = chooseItems(
      order,
      lines.map((l) => l.itemId)
    );
    if (order.status === "cancelled") throw conflictError(`Order ${order.name} is cancelled: nothing can be fulfilled`);
    // A retry: everything chosen has left already (with this tracking number, when one is given), or
    // this very parcel (same tracking number and quantities) is recorded.
    const allSent = chosen.every((i) => unsentQuantity(i) === 0 && SENT.includes(i.status) && (!opts.trackingNumber || i.tracking_number === opts.trackingNumber));
    const sameParcel = !!opts.trackingNumber && chosen.every((i) => i.fulfillments.some((f) => f.tracking_number === opts.trackingNumber && f.quantity === quantityOf(i.id, i.quantity)));
    if (allSent || sameParcel) return { done: true as const, order };
    for (const i of chosen) {
      const left = unsentQuantity(i);
      if (left === 0) throw conflictError(`Item ${itemLabel(i)} is ${i.status}: nothing of it is left to fulfil`);
      const q = quantityOf(i.id, left);
      if (q > left) throw unprocessableError(`Item ${itemLabel(i)}: quantity ${q} is more than the ${left} left to fulfil (${sentQuantity(i)} of ${i.quantity} sent)`, { itemId: i.id, quantity: q, left });
    }
    return { done: false as const, order, chosen };
  });
  if (checked.done) return toDetail(ctx.db, checked.order);
  const { order, chosen } = checked;
  const parcel = chosen.map((i) => ({ item: i, quantity: quantityOf(i.id, unsentQuantity(i)) }));

  // 2. The store.
  let fulfillmentId: string;
  try {
    ({ fulfillmentId } = await ctx.commerce.fulfillOrderLines(order.id, {
      lines: parcel.map((p) => ({ orderLineId: p.item.id, quantity: p.quantity })),
      trackingNumber: opts.trackingNumber,
      trackingCompany: opts.trackingCompany,
      notifyCustomer: opts.notifyCustomer,
    }));
  } catch (e) {
    // A concurrent submit fulfilled them first: the same answer as a retry.
    if (e instanceof CommerceError && e.status === 409) {
      const now = await loadDetailRow(ctx.db, order.id);
      if (
        chooseItems(
          now,
          chosen.map((i) => i.id)
        ).every((i) => unsentQuantity(i) === 0)
      )
        return toDetail(ctx.db, now);
    }
    storeRefused(e, "the fulfilment");
  }

  // 3. The read model, the timeline, the shopper's email.
  const status: OrderItemStatus = opts.trackingNumber ? "shipped" : "fulfilled";
  const trackingUrl = opts.trackingNumber ? opts.trackingUrl ?? carrierTrackingUrl(opts.trackingCompany, opts.trackingNumber) : null;
  return ctx.db.$transaction(async (tx) => {
    const current = await lockOrder(tx, order.id);
    const ids = chosen.map((i) => i.id);
    // The fulfilment id is the natural key: a fulfilment recorded already (a store that could not
    // tell two submits apart answered both) is not recorded again.
    const recorded = await tx.orderEvent.findFirst({
      where: { order_id: order.id, kind: "fulfillment.created", data: { path: ["fulfillmentId"], equals: fulfillmentId } },
      select: { id: true },
    });
    if (recorded) return toDetail(tx, current);
    // The units each line sent in this parcel (the local store wrote them already; Shopify's here).
    await tx.orderItemFulfillment.createMany({
      data: parcel.map((p) => ({ order_item_id: p.item.id, fulfillment_id: fulfillmentId, quantity: p.quantity })),
      skipDuplicates: true,
    });
    await tx.orderItemFulfillment.updateMany({
      where: { fulfillment_id: fulfillmentId },
      data: { tracking_number: opts.trackingNumber ?? null, tracking_company: opts.trackingNumber ? (opts.trackingCompany ?? null) : null, tracking_url: trackingUrl },
    });
    // The line's status follows its first parcel: a later parcel never moves a delivered line back.
    await tx.orderItem.updateMany({
      where: { id: { in: ids }, order_id: order.id, status: { in: status === "shipped" ? ["unfulfilled", "fulfilled"] : ["unfulfilled"] } },
      data: { status },
    });
    // The item row shows its latest parcel (the shopper's tracking link, the search by tracking number).
    await tx.orderItem.updateMany({
      where: { id: { in: ids }, order_id: order.id },
      data: {
        fulfillment_id: fulfillmentId,
        ...(opts.trackingNumber ? { tracking_number: opts.trackingNumber, provider: opts.trackingCompany ?? null, tracking_url: trackingUrl } : {}),
      },
    });
    const after = await loadDetailRow(tx, order.id);
    const open = after.items.some((i) => unsentQuantity(i) > 0);
    await tx.order.update({
      where: { id: order.id },
      data: { fulfillment_status: open ? "PARTIALLY_FULFILLED" : "FULFILLED" },
    });
    const partial = parcel.filter((p) => p.quantity < p.item.quantity);
    await recordOrderEvent(tx, {
      orderId: order.id,
      kind: "fulfillment.created",
      message: `Fulfilled ${chosen.length} ${chosen.length === 1 ? "item" : "items"}${
        partial.length ? ` (${partial.map((p) => `${p.quantity} of ${p.item.quantity} × ${p.item.title}`).join(", ")})` : ""
      }${opts.trackingNumber ? ` (${opts.trackingCompany ? `${opts.trackingCompany} ` : ""}${opts.trackingNumber})` : ""}${opts.notifyCustomer ? "; the customer was notified" : ""}`,
      actor: userActor(admin),
      data: {
        fulfillmentId,
        itemIds: ids,
        lines: parcel.map((p) => ({ itemId: p.item.id, quantity: p.quantity })),
        status,
        trackingNumber: opts.trackingNumber ?? null,
        trackingCompany: opts.trackingCompany ?? null,
        source,
        notifyCustomer: opts.notifyCustomer,
      },
    });
    // With Shopify the store sends its own shipping confirmation (notifyCustomer above).
    const to = shopperEmail(current);
    if (opts.notifyCustomer && to && ctx.commerce.kind === "local") {
      await queueEmail(
        ctx,
        shippingConfirmationEmail({
          to,
          orderName: current.name,
          lines: parcel.map((p) => ({ title: p.item.title, variantTitle: p.item.variant_title, quantity: p.quantity })),
          trackingCompany: opts.trackingCompany ?? null,
          trackingNumber: opts.trackingNumber ?? null,
          trackingUrl,
        }),
        tx
      );
    }
    return toDetail(tx, await loadDetailRow(tx, order.id));
  });
}

export async function createAdminFulfillment(
  ctx: Ctx,
  admin: Admin,
  rawId: string,
  body: {
    items: { itemId: string; quantity: number }[];
    trackingNumber?: string;
    trackingCompany?: string;
    trackingUrl?: string;
    notifyCustomer: boolean;
  }
) {
  const order = await loadDetailRow(ctx.db, rawId);
  for (const l of body.items) {
    const item = order.items.find((i) => i.id === l.itemId);
    if (item && l.quantity > item.quantity) throw unprocessableError(`Item ${itemLabel(item)}: quantity ${l.quantity} is more than the ${item.quantity} ordered`);
  }
  if (body.trackingCompany && !body.trackingNumber) throw invalid("trackingNumber is required with trackingCompany");
  return fulfilItems(ctx, admin, order.id, body.items, body, "fulfillment");
}

// ---------------------------------------------------------------------------------------------
// PATCH /orders/admin/{id}/items/status

export async function setAdminItemStatus(ctx: Ctx, admin: Admin, rawId: string, body: { itemIds: string[]; status: OrderItemStatusValue }) {
  const target = body.status;
  if (target === "fulfilled") {
    // Through the store (no tracking, no notification), after the same checks as every move.
    const order = await loadDetailRow(ctx.db, rawId);
    const chosen = chooseItems(order, body.itemIds);
    refuseMoves(chosen, target);
    const moving = chosen.filter((i) => i.status !== target);
    if (!moving.length) return toDetail(ctx.db, order);
    return fulfilItems(
      ctx,
      admin,
      order.id,
      moving.map((i) => ({ itemId: i.id, quantity: i.quantity })),
      { notifyCustomer: false },
      "status"
    );
  }
  if (target === "cancelled" && ctx.commerce.kind === "shopify") {
    throw conflictError("Shopify cancels whole orders: cancel the order instead (single items are removed by editing the order in Shopify)");
  }
  return ctx.db.$transaction(async (tx) => {
    const order = await lockOrder(tx, rawId);
    const chosen = chooseItems(order, body.itemIds);
    refuseMoves(chosen, target);
    const moving = chosen.filter((i) => i.status !== target);
    // Already there (a retry, a second admin's identical submit): unchanged, nothing recorded.
    if (!moving.length) return toDetail(tx, order);
    const byFrom = new Map<OrderItemStatus, string[]>();
    for (const i of moving) byFrom.set(i.status, [...(byFrom.get(i.status) ?? []), i.id]);
    for (const [from, ids] of byFrom) {
      // Conditional on the status read under the lock: a move is made once.
      const r = await tx.orderItem.updateMany({
        where: { id: { in: ids }, order_id: order.id, status: from },
        data: { status: target },
      });
      if (r.count !== ids.length) throw conflictError("The items changed meanwhile; reload the order");
    }
    await recordOrderEvent(tx, {
      orderId: order.id,
      kind: "items.status",
      message: `Marked ${moving.length} ${moving.length === 1 ? "item" : "items"} as ${target}`,
      actor: userActor(admin),
      data: {
        to: target,
        items: moving.map((i) => ({ id: i.id, from: i.status })),
      },
    });
    return toDetail(tx, await loadDetailRow(tx, order.id));
  });
}

/** Every chosen item must be at `target` already or allowed to move there (all or nothing). */
function refuseMoves(
  items: {
    id: string;
    title: string;
    variant_title: string | null;
    status: OrderItemStatus;
  }[],
  target: OrderItemStatusValue
) {
  for (const i of items) {
    if (i.status === target) continue;
    if (!ITEM_STATUS_TRANSITIONS[i.status].includes(target)) {
      const allowed = ITEM_STATUS_TRANSITIONS[i.status];
      throw conflictError(`Item ${itemLabel(i)} cannot move from ${i.status} to ${target}${allowed.length ? ` (from ${i.status}: ${allowed.join(" or ")})` : ` (${i.status} is final)`}`, {
        itemId: i.id,
        from: i.status,
        to: target,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// PUT /orders/admin/{id}/tracking

export async function updateAdminTracking(
  ctx: Ctx,
  admin: Admin,
  rawId: string,
  body: {
    itemIds?: string[];
    fulfillmentId?: string;
    trackingNumber: string;
    trackingCompany: string;
    trackingUrl?: string;
  }
) {
  const order = await loadDetailRow(ctx.db, rawId);
  let targets: DetailRow["items"];
  let fulfilments: string[];
  if (body.fulfillmentId) {
    const fid = body.fulfillmentId;
    targets = order.items.filter((i) => i.fulfillment_id === fid || i.fulfillments.some((f) => f.fulfillment_id === fid));
    if (!targets.length) throw notFoundError(`Fulfilment ${fid} is not part of this order`);
    fulfilments = [fid];
  } else {
    const chosen = chooseItems(order, body.itemIds ?? []);
    for (const i of chosen) if (!SENT.includes(i.status)) throw conflictError(`Item ${itemLabel(i)} is ${i.status}: only sent items (fulfilled, shipped, delivered) have tracking`);
    // Tracking belongs to the fulfilment (an item's latest parcel): every item it sent gets the new number.
    fulfilments = [...new Set(chosen.map((i) => i.fulfillment_id).filter((x): x is string => !!x))];
    targets = order.items.filter((i) => chosen.includes(i) || (i.fulfillment_id && fulfilments.includes(i.fulfillment_id)) || i.fulfillments.some((f) => fulfilments.includes(f.fulfillment_id)));
  }
  const url = body.trackingUrl ?? carrierTrackingUrl(body.trackingCompany, body.trackingNumber);
  // An item row shows its latest parcel: it takes the new tracking only when that parcel is the one changed.
  const itemTargets = targets.filter((i) => !i.fulfillment_id || fulfilments.includes(i.fulfillment_id));
  const records = targets.flatMap((i) => i.fulfillments).filter((f) => fulfilments.includes(f.fulfillment_id));
  const unchanged =
    itemTargets.every((i) => i.tracking_number === body.trackingNumber && i.provider === body.trackingCompany && i.tracking_url === url) &&
    records.every((f) => f.tracking_number === body.trackingNumber && f.tracking_company === body.trackingCompany && f.tracking_url === url);
  if (unchanged) return toDetail(ctx.db, order);

  const unknown = itemTargets.filter((i) => !i.fulfillment_id);
  // Items sent before the app recorded their fulfilment: locally the app's rows are the store's
  // record (written below); Shopify needs the fulfilment's id.
  if (unknown.length && ctx.commerce.kind === "shopify") {
    throw conflictError(`The store's fulfilment of item ${itemLabel(unknown[0])} is not known to the app yet: change its tracking in Shopify's admin, or pass fulfillmentId`);
  }
  for (const fid of fulfilments) {
    try {
      await ctx.commerce.updateTracking(fid, {
        trackingNumber: body.trackingNumber,
        trackingCompany: body.trackingCompany,
      });
    } catch (e) {
      storeRefused(e, "the tracking change");
    }
  }
  return ctx.db.$transaction(async (tx) => {
    await lockOrder(tx, order.id);
    const ids = targets.map((i) => i.id);
    if (fulfilments.length) {
      await tx.orderItemFulfillment.updateMany({
        where: { fulfillment_id: { in: fulfilments }, order_item_id: { in: ids } },
        data: { tracking_number: body.trackingNumber, tracking_company: body.trackingCompany, tracking_url: url },
      });
    }
    await tx.orderItem.updateMany({
      where: { id: { in: itemTargets.map((i) => i.id) }, order_id: order.id },
      data: {
        tracking_number: body.trackingNumber,
        provider: body.trackingCompany,
        tracking_url: url,
      },
    });
    // A tracking number means the parcel is with the carrier.
    await tx.orderItem.updateMany({
      where: { id: { in: ids }, order_id: order.id, status: "fulfilled" },
      data: { status: "shipped" },
    });
    const previous = [...new Set([...itemTargets.map((i) => i.tracking_number), ...records.map((f) => f.tracking_number)].filter(Boolean))];
    await recordOrderEvent(tx, {
      orderId: order.id,
      kind: "fulfillment.tracking",
      message: `${previous.length ? "Changed" : "Added"} tracking: ${body.trackingCompany} ${body.trackingNumber}`,
      actor: userActor(admin),
      data: {
        fulfillmentIds: fulfilments,
        itemIds: ids,
        trackingNumber: body.trackingNumber,
        trackingCompany: body.trackingCompany,
        trackingUrl: url,
        previous,
      },
    });
    return toDetail(tx, await loadDetailRow(tx, order.id));
  });
}

// ---------------------------------------------------------------------------------------------
// POST /orders/admin/{id}/initiate-return (the shopper's path, on their behalf)

export async function initiateAdminReturn(
  ctx: Ctx,
  admin: Admin,
  rawId: string,
  body: { itemIds: string[]; reason: ReturnReasonValue; note?: string; quantities?: { itemId: string; quantity: number }[] }
) {
  const order = await loadDetailRow(ctx.db, rawId);
  const actor = userActor(admin);
  const strays = (body.quantities ?? []).filter((q) => !body.itemIds.includes(q.itemId));
  if (strays.length) throw invalid(`quantities name items that are not in itemIds: ${strays.map((q) => q.itemId).join(", ")}`);
  return initiateReturnOnOrder(ctx, order, order.user_id, { order_item_ids: body.itemIds, reason: body.reason, note: body.note, quantities: body.quantities }, async (tx, ids) => {
    await recordOrderEvent(tx, {
      orderId: order.id,
      kind: "return.requested",
      message: `Requested a return of ${new Set(body.itemIds).size} ${new Set(body.itemIds).size === 1 ? "item" : "items"} on behalf of the customer (${body.reason})`,
      actor,
      data: {
        ...ids,
        itemIds: [...new Set(body.itemIds)],
        ...(body.quantities?.length ? { quantities: body.quantities } : {}),
        reason: body.reason,
        note: body.note ?? null,
      },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// POST /orders/admin/{id}/cancel

export async function cancelAdminOrder(
  ctx: Ctx,
  admin: Admin,
  rawId: string,
  body: {
    reason: "CUSTOMER" | "DECLINED" | "FRAUD" | "INVENTORY" | "OTHER" | "STAFF";
    restock: boolean;
    refund: boolean;
    notify: boolean;
    staffNote?: string;
  }
) {
  const claimedAt = new Date();
  // Check and claim under the order's lock (the shopper's cancel and return requests take it too).
  const claim = await ctx.db.$transaction(async (tx) => {
    const order = await lockOrder(tx, rawId);
    if (order.status === "cancelled") return { already: true as const, order };
    const rule = cancelEligibility({
      status: order.status,
      items: order.items,
      liveReturnRequests: liveRequests(order),
      cancelling: cancelClaimActive(order.cancel_requested_at, claimedAt),
    });
    if (!rule.allowed) throw conflictError(rule.reason);
    await tx.order.update({
      where: { id: order.id },
      data: { cancel_requested_at: claimedAt },
    });
    return { already: false as const, order };
  });
  // Already cancelled (a retry, the other admin's submit): unchanged.
  if (claim.already) return toDetail(ctx.db, claim.order);
  const order = claim.order;
  const releaseClaim = () =>
    ctx.db.order
      .updateMany({
        where: { id: order.id, cancel_requested_at: claimedAt },
        data: { cancel_requested_at: null },
      })
      .catch((err: unknown) => ctx.log.error({ err, orderId: order.id }, "could not release a refused cancellation's claim"));
  try {
    await ctx.commerce.cancelOrder(order.id, {
      reason: body.reason,
      staffNote: body.staffNote,
      refund: body.refund,
      restock: body.restock,
      notifyCustomer: body.notify,
    });
  } catch (e) {
    await releaseClaim();
    storeRefused(e, "the cancellation");
  }
  const actor: OrderEventActor = userActor(admin);
  const now = new Date();
  return ctx.db.$transaction(async (tx) => {
    const current = await lockOrder(tx, order.id);
    await tx.order.update({
      where: { id: order.id },
      data: {
        status: "cancelled",
        cancelled_at: current.cancelled_at ?? now,
        cancel_reason: current.cancel_reason ?? body.reason.toLowerCase(),
        cancel_requested_at: null,
        ...(body.refund && current.financial_status !== "REFUNDED" ? { financial_status: "REFUNDED" } : {}),
      },
    });
    await tx.orderItem.updateMany({
      where: { order_id: order.id, status: { not: "cancelled" } },
      data: { status: "cancelled" },
    });
    // Purchases leave the recommendations as the webhook does for a cancelled order.
    await applyOrderPurchases(tx, order.id, -1);
    await tx.productPurchaseEvent.deleteMany({ where: { order_id: order.id } });
    await recordOrderEvent(tx, {
      orderId: order.id,
      kind: "order.cancelled",
      message: `Cancelled the order (${body.reason.toLowerCase()})${body.restock ? "; items restocked" : ""}${body.refund ? "; refunded to the original payment" : ""}${
        body.notify ? "; the customer was notified" : ""
      }`,
      actor,
      data: {
        reason: body.reason,
        restock: body.restock,
        refund: body.refund,
        notify: body.notify,
        staffNote: body.staffNote ?? null,
      },
    });
    // With Shopify the store sends its own cancellation email.
    const to = shopperEmail(current);
    if (body.notify && to && ctx.commerce.kind === "local") {
      await queueEmail(
        ctx,
        orderCancelledEmail({
          to,
          orderName: current.name,
          refunded: body.refund,
          lines: current.items.map((i) => ({
            title: i.title,
            variantTitle: i.variant_title,
            quantity: i.quantity,
          })),
        }),
        tx
      );
    }
    return toDetail(tx, await loadDetailRow(tx, order.id));
  });
}
