/**
 * The local Storefront cart (issue 15, embedded default): the cart documents through the typed
 * cart client (createStorefrontCartApi) against the local endpoint, in-process and over the HTTP
 * route, with the store's rules — merge, stock warnings, visibility, discount codes, bearer ids,
 * completion by the local checkout, concurrent adds, live prices.
 */
import { shopifyAdapterEnv } from "../helpers/shopify-webhook";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { createTestApp, type TestApp } from "../helpers/app";
import { HOSTILE_STRINGS } from "../helpers/zod-arbitrary";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { localStorefrontApiUrl } from "../../app/storefront-api/client";
import { createStorefrontCartApi, StorefrontCartError, type StorefrontCartApi, type SfCart } from "../../app/storefront-api/cart-client";
import { CART_DOCUMENTS } from "../../app/storefront-api/cart-documents";
import { handleStorefrontGraphQL } from "../../app/storefront-api/local-endpoint.server";
import { completeLocalCart, lockLocalCart, readLocalCart } from "../../app/storefront-api/local-cart.server";
import { storefrontCartFor } from "../../app/storefront-api/reader.server";

type RouteFn = (args: ActionFunctionArgs) => Promise<Response> | Response;

const ORIGIN = "http://localhost:3000";
const APP_URL = "https://shop.example";
const product = (n: number) => `gid://shopify/Product/${n}`;
const variant = (n: number) => `gid://shopify/ProductVariant/${n}`;

// Shirt: V10 20.00 (compare-at 30.00), 5 in stock; V11 sold out. Bag: V20 60.00, 2 in stock.
// Hidden: a draft product (V30). Scarf: V40 12.50, plenty.
const SHIRT_OK = variant(10);
const SHIRT_SOLD_OUT = variant(11);
const BAG = variant(20);
const HIDDEN = variant(30);
const SCARF = variant(40);

let app: TestApp;
let cart: StorefrontCartApi;
let action: RouteFn;

async function seedProduct(n: number, title: string, status: "active" | "draft", variants: { n: number; price: number; compareAt?: number; inventory: number }[]) {
  await app.database.db.product.create({
    data: {
      id: product(n),
      title,
      handle: title.toLowerCase().replace(/\s+/g, "-"),
      vendor: "Studio North",
      availableForSale: variants.some((v) => v.inventory > 0),
      priceMin: Math.min(...variants.map((v) => v.price)),
      priceMax: Math.max(...variants.map((v) => v.price)),
      currencyCode: "EUR",
      status,
      featuredImageUrl: `https://cdn.example.com/${n}.jpg`,
      variants: {
        create: variants.map((v, k) => ({
          id: variant(v.n),
          title: `Size ${k}`,
          sku: `SKU-${v.n}`,
          price: v.price,
          compareAtPrice: v.compareAt ?? null,
          currencyCode: "EUR",
          inventory_quantity: v.inventory,
          availableForSale: v.inventory > 0,
          selectedOptions: [{ name: "Size", value: `${k}` }],
          position: k,
        })),
      },
    },
  });
}

beforeAll(async () => {
  app = await createTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  action = ((await import("../../app/routes/api.storefront.graphql")) as unknown as { action: RouteFn }).action;
  cart = createStorefrontCartApi({
    storeDomain: ORIGIN,
    apiUrl: localStorefrontApiUrl(ORIGIN),
    customFetchApi: (url, init) => handleStorefrontGraphQL(new Request(url, init), { db: app.database.db, appUrl: APP_URL }),
  });
  await seedProduct(1, "Linen Shirt", "active", [
    { n: 10, price: 20, compareAt: 30, inventory: 5 },
    { n: 11, price: 20, inventory: 0 },
  ]);
  await seedProduct(2, "Canvas Bag", "active", [{ n: 20, price: 60, inventory: 2 }]);
  await seedProduct(3, "Draft Hoodie", "draft", [{ n: 30, price: 40, inventory: 10 }]);
  await seedProduct(4, "Silk Scarf", "active", [{ n: 40, price: 12.5, inventory: 1000 }]);
});

afterAll(async () => {
  await app?.close();
});

