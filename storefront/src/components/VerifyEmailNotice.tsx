/**
 * Asks a shopper to confirm their email address: orders placed with it appear in the account only
 * once the emailed link is followed. "Resend the link" emails a new one (the server limits how
 * often, and its refusal says how long to wait).
 */
import { useMutation } from "@tanstack/react-query";
import type { User } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { needsEmailVerification } from "../lib/email-verification";

export function VerifyEmailNotice({ user, what = "Your orders appear here" }: { user: User | null; what?: string }) {
  const api = useApi();
  const resend = useMutation({ mutationFn: () => api.resendEmailVerification() });
  if (!needsEmailVerification(user)) return null;
  return (
    <div className="notice verify-notice" data-testid="verify-email-notice">
      <p className="verify-notice__text">
        Check your inbox: we sent a link to <strong>{user.email}</strong> to confirm your email address. {what} once it is confirmed.
      </p>
      {resend.isSuccess && (
        <p className="form-ok" role="status" data-testid="verify-email-sent">
          We sent a new link to {resend.data.email}.
        </p>
      )}
      {resend.isError && (
        <p className="form-error" role="alert" data-testid="verify-email-resend-error">
          {errorMessage(resend.error, "The link could not be sent. Please try again.")}
        </p>
      )}
      <button type="button" className="button button--ghost button--small" disabled={resend.isPending} onClick={() => resend.mutate()} data-testid="verify-email-resend">
        {resend.isPending ? "Sending…" : "Resend the link"}
      </button>
    </div>
  );
}
