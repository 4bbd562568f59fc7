/**
 * The pure part of the product-feed block: reading the block's settings, where the API lives,
 * and what a card shows. No DOM, no fetch: unit-tested in tests/unit/theme-blocks.test.ts.
 */
import type { ProductCard, TargetGender } from "~/contract";
import { responsiveImage } from "~/client/images";
import { gidTail } from "~/lib/gid";
import { CARD_IMAGE_WIDTHS } from "../../../storefront/src/lib/image-sizes";

export const DEFAULT_PROXY_BASE = "/apps/fashion";
export const DEFAULT_LIMIT = 8;
export const MIN_LIMIT = 1;
export const MAX_LIMIT = 24;
export const MAX_SWATCHES = 5;

export interface FeedTexts {
  loading: string;
  empty: string;
  error: string;
  retry: string;
  /** Before the lowest price when variants cost more: "From €20.00". */
  from: string;
}

export const DEFAULT_TEXTS: FeedTexts = {
  loading: "Loading products…",
  empty: "No products to show yet. Check back soon.",
  error: "We couldn't load the products.",
  retry: "Try again",
  from: "From",
};

export interface FeedSettings {
  /** The App Proxy base, relative to the page's origin (e.g. "/apps/fashion"). */
  baseUrl: string;
  /** The storefront's root ("/" or a locale root such as "/fr"), for product links. */
  rootUrl: string;
  /** undefined = no filter ("both" suits everyone). */
  gender: Exclude<TargetGender, "both"> | undefined;
  limit: number;
  heading: string;
  texts: FeedTexts;
}

/**
 * The API base for fetches from the page, always relative to the page's origin.
 *
 * The block renders `{{ shop.url }}/apps/fashion`. When that origin is the page's, it is
 * stripped. When it is another origin (shop.url is the primary domain, while the page may be
 * served on the .myshopify.com domain, e.g. in the theme editor), only the path is kept too:
 * the App Proxy answers on every storefront domain of the shop, and a cross-origin call would
 * be refused by CORS and lose the customer's session. Anything that is not an http(s) URL or a
 * plain absolute path (protocol-relative, `javascript:`, …) falls back to the default.
 */
export function resolveProxyBase(raw: string | null | undefined, pageOrigin: string): string {
  const value = (raw ?? "").trim();
  if (!value) return DEFAULT_PROXY_BASE;
  let pathname: string;
  if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) {
    pathname = value.split(/[?#]/)[0];
  } else {
    if (!/^https?:\/\//i.test(value)) return DEFAULT_PROXY_BASE;
    let url: URL;
    try {
      url = new URL(value, pageOrigin);
    } catch {
      return DEFAULT_PROXY_BASE;
    }
    pathname = url.pathname;
  }
  const trimmed = pathname.replace(/\/+$/, "");
  return trimmed && /^\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*$/.test(trimmed) ? trimmed : DEFAULT_PROXY_BASE;
}

/** The storefront root without a trailing slash ("" for "/"), for `${root}/products/<handle>`. */
export function resolveRootUrl(raw: string | null | undefined): string {
  const value = (raw ?? "").trim();
  if (!value.startsWith("/") || value.startsWith("//") || !/^\/[A-Za-z0-9._~%/-]*$/.test(value)) return "";
  return value.replace(/\/+$/, "");
}

export function parseLimit(raw: string | null | undefined): number {
  const n = Number.parseInt(raw ?? "", 10);
  if (!Number.isFinite(n)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(MIN_LIMIT, n));
}

export function parseGender(raw: string | null | undefined): FeedSettings["gender"] {
  return raw === "menswear" || raw === "womenswear" ? raw : undefined;
}

/** The block's settings from its data-* attributes (`element.dataset`). */
export function readFeedSettings(data: Record<string, string | undefined>, pageOrigin: string): FeedSettings {
  const text = (v: string | undefined, fallback: string) => (v && v.trim() ? v.trim() : fallback);
  return {
    baseUrl: resolveProxyBase(data.proxyBase, pageOrigin),
    rootUrl: resolveRootUrl(data.rootUrl),
    gender: parseGender(data.gender),
    limit: parseLimit(data.limit),
    heading: (data.heading ?? "").trim(),
    texts: {
      loading: text(data.textLoading, DEFAULT_TEXTS.loading),
      empty: text(data.textEmpty, DEFAULT_TEXTS.empty),
      error: text(data.textError, DEFAULT_TEXTS.error),
      retry: text(data.textRetry, DEFAULT_TEXTS.retry),
      from: text(data.textFrom, DEFAULT_TEXTS.from),
    },
  };
}

/** The query of `listProducts` for these settings. */
export function feedQuery(settings: Pick<FeedSettings, "gender" | "limit">): { limit: number; target_gender?: Exclude<TargetGender, "both"> } {
  return settings.gender ? { limit: settings.limit, target_gender: settings.gender } : { limit: settings.limit };
}

/** "€1,234.50" for the locale; "12.00 XYZ" when the currency code is unknown to Intl. */
export function formatPrice(money: { amount: string; currencyCode: string }, locale?: string): string {
  const amount = Number(money.amount);
  if (!Number.isFinite(amount)) return "";
  const currency = (money.currencyCode ?? "").trim().toUpperCase();
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount);
  } catch {
    let plain: string;
    try {
      plain = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
    } catch {
      plain = amount.toFixed(2);
    }
    return currency ? `${plain} ${currency}` : plain;
  }
}