async function newCart(lines: { merchandiseId: string; quantity: number }[] = []): Promise<SfCart> {
  const res = await cart.create({ lines });
  expect(res.userErrors).toEqual([]);
  return res.cart!;
}

const qtyOf = (c: SfCart | null) => Object.fromEntries((c?.lines ?? []).map((l) => [l.merchandise.id, l.quantity]));

describe("local cart: create and read", () => {
  it("creates a cart with a Shopify-shaped bearer id, a local checkout URL and costs in the store's currency", async () => {
    const res = await cart.create({ lines: [{ merchandiseId: SHIRT_OK, quantity: 2 }], note: "Gift wrap please" });
    expect(res.userErrors).toEqual([]);
    expect(res.warnings).toEqual([]);
    const c = res.cart!;
    expect(c.id).toMatch(/^gid:\/\/shopify\/Cart\/[A-Za-z0-9_-]+\?key=[A-Za-z0-9_-]+$/);
    expect(c.checkoutUrl).toBe(`${APP_URL}/checkout?cart=${encodeURIComponent(c.id)}`);
    expect(c.totalQuantity).toBe(2);
    expect(c.note).toBe("Gift wrap please");
    expect(c.cost).toEqual({
      subtotalAmount: { amount: "40.00", currencyCode: "EUR" },
      totalAmount: { amount: "40.00", currencyCode: "EUR" },
      checkoutChargeAmount: { amount: "40.00", currencyCode: "EUR" },
    });
    expect(c.lines).toHaveLength(1);
    const line = c.lines[0];
    expect(line.id).toMatch(/^gid:\/\/shopify\/CartLine\/[0-9a-f-]{36}\?cart=/);
    expect(line.cost).toEqual({
      amountPerQuantity: { amount: "20.00", currencyCode: "EUR" },
      compareAtAmountPerQuantity: { amount: "30.00", currencyCode: "EUR" },
      totalAmount: { amount: "40.00", currencyCode: "EUR" },
    });
    expect(line.merchandise).toMatchObject({
      id: SHIRT_OK,
      sku: "SKU-10",
      availableForSale: true,
      currentlyNotInStock: false,
      quantityAvailable: 5,
      price: { amount: "20.00", currencyCode: "EUR" },
      image: null,
      selectedOptions: [{ name: "Size", value: "0" }],
      product: { id: product(1), title: "Linen Shirt", handle: "linen-shirt", vendor: "Studio North" },
    });
    const again = await cart.get(c.id);
    expect(again).toEqual(c);
  });

  it("an empty cart reads with zero totals; the server's storefrontCartFor reaches the same store", async () => {
    const empty = await newCart();
    expect(empty.totalQuantity).toBe(0);
    expect(empty.lines).toEqual([]);
    expect(empty.cost.totalAmount).toEqual({ amount: "0.00", currencyCode: "EUR" });
    const server = storefrontCartFor({ config: app.ctx.config, db: app.database.db, appUrl: "https://app.example/" });
    const read = await server.get(empty.id);
    expect(read?.id).toBe(empty.id);
    expect(read?.checkoutUrl).toBe(`https://app.example/checkout?cart=${encodeURIComponent(empty.id)}`);
  });

  it("a forged key, an unknown token or a malformed id reads as null; mutations on them are a cartId user error", async () => {
    const c = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    const forged = c.id.replace(/key=.*/, "key=AAAAAAAAAAAAAAAAAAAAAAAA");
    const unknown = c.id.replace(/Cart\/[^?]+/, "Cart/unknowntoken123");
    for (const id of [forged, unknown, "gid://shopify/Cart/nope", "not-an-id"]) {
      expect(await cart.get(id)).toBeNull();
      const res = await cart.addLines(id, [{ merchandiseId: SCARF, quantity: 1 }]);
      expect(res.cart).toBeNull();
      expect(res.userErrors).toEqual([{ field: ["cartId"], message: "The specified cart does not exist.", code: "INVALID" }]);
    }
    expect(qtyOf(await cart.get(c.id))).toEqual({ [SCARF]: 1 });
  });
});

