import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDebouncer } from "../../../storefront/src/lib/debounce";
import { SEARCH_DEBOUNCE_MS } from "../../../storefront/src/lib/constants";

describe("createDebouncer (search input debounce)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("debounces by 500 ms", () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(500);
    const seen: string[] = [];
    const d = createDebouncer<string>((v) => seen.push(v), SEARCH_DEBOUNCE_MS);
    d.call("c");
    vi.advanceTimersByTime(499);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(["c"]);
    expect(d.pending()).toBe(false);
  });

  it("restarts the wait on every call and delivers only the last value", () => {
    const seen: string[] = [];
    const d = createDebouncer<string>((v) => seen.push(v), 500);
    d.call("c");
    vi.advanceTimersByTime(300);
    d.call("co");
    vi.advanceTimersByTime(300);
    d.call("coa");
    vi.advanceTimersByTime(300);
    d.call("coat");
    vi.advanceTimersByTime(499);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(["coat"]);
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual(["coat"]);
  });

  it("cancels and flushes", () => {
    const seen: string[] = [];
    const d = createDebouncer<string>((v) => seen.push(v), 500);
    d.call("a");
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual([]);
    d.call("b");
    expect(d.pending()).toBe(true);
    d.flush();
    expect(seen).toEqual(["b"]);
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual(["b"]);
    d.flush();
    expect(seen).toEqual(["b"]);
  });

  it("accepts injected timers", () => {
    const scheduled: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
    const timers = {
      setTimeout: (fn: () => void, ms: number) => {
        const t = { fn, ms, cleared: false };
        scheduled.push(t);
        return t;
      },
      clearTimeout: (h: unknown) => {
        (h as { cleared: boolean }).cleared = true;
      },
    };
    const seen: number[] = [];
    const d = createDebouncer<number>((v) => seen.push(v), 500, timers);
    d.call(1);
    d.call(2);
    expect(scheduled.map((s) => [s.ms, s.cleared])).toEqual([
      [500, true],
      [500, false],
    ]);
    scheduled[1].fn();
    expect(seen).toEqual([2]);
  });
});
