/**
 * The home feed (SPEC §9): random products seeded by the session interleaved with related ones,
 * collections, stores and styles in between (4 on the first page, 2 later), 6 items a source on
 * the first page and 3 later, infinite scroll, fresh for 5 minutes and cached for 30.
 */
import { useDeferredValue, useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Messages } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { useSession } from "../lib/session";
import { HOME_CACHE_MS, HOME_STALE_MS } from "../lib/constants";
import { composeFeed, countProducts } from "../lib/home-feed";
import { FIRST_HOME_CURSOR, fetchHomeFeedPage, homeFeedKey, type HomeFeedCursor } from "../lib/home-feed-query";
import { useRecentlyViewed } from "../lib/use-recently-viewed";
import { useInfiniteScroll } from "../lib/use-infinite-scroll";
import { ProductCard, ProductGridSkeleton } from "./ProductCard";
import { FeedInsertion } from "./FeedInsertion";
import { FeedFooter } from "./FeedStatus";

/** Cards loaded eagerly: the first rows a phone (2 columns) or a laptop shows without scrolling. */
const ABOVE_THE_FOLD_CARDS = 4;

export function HomeFeed() {
  const api = useApi();
  const { gender, setGender } = useGender();
  const { user, status, refresh } = useSession();
  const recent = useRecentlyViewed();
  const seed = user?.id ?? null;
  const recentProductId = recent[0]?.id ?? null;

  const feed = useInfiniteQuery({
    queryKey: homeFeedKey(gender, seed),
    queryFn: ({ pageParam }) => fetchHomeFeedPage(api, { gender, seed: seed ?? "", recentProductId }, pageParam),
    initialPageParam: FIRST_HOME_CURSOR as HomeFeedCursor,
    getNextPageParam: (last) => last.next,
    enabled: !!seed,
    staleTime: HOME_STALE_MS,
    gcTime: HOME_CACHE_MS,
  });

  // The cards render in a transition (time-sliced) when a page arrives, not in one long task.
  const pages = useDeferredValue(feed.data?.pages);
  const entries = useMemo(() => composeFeed(pages ?? []), [pages]);
  const loadMore = () => {
    if (feed.hasNextPage && !feed.isFetchingNextPage) void feed.fetchNextPage();
  };
  const sentinel = useInfiniteScroll({ enabled: !!feed.hasNextPage && !feed.isFetching && !feed.isFetchNextPageError, onLoadMore: loadMore });

  if (status === "error" && !seed) {
    return (
      <div className="state state--error" role="alert" data-testid="home-feed-error">
        <h2 className="state__title">{Messages.FAILED_TO_FETCH_PRODUCTS}</h2>
        <p className="state__text">We could not start your session. Please try again.</p>
        <button type="button" className="button" onClick={refresh}>
          Retry
        </button>
      </div>
    );
  }

  if (feed.isPending || (feed.data && !pages)) {
    return (
      <ProductGridSkeleton count={8} label="Loading products" testId="home-feed-loading" />
    );
  }

  if (feed.isError && entries.length === 0) {
    return (
      <div className="state state--error" role="alert" data-testid="home-feed-error">
        <h2 className="state__title">{Messages.FAILED_TO_FETCH_PRODUCTS}</h2>
        <p className="state__text">{errorMessage(feed.error, "Please try again in a moment.")}</p>
        <button type="button" className="button" onClick={() => void feed.refetch()} data-testid="home-feed-retry">
          Retry
        </button>
      </div>
    );
  }

  if (entries.length === 0) {
    return (
      <div className="state">
        <h2 className="state__title">No products found</h2>
        <p className="state__text">There is nothing here yet. Check back soon.</p>
        {gender !== "both" && (
          <div className="state__actions">
            <button type="button" className="button button--ghost" onClick={() => setGender("both")}>
              Show menswear and womenswear
            </button>
          </div>
        )}
      </div>
    );
  }

  const products = countProducts(entries);
  return (
    <>
      <p className="visually-hidden" aria-live="polite">
        {products} {products === 1 ? "product" : "products"} shown
      </p>
      <div className="grid feed" data-testid="home-feed" data-pages={pages?.length ?? 0}>
        {entries.map((e, i) =>
          e.type === "product" ? (
            <ProductCard key={e.key} product={e.product} priority={i === 0} eager={i < ABOVE_THE_FOLD_CARDS} />
          ) : (
            <FeedInsertion key={e.key} insertion={e.insertion} gender={gender} />
          ),
        )}
      </div>
      <FeedFooter
        testId="home-feed"
        sentinelRef={sentinel}
        loading={feed.isFetchingNextPage}
        error={feed.isFetchNextPageError ? errorMessage(feed.error, Messages.FAILED_TO_FETCH_PRODUCTS) : null}
        hasMore={!!feed.hasNextPage}
        onRetry={() => void feed.fetchNextPage()}
        onLoadMore={loadMore}
        endLabel="You have seen everything for now."
      />
    </>
  );
}
