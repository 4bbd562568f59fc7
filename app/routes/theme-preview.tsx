/**
 * LOCAL MODE ONLY: a stand-in store page showing the theme app block without a Shopify store.
 * It carries the block's markup as extensions/theme-blocks/blocks/product-feed.liquid renders
 * it (settings: heading "New in", gender "both", 8 products) and loads the built block assets
 * from /theme-preview/assets/ (theme-preview.assets.$.tsx). The block calls /apps/fashion/api/…,
 * answered by the local App Proxy stand-in (apps.$.tsx), which signs and forwards to /proxy.
 *
 * 404 outside local mode and when COMMERCE_ADAPTER=shopify (use a real store then).
 * Only `loader` is exported: other exports of a route module end up in the client build.
 */
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "~/config.server";

const THEME_ASSETS_DIR = path.resolve(process.cwd(), "extensions/theme-blocks/assets");

function themePreviewEnabled(): boolean {
  const config = getConfig();
  return config.APP_MODE === "local" && config.COMMERCE_ADAPTER !== "shopify";
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** The block's settings as the preview uses them. */
const PREVIEW_BLOCK = { proxyBase: "/apps/fashion", rootUrl: "/", gender: "both", limit: 8, heading: "New in" } as const;

/** English texts of extensions/theme-blocks/locales/en.default.json, as `| t` renders them. */
function blockTexts(): Record<string, string> {
  try {
    const file = path.resolve(process.cwd(), "extensions/theme-blocks/locales/en.default.json");
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as { blocks?: { product_feed?: Record<string, string> } };
    return json.blocks?.product_feed ?? {};
  } catch {
    return {};
  }
}

/**
 * The block's HTML as product-feed.liquid renders it on a storefront (outside the theme editor
 * `block.shopify_attributes` is empty), with the asset URLs of this preview.
 */
function renderProductFeedBlock(settings: { proxyBase: string; rootUrl: string; gender: string; limit: number; heading: string } = PREVIEW_BLOCK): string {
  const t = blockTexts();
  const text = (key: string) => escapeHtml(t[key] ?? key);
  return `<link href="/theme-preview/assets/fashion-blocks.css" rel="stylesheet" type="text/css" media="all" />
<script src="/theme-preview/assets/fashion-blocks.js" defer></script>

<div
  class="fd-product-feed"
  data-proxy-base="${escapeHtml(settings.proxyBase)}"
  data-root-url="${escapeHtml(settings.rootUrl)}"
  data-gender="${escapeHtml(settings.gender)}"
  data-limit="${settings.limit}"
  data-heading="${escapeHtml(settings.heading)}"
  data-text-loading="${text("loading")}"
  data-text-empty="${text("empty")}"
  data-text-error="${text("error")}"
  data-text-retry="${text("retry")}"
  data-text-from="${text("from")}"
  
>${settings.heading ? `<h2 class="fd-product-feed__heading">${escapeHtml(settings.heading)}</h2>` : ""}<p class="fd-product-feed__fallback">
    ${text("fallback")}
    <a href="/collections/all">${text("browse_all")}</a>
  </p>
</div>`;
}

function renderThemePreviewPage(opts: { assetsBuilt: boolean }): string {
  const notice = opts.assetsBuilt
    ? ""
    : `<p class="demo-notice">The block script is not built yet: run <code>npm run build:blocks</code> and reload.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo store — theme preview</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a; background: #fff; }
  .demo-header { border-bottom: 1px solid #e5e5e5; padding: 1rem 1.5rem; display: flex; justify-content: space-between; align-items: center; }
  .demo-header h1 { margin: 0; font-size: 1.25rem; }
  .demo-header nav a { color: inherit; margin-left: 1rem; text-decoration: none; }
  .demo-intro { max-width: 120rem; margin: 1.5rem auto 0; padding: 0 1.5rem; color: #555; }
  .demo-notice { background: #fff4e5; border: 1px solid #f5c27a; padding: 0.75rem 1rem; border-radius: 0.5rem; }
  .demo-footer { border-top: 1px solid #e5e5e5; margin-top: 3rem; padding: 1.5rem; color: #777; font-size: 0.875rem; }
</style>
</head>
<body>
<header class="demo-header">
  <h1>Demo store — theme preview</h1>
  <nav aria-label="Demo store"><a href="/theme-preview">Home</a><a href="/collections/all">Catalogue</a></nav>
</header>
<main>
  <section class="demo-intro">
    <p>This page simulates a Shopify theme with the app's <strong>Product feed</strong> theme app block added to a section.
    The block's script calls <code>/apps/fashion/api/products</code>; in local mode the app itself plays Shopify's App Proxy,
    signing each request and handing it to <code>/proxy</code>. Set the <code>fd_preview_customer</code> cookie to a numeric
    id to simulate a logged-in customer.</p>
    ${notice}
  </section>
  <section class="demo-section">
${renderProductFeedBlock()}
  </section>
</main>
<footer class="demo-footer">Local preview of the theme app extension (extensions/theme-blocks).</footer>
</body>
</html>`;
}

export const loader = () => {
  if (!themePreviewEnabled()) {
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const assetsBuilt = fs.existsSync(path.join(THEME_ASSETS_DIR, "fashion-blocks.js"));
  return new Response(renderThemePreviewPage({ assetsBuilt }), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
};
