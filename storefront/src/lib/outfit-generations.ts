/**
 * Outfit generation on a clone for React (outfit-generations contract; SPEC §4): start one, and
 * follow it through GET /clones/outfit-generation-status?outfit_id=…, polled every 5 s while in
 * progress (./outfit-status.ts: TanStack Query's refetchInterval answers false once done, so
 * polling stops) with a `completed` flag set when it is done. Retry of a failed one.
 *
 * Query keys start with "user" (dropped on sign-in and sign-out, ./session.tsx).
 */
import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EndpointOutput } from "~/contract";
import type { ApiClient } from "~/client";
import { useApi } from "./api";
import { apiRoutes } from "./api-routes";
import { outfitDone, outfitPollInterval } from "./outfit-status";
import { USER_QUERY_PREFIX } from "./session";

export type OutfitGeneration = EndpointOutput<typeof apiRoutes.outfitGenerationsGet>;
export type OutfitGenerationStatus = NonNullable<EndpointOutput<typeof apiRoutes.clonesOutfitGenerationStatus>>;

/** The contract's OUTFIT_GENERATION_MAX_PRODUCTS, written here so the contract's zod stays out of the shoppers' JavaScript (a unit test checks they agree). */
export const OUTFIT_LOOK_MAX_PRODUCTS = 6;

export const OUTFIT_GENERATIONS_KEY = [USER_QUERY_PREFIX, "outfit-generations"] as const;
export const outfitGenerationStatusKey = (id: string) => [USER_QUERY_PREFIX, "outfit-generation-status", id] as const;

/** What a shopper reads for a status. */
export function generationLabel(s: Pick<OutfitGenerationStatus, "processing_status" | "outfit_generation_status">): string {
  if (s.processing_status === "ERROR" || s.outfit_generation_status === "ERROR") return "The outfit could not be made";
  if (s.processing_status === "READY" && s.outfit_generation_status === "COMPLETED") return "Ready";
  if (s.processing_status === "PROCESSING_IMAGES" || s.outfit_generation_status === "PROCESSING") return "Dressing your clone…";
  return "Waiting to start…";
}

/**
 * The status of one generation, polled every 5 s while in progress and not at all once done
 * (SPEC §4). `completed` is set when it is done (and cleared when a retry restarts it).
 */
export function useOutfitGenerationStatus(id: string | null, initial?: OutfitGenerationStatus | null) {
  const api = useApi();
  const qc = useQueryClient();
  const query = useQuery({ ...outfitStatusQueryOptions(api, id), initialData: initial ?? undefined });
  const status = query.data ?? null;
  const [completed, setCompleted] = useState<CompletedFlag>({ id, done: false });
  useEffect(() => {
    const next = nextCompletedFlag(completed, id, status);
    if (next === completed) return;
    setCompleted(next);
    // The lists (My try-ons' outfits) show the finished one.
    if (next.done) void qc.invalidateQueries({ queryKey: OUTFIT_GENERATIONS_KEY });
  }, [status, id, completed, qc]);
  return { status, completed: completed.id === id && completed.done, isError: query.isError, error: query.error };
}

/** The status query: every 5 s while in progress, no refetch once done (refetchInterval → false). */
export function outfitStatusQueryOptions(api: Pick<ApiClient, "clonesOutfitGenerationStatus">, id: string | null) {
  return {
    queryKey: outfitGenerationStatusKey(id ?? ""),
    queryFn: async () => api.clonesOutfitGenerationStatus({ query: { outfit_id: id ?? "" } }),
    enabled: !!id,
    refetchInterval: (q: { state: { data: OutfitGenerationStatus | null | undefined } }) => outfitPollInterval(q.state.data),
    refetchIntervalInBackground: false,
    retry: false,
  } as const;
}

export interface CompletedFlag {
  id: string | null;
  done: boolean;
}

/** The completed flag after a status: set when done, cleared when a retry puts it back in progress (same object when unchanged). */
export function nextCompletedFlag(prev: CompletedFlag, id: string | null, status: OutfitGenerationStatus | null): CompletedFlag {
  const done = !!status && outfitDone(status);
  const was = prev.id === id && prev.done;
  return done === was && prev.id === id ? prev : { id, done };
}

export function useStartOutfitGeneration() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { clone_id: string; outfit_id?: string; product_ids?: string[] }) => api.outfitGenerationsCreate({ body }),
    onSuccess: (g) => {
      qc.setQueryData(outfitGenerationStatusKey(g.id), toStatus(g));
      void qc.invalidateQueries({ queryKey: OUTFIT_GENERATIONS_KEY });
    },
  });
}

export function useRetryOutfitGeneration() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.outfitGenerationsRetry({ params: { id } }),
    onSuccess: (g) => {
      qc.setQueryData(outfitGenerationStatusKey(g.id), toStatus(g));
      void qc.invalidateQueries({ queryKey: OUTFIT_GENERATIONS_KEY });
    },
  });
}

/** The caller's generated outfits (newest first). */
export function useOutfitGenerations(enabled: boolean, take = 10) {
  const api = useApi();
  return useQuery({ queryKey: [...OUTFIT_GENERATIONS_KEY, take], queryFn: () => api.outfitGenerationsList({ query: { take } }), enabled });
}

export function toStatus(g: OutfitGeneration): OutfitGenerationStatus {
  return {
    processing_status: g.processing_status,
    outfit_generation_status: g.outfit_generation_status,
    processing_progress: g.processing_progress,
    outfit_id: g.id,
    image_url: g.image_url,
    error: g.error,
    completed: g.completed,
  };
}

export function useDeleteOutfitGeneration() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.outfitGenerationsDelete({ params: { id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: OUTFIT_GENERATIONS_KEY }),
  });
}
