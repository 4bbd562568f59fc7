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
      <section className="page page--narrow" aria-labelledby="verify-heading">
        <div className="state" data-testid="verify-email-invalid">
          <h1 id="verify-heading" className="state__title">
            This link does not work
          </h1>
          <p className="state__text">{token ? errorMessage(result.error) : "The link has no token. Open the link from your email again."}</p>
          <Link className="button" to="/account">
            Go to your account
          </Link>
        </div>
      </section>
    );
  }
  if (result.isError) {
    return (
      <section className="page page--narrow" aria-labelledby="verify-heading">
        <div className="state state--error" role="alert" data-testid="verify-email-error">
          <h1 id="verify-heading" className="state__title">
            Your email could not be confirmed right now
          </h1>
          <p className="state__text">{errorMessage(result.error)}</p>
          <button type="button" className="button" onClick={() => void result.refetch()}>
            Try again
          </button>
        </div>
      </section>
    );
  }
  if (!verified) return <Spinner label="Confirming your email…" />;
  const n = verified.linked_orders;
  return (
    <section className="page page--narrow" aria-labelledby="verify-heading">
      <div className="state" data-testid="verify-email-done">
        <h1 id="verify-heading" className="state__title">
          Your email is confirmed
        </h1>
        <p className="state__text">
          {verified.email} is confirmed. {n > 0 ? `${n} earlier ${n === 1 ? "order" : "orders"} placed with it ${n === 1 ? "is" : "are"} now in your account.` : "Orders you place with it appear in your account."}
        </p>
        <Link className="button" to={ORDERS_PATH}>
          See your orders
        </Link>
      </div>
    </section>
  );
}
