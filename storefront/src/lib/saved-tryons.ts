/**
 * Saved try-ons in React: whether a try-on is saved (checked in batches, kept in the query cache so
 * every place showing the same try-on agrees) and its toggle — optimistic, rolled back on error
 * (SPEC §4, ./query-toggle.ts). Saving needs a session; a 401 asks the shopper to sign in
 * ("User is not authenticated", SPEC §5, §8).
 */
import type { QueryClient } from "@tanstack/react-query";
import { useApi } from "./api";
import { batchedCheck, primeToggles, useOptimisticToggle, type OptimisticToggle } from "./query-toggle";

export const savedTryOnKey = (tryonId: string) => ["user", "saved-tryon", tryonId] as const;
export const SAVED_TRYONS_LIST_KEY = ["user", "saved-tryons"] as const;
export const USER_TRYONS_LIST_KEY = ["user", "tryons-list"] as const;

export type SavedTryOnToggle = OptimisticToggle;

const savedTryOnLoader = batchedCheck(async (api, ids) => (await api.savedTryOnsCheck({ query: { ids } })).saved);

/** What a list knows: every try-on of the Saved try-ons page is saved; My try-ons knows each one. */
export function primeSavedTryOns(qc: QueryClient, ids: string[], value: boolean | ((id: string) => boolean)): void {
  for (const id of ids) primeToggles(qc, [savedTryOnKey(id)], typeof value === "function" ? value(id) : value);
}

export function useSavedTryOn(tryonId: string): SavedTryOnToggle {
  const api = useApi();
  return useOptimisticToggle({
    key: savedTryOnKey(tryonId),
    load: () => savedTryOnLoader(api).load(tryonId),
    send: async (saved) => (await api.savedTryOnsToggle({ body: { tryon_id: tryonId, saved } })).saved,
    fallback: (saved) => (saved ? "Could not save this try-on. Please try again." : "Could not remove this try-on. Please try again."),
    listKey: SAVED_TRYONS_LIST_KEY,
  });
}
