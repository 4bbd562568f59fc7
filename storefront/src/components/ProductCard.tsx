import { memo, type MouseEvent } from "react";
import { Link } from "react-router-dom";
import type { ProductCard as ProductCardData } from "~/contract";
import { formatPriceRange, imageAlt, swatchColors } from "../lib/products";
import { productPath } from "../lib/product-path";
import { useProductOpener } from "../lib/product-opener";
import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTHS } from "../lib/image-sizes";
import { ResponsiveImage } from "./ResponsiveImage";
import { SaveButton } from "./SaveButton";

/** A click that asks for a new tab or window, or a download: leave it to the browser. */
function isModifiedClick(e: MouseEvent) {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}

/**
 * A product in a grid: a link to its page. On pages with a product modal (home feed, search) a
 * plain click opens the modal instead. The first cards of a page are `eager` (above the fold),
 * the very first `priority` (the page's largest image); the others load lazily.
 */
export const ProductCard = memo(function ProductCard({ product, priority = false, eager = false }: { product: ProductCardData; priority?: boolean; eager?: boolean }) {
  const opener = useProductOpener();
  const { colors, extra } = swatchColors(product.colorHexes);
  // A search for a colour: the card shows the variant of that colour and links to it selected.
  const matched = product.matchedVariant;
  const image = matched?.image ?? product.featuredImage;
  const alt = matched?.image ? `${product.title} in ${matched.colour}` : imageAlt(product);
  return (
    <article className="card" data-testid="product-card" data-product-id={product.id} data-variant-id={matched?.id} aria-label={product.title}>
      <Link
        className="card__link"
        to={productPath(product, matched?.id)}
        onClick={(e) => {
          if (!opener || isModifiedClick(e)) return;
          e.preventDefault();
          opener(product);
        }}
      >
        <div className="card__media">
          {image ? (
            <ResponsiveImage
              className="card__img"
              url={image.url}
              alt={alt}
              widths={CARD_IMAGE_WIDTHS}
              sizes={CARD_IMAGE_SIZES}
              width={600}
              height={800}
              priority={priority}
              eager={eager}
            />
          ) : (
            <div className="card__noimg" role="img" aria-label={product.title}>
              No image
            </div>
          )}
          {!product.availableForSale && <span className="card__badge">Sold out</span>}
        </div>
        <div className="card__body">
          <p className="card__vendor">{product.vendor}</p>
          <h3 className="card__title">{product.title}</h3>
          <p className="card__price">{formatPriceRange(product.priceRange)}</p>
        </div>
      </Link>
      {colors.length > 0 && (
        <ul className="swatches" aria-label={`${colors.length + extra} colours`}>
          {colors.map((c) => (
            <li key={c} className="swatch" style={{ backgroundColor: c }} title={c} />
          ))}
          {extra > 0 && <li className="swatch-more">+{extra}</li>}
        </ul>
      )}
      <SaveButton product={product} />
    </article>
  );
});

export function ProductCardSkeleton() {
  return (
    <div className="card card--skeleton" aria-hidden="true">
      <div className="card__media skeleton" />
      <div className="card__body">
        <div className="skeleton skeleton--line skeleton--short" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line skeleton--short" />
      </div>
    </div>
  );
}

/** A loading grid of `count` card skeletons, announced as busy with `label`. */
export function ProductGridSkeleton({ count, label, className = "grid", testId }: { count: number; label: string; className?: string; testId?: string }) {
  return (
    // role="status": a plain div may not carry aria-label (axe: aria-prohibited-attr); a status region names
    // what is loading and is announced politely.
    <div className={className} role="status" aria-busy="true" aria-label={label} data-testid={testId}>
      {Array.from({ length: count }, (_, i) => (
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}
