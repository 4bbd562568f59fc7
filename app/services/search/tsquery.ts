/**
 * Builds PostgreSQL `to_tsquery` text from search terms (pure). Every lexeme is reduced to
 * letters, digits and inner hyphens and quoted, so user input can never inject tsquery syntax.
 */

export interface TermAlternatives {
  /** The words any of which may match this term (the typed one, its correction, synonyms). */
  words: string[];
  /** Also match words that begin with this (the last word of a query typed so far). */
  prefix?: string;
}

/** A safe quoted lexeme, or null when nothing searchable is left. */
export function lexeme(word: string): string | null {
  const w = word
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
  return w ? `'${w}'` : null;
}

function term(t: TermAlternatives): string | null {
  const parts = [...new Set(t.words.map(lexeme).filter((x): x is string => !!x))];
  const p = t.prefix ? lexeme(t.prefix.replace(/-/g, "")) : null;
  if (p && p.length >= 4) parts.push(`${p}:*`); // at least two characters between the quotes
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0] : `( ${parts.join(" | ")} )`;
}

/** `all`: every term must match (AND); `any`: one is enough (OR). Null when no term is searchable. */
export function buildTsQuery(terms: TermAlternatives[], mode: "all" | "any"): string | null {
  const parts = terms.map(term).filter((x): x is string => !!x);
  if (parts.length === 0) return null;
  return parts.join(mode === "all" ? " & " : " | ");
}

/** Any of the words (for ranking hints). */
export function anyOf(words: string[]): string | null {
  return buildTsQuery([{ words }], "any");
}
