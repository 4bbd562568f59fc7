/**
 * An optimistic on/off control kept in the query cache (SPEC §4: saving a product, following a
 * store and saving a try-on flip at once and roll back on error), shared by ./saved.ts and
 * ./saved-tryons.ts. The state machine is the pure reducer of ./optimistic-toggle.ts; this module
 * wires it to TanStack Query, the session and the API:
 *
 * - The state of one item lives under its query key, so every card showing the item agrees.
 * - Whether an item is on is asked through a batched check call (one per grid, not one per card).
 * - Without a session, or on a 401, the control asks the shopper to sign in with the spec's message
 *   "User is not authenticated" (SPEC §5, §8); any other failure rolls back with a message.
 *
 * `runToggle` and `loadToggle` take the query client explicitly, so they are tested without React.
 */
import { useState } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiClientError, type ApiClient } from "~/client";
import { Messages } from "~/contract";
import { errorMessage } from "./api";
import { createBatchLoader, type BatchLoader } from "./batch-loader";
import { initialToggle, toggleReducer, type ToggleState } from "./optimistic-toggle";
import { isUnauthorized, useSession } from "./session";

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

export interface ToggleConfig {
  key: readonly unknown[];
  /** Whether the item is on, as the server says (a batched check). */
  load: () => Promise<boolean>;
  /** Sends the wanted state (never "flip", so a retried request cannot undo itself); resolves with the server's state. */
  send: (want: boolean) => Promise<boolean>;
  /** The message of a failure the server did not explain (5xx, network), by the state that was wanted. */
  fallback: (want: boolean) => string;
  /** The list pages showing these items: refreshed after every request, whatever its outcome. */
  listKey: readonly unknown[];
}

const LOGIN: ToggleProblem = { kind: "login", message: Messages.USER_NOT_AUTHENTICATED };
const CHECK_BATCH = 100;

/** The server's message for a refusal (404, 400…); the given message for a server or network failure. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiClientError && error.status < 500 ? errorMessage(error, fallback) : fallback;
}

/**
 * A batch loader per API client for a `…/check?ids=` call answering the ids that are on: every
 * card of a grid asks for its own id and they share one request (at most 100 ids each).
 */
export function batchedCheck(check: (api: ApiClient, ids: string) => Promise<string[]>): (api: ApiClient) => BatchLoader<boolean> {
  const loaders = new WeakMap<ApiClient, BatchLoader<boolean>>();
  return (api) => {
    let loader = loaders.get(api);
    if (!loader) {
      loader = createBatchLoader(async (ids) => new Map((await check(api, ids.join(","))).map((id) => [id, true] as const)), false, {
        maxBatch: CHECK_BATCH,
      });
      loaders.set(api, loader);
    }
    return loader;
  };
}

/**
 * What a list says is known (every product of the Saved page is saved…): primes the toggles so a
 * click there never acts on a guess. A toggle with a click in flight keeps its state.
 */
export function primeToggles(qc: QueryClient, keys: (readonly unknown[])[], value: boolean): void {
  for (const key of keys) qc.setQueryData<ToggleState>(key, (s) => (s ? toggleReducer(s, { type: "loaded", value }) : initialToggle(value)));
}

/** The state after the server's check; a click made while the check was on its way wins over it. */
export async function loadToggle(qc: QueryClient, key: readonly unknown[], load: () => Promise<boolean>): Promise<ToggleState> {
  const value = await load();
  const current = qc.getQueryData<ToggleState>(key);
  return current ? toggleReducer(current, { type: "loaded", value }) : initialToggle(value);
}

/**
 * One click: flips the state at once, sends the wanted state, then keeps the server's answer or
 * rolls back. `wanted` null toggles; a value sets it (nothing is sent when it is already there).
 * Clicks may overlap: each sends its own request and the reducer lets the last answer win.
 */
export async function runToggle(
  qc: QueryClient,
  cfg: Pick<ToggleConfig, "key" | "send" | "fallback" | "listKey">,
  wanted: boolean | null,
  session: { signedIn: boolean; report: (problem: ToggleProblem | null) => void }
): Promise<void> {
  if (!session.signedIn) {
    session.report(LOGIN);
    return;
  }
  const { key } = cfg;
  const current = qc.getQueryData<ToggleState>(key) ?? initialToggle(false);
  if (wanted !== null && current.value === wanted) return;
  const next = toggleReducer(current, { type: "toggle" });
  qc.setQueryData(key, next);
  session.report(null);
  try {
    const value = await cfg.send(next.value);
    qc.setQueryData<ToggleState>(key, (s) => toggleReducer(s ?? next, { type: "succeeded", value }));
  } catch (error) {
    qc.setQueryData<ToggleState>(key, (s) => toggleReducer(s ?? next, { type: "failed" }));
    session.report(isUnauthorized(error) ? LOGIN : { kind: "error", message: failureText(error, cfg.fallback(next.value)) });
  } finally {
    void qc.invalidateQueries({ queryKey: cfg.listKey });
  }
}

export function useOptimisticToggle(cfg: ToggleConfig): OptimisticToggle {
  const qc = useQueryClient();
  const { user } = useSession();
  const [problem, setProblem] = useState<ToggleProblem | null>(null);

  const query = useQuery({
    queryKey: cfg.key,
    queryFn: () => loadToggle(qc, cfg.key, cfg.load),
    enabled: !!user,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
  });

  const run = (wanted: boolean | null) => runToggle(qc, cfg, wanted, { signedIn: !!user, report: setProblem });
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
