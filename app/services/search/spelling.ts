/**
 * Typo correction (pure) against the catalogue's own words: a query word that neither the
 * catalogue nor the English vocabulary knows is replaced by the closest catalogue word within
 * a small edit distance (adjacent transpositions count one: "shrit" → "shirt"). The last word
 * of a query is left alone when it begins a catalogue word (prefix search: "jack" → jackets).
 */
import { editDistance, singular } from "~/lib/search-text";

export interface SpellingIndex {
  /** Catalogue word → how many products use it. */
  readonly freq: ReadonlyMap<string, number>;
  /** The words sorted, for prefix look-ups. */
  readonly sorted: readonly string[];
  /** Words by length. */
  readonly byLength: ReadonlyMap<number, readonly string[]>;
}

export function buildSpellingIndex(freq: ReadonlyMap<string, number>): SpellingIndex {
  const words = [...freq.keys()].filter((w) => /^[a-z][a-z-]*$/.test(w));
  const byLength = new Map<number, string[]>();
  for (const w of words) byLength.set(w.length, [...(byLength.get(w.length) ?? []), w]);
  return { freq, sorted: [...words].sort(), byLength };
}

/** Whether some catalogue word starts with `prefix`. */
export function hasPrefix(index: SpellingIndex, prefix: string): boolean {
  const a = index.sorted;
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo < a.length && a[lo].startsWith(prefix);
}

/** The closest catalogue word to `word` (edit distance 1 up to 4 letters, 2 from 5), or null. */
export function closestWord(index: SpellingIndex, word: string): string | null {
  const max = word.length <= 4 ? 1 : 2;
  let best: { w: string; d: number; first: boolean; f: number } | null = null;
  for (let len = word.length - max; len <= word.length + max; len++) {
    for (const w of index.byLength.get(len) ?? []) {
      const d = editDistance(word, w, max);
      if (d > max) continue;
      const cand = { w, d, first: w[0] === word[0], f: index.freq.get(w) ?? 0 };
      if (
        !best ||
        cand.d < best.d ||
        (cand.d === best.d && cand.first !== best.first && cand.first) ||
        (cand.d === best.d && cand.first === best.first && (cand.f > best.f || (cand.f === best.f && cand.w < best.w)))
      ) {
        best = cand;
      }
    }
  }
  return best?.w ?? null;
}

export interface Correction {
  /** Each term, corrected or as it was. */
  terms: string[];
  /** Whether any term changed. */
  changed: boolean;
  /** Term → its correction, for the terms that changed. */
  replaced: Map<string, string>;
}

/**
 * Corrects the terms of a query. `isKnownWord` tells words of the language that the catalogue
 * does not use (they are not typos: "jumper" stays "jumper").
 */
export function correctTerms(terms: readonly string[], index: SpellingIndex, isKnownWord: (w: string) => boolean = () => false): Correction {
  const replaced = new Map<string, string>();
  const out = terms.map((term, i) => {
    if (term.length < 3 || /[^a-z-]/.test(term)) return term;
    const known = (w: string) => index.freq.has(w) || isKnownWord(w);
    if (known(term) || known(singular(term))) return term;
    if (i === terms.length - 1 && hasPrefix(index, term)) return term;
    const fix = closestWord(index, term) ?? (singular(term) !== term ? closestWord(index, singular(term)) : null);
    if (!fix) return term;
    replaced.set(term, fix);
    return fix;
  });
  return { terms: out, changed: replaced.size > 0, replaced };
}
