/**
 * Server renders of the stores page (`/stores`, `/mens/stores`, `/womens/stores`) with its queries
 * seeded: the featured stores, every store with its products, Follow and the link to the store,
 * "More stores" while stores are left, the states (loading, error, empty), the page title per
 * gender; and the Following page's empty state leading to it. Also the header's signed-out area
 * (Saved and Sign in, not Account) and the Menu button that stands in for the nav on a phone.
 */
import { describe, expect, it } from "vitest";
import { Route } from "react-router-dom";
import { QueryClient } from "@tanstack/react-query";
import type { ProductCard, Store, User } from "~/contract";
import { shopper, renderRoutes } from "../../helpers/storefront-render";
import { Layout } from "../../../storefront/src/components/Layout";
import { Stores } from "../../../storefront/src/pages/Stores";
import { Following } from "../../../storefront/src/pages/Following";
import { featuredStoresKey, nextStoresSkip, storesByGenderKey, STORES_PAGE, STORE_CARD_PRODUCTS } from "../../../storefront/src/lib/stores-query";
import { FOLLOWING_LIST_KEY, followingKey, primeToggles } from "../../../storefront/src/lib/saved";
import type { Gender } from "../../../storefront/src/lib/gender-routing";
import { apiError, seedError } from "./account-pages.fixtures";

type StoreWithProducts = Store & { products: ProductCard[] };

