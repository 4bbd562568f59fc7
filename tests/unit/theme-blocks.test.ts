import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ProductCard } from "../../app/contract";
import {
  DEFAULT_PROXY_BASE,
  DEFAULT_TEXTS,
  MAX_SWATCHES,
  feedQuery,
  formatPrice,
  normaliseHex,
  parseLimit,
  readFeedSettings,
  resolveProxyBase,
  resolveRootUrl,
  safeImageUrl,
  toCardModel,
} from "../../extensions/theme-blocks/src/feed-model";
import { renderPreviewBlock } from "../../app/services/theme-preview/blocks.server";

const ORIGIN = "https://shop.example.com";

function product(over: Partial<ProductCard> = {}): ProductCard {
  return {
    id: "gid://shopify/Product/1",
    title: "Linen shirt",
    handle: "linen-shirt",
    vendor: "Atelier",
    productType: "Shirts",
    availableForSale: true,
    featuredImage: { url: "https://cdn.shopify.com/s/files/shirt.jpg", altText: "A linen shirt" },
    priceRange: { minVariantPrice: { amount: "49.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "49.00", currencyCode: "EUR" } },
    target_gender: "both",
    colorHexes: ["#FFFFFF", "#000"],
    storeId: null,
    ...over,
  };
}

describe("resolveProxyBase", () => {
  it("strips the shop origin when it is the page's", () => {
    expect(resolveProxyBase("https://shop.example.com/apps/fashion", ORIGIN)).toBe("/apps/fashion");
    expect(resolveProxyBase("https://shop.example.com/apps/fashion/", ORIGIN)).toBe("/apps/fashion");
  });
  it("keeps only the path for another storefront domain (the proxy answers on every domain)", () => {
    expect(resolveProxyBase("https://www.brand.com/apps/fashion", "https://brand.myshopify.com")).toBe("/apps/fashion");
  });
  it("keeps relative paths", () => {
    expect(resolveProxyBase("/apps/fashion", ORIGIN)).toBe("/apps/fashion");
    expect(resolveProxyBase("/fr/apps/fashion?x=1", ORIGIN)).toBe("/fr/apps/fashion");
  });
  it("falls back to the default for missing or unsafe values", () => {
    for (const v of [undefined, null, "", "  ", "//evil.com/apps", "javascript:alert(1)", "data:text/html,x", "apps/fashion", "/\\evil.com", "/"]) {
      expect(resolveProxyBase(v, ORIGIN)).toBe(DEFAULT_PROXY_BASE);
    }
  });
});

describe("settings", () => {
  it("parses the limit within 1..24, default 8", () => {
    expect(parseLimit("12")).toBe(12);
    expect(parseLimit(undefined)).toBe(8);
    expect(parseLimit("abc")).toBe(8);
    expect(parseLimit("0")).toBe(1);
    expect(parseLimit("500")).toBe(24);
  });
  it("reads the block's dataset", () => {
    const s = readFeedSettings({ proxyBase: `${ORIGIN}/apps/fashion`, rootUrl: "/fr/", gender: "womenswear", limit: "16", heading: " New in ", textRetry: "Réessayer" }, ORIGIN);
    expect(s).toMatchObject({ baseUrl: "/apps/fashion", rootUrl: "/fr", gender: "womenswear", limit: 16, heading: "New in" });
    expect(s.texts).toEqual({ ...DEFAULT_TEXTS, retry: "Réessayer" });
  });
  it('sends no gender filter for "both" or unknown values', () => {
    expect(readFeedSettings({ gender: "both" }, ORIGIN).gender).toBeUndefined();
    expect(readFeedSettings({ gender: "kids" }, ORIGIN).gender).toBeUndefined();
    expect(feedQuery({ gender: undefined, limit: 8 })).toEqual({ limit: 8 });
    expect(feedQuery({ gender: "menswear", limit: 4 })).toEqual({ limit: 4, target_gender: "menswear" });
  });
  it("accepts only path roots", () => {
    expect(resolveRootUrl("/")).toBe("");
    expect(resolveRootUrl("/en-ca")).toBe("/en-ca");
    expect(resolveRootUrl("//evil.com")).toBe("");
    expect(resolveRootUrl("https://evil.com")).toBe("");
  });
});

describe("formatPrice", () => {
  it("formats with the currency code", () => {
    expect(formatPrice({ amount: "1234.5", currencyCode: "USD" }, "en-US")).toBe("$1,234.50");
    expect(formatPrice({ amount: "49.00", currencyCode: "EUR" }, "de-DE")).toBe("49,00\u00a0€");
    expect(formatPrice({ amount: "1200", currencyCode: "JPY" }, "en-US")).toBe("¥1,200");
  });
  it("survives bad input", () => {
    expect(formatPrice({ amount: "12", currencyCode: "NOT-A-CODE" }, "en-US")).toBe("12.00 NOT-A-CODE");
    expect(formatPrice({ amount: "abc", currencyCode: "USD" }, "en-US")).toBe("");
  });
});

describe("card model", () => {
  it("maps a ProductCard", () => {
    const card = toCardModel(product(), { pageOrigin: ORIGIN, locale: "en-US" });
    expect(card).toEqual({
      id: "gid://shopify/Product/1",
      title: "Linen shirt",
      vendor: "Atelier",
      href: "/products/linen-shirt",
      // Shopify's CDN in sizes (width=); it picks WebP/AVIF itself, so no <source>s.
      image: {
        src: "https://cdn.shopify.com/s/files/shirt.jpg?width=240",
        alt: "A linen shirt",
        srcset: [160, 240, 320, 400, 480, 640].map((w) => `https://cdn.shopify.com/s/files/shirt.jpg?width=${w} ${w}w`).join(", "),
        sizes: "(max-width: 749.98px) 50vw, (max-width: 989.98px) 33vw, 25vw",
      },
      price: "€49.00",
      priceFrom: false,
      available: true,
      swatches: ["#ffffff", "#000"],
      moreSwatches: 0,
    });
  });
  it("links under the locale root and encodes the handle", () => {
    expect(toCardModel(product({ handle: "a b/c" }), { rootUrl: "/fr", pageOrigin: ORIGIN }).href).toBe("/fr/products/a%20b%2Fc");
  });
  it("marks price ranges and sold-out products", () => {
    const card = toCardModel(
      product({ availableForSale: false, priceRange: { minVariantPrice: { amount: "10.00", currencyCode: "USD" }, maxVariantPrice: { amount: "20.00", currencyCode: "USD" } } }),
      { pageOrigin: ORIGIN, locale: "en-US" },
    );
    expect(card).toMatchObject({ price: "$10.00", priceFrom: true, available: false });
  });
  it("uses the title as alt text and drops unsafe or missing images", () => {
    expect(toCardModel(product({ featuredImage: { url: "/uploads/x.jpg", altText: null } }), { pageOrigin: ORIGIN }).image).toEqual({ src: `${ORIGIN}/uploads/x.jpg`, alt: "Linen shirt" });
    expect(toCardModel(product({ featuredImage: { url: "javascript:alert(1)", altText: null } }), { pageOrigin: ORIGIN }).image).toBeNull();
    expect(toCardModel(product({ featuredImage: null }), { pageOrigin: ORIGIN }).image).toBeNull();
    expect(safeImageUrl("data:image/png;base64,xx", ORIGIN)).toBeNull();
  });
  it("keeps only valid, distinct swatch colours, capped", () => {
    expect(normaliseHex("ABC")).toBe("#abc");
    expect(normaliseHex("red; background:url(x)")).toBeNull();
    const hexes = ["#111111", "#111111", "url(x)", "#222222", "#333333", "#444444", "#555555", "#666666", "#777777"];
    const card = toCardModel(product({ colorHexes: hexes }), { pageOrigin: ORIGIN });
    expect(card.swatches).toEqual(["#111111", "#222222", "#333333", "#444444", "#555555"]);
    expect(card.swatches).toHaveLength(MAX_SWATCHES);
    expect(card.moreSwatches).toBe(2);
  });
});

describe("Liquid block and local preview", () => {
  const liquid = fs.readFileSync(path.resolve(__dirname, "../../extensions/theme-blocks/blocks/product-feed.liquid"), "utf8");
  const attrs = (html: string) => {
    const div = /<div\s+class="fd-product-feed"([\s\S]*?)>/.exec(html);
    expect(div).not.toBeNull();
    return [...div![1].matchAll(/\b(data-[a-z-]+)=/g)].map((m) => m[1]).sort();
  };

  it("the preview renders the Liquid block itself, with its data attributes and the preview's asset URLs", async () => {
    const preview = await renderPreviewBlock({ name: "product-feed", settings: { heading: "New in" } }, { template: "index" });
    expect(attrs(preview)).toEqual(attrs(liquid));
    expect(preview).toContain('data-proxy-base="/apps/fashion"');
    expect(preview).toContain('data-gender="both"');
    expect(preview).toContain('data-limit="8"');
    expect(preview).toContain('data-heading="New in"');
    expect(preview).toMatch(/<script src="\/theme-preview\/assets\/fashion-blocks\.js" defer><\/script>/);
  });

  it("the block schema matches the settings the script reads", () => {
    const schema = JSON.parse(/\{%\s*schema\s*%\}([\s\S]*?)\{%\s*endschema\s*%\}/.exec(liquid)![1]);
    expect(schema.name).toBe("Product feed");
    expect(schema.target).toBe("section");
    const byId = Object.fromEntries(schema.settings.map((s: { id: string }) => [s.id, s]));
    expect(byId.heading.type).toBe("text");
    expect(byId.gender.options.map((o: { value: string }) => o.value)).toEqual(["both", "menswear", "womenswear"]);
    expect(byId.product_count).toMatchObject({ type: "range", min: 4, max: 24, step: 4, default: 8 });
    expect(liquid).toContain('data-proxy-base="{{ shop.url }}/apps/fashion"');
  });

  it("every translation key the block uses exists in en.default.json", () => {
    const locale = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../extensions/theme-blocks/locales/en.default.json"), "utf8"));
    const keys = [...liquid.matchAll(/'([a-z_.]+)'\s*\|\s*t\b/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.split(".").reduce((o: any, k) => o?.[k], locale), key).toEqual(expect.any(String));
  });
});
