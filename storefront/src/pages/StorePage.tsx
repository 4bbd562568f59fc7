/**
 * A store (`/stores/<id>/<handle>`): its name, description and size advice, and its products
 * (12 a page, SPEC §9 "store products 12", for the current gender). Reached from product pages
 * and feed insertions.
 */
import { useEffect } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link, useLocation, useParams } from "react-router-dom";
import { Messages } from "~/contract";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { targetGenderParam } from "../lib/gender-preference";
import { homePathFor } from "../lib/gender-routing";
import { useProductModalRoute, ProductOpenerProvider } from "../lib/product-opener";
import { useInfiniteScroll } from "../lib/use-infinite-scroll";
import { usePageMeta } from "../lib/use-page-meta";
import { storePath } from "../lib/store-path";
import { notFoundPageText, plainPageText, storePageText } from "~/lib/page-text";
import { ProductCard, ProductGridSkeleton } from "../components/ProductCard";
import { FeedFooter, Spinner } from "../components/FeedStatus";
import { ProductModal } from "../components/ProductModalLazy";
import { LOGO_WIDTHS, ResponsiveImage } from "../components/ResponsiveImage";
import { FollowButton } from "../components/FollowButton";
import { STORE_PAGE_PRODUCTS } from "../lib/constants";
import { StoreReviews } from "../components/reviews/StoreReviews";

const STORE_PAGE = STORE_PAGE_PRODUCTS;

export function StorePage() {
  const api = useApi();
  const { storeId = "" } = useParams();
  const { gender } = useGender();
  const modal = useProductModalRoute();
  const target_gender = targetGenderParam(gender);

  const store = useQuery({ queryKey: ["store", storeId], queryFn: () => api.storesGetById({ params: { id: storeId } }), enabled: !!storeId });
  const products = useInfiniteQuery({
    queryKey: ["store-products", storeId, gender],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => api.storesProducts({ params: { id: storeId }, query: { skip: pageParam, take: STORE_PAGE, target_gender } }),
    getNextPageParam: (last, all) => {
      const loaded = all.reduce((n, p) => n + p.products.length, 0);
      return last.products.length === STORE_PAGE && loaded < last.total ? loaded : undefined;
    },
    enabled: !!storeId && store.isSuccess,
  });
  const items = products.data?.pages.flatMap((p) => p.products) ?? [];
  const loadMore = () => {
    if (products.hasNextPage && !products.isFetchingNextPage) void products.fetchNextPage();
  };
  const sentinel = useInfiniteScroll({ enabled: !!products.hasNextPage && !products.isFetching && !products.isFetchNextPageError, onLoadMore: loadMore });

  const { pathname } = useLocation();
  const missing = store.error instanceof ApiClientError && store.error.status === 404;
  usePageMeta(
    store.data
      ? storePageText({ name: store.data.name, description: store.data.description, path: storePath(store.data) })
      : missing
        ? notFoundPageText("Store", pathname)
        : plainPageText("Store"),
  );

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [storeId]);

  if (missing) {
    return (
      <section className="page">
        <div className="state">
          <h1 className="state__title">Store not found</h1>
          <Link className="button" to={homePathFor(gender)}>
            Continue shopping
          </Link>
        </div>
      </section>
    );
  }
  if (store.isPending) return <Spinner label="Loading store…" />;
  if (store.isError) {
    return (
      <div className="state state--error" role="alert">
        <h1 className="state__title">This store could not be loaded</h1>
        <p className="state__text">{errorMessage(store.error)}</p>
        <button type="button" className="button" onClick={() => void store.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  const s = store.data;
  return (
    <ProductOpenerProvider opener={modal.open}>
      <section className="page store-page" aria-labelledby="store-heading" data-testid="store-page">
        <header className="store-head">
          {s.logo_url && <ResponsiveImage className="store-head__logo" url={s.logo_url} alt="" widths={LOGO_WIDTHS} sizes="72px" width={72} height={72} eager />}
          <div>
            <h1 id="store-heading" className="page__title">
              {s.name}
            </h1>
            {s.description && <p className="store-head__text">{s.description}</p>}
            {s.size_recommendation && (
              <p className="store-head__size">
                <strong>Sizing:</strong> {s.size_recommendation}
              </p>
            )}
          </div>
          <div className="store-head__follow">
            <FollowButton store={s} />
            <span className="store-head__followers" data-testid="store-followers">
              {s.followerCount} {s.followerCount === 1 ? "follower" : "followers"}
            </span>
          </div>
        </header>
        <StoreReviews key={`reviews-${s.id}`} storeId={s.id} storeName={s.name} />
        {products.isPending ? (
          <ProductGridSkeleton count={8} label="Loading products" />
        ) : products.isError && items.length === 0 ? (
          <div className="state state--error" role="alert">
            <h2 className="state__title">{Messages.FAILED_TO_FETCH_PRODUCTS}</h2>
            <p className="state__text">{errorMessage(products.error)}</p>
            <button type="button" className="button" onClick={() => void products.refetch()}>
              Retry
            </button>
          </div>
        ) : items.length === 0 ? (
          <div className="state">
            <h2 className="state__title">No products here yet</h2>
          </div>
        ) : (
          <>
            <div className="grid">
              {items.map((p, i) => (
                <ProductCard key={p.id} product={p} priority={i === 0} eager={i < 4} />
              ))}
            </div>
            <FeedFooter
              testId="store-products"
              sentinelRef={sentinel}
              loading={products.isFetchingNextPage}
              error={products.isFetchNextPageError ? errorMessage(products.error, Messages.FAILED_TO_FETCH_PRODUCTS) : null}
              hasMore={!!products.hasNextPage}
              onRetry={() => void products.fetchNextPage()}
              onLoadMore={loadMore}
            />
          </>
        )}
      </section>
      {modal.productId && <ProductModal productId={modal.productId} onClose={modal.close} />}
    </ProductOpenerProvider>
  );
}
