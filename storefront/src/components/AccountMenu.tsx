/**
 * The header's account area. Signed in: Saved, an Account menu (the email and the shopper's pages:
 * account, orders, returns, reviews to write, notifications, clones) and Sign out, so the header
 * fits from 375 px to 1280 px. Signed out (guests): Saved and Sign in.
 */
import { useState } from "react";
import { Link, NavLink } from "react-router-dom";
import { useSession } from "../lib/session";
import { errorMessage } from "../lib/api";
import { useDisclosure } from "../lib/use-disclosure";
import { AccountLinks } from "./AccountLinks";

const MENU_LINKS: { to: string; label: string; testId: string; end?: boolean }[] = [
  { to: "/account", label: "Account", testId: "header-account-link", end: true },
  { to: "/account/orders", label: "Orders", testId: "account-orders-link" },
  { to: "/account/returns", label: "Returns", testId: "account-returns-link" },
  { to: "/reviewable-orders", label: "Reviews to write", testId: "account-reviews-link" },
  { to: "/account/notifications", label: "Notifications", testId: "account-notifications-link" },
  { to: "/clones", label: "My clones", testId: "account-clones-link" },
];

function AccountDropdown({ email }: { email: string | null }) {
  const { open, panelId, rootRef, buttonRef, toggle } = useDisclosure();

  return (
    <div className="account-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account-menu__button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label="Account menu"
        data-testid="account-menu-button"
        onClick={toggle}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="12" cy="8.5" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <path d="M4.5 20c1.4-3.6 4.2-5.2 7.5-5.2s6.1 1.6 7.5 5.2" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
        <span className="account-menu__label">Account</span>
        <svg className="account-menu__chevron" viewBox="0 0 12 12" width="10" height="10" aria-hidden="true" focusable="false">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <div id={panelId} className="account-menu__panel" hidden={!open} data-testid="account-menu">
        <span className="account__email" title={email ?? undefined}>
          {email}
        </span>
        <nav aria-label="Your account">
          {MENU_LINKS.map((l) => (
            <NavLink key={l.to} to={l.to} end={l.end} className="account-menu__link" data-testid={l.testId}>
              {l.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </div>
  );
}

export function AccountMenu() {
  const { user, signedIn, signOut, signingOut } = useSession();
  const [error, setError] = useState<string | null>(null);

  if (!signedIn || !user) {
    // Signed out: Saved and Sign in (not "Account" as well: one or the other). A guest's account
    // pages stay reachable from the tabs of Saved and from the mobile menu.
    return (
      <div className="account">
        {user && <AccountLinks withAccount={false} />}
        <Link className="account__signin" to="/login" data-testid="header-sign-in">
          Sign in
        </Link>
      </div>
    );
  }

  return (
    <div className="account">
      <AccountLinks withAccount={false} />
      <AccountDropdown email={user.email ?? null} />
      <button
        type="button"
        className="account__signout"
        disabled={signingOut}
        onClick={async () => {
          setError(null);
          try {
            await signOut();
          } catch (e) {
            setError(errorMessage(e, "Could not sign out. Please try again."));
          }
        }}
      >
        {signingOut ? "Signing out…" : "Sign out"}
      </button>
      {error && (
        <span className="account__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
