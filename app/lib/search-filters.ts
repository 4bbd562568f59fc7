/**
 * Search filters (pure): their canonical form, merging parsed filters into the caller's, and the
 * search id (a stable id of the normalised text and the effective filters, used by saved-search
 * notifications and cursors).
 */
import type { TargetGender } from "~/contract/common";

export interface SearchFilters {
  target_gender?: TargetGender;
  colors?: string[];
  materials?: string[];
  productTypes?: string[];
  sizes?: string[];
  storeIds?: string[];
  priceMin?: number;
  priceMax?: number;
  available?: boolean;
}

export type FilterKey = keyof SearchFilters;
export const LIST_KEYS = ["colors", "materials", "productTypes", "sizes", "storeIds"] as const satisfies readonly FilterKey[];
type ListKey = (typeof LIST_KEYS)[number];

/** List values compare without case; colours and materials are kept lower-cased, the others as first spelled. */
const foldCase: Record<ListKey, boolean> = { colors: true, materials: true, sizes: false, productTypes: false, storeIds: false };

function cleanList(values: readonly string[] | undefined, fold: boolean): string[] | undefined {
  if (!values) return undefined;
  const seen = new Map<string, string>();
  for (const raw of values) {
    const v = raw.trim().replace(/\s+/g, " ");
    if (!v) continue;
    const key = v.toLowerCase();
    if (!seen.has(key)) seen.set(key, fold ? key : v);
  }
  const out = [...seen.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out.length ? out : undefined;
}

/**
 * The canonical form: empty lists and neutral values dropped (gender "both" and `available:
 * false` restrict nothing), lists de-duplicated and sorted, prices swapped when min > max.
 */
export function canonicalFilters(f: SearchFilters | undefined): SearchFilters {
  if (!f) return {};
  const out: SearchFilters = {};
  if (f.target_gender && f.target_gender !== "both") out.target_gender = f.target_gender;
  for (const k of LIST_KEYS) {
    const v = cleanList(f[k], foldCase[k]);
    if (v) out[k] = v;
  }
  let min = typeof f.priceMin === "number" && Number.isFinite(f.priceMin) && f.priceMin > 0 ? f.priceMin : undefined;
  let max = typeof f.priceMax === "number" && Number.isFinite(f.priceMax) ? f.priceMax : undefined;
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  if (min !== undefined) out.priceMin = round2(min);
  if (max !== undefined) out.priceMax = round2(max);
  if (f.available === true) out.available = true;
  return out;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The caller's filters plus what parsing found: lists are united; a single value the caller set
 * (gender, a price bound, availability) wins over the parsed one.
 */
export function mergeFilters(explicit: SearchFilters | undefined, parsed: SearchFilters): SearchFilters {
  const e = explicit ?? {};
  const out: SearchFilters = { ...parsed, ...stripUndefined(e) };
  if (!e.target_gender || e.target_gender === "both") {
    if (parsed.target_gender) out.target_gender = parsed.target_gender;
  }
  for (const k of LIST_KEYS) {
    const merged = [...(e[k] ?? []), ...(parsed[k] ?? [])];
    if (merged.length) out[k] = merged;
  }
  return canonicalFilters(out);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Text as the search id sees it: lower case, accents off, punctuation and extra spaces out. */
export function normalizeSearchText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}$£€.+-]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** cyrb53: a fast 53-bit string hash (public domain). */
function cyrb53(str: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The stable id of a search: the same normalised text and effective filters give the same id. */
export function searchIdOf(text: string, filters: SearchFilters | undefined): string {
  const f = canonicalFilters(filters);
  const keys = Object.keys(f).sort() as FilterKey[];
  const value = (k: FilterKey) => {
    const v = f[k];
    return Array.isArray(v) ? v.map((x) => x.toLowerCase()).sort() : v;
  };
  const doc = JSON.stringify({ t: normalizeSearchText(text), f: keys.map((k) => [k, value(k)]) });
  const a = cyrb53(doc, 1).toString(36).padStart(11, "0");
  const b = cyrb53(doc, 2).toString(36).padStart(11, "0");
  return `s_${a}${b}`;
}
