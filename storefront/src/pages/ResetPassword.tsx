/**
 * `/reset-password?token=…`: the page of the reset email. It first asks whether the link still
 * works (so an expired or used link says so before anything is typed), then takes the new password
 * (the registration's rules, typed twice). Setting it signs the account out everywhere, this
 * browser too when it was signed in as that account: the shopper signs in with the new password.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { PASSWORD_MAX_LENGTH, passwordProblem, passwordResetKey } from "../lib/password-rules";
import { useSession } from "../lib/session";
import { useDocumentTitle } from "../lib/use-document-title";
import { Spinner } from "../components/FeedStatus";
import { AuthCard, AuthRetryState, AuthState, FormError, NewPasswordField, ShowPasswordToggle, SubmitButton } from "../components/AuthCard";
import { TextField } from "../components/Field";
import "../auth.css";

const isLinkRefusal = (e: unknown) => e instanceof ApiClientError && (e.status === 404 || e.status === 409 || e.status === 422);

function LinkDoesNotWork({ message }: { message: string }) {
  return (
    <AuthState headingId="reset-heading" title="This link does not work" text={message} testId="reset-invalid">
      <Link className="button" to="/forgot-password">
        Ask for a new link
      </Link>
    </AuthState>
  );
}

export function ResetPassword() {
  const api = useApi();
  const { user, signOut } = useSession();
  const [params] = useSearchParams();
  const token = (params.get("token") ?? "").trim();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [show, setShow] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useDocumentTitle("Choose a new password");

  const link = useQuery({
    queryKey: passwordResetKey(token),
    queryFn: () => api.checkPasswordReset({ body: { token } }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const reset = useMutation({
    mutationFn: (newPassword: string) => api.resetPassword({ body: { token, password: newPassword } }),
    onSuccess: (r) => {
      // Every session of the account ended, this browser's too when it was that account.
      if (user && user.email === r.email) void signOut().catch(() => undefined);
    },
  });

  if (!token) return <LinkDoesNotWork message="The link has no token. Open the link from your email again." />;

  if (reset.isSuccess) {
    const email = reset.data.email;
    return (
      <AuthCard headingId="reset-heading" title="Your password is changed" testId="reset-done">
        <p className="auth-card__text" role="status">
          Sign in with your new password. For your safety, {email} was signed out on every device.
        </p>
        <Link className="button button--block" to={`/login?email=${encodeURIComponent(email)}`} data-testid="reset-sign-in">
          Sign in
        </Link>
      </AuthCard>
    );
  }
  if (isLinkRefusal(link.error)) return <LinkDoesNotWork message={errorMessage(link.error)} />;
  if (link.isError) {
    return (
      <AuthRetryState headingId="reset-heading" title="This link could not be checked right now" testId="reset-error" error={link.error} onRetry={() => void link.refetch()} />
    );
  }
  if (!link.data) return <Spinner label="Checking your link…" />;

  const email = link.data.email;
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const p = passwordProblem(password, email, confirm);
    setProblem(p);
    if (!p) reset.mutate(password);
  }
  const refusedLink = isLinkRefusal(reset.error);

  return (
    <AuthCard headingId="reset-heading" title="Choose a new password" testId="reset-form" onSubmit={onSubmit}>
      <p className="auth-card__text">
        For <strong data-testid="reset-email">{email}</strong>. You will be signed out on every device and sign in again with the new password.
      </p>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordField label="New password" show={show} value={password} onChange={setPassword} email={email} testId="reset-password" />
      <TextField
        label="Type it again"
        type={show ? "text" : "password"}
        name="confirm-password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX_LENGTH}
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        data-testid="reset-confirm"
      />
      <ShowPasswordToggle show={show} onChange={setShow} label="Show passwords" />
      {(problem || reset.isError) && (
        <FormError testId="reset-form-error">
          {problem ?? errorMessage(reset.error, "Your password could not be changed. Please try again.")}
          {!problem && refusedLink && (
            <>
              {" "}
              <Link to="/forgot-password">Ask for a new link</Link>.
            </>
          )}
        </FormError>
      )}
      <SubmitButton pending={reset.isPending} pendingLabel="Saving…" testId="reset-submit">
        Set new password
      </SubmitButton>
    </AuthCard>
  );
}
