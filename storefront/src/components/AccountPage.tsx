/**
 * The frame of the shopper's own pages: the account tabs (or the orders pages' tabs), the page's
 * heading (with a count when there is one) and the document title; the page's content follows.
 */
import type { ReactNode } from "react";
import { useDocumentTitle } from "../lib/use-document-title";
import { AccountNav } from "./AccountNav";
import "../account.css";

export interface AccountPageProps {
  /** The h1's id, which labels the page's section. */
  headingId: string;
  title: string;
  testId: string;
  /** Shown next to the heading when more than zero. */
  count?: number;
  /** What the count counts, e.g. `(n) => n === 1 ? "1 try-on" : \`${n} try-ons\``: a bare number says nothing. */
  countLabel?: (count: number) => string;
  /** The tabs above the heading: the account tabs unless given (the orders pages give theirs). */
  nav?: ReactNode;
  /** The section's class next to `page`: `account-page` unless given. */
  className?: string;
  children: ReactNode;
}

export function AccountPage({ headingId, title, testId, count = 0, countLabel, nav = <AccountNav />, className = "account-page", children }: AccountPageProps) {
  useDocumentTitle(title);
  return (
    <section className={`page ${className}`} aria-labelledby={headingId} data-testid={testId}>
      {nav}
      <div className="page__head">
        <h1 id={headingId} className="page__title">
          {title}
        </h1>
        {count > 0 && <span className="page__count" data-testid={`${testId}-count`}>{countLabel ? countLabel(count) : count}</span>}
      </div>
      {children}
    </section>
  );
}
