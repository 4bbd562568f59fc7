/**
 * Stores (`/stores`, `/mens/stores`, `/womens/stores`): the featured stores (most followed and
 * curated, with products for the gender), then every store for the current gender, 10 at a time
 * with their 12 newest products for that gender (SPEC §9), each with its Follow button and a link
 * to its page; "More stores" reads the next 10. Product cards open the product modal in place.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { ProductCard as ProductCardData, Store } from "~/contract";
import { useApi } from "../lib/api";
import { GENDER_LABELS, useGender } from "../lib/gender";
import { homePathFor, type Gender } from "../lib/gender-routing";
import { ProductOpenerProvider, useProductModalRoute } from "../lib/product-opener";
import { storePath } from "../lib/store-path";
import {
  FEATURED_STORE_PRODUCTS,
  FEATURED_STORES_TAKE,
  STORE_CARD_PRODUCTS,
  featuredStoresKey,
  fetchFeaturedStores,
  fetchStoresPage,
  nextStoresSkip,
  storesByGenderKey,
} from "../lib/stores-query";
import { useStaticPageMeta } from "../lib/use-page-meta";
import { FollowButton } from "../components/FollowButton";
import { ListStates } from "../components/ListStates";
import { LoadMore } from "../components/LoadMore";
import { ProductCard } from "../components/ProductCard";
import { ProductModal } from "../components/ProductModalLazy";
import "../stores.css";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function StoreLogo({ store, size }: { store: Pick<Store, "name" | "logo_url">; size: number }) {
  return store.logo_url ? (
    <img className="store-logo" src={store.logo_url} alt="" width={size} height={size} loading="lazy" decoding="async" />
  ) : (
    <span className="store-logo store-logo--empty" aria-hidden="true">
      {store.name.slice(0, 1)}
    </span>
  );
}

/** A featured store: its logo, name and counts, a strip of its products' pictures and Follow. */
function FeaturedStore({ store }: { store: Store & { products: ProductCardData[] } }) {
  const pictures = store.products.filter((p) => p.featuredImage).slice(0, FEATURED_STORE_PRODUCTS);
  return (
    <li className="featured-store" data-testid="featured-store" data-store-id={store.id}>
      <Link to={storePath(store)} className="featured-store__link">
        <span className="featured-store__pictures" aria-hidden="true">
          {pictures.map((p) => (
            <img key={p.id} src={p.featuredImage!.url} alt="" width={150} height={200} loading="lazy" decoding="async" />
          ))}
        </span>
        <span className="featured-store__id">
          <StoreLogo store={store} size={40} />
          <span className="featured-store__text">
            <span className="featured-store__name">{store.name}</span>
            <span className="featured-store__meta">{plural(store.followerCount, "follower", "followers")}</span>
          </span>
        </span>
      </Link>
      <FollowButton store={store} small />
    </li>
  );
}

function FeaturedStores({ gender }: { gender: Gender }) {
  const api = useApi();
  const featured = useQuery({
    queryKey: featuredStoresKey(gender),
    queryFn: () => fetchFeaturedStores(api, gender),
  });
  // The featured row is a shortcut: the list below has every store, so a failure or nothing to feature hides it.
  const stores = featured.data?.stores ?? [];
  if (featured.isPending)
    return (
      <div className="featured-stores featured-stores--loading" aria-busy="true">
        <span className="visually-hidden">Loading featured stores…</span>
        {Array.from({ length: FEATURED_STORES_TAKE }, (_, i) => (
          <span key={i} className="featured-store featured-store--skeleton" />
        ))}
      </div>
    );
  if (stores.length === 0) return null;
  return (
    <section className="stores-section" aria-labelledby="featured-stores-heading" data-testid="featured-stores">
      <h2 id="featured-stores-heading" className="stores-section__title">
        Featured stores
      </h2>
      <ul className="featured-stores">
        {stores.map((s) => (
          <FeaturedStore key={s.id} store={s} />
        ))}
      </ul>
    </section>
  );
}

