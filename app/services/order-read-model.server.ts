/**
 * Orders from the store's `orders/create` and `orders/updated` webhooks (REST-shaped payloads)
 * into the read model: Order + OrderItem rows, and ProductPurchaseEvent rows (recommendations and
 * "bought" signals) for orders that are not cancelled.
 *
 * An order is linked to a user (user_id) only on proof: Shopify's customer id, or an email its
 * owner verified (app/services/email-verification.server.ts links the earlier orders of an address
 * when it is verified). Reviews' verified buyer, review requests and the shopper's order pages all
 * rely on that link.
 */
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import type { Db } from "~/db.server";
import { applyOrderPurchases } from "./recommendations/aggregates.server";

export interface WebhookOrderLine {
  id: number | string;
  admin_graphql_api_id?: string;
  product_id?: number | string | null;
  variant_id?: number | string | null;
  title?: string;
  variant_title?: string | null;
  sku?: string | null;
  quantity?: number;
  price?: string | number;
  fulfillment_status?: string | null;
}
export interface WebhookOrder {
  id: number | string;
  admin_graphql_api_id?: string;
  name?: string;
  order_number?: number;
  email?: string | null;
  contact_email?: string | null;
  created_at?: string;
  cancelled_at?: string | null;
  cancel_reason?: string | null;
  closed_at?: string | null;
  financial_status?: string | null;
  fulfillment_status?: string | null;
  currency?: string;
  total_price?: string | number;
  subtotal_price?: string | number | null;
  total_tax?: string | number | null;
  total_shipping_price_set?: { shop_money?: { amount?: string | number; currency_code?: string } } | null;
  /** Kept by the payload for completeness; the read model has no discount column (total_price is after discounts). */
  total_discounts?: string | number | null;
  discount_codes?: { code: string; amount?: string; type?: string }[];
  shipping_lines?: { code?: string | null; title?: string; price?: string | number }[];
  note?: string | null;
  customer?: { id?: number | string | null; email?: string | null } | null;
  shipping_address?: Record<string, unknown> | null;
  line_items?: WebhookOrderLine[];
  /** Shopify's comma-separated tags. */
  tags?: string | null;
  fulfillments?: { id?: number | string | null; admin_graphql_api_id?: string; tracking_number?: string | null; tracking_url?: string | null; tracking_company?: string | null; shipment_status?: string | null; line_items?: { id: number | string; quantity?: number }[] }[];
}

const gid = (type: string, id: number | string | null | undefined, given?: string) => (given ? given : id === null || id === undefined || id === "" ? null : String(id).startsWith("gid://") ? String(id) : `gid://shopify/${type}/${id}`);
const money = (v: string | number | null | undefined) => (v === null || v === undefined || v === "" ? null : new Prisma.Decimal(String(v)));
const FULFILMENT: Record<string, string> = { fulfilled: "FULFILLED", partial: "PARTIALLY_FULFILLED", restocked: "RESTOCKED", unfulfilled: "UNFULFILLED" };
/** Statuses our own app moves an item to after Shopify's fulfilment: a webhook never moves them back. */
const LATER: OrderItemStatus[] = ["shipped", "delivered", "returned"];
/** Progress of an item: a webhook moves an item forward (e.g. shipped → delivered), never back. */
const RANK: Record<OrderItemStatus, number> = { cancelled: -1, unfulfilled: 0, fulfilled: 1, shipped: 2, delivered: 3, returned: 4 };
/** A fulfilment's shipment_status (carrier events) → the item status it means. */
const SHIPMENT: Record<string, OrderItemStatus> = { in_transit: "shipped", out_for_delivery: "shipped", attempted_delivery: "shipped", ready_for_pickup: "shipped", delivered: "delivered" };

/** An orders webhook's payload into the read model, in its own transaction. */
export async function upsertOrderFromWebhook(db: Db, o: WebhookOrder): Promise<{ id: string; created: boolean }> {
  return db.$transaction((tx) => upsertOrderFromWebhookIn(tx, o));
}

