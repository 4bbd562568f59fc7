/**
 * Tabs between the shopper's orders, returns and notification settings, and the note shown to a
 * visitor who has not signed in.
 */
import { Link, NavLink } from "react-router-dom";
import { NOTIFICATIONS_PATH, ORDERS_PATH, RETURNS_PATH } from "../lib/orders";
import "../orders.css";

export function OrdersNav() {
  return (
    <nav className="orders-nav" aria-label="Orders and notifications">
      <NavLink to={ORDERS_PATH} className="orders-nav__link" data-testid="orders-nav-orders">
        Orders
      </NavLink>
      <NavLink to={RETURNS_PATH} className="orders-nav__link" data-testid="orders-nav-returns">
        Returns
      </NavLink>
      <NavLink to={NOTIFICATIONS_PATH} className="orders-nav__link" data-testid="orders-nav-notifications">
        Notifications
      </NavLink>
    </nav>
  );
}

/** For guests: what they would see here once signed in. */
export function SignInFor({ what, testId }: { what: string; testId?: string }) {
  return (
    <div className="state" data-testid={testId ?? "orders-signin"}>
      <h2 className="state__title">Sign in to see {what}</h2>
      <p className="state__text">Your orders, returns and notifications are kept with your account.</p>
      <Link className="button" to="/login">
        Sign in
      </Link>
    </div>
  );
}

export function Badge({ tone, children, testId }: { tone: "positive" | "neutral" | "negative"; children: string; testId?: string }) {
  return (
    <span className={`badge badge--${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}
