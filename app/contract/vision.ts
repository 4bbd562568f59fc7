/**
 * Vision: search the catalogue by photo, face boxes, and the shopper's vision search entries
 * (SPEC §3 VisionSearchEntry: id, user_id, image_url, result; §5 "Temporary vision entry …
 * require a user id", "Creating or updating a search entry requires login"; §7 "vision
 * (product-search, product-search-url, detect-faces-and-logos)"; §8 messages; §9 "vision entries 10").
 *
 * Photos are embedded on the server (model id in `model`; layout in
 * app/providers/image-embedding/features.ts) and matched against the products' featured images
 * in the vector index (namespace "image"). Logos cannot be detected by the local provider: the
 * answer says so in `logoDetection`.
 */
import { z } from "zod";
import { access, endpoint, MULTIPART_ROOM_BYTES } from "./endpoint";
import { IdParams, IsoDate, TargetGender } from "./common";
import { Messages } from "./messages";
import { ProductCardSchema } from "./products";

export const VISION_DEFAULT_LIMIT = 20;
export const VISION_MAX_LIMIT = 60;
/** SPEC §9: vision entries 10. */
export const VISION_ENTRIES_LIMIT = 10;
export const VISION_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

const str = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

const Limit = z.coerce.number().int().min(1).max(VISION_MAX_LIMIT).default(VISION_DEFAULT_LIMIT);

/** An image URL: ours (`/uploads/…`) or http(s). */
export const ImageUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((v) => v.startsWith("/uploads/") || /^https?:\/\/[^\s]+$/i.test(v), "must be an http(s) URL or one of our /uploads/ URLs");

/** Multipart: the photo in `image` (or `file`), optional `target_gender` and `limit`. */
export const VisionUploadBody = z
  .instanceof(FormData, { message: 'Send the photo as multipart/form-data in an "image" field' })
  .transform((fd, ctx): unknown => {
    const file = fd.get("image") ?? fd.get("file");
    if (!(file instanceof Blob)) {
      ctx.issues.push({ code: "custom", message: 'image is required: attach the photo in an "image" field', input: file });
      return z.NEVER;
    }
    return { image: file, target_gender: str(fd.get("target_gender")), limit: str(fd.get("limit")) };
  })
  .pipe(z.object({ image: z.instanceof(Blob), target_gender: TargetGender.optional(), limit: Limit }));

const FaceBoxSchema = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int(), score: z.number() });
const LogoDetectionSchema = z.union([
  z.object({ supported: z.literal(true), provider: z.string() }),
  z.object({ supported: z.literal(false), provider: z.string(), reason: z.string() }),
]);

export const VisionSearchResultSchema = z.object({
  results: z.array(ProductCardSchema),
  /** Cosine similarity of each result's image to the photo (same order as results). */
  scores: z.array(z.number()),
  limit: z.number().int(),
  target_gender: TargetGender.nullable(),
  /** The image embedding model and the vector index that answered. */
  model: z.string(),
  index: z.string(),
  /** The stored entry (signed-in, non-guest callers), else null. */
  searchEntryId: z.string().nullable(),
  /** Where the photo is kept (with an entry), else null. */
  image_url: z.string().nullable(),
  /** The garment colour read from the photo (background left out); results carry `matchedVariant` in it. */
  colour: z.object({ hex: z.string(), name: z.string() }).nullable().optional(),
  timings: z.object({ embedMs: z.number(), queryMs: z.number() }),
});

export const VisionSearchEntrySchema = z.object({
  id: z.string(),
  user_id: z.string(),
  image_url: z.string(),
  result: z.unknown().nullable(),
  is_temporary: z.boolean(),
  created_at: IsoDate,
  updated_at: IsoDate,
});

/** The entry's result: any JSON (or JSON text, stored parsed), at most 200 kB. */
const EntryResult = z
  .unknown()
  .transform((v, ctx) => {
    if (typeof v === "string") {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    }
    return v;
  })
  .refine((v) => v === undefined || JSON.stringify(v).length <= 200_000, "result must be at most 200 kB of JSON");

