/**
 * Recently viewed products (SPEC §9: the last 3, in local storage). Each entry is the product's
 * card, so the list renders without a request. Pure functions over a StorageLike; the React hook
 * is in use-recently-viewed.ts.
 */
import { ProductCardSchema, type ProductCard } from "~/contract";
import type { StorageLike } from "./gender-preference";
import { RECENTLY_VIEWED_MAX } from "./constants";

/** Local storage key of the list (newest first). */
export const RECENTLY_VIEWED_KEY = "fashion-discovery:recently-viewed";

/** The card fields of a product (a full product carries more; only these are stored). */
export function toCard(p: ProductCard): ProductCard {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    productType: p.productType,
    availableForSale: p.availableForSale,
    featuredImage: p.featuredImage ? { url: p.featuredImage.url, altText: p.featuredImage.altText } : null,
    priceRange: p.priceRange,
    target_gender: p.target_gender,
    colorHexes: p.colorHexes,
    storeId: p.storeId,
  };
}

/** The stored list, newest first; entries that no longer parse are dropped. */
export function readRecentlyViewed(storage: StorageLike | null | undefined): ProductCard[] {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(RECENTLY_VIEWED_KEY) ?? null;
  } catch {
    return [];
  }
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const out: ProductCard[] = [];
  for (const item of data) {
    const parsed = ProductCardSchema.safeParse(item);
    if (parsed.success && !out.some((p) => p.id === parsed.data.id)) out.push(parsed.data);
    if (out.length >= RECENTLY_VIEWED_MAX) break;
  }
  return out;
}

/** The list after viewing `product`: it moves to the front, duplicates go, at most `max` kept. */
export function addRecentlyViewed(list: readonly ProductCard[], product: ProductCard, max: number = RECENTLY_VIEWED_MAX): ProductCard[] {
  return [toCard(product), ...list.filter((p) => p.id !== product.id)].slice(0, max);
}

/** Records a view in storage and answers the new list. Storage failures are ignored (the list lives for this page). */
export function recordRecentlyViewed(storage: StorageLike | null | undefined, product: ProductCard): ProductCard[] {
  const next = addRecentlyViewed(readRecentlyViewed(storage), product);
  try {
    storage?.setItem(RECENTLY_VIEWED_KEY, JSON.stringify(next));
  } catch {
    /* quota or private mode */
  }
  return next;
}
