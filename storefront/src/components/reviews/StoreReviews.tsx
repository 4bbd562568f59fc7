/**
 * Reviews on a store page: the store's rating summary (all its products' published reviews) and,
 * on demand, the reviews themselves with the product each one is about. Collapsed at first so the
 * store's products stay near the top.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../lib/api";
import { reviewCountLabel, reviewKeys } from "../../lib/reviews";
import { RatingSummaryView } from "./RatingSummaryView";
import { ReviewList } from "./ReviewList";

export function StoreReviews({ storeId, storeName }: { storeId: string; storeName: string }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const summary = useQuery({ queryKey: reviewKeys.storeSummary(storeId), queryFn: () => api.reviewsStoreSummary({ params: { id: storeId } }), staleTime: 60_000 });
  if (!summary.data) return null; // no published review yet (or still loading): nothing to show
  return (
    <section className="reviews reviews--store" aria-labelledby="store-reviews-heading" data-testid="store-reviews">
      <div className="reviews__head">
        <h2 id="store-reviews-heading" className="reviews__title">
          What shoppers say about {storeName}
        </h2>
        <button type="button" className="button button--ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="store-reviews-toggle">
          {open ? "Hide reviews" : `Read ${reviewCountLabel(summary.data.count)}`}
        </button>
      </div>
      <div className="reviews__layout">
        <div className="reviews__aside">
          <RatingSummaryView summary={summary.data} testId="store-rating-summary" />
        </div>
        <div className="reviews__main">
          {open && (
            <ReviewList
              queryKey={reviewKeys.storeList(storeId)}
              fetchPage={(skip, take) => api.reviewsByStore({ params: { id: storeId }, query: { skip, take } })}
              showProduct
              emptyText="No reviews of this store's products yet."
              testId="store-review-list"
            />
          )}
        </div>
      </div>
    </section>
  );
}
