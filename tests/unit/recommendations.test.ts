import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  DECAY_EPOCH_MS,
  HALF_LIFE_DAYS,
  MAX_EXPONENT,
  decayExponent,
  decayedValue,
  eventWeight,
  saturationDate,
} from "../../app/services/recommendations/decay";
import {
  decodeRandomCursor,
  encodeRandomCursor,
  fmix32,
  fnv1a32,
  nextInSeededOrder,
  productKey,
  seedHash,
  seededKey,
  unitHash,
  type KeyedEntry,
} from "../../app/services/recommendations/random-order";
import {
  BLEND_WEIGHTS,
  blend,
  complementFactor,
  dayKey,
  genderFromInterests,
  gendersFor,
  interestTerms,
  interleaveByGroup,
  typeGroup,
  type Signals,
} from "../../app/services/recommendations/scoring";
import { meanVector } from "../../app/services/recommendations/for-you.server";
import { typeSimilarity } from "../../app/services/similar-products.server";

const at = (iso: string) => new Date(iso).getTime();

describe("decay weights", () => {
  it("weigh an event 1 at the epoch and halve per half-life back in time", () => {
    expect(eventWeight(DECAY_EPOCH_MS, "view")).toBe(1);
    const now = at("2026-11-22T00:00:00Z");
    const w = eventWeight(now, "view");
    expect(eventWeight(now - HALF_LIFE_DAYS.view * DAY_MS, "view") / w).toBeCloseTo(0.5, 12);
    expect(eventWeight(now - 2 * HALF_LIFE_DAYS.purchase * DAY_MS, "purchase") / eventWeight(now, "purchase")).toBeCloseTo(0.25, 12);
    expect(eventWeight(now, "purchase", 3)).toBeCloseTo(3 * eventWeight(now, "purchase"), 9);
  });

  it("order by stored score is order by decayed score: older views weigh less", () => {
    const now = at("2026-11-22T00:00:00Z");
    // Three views two months ago against two views today.
    const old = 3 * eventWeight(now - 60 * DAY_MS, "view");
    const fresh = 2 * eventWeight(now, "view");
    expect(fresh).toBeGreaterThan(old);
    expect(decayedValue(fresh, "view", now)).toBeCloseTo(2, 9);
    expect(decayedValue(old, "view", now)).toBeCloseTo(3 / 2 ** (60 / 14), 9);
    // The same order later on: the divisor is shared.
    const later = now + 100 * DAY_MS;
    expect(decayedValue(fresh, "view", later)).toBeGreaterThan(decayedValue(old, "view", later));
  });

  it("never overflows, even centuries ahead; saturation is decades away", () => {
    for (const kind of Object.keys(HALF_LIFE_DAYS) as (keyof typeof HALF_LIFE_DAYS)[]) {
      const far = at("2600-01-01T00:00:00Z");
      expect(decayExponent(far, kind)).toBe(MAX_EXPONENT);
      const w = eventWeight(far, kind, 1000);
      expect(Number.isFinite(w)).toBe(true);
      // A billion such events still fit in a double.
      expect(Number.isFinite(w * 1e9)).toBe(true);
      expect(eventWeight(at("1900-01-01T00:00:00Z"), kind)).toBeGreaterThan(0);
      expect(saturationDate(kind).getUTCFullYear()).toBeGreaterThanOrEqual(2062);
    }
    expect(saturationDate("view").toISOString().slice(0, 7)).toBe("2062-10");
    expect(Number.isFinite(eventWeight(at("2062-01-01T00:00:00Z"), "view"))).toBe(true);
    expect(() => decayExponent(Number.NaN, "view")).toThrow(/invalid time/);
  });
});

