/**
 * Clone calls and state for React (clones contract): the shopper's clones (cursor pages of 20,
 * SPEC §9), the public house models, the upload of a new clone's photos with progress, and the
 * training status polled every 5 s while in progress (SPEC §4, ./outfit-status.ts).
 *
 * Query keys start with "user" (dropped on sign-in and sign-out, ./session.tsx).
 */
import { useEffect, useRef } from "react";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { ApiClientError } from "~/client";
import { ClonePhotoResultSchema, type CloneView, type ClonePhotoResult, type EndpointOutput } from "~/contract";
import { useApi } from "./api";
import { apiRoutes } from "./api-routes";
import { CLONES_PAGE } from "./ai-constants";
import { outfitDone, outfitInProgress, outfitPollInterval, type OutfitStatus } from "./outfit-status";
import { USER_QUERY_PREFIX } from "./session";
import { uploadForm } from "./upload";

export type { CloneView, ClonePhotoResult };
export type CloneCreated = EndpointOutput<typeof apiRoutes.clonesCreate>;
export type HouseModel = EndpointOutput<typeof apiRoutes.tryonsBasicClones>["clones"][number];

export const CLONES_KEY = [USER_QUERY_PREFIX, "clones"] as const;
export const READY_CLONES_KEY = [USER_QUERY_PREFIX, "clones", "ready"] as const;
export const cloneStatusKey = (id: string) => [USER_QUERY_PREFIX, "clone-status", id] as const;
export const HOUSE_MODELS_KEY = ["house-models"] as const;

/** The picture of a clone: its profile image, else its first photo. */
export function cloneImage(c: {
  profileImageUrl: string | null;
  baseImageUrls?: string[];
  photos?: { image_url: string; ok: boolean }[];
  previewImageUrl?: string | null;
}): string | null {
  return c.profileImageUrl ?? c.previewImageUrl ?? c.photos?.find((p) => p.ok)?.image_url ?? c.baseImageUrls?.[0] ?? null;
}

/** Whether training was ever started (a new clone is PENDING/PENDING without a job: not "in progress"). */
export function trainingStarted(c: Pick<CloneView, "training_job" | "processing_status" | "outfit_generation_status">): boolean {
  return !!c.training_job || c.processing_status !== "PENDING" || c.outfit_generation_status !== "PENDING";
}

export function useOwnClones(enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: CLONES_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.clonesList({ query: { cursor: pageParam, limit: CLONES_PAGE } }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** The shopper's clones that can be tried on now (the try-on panel's picker). */
export function useReadyClones(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: READY_CLONES_KEY,
    queryFn: async () => (await api.clonesList({ query: { limit: 50 } })).clones,
    enabled,
    staleTime: 30_000,
  });
}

/** Public house models anyone signed in can try clothes on. */
export function useHouseModels(enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: HOUSE_MODELS_KEY,
    queryFn: async () => (await api.tryonsBasicClones({ query: { limit: 50 } })).clones,
    enabled,
    staleTime: 10 * 60_000,
  });
}

/**
 * A clone's training status, polled every 5 s while in progress and not at all once done
 * (SPEC §4). When it settles, the clone lists are refreshed (job duration, error).
 */
export function useCloneStatus(clone: CloneView) {
  const api = useApi();
  const qc = useQueryClient();
  const started = trainingStarted(clone);
  const initial: OutfitStatus = {
    processing_status: clone.processing_status,
    outfit_generation_status: clone.outfit_generation_status,
    processing_progress: clone.processing_progress,
  };
  const query = useQuery({
    queryKey: cloneStatusKey(clone.id),
    queryFn: async () => (await api.clonesOutfitGenerationStatus({ query: { clone_id: clone.id } })) ?? initial,
    initialData: initial,
    initialDataUpdatedAt: Date.parse(clone.updated_at) || Date.now(),
    enabled: started && !outfitDone(initial),
    refetchInterval: (q) => outfitPollInterval(q.state.data),
    refetchIntervalInBackground: false,
    retry: false,
  });
  // The clone's own fields win once they say it is done (a newer answer than a cached poll).
  const status = !started || outfitDone(initial) ? initial : query.data ?? initial;

  // Polling found the end: refresh the lists once (the clone's job, profile image…).
  const wasInProgress = useRef(started && outfitInProgress(initial));
  useEffect(() => {
    if (!started) return;
    if (outfitInProgress(status)) wasInProgress.current = true;
    else if (wasInProgress.current && outfitDone(status)) {
      wasInProgress.current = false;
      void qc.invalidateQueries({ queryKey: CLONES_KEY });
    }
  }, [started, status, qc]);

  return { status, started, polling: started && outfitInProgress(status) };
}

/** The per-photo verdicts of a refused upload (422 with error.details.photos), or null. */
export function photoVerdictsOf(error: unknown): ClonePhotoResult[] | null {
  if (!(error instanceof ApiClientError)) return null;
  const parsed = z.object({ photos: z.array(ClonePhotoResultSchema) }).safeParse(error.details);
  return parsed.success ? parsed.data.photos : null;
}

/** Uploads a new clone's photos (multipart, with upload progress). */
export function useCloneUpload() {
  const api = useApi();
  return {
    create(
      args: { name: string; gender: "menswear" | "womenswear"; photos: File[]; startTraining?: boolean },
      onProgress: (percent: number) => void,
      signal?: AbortSignal
    ) {
      const form = new FormData();
      form.set("name", args.name);
      form.set("gender", args.gender);
      args.photos.forEach((file, i) => form.append("photos", file, file.name || `photo-${i + 1}.jpg`));
      if (args.startTraining) form.set("start_training", "true");
      return uploadForm<CloneCreated>(api.url(apiRoutes.clonesCreate), form, { onProgress, signal });
    },
  };
}
