/**
 * Notification settings (`/account/notifications`): every notification request of mine — back in
 * stock (a product or one size/colour), saved searches, drops — with its status, and a way to
 * remove each. `?drop=<id>` (the link of a drop announcement) offers to be told when that drop
 * goes live.
 */
import { useState } from "react";
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import type { NotificationRequest } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { productPath } from "../lib/product-path";
import { NOTIFICATIONS_KEY, NOTIFICATION_KIND_LABELS, NOTIFICATION_STATUS_LABELS, formatDate, tone } from "../lib/orders";
import { Badge, OrdersNav, SignInFor } from "../components/OrdersNav";
import { SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import "../orders.css";

type Page = { items: NotificationRequest[]; nextCursor: string | null };

function Subject({ r }: { r: NotificationRequest }) {
  if (r.kind === "back_in_stock") {
    if (!r.product) return <span className="notif__subject">A product that is no longer sold</span>;
    return (
      <span className="notif__subject">
        {r.product.image_url && <img src={r.product.image_url} alt="" width={44} height={58} loading="lazy" />}
        <span>
          <Link to={productPath(r.product)} data-testid="notification-product">
            {r.product.title}
          </Link>
          {r.variant && <span className="notif__variant"> · {r.variant.title}</span>}
        </span>
      </span>
    );
  }
  if (r.kind === "search") {
    const q = r.search?.query ?? "";
    const filters = Object.keys(r.search?.filters ?? {}).length;
    return (
      <span className="notif__subject">
        <span>
          New products for <Link to={`/?search=${encodeURIComponent(q)}`}>{q ? `“${q}”` : "your saved search"}</Link>
          {filters > 0 && <span className="notif__variant"> · {filters === 1 ? "1 filter" : `${filters} filters`}</span>}
        </span>
      </span>
    );
  }
  return (
    <span className="notif__subject">
      <span>
        {r.drop ? r.drop.name : "A drop"}
        {r.drop?.scheduled_publish_date && <span className="notif__variant"> · {formatDate(r.drop.scheduled_publish_date)}</span>}
      </span>
    </span>
  );
}

function DropOffer({ dropId }: { dropId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => api.notificationRequestsDropCreate({ body: { drop_id: dropId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
  if (create.isSuccess) {
    return (
      <p className="notice order-notice" role="status" data-testid="drop-offer-done">
        Done: we will email you when {create.data.drop?.name ?? "the drop"} goes live.
      </p>
    );
  }
  return (
    <div className="notice order-notice" data-testid="drop-offer">
      <span>Want an email when this drop goes live?</span>{" "}
      <button type="button" className="button button--small" disabled={create.isPending} onClick={() => create.mutate()}>
        {create.isPending ? "Saving…" : "Remind me"}
      </button>
      {create.isError && (
        <span className="form-error" role="alert">
          {" "}
          {errorMessage(create.error, "Could not save this reminder.")}
        </span>
      )}
    </div>
  );
}

export function Notifications() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, signedIn } = useSession();
  const [params] = useSearchParams();
  const dropId = params.get("drop");
  const [problem, setProblem] = useState<string | null>(null);

  const list = useInfiniteQuery({
    queryKey: NOTIFICATIONS_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.notificationRequestsMine({ query: { cursor: pageParam, limit: 20 } }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!user && signedIn,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];

  const remove = useMutation({
    mutationFn: (id: string) => api.notificationRequestsDelete({ params: { id } }),
    onMutate: async (id) => {
      setProblem(null);
      await queryClient.cancelQueries({ queryKey: NOTIFICATIONS_KEY });
      const before = queryClient.getQueryData<InfiniteData<Page>>(NOTIFICATIONS_KEY);
      queryClient.setQueryData<InfiniteData<Page>>(NOTIFICATIONS_KEY, (d) => (d ? { ...d, pages: d.pages.map((p) => ({ ...p, items: p.items.filter((r) => r.id !== id) })) } : d));
      return { before };
    },
    onError: (e, _id, c) => {
      if (c?.before) queryClient.setQueryData(NOTIFICATIONS_KEY, c.before);
      setProblem(errorMessage(e, "This notification could not be removed. Please try again."));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ["user", "notification-requests"] }),
  });

  return (
    <AccountPage headingId="notifications-heading" title="Notifications" testId="notifications-page" nav={<OrdersNav />} className="orders-page">
      <SessionGate>
        {!signedIn ? (
          <SignInFor what="your notifications" />
        ) : (
          <>
            {dropId && <DropOffer dropId={dropId} />}
            {problem && (
              <p className="form-error" role="alert" data-testid="notifications-error">
                {problem}
              </p>
            )}
            <ListStates
              list={list}
              count={items.length}
              loadingLabel="Loading your notifications…"
              errorTitle="Your notifications could not be loaded"
              empty={
                <div className="state" data-testid="notifications-empty">
                  <h2 className="state__title">No notifications</h2>
                  <p className="state__text">Ask to be told when a sold-out product is back, or when new products match a search.</p>
                </div>
              }
            >
              <ul className="notif-list" data-testid="notification-list">
                {items.map((r) => (
                  <li key={r.id} className="notif" data-testid="notification-request" data-kind={r.kind} data-status={r.status}>
                    <span className="notif__kind">{NOTIFICATION_KIND_LABELS[r.kind]}</span>
                    <Subject r={r} />
                    <span className="notif__meta">
                      <Badge tone={r.status === "active" ? "neutral" : tone(r.status)} testId="notification-status">
                        {NOTIFICATION_STATUS_LABELS[r.status]}
                      </Badge>
                      <span className="notif__date">{r.sent_at ? `Sent ${formatDate(r.sent_at)}` : `Since ${formatDate(r.created_at)}`}</span>
                    </span>
                    <button
                      type="button"
                      className="link-button"
                      disabled={remove.isPending && remove.variables === r.id}
                      onClick={() => remove.mutate(r.id)}
                      aria-label={`Remove the ${NOTIFICATION_KIND_LABELS[r.kind].toLowerCase()} notification`}
                      data-testid="notification-remove"
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
              <div className="orders-more">
                {list.hasNextPage && (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={list.isFetchingNextPage}
                    onClick={() => void list.fetchNextPage()}
                    data-testid="notifications-more"
                  >
                    {list.isFetchingNextPage ? "Loading…" : "Show more"}
                  </button>
                )}
              </div>
            </ListStates>
          </>
        )}
      </SessionGate>
    </AccountPage>
  );
}
