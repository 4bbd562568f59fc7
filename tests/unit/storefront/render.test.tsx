/**
 * Server-side renders of the storefront shell (react-dom/server, no DOM): routes, the gender
 * switch, product cards and their images, load more. Effects do not run here; data is seeded in
 * the query cache and the API client is a fake that fails if called.
 */
import { describe, expect, it } from "vitest";
import type { ProductCard, User } from "~/contract";
import { renderStorefront, shopper } from "../../helpers/storefront-render";
import { FIRST_HOME_CURSOR, homeFeedKey } from "../../../storefront/src/lib/home-feed-query";
import type { Gender } from "../../../storefront/src/lib/gender-routing";


function product(i: number, over: Partial<ProductCard> = {}): ProductCard {
  return {
    id: `p${i}`,
    title: `Product ${i}`,
    handle: `product-${i}`,
    vendor: "Atelier Nord",
    productType: "Coat",
    availableForSale: true,
    featuredImage: { url: `/uploads/images/p${i}.jpg`, altText: i === 0 ? "Black wool coat" : null },
    priceRange: { minVariantPrice: { amount: "120.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "120.00", currencyCode: "EUR" } },
    target_gender: "menswear",
    colorHexes: ["#000000", "#ffffff"],
    storeId: null,
    ...over,
  };
}

/** A guest unless told otherwise. */
const user = (over: Partial<User> = {}): User => shopper({ auth_provider: "guest", email: null, first_name: null, ...over });

function render(path: string, opts: { user?: User; products?: { gender: Gender; search?: string; items: ProductCard[]; hasNextPage: boolean } } = {}) {
  const who = opts.user ?? user();
  return renderStorefront(
    path,
    (qc) => {
      if (!opts.products) return;
      const { gender, items, hasNextPage } = opts.products;
      qc.setQueryData(homeFeedKey(gender, who.id), {
        pages: [
          {
            cursor: FIRST_HOME_CURSOR,
            next: hasNextPage ? { index: 1, randomCursor: "c1", randomDone: false, relatedOffset: 6 } : undefined,
            random: items,
            related: [],
            insertions: [],
          },
        ],
        pageParams: [FIRST_HOME_CURSOR],
      });
    },
    who,
  );
}

const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("storefront shell (server render)", () => {
  it("renders the menswear feed with cards, images and more to load", () => {
    const html = render("/mens", { products: { gender: "menswear", items: Array.from({ length: 24 }, (_, i) => product(i)), hasNextPage: true } });
    expect(count(html, 'data-testid="product-card"')).toBe(24);
    expect(html).toContain('data-testid="home-feed-more"');
    expect(html).toMatch(/<article[^>]*data-testid="product-card"/);
    expect(html).not.toMatch(/<a\s[^>]*data-testid="product-card"/);
    // The first card is the page's priority image, in sizes through the image route (issue 20); later ones are lazy.
    expect(html).toMatch(/<img[^>]*src="\/images\/p0.jpg\?w=240"[^>]*srcSet="[^"]*\/images\/p0.jpg\?w=480 480w[^"]*"[^>]*alt="Black wool coat"[^>]*loading="eager"[^>]*fetchpriority="high"/);
    expect(html).toMatch(/<img[^>]*src="\/images\/p10.jpg\?w=240"[^>]*loading="lazy"/);
    expect(html).toMatch(/<img[^>]*alt="Product 1"/);
    expect(html).toContain("€120.00");
    expect(html).toMatch(/aria-pressed="true"[^>]*data-testid="gender-switch-menswear"/);
    expect(html).toMatch(/aria-pressed="false"[^>]*data-testid="gender-switch-womenswear"/);
    expect(html).toMatch(/aria-pressed="false"[^>]*data-testid="gender-switch-both"/);
    expect(html).toContain('data-testid="search-input"');
    expect(html).toContain(">Sign in<");
    expect(html).toContain("Menswear</h1>");
  });

  it("has nothing more to load on the last page and shows an empty state with no products", () => {
    const last = render("/womens", { products: { gender: "womenswear", items: [product(1)], hasNextPage: false } });
    expect(count(last, 'data-testid="product-card"')).toBe(1);
    expect(last).not.toContain('data-testid="home-feed-more"');
    const empty = render("/", { products: { gender: "both", items: [], hasNextPage: false } });
    expect(empty).toContain("No products found");
  });

  it("shows a skeleton while products load", () => {
    const html = render("/");
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain("card--skeleton");
  });

  it("renders the search term from ?search=", () => {
    const html = render("/mens?search=coat", { products: { gender: "menswear", search: "coat", items: [product(1)], hasNextPage: false } });
    expect(html).toContain("Results for “coat”");
    expect(html).toMatch(/data-testid="search-input"[^>]*value="coat"|value="coat"[^>]*data-testid="search-input"/);
  });

  it("renders the stores page on every stores path (its states: stores-render.test.tsx)", () => {
    for (const p of ["/stores", "/mens/stores", "/womens/stores"]) {
      const html = render(p);
      expect(html).toContain('data-testid="stores-page"');
      expect(html).toContain("Loading stores…");
      expect(html).not.toContain("coming soon");
    }
  });

  it("renders the login form, and a 404 for unknown paths", () => {
    const login = render("/login");
    expect(login).toMatch(/<input[^>]*type="email"/);
    expect(login).toMatch(/<input[^>]*type="password"/);
    const nf = render("/nope/nothing");
    expect(nf).toContain("Page not found");
  });

  it("shows the signed-in user's email with sign out", () => {
    const html = render("/login", { user: user({ auth_provider: "password", email: "shopper@demo.local" }) });
    expect(html).toContain("shopper@demo.local");
    expect(html).toContain("Sign out");
    expect(html).not.toContain(">Sign in<");
  });

  it("uses the user's interests on a path without prefix", () => {
    const html = render("/saved", { user: user({ metadata: { interests: "womenswear,vintage" } }) });
    expect(html).toMatch(/aria-pressed="true"[^>]*data-testid="gender-switch-womenswear"/);
  });
});
