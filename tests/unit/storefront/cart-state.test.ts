/**
 * The cart's optimistic state (storefront/src/lib/cart-state.ts): pending changes shown at once,
 * rolled back when their request fails, the server's cart taken when it succeeds; counts, totals
 * and the checkout rules.
 */
import { describe, expect, it } from "vitest";
import type { Cart, CartLine } from "~/contract/cart";
import {
  EMPTY_CART,
  canCheckOut,
  cartButtonLabel,
  checkoutTarget,
  clampQuantity,
  initialPending,
  pendingReducer,
  viewCart,
  type CartOp,
  type PendingState,
} from "../../../storefront/src/lib/cart-state";

const eur = (amount: string) => ({ amount, currencyCode: "EUR" });

function line(id: string, quantity: number, price: string, over: Partial<CartLine> = {}): CartLine {
  return {
    id,
    quantity,
    merchandise: {
      variantId: `gid://shopify/ProductVariant/${id}`,
      productId: `gid://shopify/Product/${id}`,
      productHandle: `p-${id}`,
      productTitle: `Product ${id}`,
      vendor: null,
      variantTitle: "M",
      sku: null,
      image: null,
      selectedOptions: [{ name: "Size", value: "M" }],
      availableForSale: true,
      price: eur(price),
    },
    cost: { amountPerQuantity: eur(price), compareAtAmountPerQuantity: null, totalAmount: eur((Number(price) * quantity).toFixed(2)) },
    issue: null,
    ...over,
  };
}

function cart(lines: CartLine[], over: Partial<Cart> = {}): Cart {
  const sub = lines.reduce((n, l) => n + Number(l.cost.totalAmount.amount), 0).toFixed(2);
  return {
    id: "gid://shopify/Cart/c1",
    checkoutUrl: "http://shop.test/checkout?cart=c1",
    totalQuantity: lines.reduce((n, l) => n + l.quantity, 0),
    lines,
    discountCodes: [],
    subtotal: lines.length ? eur(sub) : null,
    total: lines.length ? eur(sub) : null,
    warnings: [],
    ...over,
  };
}

const run = (state: PendingState, ...actions: Parameters<typeof pendingReducer>[1][]) => actions.reduce(pendingReducer, state);
const op = (o: CartOp) => ({ type: "begin" as const, op: o });

