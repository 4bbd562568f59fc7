/**
 * `/review?token=…`: the page of a review-request email. The token (checked by the server) says
 * which order it is for; each delivered product of the order gets its own form, and products
 * already reviewed say so. Reviews written here carry the verified buyer badge.
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { productPath } from "../lib/product-path";
import { formatReviewDate, reviewKeys } from "../lib/reviews";
import { Spinner } from "../components/FeedStatus";
import { ReviewForm } from "../components/reviews/ReviewForm";
import { useDocumentTitle } from "../lib/use-document-title";

export function ReviewByToken() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const { gender } = useGender();
  const token = (params.get("token") ?? "").trim();
  const [open, setOpen] = useState<string | null>(null);
  const [thanks, setThanks] = useState<string | null>(null);
  const reviewable = useQuery({
    queryKey: reviewKeys.byToken(token),
    queryFn: () => api.reviewsReviewable({ query: { token } }),
    enabled: !!token,
    retry: false,
  });

  useDocumentTitle("Write a review");

  if (!token || (reviewable.error instanceof ApiClientError && reviewable.error.status < 500)) {
    return (
      <section className="page page--narrow">
        <div className="state" data-testid="review-token-invalid">
          <h1 className="state__title">This review link does not work</h1>
          <p className="state__text">{token ? errorMessage(reviewable.error) : "The link has no token. Open the link from your email again."}</p>
          <Link className="button" to={homePathFor(gender)}>
            Continue shopping
          </Link>
        </div>
      </section>
    );
  }
  if (reviewable.isPending) return <Spinner label="Opening your review link…" />;
  if (reviewable.isError) {
    return (
      <div className="state state--error" role="alert">
        <h1 className="state__title">This page could not be loaded</h1>
        <p className="state__text">{errorMessage(reviewable.error)}</p>
        <button type="button" className="button" onClick={() => void reviewable.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  const data = reviewable.data;
  const left = data.products.filter((p) => !p.reviewed).length;
  return (
    <section className="page review-page review-token" aria-labelledby="review-token-heading" data-testid="review-token-page">
      <h1 id="review-token-heading" className="page__title">
        Review your order {data.order.name}
      </h1>
      <p className="review-token__text">
        Ordered on {formatReviewDate(String(data.order.created_at))}. {left ? `Tell other shoppers what you think of ${left === 1 ? "it" : "them"}.` : "You have reviewed everything in this order. Thank you!"}
      </p>
      {thanks && (
        <p className="reviews__thanks" role="status" data-testid="review-sent">
          {thanks}
        </p>
      )}
      <ul className="reviewable-list">
        {data.products.map((p) => (
          <li key={p.product_id} className="reviewable" data-testid="reviewable-product" data-reviewed={p.reviewed}>
            <div className="reviewable__row">
              {p.image_url ? <img className="reviewable__img" src={p.image_url} alt="" width={64} height={80} /> : <span className="reviewable__img" aria-hidden="true" />}
              <div className="reviewable__info">
                <Link to={productPath({ id: p.product_id, handle: p.handle })} className="reviewable__title">
                  {p.title}
                </Link>
                {p.variant_title && <span className="reviewable__variant">{p.variant_title}</span>}
              </div>
              {p.reviewed ? (
                <span className="review__verified">Reviewed</span>
              ) : open !== p.product_id ? (
                <button type="button" className="button" onClick={() => setOpen(p.product_id)} aria-label={`Review ${p.title}`}>
                  Write a review
                </button>
              ) : null}
            </div>
            {open === p.product_id && !p.reviewed && (
              <ReviewForm
                productTitle={p.title}
                authorName={data.author_name}
                submit={(v) => api.reviewsCreateByToken({ body: { token, product_id: p.product_id, ...v } })}
                onSubmitted={() => {
                  setOpen(null);
                  setThanks(`Thank you! Your review of ${p.title} will appear once our team has checked it.`);
                  void queryClient.invalidateQueries({ queryKey: reviewKeys.byToken(token) });
                }}
                onCancel={() => setOpen(null)}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
