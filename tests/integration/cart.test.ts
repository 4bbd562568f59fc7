/**
 * The shopper's cart through the HTTP API (issue 15): every cart endpoint's happy and failure
 * paths, stock at add (sold out 409, capped with a warning), one cart per user under concurrent
 * first adds, the guest → account merge on sign-in, refresh-cart (sold out dropped, stock reduced,
 * price change flagged once) and a cart the Storefront no longer knows.
 *
 * The same suite runs on both Storefront adapters: "local" (the embedded default: the local
 * endpoint in-process) and "shopify" (the production client — shop domain, public token — against
 * a Shopify-like server that validates every document against the real 2025-07 schema and checks
 * the token, then answers from the same database). On the Shopify one every document sent must
 * have been schema-valid and carried the token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { createShopifyStorefrontServer, type ShopifyStorefrontServer } from "../helpers/shopify-storefront-server";
import { createProduct, vgid } from "./products-fixtures";
import { completeLocalCart } from "../../app/storefront-api/local-cart.server";
import type { StorefrontCartApi } from "../../app/storefront-api/cart-client";

let app: TestApp;
let n = 100;
const PASSWORD = "a-good-password-123";

/** A fresh product (own variants, so tests that change stock or prices do not disturb others). */
async function product(o: { price?: number; inventory?: number; status?: "active" | "draft"; sizes?: string[] } = {}) {
  const p = await createProduct(app.database.db, { n: ++n, title: `Cart test product ${n}`, price: o.price ?? 50, inventory: o.inventory ?? 5, status: o.status, sizes: o.sizes ?? ["S", "M"] });
  return { id: p.id, variants: p.variants, n };
}

const api = (method: string, path: string, token?: string | null, body?: unknown) => app.api(method, path, { token, body });
const add = (token: string, merchandiseId: string, quantity?: number) => api("POST", "/cart/lines", token, quantity === undefined ? { merchandiseId } : { merchandiseId, quantity });
const line = (path: string) => `/cart/lines/${encodeURIComponent(path)}`;
const cartIdOf = async (userId: string) => (await app.database.db.user.findUniqueOrThrow({ where: { id: userId } })).cart_id;
const setVariant = (id: string, data: { price?: number; inventory_quantity?: number; availableForSale?: boolean }) => app.database.db.productVariant.update({ where: { id }, data });

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("who may use the cart", () => {
  const calls: [string, string, unknown?][] = [
    ["GET", "/cart"],
    ["POST", "/cart/lines", { merchandiseId: vgid(1, 0) }],
    ["PATCH", line("gid://shopify/CartLine/x?cart=y"), { quantity: 1 }],
    ["DELETE", line("gid://shopify/CartLine/x?cart=y")],
    ["PUT", "/cart/discount-codes", { codes: [] }],
    ["POST", "/users/refresh-cart"],
  ];
  it.each(calls)("%s %s without a session answers 401", async (method, path, body) => {
    const r = await api(method, path, null, body);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthenticated");
  });

  it("bad input answers 400 before the Storefront is asked", async () => {
    const u = await app.createUser();
    for (const body of [{ merchandiseId: vgid(1, 0), quantity: 0 }, { merchandiseId: vgid(1, 0), quantity: 100 }, { merchandiseId: vgid(1, 0), quantity: "many" }, { merchandiseId: "gid://shopify/Product/1" }, {}]) {
      const r = await api("POST", "/cart/lines", u.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api("PATCH", line("gid://shopify/CartLine/x?cart=y"), u.token, { quantity: -1 })).status).toBe(400);
    expect((await api("PUT", "/cart/discount-codes", u.token, { codes: ["A", "B", "C", "D", "E", "F"] })).status).toBe(400);
    expect(await cartIdOf(u.id)).toBeNull();
  });
});

