/**
 * Demo data for the shopper's orders, returns and notifications screens: on top of the orders
 * that ./generate.ts gives the demo shopper (shopper@demo.local: delivered, shipped and unfulfilled
 * ones), a few deterministic rows so every state shows something:
 * - an order the shopper cancelled (#2001), one sent two days ago (#2002, tracking), and an older
 *   delivered one (#2003), so the list has more than one page of 10;
 * - return requests on delivered orders (each with the store's return): the oldest refunded and
 *   closed, the newest just requested, the one before it approved and on its way back;
 * - back-in-stock requests: a sold-out product, and a sold-out size of a product in stock.
 * The delivered orders in between stay untouched, so a return can be requested from the demo.
 * Everything is derived from the generated rows and fixed dates: identical on every seed.
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { BASE_DATE, DEMO_EMAIL_DOMAIN, type DemoRows } from "./generate";
import { demoUuid } from "./prng";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = BASE_DATE.getTime();
const at = (ms: number) => new Date(Math.floor(Math.min(ms, BASE - 5 * 60_000) / 1000) * 1000);

export interface AccountOrderExtras {
  orders: Prisma.OrderCreateManyInput[];
  orderItems: Prisma.OrderItemCreateManyInput[];
  returns: Prisma.ReturnCreateManyInput[];
  returnLineItems: Prisma.ReturnLineItemCreateManyInput[];
  returnRequests: Prisma.ReturnRequestCreateManyInput[];
  notificationRequests: Prisma.NotificationRequestCreateManyInput[];
  purchaseEvents: Prisma.ProductPurchaseEventCreateManyInput[];
}

const dateOf = (v: Date | string | null | undefined) => (v ? new Date(v).getTime() : BASE);

export function buildAccountOrderExtras(rows: DemoRows): AccountOrderExtras {
  const out: AccountOrderExtras = { orders: [], orderItems: [], returns: [], returnLineItems: [], returnRequests: [], notificationRequests: [], purchaseEvents: [] };
  const shopper = rows.users.find((u) => u.email === `shopper@${DEMO_EMAIL_DOMAIN}`);
  if (!shopper?.id) return out;
  const email = shopper.email!;

  // --- A cancelled order --------------------------------------------------------------------
  const product = rows.products.filter((p) => p.availableForSale && p.target_gender === "womenswear")[7] ?? rows.products.find((p) => p.availableForSale);
  const variant = product ? rows.variants.find((v) => v.product_id === product.id && v.availableForSale) : undefined;
  if (product && variant) {
    const created = at(BASE - 25 * DAY + 9 * HOUR);
    const cancelled = at(created.getTime() + 3 * HOUR);
    const price = Number(variant.price);
    const tax = Math.round(price * 0.0825 * 100) / 100;
    const id = "gid://shopify/Order/5409001";
    out.orders.push({
      id,
      name: "#2001",
      order_number: 2001,
      user_id: shopper.id,
      email,
      status: "cancelled",
      financial_status: "REFUNDED",
      fulfillment_status: "UNFULFILLED",
      subtotal_price: price.toFixed(2),
      total_shipping: "8.00",
      total_tax: tax.toFixed(2),
      total_price: (price + 8 + tax).toFixed(2),
      currencyCode: "USD",
      cancel_reason: "customer",
      cancelled_at: cancelled,
      note: "Cancelled by the customer: I ordered by mistake",
      created_at: created,
      updated_at: cancelled,
    });
    out.orderItems.push({
      id: "gid://shopify/LineItem/54090010",
      order_id: id,
      product_id: product.id,
      variant_id: variant.id,
      vendor_id: product.vendor_id ?? null,
      title: product.title,
      variant_title: variant.title,
      sku: variant.sku ?? null,
      quantity: 1,
      price: price.toFixed(2),
      currencyCode: "USD",
      status: "cancelled",
      image_url: variant.image_url ?? null,
      created_at: created,
      updated_at: cancelled,
    });
  }

  // --- A sent order and an older delivered one -----------------------------------------------
  const inStock = rows.products.filter((p) => p.availableForSale && p.target_gender !== "menswear");
  const extra = [
    { n: 2, product: inStock[11], daysAgo: 2, status: "fulfilled" as const, tracking: "1Z4F8E2W0396512873" },
    { n: 3, product: inStock[23], daysAgo: 150, status: "delivered" as const, tracking: "1Z4F8E2W0391187734" },
  ];
  for (const x of extra) {
    const v = x.product ? rows.variants.find((vv) => vv.product_id === x.product!.id && vv.availableForSale) : undefined;
    if (!x.product || !v) continue;
    const created = at(BASE - x.daysAgo * DAY + 14 * HOUR);
    const updated = at(created.getTime() + (x.status === "delivered" ? 4 * DAY : DAY));
    const price = Number(v.price);
    const tax = Math.round(price * 0.0825 * 100) / 100;
    const id = `gid://shopify/Order/540900${x.n}`;
    const lineId = `gid://shopify/LineItem/540900${x.n}0`;
    out.orders.push({
      id,
      name: `#200${x.n}`,
      order_number: 2000 + x.n,
      user_id: shopper.id,
      email,
      status: x.status === "delivered" ? "closed" : "open",
      financial_status: "PAID",
      fulfillment_status: "FULFILLED",
      subtotal_price: price.toFixed(2),
      total_shipping: "8.00",
      total_tax: tax.toFixed(2),
      total_price: (price + 8 + tax).toFixed(2),
      currencyCode: "USD",
      closed_at: x.status === "delivered" ? updated : null,
      shipping_address: { first_name: "Sophie", last_name: "Martin", address1: "18 Valencia Street", city: "San Francisco", province: "CA", zip: "94103", country: "United States", country_code: "US" },
      created_at: created,
      updated_at: updated,
    });
    out.orderItems.push({
      id: lineId,
      order_id: id,
      product_id: x.product.id,
      variant_id: v.id,
      vendor_id: x.product.vendor_id ?? null,
      title: x.product.title,
      variant_title: v.title,
      sku: v.sku ?? null,
      quantity: 1,
      price: price.toFixed(2),
      currencyCode: "USD",
      status: x.status,
      tracking_number: x.tracking,
      tracking_url: `https://www.ups.com/track?tracknum=${x.tracking}`,
      provider: "UPS",
      image_url: v.image_url ?? null,
      created_at: created,
      updated_at: updated,
    });
    // Every live order item has its purchase event (recommendations; checked by the demo tests).
    out.purchaseEvents.push({ id: demoUuid("purchase", lineId), user_id: shopper.id, order_id: id, product_id: x.product.id!, variant_id: v.id, quantity: 1, created_at: created });
  }

  // --- Returns on delivered orders -----------------------------------------------------------
  const delivered = rows.orders
    .filter((o) => o.user_id === shopper.id && o.status === "closed")
    .sort((a, b) => dateOf(a.created_at) - dateOf(b.created_at))
    .map((o) => ({ order: o, items: rows.orderItems.filter((i) => i.order_id === o.id && i.status === "delivered") }))
    .filter((x) => x.items.length > 0);
  const plans = [
    { key: "refunded", reason: "SIZE_TOO_SMALL", note: "Lovely, but a size too small.", request: "CLOSED", ret: "REFUNDED", after: 4 },
    { key: "in-transit", reason: "COLOR", note: "The colour is darker than on the photos.", request: "OPEN", ret: "IN_TRANSIT", after: 3 },
    { key: "requested", reason: "STYLE", note: null, request: "REQUESTED", ret: "REQUESTED", after: 2 },
  ] as const;
  const targets = delivered.length >= 4 ? [delivered[0], delivered[delivered.length - 2], delivered[delivered.length - 1]] : delivered.slice(0, 3);
  plans.forEach((plan, k) => {
    const target = targets[k];
    if (!target) return;
    const item = target.items[0];
    const base = dateOf(target.order.closed_at ?? target.order.created_at);
    const created = at(base + plan.after * DAY);
    const updated = at(created.getTime() + (plan.ret === "REFUNDED" ? 9 : plan.ret === "IN_TRANSIT" ? 3 : 0) * DAY + 2 * HOUR);
    const returnId = demoUuid("return", plan.key);
    const amount = (Number(item.price) * item.quantity).toFixed(2);
    out.returns.push({
      id: returnId,
      order_id: target.order.id!,
      user_id: shopper.id,
      status: plan.ret,
      reason: plan.reason,
      reason_note: plan.note,
      tracking_number: plan.ret === "REQUESTED" ? null : `1ZRET${String(740_000 + k * 1117).padStart(11, "0")}`,
      tracking_company: plan.ret === "REQUESTED" ? null : "UPS",
      label_url: plan.ret === "REQUESTED" ? null : `https://www.ups.com/track?tracknum=1ZRET${String(740_000 + k * 1117).padStart(11, "0")}`,
      refund_amount: plan.ret === "REFUNDED" ? amount : null,
      currencyCode: "USD",
      received_at: plan.ret === "REFUNDED" ? at(updated.getTime() - 2 * DAY) : null,
      refunded_at: plan.ret === "REFUNDED" ? updated : null,
      created_at: created,
      updated_at: updated,
    });
    out.returnLineItems.push({
      id: demoUuid("return-line", plan.key),
      return_id: returnId,
      order_item_id: item.id!,
      quantity: item.quantity,
      reason: plan.reason,
      received: plan.ret === "REFUNDED",
      note: plan.note,
      created_at: created,
      updated_at: updated,
    });
    out.returnRequests.push({
      id: demoUuid("return-request", plan.key),
      order_id: target.order.id!,
      user_id: shopper.id,
      status: plan.request,
      reason: plan.reason,
      note: plan.note,
      order_item_ids: [item.id!],
      return_id: returnId,
      created_at: created,
      updated_at: plan.request === "REQUESTED" ? created : at(created.getTime() + DAY),
    });
  });

  // --- Back-in-stock requests -------------------------------------------------------------------
  const soldOut = rows.products.find((p) => !p.availableForSale);
  if (soldOut) {
    out.notificationRequests.push({
      id: demoUuid("notification", "bis-product"),
      kind: "back_in_stock",
      user_id: shopper.id,
      email,
      product_id: soldOut.id!,
      status: "active",
      unsubscribe_token: demoUuid("notification-token", "bis-product"),
      created_at: at(BASE - 6 * DAY),
      updated_at: at(BASE - 6 * DAY),
    });
  }
  const soldOutVariant = rows.variants.find((v) => !v.availableForSale && rows.products.some((p) => p.id === v.product_id && p.availableForSale && p.target_gender !== "menswear"));
  if (soldOutVariant) {
    out.notificationRequests.push({
      id: demoUuid("notification", "bis-variant"),
      kind: "back_in_stock",
      user_id: shopper.id,
      email,
      product_id: soldOutVariant.product_id,
      variant_id: soldOutVariant.id!,
      status: "active",
      unsubscribe_token: demoUuid("notification-token", "bis-variant"),
      created_at: at(BASE - 3 * DAY),
      updated_at: at(BASE - 3 * DAY),
    });
  }
  return out;
}

/** Writes the extras (after the generated orders, products and users). */
export async function seedAccountOrderExtras(db: PrismaClient, rows: DemoRows): Promise<void> {
  const x = buildAccountOrderExtras(rows);
  if (x.orders.length) await db.order.createMany({ data: x.orders });
  if (x.orderItems.length) await db.orderItem.createMany({ data: x.orderItems });
  if (x.purchaseEvents.length) await db.productPurchaseEvent.createMany({ data: x.purchaseEvents });
  if (x.returns.length) await db.return.createMany({ data: x.returns });
  if (x.returnLineItems.length) await db.returnLineItem.createMany({ data: x.returnLineItems });
  if (x.returnRequests.length) await db.returnRequest.createMany({ data: x.returnRequests });
  // Earlier seeds' requests of the demo shopper go first (the table is emptied through products,
  // except requests without a product).
  await db.notificationRequest.deleteMany({ where: { id: { in: x.notificationRequests.map((n) => n.id!) } } });
  if (x.notificationRequests.length) await db.notificationRequest.createMany({ data: x.notificationRequests });
}
