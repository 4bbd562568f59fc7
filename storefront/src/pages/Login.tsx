import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useSession } from "../lib/session";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { readStoredGender, savedGenderPreference } from "../lib/gender-preference";
import { safeSessionStorage } from "../lib/browser";
import { errorMessage } from "../lib/api";
import { useDocumentTitle } from "../lib/use-document-title";
import { AuthCard, EmailField, FormError, SubmitButton } from "../components/AuthCard";
import { TextField } from "../components/Field";
import "../auth.css";

export function Login() {
  const { user, signedIn, signIn, signingIn, signOut, signingOut } = useSession();
  const { gender } = useGender();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // After a password reset (or "Sign in" from sign-up) the address comes along.
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  useDocumentTitle("Sign in");

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const user = await signIn(email.trim(), password);
      // Straight to the home of the shopper's own preference (their interests): going to the
      // current one first and being redirected a moment later would close anything opened meanwhile.
      navigate(homePathFor(savedGenderPreference({ stored: readStoredGender(safeSessionStorage()), interests: user.metadata.interests ?? null, hasUser: true })));
    } catch (err) {
      setError(errorMessage(err, "Could not sign in. Please try again."));
    }
  }

  if (signedIn && user) {
    return (
      <AuthCard headingId="login-heading" title="You're signed in">
        <p className="auth-card__text">Signed in as {user.email}.</p>
        <div className="state__actions">
          <Link className="button" to={homePathFor(gender)}>
            Continue shopping
          </Link>
          <button type="button" className="button button--ghost" disabled={signingOut} onClick={() => void signOut().catch(() => undefined)}>
            Sign out
          </button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard headingId="login-heading" title="Sign in" onSubmit={onSubmit}>
      <p className="auth-card__text">Welcome back. Sign in to see your saved products, try-ons and orders.</p>
      <EmailField value={email} onChange={setEmail} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        maxLength={200}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p className="auth-card__links">
        <Link to={email.trim() ? `/forgot-password?email=${encodeURIComponent(email.trim())}` : "/forgot-password"} data-testid="login-forgot">
          Forgot password?
        </Link>
      </p>
      {error && <FormError>{error}</FormError>}
      <SubmitButton pending={signingIn} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
      <p className="auth-card__foot">
        New here?{" "}
        <Link to="/register" data-testid="login-register">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
