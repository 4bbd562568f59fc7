/**
 * Search cards in the searched colour (issue 20 #6): a card whose result carries `matchedVariant`
 * shows that variant's image (not the product's default photo) and links to the product with the
 * variant selected (`?variant=`); the product page and modal start on that variant.
 */
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { ProductCard as ProductCardData, ProductDetail } from "~/contract";
import { failingApi, shopper } from "../../helpers/storefront-render";
import { ApiContext } from "../../../storefront/src/lib/api";
import { SESSION_QUERY_KEY, SessionProvider } from "../../../storefront/src/lib/session";
import { CartProvider } from "../../../storefront/src/lib/cart";
import { ProductCard } from "../../../storefront/src/components/ProductCard";
import { ProductDetails } from "../../../storefront/src/components/ProductDetails";
import { productPath, readVariantParam, withModalProduct } from "../../../storefront/src/lib/product-path";

function renderElement(el: ReactElement): string {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: Infinity, enabled: false } } });
  qc.setQueryData(SESSION_QUERY_KEY, shopper());
  return renderToString(
    <QueryClientProvider client={qc}>
      <ApiContext.Provider value={failingApi}>
        <MemoryRouter>
          <SessionProvider>
            <CartProvider>{el}</CartProvider>
          </SessionProvider>
        </MemoryRouter>
      </ApiContext.Provider>
    </QueryClientProvider>,
  );
}

const card = (over: Partial<ProductCardData> = {}): ProductCardData => ({
  id: "gid://shopify/Product/1",
  title: "Slim Jeans",
  handle: "slim-jeans",
  vendor: "Tidewater Denim",
  productType: "Jeans",
  availableForSale: true,
  featuredImage: { url: "/uploads/images/test/jeans-light-wash.jpg", altText: "Light wash jeans" },
  priceRange: { minVariantPrice: { amount: "60.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "60.00", currencyCode: "EUR" } },
  target_gender: "both",
  colorHexes: ["#8fabcb", "#1c1c1e"],
  storeId: null,
  ...over,
});

const black = {
  id: "gid://shopify/ProductVariant/103",
  title: "Black / M",
  colour: "Black",
  colorHex: "#1c1c1e",
  image: { url: "/uploads/images/test/jeans-black.jpg", altText: null },
  availableForSale: true,
};

describe("a search card in the searched colour", () => {
  it("shows the matched variant's image and links to the product with that variant selected", () => {
    const html = renderElement(<ProductCard product={card({ matchedVariant: black })} />);
    expect(html).toContain("jeans-black");
    expect(html).not.toContain("jeans-light-wash");
    expect(html).toContain('alt="Slim Jeans in Black"');
    expect(html).toContain('href="/products/1/slim-jeans?variant=103"');
    expect(html).toContain('data-variant-id="gid://shopify/ProductVariant/103"');
  });

  it("without a matched variant (or one without an image) keeps the product's photo and plain link", () => {
    const plain = renderElement(<ProductCard product={card()} />);
    expect(plain).toContain("jeans-light-wash");
    expect(plain).toContain('href="/products/1/slim-jeans"');
    const noImage = renderElement(<ProductCard product={card({ matchedVariant: { ...black, image: null } })} />);
    expect(noImage).toContain("jeans-light-wash");
    expect(noImage).toContain('href="/products/1/slim-jeans?variant=103"');
  });

  it("the addresses: ?variant= on the page and beside ?product= in the modal, read back as a GID", () => {
    expect(productPath({ id: "gid://shopify/Product/1", handle: "slim-jeans" }, "gid://shopify/ProductVariant/103")).toBe("/products/1/slim-jeans?variant=103");
    expect(withModalProduct("?search=black+jeans", "gid://shopify/Product/1", "gid://shopify/ProductVariant/103")).toBe("?search=black+jeans&product=1&variant=103");
    expect(withModalProduct("?search=black+jeans&product=1&variant=103", null)).toBe("?search=black+jeans");
    expect(readVariantParam("?variant=103")).toBe("gid://shopify/ProductVariant/103");
    expect(readVariantParam("?variant=")).toBeNull();
  });

  it("the product details start on the preferred variant (its colour selected, its image first)", () => {
    const v = (id: string, colour: string, url: string) => ({
      id,
      title: `${colour} / M`,
      sku: null,
      availableForSale: true,
      quantityAvailable: 3,
      image: { url, altText: null },
      price: { amount: "60.00", currencyCode: "EUR" },
      compareAtPrice: null,
      selectedOptions: [
        { name: "Color", value: colour },
        { name: "Size", value: "M" },
      ],
      colorHex: null,
      product: { id: "gid://shopify/Product/1", handle: "slim-jeans", title: "Slim Jeans" },
    });
    const detail: ProductDetail = {
      ...card(),
      description: "",
      descriptionHtml: "",
      tags: [],
      status: "active",
      publishedAt: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      totalInventory: 6,
      options: [
        { id: "o1", name: "Color", values: ["Light Wash", "Black"] },
        { id: "o2", name: "Size", values: ["M"] },
      ],
      images: [
        { id: "i1", url: "/uploads/images/test/jeans-light-wash.jpg", altText: "Light wash", width: 600, height: 800 },
        { id: "i2", url: "/uploads/images/test/jeans-black.jpg", altText: "Black", width: 600, height: 800 },
      ],
      variants: [v("gid://shopify/ProductVariant/101", "Light Wash", "/uploads/images/test/jeans-light-wash.jpg"), v("gid://shopify/ProductVariant/103", "Black", "/uploads/images/test/jeans-black.jpg")],
    };
    const main = (html: string) => /<img[^>]*data-testid="product-main-image"[^>]*>/.exec(html)?.[0] ?? "";
    expect(main(renderElement(<ProductDetails product={detail} />))).toContain("jeans-light-wash");
    expect(main(renderElement(<ProductDetails product={detail} preferredVariantId="gid://shopify/ProductVariant/103" />))).toContain("jeans-black");
  });
});
