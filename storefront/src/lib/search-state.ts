/**
 * The search page's state lives in the address, so a search can be shared (pure functions).
 *
 *   ?search=red linen shirt   the term (SPEC §2; written by the header's search box)
 *   &sort=price-asc           relevance (default) | price-asc | price-desc | newest
 *   &page=2                   from 1 (omitted on the first page)
 *   &gender=womenswear        overrides the gender preference for this search
 *   &color=Red&color=Blue &size=M &type=Shirts &store=<id> &material=Linen   (repeatable)
 *   &price=50-100 (or 200-)   &instock=1
 *   &raw=1&q=shirt            a parsed chip was removed: the text left after parsing (`q`) is
 *                             searched without auto-parsing (skipAutoParsing) and the remaining
 *                             filters are explicit; `search` keeps the words the shopper typed
 *
 * A new term from the search box keeps the sort and drops the rest (`clearRefinements`).
 */
import type { SearchFiltersInput, SearchResponse } from "~/contract";
import type { Gender } from "./gender-routing";
import { PRODUCT_MODAL_PARAM } from "./product-path";
import { SEARCH_PARAM } from "./constants";

export type SearchSort = "Relevance" | "Price low to high" | "Price high to low" | "Newest";

/** The four sort options (SPEC §9), with their address slugs. */
export const SORT_OPTIONS: readonly { value: SearchSort; slug: string }[] = [
  { value: "Relevance", slug: "relevance" },
  { value: "Price low to high", slug: "price-asc" },
  { value: "Price high to low", slug: "price-desc" },
  { value: "Newest", slug: "newest" },
];

export const LIST_PARAMS = { colors: "color", sizes: "size", productTypes: "type", storeIds: "store", materials: "material" } as const;
export type ListFilterKey = keyof typeof LIST_PARAMS;
export const LIST_KEYS = Object.keys(LIST_PARAMS) as ListFilterKey[];

/** Parameters that refine a search (everything but the term, the sort and the modal). */
const REFINEMENT_PARAMS = ["page", "gender", "price", "instock", "raw", "q", ...Object.values(LIST_PARAMS)];

export interface SearchFilters {
  target_gender?: Gender;
  colors?: string[];
  sizes?: string[];
  productTypes?: string[];
  storeIds?: string[];
  materials?: string[];
  priceMin?: number;
  priceMax?: number;
  available?: boolean;
}

export interface SearchState {
  term: string;
  sort: SearchSort;
  page: number;
  /** The gender of this search: the address's override, else the preference. */
  gender: Gender;
  /** Whether the address overrides the preference. */
  genderOverride: boolean;
  /** Filters chosen on the page (facets) or kept after removing a parsed chip. */
  filters: SearchFilters;
  /** skipAutoParsing: search `text` as it is, with the explicit filters only. */
  raw: boolean;
  /** With `raw`: the text to search (what parsing left of the term). */
  text: string | null;
}

const GENDERS: readonly Gender[] = ["menswear", "womenswear", "both"];

function toParams(search: string | URLSearchParams): URLSearchParams {
  return new URLSearchParams(typeof search === "string" ? search : search.toString());
}

