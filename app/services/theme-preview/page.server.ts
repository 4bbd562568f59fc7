/**
 * LOCAL MODE ONLY: the stand-in store pages of the theme preview. A home page (product feed,
 * photo search) and a product page (rating summary, save button, try-on button, reviews, similar
 * products, frequently bought together), both with the app embed turned on: every block of
 * extensions/theme-blocks rendered from its Liquid file with its built script.
 */
import type { ProductCard, ProductDetail } from "~/contract/products";
import { gidTail } from "~/lib/gid";
import { renderPreviewBlock, type PreviewBlock, type PreviewPage } from "./blocks.server";

export const PREVIEW_CUSTOMER_COOKIE = "fd_preview_customer";

/** Where each block sits in the preview (together: every block of the extension). */
export const PREVIEW_LAYOUT = {
  home: [{ name: "product-feed", settings: { heading: "New in" } }, { name: "photo-search" }] as PreviewBlock[],
  productInfo: [{ name: "rating-summary" }, { name: "save-button" }, { name: "try-on-button" }, { name: "add-to-cart" }] as PreviewBlock[],
  productMain: [{ name: "product-reviews" }, { name: "similar-products" }, { name: "bought-together" }] as PreviewBlock[],
  /** App embeds (target body): rendered at the end of <body> on every page. */
  embeds: [{ name: "app-embed" }] as PreviewBlock[],
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** The numeric customer id of the preview cookie, or null. */
export function previewCustomer(cookieHeader: string | null): { id: string } | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === PREVIEW_CUSTOMER_COOKIE) {
      const v = decodeURIComponent(rest.join("="));
      return /^\d{1,20}$/.test(v) ? { id: v } : null;
    }
  }
  return null;
}

async function renderAll(blocks: PreviewBlock[], page: PreviewPage): Promise<string> {
  const html: string[] = [];
  for (const block of blocks) {
    html.push(`<div class="demo-block" data-preview-block="${escapeHtml(block.name)}">\n${await renderPreviewBlock(block, page)}\n</div>`);
  }
  return html.join("\n");
}

function formatMoney(m: { amount: string; currencyCode: string }): string {
  const n = Number(m.amount);
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: m.currencyCode }).format(n);
  } catch {
    return `${m.amount} ${m.currencyCode}`;
  }
}

function layout(opts: { title: string; assetsBuilt: boolean; customer: { id: string } | null; main: string; embeds: string }): string {
  const notice = opts.assetsBuilt
    ? ""
    : `<p class="demo-notice">The block scripts are not built yet: run <code>npm run build:blocks</code> and reload.</p>`;
  const who = opts.customer
    ? `Logged in as Shopify customer ${escapeHtml(opts.customer.id)} (cookie <code>${PREVIEW_CUSTOMER_COOKIE}</code>).`
    : `Not logged in: the blocks use a guest session. Set the <code>${PREVIEW_CUSTOMER_COOKIE}</code> cookie to a numeric id to simulate a logged-in customer.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} — theme preview</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a; background: #fff; }
  .demo-header { border-bottom: 1px solid #e5e5e5; padding: 1rem 1.5rem; display: flex; justify-content: space-between; align-items: center; }
  .demo-header h1 { margin: 0; font-size: 1.25rem; }
  .demo-header nav a { color: inherit; margin-left: 1rem; text-decoration: none; }
  .demo-intro { max-width: 120rem; margin: 1.5rem auto 0; padding: 0 1.5rem; color: #555; }
  .demo-notice { background: #fff4e5; border: 1px solid #f5c27a; padding: 0.75rem 1rem; border-radius: 0.5rem; }
  .demo-product { max-width: 120rem; margin: 2rem auto; padding: 0 1.5rem; display: grid; gap: 2rem; }
  @media (min-width: 750px) { .demo-product { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
  .demo-product img { width: 100%; aspect-ratio: 3 / 4; object-fit: cover; border-radius: 0.5rem; background: #f3f3f3; }
  .demo-product h1 { margin: 0 0 0.25rem; font-size: 1.75rem; }
  .demo-vendor { margin: 0; text-transform: uppercase; letter-spacing: 0.04em; font-size: 0.8rem; color: #666; }
  .demo-price { font-size: 1.25rem; font-weight: 600; }
  .demo-samples { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; padding: 0; list-style: none; }
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
    <p>This page simulates a Shopify theme with the app's <strong>theme app blocks</strong> added. Their scripts call
    <code>/apps/fashion/api/…</code>; in local mode the app itself plays Shopify's App Proxy, signing each request and
    handing it to <code>/proxy</code>. ${who}</p>
    ${notice}
  </section>
${opts.main}
</main>
<footer class="demo-footer">Local preview of the theme app extension (extensions/theme-blocks).</footer>
${opts.embeds}
</body>
</html>`;
}

export async function renderHomePreview(opts: { assetsBuilt: boolean; customer: { id: string } | null; samples: ProductCard[] }): Promise<string> {
  const page: PreviewPage = { template: "index", customer: opts.customer };
  const samples = opts.samples.length
    ? `<section class="demo-intro"><h2>Product pages</h2><ul class="demo-samples">${opts.samples
        .map((p) => `<li><a href="/theme-preview/products/${encodeURIComponent(gidTail(p.id))}">${escapeHtml(p.title)}</a></li>`)
        .join("")}</ul></section>`
    : "";
  const main = `  <section class="demo-section">\n${await renderAll(PREVIEW_LAYOUT.home, page)}\n  </section>\n${samples}`;
  return layout({ title: "Home", assetsBuilt: opts.assetsBuilt, customer: opts.customer, main, embeds: await renderAll(PREVIEW_LAYOUT.embeds, page) });
}

export async function renderProductPreview(opts: { assetsBuilt: boolean; customer: { id: string } | null; product: ProductDetail }): Promise<string> {
  const p = opts.product;
  const variant = p.variants.find((v) => v.availableForSale) ?? p.variants[0];
  const product = {
    id: gidTail(p.id),
    handle: p.handle,
    title: p.title,
    available: p.availableForSale,
    selected_or_first_available_variant: variant ? { id: gidTail(variant.id) } : null,
  };
  const page: PreviewPage = { template: "product", customer: opts.customer, product };
  const image = p.featuredImage ? `<img src="${escapeHtml(p.featuredImage.url)}" alt="${escapeHtml(p.featuredImage.altText ?? p.title)}">` : "";
  const main = `  <section class="demo-product" data-product-id="${escapeHtml(p.id)}">
    <div class="demo-media">${image}</div>
    <div class="demo-info">
      <p class="demo-vendor">${escapeHtml(p.vendor)}</p>
      <h1>${escapeHtml(p.title)}</h1>
${await renderAll(PREVIEW_LAYOUT.productInfo, page)}
      <p class="demo-price">${escapeHtml(formatMoney(p.priceRange.minVariantPrice))}</p>
      <p>${escapeHtml(p.description)}</p>
    </div>
  </section>
  <section class="demo-section">
${await renderAll(PREVIEW_LAYOUT.productMain, page)}
  </section>`;
  return layout({ title: p.title, assetsBuilt: opts.assetsBuilt, customer: opts.customer, main, embeds: await renderAll(PREVIEW_LAYOUT.embeds, page) });
}
