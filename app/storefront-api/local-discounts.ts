/**
 * The local cart's discount codes (embedded default): a few demo codes the local Storefront
 * endpoint honours, so the cart and checkout show a discount without a Shopify store. Isomorphic
 * (the storefront may list them in local mode). In production the codes are the store's own,
 * evaluated by Shopify.
 *
 * Codes compare case-insensitively. As on Shopify, codes do not combine: the first applicable code
 * in the cart's list applies and every other code stays on the cart with `applicable: false`
 * (an unknown code too, so the shopper sees which code did not work).
 */

export interface LocalDiscount {
  code: string;
  /** Shown next to the code. */
  title: string;
  kind: "percentage" | "fixed_amount";
  /** Percent (0–100) or an amount in the cart's currency. */
  value: number;
  /** The subtotal the cart must reach for the code to apply (same currency). */
  minimumSubtotal?: number;
}

export const LOCAL_DISCOUNTS: readonly LocalDiscount[] = [
  { code: "WELCOME10", title: "10% off your order", kind: "percentage", value: 10 },
  { code: "SAVE5", title: "5 off orders of 50 or more", kind: "fixed_amount", value: 5, minimumSubtotal: 50 },
];

export function findLocalDiscount(code: string): LocalDiscount | null {
  const wanted = code.trim().toUpperCase();
  return LOCAL_DISCOUNTS.find((d) => d.code === wanted) ?? null;
}

/** The discount a code gives on a subtotal, in cents (never more than the subtotal); 0 when it does not apply. */
export function discountCents(discount: LocalDiscount, subtotalCents: number): number {
  if (subtotalCents <= 0) return 0;
  if (discount.minimumSubtotal != null && subtotalCents < Math.round(discount.minimumSubtotal * 100)) return 0;
  const cents = discount.kind === "percentage" ? Math.round((subtotalCents * discount.value) / 100) : Math.round(discount.value * 100);
  return Math.min(Math.max(cents, 0), subtotalCents);
}

export interface AppliedDiscounts {
  codes: { code: string; applicable: boolean }[];
  /** The applied code's discount, in cents. */
  discountCents: number;
  /** The code that applied, as the shopper typed it. */
  appliedCode: string | null;
}

/** Evaluates a cart's codes (as entered, in order) against its subtotal. */
export function applyLocalDiscounts(codes: readonly string[], subtotalCents: number): AppliedDiscounts {
  let applied: { code: string; cents: number } | null = null;
  const result = codes.map((code) => {
    const discount = findLocalDiscount(code);
    const cents = discount ? discountCents(discount, subtotalCents) : 0;
    if (!applied && cents > 0) {
      applied = { code, cents };
      return { code, applicable: true };
    }
    return { code, applicable: false };
  });
  const a = applied as { code: string; cents: number } | null;
  return { codes: result, discountCents: a?.cents ?? 0, appliedCode: a?.code ?? null };
}
