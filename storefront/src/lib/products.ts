/**
 * Pure helpers for product lists and cards: query parameters, pagination, price text, swatches.
 */
import type { ProductCard } from "~/contract";
import type { Gender } from "./gender-routing";
import { targetGenderParam } from "./gender-preference";
import { CARD_MAX_SWATCHES, HOME_GRID_PAGE_SIZE } from "./constants";
import { numberFormat } from "./intl-format";

export interface ProductListQuery {
  limit: number;
  cursor?: string;
  target_gender?: Exclude<Gender, "both">;
  query?: string;
}

/** The listProducts query of the home grid: gender filter (omitted for both), search term, cursor. */
export function productGridQuery(gender: Gender, search: string, cursor?: string | null, limit: number = HOME_GRID_PAGE_SIZE): ProductListQuery {
  const q: ProductListQuery = { limit };
  const tg = targetGenderParam(gender);
  if (tg) q.target_gender = tg;
  const term = search.trim();
  if (term) q.query = term;
  if (cursor) q.cursor = cursor;
  return q;
}

/** The TanStack Query key of the home grid. */
export function productGridKey(gender: Gender, search: string) {
  return ["products", "grid", { gender, search: search.trim() }] as const;
}

/** The cursor of the next page, or undefined when there is none. */
export function nextCursor(page: { pageInfo: { hasNextPage: boolean; endCursor: string | null } }): string | undefined {
  return page.pageInfo.hasNextPage && page.pageInfo.endCursor ? page.pageInfo.endCursor : undefined;
}

/**
 * Symbols and decimals of the common currencies, as Intl writes them in English ("€49.90",
 * "CA$1,200.00", "¥4,990"). The first currency Intl.NumberFormat of a page loads the browser's
 * currency data (tens of milliseconds on a phone, inside the first render of a grid of prices);
 * these are written without it, exactly as Intl would (tests/unit/storefront-money.test.ts).
 */
const CURRENCIES: Record<string, { symbol: string; decimals: number }> = {
  USD: { symbol: "$", decimals: 2 },
  EUR: { symbol: "€", decimals: 2 },
  GBP: { symbol: "£", decimals: 2 },
  CAD: { symbol: "CA$", decimals: 2 },
  AUD: { symbol: "A$", decimals: 2 },
  CNY: { symbol: "CN¥", decimals: 2 },
  JPY: { symbol: "¥", decimals: 0 },
};

/**
 * `|n|` with `decimals` digits, rounded half away from zero on its shortest decimal form (as Intl
 * rounds: 99.995 → "100.00", where toFixed sees the binary 99.99499… and writes "99.99"); null for
 * numbers written with an exponent.
 */
function roundedDigits(n: number, decimals: number): { whole: string; fraction: string } | null {
  const text = String(Math.abs(n));
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const [w, f = ""] = text.split(".");
  const digits = (w + f.padEnd(decimals + 1, "0").slice(0, decimals)).split("").map(Number);
  if (Number(f.padEnd(decimals + 1, "0")[decimals]) >= 5) {
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === 9) digits[i--] = 0;
    if (i < 0) digits.unshift(1);
    else digits[i] += 1;
  }
  const all = digits.join("");
  const whole = (decimals ? all.slice(0, all.length - decimals) : all).replace(/^0+(?=\d)/, "");
  return { whole, fraction: decimals ? all.slice(all.length - decimals) : "" };
}

function englishMoney(n: number, c: { symbol: string; decimals: number }): string | null {
  const r = roundedDigits(n, c.decimals);
  if (!r) return null;
  const grouped = r.whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${n < 0 ? "-" : ""}${c.symbol}${grouped}${r.fraction ? `.${r.fraction}` : ""}`;
}

/** One money amount in its currency, e.g. "€49.90"; falls back to "49.90 XYZ" for an unknown currency. */
export function formatMoney(amount: string, currencyCode: string, locale?: string): string {
  const n = Number(amount);
  if (!Number.isFinite(n)) return `${amount} ${currencyCode}`.trim();
  const known = CURRENCIES[currencyCode];
  const fast = known && (locale === undefined || locale === "en" || locale === "en-US") ? englishMoney(n, known) : null;
  if (fast !== null) return fast;
  try {
    return numberFormat(locale, { style: "currency", currency: currencyCode }).format(n);
  } catch {
    return `${n.toFixed(2)} ${currencyCode}`;
  }
}

/** A card's price: one amount, or "From …" when variants differ. */
export function formatPriceRange(range: ProductCard["priceRange"], locale?: string): string {
  const min = range.minVariantPrice;
  const max = range.maxVariantPrice;
  const minText = formatMoney(min.amount, min.currencyCode, locale);
  if (Number(min.amount) === Number(max.amount) && min.currencyCode === max.currencyCode) return minText;
  return `From ${minText}`;
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** Valid, distinct colour swatches (as lowercase `#hex`), at most `max`, and how many more there are. */
export function swatchColors(hexes: readonly string[], max: number = CARD_MAX_SWATCHES): { colors: string[]; extra: number } {
  const seen: string[] = [];
  for (const raw of hexes) {
    const m = HEX.exec(raw.trim());
    if (!m) continue;
    const hex = `#${m[1].toLowerCase()}`;
    if (!seen.includes(hex)) seen.push(hex);
  }
  return { colors: seen.slice(0, max), extra: Math.max(0, seen.length - max) };
}

/** The alt text of a product image: its alt text, else the product title. */
export function imageAlt(product: Pick<ProductCard, "title" | "featuredImage">): string {
  const alt = product.featuredImage?.altText?.trim();
  return alt || product.title;
}
