/**
 * `/checkout?cart=<cart id>`: the local checkout of the embedded default (a local cart's
 * checkoutUrl; in production the cart's checkoutUrl is Shopify's checkout and this page is not
 * used). Contact, shipping address, shipping method, a test payment (no money moves) and the order
 * summary; Place order creates the order (POST /api/checkout/local). A decline or a sold-out item
 * is shown without losing what was typed; success shows the order number with a link to it.
 */
import { useEffect, useId, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { useDocumentTitle } from "../lib/use-document-title";
import { formatMoney } from "../lib/products";
import { ORDERS_KEY, orderPath } from "../lib/orders";
import {
  CART_QUERY_PREFIX,
  CHECKOUT_COUNTRIES,
  checkoutFailure,
  checkoutKey,
  formatCardNumber,
  formatExpiry,
  initialCheckoutForm,
  toCheckoutBody,
  validateCheckout,
  type CheckoutField,
  type CheckoutForm,
  type FieldErrors,
  type LocalCheckout,
} from "../lib/checkout";
import { Spinner } from "../components/FeedStatus";
import "../checkout.css";

export interface PlacedOrder {
  id: string;
  name: string;
  total: { amount: string; currencyCode: string };
  email: string;
}

export function Checkout() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const { user } = useSession();
  const cartId = (params.get("cart") ?? "").trim();
  useDocumentTitle("Checkout");

  const checkout = useQuery({
    queryKey: checkoutKey(cartId),
    queryFn: () => api.checkoutLocalGet({ query: { cartId } }),
    // The session (a guest's at least) must exist first: the endpoint is for users.
    enabled: !!cartId && !!user,
    retry: false,
  });
  const [form, setForm] = useState<CheckoutForm>(() => initialCheckoutForm(user));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [cartGone, setCartGone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);

  // The session may resolve after the first render: prefill what the shopper has not typed yet.
  useEffect(() => {
    if (!user) return;
    setForm((f) => {
      const seed = initialCheckoutForm(user);
      return { ...f, email: f.email || seed.email, firstName: f.firstName || seed.firstName, lastName: f.lastName || seed.lastName, nameOnCard: f.nameOnCard || seed.nameOnCard };
    });
  }, [user]);

  const change = (field: CheckoutField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    // The message goes once the shopper edits the field; the others stay until the next try.
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const submit = async () => {
    if (busy) return;
    const local = validateCheckout(form, cartId);
    if (Object.keys(local).length) {
      setErrors(local);
      setFormError("Check the highlighted fields.");
      focusFirstInvalid(local);
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const r = await api.checkoutLocalComplete({ body: toCheckoutBody(form, cartId) });
      setPlaced(r.order);
      // The header's cart count and the orders page show the new state.
      void queryClient.invalidateQueries({ queryKey: CART_QUERY_PREFIX });
      void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    } catch (e) {
      const f = checkoutFailure(e);
      setErrors(f.fields);
      setFormError(f.message);
      setCartGone(f.cartGone);
      if (f.reloadCart) void checkout.refetch();
      focusFirstInvalid(f.fields);
    } finally {
      setBusy(false);
    }
  };

  if (placed) return <CheckoutConfirmation order={placed} />;
  if (!cartId) return <CheckoutUnavailable title="There is nothing to check out" text="This checkout link names no cart. Open your cart and choose Check out again." />;
  if (checkout.isError) {
    const e = checkout.error;
    if (e instanceof ApiClientError && e.status < 500) return <CheckoutUnavailable title={e.status === 409 ? "This cart cannot be checked out here" : "This checkout is not available"} text={e.message} />;
    return (
      <div className="state state--error" role="alert">
        <h1 className="state__title">The checkout could not be loaded</h1>
        <p className="state__text">{errorMessage(e)}</p>
        <button type="button" className="button" onClick={() => void checkout.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (!checkout.data) return <Spinner label="Opening the checkout…" />;
  return <CheckoutView checkout={checkout.data} form={form} errors={errors} formError={formError} busy={busy} cartGone={cartGone} onChange={change} onSubmit={() => void submit()} />;
}

function focusFirstInvalid(errors: FieldErrors) {
  if (typeof document === "undefined") return;
  const first = (Object.keys(errors) as CheckoutField[]).find((k) => errors[k]);
  if (first) document.getElementById(fieldId(first))?.focus();
}

const fieldId = (f: CheckoutField) => `checkout-${f}`;

function CheckoutUnavailable({ title, text }: { title: string; text: string }) {
  return (
    <section className="page page--narrow">
      <div className="state" data-testid="checkout-unavailable">
        <h1 className="state__title">{title}</h1>
        <p className="state__text">{text}</p>
        <div className="state__actions">
          <Link className="button" to="/cart">
            Open your cart
          </Link>
          <Link className="button button--ghost" to="/">
            Continue shopping
          </Link>
        </div>
      </div>
    </section>
  );
}

export function CheckoutConfirmation({ order }: { order: PlacedOrder }) {
  return (
    <section className="page page--narrow checkout-done" aria-labelledby="checkout-done-title" data-testid="checkout-confirmation">
      <div className="state" role="status">
        <h1 id="checkout-done-title" className="state__title">
          {`Order ${order.name} placed`}
        </h1>
        <p className="state__text">
          {`Thank you! A confirmation is on its way to ${order.email}. Total paid: ${formatMoney(order.total.amount, order.total.currencyCode)} (test payment: no money was taken).`}
        </p>
        <div className="state__actions">
          <Link className="button" to={orderPath(order.id)} data-testid="checkout-order-link">
            {`View order ${order.name}`}
          </Link>
          <Link className="button button--ghost" to="/">
            Continue shopping
          </Link>
        </div>
      </div>
    </section>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id" | "name" | "className"> {
  field: CheckoutField;
  label: string;
  values: CheckoutForm;
  errors: FieldErrors;
  onChange(field: CheckoutField, value: string): void;
  format?: (v: string) => string;
  optional?: boolean;
}

function Field({ field, label, values, errors, onChange, format, optional, ...input }: FieldProps) {
  const error = errors[field];
  const errId = `${fieldId(field)}-error`;
  return (
    <label className={`field checkout__field checkout__field--${field}`}>
      <span className="field__label">
        {label}
        {optional && <span className="checkout__optional"> (optional)</span>}
      </span>
      <input
        className="field__input"
        id={fieldId(field)}
        name={field}
        value={values[field]}
        onChange={(e) => onChange(field, format ? format(e.target.value) : e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        aria-required={optional ? undefined : true}
        {...input}
      />
      {error && (
        <span className="checkout__field-error" id={errId} data-testid={`checkout-error-${field}`}>
          {error}
        </span>
      )}
    </label>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <fieldset className="checkout__section" aria-labelledby={id}>
      <legend id={id} className="checkout__legend">
        {title}
      </legend>
      {children}
    </fieldset>
  );
}

/** The checkout as shown for a state (exported for server renders in tests). */
export function CheckoutView(props: {
  checkout: LocalCheckout;
  form: CheckoutForm;
  errors: FieldErrors;
  formError: string | null;
  busy: boolean;
  cartGone: boolean;
  onChange(field: CheckoutField, value: string): void;
  onSubmit(): void;
}) {
  const { checkout, form, errors, formError, busy, cartGone, onChange } = props;
  const { cart } = checkout;
  const f = { values: form, errors, onChange };
  const method = checkout.shippingMethods.find((m) => m.code === form.shippingMethod) ?? checkout.shippingMethods[0];
  const currency = cart.subtotal?.currencyCode ?? method?.price.currencyCode ?? "USD";
  const money = (n: number | string) => formatMoney(typeof n === "number" ? n.toFixed(2) : n, currency);
  const subtotal = Number(cart.subtotal?.amount ?? 0);
  const afterDiscount = Number(cart.total?.amount ?? subtotal);
  const discount = Math.max(0, subtotal - afterDiscount);
  const shipping = Number(method?.price.amount ?? 0);
  const total = afterDiscount + shipping;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  const errorCount = Object.values(errors).filter(Boolean).length;

  return (
    <section className="page checkout" aria-labelledby="checkout-title" data-testid="checkout-page">
      <h1 id="checkout-title" className="page__title">
        Checkout
      </h1>
      <div className="checkout__layout">
        <form className="checkout__form" onSubmit={onSubmit} noValidate aria-describedby={formError ? "checkout-form-error" : undefined} data-testid="checkout-form">
          <Section title="Contact">
            <Field {...f} field="email" label="Email" type="email" autoComplete="email" inputMode="email" />
          </Section>

          <Section title="Shipping address">
            <div className="checkout__row">
              <Field {...f} field="firstName" label="First name" autoComplete="given-name" />
              <Field {...f} field="lastName" label="Last name" autoComplete="family-name" />
            </div>
            <Field {...f} field="address1" label="Address" autoComplete="address-line1" />
            <Field {...f} field="address2" label="Apartment, suite, etc." autoComplete="address-line2" optional />
            <div className="checkout__row">
              <Field {...f} field="city" label="City" autoComplete="address-level2" />
              <Field {...f} field="province" label="State / province" autoComplete="address-level1" optional />
              <Field {...f} field="zip" label="Postal code" autoComplete="postal-code" />
            </div>
            <label className="field checkout__field">
              <span className="field__label">Country</span>
              <select
                className="field__input"
                id={fieldId("countryCode")}
                name="countryCode"
                value={form.countryCode}
                onChange={(e) => onChange("countryCode", e.target.value)}
                autoComplete="country"
                aria-invalid={errors.countryCode ? true : undefined}
                aria-describedby={errors.countryCode ? `${fieldId("countryCode")}-error` : undefined}
              >
                {CHECKOUT_COUNTRIES.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
              {errors.countryCode && (
                <span className="checkout__field-error" id={`${fieldId("countryCode")}-error`}>
                  {errors.countryCode}
                </span>
              )}
            </label>
            <Field {...f} field="phone" label="Phone" type="tel" autoComplete="tel" optional />
          </Section>

          <Section title="Shipping method">
            <div className="checkout__methods" role="radiogroup" aria-label="Shipping method">
              {checkout.shippingMethods.map((m) => (
                <label key={m.code} className="checkout__method" data-selected={form.shippingMethod === m.code}>
                  <input type="radio" name="shippingMethod" value={m.code} checked={form.shippingMethod === m.code} onChange={() => onChange("shippingMethod", m.code)} />
                  <span className="checkout__method-text">
                    <strong>{m.title}</strong> <span className="checkout__muted">{m.description}</span>
                  </span>
                  <span className="checkout__method-price">{formatMoney(m.price.amount, m.price.currencyCode)}</span>
                </label>
              ))}
            </div>
          </Section>

          <Section title="Payment">
            <p className="checkout__test-note" data-testid="checkout-test-note">
              {`Test payment: no money is taken. Use ${checkout.testCards.approved}; ${checkout.testCards.declined} is declined. Any future expiry date and any 3 digits work.`}
            </p>
            <Field {...f} field="cardNumber" label="Card number" inputMode="numeric" autoComplete="cc-number" format={formatCardNumber} placeholder="1234 1234 1234 1234" />
            <div className="checkout__row">
              <Field {...f} field="expiry" label="Expiry (MM/YY)" inputMode="numeric" autoComplete="cc-exp" format={formatExpiry} placeholder="MM/YY" />
              <Field {...f} field="cvc" label="Security code" inputMode="numeric" autoComplete="cc-csc" maxLength={4} />
            </div>
            <Field {...f} field="nameOnCard" label="Name on card" autoComplete="cc-name" />
          </Section>

          {formError && (
            <p className="form-error" id="checkout-form-error" role="alert" data-testid="checkout-form-error">
              {formError}
              {errorCount > 1 && ` (${errorCount} fields)`}
            </p>
          )}
          <button type="submit" className="button button--block checkout__submit" disabled={busy || cartGone} aria-busy={busy} data-testid="checkout-submit">
            {busy ? "Placing order…" : `Place order · ${money(total)}`}
          </button>
        </form>

        <aside className="checkout__summary" aria-labelledby="checkout-summary-title" data-testid="checkout-summary">
          <h2 id="checkout-summary-title" className="checkout__legend">
            Order summary
          </h2>
          <ul className="checkout__lines">
            {cart.lines.map((l) => (
              <li key={l.id} className="checkout__line" data-testid="checkout-line">
                <span className="checkout__thumb">
                  {l.merchandise.image ? <img src={l.merchandise.image.url} alt={l.merchandise.image.altText ?? l.merchandise.productTitle} loading="lazy" /> : null}
                  <span className="checkout__qty" aria-label={`Quantity ${l.quantity}`}>
                    {l.quantity}
                  </span>
                </span>
                <span className="checkout__line-text">
                  <span className="checkout__line-title">{l.merchandise.productTitle}</span>
                  {l.merchandise.variantTitle !== "Default Title" && <span className="checkout__muted">{l.merchandise.variantTitle}</span>}
                  {l.issue && (
                    <span className="checkout__line-issue" data-testid="checkout-line-issue">
                      {l.issue.message}
                    </span>
                  )}
                </span>
                <span className="checkout__line-price">{formatMoney(l.cost.totalAmount.amount, l.cost.totalAmount.currencyCode)}</span>
              </li>
            ))}
          </ul>
          <dl className="checkout__totals">
            <div>
              <dt>Subtotal</dt>
              <dd>{money(subtotal)}</dd>
            </div>
            {discount > 0 && (
              <div data-testid="checkout-discount">
                <dt>Discount{cart.discountCodes.some((d) => d.applicable) ? ` (${cart.discountCodes.filter((d) => d.applicable).map((d) => d.code).join(", ")})` : ""}</dt>
                <dd>−{money(discount)}</dd>
              </div>
            )}
            <div>
              <dt>Shipping{method ? ` (${method.title})` : ""}</dt>
              <dd>{money(shipping)}</dd>
            </div>
            <div>
              <dt>Taxes</dt>
              <dd>{money(0)} in test mode</dd>
            </div>
            <div className="checkout__total">
              <dt>Total</dt>
              <dd data-testid="checkout-total">{money(total)}</dd>
            </div>
          </dl>
        </aside>
      </div>
    </section>
  );
}
