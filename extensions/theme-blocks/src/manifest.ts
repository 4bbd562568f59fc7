/**
 * The theme blocks' scripts: one self-contained file per block family, each loaded only by the
 * blocks that need it (a page with only the save button loads only the save button's script).
 * Read by vite.config.ts (what to build), the local theme preview (what to serve) and the tests
 * (the 30 KB gzip budget of each file). No DOM and no app imports here.
 */
export interface BlockScript {
  /** File name under assets/ (what the Liquid blocks reference with `asset_url`). */
  file: string;
  /** Entry module under src/. */
  entry: string;
  /** The blocks (blocks/*.liquid, without extension) that load it. */
  blocks: string[];
}

export const BLOCK_SCRIPTS: readonly BlockScript[] = [
  { file: "fashion-blocks.js", entry: "product-feed.ts", blocks: ["product-feed"] },
  { file: "fd-save-button.js", entry: "save-button.ts", blocks: ["save-button"] },
  { file: "fd-rating-summary.js", entry: "rating-summary.ts", blocks: ["rating-summary"] },
  { file: "fd-reviews.js", entry: "reviews.ts", blocks: ["product-reviews"] },
  { file: "fd-try-on.js", entry: "try-on.ts", blocks: ["try-on-button"] },
  { file: "fd-recommendations.js", entry: "recommendations.ts", blocks: ["similar-products", "bought-together"] },
  { file: "fd-photo-search.js", entry: "photo-search.ts", blocks: ["photo-search"] },
  { file: "fd-app-embed.js", entry: "app-embed.ts", blocks: ["app-embed"] },
  { file: "fd-add-to-cart.js", entry: "add-to-cart.ts", blocks: ["add-to-cart"] },
];

export const BLOCK_STYLESHEET = "fashion-blocks.css";

/** Each script's budget, gzipped (the issue: at most 30 KB; counted as 30,000 bytes). */
export const SCRIPT_GZIP_BUDGET_BYTES = 30_000;
