/**
 * `matchMedia` in React (useSyncExternalStore): the first render already has the right answer,
 * so a page size that depends on it never asks the server twice.
 */
import { useSyncExternalStore } from "react";
import { MOBILE_BREAKPOINT } from "./constants";

/** The media query of the mobile layout (below 768 px). */
export const MOBILE_MEDIA_QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;

export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === "undefined" || !window.matchMedia) return () => undefined;
      const mql = window.matchMedia(query);
      mql.addEventListener("change", onChange);
      return () => mql.removeEventListener("change", onChange);
    },
    () => (typeof window !== "undefined" && window.matchMedia ? window.matchMedia(query).matches : serverValue),
    () => serverValue,
  );
}

/** Whether the mobile layout applies (viewport below 768 px). */
export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_MEDIA_QUERY);
}
