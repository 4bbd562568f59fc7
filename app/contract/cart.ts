/**
 * The shopper's cart and the local checkout (SPEC §3 User.cart_id, §7 Users: refresh-cart; issue 15).
 *
 * The cart lives in the Storefront API (API 2025-07): Shopify's in production, the local
 * Storefront-compatible endpoint in the embedded default. The app keeps the cart id on the user, so
 * the cart follows the shopper from device to device, and answers every call with the same Cart
 * shape whichever Storefront holds it. Checkout is Shopify's own (`checkoutUrl`) in production; in
 * the embedded default `checkoutUrl` opens the local checkout page, which pays with a test card and
 * creates the order through the same code path as an orders webhook.
 *
 * Every endpoint acts on the caller's own cart (access.user: guests included; the storefront gives
 * every visitor a guest token). No cart id is taken from the request except at checkout, where the
 * cart is named by its checkout URL as on Shopify (app/contract/checkout.ts).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { Money } from "./common";

/** The most units of one variant on one line. */
export const CART_MAX_LINE_QUANTITY = 99;
/** Discount codes a cart takes at once. */
export const CART_MAX_DISCOUNT_CODES = 5;

/**
 * Line problems the app reports: the variant sold out (refresh-cart drops the line), fewer left
 * than the line asks for (the line is reduced to what is left), or its price changed since the
 * shopper added it (flagged until the next refresh acknowledges it).
 */
export const CartLineIssueCode = z.enum(["SOLD_OUT", "NOT_ENOUGH_STOCK", "PRICE_CHANGED"]);
export type CartLineIssueCode = z.infer<typeof CartLineIssueCode>;

export const CartLineSchema = z.object({
  /** The Storefront cart line id (gid://shopify/CartLine/…). */
  id: z.string(),
  quantity: z.number().int(),
  merchandise: z.object({
    /** gid://shopify/ProductVariant/… */
    variantId: z.string(),
    /** gid://shopify/Product/… */
    productId: z.string(),
    productHandle: z.string(),
    productTitle: z.string(),
    vendor: z.string().nullable(),
    /** "Default Title" for a product without options. */
    variantTitle: z.string(),
    sku: z.string().nullable(),
    image: z.object({ url: z.string(), altText: z.string().nullable() }).nullable(),
    selectedOptions: z.array(z.object({ name: z.string(), value: z.string() })),
    availableForSale: z.boolean(),
    price: Money,
  }),
  cost: z.object({ amountPerQuantity: Money, compareAtAmountPerQuantity: Money.nullable(), totalAmount: Money }),
  /** What is wrong with the line now, if anything. */
  issue: z.object({ code: CartLineIssueCode, message: z.string() }).nullable(),
});
export type CartLine = z.infer<typeof CartLineSchema>;

export const CartSchema = z.object({
  /** The Storefront cart id; null while the shopper has no cart (an empty cart, nothing added yet). */
  id: z.string().nullable(),
  /** Where checkout happens: Shopify's checkout in production, the local checkout page in the embedded default. */
  checkoutUrl: z.string().nullable(),
  totalQuantity: z.number().int(),
  lines: z.array(CartLineSchema),
  discountCodes: z.array(z.object({ code: z.string(), applicable: z.boolean() })),
  /** Before shipping and taxes, which are worked out at checkout. Null for an empty cart. */
  subtotal: Money.nullable(),
  /** After cart-level discounts, before shipping and taxes. Null for an empty cart. */
  total: Money.nullable(),
  /** Notices from the last change, e.g. "Only 2 left: the quantity was reduced to 2". */
  warnings: z.array(z.object({ code: z.string(), message: z.string() })),
});
export type Cart = z.infer<typeof CartSchema>;

/** A variant id: a Shopify GID or its number. */
const VariantId = z
  .string({ error: "merchandiseId is required" })
  .trim()
  .min(1, "merchandiseId is required")
  .max(200)
  .transform((v) => (/^\d+$/.test(v) ? `gid://shopify/ProductVariant/${v}` : v))
  .refine((v) => /^gid:\/\/shopify\/ProductVariant\/[\w-]+$/.test(v), "merchandiseId must be a product variant id");
const Quantity = (min: number) => z.coerce.number().int().min(min).max(CART_MAX_LINE_QUANTITY, `At most ${CART_MAX_LINE_QUANTITY} of one item`);
const LineIdParams = z.object({ lineId: z.string().trim().min(1).max(300) });

/** What refresh-cart changed or found: one entry per affected line. */
export const CartChangeSchema = z.object({
  lineId: z.string(),
  variantId: z.string(),
  title: z.string(),
  code: CartLineIssueCode,
  /** "removed" (sold out), "reduced" (not enough stock) or "flagged" (price changed: kept, shown to the shopper). */
  action: z.enum(["removed", "reduced", "flagged"]),
  message: z.string(),
  previousQuantity: z.number().int().nullable(),
  quantity: z.number().int().nullable(),
  previousPrice: Money.nullable(),
  price: Money.nullable(),
});

export const cartEndpoints = {
  cartGet: endpoint({
    method: "GET",
    path: "/cart",
    summary: "The caller's cart (an empty cart when nothing was added yet)",
    tags: ["Cart"],
    access: access.user,
    response: CartSchema,
  }),
  cartLinesAdd: endpoint({
    method: "POST",
    path: "/cart/lines",
    summary: "Add a variant to the cart (stock checked: a sold-out variant is refused, a quantity above what is left is reduced with a warning)",
    tags: ["Cart"],
    access: access.user,
    body: z.object({ merchandiseId: VariantId, quantity: Quantity(1).default(1) }),
    response: CartSchema,
  }),
  cartLinesUpdate: endpoint({
    method: "PATCH",
    path: "/cart/lines/{lineId}",
    summary: "Change a line's quantity (0 removes it)",
    tags: ["Cart"],
    access: access.user,
    params: LineIdParams,
    body: z.object({ quantity: Quantity(0) }),
    response: CartSchema,
  }),
  cartLinesRemove: endpoint({
    method: "DELETE",
    path: "/cart/lines/{lineId}",
    summary: "Remove a line from the cart",
    tags: ["Cart"],
    access: access.user,
    params: LineIdParams,
    response: CartSchema,
  }),
  cartDiscountCodesUpdate: endpoint({
    method: "PUT",
    path: "/cart/discount-codes",
    summary: "Replace the cart's discount codes (an empty list removes them); codes that do not apply come back with applicable: false",
    tags: ["Cart"],
    access: access.user,
    body: z.object({ codes: z.array(z.string().trim().min(1).max(64)).max(CART_MAX_DISCOUNT_CODES, `At most ${CART_MAX_DISCOUNT_CODES} codes`) }),
    response: CartSchema,
  }),
  usersRefreshCart: endpoint({
    method: "POST",
    path: "/users/refresh-cart",
    summary: "Re-read the cart: drop sold-out lines, reduce lines above the stock left, flag lines whose price changed since they were added",
    tags: ["Cart"],
    access: access.user,
    response: z.object({ cart: CartSchema, changes: z.array(CartChangeSchema) }),
  }),
};
