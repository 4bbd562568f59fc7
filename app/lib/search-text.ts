/**
 * Text helpers of the search engine (pure): normalising, tokenising, stop words, a light plural
 * stemmer, and the string distances used for typo correction.
 */

/** Lower case, accents removed ("Lumière" → "lumiere"), curly quotes straightened. */
export function normalizeText(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[‘’ʼ\x60´]/g, "'") // \x60 = backtick, escaped so import scanners do not read a template string opening here
    .toLowerCase();
}

export interface Token {
  /** As typed (punctuation around it removed). */
  raw: string;
  /** Normalised: lower case, no accents, no apostrophes; "&" becomes "and". */
  norm: string;
}

/** A token's normalised form: "Men's" → "mens", "&" → "and", "$50." → "$50". */
export function normalizeToken(raw: string): string {
  let t = normalizeText(raw).replace(/'/g, "");
  if (t === "&" || t === "+") return t === "&" ? "and" : t;
  t = t.replace(/^[.\-_*#~]+/, "").replace(/[.\-_*#~]+$/, "");
  return t;
}

/** Splits a query into tokens; keeps "t-shirt", "20-50", "$19.99", "eu 48" parts as tokens. */
export function tokenize(query: string): Token[] {
  const parts = query.match(/[^\s,;:!?()"“”«»\[\]{}|\\/]+/g) ?? [];
  const out: Token[] = [];
  for (const p of parts) {
    const raw = p.replace(/^[.'’]+|[.'’]+$/g, "");
    const norm = normalizeToken(raw);
    if (!norm) continue;
    out.push({ raw: raw || p, norm });
  }
  // "t shirt" → "t-shirt", so both spellings are one word.
  for (let i = 0; i < out.length - 1; i++) {
    if (out[i].norm === "t" && /^shirts?$/.test(out[i + 1].norm)) {
      out.splice(i, 2, { raw: `${out[i].raw}-${out[i + 1].raw}`, norm: `t-${out[i + 1].norm}` });
    }
  }
  return out;
}

/** English stop words (PostgreSQL's english configuration drops these too) plus search filler. */
export const STOP_WORDS = new Set(
  (
    "a an the and or but of in on at to for from by with without into onto over under about as is are was were be been being " +
    "it its this that these those i me my we our you your he she his her they them their what which who whom " +
    "do does did have has had not no nor so than too very can will just also any some all each every " +
    "am im ive id youre please show find get want need looking look search me us something anything " +
    "item items product products"
  ).split(" "),
);

/** Small words that glue parsed parts together ("shirts *for* men *under* 50"): dropped from the text left. */
export const GLUE_WORDS = new Set("a an the and or for in of with from by at to size sizes color colour colors colours".split(" "));

/** A light plural stemmer: "dresses" → "dress", "shirts" → "shirt", "hoodies" → "hoodie", "skies" → "sky". */
export function singular(w: string): string {
  if (w.length > 4 && /(sses|xes|ches|shes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith("ies") && !/(hoodies|cookies|movies|ties)$/.test(w)) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), stopping early
 * when it exceeds `max` (then answers max + 1).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/** The trigrams of a word as pg_trgm makes them (padded with two spaces before, one after). */
export function trigrams(word: string): Set<string> {
  const s = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

/** pg_trgm's similarity: shared trigrams over all distinct trigrams of both words. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}
