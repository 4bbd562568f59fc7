/**
 * The recently viewed list in React: one in-page store over local storage, updated by
 * `useRecordView` and by other tabs (the `storage` event).
 */
import { useCallback, useSyncExternalStore } from "react";
import type { ProductCard } from "~/contract";
import { safeLocalStorage } from "./browser";
import { RECENTLY_VIEWED_KEY, readRecentlyViewed, recordRecentlyViewed } from "./recently-viewed";

const listeners = new Set<() => void>();
let cache: { raw: string | null; list: ProductCard[] } | null = null;
const EMPTY: ProductCard[] = [];

function rawValue(): string | null {
  try {
    return safeLocalStorage()?.getItem(RECENTLY_VIEWED_KEY) ?? null;
  } catch {
    return null;
  }
}

function snapshot(): ProductCard[] {
  const raw = rawValue();
  if (!cache || cache.raw !== raw) cache = { raw, list: readRecentlyViewed(safeLocalStorage()) };
  return cache.list;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === RECENTLY_VIEWED_KEY) listener();
  };
  if (typeof window !== "undefined") window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    if (typeof window !== "undefined") window.removeEventListener("storage", onStorage);
  };
}

/** The recently viewed products, newest first (at most 3). */
export function useRecentlyViewed(): ProductCard[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}

/** Records a product view in the recently viewed list. */
export function useRecordRecentlyViewed(): (product: ProductCard) => void {
  return useCallback((product: ProductCard) => {
    const list = recordRecentlyViewed(safeLocalStorage(), product);
    cache = { raw: rawValue(), list };
    listeners.forEach((l) => l());
  }, []);
}