function finish(params: URLSearchParams): string {
  const s = params.toString();
  return s ? `?${s}` : "";
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function sortFromSlug(slug: string | null): SearchSort {
  return SORT_OPTIONS.find((o) => o.slug === slug)?.value ?? "Relevance";
}

export function slugForSort(sort: SearchSort): string {
  return SORT_OPTIONS.find((o) => o.value === sort)?.slug ?? "relevance";
}

/** The search state of an address, with the gender preference as the default gender. */
export function parseSearchState(search: string | URLSearchParams, preference: Gender): SearchState {
  const p = toParams(search);
  const page = Math.max(1, Math.floor(Number(p.get("page") ?? "1")) || 1);
  const g = p.get("gender");
  const override = !!g && (GENDERS as readonly string[]).includes(g);
  const filters: SearchFilters = {};
  for (const key of LIST_KEYS) {
    const values = [...new Set(p.getAll(LIST_PARAMS[key]).map((v) => v.trim()).filter(Boolean))];
    if (values.length) filters[key] = values;
  }
  const price = p.get("price");
  if (price) {
    const [min, max] = price.split("-");
    const lo = num(min);
    const hi = num(max);
    if (lo !== undefined) filters.priceMin = lo;
    if (hi !== undefined && (lo === undefined || hi >= lo)) filters.priceMax = hi;
  }
  if (p.get("instock") === "1") filters.available = true;
  return {
    term: (p.get(SEARCH_PARAM) ?? "").trim(),
    sort: sortFromSlug(p.get("sort")),
    page,
    gender: override ? (g as Gender) : preference,
    genderOverride: override,
    filters,
    raw: p.get("raw") === "1",
    text: p.get("raw") === "1" ? (p.get("q") ?? "").trim() : null,
  };
}

/** The body of `searchProducts` for a state and a page size. */
export function searchRequestBody(state: SearchState, limit: number) {
  const filters: SearchFiltersInput = {};
  if (state.gender !== "both" || state.genderOverride) filters.target_gender = state.gender;
  for (const key of LIST_KEYS) if (state.filters[key]?.length) filters[key] = state.filters[key];
  if (state.filters.priceMin !== undefined) filters.priceMin = state.filters.priceMin;
  if (state.filters.priceMax !== undefined) filters.priceMax = state.filters.priceMax;
  if (state.filters.available) filters.available = true;
  return {
    query: state.raw && state.text !== null ? state.text : state.term,
    page: state.page,
    limit,
    sort: state.sort,
    filters,
    skipAutoParsing: state.raw,
  };
}

/** The address after a new term from the search box: the sort stays, refinements and the page go. */
export function clearRefinements(search: string): string {
  const p = toParams(search);
  for (const k of REFINEMENT_PARAMS) p.delete(k);
  p.delete(PRODUCT_MODAL_PARAM);
  return finish(p);
}

/** The address with another sort (back to page 1). */
export function withSort(search: string, sort: SearchSort): string {
  const p = toParams(search);
  if (sort === "Relevance") p.delete("sort");
  else p.set("sort", slugForSort(sort));
  p.delete("page");
  return finish(p);
}

/** The address on another page (1 is omitted). */
export function withPage(search: string, page: number): string {
  const p = toParams(search);
  if (page <= 1) p.delete("page");
  else p.set("page", String(Math.floor(page)));
  return finish(p);
}

/** The address with a list filter value toggled (back to page 1). */
export function withListValueToggled(search: string, key: ListFilterKey, value: string): string {
  const p = toParams(search);
  const name = LIST_PARAMS[key];
  const values = p.getAll(name);
  p.delete(name);
  const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  for (const v of next) p.append(name, v);
  p.delete("page");
  return finish(p);
}

/** The address with a price range (null clears it; back to page 1). */
export function withPrice(search: string, range: { min: number; max: number | null } | null): string {
  const p = toParams(search);
  if (range) p.set("price", `${range.min}-${range.max ?? ""}`);
  else p.delete("price");
  p.delete("page");
  return finish(p);
}

export function withInStock(search: string, on: boolean): string {
  const p = toParams(search);
  if (on) p.set("instock", "1");
  else p.delete("instock");
  p.delete("page");
  return finish(p);
}

/** The address with the gender of this search (null: back to the preference). */
export function withGender(search: string, gender: Gender | null): string {
  const p = toParams(search);
  if (gender) p.set("gender", gender);
  else p.delete("gender");
  p.delete("page");
  return finish(p);
}

export type ParsedChip = SearchResponse["filters"]["parsed"][number];
export type AppliedFilters = SearchResponse["filters"]["applied"];

/** Whether a chip stands for this value of the applied filters. */
function chipMatches(chip: ParsedChip, key: string, value: unknown): boolean {
  return chip.key === key && String(chip.value).toLowerCase() === String(value).toLowerCase();
}

/**
 * The address after removing a parsed chip: the text the server left after parsing is searched
 * with auto-parsing off, and every other applied filter becomes explicit (SPEC: removing a chip
 * resubmits with skipAutoParsing and the remaining filters). The typed term stays in `search`.
 */
export function withoutParsedChip(search: string, answer: Pick<SearchResponse, "filters" | "query">, chip: ParsedChip, preference: Gender): string {
  const p = toParams(search);
  for (const k of REFINEMENT_PARAMS) p.delete(k);
  p.delete(PRODUCT_MODAL_PARAM);
  p.set("raw", "1");
  p.set("q", answer.query.text.trim());
  const a = answer.filters.applied;
  if (a.target_gender && !chipMatches(chip, "target_gender", a.target_gender)) {
    if (a.target_gender !== preference) p.set("gender", a.target_gender);
  } else if (chip.key === "target_gender" && preference !== "both") {
    // Removing the gender the words asked for: every gender, not the preference.
    p.set("gender", "both");
  }
  for (const key of LIST_KEYS) for (const v of a[key] ?? []) if (!chipMatches(chip, key, v)) p.append(LIST_PARAMS[key], v);
  const min = a.priceMin !== undefined && !chipMatches(chip, "priceMin", a.priceMin) ? a.priceMin : undefined;
  const max = a.priceMax !== undefined && !chipMatches(chip, "priceMax", a.priceMax) ? a.priceMax : undefined;
  if (min !== undefined || max !== undefined) p.set("price", `${min ?? 0}-${max ?? ""}`);
  if (a.available && !chipMatches(chip, "available", a.available)) p.set("instock", "1");
  return finish(p);
}

/**
 * The address without any filter: the parsed ones go too (the text left after parsing is searched
 * without auto-parsing); the term and the sort stay.
 */
export function withoutAllFilters(search: string, answer: Pick<SearchResponse, "filters" | "query"> | null | undefined): string {
  const cleared = clearRefinements(search);
  if (!answer || answer.filters.parsed.length === 0) return cleared;
  const p = toParams(cleared);
  p.set("raw", "1");
  p.set("q", answer.query.text.trim());
  return finish(p);
}

/** The address without one of the page's own filters (an active-filter chip). */
export function withoutFilter(search: string, key: keyof SearchFilters | "price", value?: string): string {
  if (key === "priceMin" || key === "priceMax" || key === "price") return withPrice(search, null);
  if (key === "available") return withInStock(search, false);
  if (key === "target_gender") return withGender(search, null);
  const p = toParams(search);
  const name = LIST_PARAMS[key];
  const rest = p.getAll(name).filter((v) => v !== value);
  p.delete(name);
  for (const v of rest) p.append(name, v);
  p.delete("page");
  return finish(p);
}

/** The pages to offer: first, last, and a window around the current one; null marks a gap. */
export function pageWindow(current: number, total: number, around = 1): (number | null)[] {
  if (total <= 1) return [1];
  const pages = new Set<number>([1, total]);
  for (let i = current - around; i <= current + around; i++) if (i >= 1 && i <= total) pages.add(i);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1] > 1) out.push(null);
    out.push(n);
  });
  return out;
}

/** Whether the state has filters chosen on the page. */
export function hasRefinements(state: SearchState): boolean {
  const f = state.filters;
  return state.genderOverride || LIST_KEYS.some((k) => (f[k]?.length ?? 0) > 0) || f.priceMin !== undefined || f.priceMax !== undefined || !!f.available;
}
