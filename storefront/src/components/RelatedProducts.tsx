/**
 * Products related to a product, loaded in batches with infinite scroll: what customers also
 * viewed first, then similar products (pure logic in lib/related-feed.ts). The section sits below
 * the product: its first batch is asked for and drawn when the section comes near the screen, so a
 * phone's first seconds go to the product itself (its skeleton keeps the place meanwhile).
 */
import { useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { ProductCard as ProductCardData } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { targetGenderParam } from "../lib/gender-preference";
import { FIRST_RELATED_CURSOR, mergeRelated, nextRelatedCursor, type RelatedCursor, type RelatedPage } from "../lib/related-feed";
import { useInfiniteScroll } from "../lib/use-infinite-scroll";
import { useNearViewport } from "../lib/use-near-viewport";
import { ProductCard, ProductGridSkeleton } from "./ProductCard";
import { FeedFooter } from "./FeedStatus";

export interface RelatedProductsProps {
  productId: string;
  batchSize: number;
  title?: string;
  /** The scrolling container (the modal); the viewport when omitted. */
  scrollRoot?: Element | null;
  testId?: string;
  /** Ask for the first batch only when the section comes near the screen (the product page); a dialog opened on purpose asks at once. */
  loadWhenNear?: boolean;
}

export function RelatedProducts({ productId, batchSize, title = "You may also like", scrollRoot = null, testId = "related", loadWhenNear = true }: RelatedProductsProps) {
  const api = useApi();
  const { gender } = useGender();
  const target_gender = targetGenderParam(gender);
  const [sectionRef, near] = useNearViewport({ root: scrollRoot, rootMargin: scrollRoot ? "300px 0px" : "800px 0px", once: true });

  const related = useInfiniteQuery({
    enabled: near || !loadWhenNear,
    queryKey: ["related", productId, { gender, batchSize }],
    initialPageParam: FIRST_RELATED_CURSOR as RelatedCursor,
    getNextPageParam: (last: RelatedPage) => nextRelatedCursor(last),
    queryFn: async ({ pageParam }): Promise<RelatedPage> => {
      if (pageParam.source === "also-viewed") {
        try {
          const r = await api.recommendationsCustomersAlsoViewed({
            params: { id: productId },
            query: { page: pageParam.page, limit: batchSize, target_gender, exclude: [productId] },
          });
          return { cursor: pageParam, products: r.results, hasNextPage: r.pagination.hasNextPage };
        } catch {
          // No co-viewing data to offer: similar products follow.
          return { cursor: pageParam, products: [], hasNextPage: false };
        }
      }
      const r = await api.companionSimilar({ params: { id: productId }, query: { page: pageParam.page, limit: batchSize, target_gender } });
      return { cursor: pageParam, products: r.results as ProductCardData[], hasNextPage: r.hasNextPage };
    },
    staleTime: 5 * 60_000,
  });

  const products = useMemo(() => mergeRelated(related.data?.pages ?? [], productId), [related.data, productId]);
  const loadMore = () => {
    if (related.hasNextPage && !related.isFetchingNextPage) void related.fetchNextPage();
  };
  const sentinel = useInfiniteScroll({
    enabled: !!related.hasNextPage && !related.isFetching && !related.isFetchNextPageError,
    onLoadMore: loadMore,
    root: scrollRoot,
    rootMargin: scrollRoot ? "300px 0px" : "600px 0px",
  });

  const headingId = `${testId}-heading`;
  return (
    <section ref={sectionRef} className="related" aria-labelledby={headingId} data-testid={testId} data-count={products.length}>
      <h2 id={headingId} className="section-title">
        {title}
      </h2>
      {related.isPending ? (
        <ProductGridSkeleton count={4} label="Loading related products" />
      ) : related.isError && products.length === 0 ? (
        <div className="inline-state" role="alert">
          <p className="inline-state__text">{errorMessage(related.error, "Related products could not be loaded.")}</p>
          <button type="button" className="button button--ghost" onClick={() => void related.refetch()}>
            Try again
          </button>
        </div>
      ) : products.length === 0 && !related.hasNextPage ? (
        <p className="related__empty">No related products yet.</p>
      ) : (
        <>
          <div className="grid" data-testid={`${testId}-grid`}>
            {products.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </div>
          <FeedFooter
            testId={testId}
            sentinelRef={sentinel}
            loading={related.isFetchingNextPage}
            error={related.isFetchNextPageError ? errorMessage(related.error, "More related products could not be loaded.") : null}
            hasMore={!!related.hasNextPage}
            onRetry={() => void related.fetchNextPage()}
            onLoadMore={loadMore}
          />
        </>
      )}
    </section>
  );
}
