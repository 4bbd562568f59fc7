/**
 * Saved products (`/saved`): 20 a page, newest first (SPEC §9), with infinite scroll. Unsaving a
 * card's heart takes it off the list; a product no longer sold stays listed as unavailable with a
 * button to remove it. Guests see their saves too, with a note that signing in keeps them.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { ProductOpenerProvider, useProductModalRoute } from "../lib/product-opener";
import { SAVED_LIST_KEY, primeToggles, savedKey, useSavedProduct } from "../lib/saved";
import { useSession } from "../lib/session";
import { useInfiniteScroll } from "../lib/use-infinite-scroll";
import { ProductGridSkeleton } from "../components/ProductCard";
import { FeedFooter } from "../components/FeedStatus";
import { ProductModal } from "../components/ProductModal";
import { ProductCardWithQuickAdd } from "../components/AddToCartQuick";
import { GuestNote, SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import { InlineProblem } from "../components/LoginPrompt";
import "../account.css";

const PAGE = 20;

function UnavailableCard({ productId }: { productId: string }) {
  const t = useSavedProduct(productId);
  return (
    <article className="card card--gone" data-testid="saved-unavailable" data-product-id={productId}>
      <div className="card__media card__gone">
        <p>No longer available</p>
      </div>
      <button type="button" className="link-button" disabled={t.pending} onClick={() => void t.set(false)}>
        Remove
      </button>
      {t.problem && <InlineProblem message={t.problem.message} onClose={t.dismiss} />}
    </article>
  );
}

export function Saved() {
  const api = useApi();
  const { gender } = useGender();
  const { user } = useSession();
  const modal = useProductModalRoute();
  const qc = useQueryClient();

  const saved = useInfiniteQuery({
    queryKey: SAVED_LIST_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const page = await api.savedProductsList({ query: { cursor: pageParam, limit: PAGE } });
      primeToggles(
        qc,
        page.items.map((i) => savedKey(i.product_id)),
        true
      );
      return page;
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!user,
  });
  const items = saved.data?.pages.flatMap((p) => p.items) ?? [];
  const loadMore = () => {
    if (saved.hasNextPage && !saved.isFetchingNextPage) void saved.fetchNextPage();
  };
  const sentinel = useInfiniteScroll({ enabled: !!saved.hasNextPage && !saved.isFetching && !saved.isFetchNextPageError, onLoadMore: loadMore });

  return (
    <ProductOpenerProvider opener={modal.open}>
      <AccountPage headingId="saved-heading" title="Saved" testId="saved-page">
        <GuestNote what="your saved products" />
        <SessionGate>
          <ListStates
            list={saved}
            count={items.length}
            loading={
              <ProductGridSkeleton count={4} label="Loading saved products" />
            }
            errorTitle="Your saved products could not be loaded"
            empty={
              <div className="state" data-testid="saved-empty">
                <h2 className="state__title">Nothing saved yet</h2>
                <p className="state__text">Tap the heart on any product to keep it here.</p>
                <Link className="button" to={homePathFor(gender)}>
                  Start browsing
                </Link>
              </div>
            }
          >
            <div className="grid" data-testid="saved-list">
              {items.map((i) =>
                i.product ? <ProductCardWithQuickAdd key={i.product_id} product={i.product} onChooseOptions={modal.open} /> : <UnavailableCard key={i.product_id} productId={i.product_id} />
              )}
            </div>
            <FeedFooter
              testId="saved"
              sentinelRef={sentinel}
              loading={saved.isFetchingNextPage}
              error={saved.isFetchNextPageError ? errorMessage(saved.error) : null}
              hasMore={!!saved.hasNextPage}
              onRetry={() => void saved.fetchNextPage()}
              onLoadMore={loadMore}
              loadingLabel="Loading more saved products…"
            />
          </ListStates>
        </SessionGate>
      </AccountPage>
      {modal.productId && <ProductModal productId={modal.productId} onClose={modal.close} />}
    </ProductOpenerProvider>
  );
}