describe("local cart: lines", () => {
  it("the same variant added twice merges into one line; other attributes make another line", async () => {
    const c = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    const merged = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 2 }]);
    expect(merged.userErrors).toEqual([]);
    expect(merged.cart!.lines).toHaveLength(1);
    expect(merged.cart!.lines[0].id).toBe(c.lines[0].id);
    expect(merged.cart!.lines[0].quantity).toBe(3);

    const withAttrs = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 1, attributes: [{ key: "Monogram", value: "AB" }] }]);
    expect(withAttrs.cart!.lines.map((l) => [l.quantity, l.attributes])).toEqual([
      [3, []],
      [1, [{ key: "Monogram", value: "AB" }]],
    ]);
    const again = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 4, attributes: [{ key: "Monogram", value: "AB" }] }]);
    expect(again.cart!.lines.map((l) => l.quantity)).toEqual([3, 5]);
    expect(again.cart!.totalQuantity).toBe(8);
    expect(again.cart!.cost.subtotalAmount.amount).toBe("100.00");
  });

  it("updates a quantity, removes a line by quantity 0 or by id; an unknown line id changes nothing", async () => {
    const c = await newCart([
      { merchandiseId: SCARF, quantity: 1 },
      { merchandiseId: SHIRT_OK, quantity: 1 },
    ]);
    const [scarfLine, shirtLine] = c.lines;
    const updated = await cart.updateLines(c.id, [{ id: scarfLine.id, quantity: 4 }]);
    expect(updated.userErrors).toEqual([]);
    expect(qtyOf(updated.cart)).toEqual({ [SCARF]: 4, [SHIRT_OK]: 1 });

    const other = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    for (const badId of [other.lines[0].id, "gid://shopify/CartLine/nope", scarfLine.id.replace(/[0-9a-f]{4}\?/, "ffff?")]) {
      const bad = await cart.updateLines(c.id, [{ id: badId, quantity: 9 }]);
      expect(bad.userErrors).toEqual([{ field: ["lines", "0", "id"], message: `The merchandise line with id ${badId} does not exist.`, code: "INVALID_MERCHANDISE_LINE" }]);
      expect(qtyOf(bad.cart)).toEqual({ [SCARF]: 4, [SHIRT_OK]: 1 });
    }
    const negative = await cart.updateLines(c.id, [{ id: scarfLine.id, quantity: -1 }]);
    expect(negative.userErrors[0]).toMatchObject({ field: ["lines", "0", "quantity"], code: "LESS_THAN" });

    const zero = await cart.updateLines(c.id, [{ id: scarfLine.id, quantity: 0 }]);
    expect(qtyOf(zero.cart)).toEqual({ [SHIRT_OK]: 1 });
    const badRemove = await cart.removeLines(c.id, ["gid://shopify/CartLine/nope"]);
    expect(badRemove.userErrors[0]).toMatchObject({ field: ["lineIds", "0"], code: "INVALID_MERCHANDISE_LINE" });
    const removed = await cart.removeLines(c.id, [shirtLine.id]);
    expect(removed.userErrors).toEqual([]);
    expect(removed.cart!.lines).toEqual([]);
    expect(removed.cart!.totalQuantity).toBe(0);
  });

  it("an update may switch a line's variant; a line that becomes the same as another merges into it", async () => {
    const c = await newCart([
      { merchandiseId: SCARF, quantity: 2 },
      { merchandiseId: SHIRT_OK, quantity: 1 },
    ]);
    const [scarfLine, shirtLine] = c.lines;
    const switched = await cart.updateLines(c.id, [{ id: shirtLine.id, merchandiseId: SCARF }]);
    expect(switched.userErrors).toEqual([]);
    expect(switched.cart!.lines.map((l) => [l.id, l.merchandise.id, l.quantity])).toEqual([[scarfLine.id, SCARF, 3]]);
    const toSoldOut = await cart.updateLines(c.id, [{ id: scarfLine.id, merchandiseId: SHIRT_SOLD_OUT }]);
    expect(toSoldOut.warnings.map((w) => [w.code, w.target])).toEqual([["MERCHANDISE_OUT_OF_STOCK", scarfLine.id]]);
    expect(qtyOf(toSoldOut.cart)).toEqual({ [SCARF]: 3 });
    const toHidden = await cart.updateLines(c.id, [{ id: scarfLine.id, merchandiseId: HIDDEN }]);
    expect(toHidden.userErrors).toEqual([{ field: ["lines", "0", "merchandiseId"], message: `The merchandise with id ${HIDDEN} does not exist.`, code: "INVALID" }]);
  });

  it("a cart holds at most 500 lines (CART_TOO_LARGE)", async () => {
    const variants = Array.from({ length: 501 }, (_, i) => ({ n: 100_000 + i, price: 1, inventory: 10 }));
    await seedProduct(6, "Button Pack", "active", variants);
    const c = await newCart([{ merchandiseId: variant(100_000), quantity: 1 }]);
    const token = /Cart\/([^?]+)/.exec(c.id)![1];
    await app.database.db.localCartLine.deleteMany({ where: { cart_id: token } });
    await app.database.db.localCartLine.createMany({ data: variants.slice(0, 500).map((v, i) => ({ cart_id: token, variant_id: variant(v.n), quantity: 1, position: i })) });
    // The client reads lines past the first page (100) with CartLinesPage.
    const full = await cart.get(c.id);
    expect(full!.totalQuantity).toBe(500);
    expect(full!.lines).toHaveLength(500);
    expect(new Set(full!.lines.map((l) => l.id)).size).toBe(500);
    const res = await cart.addLines(c.id, [{ merchandiseId: variant(100_500), quantity: 1 }]);
    expect(res.userErrors).toEqual([{ field: ["lines"], message: "A cart holds at most 500 lines.", code: "CART_TOO_LARGE" }]);
    // A line already in the cart can still grow.
    const grow = await cart.addLines(c.id, [{ merchandiseId: variant(100_000), quantity: 1 }]);
    expect(grow.userErrors).toEqual([]);
    expect(grow.cart!.totalQuantity).toBe(501);
  });

  it("a quantity below 1 or above the limit on add is a user error and adds nothing", async () => {
    const c = await newCart();
    const zero = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 0 }]);
    expect(zero.userErrors).toEqual([{ field: ["lines", "0", "quantity"], message: "The quantity must be at least 1.", code: "LESS_THAN" }]);
    const huge = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 100_000 }]);
    expect(huge.userErrors[0]).toMatchObject({ field: ["lines", "0", "quantity"], code: "MAXIMUM_EXCEEDED" });
    expect((await cart.get(c.id))!.lines).toEqual([]);
  });

  it("merchandise of a hidden product or an unknown variant is refused with a clear user error", async () => {
    const c = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    for (const id of [HIDDEN, variant(999), product(1)]) {
      const res = await cart.addLines(c.id, [{ merchandiseId: id, quantity: 1 }]);
      expect(res.userErrors).toEqual([{ field: ["lines", "0", "merchandiseId"], message: `The merchandise with id ${id} does not exist.`, code: "INVALID" }]);
      expect(qtyOf(res.cart)).toEqual({ [SCARF]: 1 });
    }
    // One bad line in a batch: nothing of the batch is added. A create with it creates no cart.
    const batch = await cart.addLines(c.id, [
      { merchandiseId: SHIRT_OK, quantity: 1 },
      { merchandiseId: HIDDEN, quantity: 1 },
    ]);
    expect(batch.userErrors.map((e) => e.field)).toEqual([["lines", "1", "merchandiseId"]]);
    expect(qtyOf(batch.cart)).toEqual({ [SCARF]: 1 });
    const created = await cart.create({ lines: [{ merchandiseId: HIDDEN, quantity: 1 }] });
    expect(created.cart).toBeNull();
    expect(created.userErrors.map((e) => e.field)).toEqual([["input", "lines", "0", "merchandiseId"]]);
  });

  it("a cart has one currency: merchandise priced in another is refused", async () => {
    await app.database.db.product.create({
      data: { id: product(7), title: "Dollar Cap", handle: "dollar-cap", currencyCode: "USD", variants: { create: [{ id: variant(70), title: "One size", price: 9, currencyCode: "USD", inventory_quantity: 5, availableForSale: true }] } },
    });
    const c = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    const res = await cart.addLines(c.id, [{ merchandiseId: variant(70), quantity: 1 }]);
    expect(res.userErrors).toEqual([{ field: ["lines", "0", "merchandiseId"], message: `The merchandise with id ${variant(70)} is priced in USD, the cart in EUR.`, code: "INVALID" }]);
    await app.database.db.product.delete({ where: { id: product(7) } });
  });

  it("a line whose product is hidden later drops out of the cart and its totals", async () => {
    await seedProduct(5, "Soon Hidden Belt", "active", [{ n: 50, price: 15, inventory: 9 }]);
    const c = await newCart([
      { merchandiseId: variant(50), quantity: 1 },
      { merchandiseId: SCARF, quantity: 1 },
    ]);
    expect(c.cost.subtotalAmount.amount).toBe("27.50");
    await app.database.db.product.update({ where: { id: product(5) }, data: { status: "archived" } });
    const after = await cart.get(c.id);
    expect(qtyOf(after)).toEqual({ [SCARF]: 1 });
    expect(after!.cost.subtotalAmount.amount).toBe("12.50");
  });
});

