/**
 * Pure helpers of the local checkout page (/checkout?cart=<id>, the embedded default's checkoutUrl):
 * the form's state, the request body it makes, the same checks the server runs (the contract's
 * schema, so the messages match), and the server's errors turned into per-field messages.
 */
import { ApiClientError } from "~/client";
import { LocalCheckoutBody, type LocalCheckoutSchema, type ShippingMethodCode } from "~/contract/checkout";
import type { z } from "zod";
import { USER_QUERY_PREFIX } from "./session";

export const CHECKOUT_PATH = "/checkout";
/** What GET /api/checkout/local answers: the cart, shipping methods and test cards. */
export type LocalCheckout = z.output<typeof LocalCheckoutSchema>;
export const checkoutKey = (cartId: string) => ["checkout", cartId] as const;
/** Every cart query of the storefront (the header count and the cart page), whoever the user. */
export const CART_QUERY_PREFIX = [USER_QUERY_PREFIX, "cart"] as const;

/** A short list of shipping countries (ISO 3166-1 alpha-2). */
export const CHECKOUT_COUNTRIES: { code: string; name: string }[] = [
  { code: "US", name: "United States" },
  { code: "CA", name: "Canada" },
  { code: "GB", name: "United Kingdom" },
  { code: "IE", name: "Ireland" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "IT", name: "Italy" },
  { code: "ES", name: "Spain" },
  { code: "NL", name: "Netherlands" },
  { code: "AU", name: "Australia" },
  { code: "JP", name: "Japan" },
];

export interface CheckoutForm {
  email: string;
  firstName: string;
  lastName: string;
  address1: string;
  address2: string;
  city: string;
  province: string;
  zip: string;
  countryCode: string;
  phone: string;
  shippingMethod: z.infer<typeof ShippingMethodCode>;
  cardNumber: string;
  expiry: string;
  cvc: string;
  nameOnCard: string;
}
export type CheckoutField = keyof CheckoutForm;
/** Messages per field; `form` is for what belongs to no field (the cart, a decline without a field). */
export type FieldErrors = Partial<Record<CheckoutField, string>>;

export function initialCheckoutForm(user: { email: string | null; first_name: string | null; last_name: string | null } | null): CheckoutForm {
  return {
    email: user?.email ?? "",
    firstName: user?.first_name ?? "",
    lastName: user?.last_name ?? "",
    address1: "",
    address2: "",
    city: "",
    province: "",
    zip: "",
    countryCode: "US",
    phone: "",
    shippingMethod: "standard",
    cardNumber: "",
    expiry: "",
    cvc: "",
    nameOnCard: [user?.first_name, user?.last_name].filter(Boolean).join(" "),
  };
}

const optional = (v: string) => (v.trim() ? v : undefined);

export function toCheckoutBody(form: CheckoutForm, cartId: string): z.input<typeof LocalCheckoutBody> {
  return {
    cartId,
    email: form.email,
    shippingAddress: {
      firstName: form.firstName,
      lastName: form.lastName,
      address1: form.address1,
      address2: optional(form.address2),
      city: form.city,
      province: optional(form.province),
      zip: form.zip,
      countryCode: form.countryCode,
      phone: optional(form.phone),
    },
    shippingMethod: form.shippingMethod,
    payment: { cardNumber: form.cardNumber, expiry: form.expiry, cvc: form.cvc, nameOnCard: form.nameOnCard },
  };
}

const FIELDS = new Set<string>(Object.keys(initialCheckoutForm(null)));

/** `shippingAddress.zip` → `zip`, `payment.cardNumber` → `cardNumber`; other paths (cartId) → null. */
export function fieldOfPath(path: string): CheckoutField | null {
  const last = path.split(".").pop() ?? "";
  return FIELDS.has(last) ? (last as CheckoutField) : null;
}

function fieldErrorsOf(issues: { path: string; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const i of issues) {
    const f = fieldOfPath(i.path);
    if (f && !out[f]) out[f] = i.message;
  }
  return out;
}

/** The contract's own checks before sending (same messages as the server's 400). */
export function validateCheckout(form: CheckoutForm, cartId: string): FieldErrors {
  const r = LocalCheckoutBody.safeParse(toCheckoutBody(form, cartId));
  return r.success ? {} : fieldErrorsOf(r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
}

export interface CheckoutFailure {
  /** Shown above the Place order button (role=alert). */
  message: string;
  fields: FieldErrors;
  /** The cart changed under the shopper (sold out, gone): the summary should be read again. */
  reloadCart: boolean;
  /** The cart is gone (already checked out): the form cannot be sent again. */
  cartGone: boolean;
}

/** A failed Place order, as the page shows it: the fields keep what was typed. */
export function checkoutFailure(error: unknown): CheckoutFailure {
  if (error instanceof ApiClientError) {
    const d = (error.details ?? {}) as { code?: unknown; issues?: unknown };
    const issues = Array.isArray(d.issues) ? d.issues.filter((i): i is { path: string; message: string } => !!i && typeof i === "object" && typeof (i as { path?: unknown }).path === "string" && typeof (i as { message?: unknown }).message === "string") : [];
    const fields = fieldErrorsOf(issues);
    const message = error.status === 400 && Object.keys(fields).length ? "Check the highlighted fields." : error.message;
    return { message, fields, reloadCart: error.status === 409 && (d.code === "sold_out" || d.code === "cart_changed"), cartGone: error.status === 404 };
  }
  if (error instanceof TypeError) return { message: "Could not reach the server. Nothing was charged: check your connection and try again.", fields: {}, reloadCart: false, cartGone: false };
  return { message: "Your order could not be placed. Nothing was charged: try again.", fields: {}, reloadCart: false, cartGone: false };
}

/** "4242424242424242" → "4242 4242 4242 4242" as the shopper types. */
export function formatCardNumber(v: string): string {
  return v
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1230" → "12/30" as the shopper types. */
export function formatExpiry(v: string): string {
  const d = v.replace(/\D/g, "").slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}
