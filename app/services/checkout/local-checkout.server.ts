/**
 * The local checkout of the embedded default (issue 15): what Shopify's checkout does for a cart in
 * production, done against the app's own tables so the whole loop runs without a store.
 *
 * - getCheckout: the cart named by the checkout URL (`/checkout?cart=<id>`), the shipping methods
 *   and the test cards. The cart id is a bearer secret as on Shopify: whoever holds it may check it
 *   out (access.user: guests included).
 * - completeCheckout: the test payment (no money moves: LOCAL_TEST_CARDS), then ONE transaction
 *   that completes the cart, takes the stock with conditional updates (no overselling: two
 *   checkouts of the last unit → one order and one 409), numbers the order and writes it through
 *   the orders webhook's own code path (upsertOrderFromWebhookIn), so purchase events,
 *   recommendations, the shopper's orders page, vendors' sales and later review requests see it
 *   exactly as a webhook order. After the commit the confirmation email is queued (a failure there
 *   is logged, never undoes the order).
 *
 * With COMMERCE_ADAPTER=shopify checkout is Shopify's own (the cart's checkoutUrl): both answer 409.
 */
import { Prisma, type User } from "@prisma/client";
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { JobQueue } from "~/jobs/queue.server";
import type { Logger } from "~/lib/logger.server";
import type { Cart } from "~/contract/cart";
import { LOCAL_SHIPPING_METHODS, LOCAL_TEST_CARDS, type LocalCheckoutBody } from "~/contract/checkout";
import type { z } from "zod";
import { conflictError, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { lockItem, type Tx } from "~/db/item-lock.server";
import { newGid, recomputeProductAggregates } from "~/providers/commerce/local.server";
import type { SfCart, StorefrontCartApi } from "~/storefront-api/cart-client";
import { upsertOrderFromWebhookIn, type WebhookOrder } from "../order-read-model.server";
import { visibleProductWhere } from "~/lib/visibility";
import { queueEmail } from "../email.server";
import { toCart } from "../cart.server";
import { applyLocalDiscounts, findLocalDiscount } from "~/storefront-api/local-discounts";
import { authorizeTestPayment } from "./test-payment";
import { orderConfirmationEmail } from "./confirmation-email";

export const CHECKOUT_ON_SHOPIFY = "Checkout happens on Shopify: open the cart's checkoutUrl";
export const CART_GONE = "This cart does not exist or was already checked out";
export const CART_EMPTY = "Your cart is empty";
export const CART_CHANGED = "Your cart changed while you were checking out: check the order summary and place the order again";
/** The first order number of a store with no orders (Shopify starts at #1001 too). */
const FIRST_ORDER_NUMBER = 1001;

export type LocalCheckoutInput = z.output<typeof LocalCheckoutBody>;
type Caller = Pick<User, "id">;
type Money = { amount: string; currencyCode: string };

export interface LocalCheckoutDeps {
  db: Db;
  config: Pick<AppConfig, "COMMERCE_ADAPTER">;
  log: Logger;
  queue: JobQueue;
  /** The Storefront cart (the local endpoint in the embedded default). */
  cart: Pick<StorefrontCartApi, "get">;
  /**
   * Inside the order's transaction: takes the cart's lock (held until the transaction ends, so no
   * cart change runs meanwhile) and answers its lines as they are now, or null when the cart is
   * unknown or already completed.
   */
  lockCart(tx: Tx, cartId: string): Promise<{ variantId: string; quantity: number }[] | null>;
  /**
   * Marks the local cart completed inside the order's transaction (after it the Storefront answers
   * null for it, as Shopify does for a checked-out cart); false when it was already completed or
   * unknown, which makes a second checkout of the same cart a 404 with nothing taken.
   */
  completeCart(tx: Tx, cartId: string): Promise<boolean>;
  now?: () => Date;
}

function assertLocal(config: LocalCheckoutDeps["config"]) {
  if (config.COMMERCE_ADAPTER === "shopify") throw conflictError(CHECKOUT_ON_SHOPIFY, { code: "checkout_on_shopify" });
}

/** The live cart or 404; an empty cart is a 409 (nothing to check out). */
async function liveCart(deps: Pick<LocalCheckoutDeps, "cart">, cartId: string): Promise<SfCart> {
  const cart = await deps.cart.get(cartId);
  if (!cart) throw notFoundError(CART_GONE);
  if (!cart.lines.length) throw conflictError(CART_EMPTY, { code: "cart_empty" });
  return cart;
}

const currencyOf = (cart: SfCart) => cart.cost.subtotalAmount.currencyCode;

export async function getCheckout(deps: Pick<LocalCheckoutDeps, "config" | "cart">, cartId: string): Promise<{ cart: Cart; shippingMethods: { code: "standard" | "express"; title: string; description: string; price: Money }[]; testCards: { approved: string; declined: string } }> {
  assertLocal(deps.config);
  const cart = await liveCart(deps, cartId);
  const currencyCode = currencyOf(cart);
  return {
    cart: toCart(cart),
    shippingMethods: LOCAL_SHIPPING_METHODS.map((m) => ({ code: m.code, title: m.title, description: m.description, price: { amount: m.price, currencyCode } })),
    testCards: { ...LOCAL_TEST_CARDS },
  };
}

/** One entry per variant (a cart may hold the same variant on two lines with different attributes). */
function wantedStock(cart: SfCart) {
  const byVariant = new Map<string, { variantId: string; quantity: number; title: string; lineIds: string[] }>();
  for (const l of cart.lines) {
    const m = l.merchandise;
    const title = m.title && m.title !== "Default Title" ? `${m.product.title} (${m.title})` : m.product.title;
    const e = byVariant.get(m.id) ?? { variantId: m.id, quantity: 0, title, lineIds: [] };
    e.quantity += l.quantity;
    e.lineIds.push(l.id);
    byVariant.set(m.id, e);
  }
  // A fixed order: concurrent checkouts lock shared variant rows in the same order, so they never deadlock.
  return [...byVariant.values()].sort((a, b) => (a.variantId < b.variantId ? -1 : a.variantId > b.variantId ? 1 : 0));
}

/** The same variants in the same quantities (lines of one variant counted together). */
function sameLines(current: { variantId: string; quantity: number }[], wanted: { variantId: string; quantity: number }[]): boolean {
  const now = new Map<string, number>();
  for (const l of current) now.set(l.variantId, (now.get(l.variantId) ?? 0) + l.quantity);
  return now.size === wanted.length && wanted.every((w) => now.get(w.variantId) === w.quantity);
}

interface TakenRow {
  id: string;
  product_id: string;
  price: Prisma.Decimal;
  currencyCode: string;
  title: string;
  sku: string | null;
}

export interface ShortLine {
  variantId: string;
  lineIds: string[];
  title: string;
  requested: number;
  available: number;
}

function soldOutMessage(short: ShortLine[]): string {
  const parts = short.map((s) => (s.available <= 0 ? `${s.title} is sold out` : `only ${s.available} left of ${s.title}`));
  const text = parts.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}. Update your cart and try again.`;
}

/**
 * The cart's discount codes evaluated again at checkout prices (the local Storefront's own rules,
 * so the order's discount is what the cart would show now): the applied code and its amount.
 */
function discountAt(cart: SfCart, subtotal: Prisma.Decimal): { amount: Prisma.Decimal; code: string | null } {
  const applied = applyLocalDiscounts(
    cart.discountCodes.map((d) => d.code),
    Math.round(subtotal.times(100).toNumber()),
  );
  return { amount: new Prisma.Decimal(applied.discountCents).dividedBy(100), code: applied.appliedCode };
}

const countryName = (code: string) => {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
};

export async function completeCheckout(deps: LocalCheckoutDeps, caller: Caller, body: LocalCheckoutInput): Promise<{ order: { id: string; name: string; total: Money; email: string } }> {
  assertLocal(deps.config);
  const now = deps.now?.() ?? new Date();
  const cart = await liveCart(deps, body.cartId);

  const payment = authorizeTestPayment(body.payment, now);
  if (!payment.ok) {
    const details = { code: payment.reason, issues: [{ path: payment.field, message: payment.message, code: payment.reason }] };
    // A number that cannot be a card is a bad request; a real-looking card the "bank" refuses is 422.
    throw payment.reason === "card_invalid" ? invalid(payment.message, { where: "body", ...details }) : unprocessableError(payment.message, details);
  }

  const wanted = wantedStock(cart);
  const method = LOCAL_SHIPPING_METHODS.find((m) => m.code === body.shippingMethod)!;
  const a = body.shippingAddress;

  const placed = await deps.db.$transaction(
    async (tx) => {
      // The cart's own lock: one checkout per cart at a time (the second finds it completed: 404,
      // nothing taken), and no cart change between what was read above and the order.
      const current = await deps.lockCart(tx, body.cartId);
      if (!current) throw notFoundError(CART_GONE);
      if (!sameLines(current, wanted)) throw conflictError(CART_CHANGED, { code: "cart_changed" });
      if (!(await deps.completeCart(tx, body.cartId))) throw notFoundError(CART_GONE);

      // Stock: one conditional UPDATE per variant. Under concurrency PostgreSQL re-checks the
      // WHERE on the row the other checkout committed, so the last unit goes to exactly one.
      const variantIds = wanted.map((w) => w.variantId);
      const shown = new Set(
        (await tx.productVariant.findMany({ where: { id: { in: variantIds }, product: visibleProductWhere(now) }, select: { id: true } })).map((v) => v.id),
      );
      const taken = new Map<string, TakenRow>();
      const short: ShortLine[] = [];
      for (const w of wanted) {
        const rows = shown.has(w.variantId)
          ? await tx.$queryRaw<TakenRow[]>`
              UPDATE product_variants
                 SET inventory_quantity = inventory_quantity - ${w.quantity},
                     "availableForSale" = (inventory_quantity - ${w.quantity} > 0),
                     updated_at = now()
               WHERE id = ${w.variantId} AND "availableForSale" AND inventory_quantity >= ${w.quantity}
           RETURNING id, product_id, price, "currencyCode", title, sku`
          : [];
        if (rows.length) {
          taken.set(w.variantId, rows[0]);
          continue;
        }
        const left = shown.has(w.variantId) ? await tx.productVariant.findUnique({ where: { id: w.variantId }, select: { inventory_quantity: true, availableForSale: true } }) : null;
        short.push({ variantId: w.variantId, lineIds: w.lineIds, title: w.title, requested: w.quantity, available: left?.availableForSale ? Math.max(0, left.inventory_quantity) : 0 });
      }
      // Throwing rolls back every stock taken above and the cart's completion.
      if (short.length) throw conflictError(soldOutMessage(short), { code: "sold_out", lines: short });

      // Order numbers: serialised, so two checkouts never get the same number.
      await lockItem(tx, "local-checkout:order-number");
      const max = await tx.order.aggregate({ _max: { order_number: true } });
      let number = Math.max(FIRST_ORDER_NUMBER, (max._max.order_number ?? 0) + 1);
      while (await tx.order.findUnique({ where: { name: `#${number}` }, select: { id: true } })) number++;

      const currency = taken.values().next().value?.currencyCode ?? currencyOf(cart);
      const lines = cart.lines.map((l) => {
        const row = taken.get(l.merchandise.id)!;
        return { line: l, row, price: new Prisma.Decimal(row.price) };
      });
      const subtotal = lines.reduce((s, x) => s.plus(x.price.times(x.line.quantity)), new Prisma.Decimal(0));
      const { amount: discount, code: discountCode } = discountAt(cart, subtotal);
      const shipping = new Prisma.Decimal(method.price);
      const total = subtotal.minus(discount).plus(shipping);
      const orderId = newGid("Order");
      const createdAt = now.toISOString();
      const fullName = `${a.firstName} ${a.lastName}`;

      // The REST payload Shopify's orders/create sends, so the order takes the webhook's own path.
      const payload: WebhookOrder = {
        id: orderId.split("/").pop()!,
        admin_graphql_api_id: orderId,
        name: `#${number}`,
        order_number: number,
        email: body.email,
        contact_email: body.email,
        created_at: createdAt,
        financial_status: "paid",
        fulfillment_status: null,
        currency,
        subtotal_price: subtotal.toFixed(2),
        total_discounts: discount.toFixed(2),
        discount_codes: discountCode ? [{ code: discountCode, amount: discount.toFixed(2), type: findLocalDiscount(discountCode)?.kind ?? "fixed_amount" }] : [],
        total_tax: "0.00",
        total_shipping_price_set: { shop_money: { amount: shipping.toFixed(2), currency_code: currency } },
        shipping_lines: [{ code: method.code, title: method.title, price: shipping.toFixed(2) }],
        total_price: total.toFixed(2),
        shipping_address: {
          first_name: a.firstName,
          last_name: a.lastName,
          name: fullName,
          address1: a.address1,
          address2: a.address2 || null,
          city: a.city,
          province: a.province || null,
          zip: a.zip,
          country: countryName(a.countryCode),
          country_code: a.countryCode,
          phone: a.phone || null,
        },
        line_items: lines.map(({ line, row, price }) => {
          const itemId = newGid("LineItem");
          return {
            id: itemId.split("/").pop()!,
            admin_graphql_api_id: itemId,
            product_id: row.product_id,
            variant_id: row.id,
            title: line.merchandise.product.title,
            variant_title: line.merchandise.title === "Default Title" ? null : line.merchandise.title,
            sku: row.sku,
            quantity: line.quantity,
            price: price.toFixed(2),
            fulfillment_status: null,
          };
        }),
      };
      // The buyer is the caller (signed in, or the guest holding this session): trusted, never the payload's.
      await upsertOrderFromWebhookIn(tx, payload, { buyerUserId: caller.id });

      // Product aggregates (total inventory, availability) and updated_at, as the local commerce
      // adapter's setInventory does, so listings, caches and incremental syncs see the change.
      // Stock only went down: no back-in-stock check; product vectors do not depend on stock.
      for (const productId of new Set([...taken.values()].map((r) => r.product_id))) await recomputeProductAggregates(tx, productId);

      // Whoever kept this cart (the buyer, or another device's session) no longer has it.
      await tx.user.updateMany({ where: { cart_id: body.cartId }, data: { cart_id: null } });

      return {
        id: orderId,
        name: `#${number}`,
        currency,
        subtotal,
        discount,
        shipping,
        total,
        address: [fullName, a.address1, a.address2, `${a.zip} ${a.city}`, countryName(a.countryCode)].filter((x): x is string => !!x),
        lines: lines.map(({ line, price }) => ({ title: line.merchandise.product.title, variantTitle: line.merchandise.title === "Default Title" ? null : line.merchandise.title, quantity: line.quantity, price: price.toFixed(2) })),
      };
    },
    // Checkouts of the same items wait for one another's row locks; the embedded database runs one transaction at a time.
    { maxWait: 15_000, timeout: 30_000 },
  );

  // After the commit: the order stands whatever happens to its email.
  try {
    await queueEmail(deps, orderConfirmationEmail({ to: body.email, firstName: a.firstName, orderName: placed.name, shippingMethod: method.title, last4: payment.last4, ...placed }));
  } catch (e) {
    deps.log.error({ err: e, orderId: placed.id }, "order confirmation email could not be queued");
  }
  deps.log.info({ orderId: placed.id, order: placed.name, userId: caller.id }, "local checkout: order placed");
  return { order: { id: placed.id, name: placed.name, total: { amount: placed.total.toFixed(2), currencyCode: placed.currency }, email: body.email } };
}
