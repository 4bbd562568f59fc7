/**
 * The local checkout of the embedded default (issue 15): `checkoutUrl` of a local cart opens the
 * storefront's /checkout page, which reads the cart here, pays with a test card (no money moves)
 * and places the order through the same code path as an orders webhook. In production checkout is
 * Shopify's own and these endpoints answer 409.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { Money } from "./common";
import { CartSchema } from "./cart";

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

export const checkoutEndpoints = {
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
