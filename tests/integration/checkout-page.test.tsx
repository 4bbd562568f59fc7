/**
 * The local checkout page (/checkout?cart=…) rendered on the server, fed by the real API through
 * the client library (a test app over a fresh database): the page for a real cart (prefilled
 * contact, summary, shipping methods, the test-card note), the form's field errors (the contract's
 * own checks before sending, and the server's 400 details), a declined card shown without losing
 * what was typed, and the confirmation with the link to the new order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { createApiClient, type ApiClient } from "~/client";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderStorefront, shopper } from "../helpers/storefront-render";
import { createProduct } from "./products-fixtures";
import { handleApiRequest } from "../../app/api/index.server";
import { LOCAL_TEST_CARDS } from "../../app/contract/checkout";
import { CheckoutConfirmation, CheckoutView } from "../../storefront/src/pages/Checkout";
import { checkoutFailure, checkoutKey, initialCheckoutForm, toCheckoutBody, validateCheckout, type CheckoutForm, type FieldErrors, type LocalCheckout } from "../../storefront/src/lib/checkout";

let app: TestApp;
let client: ApiClient;
let cartId: string;
let variant: string;

beforeAll(async () => {
  app = await createTestApp();
  const user = await app.createUser({ firstName: "Ada", email: "ada@example.test" });
  // The storefront's client library, answered in-process by the app's API handler.
  client = createApiClient({
    baseUrl: "http://localhost",
    getToken: () => user.token,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => handleApiRequest(new Request(input, init), app.ctx, { clientIp: "127.0.0.1" })) as typeof fetch,
  });
  const p = await createProduct(app.database.db, { n: 7301, title: "Linen shirt", price: 60, inventory: 3, sizes: ["M"] });
  variant = p.variants[0];
  const r = await app.ctx.storefrontCart.create({ lines: [{ merchandiseId: variant, quantity: 2 }] });
  cartId = r.cart!.id;
});
afterAll(() => app?.close());

const renderView = (checkout: LocalCheckout, state: { form: CheckoutForm; errors?: FieldErrors; formError?: string | null; busy?: boolean; cartGone?: boolean }) =>
  renderToString(
    <MemoryRouter>
      <CheckoutView checkout={checkout} form={state.form} errors={state.errors ?? {}} formError={state.formError ?? null} busy={state.busy ?? false} cartGone={state.cartGone ?? false} onChange={() => undefined} onSubmit={() => undefined} />
    </MemoryRouter>,
  );

/** What a shopper types into the form. */
const filled = (over: Partial<CheckoutForm> = {}): CheckoutForm => ({
  ...initialCheckoutForm({ email: "ada@example.test", first_name: "Ada", last_name: "Lovelace" }),
  address1: "12 Analytical Row",
  city: "London",
  zip: "N1 9GU",
  countryCode: "GB",
  cardNumber: LOCAL_TEST_CARDS.approved,
  expiry: "12/39",
  cvc: "123",
  ...over,
});

const inputOf = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? "";

