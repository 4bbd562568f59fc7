/**
 * Try-on calls for React (try-ons contract): one try-on's details — cached 5 minutes stale, kept
 * 30 minutes, never retried (SPEC §9), and polled while queued or processing — and whether a
 * product can be tried on (its companion's try-on flag).
 */
import { useQuery } from "@tanstack/react-query";
import type { EndpointOutput, endpoints } from "~/contract";
import { useApi } from "./api";
import { TRYON_DETAILS_GC_MS, TRYON_DETAILS_STALE_MS, TRYON_POLL_MS } from "./ai-constants";
import { USER_QUERY_PREFIX } from "./session";

export type TryOn = EndpointOutput<typeof endpoints.tryonsGet>;

export const tryOnKey = (id: string) => [USER_QUERY_PREFIX, "tryon", id] as const;
export const latestTryOnKey = (cloneId: string, productId: string) => [USER_QUERY_PREFIX, "vton", cloneId, productId] as const;

export const tryOnBusy = (t: Pick<TryOn, "status"> | null | undefined) => !!t && (t.status === "queued" || t.status === "processing");

/** The first image of a try-on, or null (then a placeholder is shown, SPEC §9). */
export const tryOnImage = (t: Pick<TryOn, "generated_images">): string | null => t.generated_images[0]?.image_url ?? null;

export function useTryOn(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: tryOnKey(id ?? ""),
    queryFn: () => api.tryonsGet({ params: { id: id ?? "" } }),
    enabled: !!id,
    staleTime: TRYON_DETAILS_STALE_MS,
    gcTime: TRYON_DETAILS_GC_MS,
    retry: false,
    refetchInterval: (q) => (tryOnBusy(q.state.data) ? TRYON_POLL_MS : false),
  });
}

/** Whether a product can be tried on: its companion has try-on active (public companion, cached 1 hour). */
export function useTryOnEligible(productId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ["companion-public", productId],
    queryFn: () => api.companionGetPublic({ params: { id: productId } }),
    staleTime: 60 * 60_000,
    gcTime: 2 * 60 * 60_000,
    select: (c) => !!c?.tryon_active,
  });
}
