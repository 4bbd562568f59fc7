import { useState } from "react";
import { Link } from "react-router-dom";
import { useSession } from "../lib/session";
import { errorMessage } from "../lib/api";

export function AccountMenu() {
  const { user, signedIn, signOut, signingOut } = useSession();
  const [error, setError] = useState<string | null>(null);

  if (!signedIn || !user) {
    return (
      <Link className="account__signin" to="/login">
        Sign in
      </Link>
    );
  }

  return (
    <div className="account">
      <span className="account__email" title={user.email ?? undefined}>
        {user.email}
      </span>
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
