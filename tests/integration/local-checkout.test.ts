/**
 * The local checkout of the embedded default through the HTTP API (issue 15): GET and POST
 * /api/checkout/local with carts held by the local Storefront endpoint. The happy path (stock down,
 * the order on the shopper's orders page, purchase events, the cart gone and forgotten, the
 * confirmation email), every refusal (declined, expired or invalid card, bad body, unknown, empty
 * or already checked-out cart, sold out at checkout, the Shopify adapter) with nothing changed, and
 * the concurrency rules: two checkouts of the last unit → one order and one 409, stock never below
 * zero; order numbers unique under concurrent checkouts. Runs on PGlite and on PostgreSQL
 * (TEST_DATABASE_URL), where the concurrent checkouts really run at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { shopifyAdapterEnv } from "../helpers/shopify-webhook";
import { createProduct } from "./products-fixtures";
import { enqueueReviewRequestIfDelivered, runReviewRequest } from "../../app/services/review-requests.server";
import { LOCAL_TEST_CARDS } from "../../app/contract/checkout";

let app: TestApp;
let n = 7100;

/** A fresh product with one variant per size and `inventory` units of each. */
async function product(o: { price?: number; inventory?: number; sizes?: string[] } = {}) {
  const p = await createProduct(app.database.db, { n: ++n, title: `Checkout product ${n}`, price: o.price ?? 40, inventory: o.inventory ?? 5, sizes: o.sizes ?? ["One"] });
  return { id: p.id, variant: p.variants[0], variants: p.variants };
}

const ADDRESS = { firstName: "Ada", lastName: "Lovelace", address1: "12 Analytical Row", city: "London", zip: "N1 9GU", countryCode: "gb" };
const payment = (cardNumber: string = LOCAL_TEST_CARDS.approved, expiry = "12/39") => ({ cardNumber, expiry, cvc: "123", nameOnCard: "Ada Lovelace" });
const checkoutBody = (cartId: string, over: Record<string, unknown> = {}) => ({ cartId, email: "Ada@Example.test", shippingAddress: ADDRESS, shippingMethod: "standard", payment: payment(), ...over });

const get = (token: string | null, cartId: string) => app.api("GET", "/checkout/local", { token, query: { cartId } });
const place = (token: string | null, body: unknown) => app.api("POST", "/checkout/local", { token, body });

