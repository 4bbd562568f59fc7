/** Star ratings: five stars filled to the rating, read out as text (e.g. "Rated 4.3 out of 5"). */
import { el, interpolate } from "./dom";

/** "4.3" (one decimal, locale-formatted). */
export function formatRating(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/** Fill of the stars, 0–100 %, for a rating from 0 to 5. */
export function starsPercent(rating: number): number {
  return Math.round(Math.min(5, Math.max(0, rating)) * 20 * 10) / 10;
}

export function renderStars(rating: number, labelTemplate: string, locale?: string): HTMLSpanElement {
  const stars = el("span", "fd-stars");
  stars.setAttribute("role", "img");
  stars.setAttribute("aria-label", interpolate(labelTemplate, { rating: formatRating(rating, locale) }));
  const fill = el("span", "fd-stars__fill");
  fill.style.width = `${starsPercent(rating)}%`;
  stars.append(fill);
  return stars;
}

/** "1 review" / "12 reviews" from the locale's two forms. */
export function countText(count: number, one: string, other: string, locale?: string): string {
  return count === 1 ? one : interpolate(other, { number: new Intl.NumberFormat(locale).format(count) });
}
