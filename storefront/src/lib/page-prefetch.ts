/**
 * The API calls a storefront page makes on its first render, made ahead by the server for the
 * page's HTML (./bootstrap.ts says why). They are the pages' own calls with the same arguments
 * (the same helpers build them), so the answers match what the page asks for; when they do not
 * (another gender kept in the tab, a different screen size), the page simply asks the network.
 *
 * Only the calls on the way to the first picture: the home feed's first page, a search's first
 * page, a product with its store, a store with its reviews summary and first products, and the
 * cart and session every page shows.
 */
import type { ApiClient } from "~/client";
import type { ProductCard, ProductDetail, User } from "~/contract";
import { SEARCH_PAGE_SIZE_DESKTOP, SEARCH_PAGE_SIZE_MOBILE, STORE_PAGE_PRODUCTS } from "./constants";
import { resolveGenderPreference, targetGenderParam } from "./gender-preference";
import { normalizePath, readSearchTerm, stripGenderPrefix } from "./gender-routing";
import { composeFeed } from "./home-feed";
import { FIRST_HOME_CURSOR, fetchHomeFeedPage } from "./home-feed-query";
import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTHS, MAIN_IMAGE_SIZES, MAIN_IMAGE_WIDTHS } from "./image-sizes";
import { productIdFromParam, readVariantParam } from "./product-path";
import { findVariant, galleryImages, initialSelection } from "./variants";
import { parseSearchState, searchRequestBody } from "./search-state";

export interface PrefetchContext {
  user: User;
  /** Whether the browser said it is a phone (the search page's size depends on it). */
  mobile: boolean;
}

/** The page kind a path is, with its parameters, or null for pages not prefetched. */
export function prefetchTarget(pathname: string): { kind: "home" } | { kind: "product"; id: string } | { kind: "store"; id: string } | null {
  const path = normalizePath(pathname);
  if (stripGenderPrefix(path) === "/") return { kind: "home" };
  const product = /^\/products\/([^/]+)/.exec(path);
  if (product) {
    const id = productIdFromParam(decodeURIComponent(product[1]));
    return id ? { kind: "product", id } : null;
  }
  const store = /^\/stores\/([^/]+)/.exec(path);
  if (store) return { kind: "store", id: decodeURIComponent(store[1]) };
  return null;
}

/** The page's largest image (what Lighthouse calls LCP), as its <ResponsiveImage> asks for it. */
export interface MainImage {
  url: string;
  widths: readonly number[];
  sizes: string;
  intrinsicWidth?: number | null;
}

/** A product card's image (components/ProductCard.tsx): the searched colour's, else the featured one. */
export function cardImage(product: ProductCard | undefined): MainImage | null {
  const image = product ? (product.matchedVariant?.image ?? product.featuredImage) : null;
  return image ? { url: image.url, widths: CARD_IMAGE_WIDTHS, sizes: CARD_IMAGE_SIZES } : null;
}

/** A product page's first gallery image (components/ProductDetails.tsx) for the variant it starts with. */
export function productMainImage(product: ProductDetail, preferredVariantId: string | null): MainImage | null {
  const image = galleryImages(product, findVariant(product.variants, initialSelection(product, preferredVariantId)))[0];
  return image ? { url: image.url, widths: MAIN_IMAGE_WIDTHS, sizes: MAIN_IMAGE_SIZES, intrinsicWidth: image.width } : null;
}

const settled = <T,>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

/**
 * Makes the page's first calls through `api` and returns its main image. Failures are left for
 * the page to meet itself.
 */
export async function prefetchPage(api: ApiClient, url: URL, ctx: PrefetchContext): Promise<MainImage | null> {
  const target = prefetchTarget(url.pathname);
  if (!target) return null;
  const gender = resolveGenderPreference({ pathname: url.pathname, stored: null, interests: ctx.user.metadata.interests ?? null, hasUser: true });
  const cart = settled(api.cartGet());
  let main: Promise<MainImage | null>;
  if (target.kind === "home") {
    const term = readSearchTerm(url.search);
    if (term) {
      const state = parseSearchState(url.search, gender);
      const body = searchRequestBody({ ...state, term }, ctx.mobile ? SEARCH_PAGE_SIZE_MOBILE : SEARCH_PAGE_SIZE_DESKTOP);
      main = settled(api.searchProducts({ body })).then((r) => cardImage(r?.results[0]));
    } else {
      main = settled(fetchHomeFeedPage(api, { gender, seed: ctx.user.id, recentProductId: null }, FIRST_HOME_CURSOR)).then((page) => {
        const first = page ? composeFeed([page]).find((e) => e.type === "product") : undefined;
        return first?.type === "product" ? cardImage(first.product) : null;
      });
    }
  } else if (target.kind === "product") {
    main = settled(api.productsGetById({ params: { id: target.id } })).then(async (p) => {
      if (!p) return null;
      if (p.storeId) await settled(api.storesGetById({ params: { id: p.storeId } }));
      return productMainImage(p, readVariantParam(url.search));
    });
  } else {
    // The reviews summary sits above the products: answered with the store, it does not push them down.
    const storeCall = Promise.all([settled(api.storesGetById({ params: { id: target.id } })), settled(api.reviewsStoreSummary({ params: { id: target.id } }))]);
    main = settled(api.storesProducts({ params: { id: target.id }, query: { skip: 0, take: STORE_PAGE_PRODUCTS, target_gender: targetGenderParam(gender) } })).then(
      async (r) => {
        await storeCall;
        return cardImage(r?.products[0]);
      },
    );
  }
  const [image] = await Promise.all([main, cart]);
  return image;
}
