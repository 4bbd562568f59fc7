/**
 * Recently viewed products (SPEC §9: the last 3, in local storage). Each entry is the product's
 * card, so the list renders without a request. Pure functions over a StorageLike; the React hook
 * is in use-recently-viewed.ts. The storage format is in recently-viewed-format.ts (shared with
 * the theme app embed); here entries are validated with the contract's card schema.
 */
import { ProductCardSchema, type ProductCard } from "~/contract";
import type { StorageLike } from "./gender-preference";
import { readRecentlyViewedWith, recordRecentlyViewedWith, type CardParser } from "./recently-viewed-format";

export { RECENTLY_VIEWED_KEY, addRecentlyViewed, toCard } from "./recently-viewed-format";

const parseCard: CardParser = (item) => {
  const parsed = ProductCardSchema.safeParse(item);
  return parsed.success ? parsed.data : null;
};

/** The stored list, newest first; entries that no longer parse are dropped. */
export function readRecentlyViewed(storage: StorageLike | null | undefined): ProductCard[] {
  return readRecentlyViewedWith(storage, parseCard);
}

/** Records a view in storage and answers the new list. Storage failures are ignored (the list lives for this page). */
export function recordRecentlyViewed(storage: StorageLike | null | undefined, product: ProductCard): ProductCard[] {
  return recordRecentlyViewedWith(storage, product, parseCard);
}
