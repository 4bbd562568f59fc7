/**
 * The stores page's queries (SPEC §9 "stores by target gender: skip 0, take 10, 12 products per
 * store"): their cache keys (the render tests seed them) and the paging rule of the list.
 */
import { STORES_BY_GENDER_PRODUCTS, STORES_BY_GENDER_TAKE } from "~/contract";
import type { ApiClient } from "~/client";
import type { Gender } from "./gender-routing";
import { targetGenderParam } from "./gender-preference";

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

/** A page of the list: the gender's stores ("both" stores included) from `skip`, each with its newest products for the gender. */
export function fetchStoresPage(api: ApiClient, gender: Gender, skip: number) {
  return api.storesByTargetGender({ params: { gender }, query: { skip, take: STORES_PAGE, productsPerStore: STORE_CARD_PRODUCTS } });
}

/** The featured stores: most followed and curated first, only stores with products for the gender. */
export function fetchFeaturedStores(api: ApiClient, gender: Gender) {
  return api.storesInsertions({ query: { skip: 0, take: FEATURED_STORES_TAKE, target_gender: targetGenderParam(gender) } });
}
