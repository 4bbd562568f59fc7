/**
 * "Show more" under a list read page by page (TanStack Query's infinite queries), with the error of
 * the last page shown above the button so a failed page can be asked for again.
 */
import { errorMessage } from "../lib/api";

export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}

export function LoadMore({ list, testId, label = "Show more" }: { list: PagedList; testId: string; label?: string }) {
  return (
    <>
      {list.isFetchNextPageError && (
        <p className="inline-error" role="alert">
          {errorMessage(list.error)}
        </p>
      )}
      {list.hasNextPage && (
        <div className="load-more">
          <button type="button" className="button button--ghost" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} data-testid={testId}>
            {list.isFetchingNextPage ? "Loading…" : label}
          </button>
        </div>
      )}
    </>
  );
}
