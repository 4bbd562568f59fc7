/**
 * The states of a list read from the API (TanStack Query): a spinner while the first page loads,
 * the error with a Retry when nothing could be loaded, the empty state, else the list itself (a
 * later page's failure is shown by the list's own "Show more", ./LoadMore.tsx).
 */
import type { ReactNode } from "react";
import { errorMessage } from "../lib/api";
import { Spinner } from "./FeedStatus";

export interface LoadErrorProps {
  title: string;
  error: unknown;
  onRetry(): void;
  /** The title's heading level: 2 for a page's list, 3 for a list inside a section. */
  headingLevel?: 2 | 3;
}

/** A list or page that could not be loaded: what failed, the API's message and a Retry. */
export function LoadError({ title, error, onRetry, headingLevel = 2 }: LoadErrorProps) {
  const Heading = headingLevel === 3 ? "h3" : "h2";
  return (
    <div className="state state--error" role="alert">
      <Heading className="state__title">{title}</Heading>
      <p className="state__text">{errorMessage(error)}</p>
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

export interface ListStatesProps {
  list: ListQueryState;
  /** How many items are loaded. */
  count: number;
  loadingLabel: string;
  errorTitle: string;
  headingLevel?: 2 | 3;
  empty: ReactNode;
  children: ReactNode;
}

export function ListStates({ list, count, loadingLabel, errorTitle, headingLevel, empty, children }: ListStatesProps) {
  if (list.isPending) return <Spinner label={loadingLabel} />;
  if (list.isError && count === 0) return <LoadError title={errorTitle} error={list.error} onRetry={() => void list.refetch()} headingLevel={headingLevel} />;
  return <>{count === 0 ? empty : children}</>;
}
