/**
 * The recently viewed list's storage format (SPEC §9: the last 3, in local storage), without zod:
 * shared by the storefront (recently-viewed.ts, which validates entries with the contract's
 * ProductCardSchema) and the theme app embed (extensions/theme-blocks/src/app-embed.ts, whose
 * script must stay small). Each entry is the product's card, newest first.
 */
import type { ProductCard } from "~/contract/products";
import type { StorageLike } from "./gender-preference";
import { RECENTLY_VIEWED_MAX } from "./constants";

/** Local storage key of the list (newest first). */
export const RECENTLY_VIEWED_KEY = "fashion-discovery:recently-viewed";

/** Turns a stored entry into a card, or null to drop it. */
export type CardParser = (item: unknown) => ProductCard | null;

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

/** The stored list, newest first; entries the parser refuses are dropped. */
export function readRecentlyViewedWith(storage: StorageLike | null | undefined, parse: CardParser): ProductCard[] {
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
    const card = parse(item);
    if (card && !out.some((p) => p.id === card.id)) out.push(card);
    if (out.length >= RECENTLY_VIEWED_MAX) break;
  }
  return out;
}

/** The list after viewing `product`: it moves to the front, duplicates go, at most `max` kept. */
export function addRecentlyViewed(list: readonly ProductCard[], product: ProductCard, max: number = RECENTLY_VIEWED_MAX): ProductCard[] {
  return [toCard(product), ...list.filter((p) => p.id !== product.id)].slice(0, max);
}

/** Records a view in storage and answers the new list. Storage failures are ignored (the list lives for this page). */
export function recordRecentlyViewedWith(storage: StorageLike | null | undefined, product: ProductCard, parse: CardParser): ProductCard[] {
  const next = addRecentlyViewed(readRecentlyViewedWith(storage, parse), product);
  try {
    storage?.setItem(RECENTLY_VIEWED_KEY, JSON.stringify(next));
  } catch {
    /* quota or private mode */
  }
  return next;
}
