/**
 * `/register`: create an account with an email and a password. A guest who signs up keeps what
 * they saved, followed and tried on (the server turns the guest into the account, as signing in
 * merges a guest). The password rules are shown under the field; the server's refusal (a taken
 * address, a common password) is shown as it says it. Afterwards the shopper is asked to confirm
 * the address with the emailed link (Resend from here or the account page).
 */
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { errorMessage } from "../lib/api";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { passwordProblem } from "../lib/password-rules";
import { useSession } from "../lib/session";
import { useDocumentTitle } from "../lib/use-document-title";
import { AuthCard, EmailField, FormError, NewPasswordField, ShowPasswordToggle, SubmitButton } from "../components/AuthCard";
import { TextField } from "../components/Field";
import { VerifyEmailNotice } from "../components/VerifyEmailNotice";
import "../auth.css";

export function SignUp() {
  const { user, signedIn, signUp, signingUp } = useSession();
  const { gender } = useGender();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [password, setPassword] = useState("");
  const [show, setShow] = useState(false);
  const [error, setError] = useState<{ message: string; taken: boolean } | null>(null);
  const [created, setCreated] = useState(false);

  useDocumentTitle("Create an account");

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const problem = passwordProblem(password, email);
    if (problem) {
      setError({ message: problem, taken: false });
      return;
    }
    try {
      await signUp({ email: email.trim(), password, ...(firstName.trim() ? { first_name: firstName.trim() } : {}), ...(lastName.trim() ? { last_name: lastName.trim() } : {}) });
      setCreated(true);
    } catch (err) {
      setError({ message: errorMessage(err, "Your account could not be created. Please try again."), taken: err instanceof ApiClientError && err.status === 409 });
    }
  }

  if (created && user) {
    return (
      <AuthCard headingId="signup-heading" title={`Welcome${user.first_name ? `, ${user.first_name}` : ""}`} testId="signup-done">
        <p className="auth-card__text">Your account is ready and you are signed in as {user.email}. Everything you saved as a guest is in it.</p>
        <VerifyEmailNotice user={user} what="Orders you place with it appear in your account" />
        <div className="state__actions">
          <Link className="button" to={homePathFor(gender)}>
            Continue shopping
          </Link>
          <Link className="button button--ghost" to="/account">
            Your account
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (signedIn && user) {
    return (
      <AuthCard headingId="signup-heading" title="You already have an account" testId="signup-signed-in">
        <p className="auth-card__text">You are signed in as {user.email}. Sign out first to create another account.</p>
        <div className="state__actions">
          <Link className="button" to="/account">
            Your account
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard headingId="signup-heading" title="Create an account" testId="signup-form" onSubmit={onSubmit}>
      <p className="auth-card__text">Keep your saved products, follows, try-ons and orders on every device. What you saved as a guest comes with you.</p>
      <EmailField value={email} onChange={setEmail} testId="signup-email" />
      <div className="auth-card__row">
        <TextField label="First name (optional)" name="given-name" autoComplete="given-name" maxLength={100} value={firstName} onChange={(e) => setFirstName(e.target.value)} />
        <TextField label="Last name (optional)" name="family-name" autoComplete="family-name" maxLength={100} value={lastName} onChange={(e) => setLastName(e.target.value)} />
      </div>
      <NewPasswordField label="Password" show={show} value={password} onChange={setPassword} email={email} testId="signup-password" />
      <ShowPasswordToggle show={show} onChange={setShow} label="Show password" />
      {error && (
        <FormError testId="signup-error">
          {error.message}
          {error.taken && (
            <>
              {" "}
              <Link to={`/login?email=${encodeURIComponent(email.trim())}`}>Sign in</Link> or{" "}
              <Link to={`/forgot-password?email=${encodeURIComponent(email.trim())}`}>reset your password</Link>.
            </>
          )}
        </FormError>
      )}
      <SubmitButton pending={signingUp} pendingLabel="Creating your account…" testId="signup-submit">
        Create account
      </SubmitButton>
      <p className="auth-card__foot">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}