describe("local cart: stock", () => {
  it("a sold-out variant is not added (MERCHANDISE_OUT_OF_STOCK)", async () => {
    const c = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    const res = await cart.addLines(c.id, [{ merchandiseId: SHIRT_SOLD_OUT, quantity: 1 }]);
    expect(res.userErrors).toEqual([]);
    expect(res.warnings).toEqual([{ code: "MERCHANDISE_OUT_OF_STOCK", target: SHIRT_SOLD_OUT, message: "The product 'Linen Shirt' is already sold out." }]);
    expect(qtyOf(res.cart)).toEqual({ [SCARF]: 1 });
    const created = await cart.create({ lines: [{ merchandiseId: SHIRT_SOLD_OUT, quantity: 1 }] });
    expect(created.cart!.lines).toEqual([]);
    expect(created.warnings.map((w) => w.code)).toEqual(["MERCHANDISE_OUT_OF_STOCK"]);
  });

  it("more than is left is capped to what is left (MERCHANDISE_NOT_ENOUGH_STOCK), on add, merge and update", async () => {
    const c = await newCart();
    const res = await cart.addLines(c.id, [{ merchandiseId: BAG, quantity: 5 }]);
    expect(res.warnings).toEqual([{ code: "MERCHANDISE_NOT_ENOUGH_STOCK", target: BAG, message: "Only 2 items were added to your cart due to availability." }]);
    expect(qtyOf(res.cart)).toEqual({ [BAG]: 2 });
    const line = res.cart!.lines[0];
    expect(line.merchandise.quantityAvailable).toBe(2);

    const more = await cart.addLines(c.id, [{ merchandiseId: BAG, quantity: 1 }]);
    expect(more.warnings).toEqual([{ code: "MERCHANDISE_NOT_ENOUGH_STOCK", target: line.id, message: "No more of 'Canvas Bag' could be added: your cart already has all 2 items in stock." }]);
    expect(qtyOf(more.cart)).toEqual({ [BAG]: 2 });

    await cart.updateLines(c.id, [{ id: line.id, quantity: 1 }]);
    const up = await cart.updateLines(c.id, [{ id: line.id, quantity: 7 }]);
    expect(up.warnings.map((w) => [w.code, w.target])).toEqual([["MERCHANDISE_NOT_ENOUGH_STOCK", line.id]]);
    expect(qtyOf(up.cart)).toEqual({ [BAG]: 2 });
  });
});

