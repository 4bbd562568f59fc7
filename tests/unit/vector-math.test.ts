/** The exact cosine top-K used by the exact vector index (app/providers/vector-index/math.ts). */
import { describe, expect, it } from "vitest";
import { normalised, pack, roundScore, topKCosine } from "../../app/providers/vector-index/math";

describe("vector math", () => {
  it("normalises, refusing zero and non-finite vectors", () => {
    expect(Array.from(normalised([3, 4])!)).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(normalised([0, 0])).toBeNull();
    expect(normalised([1, Number.NaN])).toBeNull();
  });

  it("packs rows of one dimension and finds the top K by cosine, best first", () => {
    const rows = [
      { id: "a", values: [1, 0, 0] },
      { id: "b", values: [1, 1, 0] },
      { id: "c", values: [0, 1, 0] },
      { id: "d", values: [0, 0, 5] },
      { id: "short", values: [1, 0] },
      { id: "zero", values: [0, 0, 0] },
    ];
    const p = pack(rows, 3);
    expect(p.ids).toEqual(["a", "b", "c", "d"]);
    const q = normalised([1, 0.2, 0])!;
    const best = topKCosine(p, q, 2, () => true);
    expect(best.map((b) => p.ids[b.row])).toEqual(["a", "b"]);
    expect(best[0].score).toBeCloseTo(1 / Math.hypot(1, 0.2), 5);
    expect(topKCosine(p, q, 10, (r) => p.ids[r] !== "a").map((b) => p.ids[b.row])).toEqual(["b", "c", "d"]);
    expect(topKCosine(p, q, 0, () => true)).toEqual([]);
    expect(topKCosine(p, normalised([1, 0])!, 3, () => true)).toEqual([]);
  });

  it("agrees with a full sort on many random vectors", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: String(i), values: Array.from({ length: 16 }, rnd) }));
    const p = pack(rows, 16);
    const q = normalised(Array.from({ length: 16 }, rnd))!;
    const full = rows
      .map((r) => {
        const n = normalised(r.values)!;
        return { id: r.id, s: n.reduce((s, x, i) => s + x * q[i], 0) };
      })
      .sort((a, b) => b.s - a.s)
      .slice(0, 25)
      .map((x) => x.id);
    expect(topKCosine(p, q, 25, () => true).map((b) => p.ids[b.row])).toEqual(full);
  });

  it("rounds scores to 4 decimals within [-1, 1]", () => {
    expect(roundScore(0.123456)).toBe(0.1235);
    expect(roundScore(1.0000001)).toBe(1);
  });
});
