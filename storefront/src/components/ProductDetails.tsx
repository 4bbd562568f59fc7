/**
 * A product's images, price, options and store: the body of the product page and of the product
 * modal. The selected variant drives the price, the availability and the first image.
 */
import { useId, useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { ProductDetail } from "~/contract";
import { useApi } from "../lib/api";
import { formatMoney, formatPriceRange } from "../lib/products";
import { storePath } from "../lib/store-path";
import { findVariant, galleryImages, initialSelection, isColourOption, selectValue, swatchFor, valueState, visibleOptions, type Selection } from "../lib/variants";
import { ProductRatingLine } from "./reviews/ProductReviews";
import { SaveButton } from "./SaveButton";
import { AddToCollection } from "./AddToCollection";
import { BackInStockButton } from "./BackInStockButton";
import { AddToCart } from "./AddToCart";
import { LOGO_WIDTHS, ResponsiveImage } from "./ResponsiveImage";
import { MAIN_IMAGE_SIZES, MAIN_IMAGE_WIDTHS } from "../lib/image-sizes";

const MODAL_IMAGE_SIZES = "(max-width: 767.98px) calc(100vw - 48px), 420px";

function StoreLink({ storeId, vendor }: { storeId: string | null; vendor: string }) {
  const api = useApi();
  const store = useQuery({
    queryKey: ["store", storeId],
    queryFn: () => api.storesGetById({ params: { id: storeId ?? "" } }),
    enabled: !!storeId,
    staleTime: 10 * 60_000,
  });
  if (store.data) {
    return (
      <Link className="pd__store" to={storePath(store.data)} data-testid="product-store-link">
        {store.data.logo_url && <ResponsiveImage className="pd__store-logo" url={store.data.logo_url} alt="" widths={LOGO_WIDTHS} sizes="28px" width={28} height={28} />}
        <span>
          Sold by <strong>{store.data.name}</strong>
        </span>
      </Link>
    );
  }
  return <p className="pd__vendor">{vendor}</p>;
}

export interface ProductDetailsProps {
  product: ProductDetail;
  /** h1 on the product page, h2 in the modal. */
  headingLevel?: 1 | 2;
  headingId?: string;
  /** Shorter layout for the modal: fewer thumbnails, description clamped. */
  compact?: boolean;
  /** The variant to start with (`?variant=`: a search result's matched colour). */
  preferredVariantId?: string | null;
}

/** Render with `key={product.id}`: a different product starts with its own selection. */
export function ProductDetails({ product, headingLevel = 1, headingId, compact = false, preferredVariantId = null }: ProductDetailsProps) {
  const [selection, setSelection] = useState<Selection>(() => initialSelection(product, preferredVariantId));
  const [imageIndex, setImageIndex] = useState(0);
  const uid = useId();

  const variant = findVariant(product.variants, selection);
  const images = useMemo(() => galleryImages(product, variant), [product, variant]);
  const image = images[Math.min(imageIndex, Math.max(0, images.length - 1))];
  const options = visibleOptions(product);
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const price = variant ? formatMoney(variant.price.amount, variant.price.currencyCode) : formatPriceRange(product.priceRange);
  const compareAt = variant?.compareAtPrice && Number(variant.compareAtPrice.amount) > Number(variant.price.amount) ? variant.compareAtPrice : null;
  const available = variant ? variant.availableForSale : product.availableForSale;

  return (
    <div className={`pd${compact ? " pd--compact" : ""}`} data-testid="product-details" data-product-id={product.id}>
      <div className="pd__gallery">
        <div className="pd__main-image">
          {image ? (
            <ResponsiveImage
              url={image.url}
              alt={image.altText?.trim() || product.title}
              widths={MAIN_IMAGE_WIDTHS}
              sizes={compact ? MODAL_IMAGE_SIZES : MAIN_IMAGE_SIZES}
              width={image.width ?? 600}
              height={image.height ?? 800}
              intrinsicWidth={image.width}
              priority
              testId="product-main-image"
            />
          ) : (
            <div className="card__noimg" role="img" aria-label={product.title}>
              No image
            </div>
          )}
        </div>
        {images.length > 1 && (
          <ul className="pd__thumbs" aria-label="Product images">
            {images.slice(0, compact ? 6 : 50).map((img, i) => (
              <li key={`${img.id}-${i}`}>
                <button
                  type="button"
                  className="pd__thumb"
                  aria-label={`Show image ${i + 1} of ${images.length}`}
                  aria-current={i === imageIndex ? "true" : undefined}
                  onClick={() => setImageIndex(i)}
                >
                  <ResponsiveImage url={img.url} alt="" widths={LOGO_WIDTHS} sizes="64px" width={64} height={85} intrinsicWidth={img.width} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="pd__info">
        <StoreLink storeId={product.storeId} vendor={product.vendor} />
        <Heading id={headingId} className="pd__title">
          {product.title}
        </Heading>
        <ProductRatingLine productId={product.id} linkToReviews={headingLevel === 1} />
        <p className="pd__price" data-testid="product-price">
          <span>{price}</span>
          {compareAt && (
            <s className="pd__compare" aria-label={`Was ${formatMoney(compareAt.amount, compareAt.currencyCode)}`}>
              {formatMoney(compareAt.amount, compareAt.currencyCode)}
            </s>
          )}
        </p>
        <p className={`pd__stock${available ? "" : " pd__stock--out"}`} aria-live="polite">
          {available ? (variant && variant.quantityAvailable > 0 && variant.quantityAvailable <= 3 ? `Only ${variant.quantityAvailable} left` : "In stock") : "Sold out"}
        </p>
        {/* Sold out everywhere: the whole product; else the selected sold-out size or colour. */}
        {!available && <BackInStockButton productId={product.id} variantId={product.availableForSale && variant ? variant.id : null} />}
        <div className="pd__actions">
          <SaveButton product={product} variant="full" />
          <AddToCollection product={product} />
        </div>

        {options.map((option) => {
          const colour = isColourOption(option.name);
          const labelId = `${uid}-opt-${option.id}`;
          return (
            <fieldset key={option.id} className="pd__option" data-testid={`product-option-${option.name.toLowerCase()}`}>
              <legend id={labelId} className="pd__option-label">
                {option.name}: <span className="pd__option-value">{selection[option.name] ?? "Choose"}</span>
              </legend>
              <div className="pd__values">
                {option.values.map((value) => {
                  const state = valueState(product.variants, selection, option.name, value);
                  const hex = colour ? swatchFor(product.variants, option.name, value) : null;
                  const selected = selection[option.name] === value;
                  return (
                    <button
                      key={value}
                      type="button"
                      className={`pd__value${hex ? " pd__value--swatch" : ""}${state !== "available" ? " pd__value--out" : ""}`}
                      aria-pressed={selected}
                      aria-label={`${option.name} ${value}${state === "sold-out" ? ", sold out" : state === "unavailable" ? ", not available" : ""}`}
                      title={value}
                      onClick={() => {
                        setSelection(selectValue(product.variants, selection, option.name, value));
                        setImageIndex(0);
                      }}
                    >
                      {hex ? <span className="pd__swatch" style={{ backgroundColor: hex }} aria-hidden="true" /> : value}
                    </button>
                  );
                })}
              </div>
            </fieldset>
          );
        })}

        {variant && options.length > 0 && (
          <p className="pd__variant" data-testid="product-variant">
            {variant.title}
            {variant.sku ? <span className="pd__sku"> · SKU {variant.sku}</span> : null}
          </p>
        )}

        <AddToCart product={product} selection={selection} variant={variant} />

        {product.description && <p className={`pd__description${compact ? " pd__description--clamp" : ""}`}>{product.description}</p>}
      </div>
    </div>
  );
}
