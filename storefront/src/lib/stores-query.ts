/**
 * The stores page's queries (SPEC §9 "stores by target gender: skip 0, take 10, 12 products per
 * store"): their cache keys (the render tests seed them) and the paging rule of the list.
 */
import { STORES_BY_GENDER_PRODUCTS, STORES_BY_GENDER_TAKE } from "~/contract";
import type { Gender } from "./gender-routing";

/** Stores a page of the list asks for, and products shown per store. */
export const STORES_PAGE = STORES_BY_GENDER_TAKE;
export const STORE_CARD_PRODUCTS = STORES_BY_GENDER_PRODUCTS;
/** Featured stores above the list (the most-followed and curated stores with products for the gender). */
export const FEATURED_STORES_TAKE = 4;
export const FEATURED_STORE_PRODUCTS = 4;

export const storesByGenderKey = (gender: Gender) => ["stores", "by-gender", gender] as const;
export const featuredStoresKey = (gender: Gender) => ["stores", "featured", gender] as const;

/** The `skip` of the next page, or undefined when every store is loaded. */
export function nextStoresSkip(last: { stores: unknown[]; take: number; total: number }, pages: { stores: unknown[] }[]): number | undefined {
  const loaded = pages.reduce((n, p) => n + p.stores.length, 0);
  return last.stores.length > 0 && loaded < last.total ? loaded : undefined;
}
