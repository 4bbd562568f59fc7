/**
 * Gender-aware routing rules (SPEC §2), as pure functions of paths and query strings.
 *
 * Paths: `/`, `/stores`, `/mens`, `/womens`, `/mens/stores`, `/womens/stores` and anything else.
 * - A saved preference of menswear or womenswear redirects `/` and `/stores` to the gendered path.
 * - Switching the preference strips a `/mens` or `/womens` prefix and re-adds one only when the
 *   rest is the root or `/stores`.
 * - The search term lives in `?search=` and is cleared on every path change.
 */
import type { TargetGender } from "~/contract";
import { SEARCH_PARAM } from "./constants";

export type Gender = TargetGender;

const PREFIXES = { menswear: "/mens", womenswear: "/womens" } as const;

/** Collapses repeated slashes, ensures a leading slash and drops a trailing one (root stays `/`). */
export function normalizePath(path: string): string {
  let p = (path || "/").replace(/\/{2,}/g, "/");
  if (!p.startsWith("/")) p = `/${p}`;
  if (p.length > 1) p = p.replace(/\/+$/, "");
  return p || "/";
}

/** The gender a path's first segment names: `/mens…` → menswear, `/womens…` → womenswear. */
export function genderFromPath(path: string): Exclude<Gender, "both"> | null {
  const p = normalizePath(path);
  if (p === "/mens" || p.startsWith("/mens/")) return "menswear";
  if (p === "/womens" || p.startsWith("/womens/")) return "womenswear";
  return null;
}

/** The path without its `/mens` or `/womens` prefix (`/mens/stores` → `/stores`, `/mens` → `/`). */
export function stripGenderPrefix(path: string): string {
  const p = normalizePath(path);
  const g = genderFromPath(p);
  if (!g) return p;
  return normalizePath(p.slice(PREFIXES[g].length));
}

/** The prefix a gender puts in front of the root and `/stores`. */
export function genderPrefix(gender: Gender): string {
  return gender === "both" ? "" : PREFIXES[gender];
}

/** Whether a prefix-free path is one that carries a gender prefix: the root or `/stores`. */
export function isGenderedBase(path: string): boolean {
  const p = normalizePath(path);
  return p === "/" || p === "/stores";
}

/** The path after switching the preference to `gender` (SPEC §2). */
export function pathForGender(path: string, gender: Gender): string {
  const rest = stripGenderPrefix(path);
  if (!isGenderedBase(rest)) return rest;
  return normalizePath(`${genderPrefix(gender)}${rest}`);
}

/**
 * Where a visitor should be redirected given the saved preference, or null for no redirect.
 * Only `/` and `/stores` redirect, and only for menswear or womenswear.
 */
export function redirectForPreference(path: string, saved: Gender): string | null {
  if (saved === "both") return null;
  const p = normalizePath(path);
  if (!isGenderedBase(p)) return null;
  const target = pathForGender(p, saved);
  return target === p ? null : target;
}

/** The home path (product grid) for a gender: `/`, `/mens` or `/womens`. */
export function homePathFor(gender: Gender): string {
  return pathForGender("/", gender);
}

/** The stores path for a gender: `/stores`, `/mens/stores` or `/womens/stores`. */
export function storesPathFor(gender: Gender): string {
  return pathForGender("/stores", gender);
}

/** Whether a path shows the home product grid. */
export function isHomePath(path: string): boolean {
  return stripGenderPrefix(path) === "/";
}

/** The search term from a query string (`?search=…` or a URLSearchParams), trimmed; "" when absent. */
export function readSearchTerm(search: string | URLSearchParams): string {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  return (params.get(SEARCH_PARAM) ?? "").trim();
}

/** The query string with the search term set (or removed when blank); other parameters kept. Returns "" or "?…". */
export function withSearchTerm(search: string, term: string): string {
  const params = new URLSearchParams(search);
  const t = term.trim();
  if (t) params.set(SEARCH_PARAM, t);
  else params.delete(SEARCH_PARAM);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** Whether moving from one path to another is a path change (which clears the search term). */
export function isPathChange(from: string, to: string): boolean {
  return normalizePath(from) !== normalizePath(to);
}

/**
 * The query string to use after navigating from `fromPath` to `toPath`: on a path change the
 * search term is dropped, other parameters are kept; on the same path it is left alone.
 */
export function searchAfterNavigation(fromPath: string, toPath: string, toSearch: string): string {
  if (isPathChange(fromPath, toPath)) return withSearchTerm(toSearch, "");
  const q = new URLSearchParams(toSearch).toString();
  return q ? `?${q}` : "";
}

export interface LocationLike {
  pathname: string;
  search: string;
}

/** The location after switching the preference: the rewritten path, and no search term if the path changed. */
export function switchGenderLocation(location: LocationLike, gender: Gender): LocationLike {
  const pathname = pathForGender(location.pathname, gender);
  return { pathname, search: searchAfterNavigation(location.pathname, pathname, location.search) };
}
