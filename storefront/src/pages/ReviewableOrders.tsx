/**
 * Reviewable orders (`/reviewable-orders`, SPEC §2, §6): delivered products of the shopper's
 * orders that they have not reviewed or dismissed, for signed-in shoppers who are not guests.
 * Each can be reviewed here (a verified review for that order) or dismissed. Kept fresh 5 minutes.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { REVIEWABLE_ORDERS_STALE_MS } from "~/contract/reviews";
import { reviewAuthorName } from "~/lib/review-author";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { productPath } from "../lib/product-path";
import { formatReviewDate, reviewKeys } from "../lib/reviews";
import { Spinner } from "../components/FeedStatus";
import { ReviewForm } from "../components/reviews/ReviewForm";
import { useDocumentTitle } from "../lib/use-document-title";

export function ReviewableOrders() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, signedIn, status } = useSession();
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery({
    queryKey: reviewKeys.reviewableOrders(),
    queryFn: () => api.reviewableOrders(),
    enabled: signedIn,
    staleTime: REVIEWABLE_ORDERS_STALE_MS,
  });
  const dismiss = useMutation({
    mutationFn: (v: { order_id: string; product_id: string }) => api.reviewableOrdersDismiss({ body: v }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.reviewableOrders() }),
  });

  useDocumentTitle("Reviews to write");

  if (status === "loading") return <Spinner label="Loading…" />;
  if (!signedIn) {
    return (
      <section className="page page--narrow">
        <div className="state" data-testid="reviewable-signin">
          <h1 className="state__title">Review your orders</h1>
          <p className="state__text">Sign in to see the products you received and review them.</p>
          <Link className="button" to="/login">
            Sign in
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section className="page review-page" aria-labelledby="reviewable-heading" data-testid="reviewable-orders">
      <h1 id="reviewable-heading" className="page__title">
        Reviews to write
      </h1>
      {notice && (
        <p className="reviews__thanks" role="status" data-testid="review-sent">
          {notice}
        </p>
      )}
      {dismiss.isError && (
        <p className="form-error" role="alert">
          {errorMessage(dismiss.error, "This product could not be dismissed. Please try again.")}
        </p>
      )}
      {list.isPending ? (
        <Spinner label="Loading your orders…" />
      ) : list.isError ? (
        <div className="state state--error" role="alert">
          <h2 className="state__title">Your orders could not be loaded</h2>
          <p className="state__text">{errorMessage(list.error)}</p>
          <button type="button" className="button" onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : list.data.orders.length === 0 ? (
        <div className="state" data-testid="reviewable-empty">
          <h2 className="state__title">Nothing to review</h2>
          <p className="state__text">When an order is delivered, its products show up here for you to review.</p>
        </div>
      ) : (
        list.data.orders.map((o) => (
          <section key={o.order_id} className="reviewable-order" aria-label={`Order ${o.name}`} data-testid="reviewable-order">
            <h2 className="reviewable-order__title">
              Order {o.name} <span className="reviewable-order__date">· {formatReviewDate(String(o.created_at))}</span>
            </h2>
            <ul className="reviewable-list">
              {o.items.map((item) => {
                const key = `${o.order_id}|${item.product_id}`;
                return (
                  <li key={key} className="reviewable" data-testid="reviewable-item">
                    <div className="reviewable__row">
                      {item.image_url ? <img className="reviewable__img" src={item.image_url} alt="" width={64} height={80} /> : <span className="reviewable__img" aria-hidden="true" />}
                      <div className="reviewable__info">
                        <Link to={productPath({ id: item.product_id, handle: item.handle })} className="reviewable__title">
                          {item.title}
                        </Link>
                        {item.variant_title && <span className="reviewable__variant">{item.variant_title}</span>}
                      </div>
                      {open !== key && (
                        <div className="reviewable__actions">
                          <button type="button" className="button" onClick={() => setOpen(key)} aria-label={`Review ${item.title}`}>
                            Write a review
                          </button>
                          <button
                            type="button"
                            className="link-button"
                            disabled={dismiss.isPending}
                            onClick={() => dismiss.mutate({ order_id: o.order_id, product_id: item.product_id })}
                            aria-label={`Dismiss ${item.title}`}
                          >
                            Dismiss
                          </button>
                        </div>
                      )}
                    </div>
                    {open === key && (
                      <ReviewForm
                        productTitle={item.title}
                        authorName={reviewAuthorName(user)}
                        submit={(v) => api.reviewsCreate({ body: { product_id: item.product_id, order_id: o.order_id, ...v } })}
                        onSubmitted={() => {
                          setOpen(null);
                          setNotice(`Thank you! Your review of ${item.title} will appear once our team has checked it.`);
                          void queryClient.invalidateQueries({ queryKey: reviewKeys.reviewableOrders() });
                        }}
                        onCancel={() => setOpen(null)}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        ))
      )}
    </section>
  );
}
