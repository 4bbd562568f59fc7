/**
 * The generated outfit's state machine (app/services/outfit-generations/state.ts): every allowed
 * transition, every forbidden one, progress per garment, §4's reading of the stored pair, and the
 * dressing order.
 */
import { describe, expect, it } from "vitest";
import {
  ALLOWED_FROM,
  OutfitTransitionError,
  PHASE_FIELDS,
  dressingOrder,
  garmentLayer,
  isDone,
  isInProgress,
  overallProgress,
  phaseOf,
  transition,
  type OutfitEvent,
  type OutfitPhase,
} from "../../app/services/outfit-generations/state";
import { outfitDone, outfitInProgress } from "../../storefront/src/lib/outfit-status";

const PHASES: OutfitPhase[] = ["queued", "rendering", "ready", "failed"];
const state = (phase: OutfitPhase, progress = phase === "ready" ? 100 : 30) => ({ ...PHASE_FIELDS[phase], processing_progress: progress });
const EVENTS: OutfitEvent[] = [{ type: "progress", garment: 1, total: 3, percent: 50 }, { type: "complete" }, { type: "fail" }, { type: "retry" }];

describe("outfit generation transitions", () => {
  const cases = PHASES.flatMap((from) => EVENTS.map((event) => ({ from, event, allowed: ALLOWED_FROM[event.type].includes(from) })));

  it("allows exactly: progress/complete/fail while queued or rendering, retry only when failed", () => {
    const allowed = cases.filter((c) => c.allowed).map((c) => `${c.from}:${c.event.type}`);
    expect(allowed.sort()).toEqual(["failed:retry", "queued:complete", "queued:fail", "queued:progress", "rendering:complete", "rendering:fail", "rendering:progress"]);
  });

  it.each(cases.filter((c) => !c.allowed).map((c) => [c.from, c.event.type, c.event] as const))("refuses %s → %s", (from, _t, event) => {
    expect(() => transition(state(from), event)).toThrow(OutfitTransitionError);
  });

  it("queued → rendering with the garment's share of progress; the pair is PROCESSING_IMAGES/PROCESSING", () => {
    const next = transition(state("queued", 0), { type: "progress", garment: 0, total: 2, percent: 50 });
    expect(next).toEqual({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PROCESSING", processing_progress: 25 });
    expect(phaseOf(next)).toBe("rendering");
  });

  it("rendering → rendering: next garment raises progress, a late lower report never lowers it", () => {
    const s = transition(state("rendering", 40), { type: "progress", garment: 1, total: 2, percent: 0 });
    expect(s.processing_progress).toBe(50);
    expect(transition(s, { type: "progress", garment: 0, total: 2, percent: 90 }).processing_progress).toBe(50);
  });

  it("→ ready is READY/COMPLETED at 100; → failed is ERROR/ERROR keeping progress; failed → queued at 0", () => {
    expect(transition(state("rendering"), { type: "complete" })).toEqual({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100 });
    expect(transition(state("queued", 0), { type: "complete" }).processing_status).toBe("READY");
    expect(transition(state("rendering", 60), { type: "fail" })).toEqual({ processing_status: "ERROR", outfit_generation_status: "ERROR", processing_progress: 60 });
    expect(transition(state("queued", 0), { type: "fail" }).outfit_generation_status).toBe("ERROR");
    expect(transition(state("failed", 60), { type: "retry" })).toEqual({ processing_status: "PENDING", outfit_generation_status: "PENDING", processing_progress: 0 });
  });

  it("every phase reads by SPEC §4 as the storefront's rule reads it", () => {
    for (const p of PHASES) {
      const s = state(p);
      expect(isInProgress(s)).toBe(p === "queued" || p === "rendering");
      expect(isDone(s)).toBe(p === "ready" || p === "failed");
      expect(outfitInProgress(s)).toBe(isInProgress(s));
      expect(outfitDone(s)).toBe(isDone(s));
    }
    // Mixed pairs the machine never writes still read by §4: either ERROR is done.
    expect(phaseOf({ processing_status: "READY", outfit_generation_status: "ERROR" })).toBe("failed");
    expect(phaseOf({ processing_status: "READY", outfit_generation_status: "PROCESSING" })).toBe("rendering");
  });

  it("overall progress stays within 0–99 while rendering", () => {
    expect(overallProgress(0, 1, 0)).toBe(0);
    expect(overallProgress(0, 1, 100)).toBe(99);
    expect(overallProgress(2, 3, 100)).toBe(99);
    expect(overallProgress(5, 3, 50)).toBe(83);
    expect(overallProgress(1, 4, 50)).toBe(37);
  });
});

describe("dressing order", () => {
  const item = (title: string, productType: string, category: "tops" | "bottoms" | "one-pieces") => ({ title, layer: garmentLayer({ title, productType }, category) });

  it("puts bottoms on first, then one-pieces, tops, and outerwear last, stable within a layer", () => {
    const items = [item("Wool coat", "Coats", "tops"), item("Tee", "T-Shirts", "tops"), item("Jeans", "Jeans", "bottoms"), item("Denim jacket", "Tops", "tops"), item("Shirt", "Shirts", "tops"), item("Slip dress", "Dresses", "one-pieces")];
    expect(dressingOrder(items).map((i) => i.title)).toEqual(["Jeans", "Slip dress", "Tee", "Shirt", "Wool coat", "Denim jacket"]);
  });

  it("outerwear is a top whose type or title names a coat, jacket, blazer, cardigan…", () => {
    expect(garmentLayer({ productType: "Blazers" }, "tops")).toBe("outerwear");
    expect(garmentLayer({ productType: "Knitwear", title: "Chunky cardigan" }, "tops")).toBe("outerwear");
    expect(garmentLayer({ productType: "Shirts", title: "Overshirt" }, "tops")).toBe("tops");
    expect(garmentLayer({ productType: "Jeans" }, "bottoms")).toBe("bottoms");
  });
});
