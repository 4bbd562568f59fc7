/**
 * The main navigation below 768 px (the header's nav is hidden there): a Menu button that opens a
 * panel under the header with every main destination (Shop, Stores, the Assistant, photo search,
 * the shopper's lists, Account and Sign out, or Sign in) and the gender switch. WAI-ARIA disclosure: the button
 * says whether the panel is open (aria-expanded) and which it controls; opening moves the focus to
 * the first link; Escape closes and puts the focus back on the button; so do a click outside and
 * the focus leaving the menu; following a link closes it.
 */
import { useEffect, useRef, useState } from "react";
import { NavLink } from "react-router-dom";
import { errorMessage } from "../lib/api";
import { useGender } from "../lib/gender";
import { homePathFor, storesPathFor } from "../lib/gender-routing";
import { useSession } from "../lib/session";
import { useDisclosure } from "../lib/use-disclosure";
import { GenderSwitch } from "./GenderSwitch";

interface MenuLink {
  to: string;
  label: string;
  testId: string;
  end?: boolean;
}

export function MobileMenu() {
  const { open, setOpen, panelId, rootRef: root, buttonRef, toggle } = useDisclosure();
  const panel = useRef<HTMLDivElement>(null);
  const { gender } = useGender();
  const { user, signedIn, signOut, signingOut } = useSession();
  const [signOutError, setSignOutError] = useState<string | null>(null);

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>("a[href], button")?.focus();
  }, [open]);

  const main: MenuLink[] = [
    { to: homePathFor(gender), label: "Shop", testId: "mobile-menu-shop", end: true },
    { to: storesPathFor(gender), label: "Stores", testId: "mobile-menu-stores" },
    { to: "/drops", label: "Drops", testId: "mobile-menu-drops" },
    { to: "/assistant", label: "Assistant", testId: "mobile-menu-assistant" },
    { to: "/photo-search", label: "Search with a photo", testId: "mobile-menu-photo-search" },
  ];
  const mine: MenuLink[] = [
    { to: "/saved", label: "Saved", testId: "mobile-menu-saved" },
    { to: "/following", label: "Following", testId: "mobile-menu-following" },
    { to: "/my-collections", label: "My collections", testId: "mobile-menu-collections" },
    { to: "/try-ons", label: "Try-ons", testId: "mobile-menu-try-ons" },
    signedIn
      ? { to: "/account", label: "Account", testId: "mobile-menu-account", end: true }
      : { to: "/login", label: "Sign in", testId: "mobile-menu-sign-in" },
  ];
  const item = (l: MenuLink) => (
    <li key={l.testId}>
      <NavLink to={l.to} end={l.end} className="mobile-menu__link" data-testid={l.testId}>
        {l.label}
      </NavLink>
    </li>
  );

  return (
    <div
      className="mobile-menu"
      ref={root}
      onBlur={(e) => {
        // Tabbing out of the button and the panel closes the menu.
        if (open && e.relatedTarget && root.current && !root.current.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="mobile-menu__button"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="mobile-menu-button"
        onClick={toggle}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          {open ? (
            <path d="M6 6l12 12M18 6 6 18" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          ) : (
            <path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          )}
        </svg>
      </button>
      <div id={panelId} ref={panel} className="mobile-menu__panel" hidden={!open} data-testid="mobile-menu">
        {open && (
          <>
            <nav aria-label="Main">
              <ul className="mobile-menu__list">{main.map(item)}</ul>
            </nav>
            <div className="mobile-menu__gender">
              <p className="mobile-menu__heading" aria-hidden="true">
                Shop for
              </p>
              <GenderSwitch testIdPrefix="mobile-menu-gender" />
            </div>
            {user && (
              <nav aria-label="Your pages">
                <ul className="mobile-menu__list mobile-menu__list--mine">
                  {mine.map(item)}
                  {signedIn && (
                    <li>
                      <button
                        type="button"
                        className="mobile-menu__signout"
                        disabled={signingOut}
                        data-testid="mobile-menu-sign-out"
                        onClick={async () => {
                          setSignOutError(null);
                          try {
                            await signOut();
                            setOpen(false);
                          } catch (e) {
                            setSignOutError(errorMessage(e, "Could not sign out. Please try again."));
                          }
                        }}
                      >
                        {signingOut ? "Signing out…" : "Sign out"}
                      </button>
                    </li>
                  )}
                </ul>
                {signOutError && (
                  <p className="mobile-menu__error" role="alert">
                    {signOutError}
                  </p>
                )}
              </nav>
            )}
          </>
        )}
      </div>
    </div>
  );
}
