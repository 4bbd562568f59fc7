/**
 * The life of a generated outfit (SPEC §3 "Outfit generation status", §4), as a pure state
 * machine so the service, its hooks and the tests share one rule.
 *
 * The spec names two fields; they move together here, so a reader of either alone (and of the
 * §4 in-progress / done rule) always gets the right answer:
 *
 *   queued     PENDING            / PENDING      progress 0        (in progress)
 *   rendering  PROCESSING_IMAGES  / PROCESSING   progress 0–99     (in progress)
 *   ready      READY              / COMPLETED    progress 100      (done)
 *   failed     ERROR              / ERROR        error message     (done)
 *
 * Allowed: queued → rendering (a garment started or reported progress), rendering → rendering
 * (next garment, more progress; progress never goes back), queued|rendering → ready (the last
 * garment's image), queued|rendering → failed, failed → queued (retry). Everything else is
 * refused: nothing leaves `ready`, progress is not reported on a settled outfit, and only a
 * failed outfit can be retried.
 */
export type OutfitProcessingStatus = "PENDING" | "PROCESSING_IMAGES" | "READY" | "ERROR";
export type OutfitGenerationStatus = "PENDING" | "PROCESSING" | "COMPLETED" | "ERROR";

export interface OutfitGenerationState {
  processing_status: OutfitProcessingStatus;
  outfit_generation_status: OutfitGenerationStatus;
  processing_progress: number;
}

export type OutfitPhase = "queued" | "rendering" | "ready" | "failed";

export type OutfitEvent =
  /** `garment` of `total` (0-based) is being rendered, `percent` of it done. */
  | { type: "progress"; garment: number; total: number; percent: number }
  | { type: "complete" }
  | { type: "fail" }
  | { type: "retry" };

export const PHASE_FIELDS: Record<OutfitPhase, Pick<OutfitGenerationState, "processing_status" | "outfit_generation_status">> = {
  queued: { processing_status: "PENDING", outfit_generation_status: "PENDING" },
  rendering: { processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PROCESSING" },
  ready: { processing_status: "READY", outfit_generation_status: "COMPLETED" },
  failed: { processing_status: "ERROR", outfit_generation_status: "ERROR" },
};

/** Which phase a stored pair is in; pairs this machine never writes read by the §4 rule. */
export function phaseOf(s: Pick<OutfitGenerationState, "processing_status" | "outfit_generation_status">): OutfitPhase {
  if (s.processing_status === "ERROR" || s.outfit_generation_status === "ERROR") return "failed";
  if (s.processing_status === "READY" && s.outfit_generation_status === "COMPLETED") return "ready";
  if (s.processing_status === "PROCESSING_IMAGES" || s.outfit_generation_status === "PROCESSING") return "rendering";
  return "queued";
}

/** SPEC §4: in progress while PROCESSING_IMAGES, or PROCESSING / PENDING (and not done). */
export function isInProgress(s: Pick<OutfitGenerationState, "processing_status" | "outfit_generation_status">): boolean {
  const p = phaseOf(s);
  return p === "queued" || p === "rendering";
}

export const isDone = (s: Pick<OutfitGenerationState, "processing_status" | "outfit_generation_status">) => !isInProgress(s);

/** Phases each event may start from. */
export const ALLOWED_FROM: Record<OutfitEvent["type"], readonly OutfitPhase[]> = {
  progress: ["queued", "rendering"],
  complete: ["queued", "rendering"],
  fail: ["queued", "rendering"],
  retry: ["failed"],
};

export class OutfitTransitionError extends Error {
  constructor(
    readonly from: OutfitPhase,
    readonly event: OutfitEvent["type"],
  ) {
    super(`An outfit generation that is ${from} cannot take "${event}"`);
    this.name = "OutfitTransitionError";
  }
}

/** Overall progress (0–99 while rendering) of garment `garment` of `total` being `percent` done. */
export function overallProgress(garment: number, total: number, percent: number): number {
  const n = Math.max(1, total);
  const g = Math.max(0, Math.min(n - 1, garment));
  const p = Math.max(0, Math.min(100, percent));
  return Math.max(0, Math.min(99, Math.floor(((g + p / 100) / n) * 100)));
}

/** The state after `event`, or OutfitTransitionError when the event is not allowed now. */
export function transition(state: OutfitGenerationState, event: OutfitEvent): OutfitGenerationState {
  const from = phaseOf(state);
  if (!ALLOWED_FROM[event.type].includes(from)) throw new OutfitTransitionError(from, event.type);
  switch (event.type) {
    case "progress": {
      const next = overallProgress(event.garment, event.total, event.percent);
      return { ...PHASE_FIELDS.rendering, processing_progress: Math.max(from === "rendering" ? state.processing_progress : 0, next) };
    }
    case "complete":
      return { ...PHASE_FIELDS.ready, processing_progress: 100 };
    case "fail":
      return { ...PHASE_FIELDS.failed, processing_progress: state.processing_progress };
    case "retry":
      return { ...PHASE_FIELDS.queued, processing_progress: 0 };
  }
}

/** Garment layers, worn from the inside out: bottoms, one-pieces, tops, then outerwear over them. */
export type GarmentLayer = "bottoms" | "one-pieces" | "tops" | "outerwear";
const LAYER_RANK: Record<GarmentLayer, number> = { bottoms: 0, "one-pieces": 1, tops: 2, outerwear: 3 };

const OUTERWEAR = /\b(coats?|jackets?|blazers?|parkas?|anoraks?|trench(es)?|puffers?|overcoats?|gilets?|cardigans?|ponchos?|capes?|windbreakers?|outerwear)\b/i;

/** Outerwear by product type, then title; otherwise the try-on category. */
export function garmentLayer(p: { productType: string; title?: string | null }, category: "tops" | "bottoms" | "one-pieces"): GarmentLayer {
  if (category === "tops" && [p.productType, p.title ?? ""].some((t) => OUTERWEAR.test(t))) return "outerwear";
  return category;
}

/** Items in the order they are put on the clone (stable within a layer). */
export function dressingOrder<T extends { layer: GarmentLayer }>(items: readonly T[]): T[] {
  return items.map((item, i) => ({ item, i })).sort((a, b) => LAYER_RANK[a.item.layer] - LAYER_RANK[b.item.layer] || a.i - b.i).map((x) => x.item);
}
