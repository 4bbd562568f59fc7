/**
 * Business constants of the storefront (SPEC §9) and the storefront's own keys.
 * Change a number here, nowhere else.
 */

/** Search input debounce (SPEC §2, §9). */
export const SEARCH_DEBOUNCE_MS = 500;
/** Search page size on desktop and on mobile (SPEC §9), pages counted from 1. */
export const SEARCH_PAGE_SIZE_DESKTOP = 20;
export const SEARCH_PAGE_SIZE_MOBILE = 14;
/** Below this width (px) the layout is the mobile one. */
export const MOBILE_BREAKPOINT = 768;

/** Home feed sections: first page 6 items, later pages 3 (SPEC §9). */
export const HOME_FEED_FIRST_PAGE = 6;
export const HOME_FEED_LATER_PAGE = 3;
/** Home feed freshness: stale after 5 minutes, kept in cache 30 minutes (SPEC §9). */
export const HOME_STALE_MS = 5 * 60_000;
export const HOME_CACHE_MS = 30 * 60_000;
/** Home feed insertions (collections, stores, styles): 4 on the first page, 2 on later pages (SPEC §9). */
export const HOME_INSERTIONS_FIRST_PAGE = 4;
export const HOME_INSERTIONS_LATER_PAGE = 2;
/** Products shown in one home feed insertion. */
export const HOME_INSERTION_PRODUCTS = 4;

/** Product page related feed: batches of 12 in the mobile-like mode, else 20 (SPEC §9). */
export const PRODUCT_RELATED_BATCH_MOBILE = 12;
export const PRODUCT_RELATED_BATCH_DESKTOP = 20;
/** Product modal recommendations batch (SPEC §9). */
export const MODAL_RECOMMENDATIONS_BATCH = 20;

/** Past photo searches shown (SPEC §9: vision entries 10). */
export const VISION_ENTRIES_TAKE = 10;
/** Photo search: images are compressed to at most this many px on the longer side (SPEC §5, §9). */
export const IMAGE_MAX_DIMENSION = 1024;
/** Photo search: the largest photo accepted before compression, in bytes. */
export const PHOTO_MAX_INPUT_BYTES = 25 * 1024 * 1024;

/** Recently viewed products kept in local storage (SPEC §9). */
export const RECENTLY_VIEWED_MAX = 3;

/** The home product grid of the storefront shell: 24 per page, "Load more" adds 24. */
export const HOME_GRID_PAGE_SIZE = 24;

/** Products a store page loads at a time. */
export const STORE_PAGE_PRODUCTS = 12;

/** Product colour swatches shown on a card before "+N". */
export const CARD_MAX_SWATCHES = 5;

/** Session storage key of the gender preference (SPEC §4: an app-specific key). */
export const GENDER_STORAGE_KEY = "fashion-discovery:gender";
/** Local storage key and cookie of the current user id: display and analytics only, never auth. */
export const USER_ID_STORAGE_KEY = "fashion-discovery:user-id";
export const USER_ID_COOKIE = "fd_uid";
/** SPEC §8: the current-user call retries once, after 1 second, only on a 401. */
export const SESSION_RETRY_DELAY_MS = 1000;

/** Query parameter holding the search term (SPEC §2). */
export const SEARCH_PARAM = "search";
