/**
 * Responsive image URLs for the storefront, the theme blocks and the admin pages (no zod, no
 * server code: the browser bundles take it as is).
 *
 * - Our own images (`/uploads/images/<key>`, relative or absolute) are served
 *   in sizes by the image route `/images/<key>?w=<width>&fm=<avif|webp|jpeg|png>` (made with sharp
 *   on first request and kept in a cache; app/services/image-variants.server.ts).
 * - Shopify CDN images (`cdn.shopify.com`, `/cdn/shop/` on a shop's domain) take `width=`; the
 *   CDN picks WebP or AVIF from the browser's Accept header by itself.
 * - Any other URL is used as it is (no srcset).
 */

/** The widths the image route makes (anything else is refused with 400). */
export const IMAGE_WIDTHS = [80, 160, 240, 320, 400, 480, 640, 800, 960, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The formats the image route makes; without `fm` the original's format is kept. */
export const IMAGE_FORMATS = ["avif", "webp", "jpeg", "png"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Where the image route lives, and where stored images are served as uploaded. */
export const IMAGE_ROUTE_PREFIX = "/images/";
const UPLOADED_IMAGES_PREFIX = "/uploads/images/";

export interface ImageUrlOptions {
  /** When given, absolute `/uploads/images/` URLs are ours only on this origin (the same answer on the server and in the browser either way). */
  appOrigin?: string;
}

type ImageSource = { kind: "ours"; origin: string; key: string } | { kind: "shopify"; url: URL } | { kind: "other" };

function classify(url: string, options: ImageUrlOptions = {}): ImageSource {
  if (url.startsWith(UPLOADED_IMAGES_PREFIX)) {
    if (/[?#]/.test(url)) return { kind: "other" };
    return { kind: "ours", origin: "", key: url.slice(UPLOADED_IMAGES_PREFIX.length) };
  }
  if (!/^https?:\/\//i.test(url)) return { kind: "other" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: "other" };
  }
  if (parsed.pathname.startsWith(UPLOADED_IMAGES_PREFIX) && !parsed.search && !parsed.hash) {
    // Only this app writes `/uploads/images/` URLs (uploads; Taobao imports made absolute with
    // APP_URL): taken as ours on their own origin, unless an `appOrigin` says which one is.
    if (options.appOrigin && parsed.origin !== new URL(options.appOrigin).origin) return { kind: "other" };
    return { kind: "ours", origin: parsed.origin, key: parsed.pathname.slice(UPLOADED_IMAGES_PREFIX.length) };
  }
  if (parsed.hostname === "cdn.shopify.com" || parsed.pathname.startsWith("/cdn/shop/")) return { kind: "shopify", url: parsed };
  return { kind: "other" };
}

/** The smallest allowed width at least `width` wide (the largest when none is). */
export function snapImageWidth(width: number): ImageWidth {
  return IMAGE_WIDTHS.find((w) => w >= width) ?? IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1];
}

function sized(source: ImageSource, original: string, width: ImageWidth, format?: ImageFormat): string {
  if (source.kind === "ours") return `${source.origin}${IMAGE_ROUTE_PREFIX}${source.key}?w=${width}${format ? `&fm=${format}` : ""}`;
  if (source.kind === "shopify") {
    const u = new URL(source.url.href);
    u.searchParams.set("width", String(width));
    return u.href;
  }
  return original;
}

/** `url` at `width` px wide (snapped to an allowed width), in `format` when it is one of ours. */
export function imageUrl(url: string, width: number, format?: ImageFormat, options?: ImageUrlOptions): string {
  return sized(classify(url, options), url, snapImageWidth(width), format);
}

/** A small WebP for admin lists (160 px: sharp at 2× for Polaris' 40–80 px thumbnails). */
export function thumbnailUrl(url: string | null | undefined, width = 160, options?: ImageUrlOptions): string {
  if (!url) return "";
  return imageUrl(url, width, "webp", options);
}

/** Whether the URL can be had in sizes (ours or Shopify's CDN). */
export function isResizableImage(url: string, options?: ImageUrlOptions): boolean {
  return classify(url, options).kind !== "other";
}

export interface ResponsiveImageSource {
  type: "image/avif" | "image/webp";
  srcSet: string;
  sizes: string;
}

export interface ResponsiveImageAttrs {
  /** The fallback (original format) at the middle width. */
  src: string;
  srcSet?: string;
  sizes?: string;
  /** `<source>`s for a `<picture>`, best format first (only for our images: Shopify's CDN negotiates itself). */
  sources: ResponsiveImageSource[];
}

export interface ResponsiveImageRequest {
  /** The candidate widths (snapped to allowed ones; duplicates dropped). */
  widths: readonly number[];
  /** The `sizes` attribute: how wide the image shows at each viewport. */
  sizes: string;
  /** The width of the `src` fallback (default: the second candidate, or the only one). */
  fallbackWidth?: number;
  /** The original's width when known: wider candidates are left out (sharp never enlarges). */
  intrinsicWidth?: number | null;
}

/** `src`, `srcset`, `sizes` and AVIF/WebP `<source>`s for an image shown at several widths. */
export function responsiveImage(url: string, request: ResponsiveImageRequest, options?: ImageUrlOptions): ResponsiveImageAttrs {
  const source = classify(url, options);
  if (source.kind === "other") return { src: url, sources: [] };
  let widths = [...new Set(request.widths.map(snapImageWidth))].sort((a, b) => a - b);
  const cap = request.intrinsicWidth ?? null;
  if (cap && cap > 0) {
    const within = widths.filter((w) => w <= cap);
    // The smallest allowed width covering the original keeps its full detail.
    const cover = widths.find((w) => w > cap);
    widths = cover !== undefined ? [...within, cover] : within;
    if (!widths.length) widths = [snapImageWidth(cap)];
  }
  const set = (format?: ImageFormat) => widths.map((w) => `${sized(source, url, w, format)} ${w}w`).join(", ");
  const fallback = snapImageWidth(request.fallbackWidth ?? widths[Math.min(1, widths.length - 1)]);
  return {
    src: sized(source, url, fallback),
    srcSet: set(),
    sizes: request.sizes,
    sources:
      source.kind === "ours"
        ? [
            { type: "image/avif", srcSet: set("avif"), sizes: request.sizes },
            { type: "image/webp", srcSet: set("webp"), sizes: request.sizes },
          ]
        : [],
  };
}
