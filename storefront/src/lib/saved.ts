/**
 * Saved products and followed stores in React: the saved/following state of one product or store
 * (batched check calls, kept in the query cache so every card showing the same product agrees),
 * toggled optimistically and rolled back on error (SPEC §4, ./optimistic-toggle.ts).
 *
 * Who may save: any visitor with a session. Every visitor is a guest until they sign in, and a
 * guest is authenticated by its guest token, so guests save and follow too; signing in keeps what
 * they saved (the server merges the guest into the account). Without a session — not created yet,
 * or the server answers 401 — the control shows a sign-in prompt with the spec's message
 * "User is not authenticated" (SPEC §5, §8).
 *
 * Query keys start with "user": they are dropped when the shopper signs in or out (./session.tsx).
 */
import { useCallback, useState } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiClientError, type ApiClient } from "~/client";
import { Messages } from "~/contract";
import { errorMessage, useApi } from "./api";
import { createBatchLoader, type BatchLoader } from "./batch-loader";
import { initialToggle, toggleReducer, type ToggleState } from "./optimistic-toggle";
import { isUnauthorized, useSession } from "./session";

export const savedKey = (productId: string) => ["user", "saved", productId] as const;
export const followingKey = (storeId: string) => ["user", "following", storeId] as const;
/** Lists: the Saved page, the Following page, the collections. */
export const SAVED_LIST_KEY = ["user", "saved-products"] as const;
export const FOLLOWING_LIST_KEY = ["user", "favorite-stores"] as const;
export const COLLECTIONS_KEY = ["user", "collections"] as const;

const CHECK_BATCH = 100;

interface Loaders {
  saved: BatchLoader<boolean>;
  following: BatchLoader<boolean>;
}
const loaders = new WeakMap<ApiClient, Loaders>();

/** One batch loader per API client: every card of a grid shares one check call. */
function loadersFor(api: ApiClient): Loaders {
  let l = loaders.get(api);
  if (!l) {
    l = {
      saved: createBatchLoader(
        async (ids) => new Map((await api.savedProductsCheck({ query: { ids: ids.join(",") } })).saved.map((id) => [id, true] as const)),
        false,
        { maxBatch: CHECK_BATCH }
      ),
      following: createBatchLoader(
        async (ids) => new Map((await api.favoriteStoresCheck({ query: { ids: ids.join(",") } })).following.map((id) => [id, true] as const)),
        false,
        { maxBatch: CHECK_BATCH }
      ),
    };
    loaders.set(api, l);
  }
  return l;
}

/** The server's message for a refusal (404, 400…); the given message for a server or network failure. */
function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiClientError && error.status < 500 ? errorMessage(error, fallback) : fallback;
}

/**
 * What a list says is known: every product of the Saved page is saved, every store of the
 * Following page is followed. Primes their toggles so a click there never acts on a guess
 * (a toggle with a click in flight keeps its state).
 */
export function primeToggles(qc: QueryClient, keys: (readonly unknown[])[], value: boolean): void {
  for (const key of keys) qc.setQueryData<ToggleState>(key, (s) => (s ? toggleReducer(s, { type: "loaded", value }) : initialToggle(value)));
}

export type ToggleProblem = { kind: "login"; message: string } | { kind: "error"; message: string };

export interface OptimisticToggle {
  /** What the shopper sees. */
  on: boolean;
  /** Whether the state is known (loaded from the server or set by a click). */
  known: boolean;
  /** A request is in flight. */
  pending: boolean;
  toggle(): Promise<void>;
  /** Sets a state (no-op when already there). */
  set(value: boolean): Promise<void>;
  problem: ToggleProblem | null;
  dismiss(): void;
}

interface ToggleConfig {
  key: readonly unknown[];
  load: () => Promise<boolean>;
  /** Sends the wanted state; resolves with the server's state. */
  send: (want: boolean) => Promise<boolean>;
  /** The message of a failure that is not a 401. */
  failure: (want: boolean, error: unknown) => string;
  onSettled?: (qc: QueryClient) => void;
}

function useOptimisticToggle(cfg: ToggleConfig): OptimisticToggle {
  const qc = useQueryClient();
  const { user } = useSession();
  const [problem, setProblem] = useState<ToggleProblem | null>(null);
  const { key, load, send, failure, onSettled } = cfg;

  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      const value = await load();
      // A click while the check was on its way wins over the check's answer.
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
      const current = qc.getQueryData<ToggleState>(key) ?? initialToggle(false);
      if (wanted !== null && current.value === wanted) return;
      const next = toggleReducer(current, { type: "toggle" });
      qc.setQueryData(key, next);
      setProblem(null);
      try {
        const value = await send(next.value);
        qc.setQueryData<ToggleState>(key, (s) => toggleReducer(s ?? next, { type: "succeeded", value }));
      } catch (error) {
        qc.setQueryData<ToggleState>(key, (s) => toggleReducer(s ?? next, { type: "failed" }));
        setProblem(
          isUnauthorized(error) ? { kind: "login", message: Messages.USER_NOT_AUTHENTICATED } : { kind: "error", message: failure(next.value, error) }
        );
      } finally {
        onSettled?.(qc);
      }
    },
    [user, qc, key, send, failure, onSettled]
  );

  const state = query.data;
  return {
    on: state?.value ?? false,
    known: !!state,
    pending: (state?.pending ?? 0) > 0,
    toggle: () => run(null),
    set: (value) => run(value),
    problem,
    dismiss: () => setProblem(null),
  };
}

/** Whether a product is saved, and its optimistic toggle. */
export function useSavedProduct(productId: string): OptimisticToggle {
  const api = useApi();
  return useOptimisticToggle({
    key: savedKey(productId),
    load: useCallback(() => loadersFor(api).saved.load(productId), [api, productId]),
    send: useCallback(async (saved: boolean) => (await api.savedProductsToggle({ body: { product_id: productId, saved } })).saved, [api, productId]),
    failure: useCallback(
      (saved: boolean, error: unknown) =>
        failureText(error, saved ? "Could not save this product. Please try again." : "Could not remove this product. Please try again."),
      []
    ),
    onSettled: useCallback((qc: QueryClient) => void qc.invalidateQueries({ queryKey: SAVED_LIST_KEY }), []),
  });
}

/** Whether a store is followed, and its optimistic toggle (SPEC §8 favourite-store messages on failure). */
export function useFollowedStore(storeId: string, onFollowerCount?: (count: number) => void): OptimisticToggle {
  const api = useApi();
  return useOptimisticToggle({
    key: followingKey(storeId),
    load: useCallback(() => loadersFor(api).following.load(storeId), [api, storeId]),
    send: useCallback(
      async (following: boolean) => {
        const r = await api.favoriteStoresToggle({ body: { store_id: storeId, following } });
        onFollowerCount?.(r.followerCount);
        return r.following;
      },
      [api, storeId, onFollowerCount]
    ),
    failure: useCallback(
      (following: boolean, error: unknown) =>
        failureText(error, following ? Messages.FAILED_TO_CREATE_FAVORITE_STORE : Messages.FAILED_TO_DELETE_FAVORITE_STORE),
      []
    ),
    onSettled: useCallback((qc: QueryClient) => void qc.invalidateQueries({ queryKey: FOLLOWING_LIST_KEY }), []),
  });
}
