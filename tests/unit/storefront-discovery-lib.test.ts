/** Pure modules of the discovery screens: product addresses, recently viewed, related feed, variants, crop, photo checks. */
import { describe, expect, it } from "vitest";
import type { ProductDetail } from "~/contract";
import { productIdFromParam, productPath, readModalProduct, withModalProduct } from "../../storefront/src/lib/product-path";
import { storePath } from "../../storefront/src/lib/store-path";
import { RECENTLY_VIEWED_KEY, addRecentlyViewed, readRecentlyViewed, recordRecentlyViewed } from "../../storefront/src/lib/recently-viewed";
import { mergeRelated, nextRelatedCursor, relatedBatchSize } from "../../storefront/src/lib/related-feed";
import { findVariant, galleryImages, initialSelection, selectValue, swatchFor, valueState, visibleOptions } from "../../storefront/src/lib/variants";
import { MIN_CROP, clampRect, fitWithin, fullRect, isFullRect, moveRect, rectForKey, resizeRect } from "../../storefront/src/lib/crop";
import { photoType, validatePhotoFile } from "../../storefront/src/lib/photo";
import { card } from "./storefront-fixtures";

function memoryStorage(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    map: m,
  };
}

describe("product addresses", () => {
  it("uses the numeric id and the handle, and reads either back to the GID", () => {
    expect(productPath({ id: "gid://shopify/Product/1038", handle: "denim-bermuda-shorts" })).toBe("/products/1038/denim-bermuda-shorts");
    expect(productPath({ id: "1038", handle: "" })).toBe("/products/1038");
    expect(productIdFromParam("1038")).toBe("gid://shopify/Product/1038");
    expect(productIdFromParam(" ")).toBeNull();
    expect(productIdFromParam("undefined")).toBeNull();
    expect(storePath({ id: "s-1", handle: "north" })).toBe("/stores/s-1/north");
  });

  it("puts the modal's product in ?product= and keeps other parameters", () => {
    expect(withModalProduct("?search=coat", "gid://shopify/Product/7")).toBe("?search=coat&product=7");
    expect(withModalProduct("?search=coat&product=7", null)).toBe("?search=coat");
    expect(readModalProduct("?product=7")).toBe("gid://shopify/Product/7");
    expect(readModalProduct("?search=x")).toBeNull();
  });
});

describe("recently viewed (SPEC §9: last 3, local storage)", () => {
  it("keeps the last three, newest first, each once", () => {
    let list = addRecentlyViewed([], card(1));
    list = addRecentlyViewed(list, card(2));
    list = addRecentlyViewed(list, card(3));
    list = addRecentlyViewed(list, card(2));
    list = addRecentlyViewed(list, card(4));
    expect(list.map((p) => p.id)).toEqual([4, 2, 3].map((i) => `gid://shopify/Product/${i}`));
  });

  it("stores only card fields and survives bad data", () => {
    const storage = memoryStorage();
    const detail = { ...card(9), description: "long text", variants: [] } as unknown as ProductDetail;
    recordRecentlyViewed(storage, detail);
    const stored = JSON.parse(storage.map.get(RECENTLY_VIEWED_KEY) ?? "[]");
    expect(stored).toHaveLength(1);
    expect(stored[0].description).toBeUndefined();
    expect(readRecentlyViewed(storage)[0].id).toBe("gid://shopify/Product/9");
    expect(readRecentlyViewed(memoryStorage({ [RECENTLY_VIEWED_KEY]: "not json" }))).toEqual([]);
    expect(readRecentlyViewed(memoryStorage({ [RECENTLY_VIEWED_KEY]: JSON.stringify([{ id: 1 }, card(5)]) })).map((p) => p.id)).toEqual(["gid://shopify/Product/5"]);
    expect(readRecentlyViewed(null)).toEqual([]);
    const failing = { getItem: () => null, setItem: () => { throw new Error("quota"); }, removeItem: () => undefined };
    expect(recordRecentlyViewed(failing, card(1))).toHaveLength(1);
  });
});

