/**
 * Options and variants of a product page (pure): the selection of option values, the variant it
 * names, which values can still be chosen, and the images to show first.
 */
import type { ProductDetail } from "~/contract";

export type Variant = ProductDetail["variants"][number];
export type Selection = Record<string, string>;

/** An option with a single value ("Default Title") is not worth a picker. */
export function visibleOptions(product: Pick<ProductDetail, "options">): ProductDetail["options"] {
  return product.options.filter((o) => o.values.length > 1 || (o.values.length === 1 && o.values[0] !== "Default Title"));
}

export function selectionOf(variant: Variant): Selection {
  return Object.fromEntries(variant.selectedOptions.map((o) => [o.name, o.value]));
}

/** The variant whose options match the selection exactly, or null. */
export function findVariant(variants: readonly Variant[], selection: Selection): Variant | null {
  return variants.find((v) => v.selectedOptions.every((o) => selection[o.name] === o.value)) ?? null;
}

/** The starting selection: the first variant for sale (else the first variant), or nothing. */
export function initialSelection(product: Pick<ProductDetail, "variants">, preferredVariantId?: string | null): Selection {
  const preferred = preferredVariantId ? product.variants.find((v) => v.id === preferredVariantId) : undefined;
  const v = preferred ?? product.variants.find((x) => x.availableForSale) ?? product.variants[0];
  return v ? selectionOf(v) : {};
}

/**
 * The selection after picking `value` for `option`. When no variant has the new combination,
 * the other options move to the closest variant that has the picked value (for sale preferred).
 */
export function selectValue(variants: readonly Variant[], selection: Selection, option: string, value: string): Selection {
  const next = { ...selection, [option]: value };
  if (findVariant(variants, next)) return next;
  const withValue = variants.filter((v) => v.selectedOptions.some((o) => o.name === option && o.value === value));
  const score = (v: Variant) =>
    v.selectedOptions.reduce((n, o) => n + (o.name !== option && selection[o.name] === o.value ? 1 : 0), 0) + (v.availableForSale ? 0.5 : 0);
  const best = [...withValue].sort((a, b) => score(b) - score(a))[0];
  return best ? selectionOf(best) : next;
}

export type ValueState = "available" | "sold-out" | "unavailable";

/**
 * Whether picking `value` for `option` (keeping the other choices) names a variant for sale, a
 * sold-out variant, or no variant at all.
 */
export function valueState(variants: readonly Variant[], selection: Selection, option: string, value: string): ValueState {
  const v = findVariant(variants, { ...selection, [option]: value });
  if (!v) return "unavailable";
  return v.availableForSale ? "available" : "sold-out";
}

/** The colour swatch of an option value, from the variants' colour metafield, or null. */
export function swatchFor(variants: readonly Variant[], option: string, value: string): string | null {
  const v = variants.find((x) => x.colorHex && x.selectedOptions.some((o) => o.name === option && o.value === value));
  return v?.colorHex ?? null;
}

/** Whether an option is a colour (its values get swatches). */
export function isColourOption(name: string): boolean {
  return /^(colou?r|farbe|couleur)$/i.test(name.trim());
}

export type GalleryImage = ProductDetail["images"][number];

/** The product's images with the selected variant's image first (each image once). */
export function galleryImages(product: Pick<ProductDetail, "images" | "featuredImage" | "title">, variant: Variant | null): GalleryImage[] {
  const images = [...product.images];
  if (images.length === 0 && product.featuredImage) images.push({ id: "featured", url: product.featuredImage.url, altText: product.featuredImage.altText, width: null, height: null });
  const url = variant?.image?.url;
  if (!url) return images;
  const i = images.findIndex((img) => img.url === url);
  if (i <= 0) return i === 0 ? images : [{ id: `variant-${variant.id}`, url, altText: variant.image?.altText ?? null, width: null, height: null }, ...images];
  return [images[i], ...images.slice(0, i), ...images.slice(i + 1)];
}
