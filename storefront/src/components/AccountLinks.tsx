/**
 * Header links to the shopper's own pages: Saved (the heart) and Account (which has tabs to
 * Following and My collections). Shown to guests too: they can save and follow. Signed-in
 * shoppers reach Account through the account menu (`withAccount={false}`).
 */
import { NavLink } from "react-router-dom";
import { HeartIcon } from "./SaveButton";
import "../account.css";

export function AccountLinks({ withAccount = true }: { withAccount?: boolean } = {}) {
  return (
    <nav className="account-links" aria-label="Your lists">
      <NavLink to="/saved" className="account-links__link" data-testid="header-saved-link">
        <HeartIcon filled={false} />
        <span className="account-links__label">Saved</span>
      </NavLink>
      {withAccount && (
        <NavLink to="/account" className="account-links__link" data-testid="header-account-link">
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
