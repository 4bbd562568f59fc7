import { useState } from "react";
import { Link } from "react-router-dom";
import { useSession } from "../lib/session";
import { errorMessage } from "../lib/api";
import { AccountLinks } from "./AccountLinks";

export function AccountMenu() {
  const { user, signedIn, signOut, signingOut } = useSession();
  const [error, setError] = useState<string | null>(null);

  if (!signedIn || !user) {
    return (
      <div className="account">
        {user && <AccountLinks />}
        <Link className="account__signin" to="/login">
          Sign in
        </Link>
      </div>
    );
  }

  return (
    <div className="account">
      <AccountLinks />
      <span className="account__email" title={user.email ?? undefined}>
        {user.email}
      </span>
      <Link className="account__link" to="/account/orders" data-testid="account-orders-link">
        Orders
      </Link>
      <Link className="account__link" to="/reviewable-orders" data-testid="account-reviews-link">
        Reviews to write
      </Link>
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
