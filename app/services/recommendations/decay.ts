/**
 * Time decay of recommendation scores, without ever rewriting old rows.
 *
 * An event at time t is stored as the weight 2^((t − EPOCH) / half-life). Every stored score is a
 * sum of such weights, so at any moment `now` the decayed score is `stored / 2^((now − EPOCH) /
 * half-life)`: the same divisor for every row. Ordering by the stored column is therefore ordering
 * by the decayed score, and a plain B-tree index on the column serves "most viewed right now".
 *
 * Constants (README, "Recommendations"):
 * - EPOCH 2026-01-01T00:00:00Z.
 * - Half-lives: product views 14 days, purchases 30 days, "viewed together" 60 days, "bought
 *   together" 120 days (pairs are rarer and stay meaningful longer).
 * - Overflow guard: the exponent is clamped to [−960, 960]. A double holds up to 2^1024, so a sum
 *   of 2^64 events of the largest weight still fits. With a 14-day half-life the clamp is reached
 *   in October 2062 (purchases: 2104, pairs: 2183 and 2341). Past that date new events stop
 *   outweighing old ones (scores degrade to plain counts) but nothing overflows; moving EPOCH
 *   forward and running the `recommendations.rebuild` job re-bases every score from the events.
 */
export const DECAY_EPOCH_MS = Date.UTC(2026, 0, 1);
export const DAY_MS = 86_400_000;

export const HALF_LIFE_DAYS = {
  /** ProductPopularity.view_score */
  view: 14,
  /** ProductPopularity.purchase_score (weighted by units) */
  purchase: 30,
  /** ProductCoOccurrence kind "view" */
  coView: 60,
  /** ProductCoOccurrence kind "purchase" */
  coPurchase: 120,
} as const;
export type DecayKind = keyof typeof HALF_LIFE_DAYS;

export const MAX_EXPONENT = 960;
export const MIN_EXPONENT = -960;

const toMs = (t: Date | number) => (typeof t === "number" ? t : t.getTime());

/** (t − EPOCH) / half-life, clamped to [MIN_EXPONENT, MAX_EXPONENT]. */
export function decayExponent(t: Date | number, kind: DecayKind): number {
  const x = (toMs(t) - DECAY_EPOCH_MS) / (HALF_LIFE_DAYS[kind] * DAY_MS);
  if (!Number.isFinite(x)) throw new Error(`decayExponent: invalid time ${String(t)}`);
  return Math.min(MAX_EXPONENT, Math.max(MIN_EXPONENT, x));
}

/** The stored weight of `units` events at time t. */
export function eventWeight(t: Date | number, kind: DecayKind, units = 1): number {
  return units * 2 ** decayExponent(t, kind);
}

/**
 * A stored score read at `now`: the number of "fresh event equivalents" (an event right now
 * counts 1, one half-life ago ½, …). For display and for blending scores of different kinds.
 */
export function decayedValue(stored: number, kind: DecayKind, now: Date | number = Date.now()): number {
  if (!stored) return 0;
  return stored / 2 ** decayExponent(now, kind);
}

/** The moment the exponent of a kind reaches MAX_EXPONENT (documentation, health checks). */
export function saturationDate(kind: DecayKind): Date {
  return new Date(DECAY_EPOCH_MS + MAX_EXPONENT * HALF_LIFE_DAYS[kind] * DAY_MS);
}