/** A store in the list: who it is, Follow and Visit, and its newest products for the gender. */
function StoreBlock({ store, gender }: { store: Store & { products: ProductCardData[] }; gender: Gender }) {
  const headingId = `store-${store.id}-name`;
  return (
    <li className="store-block" data-testid="store-block" data-store-id={store.id}>
      <article aria-labelledby={headingId}>
        <header className="store-block__head">
          <Link to={storePath(store)} className="store-block__logo" tabIndex={-1} aria-hidden="true">
            <StoreLogo store={store} size={56} />
          </Link>
          <div className="store-block__text">
            <h3 id={headingId} className="store-block__name">
              <Link to={storePath(store)} data-testid="store-link">
                {store.name}
              </Link>
            </h3>
            <p className="store-block__meta">
              {`${plural(store.productCount, "product", "products")} · ${plural(store.followerCount, "follower", "followers")}`}
            </p>
            {store.description && <p className="store-block__desc">{store.description}</p>}
          </div>
          <div className="store-block__actions">
            <FollowButton store={store} small />
            <Link to={storePath(store)} className="button button--ghost button--small" aria-label={`Visit store: ${store.name}`} data-testid="store-visit">
              Visit store
            </Link>
          </div>
        </header>
        {store.products.length > 0 ? (
          <ul className="store-block__products" aria-label={`${store.name} products`} data-testid="store-products">
            {store.products.slice(0, STORE_CARD_PRODUCTS).map((p) => (
              <li key={p.id} className="store-block__product">
                <ProductCard product={p} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="store-block__empty">
            {`No ${gender === "both" ? "" : `${GENDER_LABELS[gender].toLowerCase()} `}products in this store yet.`}
          </p>
        )}
      </article>
    </li>
  );
}

export function Stores() {
  const api = useApi();
  const { gender } = useGender();
  const modal = useProductModalRoute();
  useStaticPageMeta();

  const list = useInfiniteQuery({
    queryKey: storesByGenderKey(gender),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchStoresPage(api, gender, pageParam),
    getNextPageParam: nextStoresSkip,
  });
  const stores = list.data?.pages.flatMap((p) => p.stores) ?? [];
  const total = list.data?.pages[list.data.pages.length - 1]?.total ?? 0;

  return (
    <ProductOpenerProvider opener={modal.open}>
      <section className="page stores-page" aria-labelledby="stores-heading" data-testid="stores-page">
        <div className="page__head">
          <h1 id="stores-heading" className="page__title">
            {gender === "both" ? "Stores" : `Stores · ${GENDER_LABELS[gender]}`}
          </h1>
        </div>
        <p className="stores-page__intro">Follow the stores you like: their new arrivals come to your feed.</p>
        <FeaturedStores gender={gender} />
        <section className="stores-section" aria-labelledby="all-stores-heading">
          <h2 id="all-stores-heading" className="stores-section__title">
            All stores{total > 0 && <span className="stores-section__count">{` · ${total}`}</span>}
          </h2>
          <ListStates
            list={list}
            count={stores.length}
            loadingLabel="Loading stores…"
            errorTitle="The stores could not be loaded"
            errorFallback="Please try again in a moment."
            headingLevel={3}
            empty={
              <div className="state" data-testid="stores-empty">
                <h3 className="state__title">No stores to show yet</h3>
                <p className="state__text">Come back soon: new stores open regularly.</p>
                <Link className="button" to={homePathFor(gender)}>
                  Continue shopping
                </Link>
              </div>
            }
          >
            <ul className="stores-list" data-testid="stores-list">
              {stores.map((s) => (
                <StoreBlock key={s.id} store={s} gender={gender} />
              ))}
            </ul>
            <LoadMore list={list} testId="stores-more" label="More stores" />
          </ListStates>
        </section>
      </section>
      {modal.productId && <ProductModal productId={modal.productId} onClose={modal.close} />}
    </ProductOpenerProvider>
  );
}
