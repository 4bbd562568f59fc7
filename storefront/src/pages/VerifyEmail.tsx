/**
 * `/verify-email?token=…`: the page of the verification email. It sends the token once (the
 * answer is kept, so going back to the page does not use the link again) and says what happened:
 * confirmed (with the orders now in the account), or why the link does not work and what to do.
 */
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { verifyEmailKey } from "../lib/email-verification";
import { ORDERS_KEY, ORDERS_PATH, RETURNS_KEY } from "../lib/orders";
import { SESSION_QUERY_KEY, useSession } from "../lib/session";
import { useDocumentTitle } from "../lib/use-document-title";
import { AuthRetryState, AuthState } from "../components/AuthCard";
import { Spinner } from "../components/FeedStatus";

export function VerifyEmail() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [params] = useSearchParams();
  const token = (params.get("token") ?? "").trim();
  useDocumentTitle("Confirm your email");
  const result = useQuery({
    queryKey: verifyEmailKey(token),
    queryFn: () => api.verifyEmail({ body: { token } }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const verified = result.data;
  useEffect(() => {
    // The signed-in account is the one confirmed: its notice goes, and its orders load again.
    if (!verified || !user || user.email !== verified.email || user.email_verified_at) return;
    queryClient.setQueryData(SESSION_QUERY_KEY, { ...user, email_verified_at: new Date().toISOString() });
    void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    void queryClient.invalidateQueries({ queryKey: RETURNS_KEY });
  }, [verified, user, queryClient]);

  if (!token || (result.error instanceof ApiClientError && result.error.status < 500)) {
    return (
      <AuthState
        headingId="verify-heading"
        title="This link does not work"
        text={token ? errorMessage(result.error) : "The link has no token. Open the link from your email again."}
        testId="verify-email-invalid"
      >
        <Link className="button" to="/account">
          Go to your account
        </Link>
      </AuthState>
    );
  }
  if (result.isError) {
    return (
      <AuthRetryState
        headingId="verify-heading"
        title="Your email could not be confirmed right now"
        testId="verify-email-error"
        error={result.error}
        onRetry={() => void result.refetch()}
      />
    );
  }
  if (!verified) return <Spinner label="Confirming your email…" />;
  const n = verified.linked_orders;
  const linked =
    n > 0 ? `${n} earlier ${n === 1 ? "order" : "orders"} placed with it ${n === 1 ? "is" : "are"} now in your account.` : "Orders you place with it appear in your account.";
  return (
    <AuthState
      headingId="verify-heading"
      title="Your email is confirmed"
      text={
        <>
          {verified.email} is confirmed. {linked}
        </>
      }
      testId="verify-email-done"
    >
      <Link className="button" to={ORDERS_PATH}>
        See your orders
      </Link>
    </AuthState>
  );
}
