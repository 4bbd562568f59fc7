/**
 * What search engines and link previews read of the storefront: the sitemap's addresses, and each
 * page's title, description, canonical address and structured data (schema.org JSON-LD for a
 * product). The storefront is a single-page app; the server puts these into the index.html it
 * answers (app/lib/storefront-html.server.ts); the texts are app/lib/page-text.ts's, which the pages
 * also set in the browser.
 * Only what shoppers may see is listed or described (app/lib/visibility.ts).
 */
import type { Db } from "~/db.server";
import { gidTail, toProductGid } from "~/lib/gid";
import { visibleProductWhere } from "~/lib/visibility";
import { clip, notFoundPageText, productPageText, SITE_NAME, staticPageText, storePageText, type PageText } from "~/lib/page-text";

export { SITE_NAME };
/** The sitemap protocol allows 50,000 addresses in one file; the newest products fill what is left. */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  /** Path from the site's root: `/products/1001/denim-shorts`. */
  path: string;
  lastmod?: Date;
}

export interface PageMeta {
  title: string;
  description: string;
  /** Path of the canonical address (no query string). */
  canonicalPath: string;
  /** Absolute or root-relative image for link previews. */
  image?: string;
  /** Open Graph type. */
  type: "website" | "product";
  /** schema.org objects, each written as one `application/ld+json` script. */
  jsonLd: Record<string, unknown>[];
  /** Tell crawlers not to index (an unknown product or store). */
  noindex?: boolean;
}

const GENDER_PAGES = ["/", "/mens", "/womens", "/stores", "/mens/stores", "/womens/stores"];

/** `/products/1001/denim-shorts`: the storefront's product address (storefront/src/lib/product-path.ts). */
export function productPath(p: { id: string; handle: string | null }): string {
  const handle = (p.handle ?? "").trim();
  return `/products/${encodeURIComponent(gidTail(p.id))}${handle ? `/${encodeURIComponent(handle)}` : ""}`;
}

/** `/stores/<id>/<handle>` (storefront/src/lib/store-path.ts). */
export function storePath(s: { id: string; handle: string | null }): string {
  const handle = (s.handle ?? "").trim();
  return `/stores/${encodeURIComponent(s.id)}${handle ? `/${encodeURIComponent(handle)}` : ""}`;
}

/**
 * The sitemap's addresses: the home and stores pages (each gender), every store, and the newest
 * visible products up to `max` addresses in all.
 */
export async function sitemapEntries(db: Db, opts: { max?: number } = {}): Promise<SitemapEntry[]> {
  const max = Math.max(GENDER_PAGES.length, opts.max ?? SITEMAP_MAX_URLS);
  const entries: SitemapEntry[] = GENDER_PAGES.map((path) => ({ path }));
  const stores = await db.store.findMany({
    select: { id: true, handle: true, updated_at: true },
    orderBy: [{ sort_order: "asc" }, { name: "asc" }],
    take: max - entries.length,
  });
  for (const s of stores) entries.push({ path: storePath(s), lastmod: s.updated_at });
  const room = max - entries.length;
  if (room > 0) {
    const products = await db.product.findMany({
      where: visibleProductWhere(),
      select: { id: true, handle: true, updated_at: true },
      orderBy: [{ updated_at: "desc" }, { id: "asc" }],
      take: room,
    });
    for (const p of products) entries.push({ path: productPath(p), lastmod: p.updated_at });
  }
  return entries;
}

