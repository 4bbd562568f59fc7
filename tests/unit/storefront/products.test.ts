import { describe, expect, it } from "vitest";
import { formatMoney, formatPriceRange, imageAlt, nextCursor, productGridKey, productGridQuery, swatchColors } from "../../../storefront/src/lib/products";
import * as C from "../../../storefront/src/lib/constants";

describe("constants (SPEC §9)", () => {
  it("holds the spec's numbers", () => {
    expect(C.SEARCH_DEBOUNCE_MS).toBe(500);
    expect(C.SEARCH_PAGE_SIZE_DESKTOP).toBe(20);
    expect(C.SEARCH_PAGE_SIZE_MOBILE).toBe(14);
    expect(C.MOBILE_BREAKPOINT).toBe(768);
    expect(C.HOME_FEED_FIRST_PAGE).toBe(6);
    expect(C.HOME_FEED_LATER_PAGE).toBe(3);
    expect(C.HOME_STALE_MS).toBe(300_000);
    expect(C.HOME_CACHE_MS).toBe(1_800_000);
    expect(C.RECENTLY_VIEWED_MAX).toBe(3);
    expect(C.HOME_GRID_PAGE_SIZE).toBe(24);
    expect(C.SESSION_RETRY_DELAY_MS).toBe(1000);
  });
});

describe("product grid query", () => {
  it("filters by gender, omitting target_gender for both", () => {
    expect(productGridQuery("menswear", "")).toEqual({ limit: 24, target_gender: "menswear" });
    expect(productGridQuery("womenswear", "")).toEqual({ limit: 24, target_gender: "womenswear" });
    expect(productGridQuery("both", "")).toEqual({ limit: 24 });
  });

  it("passes the search term and the cursor", () => {
    expect(productGridQuery("both", "  linen ", "c2")).toEqual({ limit: 24, query: "linen", cursor: "c2" });
    expect(productGridQuery("menswear", "", null)).not.toHaveProperty("cursor");
  });

  it("keys the cache by gender and search", () => {
    expect(productGridKey("menswear", " coat ")).toEqual(["products", "grid", { gender: "menswear", search: "coat" }]);
  });

  it("pages by endCursor while hasNextPage", () => {
    expect(nextCursor({ pageInfo: { hasNextPage: true, endCursor: "abc" } })).toBe("abc");
    expect(nextCursor({ pageInfo: { hasNextPage: false, endCursor: "abc" } })).toBeUndefined();
    expect(nextCursor({ pageInfo: { hasNextPage: true, endCursor: null } })).toBeUndefined();
  });
});

describe("card display", () => {
  const money = (amount: string, currencyCode = "EUR") => ({ amount, currencyCode });

  it("formats prices and ranges", () => {
    expect(formatMoney("49.9", "EUR", "en-US")).toBe("€49.90");
    expect(formatMoney("12", "USD", "en-US")).toBe("$12.00");
    expect(formatMoney("abc", "EUR", "en-US")).toBe("abc EUR");
    expect(formatMoney("5", "NOPE", "en-US")).toMatch(/5/);
    expect(formatPriceRange({ minVariantPrice: money("20"), maxVariantPrice: money("20.00") }, "en-US")).toBe("€20.00");
    expect(formatPriceRange({ minVariantPrice: money("20"), maxVariantPrice: money("35") }, "en-US")).toBe("From €20.00");
  });

  it("keeps valid, distinct swatches up to the max", () => {
    expect(swatchColors(["#FF0000", "ff0000", "#00f", "red", "#12345", "url(x)", "#abcdef", "#000000", "#ffffff", "#111111"], 5)).toEqual({
      colors: ["#ff0000", "#00f", "#abcdef", "#000000", "#ffffff"],
      extra: 1,
    });
    expect(swatchColors([])).toEqual({ colors: [], extra: 0 });
  });

  it("uses alt text, else the title", () => {
    expect(imageAlt({ title: "Coat", featuredImage: { url: "u", altText: "Black wool coat" } })).toBe("Black wool coat");
    expect(imageAlt({ title: "Coat", featuredImage: { url: "u", altText: null } })).toBe("Coat");
    expect(imageAlt({ title: "Coat", featuredImage: { url: "u", altText: "  " } })).toBe("Coat");
    expect(imageAlt({ title: "Coat", featuredImage: null })).toBe("Coat");
  });
});
