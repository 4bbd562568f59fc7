import { describe, expect, it } from "vitest";
import { outfitDone, outfitFailed, outfitInProgress, outfitLabel, outfitPercent, outfitPollInterval, outfitReady } from "../../storefront/src/lib/outfit-status";
import { OUTFIT_POLL_MS } from "../../storefront/src/lib/ai-constants";

const PROCESSING = ["PENDING", "PROCESSING_IMAGES", "READY", "ERROR"] as const;
const GENERATION = ["PENDING", "PROCESSING", "COMPLETED", "ERROR"] as const;

describe("outfit generation status (SPEC §3, §4)", () => {
  // Every pair of the two enums: the spec's rule written out as a table.
  const expected: Record<string, "in progress" | "done" | "neither"> = {};
  for (const p of PROCESSING)
    for (const g of GENERATION) {
      const done = (p === "READY" && g === "COMPLETED") || p === "ERROR" || g === "ERROR";
      const inProgress = !done && (p === "PROCESSING_IMAGES" || g === "PROCESSING" || g === "PENDING");
      expected[`${p}/${g}`] = done ? "done" : inProgress ? "in progress" : "neither";
    }

  it.each(Object.entries(expected))("%s is %s", (key, state) => {
    const [processing_status, outfit_generation_status] = key.split("/");
    const s = { processing_status, outfit_generation_status, processing_progress: 40 };
    expect(outfitDone(s)).toBe(state === "done");
    expect(outfitInProgress(s)).toBe(state === "in progress");
    // Polling every 5 s only while in progress; it stops once done.
    expect(outfitPollInterval(s)).toBe(state === "in progress" ? OUTFIT_POLL_MS : false);
  });

  it("polls every 5 seconds and not at all without a status", () => {
    expect(OUTFIT_POLL_MS).toBe(5000);
    expect(outfitPollInterval(null)).toBe(false);
    expect(outfitPollInterval(undefined)).toBe(false);
  });

  it("a READY clone still generating is in progress, not done (READY alone is not completion)", () => {
    const s = { processing_status: "READY", outfit_generation_status: "PROCESSING" };
    expect(outfitReady(s)).toBe(false);
    expect(outfitInProgress(s)).toBe(true);
  });

  it("either value at ERROR is a failure, whatever the other says", () => {
    expect(outfitFailed({ processing_status: "READY", outfit_generation_status: "ERROR" })).toBe(true);
    expect(outfitFailed({ processing_status: "ERROR", outfit_generation_status: "COMPLETED" })).toBe(true);
    expect(outfitLabel({ processing_status: "ERROR", outfit_generation_status: "PENDING" })).toBe("Training failed");
  });

  it("progress is clamped to 0–100 and 100 once ready", () => {
    expect(outfitPercent({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PENDING", processing_progress: 140 })).toBe(100);
    expect(outfitPercent({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PENDING", processing_progress: -3 })).toBe(0);
    expect(outfitPercent({ processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PENDING", processing_progress: null })).toBe(0);
    expect(outfitPercent({ processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 12 })).toBe(100);
  });
});
