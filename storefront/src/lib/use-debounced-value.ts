import { useEffect, useRef, useState } from "react";
import { createDebouncer, type Debouncer } from "./debounce";
import { SEARCH_DEBOUNCE_MS } from "./constants";

/**
 * The value, once it has stopped changing for `delayMs` (default: the search debounce, 500 ms).
 * A thin wrapper over `createDebouncer`.
 */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  const debouncer = useRef<Debouncer<T> | null>(null);

  useEffect(() => {
    const d = createDebouncer<T>((v) => setDebounced(() => v), delayMs);
    debouncer.current = d;
    return () => d.cancel();
  }, [delayMs]);

  useEffect(() => {
    debouncer.current?.call(value);
  }, [value]);

  return debounced;
}
