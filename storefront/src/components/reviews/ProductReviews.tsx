/**
 * Reviews on the product page: the rating summary with its distribution, the published reviews
 * ("More reviews"), and the write-a-review form. A new review is pending until a moderator
 * publishes it, so the form thanks the shopper instead of adding it to the list.
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { OwnReview } from "~/contract";
import { reviewAuthorName } from "~/lib/review-author";
import { useApi } from "../../lib/api";
import { useSession } from "../../lib/session";
import { reviewCountLabel, reviewKeys } from "../../lib/reviews";
import { RatingSummaryView } from "./RatingSummaryView";
import { ReviewForm } from "./ReviewForm";
import { ReviewList } from "./ReviewList";
import { Stars } from "./Stars";

export function ProductReviews({ productId, productTitle }: { productId: string; productTitle: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, signedIn } = useSession();
  const [writing, setWriting] = useState(false);
  const [sent, setSent] = useState<OwnReview | null>(null);
  const summary = useQuery({ queryKey: reviewKeys.productSummary(productId), queryFn: () => api.reviewsProductSummary({ params: { id: productId } }), staleTime: 60_000 });

  return (
    <section className="reviews" id="reviews" aria-labelledby="reviews-heading" data-testid="product-reviews">
      <div className="reviews__head">
        <h2 id="reviews-heading" className="reviews__title">
          Reviews
        </h2>
        {!writing && !sent && (
          <button type="button" className="button" onClick={() => setWriting(true)} data-testid="write-review">
            Write a review
          </button>
        )}
      </div>
      <div className="reviews__layout">
        <div className="reviews__aside">
          {summary.data ? <RatingSummaryView summary={summary.data} /> : summary.isSuccess ? <p className="reviews__empty">No ratings yet.</p> : null}
        </div>
        <div className="reviews__main">
          {sent && (
            <p className="reviews__thanks" role="status" data-testid="review-sent">
              Thank you, {sent.name}! Your review will appear here once our team has checked it.
            </p>
          )}
          {writing && !sent && (
            <>
              {!signedIn && (
                <p className="reviews__hint">
                  <Link to="/login">Sign in</Link> to show your name and get the verified buyer badge for products you ordered.
                </p>
              )}
              <ReviewForm
                productTitle={productTitle}
                authorName={reviewAuthorName(user)}
                submit={(v) => api.reviewsCreate({ body: { product_id: productId, ...v } })}
                onSubmitted={(r) => {
                  setSent(r);
                  setWriting(false);
                  void queryClient.invalidateQueries({ queryKey: reviewKeys.reviewableOrders() });
                }}
                onCancel={() => setWriting(false)}
              />
            </>
          )}
          <ReviewList
            queryKey={reviewKeys.productList(productId)}
            fetchPage={(skip, take) => api.reviewsByProduct({ params: { id: productId }, query: { skip, take } })}
            emptyText="No reviews yet. Be the first to review this product."
          />
        </div>
      </div>
    </section>
  );
}

/** A compact rating under a product's title ("★★★★☆ 4.3 · 12 reviews"); nothing without reviews. */
export function ProductRatingLine({ productId, linkToReviews = false }: { productId: string; linkToReviews?: boolean }) {
  const api = useApi();
  const summary = useQuery({ queryKey: reviewKeys.productSummary(productId), queryFn: () => api.reviewsProductSummary({ params: { id: productId } }), staleTime: 60_000 });
  if (!summary.data) return null;
  const text = `${summary.data.average.toFixed(1)} · ${reviewCountLabel(summary.data.count)}`;
  return (
    <p className="rating-line" data-testid="product-rating">
      <Stars value={summary.data.average} size="sm" />
      {linkToReviews ? <a href="#reviews">{text}</a> : <span>{text}</span>}
    </p>
  );
}
