/**
 * `/forgot-password`: asks for a reset link. The answer is the same for every address (the server
 * does not say whether an account uses it); the link works for an hour, once.
 */
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { errorMessage, useApi } from "../lib/api";
import { useDocumentTitle } from "../lib/use-document-title";
import { AuthCard, EmailField, FormError, SubmitButton } from "../components/AuthCard";
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
      <AuthCard headingId="forgot-heading" title="Check your inbox" testId="forgot-sent">
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
      </AuthCard>
    );
  }

  return (
    <AuthCard headingId="forgot-heading" title="Reset your password" testId="forgot-form" onSubmit={onSubmit}>
      <p className="auth-card__text">Enter the email address of your account. We will email you a link to choose a new password.</p>
      <EmailField value={email} onChange={setEmail} testId="forgot-email" />
      {request.isError && <FormError testId="forgot-error">{errorMessage(request.error, "The link could not be sent. Please try again.")}</FormError>}
      <SubmitButton pending={request.isPending} pendingLabel="Sending…" testId="forgot-submit">
        Email me a link
      </SubmitButton>
      <p className="auth-card__foot">
        Remembered it? <Link to="/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}