describe("related feed", () => {
  it("12 a batch in the mobile-like mode, else 20 (SPEC §9)", () => {
    expect(relatedBatchSize(true)).toBe(12);
    expect(relatedBatchSize(false)).toBe(20);
  });

  it("reads customers-also-viewed to the end, then similar products", () => {
    expect(nextRelatedCursor({ cursor: { source: "also-viewed", page: 1 }, products: [], hasNextPage: true })).toEqual({ source: "also-viewed", page: 2 });
    expect(nextRelatedCursor({ cursor: { source: "also-viewed", page: 2 }, products: [], hasNextPage: false })).toEqual({ source: "similar", page: 1 });
    expect(nextRelatedCursor({ cursor: { source: "similar", page: 3 }, products: [], hasNextPage: true })).toEqual({ source: "similar", page: 4 });
    expect(nextRelatedCursor({ cursor: { source: "similar", page: 3 }, products: [], hasNextPage: false })).toBeUndefined();
  });

  it("merges pages without repeats and without the product itself", () => {
    const pages = [
      { cursor: { source: "also-viewed" as const, page: 1 }, products: [card(1), card(2), card(0)], hasNextPage: false },
      { cursor: { source: "similar" as const, page: 1 }, products: [card(2), card(3)], hasNextPage: false },
    ];
    expect(mergeRelated(pages, "gid://shopify/Product/0").map((p) => p.id)).toEqual([1, 2, 3].map((i) => `gid://shopify/Product/${i}`));
  });
});

describe("variants", () => {
  const variant = (color: string, size: string, available = true, hex: string | null = null) => ({
    id: `v-${color}-${size}`,
    title: `${color} / ${size}`,
    sku: null,
    availableForSale: available,
    quantityAvailable: available ? 5 : 0,
    image: { url: `/img/${color}.jpg`, altText: null },
    price: { amount: "10.00", currencyCode: "EUR" },
    compareAtPrice: null,
    selectedOptions: [
      { name: "Color", value: color },
      { name: "Size", value: size },
    ],
    colorHex: hex,
    product: { id: "p", handle: "p", title: "P" },
  });
  const variants = [variant("Black", "S", false, "#000000"), variant("Black", "M", true, "#000000"), variant("Sand", "M", true, "#d6c29f"), variant("Sand", "L", false, "#d6c29f")];
  const product = {
    options: [
      { id: "o1", name: "Color", values: ["Black", "Sand"] },
      { id: "o2", name: "Size", values: ["S", "M", "L"] },
      { id: "o3", name: "Title", values: ["Default Title"] },
    ],
    variants,
    images: [
      { id: "i1", url: "/img/Black.jpg", altText: null, width: 600, height: 800 },
      { id: "i2", url: "/img/Sand.jpg", altText: null, width: 600, height: 800 },
    ],
    featuredImage: null,
    title: "P",
  };

  it("starts on the first variant for sale and finds variants by options", () => {
    expect(initialSelection(product)).toEqual({ Color: "Black", Size: "M" });
    expect(findVariant(variants, { Color: "Sand", Size: "M" })?.id).toBe("v-Sand-M");
    expect(findVariant(variants, { Color: "Sand", Size: "S" })).toBeNull();
    expect(visibleOptions(product).map((o) => o.name)).toEqual(["Color", "Size"]);
  });

  it("moves other options to a variant that exists when a value has no match", () => {
    expect(selectValue(variants, { Color: "Black", Size: "S" }, "Color", "Sand")).toEqual({ Color: "Sand", Size: "M" });
    expect(selectValue(variants, { Color: "Black", Size: "M" }, "Size", "S")).toEqual({ Color: "Black", Size: "S" });
  });

  it("tells available, sold-out and missing combinations apart, with swatches", () => {
    const sel = { Color: "Black", Size: "M" };
    expect(valueState(variants, sel, "Size", "M")).toBe("available");
    expect(valueState(variants, sel, "Size", "S")).toBe("sold-out");
    expect(valueState(variants, sel, "Size", "L")).toBe("unavailable");
    expect(swatchFor(variants, "Color", "Sand")).toBe("#d6c29f");
  });

  it("shows the selected variant's image first", () => {
    expect(galleryImages(product, variants[2]).map((i) => i.id)).toEqual(["i2", "i1"]);
    expect(galleryImages(product, null).map((i) => i.id)).toEqual(["i1", "i2"]);
  });
});