describe("local cart: discount codes and buyer identity", () => {
  it("WELCOME10 (any case) takes 10% off; an unknown code stays with applicable false; codes can be cleared", async () => {
    const c = await newCart([
      { merchandiseId: SCARF, quantity: 1 },
      { merchandiseId: SHIRT_OK, quantity: 1 },
    ]);
    expect(c.cost.subtotalAmount.amount).toBe("32.50");
    const res = await cart.updateDiscountCodes(c.id, ["welcome10", "NOPE"]);
    expect(res.userErrors).toEqual([]);
    expect(res.cart!.discountCodes).toEqual([
      { code: "welcome10", applicable: true },
      { code: "NOPE", applicable: false },
    ]);
    expect(res.cart!.cost.subtotalAmount.amount).toBe("32.50");
    expect(res.cart!.cost.totalAmount.amount).toBe("29.25");
    expect(res.cart!.cost.checkoutChargeAmount.amount).toBe("29.25");

    const cleared = await cart.updateDiscountCodes(c.id, []);
    expect(cleared.cart!.discountCodes).toEqual([]);
    expect(cleared.cart!.cost.totalAmount.amount).toBe("32.50");
  });

  it("SAVE5 needs a subtotal of 50: not applicable below, applicable once reached; codes can be given at create", async () => {
    const c = (await cart.create({ lines: [{ merchandiseId: SCARF, quantity: 1 }], discountCodes: ["SAVE5"] })).cart!;
    expect(c.discountCodes).toEqual([{ code: "SAVE5", applicable: false }]);
    expect(c.cost.totalAmount.amount).toBe("12.50");
    const more = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 3 }]);
    expect(more.cart!.discountCodes).toEqual([{ code: "SAVE5", applicable: true }]);
    expect(more.cart!.cost.totalAmount.amount).toBe("45.00");
  });

  it("too many codes is a user error", async () => {
    const c = await newCart();
    const res = await cart.updateDiscountCodes(c.id, Array.from({ length: 11 }, (_, i) => `CODE${i}`));
    expect(res.userErrors[0]).toMatchObject({ field: ["discountCodes"], code: "MAXIMUM_EXCEEDED" });
  });

  it("buyer identity: email and country are kept; an invalid email is a user error", async () => {
    const c = (await cart.create({ buyerIdentity: { email: "ana@example.com", countryCode: "DE" } })).cart!;
    expect(c.buyerIdentity).toEqual({ email: "ana@example.com", countryCode: "DE", customerId: null });
    const res = await cart.updateBuyerIdentity(c.id, { email: "bo@example.com" });
    expect(res.cart!.buyerIdentity).toEqual({ email: "bo@example.com", countryCode: "DE", customerId: null });
    const bad = await cart.updateBuyerIdentity(c.id, { email: "not an email" });
    expect(bad.userErrors).toEqual([{ field: ["buyerIdentity", "email"], message: "Email is invalid", code: "INVALID" }]);
    expect(bad.cart!.buyerIdentity.email).toBe("bo@example.com");
  });
});

