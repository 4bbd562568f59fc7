/**
 * Header links to the shopper's own pages: Saved (the heart) and Account (which has tabs to
 * Following and My collections). Guests see Saved (they can save and follow) and Sign in; signed-in
 * shoppers reach Account through the account menu (`withAccount={false}`). The links are named
 * (aria-label) as their labels say: below 768 px only their icons show.
 */
import { NavLink } from "react-router-dom";
import { HeartIcon } from "./SaveButton";
import "../account.css";

export function AccountLinks({ withAccount = true }: { withAccount?: boolean } = {}) {
  return (
    <nav className="account-links" aria-label="Your lists">
      <NavLink to="/saved" className="account-links__link" aria-label="Saved" data-testid="header-saved-link">
        <HeartIcon filled={false} />
        <span className="account-links__label">Saved</span>
      </NavLink>
      {withAccount && (
        <NavLink to="/account" className="account-links__link" aria-label="Account" data-testid="header-account-link">
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <circle cx="12" cy="8.5" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <path d="M4.5 20c1.4-3.6 4.2-5.2 7.5-5.2s6.1 1.6 7.5 5.2" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
          <span className="account-links__label">Account</span>
        </NavLink>
      )}
    </nav>
  );
}
