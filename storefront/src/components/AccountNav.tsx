/**
 * The shopper's own pages: tabs between Saved, Following, My collections and Account; a note for
 * guests (what they keep lives in their guest session until they sign in); and a gate that waits
 * for the session (every visitor gets one: a guest until they sign in).
 */
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router-dom";
import { errorMessage } from "../lib/api";
import { useSession } from "../lib/session";
import { Spinner } from "./FeedStatus";
import "../account.css";

export const ACCOUNT_LINKS = [
  { to: "/saved", label: "Saved" },
  { to: "/following", label: "Following" },
  { to: "/my-collections", label: "My collections" },
  { to: "/clones", label: "My clones" },
  { to: "/try-ons", label: "Try-ons" },
  { to: "/saved-try-ons", label: "Saved try-ons" },
  { to: "/account", label: "Account" },
] as const;

export function AccountNav() {
  return (
    <nav className="account-nav" aria-label="Your account">
      {ACCOUNT_LINKS.map((l) => (
        <NavLink key={l.to} to={l.to} className="account-nav__link" end={l.to === "/account"}>
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function GuestNote({ what }: { what: string }) {
  const { user, signedIn } = useSession();
  if (!user || signedIn) return null;
  return (
    <p className="guest-note" data-testid="guest-note">
      You are browsing as a guest: {what} stay with this browser. <Link to="/login">Sign in</Link> to keep them on every device.
    </p>
  );
}

/** Renders `children` once there is a session; a spinner while it starts; an error with a retry. */
export function SessionGate({ children }: { children: ReactNode }) {
  const { user, status, error, refresh } = useSession();
  if (user) return <>{children}</>;
  if (status === "error") {
    return (
      <div className="state state--error" role="alert">
        <h2 className="state__title">Your session could not be started</h2>
        <p className="state__text">{errorMessage(error)}</p>
        <button type="button" className="button" onClick={refresh}>
          Retry
        </button>
      </div>
    );
  }
  return <Spinner label="Loading…" />;
}
