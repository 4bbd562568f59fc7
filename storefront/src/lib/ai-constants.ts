/**
 * Business constants of the clone and try-on screens (SPEC §4, §9). Change a number here, nowhere else.
 */

/** Clones listed per page (SPEC §9: clones page 20). */
export const CLONES_PAGE = 20;
/** The shopper's try-ons: skip 0, take 10 a page (SPEC §9). */
export const USER_TRYONS_TAKE = 10;
/** Saved try-ons per page (SPEC §9). */
export const SAVED_TRYONS_PAGE = 20;
/** Try-on details: stale after 5 minutes, kept 30 minutes, never retried (SPEC §9). */
export const TRYON_DETAILS_STALE_MS = 5 * 60_000;
export const TRYON_DETAILS_GC_MS = 30 * 60_000;
/** Eligible products: limit 40, offset 0, stale 1 hour, kept 2 hours (SPEC §9). */
export const ELIGIBLE_PRODUCTS_LIMIT = 40;
export const ELIGIBLE_PRODUCTS_STALE_MS = 60 * 60_000;
export const ELIGIBLE_PRODUCTS_GC_MS = 2 * 60 * 60_000;
/** Clone training (outfit generation) status is polled every 5 seconds while in progress (SPEC §4). */
export const OUTFIT_POLL_MS = 5_000;
/** A try-on in the queue or being made is polled this often. */
export const TRYON_POLL_MS = 3_000;
/** A clone needs at least this many usable photos before it can be trained; one upload carries at most MAX (the contract's limits). */
export { CLONE_MIN_PHOTOS as MIN_USABLE_PHOTOS, CLONE_MAX_PHOTOS as MAX_CLONE_PHOTOS } from "~/contract/clones";
/** The query parameter that opens the try-on panel of a product page (the theme's try-on block). */
export const TRYON_PARAM = "tryon";

/**
 * Shown when a try-on has no image (SPEC §9): a neutral silhouette, inline so it never fails to load.
 */
export const TRYON_PLACEHOLDER_IMAGE =
  "data:image/svg+xml;charset=utf-8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400" width="300" height="400">' +
      '<rect width="300" height="400" fill="#efedea"/>' +
      '<circle cx="150" cy="120" r="46" fill="#d9d5cf"/>' +
      '<path d="M62 400c0-86 38-170 88-170s88 84 88 170z" fill="#d9d5cf"/>' +
      "</svg>"
  );