describe("crop rectangle", () => {
  const size = { width: 1000, height: 500 };

  it("starts on the whole image and stays inside it", () => {
    expect(fullRect(size)).toEqual({ x: 0, y: 0, w: 1000, h: 500 });
    expect(isFullRect(fullRect(size), size)).toBe(true);
    expect(clampRect({ x: -10, y: 480, w: 2000, h: 100 }, size)).toEqual({ x: 0, y: 400, w: 1000, h: 100 });
    expect(clampRect({ x: 0, y: 0, w: 1, h: 1 }, size)).toEqual({ x: 0, y: 0, w: MIN_CROP, h: MIN_CROP });
  });

  it("moves without changing size and resizes from the dragged side", () => {
    const r = { x: 100, y: 100, w: 200, h: 200 };
    expect(moveRect(r, 900, 0, size)).toEqual({ x: 800, y: 100, w: 200, h: 200 });
    expect(resizeRect(r, "se", 50, 20, size)).toEqual({ x: 100, y: 100, w: 250, h: 220 });
    expect(resizeRect(r, "nw", -50, -500, size)).toEqual({ x: 50, y: 0, w: 250, h: 300 });
    expect(resizeRect(r, "e", -500, 0, size)).toEqual({ x: 100, y: 100, w: MIN_CROP, h: 200 });
    expect(resizeRect(r, "n", 0, 40, size)).toEqual({ x: 100, y: 140, w: 200, h: 160 });
  });

  it("answers arrow keys: move, Shift for larger steps, resize with the option", () => {
    const r = { x: 100, y: 100, w: 200, h: 200 };
    expect(rectForKey(r, "ArrowRight", size)).toEqual({ x: 110, y: 100, w: 200, h: 200 });
    expect(rectForKey(r, "ArrowDown", size, { shift: true })).toEqual({ x: 100, y: 200, w: 200, h: 200 });
    expect(rectForKey(r, "ArrowLeft", size, { resize: true })).toEqual({ x: 100, y: 100, w: 190, h: 200 });
    expect(rectForKey(r, "Enter", size)).toBeNull();
  });

  it("scales down to 1024 px on the longer side, never up", () => {
    expect(fitWithin({ width: 4032, height: 3024 }, 1024)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin({ width: 600, height: 800 }, 1024)).toEqual({ width: 600, height: 800 });
  });
});

describe("photo checks", () => {
  it("accepts JPEG, PNG and WebP up to the size limit", () => {
    expect(validatePhotoFile({ name: "a.jpg", type: "image/jpeg", size: 1000 })).toBeNull();
    expect(validatePhotoFile({ name: "a.png", type: "image/png", size: 1000 })).toBeNull();
    expect(validatePhotoFile({ name: "a.webp", type: "", size: 1000 })).toBeNull();
    expect(photoType({ name: "x.JPG", type: "", size: 1 })).toBe("image/jpeg");
  });

  it("explains wrong types, empty files and files that are too large", () => {
    expect(validatePhotoFile({ name: "notes.pdf", type: "application/pdf", size: 1000 })).toMatch(/not a photo we can read/);
    expect(validatePhotoFile({ name: "IMG_1.HEIC", type: "image/heic", size: 1000 })).toMatch(/HEIC/);
    expect(validatePhotoFile({ name: "a.jpg", type: "image/jpeg", size: 0 })).toMatch(/empty/);
    expect(validatePhotoFile({ name: "a.jpg", type: "image/jpeg", size: 30 * 1024 * 1024 })).toMatch(/too large \(30 MB\)/);
  });
});
