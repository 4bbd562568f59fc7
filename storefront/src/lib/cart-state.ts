/**
 * The cart the shopper sees while changes are in flight (issue 15: optimistic updates with
 * rollback, as saving does — see optimistic-toggle.ts). Pure, so it is tested without React.
 *
 * - `confirmed` is the last cart the server answered (kept in the query cache by cart.tsx).
 * - Each change the shopper makes is a pending operation until its request settles. The cart
 *   shown is the confirmed cart with the pending operations applied on top, so a quantity change
 *   or a removal shows at once, and an add raises the count at once (its line only appears with
 *   the server's answer: the app does not know the line id, price or image before).
 * - A request that succeeds replaces the confirmed cart with the server's answer and drops its
 *   operation; one that fails only drops its operation, which rolls the view back. Operations
 *   still in flight keep applying on top of the newer cart.
 */
import type { Cart, CartLine } from "~/contract/cart";

export type CartOp =
  | { id: number; kind: "add"; variantId: string; quantity: number }
  | { id: number; kind: "update"; lineId: string; quantity: number }
  | { id: number; kind: "remove"; lineId: string };

export type NewCartOp = CartOp extends infer O ? (O extends CartOp ? Omit<O, "id"> : never) : never;

export interface PendingState {
  ops: CartOp[];
}

/** The caller numbers its operations (a counter), so it can name the one that settled. */
export type PendingAction = { type: "begin"; op: CartOp } | { type: "settled"; id: number };

export const initialPending: PendingState = { ops: [] };

export function pendingReducer(state: PendingState, action: PendingAction): PendingState {
  switch (action.type) {
    case "begin":
      return { ops: [...state.ops, action.op] };
    case "settled":
      return { ops: state.ops.filter((o) => o.id !== action.id) };
  }
}

/** An empty cart: what a shopper who added nothing has (the API's own answer has the same shape). */
export const EMPTY_CART: Cart = { id: null, checkoutUrl: null, totalQuantity: 0, lines: [], discountCodes: [], subtotal: null, total: null, warnings: [] };

// Money strings with two decimals; cents avoid floating-point drift in sums.
const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (c: number) => (c / 100).toFixed(2);

function withQuantity(line: CartLine, quantity: number): CartLine {
  return {
    ...line,
    quantity,
    cost: { ...line.cost, totalAmount: { ...line.cost.totalAmount, amount: money(cents(line.cost.amountPerQuantity.amount) * quantity) } },
  };
}

/**
 * The cart as the shopper should see it: the confirmed cart with the pending changes applied.
 * Subtotal and total move with the lines (the total keeps the confirmed cart-level discount).
 */
export function viewCart(confirmed: Cart | null | undefined, ops: readonly CartOp[]): Cart {
  const base = confirmed ?? EMPTY_CART;
  if (ops.length === 0) return base;
  let lines = base.lines;
  let added = 0;
  for (const op of ops) {
    if (op.kind === "add") {
      added += op.quantity;
    } else if (op.kind === "remove" || (op.kind === "update" && op.quantity <= 0)) {
      lines = lines.filter((l) => l.id !== op.lineId);
    } else {
      lines = lines.map((l) => (l.id === op.lineId ? withQuantity(l, op.quantity) : l));
    }
  }
  const lineQuantity = lines.reduce((n, l) => n + l.quantity, 0);
  const currency = base.subtotal?.currencyCode ?? lines[0]?.cost.totalAmount.currencyCode ?? null;
  const subtotalCents = lines.reduce((n, l) => n + cents(l.cost.totalAmount.amount), 0);
  const discountCents = base.subtotal && base.total ? Math.max(0, cents(base.subtotal.amount) - cents(base.total.amount)) : 0;
  const subtotal = currency && lines.length > 0 ? { amount: money(subtotalCents), currencyCode: currency } : null;
  const total = subtotal ? { ...subtotal, amount: money(Math.max(0, subtotalCents - discountCents)) } : null;
  return { ...base, lines, totalQuantity: lineQuantity + added, subtotal, total };
}

/** Whether a line's problem keeps it from being bought as it is (a sold-out line blocks checkout). */
export function lineBlocksCheckout(line: CartLine): boolean {
  return line.issue?.code === "SOLD_OUT" || !line.merchandise.availableForSale;
}

/** Whether the cart can go to checkout: something in it, nothing sold out, a checkout URL. */
export function canCheckOut(cart: Cart): boolean {
  return cart.lines.length > 0 && !!cart.checkoutUrl && !cart.lines.some(lineBlocksCheckout);
}

/** "Cart, 1 item" / "Cart, 3 items": the header button's accessible name. */
export function cartButtonLabel(count: number): string {
  return `Cart, ${count} ${count === 1 ? "item" : "items"}`;
}

/**
 * Where the Check out button goes: a same-origin checkout URL (the local checkout of the
 * embedded default) as an in-app path for the router; anything else (Shopify's checkout) as is.
 */
export function checkoutTarget(checkoutUrl: string, origin: string): { kind: "route"; path: string } | { kind: "external"; url: string } {
  try {
    const url = new URL(checkoutUrl, origin);
    if (url.origin === origin) return { kind: "route", path: `${url.pathname}${url.search}${url.hash}` };
    return { kind: "external", url: url.toString() };
  } catch {
    return { kind: "external", url: checkoutUrl };
  }
}

/** A quantity the stepper may send: a whole number from 1 to `max`. */
export function clampQuantity(value: number, max: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(max, Math.max(1, Math.trunc(value)));
}