describe("cart state: optimistic changes", () => {
  const base = cart([line("a", 2, "10.00"), line("b", 1, "25.50")]);

  it("shows the confirmed cart when nothing is pending, and an empty cart before the first load", () => {
    expect(viewCart(base, [])).toBe(base);
    expect(viewCart(undefined, [])).toEqual(EMPTY_CART);
    expect(viewCart(null, []).totalQuantity).toBe(0);
  });

  it("an add raises the count at once (the line comes with the server's answer)", () => {
    const s = run(initialPending, op({ id: 1, kind: "add", variantId: "gid://shopify/ProductVariant/9", quantity: 2 }));
    const v = viewCart(base, s.ops);
    expect(v.totalQuantity).toBe(5);
    expect(v.lines).toHaveLength(2);
    expect(viewCart(null, s.ops).totalQuantity).toBe(2);
  });

  it("a quantity change shows at once with its line total, subtotal and count", () => {
    const s = run(initialPending, op({ id: 1, kind: "update", lineId: "a", quantity: 5 }));
    const v = viewCart(base, s.ops);
    expect(v.lines.find((l) => l.id === "a")).toMatchObject({ quantity: 5, cost: { totalAmount: eur("50.00") } });
    expect(v.totalQuantity).toBe(6);
    expect(v.subtotal).toEqual(eur("75.50"));
  });

  it("a removal (or a quantity of 0) takes the line away at once; removing the last line empties the totals", () => {
    const removed = viewCart(base, run(initialPending, op({ id: 1, kind: "remove", lineId: "b" })).ops);
    expect(removed.lines.map((l) => l.id)).toEqual(["a"]);
    expect(removed.subtotal).toEqual(eur("20.00"));
    const zero = viewCart(base, run(initialPending, op({ id: 1, kind: "update", lineId: "a", quantity: 0 })).ops);
    expect(zero.lines.map((l) => l.id)).toEqual(["b"]);
    const none = viewCart(base, run(initialPending, op({ id: 1, kind: "remove", lineId: "a" }), op({ id: 2, kind: "remove", lineId: "b" })).ops);
    expect(none).toMatchObject({ lines: [], totalQuantity: 0, subtotal: null, total: null });
  });

  it("a refused change rolls back: settling it without a new cart shows the confirmed cart again", () => {
    let s = run(initialPending, op({ id: 1, kind: "update", lineId: "a", quantity: 9 }));
    expect(viewCart(base, s.ops).totalQuantity).toBe(10);
    s = run(s, { type: "settled", id: 1 });
    expect(viewCart(base, s.ops)).toBe(base);
  });

  it("overlapping changes: one settles with the server's cart, the other still shows on top of it; a failure only undoes its own", () => {
    let s = run(initialPending, op({ id: 1, kind: "update", lineId: "a", quantity: 3 }), op({ id: 2, kind: "remove", lineId: "b" }));
    expect(viewCart(base, s.ops).lines.map((l) => [l.id, l.quantity])).toEqual([["a", 3]]);
    // The first answer: a is 3 on the server; b is still there until the removal answers.
    const server = cart([line("a", 3, "10.00"), line("b", 1, "25.50")]);
    s = run(s, { type: "settled", id: 1 });
    expect(viewCart(server, s.ops).lines.map((l) => [l.id, l.quantity])).toEqual([["a", 3]]);
    // The removal fails: b comes back.
    s = run(s, { type: "settled", id: 2 });
    expect(viewCart(server, s.ops).lines.map((l) => l.id)).toEqual(["a", "b"]);
    expect(s.ops).toEqual([]);
  });

  it("settling an unknown operation changes nothing", () => {
    const s = run(initialPending, op({ id: 1, kind: "remove", lineId: "a" }));
    expect(run(s, { type: "settled", id: 42 })).toEqual(s);
  });

  it("keeps a cart-level discount while quantities change", () => {
    const discounted = cart([line("a", 2, "10.00")], { subtotal: eur("20.00"), total: eur("18.00") });
    const v = viewCart(discounted, run(initialPending, op({ id: 1, kind: "update", lineId: "a", quantity: 3 })).ops);
    expect(v.subtotal).toEqual(eur("30.00"));
    expect(v.total).toEqual(eur("28.00"));
  });
});

describe("cart state: checkout and labels", () => {
  it("checks out only a cart with lines, a checkout URL and nothing sold out", () => {
    expect(canCheckOut(cart([line("a", 1, "10.00")]))).toBe(true);
    expect(canCheckOut(EMPTY_CART)).toBe(false);
    expect(canCheckOut(cart([line("a", 1, "10.00")], { checkoutUrl: null }))).toBe(false);
    const soldOut = line("b", 1, "5.00", { issue: { code: "SOLD_OUT", message: "Sold out" } });
    expect(canCheckOut(cart([line("a", 1, "10.00"), soldOut]))).toBe(false);
    const priceChanged = line("c", 1, "5.00", { issue: { code: "PRICE_CHANGED", message: "Price changed" } });
    expect(canCheckOut(cart([priceChanged]))).toBe(true);
  });

  it("names the header button with the count", () => {
    expect(cartButtonLabel(0)).toBe("Cart, 0 items");
    expect(cartButtonLabel(1)).toBe("Cart, 1 item");
    expect(cartButtonLabel(12)).toBe("Cart, 12 items");
  });

  it("routes a same-origin checkout URL in the app and sends any other away", () => {
    expect(checkoutTarget("http://localhost:3000/checkout?cart=abc", "http://localhost:3000")).toEqual({ kind: "route", path: "/checkout?cart=abc" });
    expect(checkoutTarget("https://shop.myshopify.com/cart/c/abc?key=1", "http://localhost:3000")).toEqual({
      kind: "external",
      url: "https://shop.myshopify.com/cart/c/abc?key=1",
    });
  });

  it("clamps quantities to 1…max", () => {
    expect(clampQuantity(0, 99)).toBe(1);
    expect(clampQuantity(150, 99)).toBe(99);
    expect(clampQuantity(3.7, 99)).toBe(3);
    expect(clampQuantity(Number.NaN, 99)).toBe(1);
  });
});
