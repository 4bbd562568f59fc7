/**
 * `/forgot-password`: asks for a reset link. The answer is the same for every address (the server
 * does not say whether an account uses it); the link works for an hour, once.
 */
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { errorMessage, useApi } from "../lib/api";
import { useDocumentTitle } from "../lib/use-document-title";
import { TextField } from "../components/Field";
import "../auth.css";

export function ForgotPassword() {
  const api = useApi();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get("email") ?? "");
  const request = useMutation({ mutationFn: (address: string) => api.requestPasswordReset({ body: { email: address } }) });
  useDocumentTitle("Reset your password");

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    request.mutate(email.trim());
  }

  if (request.isSuccess) {
    return (
      <section className="page page--narrow" aria-labelledby="forgot-heading">
        <div className="auth-card" data-testid="forgot-sent">
          <h1 id="forgot-heading" className="auth-card__title">
            Check your inbox
          </h1>
          <p className="auth-card__text" role="status">
            {request.data.message}
          </p>
          <p className="auth-card__text">Nothing after a few minutes? Look in your spam folder, check the address, or ask again.</p>
          <div className="state__actions">
            <button type="button" className="button button--ghost" onClick={() => request.reset()} data-testid="forgot-again">
              Use another address
            </button>
            <Link className="button" to="/login">
              Back to sign in
            </Link>
          </div>
        </div>
      </section>
    );
  }

  return (
    <section className="page page--narrow" aria-labelledby="forgot-heading">
      <form className="auth-card" onSubmit={onSubmit} data-testid="forgot-form">
        <h1 id="forgot-heading" className="auth-card__title">
          Reset your password
        </h1>
        <p className="auth-card__text">Enter the email address of your account. We will email you a link to choose a new password.</p>
        <TextField label="Email" type="email" name="email" autoComplete="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} data-testid="forgot-email" />
        {request.isError && (
          <p className="form-error" role="alert" data-testid="forgot-error">
            {errorMessage(request.error, "The link could not be sent. Please try again.")}
          </p>
        )}
        <button type="submit" className="button button--block" disabled={request.isPending} data-testid="forgot-submit">
          {request.isPending ? "Sending…" : "Email me a link"}
        </button>
        <p className="auth-card__foot">
          Remembered it? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </section>
  );
}
