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
 * cart is named by its checkout URL as on Shopify.
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

// ---------------------------------------------------------------------------------------------
// Local checkout (embedded default)

/** Shipping methods of the local checkout; prices in the store currency. */
export const LOCAL_SHIPPING_METHODS = [
  { code: "standard", title: "Standard", description: "3–5 business days", price: "5.00" },
  { code: "express", title: "Express", description: "1–2 business days", price: "15.00" },
] as const;
export const ShippingMethodCode = z.enum(["standard", "express"]);

/** Test cards of the local checkout's test payment: every other valid card number is approved too. */
export const LOCAL_TEST_CARDS = { approved: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" } as const;

const Text = (label: string, max = 120) => z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(max, `${label} is too long`);
export const ShippingAddressSchema = z.object({
  firstName: Text("First name", 60),
  lastName: Text("Last name", 60),
  address1: Text("Address"),
  address2: z.string().trim().max(120).optional(),
  city: Text("City", 80),
  province: z.string().trim().max(80).optional(),
  zip: Text("Postal code", 20),
  /** ISO 3166-1 alpha-2, e.g. "US". */
  countryCode: z.string({ error: "Country is required" }).trim().toUpperCase().regex(/^[A-Z]{2}$/, "Country must be a two-letter code"),
  phone: z.string().trim().max(30).optional(),
});

export const LocalCheckoutBody = z.object({
  /** The cart id from the checkout URL. */
  cartId: z.string({ error: "cartId is required" }).trim().min(1, "cartId is required").max(300),
  email: z.string({ error: "Email is required" }).trim().toLowerCase().pipe(z.email("Enter a valid email")),
  shippingAddress: ShippingAddressSchema,
  shippingMethod: ShippingMethodCode,
  payment: z.object({
    cardNumber: z.string({ error: "Card number is required" }).trim().regex(/^[\d ]{12,23}$/, "Enter a valid card number"),
    /** "MM/YY" */
    expiry: z.string({ error: "Expiry is required" }).trim().regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, "Expiry must be MM/YY"),
    cvc: z.string({ error: "Security code is required" }).trim().regex(/^\d{3,4}$/, "Security code must be 3 or 4 digits"),
    nameOnCard: Text("Name on card", 120),
  }),
});

export const LocalCheckoutSchema = z.object({
  cart: CartSchema,
  shippingMethods: z.array(z.object({ code: ShippingMethodCode, title: z.string(), description: z.string(), price: Money })),
  testCards: z.object({ approved: z.string(), declined: z.string() }),
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
  checkoutLocalGet: endpoint({
    method: "GET",
    path: "/checkout/local",
    summary: "The local checkout (embedded default): the cart named by the checkout URL, shipping methods and test cards",
    tags: ["Cart"],
    access: access.user,
    query: z.object({ cartId: z.string({ error: "cartId is required" }).trim().min(1, "cartId is required").max(300) }),
    response: LocalCheckoutSchema,
  }),
  checkoutLocalComplete: endpoint({
    method: "POST",
    path: "/checkout/local",
    summary: "Pay with a test card and place the order (embedded default): stock checked and taken atomically, the order created as an orders webhook would",
    tags: ["Cart"],
    access: access.user,
    body: LocalCheckoutBody,
    status: 201,
    response: z.object({
      order: z.object({ id: z.string(), name: z.string(), total: Money, email: z.string() }),
    }),
  }),
};
