/**
 * Debouncing without a framework: `createDebouncer` runs its callback once the calls have been
 * quiet for `delayMs`. `useDebouncedValue` (in use-debounced-value.ts) is a thin React wrapper.
 */

export interface TimerApi {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: TimerApi = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
};

export interface Debouncer<T> {
  /** Schedules the callback with `value`, replacing any pending call. */
  call(value: T): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Runs a pending call now. */
  flush(): void;
  /** Whether a call is pending. */
  pending(): boolean;
}

export function createDebouncer<T>(callback: (value: T) => void, delayMs: number, timers: TimerApi = realTimers): Debouncer<T> {
  let handle: unknown = null;
  let latest: { value: T } | null = null;

  const run = () => {
    handle = null;
    const v = latest;
    latest = null;
    if (v) callback(v.value);
  };

  return {
    call(value) {
      latest = { value };
      if (handle !== null) timers.clearTimeout(handle);
      handle = timers.setTimeout(run, delayMs);
    },
    cancel() {
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
      latest = null;
    },
    flush() {
      if (handle === null) return;
      timers.clearTimeout(handle);
      run();
    },
    pending() {
      return handle !== null;
    },
  };
}
