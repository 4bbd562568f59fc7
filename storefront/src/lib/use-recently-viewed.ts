/**
 * The recently viewed list in React: one in-page store over local storage, updated by
 * `useRecordRecentlyViewed` and by other tabs (the `storage` event).
 *
 * The stored entries are checked with the contract's card schema (./recently-viewed.ts), which
 * brings zod: it is loaded after the page's first render and only when something is stored (the
 * list is never the page's main content), and the list shows once it is there.
 */
import { useCallback, useSyncExternalStore } from "react";
import type { ProductCard } from "~/contract/products";
import { safeLocalStorage } from "./browser";
import { RECENTLY_VIEWED_KEY } from "./recently-viewed-format";

type Reader = typeof import("./recently-viewed");
let reader: Reader | null = null;
let loading: Promise<Reader> | null = null;

function loadReader(): Promise<Reader> {
  loading ??= import("./recently-viewed").then((m) => {
    reader = m;
    cache = null;
    listeners.forEach((l) => l());
    return m;
  });
  return loading;
}

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
  if (!reader) return EMPTY;
  const raw = rawValue();
  if (!cache || cache.raw !== raw) cache = { raw, list: reader.readRecentlyViewed(safeLocalStorage()) };
  return cache.list;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Nothing stored (a first visit): nothing to check, and no zod to load.
  if (rawValue() !== null) void loadReader();
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === RECENTLY_VIEWED_KEY) {
      if (reader) listener();
      else void loadReader();
    }
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
    void loadReader().then((r) => {
      const list = r.recordRecentlyViewed(safeLocalStorage(), product);
      cache = { raw: rawValue(), list };
      listeners.forEach((l) => l());
    });
  }, []);
}
