/**
 * Vector arithmetic shared by the adapters: L2 normalisation and an exact cosine top-K over a
 * packed Float32Array matrix (rows normalised once, so cosine is a dot product).
 */

/** A unit-length copy (Float32), or null for a zero / non-finite vector. */
export function normalised(values: ArrayLike<number>): Float32Array | null {
  const out = new Float32Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) return null;
    sum += v * v;
  }
  if (sum === 0) return null;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < values.length; i++) out[i] = values[i] * inv;
  return out;
}

export interface PackedVectors {
  dims: number;
  ids: string[];
  /** rows × dims, each row unit length. */
  matrix: Float32Array;
}

/** Packs vectors of one dimension (others are skipped) into a normalised matrix. */
export function pack(rows: { id: string; values: ArrayLike<number> }[], dims: number): PackedVectors {
  const ids: string[] = [];
  const matrix = new Float32Array(rows.length * dims);
  for (const r of rows) {
    if (r.values.length !== dims) continue;
    const n = normalised(r.values);
    if (!n) continue;
    matrix.set(n, ids.length * dims);
    ids.push(r.id);
  }
  return { dims, ids, matrix: matrix.subarray(0, ids.length * dims) };
}

/**
 * The k best rows by cosine to `query` (already normalised), among rows `accept` lets through.
 * A small sorted buffer keeps it O(n·d + n·k) without sorting every score.
 */
export function topKCosine(packed: PackedVectors, query: Float32Array, k: number, accept: (row: number) => boolean): { row: number; score: number }[] {
  const { dims, matrix } = packed;
  const best: { row: number; score: number }[] = [];
  if (k <= 0 || query.length !== dims) return best;
  const n = packed.ids.length;
  for (let r = 0; r < n; r++) {
    if (!accept(r)) continue;
    let dot = 0;
    const off = r * dims;
    for (let i = 0; i < dims; i++) dot += matrix[off + i] * query[i];
    if (best.length === k && dot <= best[k - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score < dot) at--;
    best.splice(at, 0, { row: r, score: dot });
    if (best.length > k) best.pop();
  }
  return best;
}

/** Rounds a score for answers (4 decimals is plenty and keeps JSON small). */
export const roundScore = (s: number) => Math.round(Math.max(-1, Math.min(1, s)) * 1e4) / 1e4;
