/**
 * The optimistic save / follow toggle (SPEC §4: optimistic, rolled back on error) and the batch
 * loader that turns one "is it saved?" per card into one check call per grid.
 */
import { describe, expect, it, vi } from "vitest";
import { initialToggle, toggleReducer, type ToggleAction, type ToggleState } from "../../../storefront/src/lib/optimistic-toggle";
import { createBatchLoader } from "../../../storefront/src/lib/batch-loader";

const run = (start: ToggleState, ...actions: ToggleAction[]) => actions.reduce(toggleReducer, start);

describe("optimistic toggle", () => {
  it("flips at once and keeps the server's answer", () => {
    const clicked = toggleReducer(initialToggle(false), { type: "toggle" });
    expect(clicked).toEqual({ value: true, confirmed: false, pending: 1 });
    expect(toggleReducer(clicked, { type: "succeeded", value: true })).toEqual({ value: true, confirmed: true, pending: 0 });
  });

  it("rolls back to the last confirmed state when the request fails", () => {
    expect(run(initialToggle(false), { type: "toggle" }, { type: "failed" })).toEqual(initialToggle(false));
    expect(run(initialToggle(true), { type: "toggle" }, { type: "failed" })).toEqual(initialToggle(true));
  });

  it("takes the server's state when it differs from the click (e.g. already saved elsewhere)", () => {
    expect(run(initialToggle(false), { type: "toggle" }, { type: "succeeded", value: false })).toEqual(initialToggle(false));
  });

  it("overlapping clicks: the shopper's last choice shows until the last answer, which wins", () => {
    // save, unsave quickly: two requests in flight (each carries the state it wants)
    const two = run(initialToggle(false), { type: "toggle" }, { type: "toggle" });
    expect(two).toEqual({ value: false, confirmed: false, pending: 2 });
    const firstDone = toggleReducer(two, { type: "succeeded", value: true });
    expect(firstDone).toEqual({ value: false, confirmed: true, pending: 1 });
    expect(toggleReducer(firstDone, { type: "succeeded", value: false })).toEqual(initialToggle(false));
  });

  it("overlapping clicks: a failed last request rolls back to what the server last confirmed", () => {
    const two = run(initialToggle(false), { type: "toggle" }, { type: "toggle" }, { type: "toggle" });
    expect(two.value).toBe(true);
    const afterFirst = toggleReducer(two, { type: "succeeded", value: true });
    const afterSecond = toggleReducer(afterFirst, { type: "failed" });
    expect(afterSecond).toEqual({ value: true, confirmed: true, pending: 1 });
    expect(toggleReducer(afterSecond, { type: "failed" })).toEqual(initialToggle(true));
  });

  it("a state loaded from the server replaces an idle one, and is ignored while a click is in flight", () => {
    expect(toggleReducer(initialToggle(false), { type: "loaded", value: true })).toEqual(initialToggle(true));
    const clicked = toggleReducer(initialToggle(false), { type: "toggle" });
    expect(toggleReducer(clicked, { type: "loaded", value: false })).toBe(clicked);
  });

  it("never counts below zero requests", () => {
    expect(toggleReducer(initialToggle(true), { type: "failed" }).pending).toBe(0);
    expect(toggleReducer(initialToggle(true), { type: "succeeded", value: false })).toEqual(initialToggle(false));
  });
});

describe("batch loader", () => {
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it("sends the ids asked in one tick as one request, once each, and answers each caller", async () => {
    const fetchBatch = vi.fn(async (ids: string[]) => new Map(ids.filter((id) => id !== "b").map((id) => [id, true] as const)));
    const loader = createBatchLoader(fetchBatch, false);
    const answers = await Promise.all(["a", "b", "c", "a"].map((id) => loader.load(id)));
    expect(answers).toEqual([true, false, true, true]);
    expect(fetchBatch).toHaveBeenCalledTimes(1);
    expect(fetchBatch).toHaveBeenCalledWith(["a", "b", "c"]);
    // A later tick is a new batch
    await loader.load("d");
    expect(fetchBatch).toHaveBeenCalledTimes(2);
    expect(fetchBatch).toHaveBeenLastCalledWith(["d"]);
  });

  it("splits a large batch into requests of at most maxBatch ids", async () => {
    const fetchBatch = vi.fn(async (ids: string[]) => new Map(ids.map((id) => [id, id] as const)));
    const loader = createBatchLoader(fetchBatch, "none", { maxBatch: 100 });
    const ids = Array.from({ length: 250 }, (_, i) => `p${i}`);
    const answers = await Promise.all(ids.map((id) => loader.load(id)));
    expect(answers).toEqual(ids);
    expect(fetchBatch.mock.calls.map((c) => c[0].length)).toEqual([100, 100, 50]);
  });

  it("rejects every caller of a failed request, and the next tick tries again", async () => {
    let fail = true;
    const loader = createBatchLoader(async (ids: string[]) => {
      if (fail) throw new Error("offline");
      return new Map(ids.map((id) => [id, true] as const));
    }, false);
    const results = await Promise.allSettled([loader.load("a"), loader.load("b")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await flush();
    expect(await loader.load("a")).toBe(true);
  });
});
