/**
 * The subset of Shopify's search syntax (the `query` argument of `products`) the local endpoint
 * understands. Pure and isomorphic.
 *
 *   silk dress                  plain words: each must match title, product type, vendor or a tag
 *   "slip dress"                a quoted phrase is one word
 *   title:*linen*  title:lin*   field terms; `*` at either end is a wildcard
 *   product_type:Dresses  vendor:"Maison Test"  tag:summer  tag_not:sale
 *   available_for_sale:true     variants.price:>50  created_at:>=2025-01-01  updated_at:<2026-01-01
 *   -tag:sale  NOT vendor:x     negation
 *   a OR b                      alternatives (AND binds tighter; AND is implicit between terms)
 *
 * Parentheses are ignored (terms inside them join the surrounding expression).
 */

export type Comparator = "=" | ">" | ">=" | "<" | "<=";

export interface SearchTerm {
  /** Lower-case field name, or null for a plain word. */
  field: string | null;
  /** The value without quotes and without wildcards. */
  value: string;
  comparator: Comparator;
  negated: boolean;
  /** `*foo` / `foo*` / `*foo*`. */
  prefixWildcard: boolean;
  suffixWildcard: boolean;
}

/** An OR of AND-groups. An empty query has no groups. */
export interface SearchQuery {
  groups: SearchTerm[][];
}

export const KNOWN_FIELDS = new Set(["title", "product_type", "vendor", "tag", "tag_not", "available_for_sale", "variants.price", "created_at", "updated_at", "id", "handle"]);

function tokenize(input: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (/\s/.test(ch) || ch === "(" || ch === ")") {
      i++;
      continue;
    }
    let token = "";
    while (i < input.length && !/\s/.test(input[i]) && input[i] !== "(" && input[i] !== ")") {
      if (input[i] === '"' || input[i] === "'") {
        const quote = input[i];
        const end = input.indexOf(quote, i + 1);
        const stop = end === -1 ? input.length : end;
        token += `"${input.slice(i + 1, stop)}"`; // normalise to double quotes; parsed below
        i = stop + 1;
      } else {
        token += input[i++];
      }
    }
    if (token) tokens.push(token);
  }
  return tokens;
}

const unquote = (v: string) => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? { text: v.slice(1, -1), quoted: true } : { text: v, quoted: false });

function parseTerm(raw: string, negated: boolean): SearchTerm | null {
  let field: string | null = null;
  let rest = raw;
  const colon = raw.indexOf(":");
  if (colon > 0 && !raw.startsWith('"')) {
    const name = raw.slice(0, colon).toLowerCase();
    if (KNOWN_FIELDS.has(name)) {
      field = name;
      rest = raw.slice(colon + 1);
    }
  }
  let comparator: Comparator = "=";
  if (field) {
    const m = /^(>=|<=|>|<)/.exec(rest);
    if (m) {
      comparator = m[1] as Comparator;
      rest = rest.slice(m[1].length);
    }
  }
  const { text, quoted } = unquote(rest);
  let value = text;
  let prefixWildcard = false;
  let suffixWildcard = false;
  if (!quoted) {
    if (value.startsWith("*")) {
      prefixWildcard = true;
      value = value.replace(/^\*+/, "");
    }
    if (value.endsWith("*")) {
      suffixWildcard = true;
      value = value.replace(/\*+$/, "");
    }
  }
  value = value.trim();
  if (!value) return null;
  return { field, value, comparator, negated, prefixWildcard, suffixWildcard };
}

export function parseSearchQuery(input: string | null | undefined): SearchQuery {
  const groups: SearchTerm[][] = [];
  let current: SearchTerm[] = [];
  let negateNext = false;
  for (const token of tokenize(input ?? "")) {
    if (token === "OR") {
      if (current.length) groups.push(current);
      current = [];
      negateNext = false;
      continue;
    }
    if (token === "AND") continue;
    if (token === "NOT") {
      negateNext = true;
      continue;
    }
    let raw = token;
    let negated = negateNext;
    negateNext = false;
    if (raw.startsWith("-") && raw.length > 1) {
      negated = !negated;
      raw = raw.slice(1);
    }
    const term = parseTerm(raw, negated);
    if (term) current.push(term);
  }
  if (current.length) groups.push(current);
  return { groups };
}

/** The plain words of a query (for relevance ranking). */
export const plainWords = (q: SearchQuery) => q.groups.flat().filter((t) => !t.negated && (t.field === null || t.field === "title")).map((t) => t.value.toLowerCase());