describe("random order", () => {
  const entries: KeyedEntry[] = Array.from({ length: 500 }, (_, i) => ({ id: `gid://shopify/Product/${1000 + i}`, key: productKey(`gid://shopify/Product/${1000 + i}`) }));

  const walk = (seed: string, limit: number, accept?: (e: KeyedEntry) => boolean) => {
    const s = seedHash(seed);
    const out: string[] = [];
    let after: { k: number; i: string } | null = null;
    for (let guard = 0; guard < 1000; guard++) {
      const page: { entry: KeyedEntry; k: number }[] = nextInSeededOrder(entries, s, after, limit, accept);
      if (!page.length) break;
      out.push(...page.map((p) => p.entry.id));
      const last = page[page.length - 1];
      after = { k: last.k, i: last.entry.id };
    }
    return out;
  };

  it("fnv1a32 and fmix32 are the reference functions", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fmix32(0)).toBe(0);
    // fmix32 is a bijection: no collisions over a sample.
    const seen = new Set<number>();
    for (let i = 0; i < 100_000; i++) seen.add(fmix32(i * 2654435761));
    expect(seen.size).toBe(100_000);
  });

  it("pages never repeat, cover everything, and the same seed gives the same order", () => {
    const a = walk("session-1", 7);
    expect(a).toHaveLength(entries.length);
    expect(new Set(a).size).toBe(entries.length);
    expect(walk("session-1", 7)).toEqual(a);
    // Page size does not change the order.
    expect(walk("session-1", 50)).toEqual(a);
  });

  it("different seeds give different orders", () => {
    const a = walk("session-1", 20);
    const b = walk("session-2", 20);
    expect(b).not.toEqual(a);
    // Not a rotation of each other: the first 20 barely overlap.
    const overlap = a.slice(0, 20).filter((id) => b.slice(0, 20).includes(id)).length;
    expect(overlap).toBeLessThan(8);
  });

  it("filters without breaking the order, and keeps the order when entries come and go", () => {
    const even = (e: KeyedEntry) => Number(e.id.slice(-1)) % 2 === 0;
    const all = walk("s", 9);
    expect(walk("s", 9, even)).toEqual(all.filter((id) => even({ id, key: 0 })));
    // A product added between pages lands in its place; nothing shown repeats.
    const s = seedHash("s");
    const first = nextInSeededOrder(entries, s, null, 10);
    const last = first[first.length - 1];
    const extra = [...entries, { id: "gid://shopify/Product/99999", key: productKey("gid://shopify/Product/99999") }];
    const second = nextInSeededOrder(extra, s, { k: last.k, i: last.entry.id }, 10);
    for (const p of second) expect(first.map((f) => f.entry.id)).not.toContain(p.entry.id);
    expect(seededKey(productKey(second[0].entry.id), s)).toBeGreaterThanOrEqual(last.k);
  });

  it("cursors round-trip and reject anything else", () => {
    const c = { s: seedHash("x"), k: 123456, i: "gid://shopify/Product/1" };
    expect(decodeRandomCursor(encodeRandomCursor(c))).toEqual(c);
    expect(decodeRandomCursor("not-a-cursor")).toBeNull();
    expect(decodeRandomCursor(Buffer.from(JSON.stringify({ s: -1, k: 1, i: "a" })).toString("base64url"))).toBeNull();
    expect(decodeRandomCursor(Buffer.from(JSON.stringify({ s: 1, k: 1.5, i: "a" })).toString("base64url"))).toBeNull();
  });

  it("unitHash is a stable number in [0, 1)", () => {
    const v = unitHash("gid://shopify/Product/1", "user:2026-11-22");
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThan(1);
    expect(unitHash("gid://shopify/Product/1", "user:2026-11-22")).toBe(v);
    expect(unitHash("gid://shopify/Product/1", "user:2026-11-23")).not.toBe(v);
  });
});