/** A cart on the local Storefront with these lines (as the cart API or another device made it). */
async function cartWith(lines: { merchandiseId: string; quantity: number }[], discountCodes?: string[]) {
  const r = await app.ctx.storefrontCart.create({ lines, discountCodes });
  expect(r.userErrors).toEqual([]);
  return r.cart!.id;
}
const stock = async (variantId: string) => (await app.database.db.productVariant.findUniqueOrThrow({ where: { id: variantId } })).inventory_quantity;
const orderCount = () => app.database.db.order.count();

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("the local checkout: happy path", () => {
  it("a shopper's cart (built through /api/cart) becomes an order: stock down, orders page, purchase events, cart gone, email queued", async () => {
    const shopper = await app.createUser({ firstName: "Ada" });
    const coat = await product({ price: 120, inventory: 5 });
    const scarf = await product({ price: 30, inventory: 3 });
    expect((await app.api("POST", "/cart/lines", { token: shopper.token, body: { merchandiseId: coat.variant, quantity: 2 } })).status).toBe(200);
    const added = await app.api("POST", "/cart/lines", { token: shopper.token, body: { merchandiseId: scarf.variant, quantity: 1 } });
    expect(added.status).toBe(200);
    const cartId: string = added.body.id;
    expect(added.body.checkoutUrl).toContain(`/checkout?cart=${encodeURIComponent(cartId)}`);
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: shopper.id } })).cart_id).toBe(cartId);

    const view = await get(shopper.token, cartId);
    expect(view.status).toBe(200);
    expect(view.body.cart.totalQuantity).toBe(3);
    expect(view.body.cart.subtotal).toEqual({ amount: "270.00", currencyCode: "USD" });
    expect(view.body.shippingMethods.map((m: { code: string; price: { amount: string } }) => [m.code, m.price.amount])).toEqual([
      ["standard", "5.00"],
      ["express", "15.00"],
    ]);
    expect(view.body.testCards).toEqual(LOCAL_TEST_CARDS);

    const r = await place(shopper.token, checkoutBody(cartId, { shippingMethod: "express" }));
    expect(r.status).toBe(201);
    expect(r.body.order).toMatchObject({ name: expect.stringMatching(/^#\d+$/), total: { amount: "285.00", currencyCode: "USD" }, email: "ada@example.test" });
    const orderId: string = r.body.order.id;
    expect(orderId).toMatch(/^gid:\/\/shopify\/Order\/\d+$/);

    // Stock taken, products' aggregates follow.
    expect(await stock(coat.variant)).toBe(3);
    expect(await stock(scarf.variant)).toBe(2);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: coat.id } })).totalInventory).toBe(3);

    // The order, as a webhook would have written it, linked to the buyer.
    const order = await app.database.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
    expect(order).toMatchObject({ user_id: shopper.id, email: "ada@example.test", financial_status: "PAID", fulfillment_status: "UNFULFILLED", status: "open", currencyCode: "USD" });
    expect(order.subtotal_price?.toFixed(2)).toBe("270.00");
    expect(order.total_shipping?.toFixed(2)).toBe("15.00");
    expect(order.total_tax?.toFixed(2)).toBe("0.00");
    expect(order.total_price.toFixed(2)).toBe("285.00");
    expect(order.shipping_address).toMatchObject({ first_name: "Ada", last_name: "Lovelace", city: "London", country_code: "GB", country: "United Kingdom" });
    expect(order.items.map((i) => [i.variant_id, i.quantity, i.price.toFixed(2), i.status]).sort()).toEqual(
      [
        [coat.variant, 2, "120.00", "unfulfilled"],
        [scarf.variant, 1, "30.00", "unfulfilled"],
      ].sort(),
    );

    // On the shopper's orders page.
    const mine = await app.api("GET", "/users/orders", { token: shopper.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((o: { id: string }) => o.id)).toContain(orderId);
    expect((await app.api("GET", `/users/orders/${encodeURIComponent(orderId)}`, { token: shopper.token })).status).toBe(200);

    // Purchase events (recommendations' "bought" signals).
    const events = await app.database.db.productPurchaseEvent.findMany({ where: { order_id: orderId } });
    expect(events.map((e) => [e.product_id, e.quantity, e.user_id]).sort()).toEqual(
      [
        [coat.id, 2, shopper.id],
        [scarf.id, 1, shopper.id],
      ].sort(),
    );

    // The cart is completed (the Storefront answers null) and forgotten by the user.
    expect(await app.ctx.storefrontCart.get(cartId)).toBeNull();
    expect((await app.database.db.user.findUniqueOrThrow({ where: { id: shopper.id } })).cart_id).toBeNull();
    const cartNow = await app.api("GET", "/cart", { token: shopper.token });
    expect(cartNow.body).toMatchObject({ id: null, totalQuantity: 0 });

    // The confirmation email.
    const mails = await app.database.db.emailOutbox.findMany({ where: { to: "ada@example.test", kind: "order_confirmation" } });
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Order ${order.name} confirmed`);
    expect(mails[0].text).toContain("2 × Checkout product");
    expect(mails[0].text).toContain("Shipping (Express)");

    // The same cart cannot be checked out twice.
    const again = await place(shopper.token, checkoutBody(cartId));
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe("This cart does not exist or was already checked out");
    expect(await stock(coat.variant)).toBe(3);
  });

  it("a discount code of the cart is on the order; a guest's order is linked to the guest", async () => {
    const guest = await app.createUser({ authProvider: "guest" });
    const p = await product({ price: 100, inventory: 2 });
    const cartId = await cartWith([{ merchandiseId: p.variant, quantity: 1 }], ["welcome10"]);
    const view = await get(guest.token, cartId);
    expect(view.body.cart.total).toEqual({ amount: "90.00", currencyCode: "USD" });
    const r = await place(guest.token, checkoutBody(cartId, { email: "guest.buyer@example.test" }));
    expect(r.status).toBe(201);
    expect(r.body.order.total).toEqual({ amount: "95.00", currencyCode: "USD" }); // 100 − 10 + 5 shipping
    const order = await app.database.db.order.findUniqueOrThrow({ where: { id: r.body.order.id } });
    expect(order.user_id).toBe(guest.id);
    expect(order.subtotal_price?.toFixed(2)).toBe("100.00");
    const mine = await app.api("GET", "/users/orders", { token: guest.token });
    expect(mine.body.items.map((o: { id: string }) => o.id)).toEqual([order.id]);
  });

  it("the order stands when its confirmation email cannot be queued", async () => {
    const db = app.database.db;
    // The outbox refuses confirmations (a failing email store), nothing else.
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_refuse_confirmation() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'outbox unavailable'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER test_refuse_confirmation BEFORE INSERT ON email_outbox FOR EACH ROW WHEN (NEW.kind = 'order_confirmation') EXECUTE FUNCTION test_refuse_confirmation()`);
    try {
      const shopper = await app.createUser();
      const p = await product({ inventory: 2 });
      const cartId = await cartWith([{ merchandiseId: p.variant, quantity: 1 }]);
      const r = await place(shopper.token, checkoutBody(cartId, { email: "no-mail@example.test" }));
      expect(r.status).toBe(201);
      expect(await stock(p.variant)).toBe(1);
      expect(await db.order.findUnique({ where: { id: r.body.order.id } })).not.toBeNull();
      expect(await db.emailOutbox.count({ where: { to: "no-mail@example.test" } })).toBe(0);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER test_refuse_confirmation ON email_outbox`);
      await db.$executeRawUnsafe(`DROP FUNCTION test_refuse_confirmation()`);
    }
  });

  it("an order placed here is reviewable once delivered, as a webhook order", async () => {
    const shopper = await app.createUser();
    const p = await product();
    const cartId = await cartWith([{ merchandiseId: p.variant, quantity: 1 }]);
    const r = await place(shopper.token, checkoutBody(cartId, { email: shopper.email }));
    expect(r.status).toBe(201);
    const orderId: string = r.body.order.id;
    expect(await enqueueReviewRequestIfDelivered(app.ctx, orderId)).toBeNull(); // not delivered yet
    await app.database.db.orderItem.updateMany({ where: { order_id: orderId }, data: { status: "delivered" } });
    expect(await enqueueReviewRequestIfDelivered(app.ctx, orderId)).not.toBeNull();
    const sent = await runReviewRequest(app.ctx, { orderId });
    expect(sent).toMatchObject({ status: "sent", products: 1 });
    const mail = await app.database.db.emailOutbox.findFirstOrThrow({ where: { to: shopper.email!, kind: "review_request" } });
    expect(mail.text).toContain(r.body.order.name);
  });
});

describe("the local checkout: refusals change nothing", () => {
  it("needs a session (401)", async () => {
    expect((await get(null, "gid://shopify/Cart/x?key=y")).status).toBe(401);
    expect((await place(null, checkoutBody("gid://shopify/Cart/x?key=y"))).status).toBe(401);
  });

  it("the declined test card: 422 card_declined; stock, orders, cart and email untouched", async () => {
    const shopper = await app.createUser();
    const p = await product({ inventory: 4 });
    const cartId = await cartWith([{ merchandiseId: p.variant, quantity: 2 }]);
    const before = await orderCount();
    const r = await place(shopper.token, checkoutBody(cartId, { payment: payment(LOCAL_TEST_CARDS.declined) }));
    expect(r.status).toBe(422);
    expect(r.body.error.message).toBe("Your card was declined. Use the test card 4242 4242 4242 4242.");
    expect(r.body.error.details).toMatchObject({ code: "card_declined", issues: [{ path: "payment.cardNumber" }] });
    expect(await stock(p.variant)).toBe(4);
    expect(await orderCount()).toBe(before);
    expect(await app.ctx.storefrontCart.get(cartId)).not.toBeNull();
    // The same cart then goes through with the approved card.
    expect((await place(shopper.token, checkoutBody(cartId))).status).toBe(201);
  });

  it("an expired card is 422, a number failing the Luhn check is 400 on payment.cardNumber", async () => {
    const shopper = await app.createUser();
    const p = await product({ inventory: 4 });
    const cartId = await cartWith([{ merchandiseId: p.variant, quantity: 1 }]);
    const expired = await place(shopper.token, checkoutBody(cartId, { payment: payment(LOCAL_TEST_CARDS.approved, "01/20") }));
    expect(expired.status).toBe(422);
    expect(expired.body.error.details).toMatchObject({ code: "card_expired", issues: [{ path: "payment.expiry" }] });
    const luhn = await place(shopper.token, checkoutBody(cartId, { payment: payment("4242 4242 4242 4241") }));
    expect(luhn.status).toBe(400);
    expect(luhn.body.error.message).toMatch(/card number is not valid/);
    expect(luhn.body.error.details).toMatchObject({ code: "card_invalid", issues: [{ path: "payment.cardNumber" }] });
    expect(await stock(p.variant)).toBe(4);
  });

  it("an invalid body is 400 with one issue per field", async () => {
    const shopper = await app.createUser();
    const r = await place(shopper.token, { cartId: "gid://shopify/Cart/x?key=y", email: "not-an-email", shippingAddress: { firstName: "", countryCode: "United Kingdom" }, shippingMethod: "drone", payment: { cardNumber: "abc", expiry: "13/30", cvc: "1" } });
    expect(r.status).toBe(400);
    const paths = (r.body.error.details.issues as { path: string }[]).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "shippingAddress.firstName", "shippingAddress.lastName", "shippingAddress.address1", "shippingAddress.city", "shippingAddress.zip", "shippingAddress.countryCode", "shippingMethod", "payment.cardNumber", "payment.expiry", "payment.cvc", "payment.nameOnCard"]));
    expect((await app.api("GET", "/checkout/local", { token: shopper.token })).status).toBe(400); // no cartId
  });

  it("an unknown or forged cart is 404, an empty cart 409", async () => {
    const shopper = await app.createUser();
    const p = await product();
    const real = await cartWith([{ merchandiseId: p.variant, quantity: 1 }]);
    const forged = real.replace(/key=.*/, "key=AAAAAAAAAAAAAAAAAAAAAAAA");
    for (const id of ["gid://shopify/Cart/nope?key=nope", forged, "not a cart"]) {
      const g = await get(shopper.token, id);
      expect(g.status, id).toBe(404);
      expect(g.body.error.message).toBe("This cart does not exist or was already checked out");
      expect((await place(shopper.token, checkoutBody(id))).status, id).toBe(404);
    }
    const empty = await cartWith([]);
    const g = await get(shopper.token, empty);
    expect(g.status).toBe(409);
    expect(g.body.error.message).toBe("Your cart is empty");
    expect((await place(shopper.token, checkoutBody(empty))).status).toBe(409);
  });

  it("sold out at checkout: 409 naming what is left; every line's stock unchanged", async () => {
    const shopper = await app.createUser();
    const a = await product({ inventory: 5 });
    const b = await product({ inventory: 5 });
    const c = await product({ inventory: 5 });
    const cartId = await cartWith([
      { merchandiseId: a.variant, quantity: 1 },
      { merchandiseId: b.variant, quantity: 2 },
      { merchandiseId: c.variant, quantity: 1 },
    ]);
    // Others bought meanwhile.
    await app.database.db.productVariant.update({ where: { id: b.variant }, data: { inventory_quantity: 1 } });
    await app.database.db.productVariant.update({ where: { id: c.variant }, data: { inventory_quantity: 0, availableForSale: false } });
    const before = await orderCount();
    const r = await place(shopper.token, checkoutBody(cartId));
    expect(r.status).toBe(409);
    expect(r.body.error.message).toMatch(/only 1 left of Checkout product/i);
    expect(r.body.error.message).toMatch(/is sold out/);
    expect(r.body.error.details.code).toBe("sold_out");
    expect(r.body.error.details.lines).toEqual(
      expect.arrayContaining([expect.objectContaining({ variantId: b.variant, requested: 2, available: 1 }), expect.objectContaining({ variantId: c.variant, requested: 1, available: 0 })]),
    );
    expect([await stock(a.variant), await stock(b.variant), await stock(c.variant)]).toEqual([5, 1, 0]);
    expect(await orderCount()).toBe(before);
    expect(await app.ctx.storefrontCart.get(cartId)).not.toBeNull(); // still there to fix
  });

  it("a cart changed between reading it and placing the order: 409 cart_changed, nothing taken", async () => {
    const shopper = await app.createUser();
    const a = await product({ inventory: 5 });
    const b = await product({ inventory: 5 });
    const cartId = await cartWith([{ merchandiseId: a.variant, quantity: 1 }]);
    const real = app.ctx.storefrontCart;
    // Another tab adds a line right after the checkout read the cart.
    app.ctx.storefrontCart = {
      ...real,
      get: async (id: string) => {
        const read = await real.get(id);
        await real.addLines(id, [{ merchandiseId: b.variant, quantity: 1 }]);
        return read;
      },
    };
    try {
      const r = await place(shopper.token, checkoutBody(cartId));
      expect(r.status).toBe(409);
      expect(r.body.error.details).toEqual({ code: "cart_changed" });
    } finally {
      app.ctx.storefrontCart = real;
    }
    expect([await stock(a.variant), await stock(b.variant)]).toEqual([5, 5]);
    expect((await real.get(cartId))?.totalQuantity).toBe(2);
    // Placed again, the order has both lines.
    const ok = await place(shopper.token, checkoutBody(cartId));
    expect(ok.status).toBe(201);
    expect(await app.database.db.orderItem.count({ where: { order_id: ok.body.order.id } })).toBe(2);
  });

  it("with COMMERCE_ADAPTER=shopify both endpoints answer 409: checkout is Shopify's", async () => {
    const shopifyApp = await createTestApp({ env: shopifyAdapterEnv() });
    try {
      const u = await shopifyApp.createUser();
      const g = await shopifyApp.api("GET", "/checkout/local", { token: u.token, query: { cartId: "gid://shopify/Cart/abc?key=def" } });
      expect(g.status).toBe(409);
      expect(g.body.error.message).toBe("Checkout happens on Shopify: open the cart's checkoutUrl");
      expect(g.body.error.details).toEqual({ code: "checkout_on_shopify" });
      const p = await shopifyApp.api("POST", "/checkout/local", { token: u.token, body: checkoutBody("gid://shopify/Cart/abc?key=def") });
      expect(p.status).toBe(409);
    } finally {
      await shopifyApp.close();
    }
  });
});

describe("the local checkout under concurrency", () => {
  it("two shoppers check out the last unit at once: exactly one 201 and one 409, stock 0 never negative", async () => {
    const p = await product({ inventory: 1 });
    const [s1, s2] = [await app.createUser(), await app.createUser()];
    const [c1, c2] = [await cartWith([{ merchandiseId: p.variant, quantity: 1 }]), await cartWith([{ merchandiseId: p.variant, quantity: 1 }])];
    const before = await orderCount();
    const rs = await Promise.all([place(s1.token, checkoutBody(c1)), place(s2.token, checkoutBody(c2))]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 409]);
    const lost = rs.find((r) => r.status === 409)!;
    expect(lost.body.error.message).toMatch(/sold out/);
    const v = await app.database.db.productVariant.findUniqueOrThrow({ where: { id: p.variant } });
    expect(v.inventory_quantity).toBe(0);
    expect(v.availableForSale).toBe(false);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: p.id } })).availableForSale).toBe(false);
    expect(await orderCount()).toBe(before + 1);
    expect(await app.database.db.orderItem.count({ where: { variant_id: p.variant } })).toBe(1);
  });

  it("three checkouts of two units: two orders, stock exactly 0", async () => {
    const p = await product({ inventory: 2 });
    const carts = await Promise.all([1, 2, 3].map(() => cartWith([{ merchandiseId: p.variant, quantity: 1 }])));
    const users = await Promise.all(carts.map(() => app.createUser()));
    const rs = await Promise.all(carts.map((c, i) => place(users[i].token, checkoutBody(c))));
    expect(rs.map((r) => r.status).sort()).toEqual([201, 201, 409]);
    expect(await stock(p.variant)).toBe(0);
  });

  it("the same cart placed twice at once (a double click): one order", async () => {
    const shopper = await app.createUser();
    const p = await product({ inventory: 5 });
    const cartId = await cartWith([{ merchandiseId: p.variant, quantity: 2 }]);
    const rs = await Promise.all([place(shopper.token, checkoutBody(cartId)), place(shopper.token, checkoutBody(cartId))]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 404]);
    expect(await stock(p.variant)).toBe(3);
  });

  it("concurrent checkouts get distinct, increasing order numbers", async () => {
    const count = 5;
    const items = await Promise.all(Array.from({ length: count }, () => product({ inventory: 3 })));
    const carts = await Promise.all(items.map((p) => cartWith([{ merchandiseId: p.variant, quantity: 1 }])));
    const users = await Promise.all(carts.map(() => app.createUser()));
    const rs = await Promise.all(carts.map((c, i) => place(users[i].token, checkoutBody(c))));
    expect(rs.map((r) => r.status)).toEqual(Array(count).fill(201));
    const numbers = rs.map((r) => Number(String(r.body.order.name).slice(1))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(count);
    expect(numbers[count - 1] - numbers[0]).toBe(count - 1); // consecutive
    const rows = await app.database.db.order.findMany({ where: { id: { in: rs.map((r) => r.body.order.id) } } });
    expect(rows.map((o) => o.order_number).sort((a, b) => a! - b!)).toEqual(numbers);
  });
});
