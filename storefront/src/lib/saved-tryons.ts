/**
 * Saved try-ons in React: whether a try-on is saved (checked in batches, kept in the query cache so
 * every place showing the same try-on agrees) and its toggle — optimistic, rolled back on error
 * (SPEC §4, ./optimistic-toggle.ts). Saving needs a session; a 401 asks the shopper to sign in
 * ("User is not authenticated", SPEC §5, §8).
 */
import { useCallback, useState } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiClientError, type ApiClient } from "~/client";
import { Messages } from "~/contract";
import { errorMessage, useApi } from "./api";
import { createBatchLoader, type BatchLoader } from "./batch-loader";
import { initialToggle, toggleReducer, type ToggleState } from "./optimistic-toggle";
import { isUnauthorized, useSession } from "./session";
import type { ToggleProblem } from "./saved";

export const savedTryOnKey = (tryonId: string) => ["user", "saved-tryon", tryonId] as const;
export const SAVED_TRYONS_LIST_KEY = ["user", "saved-tryons"] as const;
export const USER_TRYONS_LIST_KEY = ["user", "tryons-list"] as const;

const loaders = new WeakMap<ApiClient, BatchLoader<boolean>>();
function loaderFor(api: ApiClient): BatchLoader<boolean> {
  let l = loaders.get(api);
  if (!l) {
    l = createBatchLoader(
      async (ids) => new Map((await api.savedTryOnsCheck({ query: { ids: ids.join(",") } })).saved.map((id) => [id, true] as const)),
      false,
      {
        maxBatch: 100,
      }
    );
    loaders.set(api, l);
  }
  return l;
}

/** What a list knows: every try-on of the Saved try-ons page is saved. */
export function primeSavedTryOns(qc: QueryClient, ids: string[], value: boolean | ((id: string) => boolean)): void {
  for (const id of ids) {
    const v = typeof value === "function" ? value(id) : value;
    qc.setQueryData<ToggleState>(savedTryOnKey(id), (s) => (s ? toggleReducer(s, { type: "loaded", value: v }) : initialToggle(v)));
  }
}

export interface SavedTryOnToggle {
  on: boolean;
  known: boolean;
  pending: boolean;
  toggle(): Promise<void>;
  set(value: boolean): Promise<void>;
  problem: ToggleProblem | null;
  dismiss(): void;
}

export function useSavedTryOn(tryonId: string): SavedTryOnToggle {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();
  const [problem, setProblem] = useState<ToggleProblem | null>(null);
  const key = savedTryOnKey(tryonId);

  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      const value = await loaderFor(api).load(tryonId);
      const current = qc.getQueryData<ToggleState>(key);
      return current ? toggleReducer(current, { type: "loaded", value }) : initialToggle(value);
    },
    enabled: !!user,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
  });

  const run = useCallback(
    async (wanted: boolean | null) => {
      if (!user) {
        setProblem({ kind: "login", message: Messages.USER_NOT_AUTHENTICATED });
        return;
      }
      const k = savedTryOnKey(tryonId);
      const current = qc.getQueryData<ToggleState>(k) ?? initialToggle(false);
      if (wanted !== null && current.value === wanted) return;
      const next = toggleReducer(current, { type: "toggle" });
      qc.setQueryData(k, next);
      setProblem(null);
      try {
        const r = await api.savedTryOnsToggle({ body: { tryon_id: tryonId, saved: next.value } });
        qc.setQueryData<ToggleState>(k, (s) => toggleReducer(s ?? next, { type: "succeeded", value: r.saved }));
      } catch (error) {
        qc.setQueryData<ToggleState>(k, (s) => toggleReducer(s ?? next, { type: "failed" }));
        setProblem(
          isUnauthorized(error)
            ? { kind: "login", message: Messages.USER_NOT_AUTHENTICATED }
            : {
                kind: "error",
                message:
                  error instanceof ApiClientError && error.status < 500
                    ? errorMessage(error)
                    : next.value
                    ? "Could not save this try-on. Please try again."
                    : "Could not remove this try-on. Please try again.",
              }
        );
      } finally {
        void qc.invalidateQueries({ queryKey: SAVED_TRYONS_LIST_KEY });
      }
    },
    [user, qc, api, tryonId]
  );

  const state = query.data;
  return {
    on: state?.value ?? false,
    known: !!state,
    pending: (state?.pending ?? 0) > 0,
    toggle: () => run(null),
    set: (v) => run(v),
    problem,
    dismiss: () => setProblem(null),
  };
}