describe("scoring", () => {
  it("reads the gender preference from interests (SPEC §4) and the other interests", () => {
    expect(genderFromInterests("womenswear,minimalist")).toBe("womenswear");
    expect(genderFromInterests("menswear, streetwear")).toBe("menswear");
    expect(genderFromInterests("menswear,womenswear,outdoor")).toBe("both");
    expect(genderFromInterests("")).toBe("both");
    expect(genderFromInterests(undefined)).toBe("both");
    expect(interestTerms("Womenswear, Minimalist,,smart-casual,minimalist")).toEqual(["minimalist", "smart-casual"]);
    expect(gendersFor("menswear")).toEqual(["menswear", "both"]);
    expect(gendersFor("both")).toEqual(["menswear", "womenswear", "both"]);
  });

  it("knows which types complete an outfit", () => {
    expect(typeGroup("T-Shirts")).toBe("tops");
    expect(typeGroup("Jeans")).toBe("bottoms");
    expect(typeGroup("Sneakers")).toBe("footwear");
    expect(complementFactor("T-Shirts", "Jeans")).toBe(1);
    expect(complementFactor("T-Shirts", "Coats")).toBe(1);
    expect(complementFactor("T-Shirts", "Polos")).toBeLessThan(0.5);
    expect(complementFactor("Dresses", "Skirts")).toBeLessThan(0.5);
    expect(complementFactor("Dresses", "Sneakers")).toBe(1);
    expect(complementFactor("Gadgets", "Jeans")).toBe(0.5);
  });

  it("puts every product-type family in the group that attribute similarity uses", () => {
    const groups: Record<string, string[]> = {
      tops: ["T-Shirts", "Polos", "Shirts", "Knitwear", "Hoodies & Sweatshirts"],
      outerwear: ["Jackets", "Coats", "Blazers"],
      bottoms: ["Jeans", "Trousers", "Shorts", "Skirts"],
      dresses: ["Dresses"],
      accessories: ["Bags"],
      footwear: ["Sneakers"],
      other: ["Gadgets"],
    };
    for (const [group, types] of Object.entries(groups)) {
      for (const t of types) expect(typeGroup(t), t).toBe(group);
      // same group, different family: the group tier of typeSimilarity (0.5); "other" never matches
      if (types.length > 1) for (const t of types.slice(1)) expect(typeSimilarity(types[0], t), `${types[0]} ~ ${t}`).toBe(0.5);
    }
    expect(typeSimilarity("Gadgets", "Widgets")).toBe(0);
    expect(typeSimilarity("Jeans", "Coats")).toBe(0);
  });

  it("interleaves groups round-robin", () => {
    const items = ["b1", "b2", "b3", "o1", "f1", "f2"].map((id) => ({ id, g: id[0] }));
    expect(interleaveByGroup(items, (i) => i.g, ["b", "o", "f"]).map((i) => i.id)).toEqual(["b1", "o1", "f1", "b2", "f2", "b3"]);
  });

  it("blends weighted signals, demotes saved and viewed products, and is deterministic per seed", () => {
    const c = new Map<string, Signals>([
      ["a", { coView: 1 }],
      ["b", { popular: 1 }],
      ["c", { store: 1, interest: 1 }],
      ["d", { coPurchase: 1 }],
      ["saved", { coView: 1, coPurchase: 1 }],
    ]);
    const r = blend(c, { jitterSeed: "u:2026-11-22", demoted: new Set(["saved"]) });
    expect(r.map((x) => x.id)).toEqual(["c", "d", "a", "b", "saved"]);
    expect(r.find((x) => x.id === "c")!.reason).toBe("interest");
    expect(r.find((x) => x.id === "saved")!.demoted).toBe(true);
    expect(blend(c, { jitterSeed: "u:2026-11-22", demoted: new Set(["saved"]) })).toEqual(r);
    // Values are clamped to [0, 1].
    const big = blend(new Map([["x", { coView: 7 }]]), { jitterSeed: "s" })[0];
    expect(big.score).toBeLessThanOrEqual(BLEND_WEIGHTS.coView + 0.08);
    expect(dayKey(new Date("2026-11-22T23:59:59Z"))).toBe("2026-11-22");
  });

  it("averages taste vectors of the common dimension", () => {
    expect(meanVector([])).toBeNull();
    expect(meanVector([[3, 4], [0, 5], [1, 2, 3]])).toEqual([expect.closeTo(0.3162, 3), expect.closeTo(0.9487, 3)]);
    expect(meanVector([[1, 0], [-1, 0]])).toBeNull();
  });
});
