import type { StorageLike } from "./gender-preference";

/** window.sessionStorage, or null where it is unavailable (server, sandboxed frames, some private modes). */
export function safeSessionStorage(): StorageLike | null {
  try {
    return typeof window !== "undefined" ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/** window.localStorage, or null where it is unavailable. */
export function safeLocalStorage(): StorageLike | null {
  try {
    return typeof window !== "undefined" ? window.localStorage : null;
  } catch {
    return null;
  }
}
