/**
 * The outfit generation status of a clone (SPEC §3 "Outfit generation status", §4): pure, so the
 * rule lives in one place.
 *
 * - In progress while processing_status is PROCESSING_IMAGES, or outfit_generation_status is
 *   PROCESSING or PENDING.
 * - Done when processing_status is READY with outfit_generation_status COMPLETED, or either value
 *   is ERROR.
 * - While in progress the status is polled every 5 seconds; when done, polling stops.
 */
import { OUTFIT_POLL_MS } from "./ai-constants";

export interface OutfitStatus {
  processing_status: string;
  outfit_generation_status: string;
  processing_progress?: number | null;
}

export function outfitFailed(s: OutfitStatus): boolean {
  return s.processing_status === "ERROR" || s.outfit_generation_status === "ERROR";
}

export function outfitReady(s: OutfitStatus): boolean {
  return s.processing_status === "READY" && s.outfit_generation_status === "COMPLETED";
}

export function outfitDone(s: OutfitStatus): boolean {
  return outfitReady(s) || outfitFailed(s);
}

export function outfitInProgress(s: OutfitStatus): boolean {
  if (outfitDone(s)) return false;
  return s.processing_status === "PROCESSING_IMAGES" || s.outfit_generation_status === "PROCESSING" || s.outfit_generation_status === "PENDING";
}

/** TanStack Query's refetchInterval for a status: every 5 s while in progress, else off. */
export function outfitPollInterval(s: OutfitStatus | null | undefined): number | false {
  return s && outfitInProgress(s) ? OUTFIT_POLL_MS : false;
}

/** 0–100 for a progress bar (READY+COMPLETED is 100 whatever the server counted). */
export function outfitPercent(s: OutfitStatus): number {
  if (outfitReady(s)) return 100;
  const p = Number(s.processing_progress ?? 0);
  return Number.isFinite(p) ? Math.max(0, Math.min(100, Math.round(p))) : 0;
}

/** Words for a shopper. */
export function outfitLabel(s: OutfitStatus): string {
  if (outfitReady(s)) return "Ready";
  if (outfitFailed(s)) return "Training failed";
  if (s.processing_status === "PROCESSING_IMAGES") return "Preparing photos";
  if (s.outfit_generation_status === "PROCESSING") return "Training";
  return "Waiting to train";
}
