/**
 * Responsive images in server renders of the storefront (issue 20): a product card is a <picture>
 * with AVIF and WebP sources and a JPEG fallback, each with srcset and sizes through the image
 * route, width/height for the aspect ratio, lazy below the fold and fetchpriority="high" on the
 * first card; the product page's main image is the page's priority image; images not ours stay as
 * they are; Shopify CDN images get `width=` candidates.
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

function card(over: Partial<ProductCardData> = {}): ProductCardData {
  return {
    id: "gid://shopify/Product/1",
    title: "Wool coat",
    handle: "wool-coat",
    vendor: "Atelier Nord",
    productType: "Coat",
    availableForSale: true,
    featuredImage: { url: "/uploads/images/demo/coat-black-plain.jpg", altText: "Black wool coat" },
    priceRange: { minVariantPrice: { amount: "120.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "120.00", currencyCode: "EUR" } },
    target_gender: "menswear",
    colorHexes: [],
    storeId: null,
    ...over,
  };
}

/** The attributes of the first tag named `tag` in `html`. */
function tags(html: string, tag: string): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "g"))].map((m) => Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1].toLowerCase(), a[2].replace(/&amp;/g, "&")])));
}

const candidates = (srcset: string) => srcset.split(", ").map((c) => c.split(" "));

describe("product card images", () => {
  it("is a <picture>: AVIF then WebP sources and the original format as the <img>, each with srcset and sizes through the image route", () => {
    const html = renderElement(<ProductCard product={card()} />);
    expect(html).toMatch(/<picture class="rimg"><source[^>]*type="image\/avif"[^>]*><source[^>]*type="image\/webp"[^>]*><img/);
    const [avif, webp] = tags(html, "source");
    const [img] = tags(html, "img");
    for (const s of [avif, webp]) {
      expect(s.sizes).toMatch(/^\(max-width: 767\.98px\) calc\(50vw - 22px\)/);
      expect(candidates(s.srcset).map(([, w]) => w)).toEqual(["160w", "240w", "320w", "400w", "480w", "640w"]);
    }
    expect(candidates(avif.srcset)[0][0]).toBe("/images/demo/coat-black-plain.jpg?w=160&fm=avif");
    expect(candidates(webp.srcset)[2][0]).toBe("/images/demo/coat-black-plain.jpg?w=320&fm=webp");
    expect(img.src).toBe("/images/demo/coat-black-plain.jpg?w=240");
    expect(candidates(img.srcset).map(([u]) => u)).toContain("/images/demo/coat-black-plain.jpg?w=640");
    expect(img.sizes).toBe(avif.sizes);
    expect(img).toMatchObject({ alt: "Black wool coat", width: "600", height: "800", loading: "lazy", decoding: "async", class: "card__img" });
    expect(img.fetchpriority).toBeUndefined();
    // Nothing in the card still points at the full-size original.
    expect(html).not.toContain("/uploads/images/demo/coat-black-plain.jpg");
  });

  it("the page's first card is fetched eagerly with fetchpriority=high; the next ones above the fold eagerly without it", () => {
    const [first] = tags(renderElement(<ProductCard product={card()} priority eager />), "img");
    expect(first).toMatchObject({ loading: "eager", fetchpriority: "high" });
    const [second] = tags(renderElement(<ProductCard product={card()} eager />), "img");
    expect(second.loading).toBe("eager");
    expect(second.fetchpriority).toBeUndefined();
  });

  it("an absolute URL on another host is shown as it is (no srcset, no picture)", () => {
    const html = renderElement(<ProductCard product={card({ featuredImage: { url: "https://images.example.com/coat.jpg", altText: null } })} />);
    expect(html).not.toContain("<picture");
    const [img] = tags(html, "img");
    expect(img.src).toBe("https://images.example.com/coat.jpg");
    expect(img.srcset).toBeUndefined();
    expect(img).toMatchObject({ width: "600", height: "800", loading: "lazy" });
  });

  it("a Shopify CDN image gets width= candidates (the CDN picks WebP/AVIF itself)", () => {
    const html = renderElement(<ProductCard product={card({ featuredImage: { url: "https://cdn.shopify.com/s/files/1/0001/coat.jpg?v=17", altText: null } })} />);
    expect(html).not.toContain("<picture");
    const [img] = tags(html, "img");
    expect(candidates(img.srcset)[0]).toEqual(["https://cdn.shopify.com/s/files/1/0001/coat.jpg?v=17&width=160", "160w"]);
    expect(img.sizes).toContain("50vw");
  });
});

describe("product page gallery", () => {
  const detail = (): ProductDetail => ({
    ...card(),
    description: "",
    descriptionHtml: "",
    tags: [],
    status: "active",
    publishedAt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    totalInventory: 3,
    options: [],
    images: [
      { id: "i1", url: "/uploads/images/demo/coat-black-plain.jpg", altText: "Front", width: 600, height: 800 },
      { id: "i2", url: "/uploads/images/demo/coat-black-back.jpg", altText: "Back", width: 600, height: 800 },
    ],
    variants: [],
  });

  it("the main image is the priority image, sized for half the page, without candidates beyond what the original can give; thumbnails are small and lazy", () => {
    const html = renderElement(<ProductDetails product={detail()} />);
    const imgs = tags(html, "img");
    const main = imgs.find((i) => i["data-testid"] === "product-main-image");
    expect(main).toMatchObject({ loading: "eager", fetchpriority: "high", width: "600", height: "800", alt: "Front" });
    expect(main?.sizes).toContain("min(50vw, 720px)");
    // 600 px wide original: 320, 480 and the 640 that covers it; no 800–1280.
    expect(candidates(main?.srcset ?? "").map(([, w]) => w)).toEqual(["320w", "480w", "640w"]);
    const thumbs = imgs.filter((i) => i.width === "64");
    expect(thumbs).toHaveLength(2);
    for (const t of thumbs) {
      expect(t.loading).toBe("lazy");
      expect(t.src).toMatch(/^\/images\/demo\/coat-black-(plain|back)\.jpg\?w=160$/);
      expect(t.sizes).toBe("64px");
    }
    const webp = tags(html, "source").filter((s) => s.type === "image/webp");
    expect(webp.length).toBe(3);
  });
});
