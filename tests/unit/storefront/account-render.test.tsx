/**
 * Server-side renders of the shopper's own pages (Saved, Following, My collections, a collection,
 * Account) and of the Save heart on cards, with data seeded in the query cache and an API client
 * that fails if called (effects do not run in a server render).
 */
import { describe, expect, it } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import type { ProductCard, Store, StylePreferences, UserCollection } from "~/contract";
import { renderStorefront as render, shopper as user } from "../../helpers/storefront-render";
import { COLLECTIONS_KEY, FOLLOWING_LIST_KEY, SAVED_LIST_KEY, savedKey } from "../../../storefront/src/lib/saved";
import { initialToggle } from "../../../storefront/src/lib/optimistic-toggle";
import { STYLE_PREFERENCES_KEY } from "../../../storefront/src/pages/Account";

const product = (i: number): ProductCard => ({
  id: `gid://shopify/Product/${i}`,
  title: `Saved coat ${i}`,
  handle: `saved-coat-${i}`,
  vendor: "Atelier Nord",
  productType: "Coat",
  availableForSale: true,
  featuredImage: { url: `/uploads/images/p${i}.jpg`, altText: null },
  priceRange: { minVariantPrice: { amount: "120.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "120.00", currencyCode: "EUR" } },
  target_gender: "womenswear",
  colorHexes: [],
  storeId: null,
});


const store: Store = {
  id: "s1",
  name: "Rose Atelier",
  handle: "rose-atelier",
  description: "Soft tailoring",
  logo_url: null,
  banner_url: null,
  size_recommendation: null,
  target_gender: "womenswear",
  vendor_id: "v1",
  sort_order: 0,
  productCount: 12,
  followerCount: 3,
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
};

const collection = (over: Partial<UserCollection> = {}): UserCollection => ({
  id: "c1",
  name: "Winter knits",
  description: null,
  image_url: null,
  is_ai_generated: false,
  prompt: null,
  productCount: 2,
  previewImages: [{ url: "/uploads/images/p1.jpg", altText: null }],
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:00.000Z",
  ...over,
});


const pages = <T,>(...items: T[]) => ({ pages: items, pageParams: items.map(() => undefined) });

describe("the shopper's pages (server render)", () => {
  it("Saved: product cards with filled hearts, an unavailable one, and the account tabs", () => {
    const html = render("/saved", (qc) => {
      qc.setQueryData(
        SAVED_LIST_KEY,
        pages({
          items: [
            { product_id: product(1).id, createdAt: "2025-01-02T00:00:00.000Z", product: product(1) },
            { product_id: "gid://shopify/Product/9", createdAt: "2025-01-01T00:00:00.000Z", product: null },
          ],
          nextCursor: null,
        })
      );
      qc.setQueryData(savedKey(product(1).id), initialToggle(true));
    });
    expect(html).toContain('data-testid="saved-page"');
    expect(html).toContain("Saved coat 1");
    expect(html).toMatch(/aria-pressed="true"[^>]*aria-label="Save Saved coat 1"[^>]*data-saved="true"/);
    expect(html).toContain('data-testid="saved-unavailable"');
    expect(html).toContain("No longer available");
    expect(html).toContain('aria-label="Your account"');
    expect(html).not.toContain('data-testid="guest-note"');
  });

  it("Saved: an empty state, and the guest note for guests", () => {
    const html = render(
      "/saved",
      (qc) => qc.setQueryData(SAVED_LIST_KEY, pages({ items: [], nextCursor: null })),
      user({ auth_provider: "guest", email: null })
    );
    expect(html).toContain("Nothing saved yet");
    expect(html).toContain('data-testid="guest-note"');
  });

  it("Following: the stores with counts and a Following button", () => {
    const html = render("/following", (qc) => {
      qc.setQueryData(FOLLOWING_LIST_KEY, pages({ items: [{ store_id: "s1", createdAt: "2025-01-01T00:00:00.000Z", store }], nextCursor: null }));
      qc.setQueryData(["user", "following", "s1"], initialToggle(true));
    });
    expect(html).toContain("Rose Atelier");
    expect(html.replace(/<!-- -->/g, "")).toContain("12 products · 3 followers");
    expect(html).toMatch(/aria-pressed="true"[^>]*aria-label="Following Rose Atelier"/);
    expect(html).toContain('href="/stores/s1/rose-atelier"');
  });

  it("My collections: tiles (AI ones marked with their prompt), the create and the generate forms", () => {
    const html = render("/my-collections", (qc) =>
      qc.setQueryData(
        [...COLLECTIONS_KEY, "list"],
        pages({ data: [collection(), collection({ id: "c2", name: "Weekend", is_ai_generated: true, prompt: "relaxed weekend" })], nextCursor: null })
      )
    );
    expect(html).toContain("Winter knits");
    expect(html).toContain("Weekend");
    expect(html).toContain("“relaxed weekend”");
    expect(html).toContain('data-testid="collection-create-form"');
    expect(html).toContain('data-testid="collection-generate-form"');
    expect(html).toContain('href="/my-collections/c2"');
  });

  it("a collection: its products with Remove buttons", () => {
    const html = render("/my-collections/c1", (qc) => {
      qc.setQueryData([...COLLECTIONS_KEY, "one", "c1"], { data: collection() });
      qc.setQueryData(
        [...COLLECTIONS_KEY, "products", "c1"],
        pages({ data: { items: [{ product_id: product(1).id, addedAt: "2025-01-01T00:00:00.000Z", product: product(1) }], nextCursor: null } })
      );
    });
    expect(html).toContain("Winter knits</h1>");
    expect(html).toContain('data-testid="collection-remove-product"');
    expect(html).toContain('data-testid="collection-delete"');
  });

  it("Account: profile, interests with the gender chosen, password and delete for a signed-in shopper", () => {
    const prefs: StylePreferences = {
      interests: "womenswear,linen",
      interestList: ["womenswear", "linen"],
      gender: "womenswear",
      stylePreferences: [],
      suggestions: ["linen", "workwear"],
    };
    const html = render("/account", (qc) => qc.setQueryData(STYLE_PREFERENCES_KEY, prefs));
    expect(html).toMatch(/name="first_name"[^>]*value="Ada"/);
    expect(html).toMatch(/<input[^>]*(value="womenswear"[^>]*checked=""|checked=""[^>]*value="womenswear")/);
    expect(html).toMatch(/aria-pressed="true"[^>]*data-testid="interest-chip"[^>]*>linen</);
    expect(html).toMatch(/aria-pressed="false"[^>]*data-testid="interest-chip"[^>]*>workwear</);
    expect(html).toContain('data-testid="password-form"');
    expect(html).toContain("Delete account");
    const guest = render("/account", (qc) => qc.setQueryData(STYLE_PREFERENCES_KEY, prefs), user({ auth_provider: "guest", email: null }));
    expect(guest).not.toContain('data-testid="password-form"');
    expect(guest).toContain("Delete my guest data");
  });

  it("the header links guests to Saved and offers Sign in, not Account as well", () => {
    const html = render(
      "/saved",
      (qc) => qc.setQueryData(SAVED_LIST_KEY, pages({ items: [], nextCursor: null })),
      user({ auth_provider: "guest", email: null })
    );
    expect(html).toContain('data-testid="header-saved-link"');
    expect(html).toContain('data-testid="header-sign-in"');
    expect(html).not.toContain('data-testid="header-account-link"');
  });
});
