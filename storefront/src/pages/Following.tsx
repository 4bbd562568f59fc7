/**
 * Followed stores (`/following`): 20 a page, newest first (SPEC §9), each with its logo, counts, a
 * link to the store and the Follow button (unfollowing takes it off the list).
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { Messages, type Store } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { storesPathFor } from "../lib/gender-routing";
import { FOLLOWING_LIST_KEY, followingKey, primeToggles } from "../lib/saved";
import { useSession } from "../lib/session";
import { storePath } from "../lib/store-path";
import { useInfiniteScroll } from "../lib/use-infinite-scroll";
import { FeedFooter } from "../components/FeedStatus";
import { FollowButton } from "../components/FollowButton";
import { GuestNote, SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import "../account.css";
import { LOGO_WIDTHS, ResponsiveImage } from "../components/ResponsiveImage";

const PAGE = 20;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function StoreRow({ store }: { store: Store }) {
  return (
    <li className="store-row" data-testid="followed-store" data-store-id={store.id}>
      <Link to={storePath(store)} className="store-row__link">
        {store.logo_url ? (
          <ResponsiveImage className="store-row__logo" url={store.logo_url} alt="" widths={LOGO_WIDTHS} sizes="56px" width={56} height={56} />
        ) : (
          <span className="store-row__logo store-row__logo--empty" aria-hidden="true">
            {store.name.slice(0, 1)}
          </span>
        )}
        <span className="store-row__text">
          <span className="store-row__name">{store.name}</span>
          <span className="store-row__meta">
            {plural(store.productCount, "product", "products")} · {plural(store.followerCount, "follower", "followers")}
          </span>
          {store.description && <span className="store-row__desc">{store.description}</span>}
        </span>
      </Link>
      <FollowButton store={store} small />
    </li>
  );
}

export function Following() {
  const api = useApi();
  const { gender } = useGender();
  const { user } = useSession();
  const qc = useQueryClient();

  const follows = useInfiniteQuery({
    queryKey: FOLLOWING_LIST_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const page = await api.favoriteStoresList({ query: { cursor: pageParam, limit: PAGE } });
      primeToggles(
        qc,
        page.items.map((i) => followingKey(i.store_id)),
        true
      );
      return page;
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!user,
  });
  const items = follows.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (follows.hasNextPage && !follows.isFetchingNextPage) void follows.fetchNextPage();
  };
  const sentinel = useInfiniteScroll({ enabled: !!follows.hasNextPage && !follows.isFetching && !follows.isFetchNextPageError, onLoadMore: loadMore });

  return (
    <AccountPage headingId="following-heading" title="Following" testId="following-page">
      <GuestNote what="the stores you follow" />
      <SessionGate>
        <ListStates
          list={follows}
          count={items.length}
          loadingLabel="Loading the stores you follow…"
          errorTitle={Messages.FAILED_TO_FETCH_FAVORITE_STORES}
          errorFallback="Please try again in a moment."
          empty={
            <div className="state" data-testid="following-empty">
              <h2 className="state__title">You are not following any stores yet</h2>
              <p className="state__text">Follow a store to see its new arrivals in your feed.</p>
              <Link className="button" to={storesPathFor(gender)}>
                Browse stores
              </Link>
            </div>
          }
        >
          <ul className="store-list" data-testid="following-list">
            {items.map((i) => (
              <StoreRow key={i.store_id} store={i.store} />
            ))}
          </ul>
          <FeedFooter
            testId="following"
            sentinelRef={sentinel}
            loading={follows.isFetchingNextPage}
            error={follows.isFetchNextPageError ? errorMessage(follows.error, Messages.FAILED_TO_FETCH_FAVORITE_STORES) : null}
            hasMore={!!follows.hasNextPage}
            onRetry={() => void follows.fetchNextPage()}
            onLoadMore={loadMore}
            loadingLabel="Loading more stores…"
          />
        </ListStates>
      </SessionGate>
    </AccountPage>
  );
}
