/**
 * Clones (SPEC §3 Clone, CloneTrainingJob, Outfit generation status; §4 outfit generation; §7
 * Clones; §9 clones page 20): a shopper's AI model of themselves, made from their photos.
 *
 * Life of a clone:
 * 1. `POST /clones` (multipart: name, gender, 4–20 files "photos"). Every photo is checked by
 *    content (JPEG/PNG/WebP, ≤ 10 MB), its EXIF orientation applied, and looked at by the person
 *    analysis: exactly one person, face visible, ≥ 512 px on the short side, shoulders visible.
 *    Usable photos are stored under images/clones/<cloneId>/…; refused ones are not kept. Each
 *    photo is answered `{index, filename, image_url, ok, reason}`. Fewer than 4 usable photos →
 *    422 and nothing is created; `error.details.photos` holds the per-photo answers.
 *    The usable photos become `baseImageUrls`; with `start_training=true` training starts at once.
 * 2. `POST /clones/process-selected-base-images` (the shopper picks ≥ 4 of the usable photos)
 *    sets `baseImageUrls` and starts training (a CloneTrainingJob).
 * 3. Training: `processing_status` PENDING → PROCESSING_IMAGES → READY | ERROR and
 *    `outfit_generation_status` PENDING → PROCESSING → COMPLETED | ERROR, `processing_progress`
 *    0–100 (`GET /clones/outfit-generation-status`, polled every 5 s while in progress; the job
 *    itself at `GET /clones/training-jobs/{id}`).
 *
 * Access: signed-in users (guests included) see and edit their own clones; public clones
 * (`isPublic`) are listed with `?isPublic=true` and readable by anyone signed in, but only admins
 * with `ai.train` make a clone public or edit/delete one they do not own (a shopper sending
 * `isPublic: true` gets 403). Someone else's private clone answers 404, like a missing one.
 * Admins with `ai.train` see every clone and training job.
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, Ok, intParam } from "./common";

/** A clone is a person: the catalogue's target genders without "both". */
export const CloneGenderSchema = z.enum(["menswear", "womenswear"]);
export type CloneGender = z.infer<typeof CloneGenderSchema>;

export const CLONE_MIN_PHOTOS = 4;
export const CLONE_MAX_PHOTOS = 20;
export const CLONES_PAGE_SIZE = 20;
export const CLONE_PHOTO_MAX_BYTES = 10 * 1024 * 1024;

export const CloneProcessingStatusSchema = z.enum(["PENDING", "PROCESSING_IMAGES", "READY", "ERROR"]);
export const CloneOutfitGenerationStatusSchema = z.enum(["PENDING", "PROCESSING", "COMPLETED", "ERROR"]);
export const CloneTrainingStatusSchema = z.enum(["queued", "preprocessing", "training", "completed", "failed", "cancelled"]);

/** One uploaded photo's verdict. `image_url` is null for refused photos (they are not stored). */
export const ClonePhotoResultSchema = z.object({
  /** Position of the file in the upload (0-based). */
  index: z.number().int(),
  filename: z.string().nullable(),
  image_url: z.string().nullable(),
  ok: z.boolean(),
  /** Why the photo cannot be used, in words for the shopper. */
  reason: z.string().nullable(),
});
export type ClonePhotoResult = z.output<typeof ClonePhotoResultSchema>;

/** A stored photo of a clone (kept in the clone's attributes). */
export const ClonePhotoSchema = z.object({
  image_url: z.string(),
  ok: z.boolean(),
  reason: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});

export const CloneTrainingJobSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  clone_id: z.string().nullable(),
  status: CloneTrainingStatusSchema,
  /** 0–100. */
  progress: z.number().int(),
  is_product_clone: z.boolean(),
  input_image_urls: z.array(z.string()),
  error: z.string().nullable(),
  completed_at: IsoDate.nullable(),
  /** Seconds from creation to completion (null until completed). */
  duration: z.number().int().nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type CloneTrainingJobView = z.output<typeof CloneTrainingJobSchema>;

