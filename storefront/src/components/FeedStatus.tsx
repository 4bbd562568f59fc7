/**
 * The foot of an infinite list: the sentinel that loads more, a loading indicator, an error with
 * a retry, and a note at the end.
 */
import type { Ref } from "react";

export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner" role="status">
      <span className="spinner__dot" aria-hidden="true" />
      <span className="spinner__label">{label}</span>
    </span>
  );
}

export interface FeedFooterProps {
  sentinelRef: Ref<HTMLDivElement>;
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  onRetry(): void;
  onLoadMore(): void;
  loadingLabel?: string;
  endLabel?: string | null;
  testId?: string;
}

export function FeedFooter({ sentinelRef, loading, error, hasMore, onRetry, onLoadMore, loadingLabel = "Loading more products…", endLabel = null, testId = "feed" }: FeedFooterProps) {
  return (
    <div className="feed-footer" data-testid={`${testId}-footer`}>
      {hasMore && !error && <div ref={sentinelRef} className="feed-sentinel" data-testid={`${testId}-sentinel`} aria-hidden="true" />}
      {loading && <Spinner label={loadingLabel} />}
      {error && (
        <div className="inline-state" role="alert" data-testid={`${testId}-error`}>
          <p className="inline-state__text">{error}</p>
          <button type="button" className="button button--ghost" onClick={onRetry} data-testid={`${testId}-retry`}>
            Try again
          </button>
        </div>
      )}
      {hasMore && !loading && !error && (
        // Infinite scroll loads on its own; the button is there for keyboards and old browsers.
        <button type="button" className="link-button feed-footer__more" onClick={onLoadMore} data-testid={`${testId}-more`}>
          Show more
        </button>
      )}
      {!hasMore && !loading && !error && endLabel && <p className="feed-footer__end">{endLabel}</p>}
    </div>
  );
}