describe("local cart: checkout hand-off, concurrency, live prices", () => {
  it("readLocalCart prices the cart for the checkout; completeLocalCart completes it once and it then reads as absent", async () => {
    const c = (await cart.create({ lines: [{ merchandiseId: SHIRT_OK, quantity: 2 }], discountCodes: ["WELCOME10"] })).cart!;
    const state = await readLocalCart(app.database.db, c.id);
    expect(state).toMatchObject({ id: c.id, currencyCode: "EUR", subtotalCents: 4000, discountCents: 400, totalCents: 3600, totalQuantity: 2, appliedDiscountCode: "WELCOME10" });
    expect(state!.lines).toEqual([expect.objectContaining({ id: c.lines[0].id, variantId: SHIRT_OK, productId: product(1), quantity: 2, unitCents: 2000, totalCents: 4000, quantityAvailable: 5 })]);
    expect(await readLocalCart(app.database.db, c.id.replace(/key=.*/, "key=AAAAAAAAAAAAAAAAAAAAAAAA"))).toBeNull();

    expect(await completeLocalCart(app.database.db, c.id.replace(/key=.*/, "key=AAAAAAAAAAAAAAAAAAAAAAAA"))).toBe(false);
    expect(await completeLocalCart(app.database.db, c.id)).toBe(true);
    expect(await completeLocalCart(app.database.db, c.id)).toBe(false);
    expect(await cart.get(c.id)).toBeNull();
    expect(await readLocalCart(app.database.db, c.id)).toBeNull();
    const add = await cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 1 }]);
    expect(add.userErrors[0]).toMatchObject({ field: ["cartId"], code: "INVALID" });
  });

  it("a checkout's transaction can lock, read and complete the cart; two completions at once: exactly one wins", async () => {
    const c = await newCart([{ merchandiseId: SCARF, quantity: 3 }]);
    const read = await app.database.db.$transaction(async (tx) => {
      expect(await lockLocalCart(tx, c.id)).toBe(true);
      const state = await readLocalCart(tx, c.id);
      expect(await completeLocalCart(tx, c.id)).toBe(true);
      return state;
    });
    expect(read!.totalCents).toBe(3750);
    expect(await cart.get(c.id)).toBeNull();

    const d = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    const results = await Promise.all([completeLocalCart(app.database.db, d.id), completeLocalCart(app.database.db, d.id), cart.addLines(d.id, [{ merchandiseId: SCARF, quantity: 1 }])]);
    expect(results.slice(0, 2).filter(Boolean)).toHaveLength(1);
  });

  it("concurrent adds to one cart: every add lands, the same variant merges into one line with every quantity", async () => {
    const c = await newCart();
    await Promise.all([
      ...Array.from({ length: 6 }, () => cart.addLines(c.id, [{ merchandiseId: SCARF, quantity: 1 }])),
      ...Array.from({ length: 3 }, () => cart.addLines(c.id, [{ merchandiseId: SHIRT_OK, quantity: 1 }])),
    ]);
    const after = await cart.get(c.id);
    expect(after!.lines).toHaveLength(2);
    expect(qtyOf(after)).toEqual({ [SCARF]: 6, [SHIRT_OK]: 3 });
  });

  it("a price change in the catalogue shows on the next read", async () => {
    const c = await newCart([{ merchandiseId: SCARF, quantity: 2 }]);
    expect(c.cost.subtotalAmount.amount).toBe("25.00");
    await app.database.db.productVariant.update({ where: { id: SCARF }, data: { price: 14 } });
    try {
      const after = await cart.get(c.id);
      expect(after!.lines[0].cost.amountPerQuantity.amount).toBe("14.00");
      expect(after!.cost.subtotalAmount.amount).toBe("28.00");
    } finally {
      await app.database.db.productVariant.update({ where: { id: SCARF }, data: { price: 12.5 } });
    }
  });
});

