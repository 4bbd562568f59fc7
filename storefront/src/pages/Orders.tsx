/**
 * My orders (`/account/orders`): 10 at a time, newest first (SPEC §9 "user orders first 10"), then
 * more with "Show more orders". Each order links to its detail page.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { ORDERS_PAGE_SIZE } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { formatMoney } from "../lib/products";
import { ORDERS_KEY, STAGE_LABELS, formatDate, orderPath, tone } from "../lib/orders";
import { Badge, OrdersNav, SignInFor } from "../components/OrdersNav";
import { SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import { VerifyEmailNotice } from "../components/VerifyEmailNotice";
import "../orders.css";
import { LOGO_WIDTHS, ResponsiveImage } from "../components/ResponsiveImage";

export function Orders() {
  const api = useApi();
  const { user, signedIn } = useSession();

  const orders = useInfiniteQuery({
    queryKey: ORDERS_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.ordersMine({ query: { cursor: pageParam, limit: ORDERS_PAGE_SIZE } }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!user && signedIn,
  });
  const items = orders.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <AccountPage headingId="orders-heading" title="Orders" testId="orders-page" nav={<OrdersNav />} className="orders-page">
      {signedIn && <VerifyEmailNotice user={user} />}
      <SessionGate>
        {!signedIn ? (
          <SignInFor what="your orders" />
        ) : (
          <ListStates
            list={orders}
            count={items.length}
            loadingLabel="Loading your orders…"
            errorTitle="Your orders could not be loaded"
            empty={
              <div className="state" data-testid="orders-empty">
                <h2 className="state__title">No orders yet</h2>
                <p className="state__text">When you buy something, it shows up here with its delivery status.</p>
                <Link className="button" to="/">
                  Start shopping
                </Link>
              </div>
            }
          >
            <ol className="order-list" data-testid="order-list">
              {items.map((o) => (
                <li key={o.id} className="order-card" data-testid="order-card" data-order-id={o.id}>
                  <Link to={orderPath(o.id)} className="order-card__link" aria-label={`Order ${o.name}, ${STAGE_LABELS[o.stage]}`}>
                    <div className="order-card__head">
                      <span className="order-card__name">Order {o.name}</span>
                      <Badge tone={tone(o.stage)} testId="order-stage">
                        {STAGE_LABELS[o.stage]}
                      </Badge>
                    </div>
                    <p className="order-card__meta">
                      {formatDate(o.created_at)} · {o.item_count} {o.item_count === 1 ? "item" : "items"} · {formatMoney(o.total.amount, o.total.currencyCode)}
                    </p>
                    <ul className="order-card__thumbs" aria-hidden="true">
                      {o.items_preview.map((p, i) => (
                        <li key={i} className="order-thumb">
                          {p.image_url ? <ResponsiveImage url={p.image_url} alt="" widths={LOGO_WIDTHS} sizes="56px" width={56} height={72} /> : <span className="order-thumb__none" />}
                        </li>
                      ))}
                    </ul>
                  </Link>
                </li>
              ))}
            </ol>
            <div className="orders-more">
              {orders.isFetchNextPageError && (
                <p className="form-error" role="alert">
                  {errorMessage(orders.error, "More orders could not be loaded.")}
                </p>
              )}
              {orders.hasNextPage && (
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={orders.isFetchingNextPage}
                  onClick={() => void orders.fetchNextPage()}
                  data-testid="orders-more"
                >
                  {orders.isFetchingNextPage ? "Loading…" : "Show more orders"}
                </button>
              )}
            </div>
          </ListStates>
        )}
      </SessionGate>
    </AccountPage>
  );
}
