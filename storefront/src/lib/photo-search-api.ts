/**
 * The photo search calls (vision contract): the upload (`visionProductSearch`, multipart `image`
 * plus the gender and the page size) and the shopper's past photo searches
 * (`visionSearchEntriesList`, the 10 newest). Entries keep a summary of their products, read here.
 */
import { useMemo } from "react";
import { z } from "zod";
import type { EndpointOutput, Endpoints } from "~/contract";
import { useApi } from "./api";
import type { Gender } from "./gender-routing";
import { targetGenderParam } from "./gender-preference";
import { USER_QUERY_PREFIX } from "./session";

export type PhotoSearchAnswer = EndpointOutput<Endpoints["visionProductSearch"]>;
export type VisionEntry = EndpointOutput<Endpoints["visionSearchEntriesList"]>["entries"][number];

/** Results asked of a photo search (the server's default and our grid). */
export const PHOTO_RESULTS_LIMIT = 20;

/** The query key of the past photo searches (a "user" key: dropped on sign-in and sign-out). */
export const VISION_ENTRIES_KEY = [USER_QUERY_PREFIX, "vision-entries"] as const;

export function usePhotoSearchApi() {
  const api = useApi();
  return useMemo(
    () => ({
      /** Uploads the prepared photo; an aborted search's answer is dropped by the caller. */
      async search(photo: File, gender: Gender, _signal?: AbortSignal): Promise<PhotoSearchAnswer> {
        const body = new FormData();
        body.set("image", photo, photo.name || "photo.jpg");
        const tg = targetGenderParam(gender);
        if (tg) body.set("target_gender", tg);
        body.set("limit", String(PHOTO_RESULTS_LIMIT));
        return api.visionProductSearch({ body });
      },
      entries: () => api.visionSearchEntriesList(),
    }),
    [api],
  );
}

const EntryProducts = z.object({
  products: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      handle: z.string().nullable().optional(),
      featuredImage: z.string().nullable().optional(),
    }),
  ),
});

export type EntryProduct = z.output<typeof EntryProducts>["products"][number];

/** The products an entry kept (its result's `products`), or none when the result has another shape. */
export function entryProducts(entry: Pick<VisionEntry, "result">): EntryProduct[] {
  let result: unknown = entry.result;
  if (typeof result === "string") {
    try {
      result = JSON.parse(result);
    } catch {
      return [];
    }
  }
  const parsed = EntryProducts.safeParse(result);
  return parsed.success ? parsed.data.products : [];
}