export interface UpsertOrderOptions {
  /**
   * The buyer's user id when the caller KNOWS who bought (the local checkout: the signed-in shopper
   * or the guest holding the session). Never taken from a payload: webhooks pass nothing and the
   * buyer is found from the customer id or a verified email as below.
   */
  buyerUserId?: string;
}

/**
 * The same, inside the caller's transaction: the local checkout creates its order here together
 * with taking the stock, so an order exists exactly when its stock was taken.
 */
export async function upsertOrderFromWebhookIn(tx: Prisma.TransactionClient, o: WebhookOrder, opts: UpsertOrderOptions = {}): Promise<{ id: string; created: boolean }> {
  const id = gid("Order", o.id, o.admin_graphql_api_id)!;
  const email = (o.email || o.contact_email || o.customer?.email || null)?.toLowerCase() ?? null;
  const customerId = o.customer?.id !== undefined && o.customer?.id !== null ? String(o.customer.id) : null;
  const status: OrderStatus = o.cancelled_at ? "cancelled" : o.closed_at ? "closed" : "open";
  const currency = o.currency ?? "USD";

  // The buyer's account: the caller's trusted buyer, else the one Shopify's customer id names,
  // else the one that proved the order's email. An address someone merely typed (a lead, an
  // unverified registration) links nothing: anyone can type anyone's address.
  const user =
    (opts.buyerUserId ? { id: opts.buyerUserId } : null) ??
    (customerId ? await tx.user.findUnique({ where: { shopify_customer_id: customerId }, select: { id: true } }) : null) ??
    (email ? await tx.user.findFirst({ where: { email, email_verified_at: { not: null } }, select: { id: true } }) : null);
  const existing = await tx.order.findUnique({ where: { id }, include: { items: true } });
  const data = {
    name: o.name ?? `#${o.order_number ?? o.id}`,
    order_number: o.order_number ?? null,
    user_id: user?.id ?? existing?.user_id ?? null,
    email,
    shopify_customer_id: customerId,
    status,
    financial_status: o.financial_status ? o.financial_status.toUpperCase() : null,
    fulfillment_status: FULFILMENT[o.fulfillment_status ?? "unfulfilled"] ?? (o.fulfillment_status ?? "").toUpperCase(),
    subtotal_price: money(o.subtotal_price),
    total_tax: money(o.total_tax),
    total_shipping: money(o.total_shipping_price_set?.shop_money?.amount),
    total_price: money(o.total_price) ?? new Prisma.Decimal(0),
    currencyCode: currency,
    cancel_reason: o.cancel_reason ?? null,
    cancelled_at: o.cancelled_at ? new Date(o.cancelled_at) : null,
    closed_at: o.closed_at ? new Date(o.closed_at) : null,
    shipping_address: (o.shipping_address ?? Prisma.DbNull) as Prisma.InputJsonValue | typeof Prisma.DbNull,
    note: o.note ?? null,
    // Absent from a payload: keep the tags the app has (admin orders write them through orderUpdate).
    ...(typeof o.tags === "string" ? { tags: o.tags.split(",").map((t) => t.trim()).filter(Boolean) } : {}),
  };
  if (existing) await tx.order.update({ where: { id }, data });
  else await tx.order.create({ data: { id, ...data, created_at: o.created_at ? new Date(o.created_at) : new Date() } });

  const tracking = new Map<string, { fid: string | null; number: string | null; url: string | null; company: string | null; shipment: OrderItemStatus | null }>();
  for (const f of o.fulfillments ?? []) {
    for (const li of f.line_items ?? []) {
      tracking.set(String(li.id), { fid: gid("Fulfillment", f.id, f.admin_graphql_api_id), number: f.tracking_number ?? null, url: f.tracking_url ?? null, company: f.tracking_company ?? null, shipment: SHIPMENT[f.shipment_status ?? ""] ?? null });
    }
  }

  const lines = o.line_items ?? [];
  const productIds = lines.map((l) => gid("Product", l.product_id)).filter((x): x is string => !!x);
  const variantIds = lines.map((l) => gid("ProductVariant", l.variant_id)).filter((x): x is string => !!x);
  const products = new Map((await tx.product.findMany({ where: { id: { in: productIds } }, select: { id: true, vendor_id: true, featuredImageUrl: true } })).map((p) => [p.id, p]));
  const variants = new Map((await tx.productVariant.findMany({ where: { id: { in: variantIds } }, select: { id: true, image_url: true } })).map((v) => [v.id, v]));

  for (const l of lines) {
    const itemId = gid("LineItem", l.id, l.admin_graphql_api_id)!;
    const productId = gid("Product", l.product_id);
    const variantId = gid("ProductVariant", l.variant_id);
    const current = existing?.items.find((i) => i.id === itemId);
    const t = tracking.get(String(l.id));
    // "partial": some units left (their count is in the fulfilments' records below, ~/lib/order-quantities).
    let itemStatus: OrderItemStatus = status === "cancelled" ? "cancelled" : l.fulfillment_status === "fulfilled" || l.fulfillment_status === "partial" ? "fulfilled" : "unfulfilled";
    if (status !== "cancelled" && t?.shipment && RANK[t.shipment] > RANK[itemStatus]) itemStatus = t.shipment;
    if (current && LATER.includes(current.status) && status !== "cancelled" && RANK[current.status] > RANK[itemStatus]) itemStatus = current.status;
    const row = {
      order_id: id,
      product_id: productId,
      variant_id: variantId,
      vendor_id: productId ? (products.get(productId)?.vendor_id ?? null) : null,
      title: l.title ?? "",
      variant_title: l.variant_title ?? null,
      sku: l.sku ?? null,
      quantity: l.quantity ?? 1,
      price: money(l.price) ?? new Prisma.Decimal(0),
      currencyCode: currency,
      status: itemStatus,
      tracking_number: t?.number ?? current?.tracking_number ?? null,
      tracking_url: t?.url ?? current?.tracking_url ?? null,
      provider: t?.company ?? current?.provider ?? null,
      // The store's fulfilment (admin tracking changes go to it).
      fulfillment_id: t?.fid ?? current?.fulfillment_id ?? null,
      image_url: (variantId ? variants.get(variantId)?.image_url : null) ?? (productId ? products.get(productId)?.featuredImageUrl : null) ?? current?.image_url ?? null,
    };
    await tx.orderItem.upsert({ where: { id: itemId }, create: { id: itemId, ...row }, update: row });
  }

  // The units of each line every fulfilment sent (a line may leave in several parcels).
  for (const f of o.fulfillments ?? []) {
    const fid = gid("Fulfillment", f.id, f.admin_graphql_api_id);
    if (!fid) continue;
    for (const li of f.line_items ?? []) {
      const line = lines.find((l) => String(l.id) === String(li.id));
      if (!line || !li.quantity) continue;
      const itemId = gid("LineItem", line.id, line.admin_graphql_api_id)!;
      const rec = { quantity: li.quantity, tracking_number: f.tracking_number ?? null, tracking_company: f.tracking_company ?? null, tracking_url: f.tracking_url ?? null };
      await tx.orderItemFulfillment.upsert({
        where: { fulfillment_id_order_item_id: { fulfillment_id: fid, order_item_id: itemId } },
        create: { fulfillment_id: fid, order_item_id: itemId, ...rec },
        update: rec,
      });
    }
  }

  // Purchase events: once per order, and none for a cancelled order.
  if (status === "cancelled") {
    await applyOrderPurchases(tx, id, -1); // recommendations: take the order's purchases off
    await tx.productPurchaseEvent.deleteMany({ where: { order_id: id } });
  } else if ((await tx.productPurchaseEvent.count({ where: { order_id: id } })) === 0) {
    const events = lines
      .filter((l) => l.product_id)
      .map((l) => ({ order_id: id, user_id: user?.id ?? null, product_id: gid("Product", l.product_id)!, variant_id: gid("ProductVariant", l.variant_id), quantity: l.quantity ?? 1, created_at: o.created_at ? new Date(o.created_at) : new Date() }));
    if (events.length) await tx.productPurchaseEvent.createMany({ data: events });
    if (events.length) await applyOrderPurchases(tx, id, 1); // recommendations: popularity and "bought together", once per order
  }
  return { id, created: !existing };
}
