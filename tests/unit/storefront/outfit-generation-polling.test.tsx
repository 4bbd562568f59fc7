/**
 * Outfit generation in the storefront (storefront/src/lib/outfit-generations.ts, SPEC §4): the
 * status query the hook runs polls every 5 s while in progress and stops when done (fake timers,
 * TanStack Query's own observer with the hook's options); the completed flag is set when done and
 * cleared by a retry; the generator panel renders its clone picker.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryObserver, environmentManager } from "@tanstack/react-query";
import { renderStorefront, renderWithSession } from "../../helpers/storefront-render";
import { OUTFIT_GENERATIONS_KEY, OUTFIT_LOOK_MAX_PRODUCTS, nextCompletedFlag, outfitStatusQueryOptions, type CompletedFlag, type OutfitGenerationStatus } from "../../../storefront/src/lib/outfit-generations";
import { OUTFIT_GENERATION_MAX_PRODUCTS } from "../../../app/contract/outfit-generations";
import { HOUSE_MODELS_KEY, READY_CLONES_KEY } from "../../../storefront/src/lib/clones";
import { OutfitGenerator } from "../../../storefront/src/components/ai/OutfitGenerator";

const status = (processing_status: string, outfit_generation_status: string, processing_progress = 0): OutfitGenerationStatus =>
  ({ processing_status, outfit_generation_status, processing_progress, outfit_id: "o1", image_url: null, error: null }) as OutfitGenerationStatus;

describe("outfit generation status polling (fake timers)", () => {
  // Node has no window, so TanStack Query would treat it as a server and schedule no refetch timers.
  beforeEach(() => {
    vi.useFakeTimers();
    environmentManager.setIsServer(() => false);
  });
  afterEach(() => {
    environmentManager.setIsServer(() => typeof window === "undefined");
    vi.useRealTimers();
  });

  it("polls every 5 s while in progress and stops once done", async () => {
    const answers = [
      status("PENDING", "PENDING"),
      status("PROCESSING_IMAGES", "PROCESSING", 30),
      status("PROCESSING_IMAGES", "PROCESSING", 60),
      status("READY", "COMPLETED", 100),
    ];
    const calls: number[] = [];
    const api = {
      clonesOutfitGenerationStatus: vi.fn(async (args: { query: { outfit_id?: string } }) => {
        expect(args.query.outfit_id).toBe("o1");
        calls.push(Date.now());
        return answers[Math.min(calls.length - 1, answers.length - 1)];
      }),
    };
    const qc = new QueryClient();
    const observer = new QueryObserver(qc, outfitStatusQueryOptions(api as never, "o1") as never);
    const seen: (string | undefined)[] = [];
    const unsubscribe = observer.subscribe((r) => seen.push((r.data as OutfitGenerationStatus | undefined)?.processing_status));
    const t0 = Date.now();

    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1); // not before 5 s
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(4);
    expect(calls.map((c) => c - t0)).toEqual([0, 5_000, 10_000, 15_000]);
    expect((observer.getCurrentResult().data as OutfitGenerationStatus).processing_status).toBe("READY");

    // Done: no more requests, however long we wait.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(4);
    expect(seen).toContain("PROCESSING_IMAGES");
    unsubscribe();
    qc.clear();
  });

  it("a failed generation is done too: polling stops at ERROR", async () => {
    let n = 0;
    const api = { clonesOutfitGenerationStatus: vi.fn(async () => (++n === 1 ? status("PROCESSING_IMAGES", "PROCESSING", 10) : status("ERROR", "ERROR", 10))) };
    const qc = new QueryClient();
    const unsubscribe = new QueryObserver(qc, outfitStatusQueryOptions(api as never, "o1") as never).subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(api.clonesOutfitGenerationStatus).toHaveBeenCalledTimes(2);
    unsubscribe();
    qc.clear();
  });

  it("no generation yet: nothing is fetched", async () => {
    const api = { clonesOutfitGenerationStatus: vi.fn() };
    const qc = new QueryClient();
    const unsubscribe = new QueryObserver(qc, outfitStatusQueryOptions(api as never, null) as never).subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(api.clonesOutfitGenerationStatus).not.toHaveBeenCalled();
    unsubscribe();
  });
});

describe("the completed flag", () => {
  it("the storefront's product limit is the contract's", () => expect(OUTFIT_LOOK_MAX_PRODUCTS).toBe(OUTFIT_GENERATION_MAX_PRODUCTS));

  it("is set when done, kept while done, cleared when a retry puts it back in progress, and per generation", () => {
    let flag: CompletedFlag = { id: "o1", done: false };
    flag = nextCompletedFlag(flag, "o1", status("PROCESSING_IMAGES", "PROCESSING"));
    expect(flag.done).toBe(false);
    flag = nextCompletedFlag(flag, "o1", status("READY", "COMPLETED", 100));
    expect(flag).toEqual({ id: "o1", done: true });
    expect(nextCompletedFlag(flag, "o1", status("READY", "COMPLETED", 100))).toBe(flag);
    expect(nextCompletedFlag(flag, "o1", status("PENDING", "PENDING"))).toEqual({ id: "o1", done: false });
    expect(nextCompletedFlag(flag, "o2", status("PENDING", "PENDING"))).toEqual({ id: "o2", done: false });
    expect(nextCompletedFlag({ id: "o1", done: false }, "o1", status("ERROR", "ERROR"))).toEqual({ id: "o1", done: true });
  });
});

describe("the generator panel (server render)", () => {
  it("closed: names the look and offers to generate it", () => {
    const html = renderWithSession("/", <OutfitGenerator title="Weekend layers" outfitId="o1" />);
    expect(html).toContain('data-testid="outfit-generator"');
    expect(html).toContain("Weekend layers");
    expect(html).toContain('data-testid="outfit-generator-open"');
  });

  it("open: the shopper's ready clones and the house models to choose from, and Generate", () => {
    const html = renderWithSession("/", <OutfitGenerator title="Weekend layers" productIds={["gid://shopify/Product/1"]} defaultOpen />, (qc) => {
      qc.setQueryData(READY_CLONES_KEY, [{ id: "k1", name: "Ada", processing_status: "READY", outfit_generation_status: "COMPLETED", profileImageUrl: null, baseImageUrls: [], photos: [] }]);
      qc.setQueryData(HOUSE_MODELS_KEY, [{ id: "h1", name: "House model", profileImageUrl: null, previewImageUrl: null }]);
    });
    expect(html.split('data-testid="outfit-generator-clone"').length - 1).toBe(2);
    expect(html).toContain('data-testid="outfit-generate"');
  });
});

describe("My try-ons: generated looks (server render)", () => {
  const gen = (id: string, over: Record<string, unknown>) => ({
    id, name: `Look ${id}`, user_id: "u1", clone_id: "k1", clone: { id: "k1", name: "Ada", profileImageUrl: null, isPublic: false }, source_outfit_id: null,
    product_ids: [], products: [], image_url: null, processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100,
    error: null, completed: true, created_at: "2025-01-01T00:00:00.000Z", updated_at: "2025-01-01T00:00:00.000Z", ...over,
  });

  it("lists the shopper's looks: the picture of a ready one, the failure with Retry", () => {
    const html = renderStorefront("/try-ons", (qc) =>
      qc.setQueryData([...OUTFIT_GENERATIONS_KEY, 20], {
        outfits: [gen("a", { image_url: "/uploads/images/ai/a.jpg" }), gen("b", { processing_status: "ERROR", outfit_generation_status: "ERROR", error: "Could not put on Jeans: timed out" })],
        total: 2,
      }),
    );
    expect(html).toContain('data-testid="outfit-generations"');
    expect(html.split('data-testid="outfit-generation-card"').length - 1).toBe(2);
    expect(html).toContain('src="/uploads/images/ai/a.jpg"');
    expect(html).toContain("Could not put on Jeans: timed out");
    expect(html).toContain(">Retry<");
  });
});
