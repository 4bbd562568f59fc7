/**
 * My returns (`/account/returns`): each return request (and each return the store made for one of
 * my orders) with its items, reason, tracking, refund, and its statuses as a timeline (SPEC §3
 * return and return-request statuses). 10 at a time, newest first.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { RETURN_REASON_LABELS, RETURNS_PAGE_SIZE, type ReturnEntry } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { formatMoney } from "../lib/products";
import { ORDERS_PATH, RETURNS_KEY, formatDate, orderPath, returnStatusLabel, tone } from "../lib/orders";
import { Badge, OrdersNav, SignInFor } from "../components/OrdersNav";
import { SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import "../orders.css";

function Timeline({ steps }: { steps: ReturnEntry["timeline"] }) {
  return (
    <ol className="timeline" data-testid="return-timeline">
      {steps.map((s) => (
        <li
          key={s.key}
          className={`timeline__step timeline__step--${s.state}`}
          data-testid="timeline-step"
          data-step={s.key}
          data-state={s.state}
          aria-current={s.state === "current" ? "step" : undefined}
        >
          <span className="timeline__dot" aria-hidden="true" />
          <span className="timeline__label">{s.label}</span>
          {s.at && (
            <time className="timeline__date" dateTime={s.at}>
              {formatDate(s.at)}
            </time>
          )}
          {s.state === "upcoming" && <span className="visually-hidden"> (to come)</span>}
        </li>
      ))}
    </ol>
  );
}

function ReturnCard({ entry }: { entry: ReturnEntry }) {
  const label = returnStatusLabel(entry);
  const status = entry.status === "DECLINED" || entry.status === "CANCELED" ? entry.status : entry.return_status ?? entry.status ?? "REQUESTED";
  return (
    <li className="return-card" data-testid="return-card" data-return-id={entry.id}>
      <div className="order-card__head">
        <span className="order-card__name">
          Return for <Link to={orderPath(entry.order.id)}>order {entry.order.name}</Link>
        </span>
        <Badge tone={tone(status)} testId="return-status">
          {label}
        </Badge>
      </div>
      <p className="order-card__meta">
        Requested on {formatDate(entry.created_at)} · {RETURN_REASON_LABELS[entry.reason]}
        {entry.note ? ` · “${entry.note}”` : ""}
      </p>
      <ul className="return-card__items">
        {entry.items.map((i) => (
          <li key={i.order_item_id} className="return-card__item">
            {i.image_url ? <img src={i.image_url} alt="" width={44} height={58} loading="lazy" /> : <span className="order-thumb__none" />}
            <span>
              {i.title}
              {i.variant_title && i.variant_title !== "Default Title" ? ` · ${i.variant_title}` : ""} · Qty {i.quantity}
            </span>
          </li>
        ))}
      </ul>
      <Timeline steps={entry.timeline} />
      {(entry.tracking || entry.refund) && (
        <p className="return-card__extra">
          {entry.tracking?.tracking_number && (
            <span data-testid="return-tracking">
              {entry.tracking.tracking_company ? `${entry.tracking.tracking_company} ` : ""}
              {entry.tracking.label_url ? (
                <a href={entry.tracking.label_url} target="_blank" rel="noreferrer noopener">
                  {entry.tracking.tracking_number}
                </a>
              ) : (
                entry.tracking.tracking_number
              )}
            </span>
          )}
          {entry.refund && <span data-testid="return-refund">Refund {formatMoney(entry.refund.amount, entry.refund.currencyCode)}</span>}
        </p>
      )}
    </li>
  );
}

export function Returns() {
  const api = useApi();
  const { user, signedIn } = useSession();

  const returns = useInfiniteQuery({
    queryKey: RETURNS_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.returnsMine({ query: { cursor: pageParam, limit: RETURNS_PAGE_SIZE } }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!user && signedIn,
  });
  const items = returns.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <AccountPage headingId="returns-heading" title="Returns" testId="returns-page" nav={<OrdersNav />} className="orders-page">
      <SessionGate>
        {!signedIn ? (
          <SignInFor what="your returns" />
        ) : (
          <ListStates
            list={returns}
            count={items.length}
            loadingLabel="Loading your returns…"
            errorTitle="Your returns could not be loaded"
            empty={
              <div className="state" data-testid="returns-empty">
                <h2 className="state__title">No returns</h2>
                <p className="state__text">To send something back, open the order and choose “Request a return”.</p>
                <Link className="button" to={ORDERS_PATH}>
                  Your orders
                </Link>
              </div>
            }
          >
            <ol className="order-list" data-testid="return-list">
              {items.map((e) => (
                <ReturnCard key={`${e.kind}-${e.id}`} entry={e} />
              ))}
            </ol>
            <div className="orders-more">
              {returns.isFetchNextPageError && (
                <p className="form-error" role="alert">
                  {errorMessage(returns.error, "More returns could not be loaded.")}
                </p>
              )}
              {returns.hasNextPage && (
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={returns.isFetchingNextPage}
                  onClick={() => void returns.fetchNextPage()}
                  data-testid="returns-more"
                >
                  {returns.isFetchingNextPage ? "Loading…" : "Show more returns"}
                </button>
              )}
            </div>
          </ListStates>
        )}
      </SessionGate>
    </AccountPage>
  );
}
