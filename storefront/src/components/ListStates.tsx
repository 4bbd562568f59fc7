/**
 * The states of a list read from the API (TanStack Query): a spinner (or the page's own placeholder)
 * while the first page loads, the error with a Retry when nothing could be loaded, the empty state,
 * else the list itself (a later page's failure is shown by the list's own "Show more",
 * ./LoadMore.tsx, or its feed footer).
 */
import type { ReactNode } from "react";
import { errorMessage } from "../lib/api";
import { Spinner } from "./FeedStatus";

export interface LoadErrorProps {
  title: string;
  error: unknown;
  onRetry(): void;
  /** The title's heading level: 2 for a page's list, 3 for a list inside a section (1 when the error is the page). */
  headingLevel?: 1 | 2 | 3;
  /** Shown when the error carries no message of the API's (errorMessage's fallback). */
  fallback?: string;
}

/** A list or page that could not be loaded: what failed, the API's message and a Retry. */
export function LoadError({ title, error, onRetry, headingLevel = 2, fallback }: LoadErrorProps) {
  const Heading = headingLevel === 1 ? "h1" : headingLevel === 3 ? "h3" : "h2";
  return (
    <div className="state state--error" role="alert">
      <Heading className="state__title">{title}</Heading>
      <p className="state__text">{errorMessage(error, fallback)}</p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export type ListStatesProps = {
  list: ListQueryState;
  /** How many items are loaded. */
  count: number;
  errorTitle: string;
  /** Shown when the error carries no message of the API's. */
  errorFallback?: string;
  headingLevel?: 2 | 3;
  empty: ReactNode;
  children: ReactNode;
} & (
  | { loadingLabel: string; loading?: undefined }
  /** Shown instead of the spinner while the first page loads (e.g. card skeletons). */
  | { loading: ReactNode; loadingLabel?: undefined }
);

export function ListStates({ list, count, loadingLabel, loading, errorTitle, errorFallback, headingLevel, empty, children }: ListStatesProps) {
  if (list.isPending) return loading !== undefined ? <>{loading}</> : <Spinner label={loadingLabel ?? ""} />;
  if (list.isError && count === 0)
    return <LoadError title={errorTitle} error={list.error} onRetry={() => void list.refetch()} headingLevel={headingLevel} fallback={errorFallback} />;
  return <>{count === 0 ? empty : children}</>;
}