describe("the checkout page", () => {
  it("renders the cart from GET /api/checkout/local with the email prefilled, shipping methods, totals and the test-card note", async () => {
    const checkout = await client.checkoutLocalGet({ query: { cartId } });
    const html = renderStorefront(`/checkout?cart=${encodeURIComponent(cartId)}`, (qc) => qc.setQueryData(checkoutKey(cartId), checkout), shopper({ email: "ada@example.test", first_name: "Ada" }));
    expect(html).toContain('data-testid="checkout-page"');
    expect(inputOf(html, "email")).toContain('value="ada@example.test"');
    expect(inputOf(html, "firstName")).toContain('value="Ada"');
    expect(html).toContain("Linen shirt");
    expect(html).toMatch(/data-testid="checkout-line"/);
    expect(html).toContain("Standard");
    expect(html).toContain("Express");
    expect(html).toContain("$120.00"); // 2 × 60
    expect(html).toMatch(/data-testid="checkout-total">\$125\.00</); // + standard shipping
    expect(html).toContain("in test mode");
    expect(html).toContain(`Use ${LOCAL_TEST_CARDS.approved}; ${LOCAL_TEST_CARDS.declined} is declined`);
    expect(html).toMatch(/<label[^>]*>\s*<span class="field__label">Card number/);
  });

  it("without a cart in the link it says there is nothing to check out", () => {
    const html = renderStorefront("/checkout");
    expect(html).toContain('data-testid="checkout-unavailable"');
    expect(html).toContain("There is nothing to check out");
  });

  it("shows field errors (the contract's checks, and the server's 400) on the fields, with aria-invalid and an alert", async () => {
    const checkout = await client.checkoutLocalGet({ query: { cartId } });
    const form = filled({ firstName: "", zip: "", expiry: "13/39" });
    const local = validateCheckout(form, cartId);
    expect(local).toMatchObject({ firstName: "First name is required", zip: "Postal code is required", expiry: "Expiry must be MM/YY" });

    // The server says the same about the same fields.
    const failed = await client.checkoutLocalComplete({ body: toCheckoutBody(form, cartId) }).then(
      () => null,
      (e: unknown) => e,
    );
    const f = checkoutFailure(failed);
    expect(Object.keys(f.fields).sort()).toEqual(Object.keys(local).sort());

    const html = renderView(checkout, { form, errors: f.fields, formError: f.message });
    expect(inputOf(html, "firstName")).toContain('aria-invalid="true"');
    expect(inputOf(html, "firstName")).toContain('aria-describedby="checkout-firstName-error"');
    expect(html).toContain('id="checkout-firstName-error"');
    expect(html).toContain("First name is required");
    expect(html).toContain("Postal code is required");
    expect(inputOf(html, "lastName")).not.toContain("aria-invalid");
    expect(html).toMatch(/role="alert"[^>]*>Check the highlighted fields\./);
    // What was typed stays.
    expect(inputOf(html, "address1")).toContain('value="12 Analytical Row"');
  });

  it("a declined card shows the decline, keeps everything typed, and nothing was bought", async () => {
    const checkout = await client.checkoutLocalGet({ query: { cartId } });
    const form = filled({ cardNumber: LOCAL_TEST_CARDS.declined });
    const failed = await client.checkoutLocalComplete({ body: toCheckoutBody(form, cartId) }).then(
      () => null,
      (e: unknown) => e,
    );
    const f = checkoutFailure(failed);
    expect(f.message).toBe("Your card was declined. Use the test card 4242 4242 4242 4242.");
    const html = renderView(checkout, { form, errors: f.fields, formError: f.message });
    expect(html).toMatch(/role="alert"[^>]*>Your card was declined/);
    expect(inputOf(html, "cardNumber")).toContain('aria-invalid="true"');
    expect(inputOf(html, "cardNumber")).toContain(`value="${LOCAL_TEST_CARDS.declined}"`);
    expect(inputOf(html, "address1")).toContain('value="12 Analytical Row"');
    expect(inputOf(html, "city")).toContain('value="London"');
    expect(html).toMatch(/<button[^>]*data-testid="checkout-submit"[^>]*>Place order/);
    expect((await app.database.db.productVariant.findUniqueOrThrow({ where: { id: variant } })).inventory_quantity).toBe(3);
  });

  it("while placing, the button is busy; on success the confirmation names the order and links to it", async () => {
    const checkout = await client.checkoutLocalGet({ query: { cartId } });
    const busy = renderView(checkout, { form: filled(), busy: true });
    expect(busy).toMatch(/<button[^>]*disabled=""[^>]*aria-busy="true"[^>]*>Placing order…/);

    const r = await client.checkoutLocalComplete({ body: toCheckoutBody(filled(), cartId) });
    expect(r.order.name).toMatch(/^#\d+$/);
    const html = renderToString(
      <MemoryRouter>
        <CheckoutConfirmation order={r.order} />
      </MemoryRouter>,
    );
    expect(html).toContain(`Order ${r.order.name} placed`);
    const number = r.order.id.split("/").pop();
    expect(html).toContain(`href="/account/orders/${number}"`);
    // The link opens the order the shopper now owns.
    expect((await client.ordersMineGet({ params: { id: number! } })).name).toBe(r.order.name);

    // The same cart again: gone, and the page says so (the form cannot be sent twice).
    const again = await client.checkoutLocalComplete({ body: toCheckoutBody(filled(), cartId) }).then(
      () => null,
      (e: unknown) => e,
    );
    const f = checkoutFailure(again);
    expect(f.cartGone).toBe(true);
    const gone = renderView(checkout, { form: filled(), formError: f.message, cartGone: true });
    expect(gone).toContain("This cart does not exist or was already checked out");
    expect(gone).toMatch(/<button[^>]*disabled=""/);
  });
});