describe.each([["local"], ["shopify"]] as const)("the cart on the %s Storefront", (adapter) => {
  let original: StorefrontCartApi;
  let shopify: ShopifyStorefrontServer | null = null;
  const sfCart = () => app.ctx.storefrontCart;

  beforeAll(() => {
    original = app.ctx.storefrontCart;
    if (adapter === "shopify") {
      shopify = createShopifyStorefrontServer({ db: app.database.db, appUrl: "http://localhost:3000" });
      app.ctx.storefrontCart = shopify.cartApi();
    }
  });
  afterAll(() => {
    app.ctx.storefrontCart = original;
  });

  it("a shopper without a cart gets an empty cart; the first add creates it and keeps its id on the user", async () => {
    const p = await product({ price: 50 });
    const u = await app.createUser();
    const empty = await api("GET", "/cart", u.token);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ id: null, checkoutUrl: null, totalQuantity: 0, lines: [], discountCodes: [], subtotal: null, total: null, warnings: [] });

    const r = await add(u.token, p.variants[0], 2);
    expect(r.status).toBe(200);
    expect(r.body.id).toMatch(/^gid:\/\/shopify\/Cart\//);
    expect(r.body.checkoutUrl).toContain("/checkout?cart=");
    expect(r.body.totalQuantity).toBe(2);
    expect(r.body.warnings).toEqual([]);
    expect(r.body.lines).toHaveLength(1);
    expect(r.body.lines[0]).toMatchObject({
      quantity: 2,
      issue: null,
      merchandise: { variantId: p.variants[0], productId: p.id, productTitle: `Cart test product ${p.n}`, variantTitle: "Black / S", availableForSale: true, price: { amount: "50.00" } },
      cost: { amountPerQuantity: { amount: "50.00" }, totalAmount: { amount: "100.00" } },
    });
    expect(r.body.subtotal.amount).toBe("100.00");
    expect(await cartIdOf(u.id)).toBe(r.body.id);
    // The price seen is kept on the line, hidden (underscore key).
    const stored = await sfCart().get(r.body.id);
    expect(stored!.lines[0].attributes).toEqual([{ key: "_price_seen", value: `50.00 ${stored!.lines[0].merchandise.price.currencyCode}` }]);

    const again = await api("GET", "/cart", u.token);
    expect(again.body).toEqual({ ...r.body, warnings: [] });
  });

  it("adding the same variant again adds to its line; another variant gets its own line", async () => {
    const p = await product();
    const u = await app.createUser();
    await add(u.token, p.variants[0], 1);
    const r = await add(u.token, p.variants[0]);
    expect(r.status).toBe(200);
    expect(r.body.lines.map((l: { quantity: number }) => l.quantity)).toEqual([2]);
    const two = await add(u.token, p.variants[1], 1);
    expect(two.body.lines.map((l: { merchandise: { variantId: string }; quantity: number }) => [l.merchandise.variantId, l.quantity])).toEqual([
      [p.variants[0], 2],
      [p.variants[1], 1],
    ]);
    expect(two.body.totalQuantity).toBe(3);

    // The price changed between two adds: still one line; the shopper saw the new price, so no issue.
    await setVariant(p.variants[1], { price: 58 });
    const changed = await add(u.token, p.variants[1], 1);
    expect(changed.status).toBe(200);
    expect(changed.body.lines.map((l: { merchandise: { variantId: string }; quantity: number; issue: unknown }) => [l.merchandise.variantId, l.quantity, l.issue])).toEqual([
      [p.variants[0], 2, null],
      [p.variants[1], 2, null],
    ]);
    const stored = await sfCart().get(changed.body.id);
    expect(stored!.lines[1].attributes).toEqual([{ key: "_price_seen", value: `58.00 ${stored!.lines[1].merchandise.price.currencyCode}` }]);
  });

  it("a line added elsewhere without a price stamp (the theme's own cart) is folded into one line and stamped when the variant is added here", async () => {
    const p = await product({ price: 30 });
    const u = await app.createUser();
    const first = await add(u.token, p.variants[1], 1);
    // Added straight to the Storefront cart, as the Online Store theme's cart would.
    const outside = await sfCart().addLines(first.body.id, [{ merchandiseId: p.variants[0], quantity: 2 }]);
    expect(outside.userErrors).toEqual([]);
    const seen = await api("GET", "/cart", u.token);
    expect(seen.body.lines.map((l: { quantity: number; issue: unknown }) => [l.quantity, l.issue])).toEqual([
      [1, null],
      [2, null],
    ]);
    const r = await add(u.token, p.variants[0], 1);
    expect(r.status).toBe(200);
    expect(r.body.lines.map((l: { merchandise: { variantId: string }; quantity: number }) => [l.merchandise.variantId, l.quantity])).toEqual([
      [p.variants[1], 1],
      [p.variants[0], 3],
    ]);
    const stored = await sfCart().get(first.body.id);
    expect(stored!.lines.map((l) => l.attributes.map((a) => a.key))).toEqual([["_price_seen"], ["_price_seen"]]);
  });

  it("an unknown variant or one of a product shoppers cannot see is 404; a sold-out one 409", async () => {
    const u = await app.createUser();
    const unknown = await add(u.token, "gid://shopify/ProductVariant/999999999");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Product variant not found");
    const draft = await product({ status: "draft" });
    expect((await add(u.token, draft.variants[0])).status).toBe(404);
    const soldOut = await product({ inventory: 0 });
    const r = await add(u.token, soldOut.variants[0]);
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe("This item is sold out");
    // Also into an existing cart.
    const p = await product();
    await add(u.token, p.variants[0]);
    expect((await add(u.token, soldOut.variants[0])).status).toBe(409);
    expect((await api("GET", "/cart", u.token)).body.lines).toHaveLength(1);
  });

  it("more than is left is capped to the stock, with a warning", async () => {
    const p = await product({ inventory: 3 });
    const u = await app.createUser();
    const r = await add(u.token, p.variants[0], 5);
    expect(r.status).toBe(200);
    expect(r.body.lines[0].quantity).toBe(3);
    expect(r.body.warnings).toEqual([{ code: "NOT_ENOUGH_STOCK", message: "Only 3 left: the quantity was reduced to 3" }]);
    // Adding more to the full line: still 3, warned again.
    const more = await add(u.token, p.variants[0], 2);
    expect(more.status).toBe(200);
    expect(more.body.lines.map((l: { quantity: number }) => l.quantity)).toEqual([3]);
    expect(more.body.warnings.map((w: { code: string }) => w.code)).toEqual(["NOT_ENOUGH_STOCK"]);
  });

  it("concurrent first adds of one shopper end in one cart holding every line", async () => {
    const p = await product({ sizes: ["S", "M", "L"] });
    const u = await app.createUser();
    const rs = await Promise.all(p.variants.map((v) => add(u.token, v, 1)));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    const cartId = await cartIdOf(u.id);
    expect(new Set(rs.map((r) => r.body.id))).toEqual(new Set([cartId]));
    const cart = await api("GET", "/cart", u.token);
    expect(cart.body.lines.map((l: { merchandise: { variantId: string } }) => l.merchandise.variantId).sort()).toEqual([...p.variants].sort());
    // Same variant added at once from two tabs: one line with both units.
    const q = await product({ sizes: ["S"] });
    const v = await app.createUser();
    await Promise.all([add(v.token, q.variants[0], 1), add(v.token, q.variants[0], 1)]);
    expect((await api("GET", "/cart", v.token)).body.lines.map((l: { quantity: number }) => l.quantity)).toEqual([2]);
  });

  it("lines change quantity and are removed; 0 removes; a line of someone else's cart is 404", async () => {
    const p = await product();
    const u = await app.createUser();
    const other = await app.createUser();
    const added = await add(u.token, p.variants[0], 2);
    const lineId = added.body.lines[0].id as string;

    const upd = await api("PATCH", line(lineId), u.token, { quantity: 4 });
    expect(upd.status).toBe(200);
    expect(upd.body.lines[0]).toMatchObject({ id: lineId, quantity: 4, cost: { totalAmount: { amount: "200.00" } } });
    const capped = await api("PATCH", line(lineId), u.token, { quantity: 9 });
    expect(capped.status).toBe(200);
    expect(capped.body.lines[0].quantity).toBe(5);
    expect(capped.body.warnings.map((w: { code: string }) => w.code)).toEqual(["NOT_ENOUGH_STOCK"]);

    // Someone else (with or without a cart of their own) cannot touch it.
    expect((await api("PATCH", line(lineId), other.token, { quantity: 1 })).status).toBe(404);
    expect((await api("DELETE", line(lineId), other.token)).status).toBe(404);
    await add(other.token, p.variants[1], 1);
    const notMine = await api("PATCH", line(lineId), other.token, { quantity: 1 });
    expect(notMine.status).toBe(404);
    expect(notMine.body.error.message).toBe("Cart line not found");
    expect((await api("DELETE", line(lineId), other.token)).status).toBe(404);
    expect((await api("DELETE", line("gid://shopify/CartLine/nope?cart=nope"), u.token)).status).toBe(404);
    expect((await api("GET", "/cart", u.token)).body.lines[0].quantity).toBe(5);

    const zero = await api("PATCH", line(lineId), u.token, { quantity: 0 });
    expect(zero.status).toBe(200);
    expect(zero.body.lines).toEqual([]);
    const again = await add(u.token, p.variants[0], 1);
    const del = await api("DELETE", line(again.body.lines[0].id), u.token);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ lines: [], totalQuantity: 0, subtotal: null });
    expect((await api("DELETE", line(again.body.lines[0].id), u.token)).status).toBe(404);
  });

  it("discount codes: an applicable code lowers the total; one that does not apply stays with a warning", async () => {
    const p = await product({ price: 100 });
    const u = await app.createUser();
    await add(u.token, p.variants[0], 1);
    const ok = await api("PUT", "/cart/discount-codes", u.token, { codes: ["welcome10"] });
    expect(ok.status).toBe(200);
    expect(ok.body.discountCodes).toEqual([{ code: "welcome10", applicable: true }]);
    expect(ok.body.subtotal.amount).toBe("100.00");
    expect(ok.body.total.amount).toBe("90.00");
    expect(ok.body.warnings).toEqual([]);

    const bad = await api("PUT", "/cart/discount-codes", u.token, { codes: ["NOPE"] });
    expect(bad.status).toBe(200);
    expect(bad.body.discountCodes).toEqual([{ code: "NOPE", applicable: false }]);
    expect(bad.body.total.amount).toBe("100.00");
    expect(bad.body.warnings).toEqual([{ code: "DISCOUNT_CODE_NOT_APPLICABLE", message: "Code NOPE does not apply to your cart" }]);

    const none = await api("PUT", "/cart/discount-codes", u.token, { codes: [] });
    expect(none.body.discountCodes).toEqual([]);
    // Without a cart, clearing codes changes nothing and creates no cart.
    const fresh = await app.createUser();
    expect((await api("PUT", "/cart/discount-codes", fresh.token, { codes: [] })).body.id).toBeNull();
    expect(await cartIdOf(fresh.id)).toBeNull();
    // A code entered before anything is added starts the cart with it; the next add keeps it.
    const early = await api("PUT", "/cart/discount-codes", fresh.token, { codes: ["WELCOME10"] });
    expect(early.status).toBe(200);
    expect(early.body.id).toBe(await cartIdOf(fresh.id));
    expect(early.body.discountCodes.map((d: { code: string }) => d.code)).toEqual(["WELCOME10"]);
    const then = await add(fresh.token, p.variants[0], 1);
    expect(then.body.id).toBe(early.body.id);
    expect(then.body.discountCodes).toEqual([{ code: "WELCOME10", applicable: true }]);
    expect(then.body.total.amount).toBe("90.00");
  });

  it("every answer shows each line's problem; refresh-cart drops sold-out lines, reduces lines to the stock left and flags a price change once", async () => {
    const p = await product({ price: 40, inventory: 5, sizes: ["S", "M", "L"] });
    const [keep, low, gone] = p.variants;
    const u = await app.createUser();
    await add(u.token, keep, 1);
    await add(u.token, low, 4);
    await add(u.token, gone, 1);
    await setVariant(keep, { price: 45 });
    await setVariant(low, { inventory_quantity: 2 });
    await setVariant(gone, { inventory_quantity: 0, availableForSale: false });

    const before = await api("GET", "/cart", u.token);
    const issues = Object.fromEntries(before.body.lines.map((l: { merchandise: { variantId: string }; issue: { code: string } | null }) => [l.merchandise.variantId, l.issue?.code ?? null]));
    expect(issues).toEqual({ [keep]: "PRICE_CHANGED", [low]: "NOT_ENOUGH_STOCK", [gone]: "SOLD_OUT" });

    const r = await api("POST", "/users/refresh-cart", u.token);
    expect(r.status).toBe(200);
    const byVariant = Object.fromEntries(r.body.changes.map((c: { variantId: string }) => [c.variantId, c]));
    expect(Object.keys(byVariant).sort()).toEqual([keep, low, gone].sort());
    expect(byVariant[gone]).toMatchObject({ code: "SOLD_OUT", action: "removed", previousQuantity: 1, quantity: 0 });
    expect(byVariant[low]).toMatchObject({ code: "NOT_ENOUGH_STOCK", action: "reduced", previousQuantity: 4, quantity: 2 });
    expect(byVariant[keep]).toMatchObject({ code: "PRICE_CHANGED", action: "flagged", previousPrice: { amount: "40.00" }, price: { amount: "45.00" }, quantity: 1 });
    expect(byVariant[keep].message).toMatch(/changed from 40\.00 \w+ to 45\.00/);
    const lines = r.body.cart.lines.map((l: { merchandise: { variantId: string }; quantity: number; issue: { code: string } | null }) => [l.merchandise.variantId, l.quantity, l.issue?.code ?? null]);
    expect(lines).toEqual([
      [keep, 1, "PRICE_CHANGED"],
      [low, 2, null],
    ]);

    // Reported once: the next refresh finds nothing, and the cart shows no issue any more.
    const second = await api("POST", "/users/refresh-cart", u.token);
    expect(second.body.changes).toEqual([]);
    expect(second.body.cart.lines.map((l: { issue: unknown }) => l.issue)).toEqual([null, null]);
    expect((await api("GET", "/cart", u.token)).body.lines.map((l: { issue: unknown }) => l.issue)).toEqual([null, null]);
  });

  it("refresh-cart without a cart answers an empty cart and no change", async () => {
    const u = await app.createUser();
    const r = await api("POST", "/users/refresh-cart", u.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ cart: { id: null, lines: [] }, changes: [] });
  });

  it("a cart the Storefront no longer knows (completed at checkout, or forged) answers empty and is forgotten; the next add starts a new one", async () => {
    const p = await product();
    const u = await app.createUser();
    const first = await add(u.token, p.variants[0]);
    expect(await completeLocalCart(app.database.db, first.body.id)).toBeTruthy();
    const r = await api("GET", "/cart", u.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: null, lines: [], totalQuantity: 0 });
    expect(await cartIdOf(u.id)).toBeNull();
    const next = await add(u.token, p.variants[0]);
    expect(next.body.id).not.toBe(first.body.id);

    // A forged id: every call behaves as without a cart.
    await app.database.db.user.update({ where: { id: u.id }, data: { cart_id: "gid://shopify/Cart/forged?key=nope" } });
    expect((await api("POST", "/users/refresh-cart", u.token)).body).toMatchObject({ cart: { id: null }, changes: [] });
    await app.database.db.user.update({ where: { id: u.id }, data: { cart_id: "gid://shopify/Cart/forged?key=nope" } });
    const recreated = await add(u.token, p.variants[1], 1);
    expect(recreated.status).toBe(200);
    expect(recreated.body.lines).toHaveLength(1);
    expect(await cartIdOf(u.id)).toBe(recreated.body.id);
  });

  it("a verified email becomes the cart's buyer identity; an unverified one does not", async () => {
    const p = await product();
    const verified = await app.createUser();
    await app.database.db.user.update({ where: { id: verified.id }, data: { email_verified_at: new Date() } });
    const unverified = await app.createUser();
    const a = await add(verified.token, p.variants[0]);
    const b = await add(unverified.token, p.variants[0]);
    expect((await sfCart().get(a.body.id))!.buyerIdentity.email).toBe(verified.email);
    expect((await sfCart().get(b.body.id))!.buyerIdentity.email).toBeNull();
    // Verified later: the next change sets it.
    await app.database.db.user.update({ where: { id: unverified.id }, data: { email_verified_at: new Date() } });
    await add(unverified.token, p.variants[1]);
    expect((await sfCart().get(b.body.id))!.buyerIdentity.email).toBe(unverified.email);
  });

  it("signing in keeps the guest's cart and adds the account's earlier lines to it; the guest token reaches nothing afterwards", async () => {
    const p = await product({ sizes: ["S", "M", "L"] });
    const [shared, guestOnly, accountOnly] = p.variants;
    const account = await app.createUser({ password: PASSWORD });
    await app.database.db.user.update({ where: { id: account.id }, data: { email_verified_at: new Date() } });
    await add(account.token, shared, 1);
    await add(account.token, accountOnly, 2);
    const previousCartId = await cartIdOf(account.id);

    const guest = (await api("POST", "/users/guest")).body.token as string;
    await add(guest, shared, 2);
    const guestCart = await add(guest, guestOnly, 1);
    const guestCartId = guestCart.body.id as string;

    const login = await api("POST", "/auth/login", guest, { email: account.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(await cartIdOf(account.id)).toBe(guestCartId);
    const merged = await api("GET", "/cart", account.token);
    expect(merged.body.id).toBe(guestCartId);
    const quantities = Object.fromEntries(merged.body.lines.map((l: { merchandise: { variantId: string }; quantity: number }) => [l.merchandise.variantId, l.quantity]));
    expect(quantities).toEqual({ [shared]: 3, [guestOnly]: 1, [accountOnly]: 2 });
    expect(merged.body.lines.every((l: { issue: unknown }) => l.issue === null)).toBe(true);
    expect((await sfCart().get(guestCartId))!.buyerIdentity.email).toBe(account.email);
    const meta = (await app.database.db.user.findUniqueOrThrow({ where: { id: account.id } })).metadata as { previousCartId?: string };
    expect(meta.previousCartId).toBe(previousCartId);

    // The guest is gone: its token reaches no cart.
    expect((await api("GET", "/cart", guest)).status).toBe(401);
    expect((await add(guest, shared)).status).toBe(401);
  });

  it("a guest without a cart signing in leaves the account's cart as it was", async () => {
    const p = await product();
    const account = await app.createUser({ password: PASSWORD });
    const before = await add(account.token, p.variants[0], 1);
    const guest = (await api("POST", "/users/guest")).body.token as string;
    expect((await api("POST", "/auth/login", guest, { email: account.email, password: PASSWORD })).status).toBe(200);
    const after = await api("GET", "/cart", account.token);
    expect(after.body.id).toBe(before.body.id);
    expect(after.body.lines.map((l: { quantity: number }) => l.quantity)).toEqual([1]);
  });

  it("a guest whose cart was already checked out signs in: the account goes back to its earlier cart", async () => {
    const p = await product();
    const account = await app.createUser({ password: PASSWORD });
    const earlier = await add(account.token, p.variants[0], 1);
    const guest = (await api("POST", "/users/guest")).body.token as string;
    const guestCart = await add(guest, p.variants[1], 1);
    await completeLocalCart(app.database.db, guestCart.body.id);
    expect((await api("POST", "/auth/login", guest, { email: account.email, password: PASSWORD })).status).toBe(200);
    const cart = await api("GET", "/cart", account.token);
    expect(cart.body.id).toBe(earlier.body.id);
    expect(cart.body.lines.map((l: { merchandise: { variantId: string } }) => l.merchandise.variantId)).toEqual([p.variants[0]]);
  });

  it("the explicit merge endpoint merges carts the same way; a guest cannot call it", async () => {
    const p = await product();
    const account = await app.createUser({ password: PASSWORD });
    await add(account.token, p.variants[0], 1);
    const guest = (await api("POST", "/users/guest")).body.token as string;
    const guestCart = await add(guest, p.variants[1], 1);
    expect((await api("POST", "/users/merge-guest-into-me", guest, { guestToken: guest })).status).toBe(403);
    const r = await api("POST", "/users/merge-guest-into-me", account.token, { guestToken: guest });
    expect(r.status).toBe(200);
    expect(r.body.merged.cartMoved).toBe(true);
    const cart = await api("GET", "/cart", account.token);
    expect(cart.body.id).toBe(guestCart.body.id);
    expect(cart.body.lines.map((l: { merchandise: { variantId: string } }) => l.merchandise.variantId).sort()).toEqual([...p.variants].sort());
  });

  if (adapter === "shopify") {
    it("a Storefront outage answers 503 with a sentence, and the cart works again afterwards", async () => {
      const p = await product();
      const u = await app.createUser();
      await add(u.token, p.variants[0]);
      shopify!.failNext(1, 500);
      const r = await api("GET", "/cart", u.token);
      expect(r.status).toBe(503);
      expect(r.body.error.message).toBe("The cart is unavailable right now, please try again");
      expect((await api("GET", "/cart", u.token)).body.lines).toHaveLength(1);
    });

    it("a Storefront failure during the sign-in merge does not fail the sign-in: the account keeps the guest's cart", async () => {
      const p = await product();
      const account = await app.createUser({ password: PASSWORD });
      const earlier = await add(account.token, p.variants[0], 1);
      const guest = (await api("POST", "/users/guest")).body.token as string;
      const guestCart = await add(guest, p.variants[1], 1);
      shopify!.failNext(5, 500);
      const login = await api("POST", "/auth/login", guest, { email: account.email, password: PASSWORD });
      shopify!.failNext(0);
      expect(login.status).toBe(200);
      expect(await cartIdOf(account.id)).toBe(guestCart.body.id);
      const meta = (await app.database.db.user.findUniqueOrThrow({ where: { id: account.id } })).metadata as { previousCartId?: string };
      expect(meta.previousCartId).toBe(earlier.body.id);
    });

    it("every document sent to Shopify was valid against the 2025-07 schema and carried the Storefront token", () => {
      const s = shopify!;
      const sent = s.requests.filter((r) => r.status !== 500);
      expect(sent.length).toBeGreaterThan(20);
      expect(sent.filter((r) => r.errors.length > 0)).toEqual([]);
      expect(s.requests.every((r) => r.token === s.token)).toBe(true);
      expect(new Set(s.requests.map((r) => new URL(r.url).pathname))).toEqual(new Set(["/api/2025-07/graphql.json"]));
      expect(new Set(sent.map((r) => r.operationName))).toEqual(new Set(["CartById", "CartCreate", "CartLinesAdd", "CartLinesUpdate", "CartLinesRemove", "CartDiscountCodesUpdate", "CartBuyerIdentityUpdate"]));
    });

    it("the Shopify-like server refuses a wrong token and an invalid document, as Shopify does", async () => {
      const s = shopify!;
      const wrong = await s.fetch(`https://${s.shop}/api/2025-07/graphql.json`, { method: "POST", headers: { "content-type": "application/json", "X-Shopify-Storefront-Access-Token": "nope" }, body: JSON.stringify({ query: "{ shop { name } }" }) });
      expect(wrong.status).toBe(401);
      const invalidDoc = await s.fetch(`https://${s.shop}/api/2025-07/graphql.json`, { method: "POST", headers: { "content-type": "application/json", "X-Shopify-Storefront-Access-Token": s.token }, body: JSON.stringify({ query: "{ cart(id: 1) { nope } }" }) });
      expect(invalidDoc.status).toBe(400);
      const r = await s.cartApi({ token: "nope" }).get("gid://shopify/Cart/x?key=y").then(
        () => "ok",
        (e: Error) => e.name,
      );
      expect(r).toBe("StorefrontCartError");
      s.requests.splice(-3);
    });
  }
});
