/**
 * LOCAL MODE ONLY: the theme app extension's blocks rendered for the theme preview, from their
 * real Liquid files (extensions/theme-blocks/blocks/*.liquid) and locale file, with each block's
 * schema defaults as settings and the built scripts served by /theme-preview/assets/.
 */
import fs from "node:fs";
import path from "node:path";
import { blockSchema, defaultSettings, renderLiquid, type LiquidValue } from "./liquid.server";

export const THEME_EXTENSION_DIR = path.resolve(process.cwd(), "extensions/theme-blocks");
export const THEME_ASSETS_DIR = path.join(THEME_EXTENSION_DIR, "assets");
export const PREVIEW_ASSETS_PATH = "/theme-preview/assets";
/** Liquid's `routes.cart_add_url` and `routes.cart_url` in the preview ("/cart/add" and "/cart" on a real store). */
export const PREVIEW_CART_ADD_URL = "/theme-preview/cart/add";
export const PREVIEW_CART_URL = "/theme-preview/cart";

/** Shopify's Liquid objects the blocks read, as the preview fills them. */
export interface PreviewPage {
  /** `template.name`: "index" for the home page, "product" for a product page. */
  template: "index" | "product";
  /** The page's product (Liquid's `product`): Shopify's numeric id and the handle. */
  product?: {
    id: string;
    handle: string;
    title: string;
    /** Liquid's `product.available` and `product.selected_or_first_available_variant` (numeric id). */
    available?: boolean;
    selected_or_first_available_variant?: { id: string } | null;
  } | null;
  /** The logged-in customer (Liquid's `customer`), simulated by the fd_preview_customer cookie. */
  customer?: { id: string } | null;
}

export interface PreviewBlock {
  /** File name under blocks/, without .liquid. */
  name: string;
  /** Settings over the schema's defaults. */
  settings?: Record<string, LiquidValue>;
}

type Parse = (source: string) => unknown;
let parser: Promise<Parse> | null = null;

/** Shopify's Liquid parser (a dependency of the Shopify CLI tooling), loaded on first use. */
function liquidParser(): Promise<Parse> {
  parser ??= import("@shopify/liquid-html-parser").then((m) => m.toLiquidAST as Parse);
  return parser;
}

export function readTranslations(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(THEME_EXTENSION_DIR, "locales/en.default.json"), "utf8"));
}

export function blockSource(name: string): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`Not a block name: ${name}`);
  return fs.readFileSync(path.join(THEME_EXTENSION_DIR, "blocks", `${name}.liquid`), "utf8");
}

/** Every block of the extension (blocks/*.liquid), by name. */
export function blockNames(): string[] {
  return fs
    .readdirSync(path.join(THEME_EXTENSION_DIR, "blocks"))
    .filter((f) => f.endsWith(".liquid"))
    .map((f) => f.slice(0, -".liquid".length))
    .sort();
}

/** One block's HTML as Shopify renders it on a storefront page (outside the theme editor). */
export async function renderPreviewBlock(block: PreviewBlock, page: PreviewPage, translations = readTranslations()): Promise<string> {
  const source = blockSource(block.name);
  const schema = blockSchema(source);
  const settings = { ...defaultSettings(schema), ...block.settings };
  return renderLiquid(source, await liquidParser(), {
    translations,
    assetUrl: (file) => `${PREVIEW_ASSETS_PATH}/${file}`,
    globals: {
      // The page's own origin: the blocks then call /apps/fashion/… on it (the local App Proxy stand-in).
      shop: { url: "", name: "Demo store" },
      // The theme's cart is the preview's own Ajax Cart stand-in (app/routes/theme-preview.cart*.tsx).
      routes: { root_url: "/", all_products_collection_url: "/collections/all", cart_add_url: PREVIEW_CART_ADD_URL, cart_url: PREVIEW_CART_URL },
      request: { design_mode: false },
      template: { name: page.template },
      product: page.product ?? null,
      customer: page.customer ?? null,
      block: { id: `preview-${block.name}`, settings, shopify_attributes: "" },
    },
  });
}
