/** A list of published reviews with "More reviews" (skip/take pages), and one review. */
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { PublicReview } from "~/contract";
import { errorMessage } from "../../lib/api";
import { productPath } from "../../lib/product-path";
import { REVIEWS_PAGE, formatReviewDate, hasMoreReviews } from "../../lib/reviews";
import { Spinner } from "../FeedStatus";
import { Stars } from "./Stars";

export function ReviewItem({ review, showProduct = false }: { review: PublicReview; showProduct?: boolean }) {
  return (
    <article className="review" data-testid="review-item" data-review-id={review.id}>
      <header className="review__head">
        <Stars value={review.rating} size="sm" label={`${review.rating} out of 5 stars`} />
        {review.title && <h3 className="review__title">{review.title}</h3>}
      </header>
      {showProduct && review.product && (
        <p className="review__product">
          On <Link to={productPath(review.product)}>{review.product.title}</Link>
        </p>
      )}
      <p className="review__body">{review.body}</p>
      {review.images.length > 0 && (
        <ul className="review__photos" aria-label="Photos from the reviewer">
          {review.images.map((url, i) => (
            <li key={url}>
              <a href={url} target="_blank" rel="noreferrer">
                <img src={url} alt={`Photo ${i + 1} from ${review.name}`} width={84} height={84} loading="lazy" decoding="async" />
              </a>
            </li>
          ))}
        </ul>
      )}
      <footer className="review__meta">
        <span className="review__author">{review.name}</span>
        {review.verified_buyer && <span className="review__verified">Verified buyer</span>}
        <time dateTime={review.published_at ?? review.created_at}>{formatReviewDate(review.published_at ?? review.created_at)}</time>
      </footer>
    </article>
  );
}

export interface ReviewListProps {
  queryKey: readonly unknown[];
  fetchPage: (skip: number, take: number) => Promise<{ reviews: PublicReview[]; total: number }>;
  showProduct?: boolean;
  emptyText: string;
  testId?: string;
}

export function ReviewList({ queryKey, fetchPage, showProduct, emptyText, testId = "review-list" }: ReviewListProps) {
  const list = useInfiniteQuery({
    queryKey,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchPage(pageParam, REVIEWS_PAGE),
    getNextPageParam: (last, all) => {
      const loaded = all.reduce((n, p) => n + p.reviews.length, 0);
      return last.reviews.length > 0 && hasMoreReviews(loaded, last.total) ? loaded : undefined;
    },
    staleTime: 60_000,
  });
  const reviews = list.data?.pages.flatMap((p) => p.reviews) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  if (list.isPending) return <Spinner label="Loading reviews…" />;
  if (list.isError && reviews.length === 0) {
    return (
      <div className="inline-state" role="alert">
        <p className="inline-state__text">{errorMessage(list.error, "Reviews could not be loaded.")}</p>
        <button type="button" className="button button--ghost" onClick={() => void list.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (reviews.length === 0) {
    return (
      <p className="reviews__empty" data-testid={`${testId}-empty`}>
        {emptyText}
      </p>
    );
  }
  return (
    <div className="review-list" data-testid={testId} data-total={total}>
      {reviews.map((r) => (
        <ReviewItem key={r.id} review={r} showProduct={showProduct} />
      ))}
      {list.isFetchNextPageError && (
        <p className="form-error" role="alert">
          {errorMessage(list.error, "More reviews could not be loaded.")}
        </p>
      )}
      {list.hasNextPage && (
        <button type="button" className="button button--ghost review-list__more" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} data-testid={`${testId}-more`}>
          {list.isFetchingNextPage ? "Loading…" : `More reviews (${total - reviews.length} more)`}
        </button>
      )}
    </div>
  );
}