function decodePart(part: string | undefined): string | null {
  if (!part) return null;
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** A page's text as its meta, without a preview image or structured data; a page without a canonical is not described. */
function textMeta(text: PageText, jsonLd: Record<string, unknown>[] = []): PageMeta {
  return { title: text.title, description: text.description, canonicalPath: text.canonicalPath ?? "/", type: "website", jsonLd, ...(text.noindex ? { noindex: true } : {}) };
}

const WEBSITE_JSON_LD = { "@context": "https://schema.org", "@type": "WebSite", name: SITE_NAME, url: "/", potentialAction: { "@type": "SearchAction", target: "/?search={search_term_string}", "query-input": "required name=search_term_string" } };

/** Meta of the pages that need no data (home also describes the site and its search). */
function staticMeta(pathname: string, search: URLSearchParams): PageMeta | null {
  const text = staticPageText(pathname, search);
  if (!text) return null;
  return textMeta(text, pathname === "/" && !text.noindex ? [WEBSITE_JSON_LD] : []);
}

const availability = (available: boolean) => (available ? "https://schema.org/InStock" : "https://schema.org/OutOfStock");

async function productMeta(db: Db, idPart: string): Promise<PageMeta | null> {
  const id = toProductGid(idPart);
  const p = await db.product.findFirst({
    where: { id, ...visibleProductWhere() },
    select: {
      id: true,
      title: true,
      handle: true,
      vendor: true,
      description: true,
      productType: true,
      availableForSale: true,
      featuredImageUrl: true,
      priceMin: true,
      priceMax: true,
      currencyCode: true,
      images: { select: { url: true }, orderBy: { position: "asc" }, take: 5 },
      variants: { select: { sku: true }, orderBy: { position: "asc" }, take: 1 },
      rating_summary: { select: { average: true, count: true } },
      store: { select: { name: true } },
    },
  });
  if (!p) return null;
  const path = productPath(p);
  const brand = p.vendor || p.store?.name || "";
  const price = (d: { toFixed(n: number): string }) => d.toFixed(2);
  const text = productPageText({ title: p.title, brand, description: p.description, productType: p.productType, priceMin: p.priceMin.toString(), currencyCode: p.currencyCode, path });
  const description = text.description;
  const images = [...new Set([p.featuredImageUrl, ...p.images.map((i) => i.url)].filter((u): u is string => !!u))];
  const offerBase = { priceCurrency: p.currencyCode, availability: availability(p.availableForSale), url: path, itemCondition: "https://schema.org/NewCondition" };
  const offers = p.priceMin.equals(p.priceMax)
    ? { "@type": "Offer", price: price(p.priceMin), ...offerBase }
    : { "@type": "AggregateOffer", lowPrice: price(p.priceMin), highPrice: price(p.priceMax), ...offerBase };
  const product: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": `${path}#product`,
    name: p.title,
    description: clip(p.description || description, 5000),
    url: path,
    productID: gidTail(p.id),
    ...(p.variants[0]?.sku ? { sku: p.variants[0].sku } : {}),
    ...(images.length ? { image: images } : {}),
    ...(brand ? { brand: { "@type": "Brand", name: brand } } : {}),
    ...(p.productType ? { category: p.productType } : {}),
    offers,
  };
  if (p.rating_summary && p.rating_summary.count > 0) {
    product.aggregateRating = { "@type": "AggregateRating", ratingValue: Number(p.rating_summary.average.toFixed(2)), reviewCount: p.rating_summary.count, bestRating: 5, worstRating: 1 };
  }
  return { title: text.title, description, canonicalPath: path, image: images[0], type: "product", jsonLd: [product] };
}

async function storeMeta(db: Db, id: string): Promise<PageMeta | null> {
  const s = await db.store.findUnique({ where: { id }, select: { id: true, name: true, handle: true, description: true, logo_url: true, banner_url: true } }).catch(() => null);
  if (!s) return null;
  const path = storePath(s);
  const text = storePageText({ name: s.name, description: s.description, path });
  return {
    title: text.title,
    description: text.description,
    canonicalPath: path,
    image: s.banner_url ?? s.logo_url ?? undefined,
    type: "website",
    jsonLd: [{ "@context": "https://schema.org", "@type": "Store", name: s.name, url: path, ...(s.logo_url ? { logo: s.logo_url } : {}), ...(s.description ? { description: clip(s.description, 5000) } : {}) }],
  };
}

const LINK_KEYS = new Set(["url", "@id", "image", "logo", "target"]);

/** Root-relative links of structured data made absolute on `origin` (`https://shop.example`). */
export function absoluteLinks<T>(value: T, origin: string, key = ""): T {
  if (typeof value === "string") return (LINK_KEYS.has(key) && value.startsWith("/") && !value.startsWith("//") ? `${origin}${value}` : value) as T;
  if (Array.isArray(value)) return value.map((v) => absoluteLinks(v, origin, key)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, absoluteLinks(v, origin, k)])) as T;
  return value;
}

/**
 * The meta of a storefront address: the page's own for home, gender, stores, a store and a
 * product (from the database), else null (the index.html's defaults stay). An address of a
 * product or store that shoppers cannot see gets a not-found title and `noindex`.
 */
export async function pageMeta(db: Db, pathname: string, search: URLSearchParams = new URLSearchParams()): Promise<PageMeta | null> {
  const clean = pathname.replace(/\/+$/, "") || "/";
  const fixed = staticMeta(clean, search);
  if (fixed) return fixed;
  const parts = clean.split("/").slice(1);
  const notFound = (what: "Product" | "Store"): PageMeta => textMeta(notFoundPageText(what, clean));
  if (parts[0] === "products" && parts.length >= 2 && parts.length <= 3) {
    const id = decodePart(parts[1]);
    if (!id || !/^\d+$|^gid:\/\/shopify\/Product\/\d+$/.test(id)) return notFound("Product");
    return (await productMeta(db, id)) ?? notFound("Product");
  }
  if (parts[0] === "stores" && parts.length >= 2 && parts.length <= 3) {
    const id = decodePart(parts[1]);
    if (!id) return notFound("Store");
    return (await storeMeta(db, id)) ?? notFound("Store");
  }
  return null;
}
