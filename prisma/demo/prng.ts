/**
 * Deterministic randomness for the demo data: a seeded mulberry32 generator plus helpers, and
 * uuid-shaped ids derived from a hash, so every seed run produces identical rows.
 */
import { createHash } from "node:crypto";

import { mulberry32, type Rng } from "../../app/lib/prng";

export { mulberry32, type Rng };

export class Random {
  readonly next: Rng;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  /** `n` distinct items (or all of them when fewer). */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.min(n, items.length));
  }
}

/** A uuid-shaped id (version 5 layout) derived from a namespace and a key: stable across runs. */
export function demoUuid(kind: string, key: string | number): string {
  const h = createHash("sha1").update(`fashion-discovery-demo:${kind}:${key}`).digest("hex");
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Cumulative weights for fast weighted picks among many items (binary search per pick). */
export function weightedPicker<T>(items: T[], weight: (t: T) => number): (rng: Random) => T {
  const cum: number[] = [];
  let total = 0;
  for (const it of items) {
    total += weight(it);
    cum.push(total);
  }
  return (rng) => {
    const r = rng.next() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return items[lo];
  };
}
