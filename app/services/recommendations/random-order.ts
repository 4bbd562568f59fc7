/**
 * A stable random order of the catalogue per seed, paged by keyset (no ORDER BY random() or md5
 * over the table per request).
 *
 * Every product has a fixed 32-bit key, `productKey(id)` (FNV-1a of the id, then the murmur3
 * finaliser). A seed gives a second 32-bit number, and the product's place in that seed's order
 * is `seededKey = fmix32(productKey XOR seedHash)`: fmix32 is a bijection on 32-bit integers, so
 * each seed yields an independent-looking permutation. Ties (two ids with the same key) are broken
 * by the id, so (seededKey, id) is a total order. A page is "the `limit` smallest (seededKey, id)
 * strictly after the cursor": pages never repeat a product, and walking to the end covers every
 * product, even when products are added or hidden between pages.
 */

/** FNV-1a, 32 bits, over the UTF-16 code units of a string. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The murmur3 32-bit finaliser: a bijection with good avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export const productKey = (id: string) => fmix32(fnv1a32(id));
export const seedHash = (seed: string) => fmix32(fnv1a32(`seed:${seed}`));
export const seededKey = (key: number, seed: number) => fmix32((key ^ seed) >>> 0);

/** A number in [0, 1) derived from a product and a seed (deterministic jitter). */
export const unitHash = (id: string, seed: string) => seededKey(productKey(id), seedHash(seed)) / 4294967296;

export interface RandomPosition {
  /** seededKey of the last product shown */
  k: number;
  /** its id (tie-break) */
  i: string;
}
export interface RandomCursor extends RandomPosition {
  /** seedHash of the seed the cursor belongs to */
  s: number;
}

const u32 = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

export function encodeRandomCursor(c: RandomCursor): string {
  return Buffer.from(JSON.stringify({ s: c.s, k: c.k, i: c.i })).toString("base64url");
}

/** The cursor, or null when it is not one of ours. */
export function decodeRandomCursor(cursor: string): RandomCursor | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as Record<string, unknown>;
    if (u32(v.s) && u32(v.k) && typeof v.i === "string" && v.i.length > 0 && v.i.length <= 200) return { s: v.s, k: v.k, i: v.i };
  } catch {
    /* not ours */
  }
  return null;
}

const before = (ak: number, ai: string, bk: number, bi: string) => ak < bk || (ak === bk && ai < bi);

export interface KeyedEntry {
  id: string;
  key: number;
}

/**
 * The next `take` entries in the seed's order strictly after `after` (null: from the start),
 * among those `accept` keeps. One pass over the entries with a bounded sorted buffer:
 * O(n + take · log n) expected, no sort of the whole list.
 */
export function nextInSeededOrder<E extends KeyedEntry>(
  entries: readonly E[],
  seed: number,
  after: RandomPosition | null,
  take: number,
  accept: (e: E) => boolean = () => true,
): { entry: E; k: number }[] {
  const buf: { entry: E; k: number }[] = [];
  if (take <= 0) return buf;
  for (const e of entries) {
    const k = seededKey(e.key, seed);
    if (after && !before(after.k, after.i, k, e.id)) continue;
    if (buf.length === take) {
      const last = buf[take - 1];
      if (!before(k, e.id, last.k, last.entry.id)) continue;
    }
    if (!accept(e)) continue;
    // Insert in order (the buffer is short: ≤ take).
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(buf[mid].k, buf[mid].entry.id, k, e.id)) lo = mid + 1;
      else hi = mid;
    }
    buf.splice(lo, 0, { entry: e, k });
    if (buf.length > take) buf.pop();
  }
  return buf;
}
