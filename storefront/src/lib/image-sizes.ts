/**
 * The widths and `sizes` of the storefront's responsive images (issue 20), kept apart from the
 * components so the image bench (scripts/bench/images.ts) reads the same figures.
 */

/** Card image candidates: a phone's half-width column up to 3× density, a desktop column at 2×. */
export const CARD_IMAGE_WIDTHS = [160, 240, 320, 400, 480, 640] as const;
/** Two columns below 768 px (gutters 16 px, gap 12 px), three to 1100 px, else columns of at most 300 px. */
export const CARD_IMAGE_SIZES = "(max-width: 767.98px) calc(50vw - 22px), (max-width: 1100px) calc(33vw - 30px), 300px";

/** A product page's main image: the whole width on a phone, about half the page (at most 720 px) beside the details. */
export const MAIN_IMAGE_WIDTHS = [320, 480, 640, 800, 960, 1280] as const;
export const MAIN_IMAGE_SIZES = "(max-width: 767.98px) calc(100vw - 32px), min(50vw, 720px)";
