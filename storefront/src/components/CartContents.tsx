/**
 * The cart's lines, discount codes and summary: the body of the cart drawer and of the /cart page.
 * Quantity changes and removals are optimistic (lib/cart.tsx); a refused change rolls back and its
 * message shows here. Checkout is disabled while the cart is empty or a line is sold out.
 */
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { CART_MAX_DISCOUNT_CODES, CART_MAX_LINE_QUANTITY, type Cart, type CartLine } from "~/contract/cart";
import { useCart } from "../lib/cart";
import { canCheckOut, checkoutTarget, clampQuantity, lineBlocksCheckout } from "../lib/cart-state";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { formatMoney } from "../lib/products";
import { productPath } from "../lib/product-path";
import "../cart.css";
import { LOGO_WIDTHS, ResponsiveImage } from "./ResponsiveImage";

const fmt = (m: { amount: string; currencyCode: string }) => formatMoney(m.amount, m.currencyCode);

function QuantityStepper({ line, onChange, disabled }: { line: CartLine; onChange(q: number): void; disabled: boolean }) {
  const [draft, setDraft] = useState<string | null>(null);
  const title = line.merchandise.productTitle;
  const commit = () => {
    if (draft === null) return;
    const n = clampQuantity(Number(draft), CART_MAX_LINE_QUANTITY);
    setDraft(null);
    if (n !== line.quantity) onChange(n);
  };
  return (
    <div className="cart-qty" role="group" aria-label={`Quantity of ${title}`}>
      <button
        type="button"
        className="cart-qty__step"
        aria-label={`One fewer ${title}`}
        disabled={disabled || line.quantity <= 1}
        onClick={() => onChange(line.quantity - 1)}
        data-testid="cart-line-decrease"
      >
        −
      </button>
      <input
        className="cart-qty__input"
        type="number"
        inputMode="numeric"
        min={1}
        max={CART_MAX_LINE_QUANTITY}
        aria-label={`Quantity of ${title}`}
        value={draft ?? String(line.quantity)}
        disabled={disabled}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        }}
        data-testid="cart-line-quantity"
      />
      <button
        type="button"
        className="cart-qty__step"
        aria-label={`One more ${title}`}
        disabled={disabled || line.quantity >= CART_MAX_LINE_QUANTITY}
        onClick={() => onChange(line.quantity + 1)}
        data-testid="cart-line-increase"
      >
        +
      </button>
    </div>
  );
}

function CartLineRow({ line, onNavigate }: { line: CartLine; onNavigate?(): void }) {
  const { update, remove } = useCart();
  const m = line.merchandise;
  const variant = m.variantTitle && m.variantTitle !== "Default Title" ? m.variantTitle : null;
  const compareAt = line.cost.compareAtAmountPerQuantity;
  const soldOut = lineBlocksCheckout(line);
  return (
    <li className={`cart-line${soldOut ? " cart-line--out" : ""}`} data-testid="cart-line" data-line-id={line.id} data-variant-id={m.variantId}>
      <Link to={productPath({ id: m.productId, handle: m.productHandle })} className="cart-line__media" onClick={onNavigate} tabIndex={-1} aria-hidden="true">
        {m.image ? <ResponsiveImage url={m.image.url} alt="" widths={LOGO_WIDTHS} sizes="72px" width={72} height={96} /> : <span className="cart-line__noimg" />}
      </Link>
      <div className="cart-line__info">
        <Link to={productPath({ id: m.productId, handle: m.productHandle })} className="cart-line__title" onClick={onNavigate} data-testid="cart-line-title">
          {m.productTitle}
        </Link>
        {variant && (
          <p className="cart-line__variant" data-testid="cart-line-variant">
            {variant}
          </p>
        )}
        <p className="cart-line__price">
          <span data-testid="cart-line-price">{fmt(line.cost.amountPerQuantity)}</span>
          {compareAt && Number(compareAt.amount) > Number(line.cost.amountPerQuantity.amount) && <s className="cart-line__compare">{fmt(compareAt)}</s>}
        </p>
        {line.issue && (
          <p className={`cart-line__issue cart-line__issue--${line.issue.code.toLowerCase()}`} role="status" data-testid="cart-line-issue" data-code={line.issue.code}>
            {line.issue.message}
          </p>
        )}
        <div className="cart-line__controls">
          {soldOut ? (
            <span className="cart-line__soldout">Sold out</span>
          ) : (
            <QuantityStepper line={line} disabled={false} onChange={(q) => void update(line.id, q)} />
          )}
          <button type="button" className="link-button" onClick={() => void remove(line.id)} aria-label={`Remove ${m.productTitle}`} data-testid="cart-line-remove">
            Remove
          </button>
        </div>
      </div>
      <p className="cart-line__total" data-testid="cart-line-total">
        {fmt(line.cost.totalAmount)}
      </p>
    </li>
  );
}

