/**
 * Pure parts of the recommendation strategies: the gender preference from interests, interest
 * terms, complementary product types ("bought together"), and the for-you blend.
 */
import type { TargetGender } from "~/contract/common";
import { typeGroup, type TypeGroup } from "../similar-products.server";
import { unitHash } from "./random-order";

// ---------------------------------------------------------------------------------------------
// Interests (SPEC §3 metadata.interests, comma-separated) and the gender preference (SPEC §4)

const GENDER_TERMS = new Set(["menswear", "womenswear", "both", "unisex"]);

/** SPEC §4: exactly one of the two genders among the interests means that gender, otherwise both. */
export function genderFromInterests(interests: string | null | undefined): TargetGender {
  const terms = new Set(splitInterests(interests));
  const men = terms.has("menswear");
  const women = terms.has("womenswear");
  return men && !women ? "menswear" : women && !men ? "womenswear" : "both";
}

function splitInterests(interests: string | null | undefined): string[] {
  return (interests ?? "")
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
}

/** The interests that describe taste rather than gender ("womenswear,minimalist" → ["minimalist"]), at most 8. */
export function interestTerms(interests: string | null | undefined): string[] {
  return [...new Set(splitInterests(interests).filter((t) => !GENDER_TERMS.has(t) && t.length <= 40))].slice(0, 8);
}

/** Products of these genders suit a shopper with this preference ("both" products suit everyone). */
export function gendersFor(pref: TargetGender): TargetGender[] {
  return pref === "both" ? ["menswear", "womenswear", "both"] : [pref, "both"];
}

// ---------------------------------------------------------------------------------------------
// Product-type groups and complements (the groups are similar-products.server.ts', re-exported)

export { typeGroup, type TypeGroup };

/** What completes an outfit built around a group, in the order it is offered. */
export const COMPLEMENTS: Record<TypeGroup, TypeGroup[]> = {
  tops: ["bottoms", "outerwear", "footwear", "accessories"],
  bottoms: ["tops", "outerwear", "footwear", "accessories"],
  outerwear: ["tops", "bottoms", "footwear", "accessories"],
  dresses: ["outerwear", "footwear", "accessories"],
  footwear: ["bottoms", "tops", "dresses", "accessories"],
  accessories: ["tops", "bottoms", "dresses", "outerwear", "footwear"],
  other: ["tops", "bottoms", "outerwear", "dresses", "footwear", "accessories"],
};

/**
 * How well a candidate completes a source product: 1 for a complementary group, 0.35 for the same
 * group (a second tee is a weaker suggestion than trousers), 0.5 when either type is unknown.
 */
export function complementFactor(sourceType: string, candidateType: string): number {
  const a = typeGroup(sourceType);
  const b = typeGroup(candidateType);
  if (a === "other" || b === "other") return 0.5;
  if (COMPLEMENTS[a].includes(b)) return 1;
  return 0.35;
}

/** Round-robin over groups so a fill shows bottoms, outerwear, footwear… instead of ten bottoms. */
export function interleaveByGroup<T>(items: T[], groupOf: (t: T) => string, order: string[]): T[] {
  const buckets = new Map<string, T[]>();
  for (const it of items) {
    const g = groupOf(it);
    if (!buckets.has(g)) buckets.set(g, []);
    buckets.get(g)!.push(it);
  }
  const keys = [...order.filter((g) => buckets.has(g)), ...[...buckets.keys()].filter((g) => !order.includes(g))];
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round++) {
    for (const k of keys) {
      const b = buckets.get(k)!;
      if (round < b.length) out.push(b[round]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// For-you blend

/**
 * Weights of the for-you signals. Each signal is first normalised to [0, 1] within the request
 * (see the signal builders in for-you.server.ts); a candidate's score is the weighted sum, plus a
 * small per-user-per-day jitter that varies the feed from day to day and breaks ties.
 */
export const BLEND_WEIGHTS = {
  /** viewed together with the shopper's recent views and saved products */
  coView: 1.0,
  /** bought together with the shopper's saved or bought products */
  coPurchase: 1.2,
  /** close to the shopper's taste vector (ctx.vectors, "attributes"/"image") */
  vector: 0.9,
  /** new in a followed store */
  store: 0.6,
  /** matches an interest (tags, type, title) */
  interest: 0.7,
  /** popular with everyone (decayed views and purchases) */
  popular: 0.35,
} as const;
export const JITTER_WEIGHT = 0.08;

export type Signal = keyof typeof BLEND_WEIGHTS;
export type Signals = Partial<Record<Signal, number>>;

export interface Blended {
  id: string;
  score: number;
  /** The signal that contributed most. */
  reason: Signal;
  /** Saved or just viewed: shown only after everything else. */
  demoted: boolean;
}

export const dayKey = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Scores and orders candidates: weighted signals + jitter(user, day, product); demoted ones
 * (already saved or just viewed) go after all others. Deterministic for a user within a day.
 */
export function blend(candidates: Map<string, Signals>, opts: { jitterSeed: string; demoted?: ReadonlySet<string> }): Blended[] {
  const out: Blended[] = [];
  for (const [id, signals] of candidates) {
    let score = 0;
    let reason: Signal = "popular";
    let best = -1;
    for (const [name, value] of Object.entries(signals) as [Signal, number][]) {
      if (!value) continue;
      const contribution = BLEND_WEIGHTS[name] * Math.max(0, Math.min(1, value));
      score += contribution;
      if (contribution > best) {
        best = contribution;
        reason = name;
      }
    }
    score += JITTER_WEIGHT * unitHash(id, opts.jitterSeed);
    out.push({ id, score, reason, demoted: opts.demoted?.has(id) ?? false });
  }
  return out.sort((a, b) => Number(a.demoted) - Number(b.demoted) || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Adds `value` (normalised by `max`) to a candidate's signal, keeping the strongest contribution. */
export function addSignal(candidates: Map<string, Signals>, id: string, signal: Signal, value: number) {
  const s = candidates.get(id) ?? {};
  s[signal] = Math.max(s[signal] ?? 0, Math.max(0, Math.min(1, value)));
  candidates.set(id, s);
}
