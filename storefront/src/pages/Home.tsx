import { useEffect } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useLocation, useNavigate } from "react-router-dom";
import { Messages } from "~/contract";
import { useApi, errorMessage } from "../lib/api";
import { useGender } from "../lib/gender";
import { readSearchTerm, withSearchTerm } from "../lib/gender-routing";
import { nextCursor, productGridKey, productGridQuery } from "../lib/products";
import { HOME_CACHE_MS, HOME_GRID_PAGE_SIZE, HOME_STALE_MS } from "../lib/constants";
import { ProductCard, ProductCardSkeleton } from "../components/ProductCard";

const HEADINGS = { menswear: "Menswear", womenswear: "Womenswear", both: "New in" } as const;

export function Home() {
  const api = useApi();
  const { gender, setGender } = useGender();
  const location = useLocation();
  const navigate = useNavigate();
  const search = readSearchTerm(location.search);

  const feed = useInfiniteQuery({
    queryKey: productGridKey(gender, search),
    queryFn: ({ pageParam }) => api.listProducts({ query: productGridQuery(gender, search, pageParam) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    staleTime: HOME_STALE_MS,
    gcTime: HOME_CACHE_MS,
  });

  const heading = search ? `Results for “${search}”` : HEADINGS[gender];
  useEffect(() => {
    document.title = `${heading} · Fashion Discovery`;
  }, [heading]);

  const products = feed.data?.pages.flatMap((p) => p.products) ?? [];
  const clearSearch = () => navigate({ pathname: location.pathname, search: withSearchTerm(location.search, "") }, { replace: true });

  return (
    <section className="page" aria-labelledby="home-heading">
      <div className="page__head">
        <h1 id="home-heading" className="page__title">
          {heading}
        </h1>
        {search && (
          <button type="button" className="link-button" onClick={clearSearch}>
            Clear search
          </button>
        )}
      </div>

      {feed.isPending ? (
        <div className="grid" aria-busy="true" aria-label="Loading products">
          {Array.from({ length: 8 }, (_, i) => (
            <ProductCardSkeleton key={i} />
          ))}
        </div>
      ) : feed.isError && products.length === 0 ? (
        <div className="state state--error" role="alert">
          <h2 className="state__title">{Messages.FAILED_TO_FETCH_PRODUCTS}</h2>
          <p className="state__text">{errorMessage(feed.error, "Please try again in a moment.")}</p>
          <button type="button" className="button" onClick={() => void feed.refetch()}>
            Retry
          </button>
        </div>
      ) : products.length === 0 ? (
        <div className="state">
          <h2 className="state__title">No products found</h2>
          <p className="state__text">
            {search ? `Nothing matches “${search}”${gender === "both" ? "" : ` in ${HEADINGS[gender].toLowerCase()}`}.` : "There is nothing here yet. Check back soon."}
          </p>
          <div className="state__actions">
            {search && (
              <button type="button" className="button" onClick={clearSearch}>
                Clear search
              </button>
            )}
            {gender !== "both" && (
              <button type="button" className="button button--ghost" onClick={() => setGender("both")}>
                Show menswear and womenswear
              </button>
            )}
          </div>
        </div>
      ) : (
        <>
          <p className="page__count" aria-live="polite">
            {products.length} {products.length === 1 ? "product" : "products"}
            {feed.hasNextPage ? " shown" : ""}
          </p>
          <div className="grid">
            {products.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
            {feed.isFetchingNextPage &&
              Array.from({ length: Math.min(HOME_GRID_PAGE_SIZE, 8) }, (_, i) => <ProductCardSkeleton key={`more-${i}`} />)}
          </div>
          {feed.isFetchNextPageError && (
            <p className="inline-error" role="alert">
              {errorMessage(feed.error, Messages.FAILED_TO_FETCH_PRODUCTS)}
            </p>
          )}
          {feed.hasNextPage && (
            <div className="load-more">
              <button
                type="button"
                className="button"
                data-testid="load-more"
                disabled={feed.isFetchingNextPage}
                onClick={() => void feed.fetchNextPage()}
              >
                {feed.isFetchingNextPage ? "Loading…" : feed.isFetchNextPageError ? "Try again" : "Load more"}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