export const visionEndpoints = {
  visionProductSearch: endpoint({
    method: "POST",
    path: "/vision/product-search",
    summary:
      "Search products by photo (multipart: image — JPEG, PNG or WebP up to 10 MB and 40 megapixels —, target_gender, limit 1–60, default 20). Answers visible products whose featured image looks closest, with cosine scores. For a signed-in non-guest caller, the photo and the result are kept as a vision search entry.",
    tags: ["Vision"],
    access: access.public,
    rateLimit: "image",
    body: VisionUploadBody,
    maxBodyBytes: VISION_MAX_UPLOAD_BYTES + MULTIPART_ROOM_BYTES,
    multipart: {
      image: { kind: "file", required: true, description: "JPEG, PNG or WebP, at most 10 MB and 40 megapixels (a `file` field is accepted too)" },
      target_gender: { kind: "text", description: "menswear, womenswear or both (menswear and womenswear include products for both)" },
      limit: { kind: "text", description: "1–60, default 20" },
    },
    response: VisionSearchResultSchema,
  }),
  visionProductSearchUrl: endpoint({
    method: "POST",
    path: "/vision/product-search-url",
    summary:
      "Search products by the photo at a URL: one of our /uploads/ URLs (read from storage) or a public http(s) URL (fetched within 10 s and 10 MB; private and loopback addresses are refused). Same answer as product-search.",
    tags: ["Vision"],
    access: access.public,
    rateLimit: "image",
    body: z.object({ url: ImageUrl, target_gender: TargetGender.optional(), limit: Limit }),
    response: VisionSearchResultSchema,
  }),
  visionDetectFacesAndLogos: endpoint({
    method: "POST",
    path: "/vision/detect-faces-and-logos",
    summary:
      "Face boxes in a photo (multipart `image`, or JSON {url} as for product-search-url), in pixels of the photo as shown (EXIF orientation applied). Logos: the local image provider cannot detect them — `logos` is empty and `logoDetection` says why.",
    tags: ["Vision"],
    access: access.public,
    rateLimit: "image",
    body: z.union([VisionUploadBody, z.object({ url: ImageUrl })]),
    maxBodyBytes: VISION_MAX_UPLOAD_BYTES + MULTIPART_ROOM_BYTES,
    multipart: { image: { kind: "file", required: true, description: "JPEG, PNG or WebP, at most 10 MB and 40 megapixels" } },
    response: z.object({
      faces: z.array(FaceBoxSchema),
      logos: z.array(z.object({ name: z.string(), x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int(), score: z.number() })),
      logoDetection: LogoDetectionSchema,
      width: z.number().int(),
      height: z.number().int(),
      model: z.string(),
    }),
  }),
  visionSearchEntriesList: endpoint({
    method: "GET",
    path: "/vision-search-entries",
    summary: "The caller's vision search entries, newest first (the 10 newest)",
    tags: ["Vision"],
    access: access.user,
    response: z.object({ entries: z.array(VisionSearchEntrySchema) }),
  }),
  visionSearchEntriesCreate: endpoint({
    method: "POST",
    path: "/vision-search-entries",
    summary: "Keep a vision search (image_url, result). Signed-in non-guest users only.",
    tags: ["Vision"],
    access: access.loggedIn(Messages.SEARCH_ENTRY_CREATE_LOGIN),
    body: z.object({ image_url: ImageUrl, result: EntryResult.optional() }),
    response: VisionSearchEntrySchema,
    status: 201,
  }),
  visionSearchEntriesCreateTemporary: endpoint({
    method: "POST",
    path: "/vision-search-entries/temporary",
    summary:
      "Keep a temporary vision search for a guest (userId: the caller's own id; image_url and result optional). Any signed-in caller, for themselves only.",
    tags: ["Vision"],
    access: access.user,
    body: z.object({
      userId: z.string({ error: Messages.USER_ID_REQUIRED }).trim().min(1, Messages.USER_ID_REQUIRED),
      image_url: ImageUrl.optional(),
      result: EntryResult.optional(),
    }),
    response: VisionSearchEntrySchema,
    status: 201,
  }),
  visionSearchEntriesUpdate: endpoint({
    method: "PATCH",
    path: "/vision-search-entries/{id}",
    summary: "Update one of the caller's vision search entries (image_url, result). Signed-in non-guest users only.",
    tags: ["Vision"],
    access: access.loggedIn(Messages.SEARCH_ENTRY_UPDATE_LOGIN),
    params: IdParams,
    body: z
      .object({ image_url: ImageUrl.optional(), result: EntryResult.optional() })
      .refine((b) => b.image_url !== undefined || b.result !== undefined, "Give image_url or result to update"),
    response: VisionSearchEntrySchema,
  }),
};