function DiscountCodes({ cart }: { cart: Cart }) {
  const { applyCodes, busy } = useCart();
  const [code, setCode] = useState("");
  const id = useId();
  const codes = cart.discountCodes.map((c) => c.code);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (!value) return;
    if (codes.some((c) => c.toLowerCase() === value.toLowerCase())) {
      setCode("");
      return;
    }
    void applyCodes([...codes, value].slice(-CART_MAX_DISCOUNT_CODES)).then(() => setCode(""));
  };
  return (
    <div className="cart-codes">
      <form className="cart-codes__form" onSubmit={submit} data-testid="cart-discount-form">
        <label htmlFor={`${id}-code`} className="cart-codes__label">
          Discount code
        </label>
        <div className="cart-codes__row">
          <input id={`${id}-code`} className="field__input cart-codes__input" value={code} onChange={(e) => setCode(e.target.value)} maxLength={64} autoComplete="off" data-testid="cart-discount-input" />
          <button type="submit" className="button button--ghost button--small" disabled={busy || !code.trim()} data-testid="cart-discount-apply">
            Apply
          </button>
        </div>
      </form>
      {cart.discountCodes.length > 0 && (
        <ul className="cart-codes__list" aria-label="Discount codes">
          {cart.discountCodes.map((c) => (
            <li key={c.code} className={`cart-code${c.applicable ? "" : " cart-code--na"}`} data-testid="cart-discount-code" data-applicable={String(c.applicable)}>
              <span className="cart-code__name">{c.code}</span>
              <span className="cart-code__state">{c.applicable ? "Applied" : "does not apply to your cart"}</span>
              <button
                type="button"
                className="link-button"
                aria-label={`Remove code ${c.code}`}
                disabled={busy}
                onClick={() => void applyCodes(codes.filter((x) => x !== c.code))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function CheckoutButton({ cart, onNavigate }: { cart: Cart; onNavigate?(): void }) {
  const navigate = useNavigate();
  const { busy } = useCart();
  const ok = canCheckOut(cart);
  const soldOut = cart.lines.some(lineBlocksCheckout);
  return (
    <>
      <button
        type="button"
        className="button button--block"
        disabled={!ok || busy}
        onClick={() => {
          if (!cart.checkoutUrl) return;
          const target = checkoutTarget(cart.checkoutUrl, window.location.origin);
          onNavigate?.();
          if (target.kind === "route") navigate(target.path);
          else window.location.assign(target.url);
        }}
        data-testid="cart-checkout"
      >
        Check out
      </button>
      {soldOut && <p className="cart-summary__note">Remove the sold-out items to check out.</p>}
    </>
  );
}

/** Lines, codes and summary; `onNavigate` closes the drawer when a link leaves it. */
export function CartContents({ onNavigate, showWarnings = true }: { onNavigate?(): void; showWarnings?: boolean }) {
  const { cart, status, error, dismissError, refresh } = useCart();
  const { gender } = useGender();

  if (status === "loading" && cart.lines.length === 0 && cart.totalQuantity === 0) {
    return (
      <p className="cart-state" role="status">
        Loading your cart…
      </p>
    );
  }
  if (status === "error" && cart.lines.length === 0) {
    return (
      <div className="cart-state" role="alert" data-testid="cart-error">
        <p>Your cart could not be loaded.</p>
        <button type="button" className="button button--small" onClick={refresh}>
          Retry
        </button>
      </div>
    );
  }

  return (
    <div className="cart-contents" data-testid="cart-contents">
      {error && (
        <div className="cart-alert" role="alert" data-testid="cart-alert">
          <span>{error}</span>
          <button type="button" className="link-button" onClick={dismissError}>
            Dismiss
          </button>
        </div>
      )}
      {showWarnings && cart.warnings.length > 0 && (
        <ul className="cart-warnings" aria-live="polite" data-testid="cart-warnings">
          {cart.warnings.map((w, i) => (
            <li key={`${w.code}-${i}`}>{w.message}</li>
          ))}
        </ul>
      )}
      {cart.lines.length === 0 ? (
        cart.totalQuantity > 0 ? (
          <p className="cart-state" role="status">
            Adding to your cart…
          </p>
        ) : (
          <div className="cart-empty" data-testid="cart-empty">
            <p className="cart-empty__title">Your cart is empty</p>
            <Link className="button" to={homePathFor(gender)} onClick={onNavigate}>
              Continue shopping
            </Link>
          </div>
        )
      ) : (
        <>
          <ul className="cart-lines" aria-label="Items in your cart" data-testid="cart-lines">
            {cart.lines.map((line) => (
              <CartLineRow key={line.id} line={line} onNavigate={onNavigate} />
            ))}
          </ul>
          <DiscountCodes cart={cart} />
          <dl className="cart-summary" data-testid="cart-summary">
            <div className="cart-summary__row">
              <dt>Subtotal</dt>
              <dd data-testid="cart-subtotal">{cart.subtotal ? fmt(cart.subtotal) : "—"}</dd>
            </div>
            {cart.subtotal && cart.total && cart.total.amount !== cart.subtotal.amount && (
              <div className="cart-summary__row">
                <dt>After discounts</dt>
                <dd data-testid="cart-total">{fmt(cart.total)}</dd>
              </div>
            )}
          </dl>
          <p className="cart-summary__note">Taxes and shipping calculated at checkout</p>
          <CheckoutButton cart={cart} onNavigate={onNavigate} />
        </>
      )}
    </div>
  );
}