/** "#abc" / "AABBCC" / "#aabbccdd" → "#aabbcc"-style lower-case hex; anything else → null. */
export function normaliseHex(raw: string): string | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(raw.trim());
  return m ? `#${m[1].toLowerCase()}` : null;
}

/**
 * An image URL safe for `src`: http(s) or a same-origin path; null otherwise. With `proxyBase`,
 * the app's own files (`/uploads/…`, served by the app, not by the store) are reached through the
 * App Proxy (`/apps/fashion/uploads/…`, redirected to the app).
 */
export function safeImageUrl(raw: string | null | undefined, pageOrigin: string, proxyBase?: string): string | null {
  if (!raw) return null;
  if (proxyBase && raw.startsWith("/uploads/")) raw = `${proxyBase}${raw}`;
  try {
    const url = new URL(raw, pageOrigin);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * How wide a card shows: the feed's grid has 2 columns below 750 px, 3 to 990 px, then 4 (the
 * recommendation grid goes to 4 at 750 px: 33vw is a slight over-estimate there). The theme's
 * page width is unknown, so the viewport stands in for it.
 */
export const BLOCK_CARD_IMAGE_SIZES = "(max-width: 749.98px) 50vw, (max-width: 989.98px) 33vw, 25vw";

export interface CardImage {
  src: string;
  alt: string;
  /** Present when the image can be had in sizes (ours through the proxy, or Shopify's CDN). */
  srcset?: string;
  sizes?: string;
  /** AVIF and WebP `<source>`s for a `<picture>` (our images only: Shopify's CDN negotiates). */
  sources?: { type: string; srcset: string }[];
}

/**
 * A card image in sizes: the storefront's card widths (the variants the upload pre-warm makes),
 * each URL made safe like `src`. Our relative images go through the App Proxy
 * (`{proxyBase}/images/<key>?w=&fm=`, redirected to the app's image route) since the blocks
 * know only the proxy path, not the app's host; absolute app URLs and Shopify's CDN are used as they are.
 */
export function cardImage(raw: string | null | undefined, alt: string, pageOrigin: string, proxyBase?: string): CardImage | null {
  const src = safeImageUrl(raw, pageOrigin, proxyBase);
  if (!raw || !src) return null;
  const r = responsiveImage(raw, { widths: CARD_IMAGE_WIDTHS, sizes: BLOCK_CARD_IMAGE_SIZES });
  if (!r.srcSet) return { src, alt };
  const safe = (url: string) => safeImageUrl(proxyBase && url.startsWith("/images/") ? `${proxyBase}${url}` : url, pageOrigin);
  // Every candidate must pass the same check as `src`, else the card keeps the plain image.
  const set = (srcset: string): string | null => {
    const parts = srcset.split(", ").map((entry) => {
      const cut = entry.lastIndexOf(" ");
      const url = safe(entry.slice(0, cut));
      return url ? `${url}${entry.slice(cut)}` : null;
    });
    return parts.every((p) => p !== null) ? parts.join(", ") : null;
  };
  const srcset = set(r.srcSet);
  const fallback = safe(r.src);
  if (!srcset || !fallback) return { src, alt };
  const sources = r.sources.flatMap((s) => {
    const srcset = set(s.srcSet);
    return srcset ? [{ type: s.type, srcset }] : [];
  });
  return { src: fallback, alt, srcset, sizes: BLOCK_CARD_IMAGE_SIZES, ...(sources.length ? { sources } : {}) };
}

export interface CardModel {
  id: string;
  title: string;
  vendor: string;
  href: string;
  image: CardImage | null;
  /** The lowest price, formatted; `priceFrom` says whether some variants cost more. */
  price: string;
  priceFrom: boolean;
  available: boolean;
  swatches: string[];
  /** Colours beyond MAX_SWATCHES. */
  moreSwatches: number;
}

export function toCardModel(p: ProductCard, opts: { rootUrl?: string; pageOrigin: string; locale?: string; proxyBase?: string }): CardModel {
  const min = p.priceRange.minVariantPrice;
  const max = p.priceRange.maxVariantPrice;
  const colours = [...new Set(p.colorHexes.map(normaliseHex).filter((h): h is string => h !== null))];
  // A search in a colour (a photo's): the card shows that variant and the theme's product page opens on it.
  const matched = p.matchedVariant;
  const shown = matched?.image ?? p.featuredImage;
  const alt = matched?.image ? `${p.title} in ${matched.colour}` : p.featuredImage?.altText?.trim() || p.title;
  const variant = matched ? `?variant=${encodeURIComponent(gidTail(matched.id))}` : "";
  return {
    id: p.id,
    title: p.title,
    vendor: p.vendor,
    href: `${opts.rootUrl ?? ""}/products/${encodeURIComponent(p.handle)}${variant}`,
    image: cardImage(shown?.url, alt, opts.pageOrigin, opts.proxyBase),
    price: formatPrice(min, opts.locale),
    priceFrom: !!max && Number(max.amount) > Number(min.amount),
    available: p.availableForSale,
    swatches: colours.slice(0, MAX_SWATCHES),
    moreSwatches: Math.max(0, colours.length - MAX_SWATCHES),
  };
}
