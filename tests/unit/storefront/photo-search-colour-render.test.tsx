/**
 * Photo search results in the photo's colour (issue 20 #6): a card whose result carries
 * `matchedVariant` shows that variant's image and links to it (`?variant=`), and the results say
 * which colour they are shown in; without a matched variant the card keeps the product's photo.
 */
import type { ComponentProps } from "react";
import { describe, expect, it } from "vitest";
import type { ProductCard as ProductCardData } from "~/contract";
import { renderWithSession } from "../../helpers/storefront-render";
import { CartProvider } from "../../../storefront/src/lib/cart";
import { PhotoResults } from "../../../storefront/src/pages/PhotoSearch";

type Step = ComponentProps<typeof PhotoResults>["step"];

const render = (step: Step): string =>
  renderWithSession(
    "/photo-search",
    <CartProvider>
      <PhotoResults step={step} onAgain={() => undefined} />
    </CartProvider>,
  );

const card = (n: number, title: string, image: string, over: Partial<ProductCardData> = {}): ProductCardData => ({
  id: `gid://shopify/Product/${n}`,
  title,
  handle: title.toLowerCase().replace(/\s+/g, "-"),
  vendor: "Atelier Nord",
  productType: "T-Shirt",
  availableForSale: true,
  featuredImage: { url: `/uploads/images/test/${image}.jpg`, altText: null },
  priceRange: { minVariantPrice: { amount: "25.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "25.00", currencyCode: "EUR" } },
  target_gender: "both",
  colorHexes: [],
  storeId: null,
  ...over,
});

const red = { id: "gid://shopify/ProductVariant/81102", title: "Red / S", colour: "Red", colorHex: "#c0392b", image: { url: "/uploads/images/test/tee-red.jpg", altText: null }, availableForSale: true };

const step = (results: ProductCardData[], colour: { hex: string; name: string } | null): Step => ({
  kind: "results",
  url: "blob:photo",
  sentUrl: "blob:photo",
  sentSize: "600×800",
  sentBytes: 80_000,
  originalBytes: 2_000_000,
  answer: { results, scores: results.map(() => 0.9), limit: 20, target_gender: null, model: "m", index: "exact", searchEntryId: null, image_url: null, colour, timings: { embedMs: 1, queryMs: 1 } },
});

describe("photo search results in the photo's colour", () => {
  it("a card with a matched variant shows its image and links to it; the results name the colour", () => {
    const html = render(step([card(811, "Classic Tee", "tee-white", { matchedVariant: red }), card(812, "Wrap Dress", "dress-purple")], { hex: "#c0392b", name: "Red" }));
    expect(html).toContain("tee-red");
    expect(html).not.toContain("tee-white");
    expect(html).toContain('href="/products/811/classic-tee?variant=81102"');
    expect(html).toContain('alt="Classic Tee in Red"');
    // The dress has no red: its own photo and a plain link.
    expect(html).toContain("dress-purple");
    expect(html).toContain('href="/products/812/wrap-dress"');
    expect(html).toMatch(/data-testid="photo-colour"[^>]*>Shown in <!-- -->red<!-- -->, the colour of your photo/);
  });

  it("without a matched variant: the products' photos and no colour line", () => {
    const html = render(step([card(811, "Classic Tee", "tee-white")], { hex: "#27ae60", name: "Green" }));
    expect(html).toContain("tee-white");
    expect(html).toContain('href="/products/811/classic-tee"');
    expect(html).not.toContain("photo-colour");
  });
});
