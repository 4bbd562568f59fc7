/**
 * Server renders of the storefront's pages with a page meta sink: the title, description and
 * canonical path each page sets in the browser (usePageMeta; effects do not run in a server
 * render, the sink hears what they would write). The texts are the server's for the same page
 * (tests/integration/storefront-seo.test.ts reads them in the served index.html).
 */
import { describe, expect, it } from "vitest";
import type { QueryClient } from "@tanstack/react-query";
import type { ProductDetail, Store } from "~/contract";
import type { PageText } from "~/lib/page-text";
import { renderStorefront } from "../../helpers/storefront-render";
import { PageMetaSink } from "../../../storefront/src/lib/use-page-meta";
import { apiError, seedError } from "./account-pages.fixtures";
import { store } from "../storefront-fixtures";

/** The meta the page at `path` sets last (the page's own; the layout sets none). */
function metaOf(path: string, seed: (qc: QueryClient) => void = () => undefined): PageText | undefined {
  const heard: PageText[] = [];
  renderStorefront(path, seed, undefined, (app) => <PageMetaSink.Provider value={(t) => heard.push(t)}>{app}</PageMetaSink.Provider>);
  return heard.at(-1);
}

const shirt = (over: Partial<ProductDetail> = {}): ProductDetail => ({
  id: "gid://shopify/Product/9001",
  title: "Linen Shirt",
  handle: "linen-shirt",
  vendor: "Northwind",
  productType: "Shirt",
  availableForSale: true,
  featuredImage: null,
  priceRange: { minVariantPrice: { amount: "40.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "55.00", currencyCode: "EUR" } },
  target_gender: "menswear",
  colorHexes: [],
  storeId: "s1",
  description: "A <light> linen shirt.",
  descriptionHtml: "",
  tags: [],
  status: "active",
  publishedAt: "2025-01-01T00:00:00.000Z",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  totalInventory: 3,
  options: [],
  images: [],
  variants: [],
  ...over,
});

const atelier: Store = { ...store("s1"), name: "Northwind Atelier", handle: "northwind-atelier", description: "Linen and wool." };

describe("page meta each storefront page sets in the browser", () => {
  it("a product: `title by vendor`, its description, the canonical address with its handle", () => {
    expect(metaOf("/products/9001/old-handle", (qc) => qc.setQueryData(["product", "gid://shopify/Product/9001"], shirt()))).toEqual({
      title: "Linen Shirt by Northwind · Fashion Discovery",
      description: "A <light> linen shirt.",
      canonicalPath: "/products/9001/linen-shirt",
    });
  });

  it("a product without a vendor or description: the store's name and a line of its facts; an unknown product is noindex", () => {
    const meta = metaOf("/products/9001/linen-shirt", (qc) => {
      qc.setQueryData(["product", "gid://shopify/Product/9001"], shirt({ vendor: "", description: "" }));
      qc.setQueryData(["store", "s1"], atelier);
    });
    expect(meta?.title).toBe("Linen Shirt by Northwind Atelier · Fashion Discovery");
    expect(meta?.description).toBe("Linen Shirt by Northwind Atelier, shirt, from 40.00 EUR.");
    const missing = metaOf("/products/404", (qc) => seedError(qc, ["product", "gid://shopify/Product/404"], apiError("Product not found", 404)));
    expect(missing).toEqual({ title: "Product not found · Fashion Discovery", description: expect.any(String), canonicalPath: "/products/404", noindex: true });
  });

  it("a store: its name, its description, its canonical address; an unknown store is noindex", () => {
    expect(metaOf("/stores/s1", (qc) => qc.setQueryData(["store", "s1"], atelier))).toEqual({
      title: "Northwind Atelier · Fashion Discovery",
      description: "Linen and wool.",
      canonicalPath: "/stores/s1/northwind-atelier",
    });
    expect(metaOf("/stores/nope", (qc) => seedError(qc, ["store", "nope"], apiError("Store not found", 404)))).toMatchObject({ title: "Store not found · Fashion Discovery", noindex: true });
  });

  it("the stores pages by gender, and drops", () => {
    expect(metaOf("/stores")).toEqual({ title: "Stores · Fashion Discovery", description: "Independent fashion stores to follow: featured stores and what each one sells.", canonicalPath: "/stores" });
    expect(metaOf("/womens/stores")).toEqual({
      title: "Womenswear stores · Fashion Discovery",
      description: "Independent stores selling womenswear: featured stores and what each one sells.",
      canonicalPath: "/womens/stores",
    });
    expect(metaOf("/drops")).toMatchObject({ title: "Upcoming drops · Fashion Discovery", canonicalPath: "/drops" });
  });

  it("a search: the term in title and description, canonical to the gender's home, not indexed", () => {
    expect(metaOf("/mens?search=black%20jeans")).toEqual({
      title: "Search: black jeans · Fashion Discovery",
      description: "Products matching “black jeans” from independent stores.",
      canonicalPath: "/mens",
      noindex: true,
    });
  });

  it("pages index.html does not describe (the cart, an unknown address): their title, the default description, no canonical; the assistant its own", () => {
    expect(metaOf("/cart")).toEqual({ title: "Cart · Fashion Discovery", description: "Discover fashion from independent stores and try it on your AI clone.", canonicalPath: null });
    expect(metaOf("/no-such-page")).toMatchObject({ title: "Page not found · Fashion Discovery", canonicalPath: null });
    expect(metaOf("/assistant")).toEqual({ title: "Assistant · Fashion Discovery", description: "Ask the style assistant for products, outfits and ideas.", canonicalPath: "/assistant" });
  });
});
