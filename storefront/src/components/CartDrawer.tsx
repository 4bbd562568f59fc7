/**
 * The cart drawer: opened by the header's cart button and by every successful add to cart. A
 * modal dialog (aria-modal, focus kept inside, Escape or the backdrop closes it, focus returns to
 * where it was); the page behind is inert. It can open over the product modal, so it puts back
 * the page's inert state as it found it.
 */
import { Suspense, useEffect, useRef, type KeyboardEvent } from "react";
import { createPortal } from "react-dom";
import { Link } from "react-router-dom";
import { useCart } from "../lib/cart";
import { cartButtonLabel as cartButtonLabelFor } from "../lib/cart-state";
// Loaded when the drawer first opens: the cart's lines and forms are not part of a page's first load.
const CartContents = lazyComponent(async () => (await import("./CartContents")).CartContents);
import "../cart.css";
import { dialogKeyDown } from "../lib/focus-trap";
import { lazyComponent } from "../lib/lazy-component";


export function CartDrawer() {
  const { drawerOpen } = useCart();
  return drawerOpen ? <OpenDrawer /> : null;
}

function OpenDrawer() {
  const { closeDrawer, count } = useCart();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const app = document.getElementById("root");
    const wasInert = app?.hasAttribute("inert") ?? false;
    const wasHidden = app?.getAttribute("aria-hidden") ?? null;
    app?.setAttribute("inert", "");
    app?.setAttribute("aria-hidden", "true");
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    closeRef.current?.focus();
    return () => {
      if (!wasInert) app?.removeAttribute("inert");
      if (wasHidden === null) app?.removeAttribute("aria-hidden");
      document.body.style.overflow = overflow;
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => dialogKeyDown(e, dialogRef.current, closeDrawer);

  return createPortal(
    <div className="cart-drawer" onKeyDown={onKeyDown} data-testid="cart-drawer-layer">
      <div className="cart-drawer__backdrop" onClick={closeDrawer} aria-hidden="true" data-testid="cart-drawer-backdrop" />
      <div ref={dialogRef} className="cart-drawer__panel" role="dialog" aria-modal="true" aria-labelledby="cart-drawer-title" data-testid="cart-drawer">
        <div className="cart-drawer__bar">
          <h2 id="cart-drawer-title" className="cart-drawer__title">
            Your cart{count > 0 ? ` (${count})` : ""}
          </h2>
          <Link to="/cart" className="cart-drawer__full" onClick={closeDrawer} data-testid="cart-drawer-page">
            View cart
          </Link>
          <button ref={closeRef} type="button" className="modal__close" onClick={closeDrawer} aria-label="Close cart" data-testid="cart-drawer-close">
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className="cart-drawer__body">
          <Suspense fallback={<p aria-busy="true">Loading your cart…</p>}>
            <CartContents onNavigate={closeDrawer} />
          </Suspense>
        </div>
      </div>
    </div>,
    document.body,
  );
}

/** The header's cart button: the count, and the drawer on click. */
export function CartButton() {
  const { count, openDrawer } = useCart();
  return (
    <button type="button" className="cart-button" onClick={openDrawer} aria-label={cartButtonLabelFor(count)} data-testid="cart-button" data-count={count}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M5 8h14l-1.2 12H6.2z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
        <path d="M9 8V6a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.8" />
      </svg>
      {count > 0 && (
        <span className="cart-button__count" aria-hidden="true" data-testid="cart-count">
          {count > 99 ? "99+" : count}
        </span>
      )}
    </button>
  );
}
