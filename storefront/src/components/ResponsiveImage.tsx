/**
 * An image in sizes: `<picture>` with AVIF and WebP sources and the original format as the
 * `<img>` fallback, `srcset`/`sizes` so a phone loads a small file, width/height for the aspect
 * ratio (no layout shift), lazy unless it is the page's main (LCP) image, which is fetched first.
 * URLs come from the client library (app/client/images.ts): our stored images go through the
 * image route, Shopify CDN images get `width=`, anything else is shown as it is.
 */
import { responsiveImage } from "~/client/images";

/** Small square images (store logos, feed thumbnails: 28–72 px shown) at 1–3× density. */
export const LOGO_WIDTHS = [80, 160, 240] as const;

/** Mosaic tiles and other images shown at most about 200 px wide. */
export const TILE_WIDTHS = [160, 240, 320, 400] as const;

export interface ResponsiveImageProps {
  url: string;
  alt: string;
  /** Candidate widths in px (see IMAGE_WIDTHS). */
  widths: readonly number[];
  /** How wide the image shows, as the `sizes` attribute. */
  sizes: string;
  /** Intrinsic size for the aspect ratio (the box is sized by CSS). */
  width: number;
  height: number;
  /** The original's width when known (no candidates wider than needed). */
  intrinsicWidth?: number | null;
  className?: string;
  /** The page's main image: loaded eagerly with fetchpriority="high". Else lazy. */
  priority?: boolean;
  /** Loaded eagerly (above the fold) without raising its priority. */
  eager?: boolean;
  testId?: string;
}

export function ResponsiveImage({ url, alt, widths, sizes, width, height, intrinsicWidth, className, priority = false, eager = false, testId }: ResponsiveImageProps) {
  const r = responsiveImage(url, { widths, sizes, intrinsicWidth });
  // React 18 passes the attribute through only in lower case.
  const fetchPriority = priority ? ({ fetchpriority: "high" } as Record<string, string>) : {};
  const img = (
    <img
      className={className}
      src={r.src}
      srcSet={r.srcSet}
      sizes={r.srcSet ? r.sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority || eager ? "eager" : "lazy"}
      decoding={priority ? "auto" : "async"}
      data-testid={testId}
      {...fetchPriority}
    />
  );
  if (!r.sources.length) return img;
  return (
    <picture className="rimg">
      {r.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcSet} sizes={s.sizes} />
      ))}
      {img}
    </picture>
  );
}