describe("local cart over HTTP (POST /api/storefront/graphql)", () => {
  const post = (body: unknown) =>
    action({ request: new Request(localStorefrontApiUrl(ORIGIN), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), params: {}, context: {} } as ActionFunctionArgs);

  it("the route answers the cart documents; checkoutUrl uses the configured app URL", async () => {
    const res = await post({ query: CART_DOCUMENTS.CartCreate, variables: { input: { lines: [{ merchandiseId: SCARF, quantity: 2 }] } } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { cartCreate: { cart: { id: string; checkoutUrl: string; totalQuantity: number }; userErrors: unknown[] } } };
    const created = body.data.cartCreate;
    expect(created.userErrors).toEqual([]);
    expect(created.cart.totalQuantity).toBe(2);
    expect(created.cart.checkoutUrl).toMatch(/\/checkout\?cart=gid%3A%2F%2Fshopify%2FCart%2F/);
    const read = await post({ query: CART_DOCUMENTS.CartById, variables: { id: created.cart.id } });
    expect(((await read.json()) as { data: { cart: { id: string } } }).data.cart.id).toBe(created.cart.id);
  });

  it("answers 404 when the app runs on Shopify: carts are the shop's, none are stored here", async () => {
    const shopifyApp = await createTestApp({ env: shopifyAdapterEnv() });
    try {
      setAppContext(shopifyApp.ctx);
      const res = await post({ query: CART_DOCUMENTS.CartCreate, variables: { input: { lines: [{ merchandiseId: SCARF, quantity: 1 }] } } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { errors: { message: string }[] }).errors[0].message).toMatch(/embedded default only/);
      expect(await shopifyApp.database.db.localCart.count()).toBe(0);
    } finally {
      setAppContext(app.ctx);
      await shopifyApp.close();
    }
  });

  it("cartCreate without input creates an empty cart", async () => {
    const res = await post({ query: `mutation { cartCreate { cart { id totalQuantity } userErrors { code } } }` });
    const body = (await res.json()) as { data: { cartCreate: { cart: { id: string; totalQuantity: number }; userErrors: unknown[] } } };
    expect(body.data.cartCreate.userErrors).toEqual([]);
    expect(body.data.cartCreate.cart.totalQuantity).toBe(0);
  });

  it("a mutation the local endpoint does not answer is refused; a bad document is a 400", async () => {
    const other = await post({ query: `mutation { customerAccessTokenCreate(input: { email: "a@b.c", password: "x" }) { customerUserErrors { message } } }` });
    expect(other.status).toBe(200);
    expect(((await other.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe("NOT_SUPPORTED");
    const bad = await post({ query: `mutation { cartCreate(input: {}) { cart { nope } } }` });
    expect(bad.status).toBe(400);
  });

  it("transport failures and GraphQL errors throw StorefrontCartError naming the operation", async () => {
    const failing = createStorefrontCartApi({ storeDomain: ORIGIN, apiUrl: localStorefrontApiUrl(ORIGIN), customFetchApi: async () => new Response("upstream down", { status: 502 }) });
    await expect(failing.get("gid://shopify/Cart/x?key=y")).rejects.toSatisfy((e: unknown) => e instanceof StorefrontCartError && e.operation === "CartById" && /CartById/.test(e.message));
    const erroring = createStorefrontCartApi({
      storeDomain: ORIGIN,
      apiUrl: localStorefrontApiUrl(ORIGIN),
      customFetchApi: async () => new Response(JSON.stringify({ errors: [{ message: "Throttled" }] }), { status: 200, headers: { "content-type": "application/json" } }),
    });
    await expect(erroring.addLines("gid://shopify/Cart/x?key=y", [])).rejects.toSatisfy((e: unknown) => e instanceof StorefrontCartError && e.operation === "CartLinesAdd" && /Throttled/.test(e.message));
  });
});

describe("local cart: hostile input", () => {
  it("no cart document answers a server error, whatever the variables", async () => {
    const live = await newCart([{ merchandiseId: SCARF, quantity: 1 }]);
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(SCARF, BAG, HIDDEN, live.id, live.lines[0].id, "", "x".repeat(6000)));
    const int = fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom(0, 99_999, 100_000, 2_147_483_647, -2_147_483_648));
    const attributes = fc.array(fc.record({ key: text, value: text }), { maxLength: 3 });
    const line = fc.record({ merchandiseId: text, quantity: int, attributes }, { requiredKeys: ["merchandiseId"] });
    const update = fc.record({ id: text, quantity: int, merchandiseId: text, attributes }, { requiredKeys: ["id"] });
    const cartId = fc.oneof(text, fc.constant(live.id));
    const call = fc.oneof(
      fc.record({ doc: fc.constant("CartById" as const), variables: fc.record({ id: cartId }) }),
      fc.record({ doc: fc.constant("CartCreate" as const), variables: fc.record({ input: fc.record({ lines: fc.array(line, { maxLength: 3 }), discountCodes: fc.array(text, { maxLength: 12 }), note: text, buyerIdentity: fc.record({ email: text, countryCode: fc.constantFrom("DE", "US", "ZZ") }) }, { requiredKeys: [] }) }) }),
      fc.record({ doc: fc.constant("CartLinesAdd" as const), variables: fc.record({ cartId, lines: fc.array(line, { maxLength: 3 }) }) }),
      fc.record({ doc: fc.constant("CartLinesUpdate" as const), variables: fc.record({ cartId, lines: fc.array(update, { maxLength: 3 }) }) }),
      fc.record({ doc: fc.constant("CartLinesRemove" as const), variables: fc.record({ cartId, lineIds: fc.array(text, { maxLength: 3 }) }) }),
      fc.record({ doc: fc.constant("CartDiscountCodesUpdate" as const), variables: fc.record({ cartId, discountCodes: fc.array(text, { maxLength: 12 }) }) }),
      fc.record({ doc: fc.constant("CartBuyerIdentityUpdate" as const), variables: fc.record({ cartId, buyerIdentity: fc.record({ email: text, countryCode: fc.constantFrom("DE", "FR", "XX") }, { requiredKeys: [] }) }) }),
    );
    await fc.assert(
      fc.asyncProperty(call, async ({ doc, variables }) => {
        const res = await handleStorefrontGraphQL(
          new Request(localStorefrontApiUrl(ORIGIN), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: CART_DOCUMENTS[doc], variables }) }),
          { db: app.database.db, appUrl: APP_URL },
        );
        expect(res.status).toBeLessThan(500);
        const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
        expect(body.errors?.map((e) => e.extensions?.code) ?? []).not.toContain("INTERNAL_SERVER_ERROR");
      }),
      { numRuns: 150, seed: 15 },
    );
  });
});