export const CloneOutfitStatusSchema = z.object({
  processing_status: CloneProcessingStatusSchema,
  outfit_generation_status: CloneOutfitGenerationStatusSchema,
  processing_progress: z.number().int(),
});

/**
 * GET /clones/outfit-generation-status answers a clone's training (the fields above, as before)
 * or, since issue 19, a generated outfit's: then also its id, image, error and §4's done flag.
 * The extra fields are optional, so a client reading only the three spec fields is unaffected.
 */
export const OutfitGenerationStatusAnswerSchema = CloneOutfitStatusSchema.extend({
  outfit_id: z.string().optional(),
  image_url: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  completed: z.boolean().optional(),
});

export const CloneSchema = z.object({
  id: z.string(),
  name: z.string(),
  gender: CloneGenderSchema.nullable(),
  /** The photos training uses. */
  baseImageUrls: z.array(z.string()),
  profileImageUrl: z.string().nullable(),
  isPublic: z.boolean(),
  /** Free-form facts: `photos` (stored uploads with their verdicts), `prepared` (per-photo results of training), `profile` (last profile-image request). */
  attributes: z.record(z.string(), z.unknown()),
  /** null for admin clones. */
  user_id: z.string().nullable(),
  /** Whether the caller owns it (admins: also true for admin clones). */
  is_owner: z.boolean(),
  is_product_clone: z.boolean(),
  /** Every stored photo with its verdict (also in attributes.photos). */
  photos: z.array(ClonePhotoSchema),
  trigger_word: z.string().nullable(),
  /** LoRA weights of a trained clone (null when the provider only prepared the photos). */
  lora_url: z.string().nullable(),
  processing_status: CloneProcessingStatusSchema,
  outfit_generation_status: CloneOutfitGenerationStatusSchema,
  processing_progress: z.number().int(),
  /** Status of the last profile-image generation, if any. */
  profile_image_status: z.enum(["processing", "completed", "failed"]).nullable(),
  /** The newest training job (progress bar), or null. */
  training_job: CloneTrainingJobSchema.nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type CloneView = z.output<typeof CloneSchema>;

const str = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const bool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");

/** Files from the "photos" field (also accepts "photos[]" and "photo"). */
function formPhotos(fd: FormData): unknown[] {
  return [...fd.getAll("photos"), ...fd.getAll("photos[]"), ...fd.getAll("photo")];
}

const photosSchema = (min: number) =>
  z
    .array(z.instanceof(Blob, { message: 'photos must be files (attach each image in a "photos" field)' }))
    .min(min, min === 1 ? 'Attach at least one photo in a "photos" field' : `Attach at least ${min} photos (${CLONE_MIN_PHOTOS} usable photos of you are needed)`)
    .max(CLONE_MAX_PHOTOS, `At most ${CLONE_MAX_PHOTOS} photos`);

const multipartOnly = 'Send the upload as multipart/form-data with the images in "photos" fields';

/** POST /clones: name, gender, photos (2–20 files), start_training. */
export const ClonesCreateBody = z
  .instanceof(FormData, { message: multipartOnly })
  .transform((fd): unknown => ({
    name: str(fd.get("name")),
    gender: str(fd.get("gender")),
    photos: formPhotos(fd),
    start_training: str(fd.get("start_training")),
  }))
  .pipe(
    z.object({
      name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(80, "name: at most 80 characters"),
      gender: CloneGenderSchema,
      photos: photosSchema(2),
      start_training: bool.default(false),
    }),
  );

/** POST /clones/{id}/photos: photos (1–20 files). */
export const ClonesAddPhotosBody = z
  .instanceof(FormData, { message: multipartOnly })
  .transform((fd): unknown => ({ photos: formPhotos(fd) }))
  .pipe(z.object({ photos: photosSchema(1) }));

export const ClonesPhotosResponse = z.object({ clone: CloneSchema, photos: z.array(ClonePhotoResultSchema) });

const TrainingStarted = z.object({ clone: CloneSchema, job: CloneTrainingJobSchema });

export const clonesEndpoints = {
  clonesList: endpoint({
    method: "GET",
    path: "/clones",
    summary:
      "The caller's clones, newest first (20 a page, SPEC §9); isPublic=true lists public clones instead; all=true (admins with ai.train) lists every clone",
    tags: ["Clones"],
    access: access.user,
    query: z.object({
      limit: intParam(CLONES_PAGE_SIZE, 1, 50),
      cursor: z.string().max(500).optional(),
      isPublic: bool.optional(),
      all: bool.optional(),
    }),
    response: z.object({ clones: z.array(CloneSchema), nextCursor: z.string().nullable() }),
  }),
  clonesCreate: endpoint({
    method: "POST",
    path: "/clones",
    summary:
      "Create a clone from photos (multipart: name, gender, 2–20 files \"photos\", start_training). Each photo: JPEG/PNG/WebP ≤ 10 MB with exactly one person; answers a verdict per photo. Fewer than 4 usable photos → 422 with error.details.photos",
    tags: ["Clones"],
    access: access.user,
    rateLimit: "image",
    body: ClonesCreateBody,
    // The server's ceiling: twenty photos of up to 5 MB in one request (larger ones: add the rest with POST /clones/{id}/photos).
    maxBodyBytes: 100 * 1024 * 1024,
    multipart: {
      name: { kind: "text", required: true },
      gender: { kind: "text", required: true, description: "menswear or womenswear" },
      photos: { kind: "file", required: true, description: "2–20 images (repeat the field), JPEG/PNG/WebP, ≤ 10 MB each; at least 4 must show exactly one person" },
      start_training: { kind: "text", description: "true: start training on the usable photos at once" },
    },
    response: ClonesPhotosResponse.extend({ job: CloneTrainingJobSchema.nullable() }),
    status: 201,
  }),
  clonesAdminCreate: endpoint({
    method: "POST",
    path: "/clones/admin",
    summary:
      "Create an admin clone (no owner) from stored images: gender, name, baseImageUrls, profileImageUrl, isPublic (default true), train (default true: trains with train-flux-admin, needs 4 images; false: ready at once)",
    tags: ["Clones"],
    access: access.admin("ai.train"),
    body: z.object({
      name: z.string().trim().min(1).max(80),
      gender: CloneGenderSchema,
      baseImageUrls: z.array(z.string().min(1).max(2048)).min(1).max(40),
      profileImageUrl: z.string().min(1).max(2048).nullable().optional(),
      isPublic: z.boolean().default(true),
      train: z.boolean().default(true),
    }),
    response: z.object({ clone: CloneSchema, job: CloneTrainingJobSchema.nullable() }),
    status: 201,
  }),
  clonesProcessSelectedBaseImages: endpoint({
    method: "POST",
    path: "/clones/process-selected-base-images",
    summary:
      "Choose which uploaded photos (≥ 4 usable ones) become the clone's baseImageUrls and start training. cloneId may be left out: the clone is found from the photos",
    tags: ["Clones"],
    access: access.user,
    body: z.object({
      cloneId: z.string().min(1).optional(),
      selectedImageUrls: z
        .array(z.string().min(1).max(2048))
        .min(CLONE_MIN_PHOTOS, `Select at least ${CLONE_MIN_PHOTOS} photos`)
        .max(CLONE_MAX_PHOTOS, `Select at most ${CLONE_MAX_PHOTOS} photos`),
    }),
    response: TrainingStarted,
    status: 202,
  }),
  clonesOutfitGenerationStatus: endpoint({
    method: "GET",
    path: "/clones/outfit-generation-status",
    summary:
      "Outfit generation status: of a generated outfit (outfit_id), of a clone's training (clone_id), else of the caller's newest generated outfit, else of their newest clone. In progress while PROCESSING_IMAGES / PENDING / PROCESSING; null when unknown or not the caller's (SPEC §8)",
    tags: ["Clones"],
    access: access.user,
    query: z.object({ clone_id: z.string().max(100).optional(), outfit_id: z.string().max(100).optional() }),
    response: OutfitGenerationStatusAnswerSchema.nullable(),
  }),
  clonesTrainingJobsList: endpoint({
    method: "GET",
    path: "/clones/training-jobs",
    summary: "The caller's clone training jobs, newest first (skip, take; clone_id filters)",
    tags: ["Clones"],
    access: access.user,
    query: z.object({ skip: intParam(0, 0, 100_000), take: intParam(10, 1, 100), clone_id: z.string().max(100).optional() }),
    response: z.object({ jobs: z.array(CloneTrainingJobSchema), total: z.number().int() }),
  }),
  clonesTrainingJobGet: endpoint({
    method: "GET",
    path: "/clones/training-jobs/{id}",
    summary: "A training job: status, progress, duration, error, completed_at",
    tags: ["Clones"],
    access: access.user,
    params: IdParams,
    response: CloneTrainingJobSchema,
  }),
  clonesGetById: endpoint({
    method: "GET",
    path: "/clones/{id}",
    summary: "A clone (own, or public)",
    tags: ["Clones"],
    access: access.user,
    params: IdParams,
    response: CloneSchema,
  }),
  clonesUpdate: endpoint({
    method: "PATCH",
    path: "/clones/{id}",
    summary: "Rename a clone, change its gender; isPublic only by admins with ai.train (403 for shoppers)",
    tags: ["Clones"],
    access: access.user,
    params: IdParams,
    body: z
      .object({ name: z.string().trim().min(1).max(80).optional(), gender: CloneGenderSchema.optional(), isPublic: z.boolean().optional() })
      .refine((b) => b.name !== undefined || b.gender !== undefined || b.isPublic !== undefined, "Give name, gender or isPublic to update"),
    response: CloneSchema,
  }),
  clonesDelete: endpoint({
    method: "DELETE",
    path: "/clones/{id}",
    summary: "Delete a clone and its stored photos",
    tags: ["Clones"],
    access: access.user,
    params: IdParams,
    response: Ok,
  }),
  clonesAddPhotos: endpoint({
    method: "POST",
    path: "/clones/{id}/photos",
    summary: "Add photos to a clone (multipart: 1–20 files \"photos\"; at most 20 photos per clone); 422 with error.details.photos when none is usable",
    tags: ["Clones"],
    access: access.user,
    rateLimit: "image",
    params: IdParams,
    body: ClonesAddPhotosBody,
    maxBodyBytes: 100 * 1024 * 1024,
    multipart: { photos: { kind: "file", required: true, description: "1–20 images, JPEG/PNG/WebP ≤ 10 MB, exactly one person each" } },
    response: ClonesPhotosResponse,
  }),
  clonesSetProfileImage: endpoint({
    method: "PATCH",
    path: "/clones/{id}/profile-image",
    summary: "Set the clone's profile image: one of its photos or images generated for it",
    tags: ["Clones"],
    access: access.user,
    params: IdParams,
    body: z.object({ profileImageUrl: z.string().min(1).max(2048) }),
    response: CloneSchema,
  }),
  clonesGenerateProfileImage: endpoint({
    method: "POST",
    path: "/clones/{id}/generate-profile-image",
    summary: "Generate a square profile portrait from the clone's photos (asynchronous: profileImageUrl is set when done; see profile_image_status)",
    tags: ["Clones"],
    access: access.user,
    params: IdParams,
    response: z.object({ clone: CloneSchema, request_id: z.string(), status: z.string() }),
    status: 202,
  }),
};