const product = (i: number, storeId: string): ProductCard => ({
  id: `gid://shopify/Product/${i}`,
  title: `Wool coat ${i}`,
  handle: `wool-coat-${i}`,
  vendor: "Atelier Nord",
  productType: "Coat",
  availableForSale: true,
  featuredImage: { url: `/uploads/images/p${i}.jpg`, altText: null },
  priceRange: { minVariantPrice: { amount: "90.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "90.00", currencyCode: "EUR" } },
  target_gender: "menswear",
  colorHexes: [],
  storeId,
});

function store(id: string, name: string, products: number, over: Partial<Store> = {}): StoreWithProducts {
  return {
    id,
    name,
    handle: name.toLowerCase().replace(/\s+/g, "-"),
    description: null,
    logo_url: null,
    banner_url: null,
    size_recommendation: null,
    target_gender: "menswear",
    vendor_id: "v1",
    sort_order: 0,
    productCount: products,
    followerCount: 3,
    created_at: "2025-01-01T00:00:00.000Z",
    updated_at: "2025-01-01T00:00:00.000Z",
    ...over,
    products: Array.from({ length: products }, (_, i) => product(Number(id.replace(/\D/g, "")) * 100 + i, id)),
  };
}

const north = store("s1", "North Menswear", 3, { description: "Coats and knits from the north.", logo_url: "/uploads/images/north.png", followerCount: 1 });
const empty = store("s2", "Common Goods", 0, { target_gender: "both" });

function seedStores(qc: QueryClient, gender: Gender, stores: StoreWithProducts[], total: number, featured: StoreWithProducts[] = []) {
  qc.setQueryData(storesByGenderKey(gender), { pages: [{ stores, total, skip: 0, take: STORES_PAGE }], pageParams: [0] });
  qc.setQueryData(featuredStoresKey(gender), { stores: featured });
}

const guest = (): User => shopper({ auth_provider: "guest", email: null, first_name: null });
/**
 * The layout with the stores and Following routes as App declares them, rendered like
 * renderStorefront (seeded cache, an API that fails if called) but with the pages imported
 * directly, so the render does not wait on App's lazily loaded page chunks.
 */
function render(path: string, seed: (qc: QueryClient) => void, who: User | null = guest()): string {
  return renderRoutes(
    path,
    <Route element={<Layout />}>
      {["/stores", "/mens/stores", "/womens/stores"].map((p) => (
        <Route key={p} path={p} element={<Stores />} />
      ))}
      <Route path="/following" element={<Following />} />
    </Route>,
    seed,
    who,
  );
}
const count = (html: string, needle: string) => html.split(needle).length - 1;
/** The page's section (the header and footer left out). */
const pageOf = (html: string) => html.slice(html.indexOf('data-testid="stores-page"'), html.indexOf("</main>"));

describe("stores page (server render)", () => {
  it("lists the gender's stores with their products, Follow and a link to each store, and the featured stores", () => {
    const html = render("/mens/stores", (qc) => {
      seedStores(qc, "menswear", [north, empty], 14, [north]);
      primeToggles(qc, [followingKey("s1")], true);
    });
    const page = pageOf(html);
    expect(page).toContain('<h1 id="stores-heading" class="page__title">Stores · Menswear</h1>');
    expect(page).toContain("All stores<span class=\"stores-section__count\"> · 14</span>");
    // Featured: the tile links to the store and has its own Follow.
    expect(page).toMatch(/data-testid="featured-stores"[\s\S]*<li class="featured-store" data-testid="featured-store" data-store-id="s1"><a class="featured-store__link" href="\/stores\/s1\/north-menswear">/);
    // Every store: a block with the store link, counts, description, Follow and Visit store.
    expect(count(page, 'data-testid="store-block"')).toBe(2);
    expect(page).toContain('<a data-testid="store-link" href="/stores/s1/north-menswear">North Menswear</a>');
    expect(page).toContain("3 products · 1 follower");
    expect(page).toContain("Coats and knits from the north.");
    expect(page).toMatch(/<a class="button button--ghost button--small" aria-label="Visit store: North Menswear" data-testid="store-visit" href="\/stores\/s1\/north-menswear">Visit store<\/a>/);
    // Follow state from the cache: North is followed (in the featured tile and the list), Common Goods not.
    expect(count(page, 'aria-label="Following North Menswear"')).toBe(2);
    expect(page).toContain('aria-label="Follow Common Goods"');
    // Products as cards in the store's row; a store without products for the gender says so.
    expect(page).toMatch(/<ul class="store-block__products" aria-label="North Menswear products" data-testid="store-products">/);
    expect(count(page, 'data-testid="product-card"')).toBe(3);
    expect(page).toMatch(/<a class="card__link" href="\/products\/[^"]+\/wool-coat-100">/);
    expect(page).toContain("No menswear products in this store yet.");
    // 2 of 14 loaded: More stores.
    expect(page).toMatch(/data-testid="stores-more">More stores</);
    expect(page).not.toContain("coming soon");
  });

  it("has no More stores once every store is loaded; the both-genders page has no gender in its title", () => {
    const html = pageOf(render("/stores", (qc) => seedStores(qc, "both", [north, empty], 2)));
    expect(html).toContain('<h1 id="stores-heading" class="page__title">Stores</h1>');
    expect(html).not.toContain('data-testid="stores-more"');
    expect(html).toContain("No products in this store yet.");
    // Nothing to feature: no featured section.
    expect(html).not.toContain('data-testid="featured-stores"');
  });

  it("womenswear reads its own stores (the cache key is per gender)", () => {
    const rose = store("s3", "Rose Atelier", 1, { target_gender: "womenswear" });
    const html = pageOf(render("/womens/stores", (qc) => {
      seedStores(qc, "womenswear", [rose], 1);
      seedStores(qc, "menswear", [north], 1);
    }));
    expect(html).toContain("Stores · Womenswear");
    expect(html).toContain("Rose Atelier");
    expect(html).not.toContain("North Menswear");
  });

  it("shows a spinner and featured placeholders while loading, the error with Retry, and an empty state", () => {
    const loading = pageOf(render("/stores", () => undefined));
    expect(loading).toContain('<span class="spinner__label">Loading stores…</span>');
    expect(loading).toContain('<div class="featured-stores featured-stores--loading" aria-busy="true">');

    const failed = pageOf(render("/stores", (qc) => seedError(qc, storesByGenderKey("both"), apiError("The server is down"))));
    expect(failed).toContain(
      '<div class="state state--error" role="alert"><h3 class="state__title">The stores could not be loaded</h3><p class="state__text">The server is down</p><button type="button" class="button">Retry</button></div>',
    );

    const none = pageOf(render("/mens/stores", (qc) => seedStores(qc, "menswear", [], 0)));
    expect(none).toContain('data-testid="stores-empty"');
    expect(none).toContain('<a class="button" href="/mens">Continue shopping</a>');
  });

  it("the featured stores' failure hides the featured row and keeps the list", () => {
    const html = pageOf(
      render("/stores", (qc) => {
        qc.setQueryData(storesByGenderKey("both"), { pages: [{ stores: [north], total: 1, skip: 0, take: STORES_PAGE }], pageParams: [0] });
        seedError(qc, featuredStoresKey("both"), apiError("Down"));
      }),
    );
    expect(html).not.toContain('data-testid="featured-stores"');
    expect(html).not.toContain("featured-stores--loading");
    expect(count(html, 'data-testid="store-block"')).toBe(1);
  });

  it("pages by the stores loaded: the next skip, none when all are loaded or a page is empty", () => {
    const page = (n: number) => ({ stores: Array.from({ length: n }, () => ({})), take: STORES_PAGE, total: 25 });
    expect(nextStoresSkip(page(10), [page(10)])).toBe(10);
    expect(nextStoresSkip(page(10), [page(10), page(10)])).toBe(20);
    expect(nextStoresSkip(page(5), [page(10), page(10), page(5)])).toBeUndefined();
    expect(nextStoresSkip({ stores: [], take: 10, total: 25 }, [page(10), { stores: [] }])).toBeUndefined();
    expect(STORES_PAGE).toBe(10);
    expect(STORE_CARD_PRODUCTS).toBe(12);
  });

  it("the empty Following page's Browse stores leads to the stores page of the gender", () => {
    const empty = (path: string) =>
      render(path, (qc) => qc.setQueryData(FOLLOWING_LIST_KEY, { pages: [{ items: [], nextCursor: null }], pageParams: [undefined] }), guest());
    expect(empty("/following")).toContain('<a class="button" href="/stores">Browse stores</a>');
    const womens = render(
      "/following",
      (qc) => qc.setQueryData(FOLLOWING_LIST_KEY, { pages: [{ items: [], nextCursor: null }], pageParams: [undefined] }),
      shopper({ metadata: { interests: "womenswear" } }),
    );
    expect(womens).toContain('<a class="button" href="/womens/stores">Browse stores</a>');
  });
});

describe("header (server render)", () => {
  const header = (html: string) => html.slice(html.indexOf("<header"), html.indexOf("</header>"));

  it("signed out: Saved and Sign in, not Account as well; the icon links have names", () => {
    const h = header(render("/stores", (qc) => seedStores(qc, "both", [], 0), guest()));
    expect(h).toContain('aria-label="Saved" data-testid="header-saved-link"');
    expect(h).toContain('<a class="account__signin" data-testid="header-sign-in" href="/login">Sign in</a>');
    expect(h).not.toContain("header-account-link");
    expect(h).not.toContain(">Account<");
  });

  it("before the session is known: Sign in only", () => {
    const h = header(render("/stores", (qc) => seedStores(qc, "both", [], 0), null));
    expect(h).toContain(">Sign in</a>");
    expect(h).not.toContain("header-saved-link");
  });

  it("signed in: Saved, the account menu and Sign out, no Sign in", () => {
    const h = header(render("/stores", (qc) => seedStores(qc, "both", [], 0), shopper({ auth_provider: "password", email: "ada@demo.local" })));
    expect(h).toContain('aria-label="Saved" data-testid="header-saved-link"');
    expect(h).toContain('aria-label="Account menu"');
    expect(h).toContain(">Sign out<");
    expect(h).not.toContain(">Sign in<");
  });

  it("has a closed Menu button controlling an empty panel (the links render when it opens)", () => {
    const h = header(render("/mens/stores", (qc) => seedStores(qc, "menswear", [], 0)));
    const button = /<button type="button" class="mobile-menu__button" aria-label="Menu" aria-expanded="false" aria-controls="([^"]+)" data-testid="mobile-menu-button">/.exec(h);
    expect(button).not.toBeNull();
    expect(h).toContain(`<div id="${button![1]}" class="mobile-menu__panel" hidden="" data-testid="mobile-menu"></div>`);
    // The desktop nav is still there, pointing at the gender's stores.
    expect(h).toMatch(/<nav class="header__nav" aria-label="Main">[\s\S]*href="\/mens\/stores"[\s\S]*>Stores<[\s\S]*href="\/assistant"/);
  });
});
