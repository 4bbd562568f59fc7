/**
 * Internal media (SPEC §3 "Internal media: type, format, colour similarity by l, a, b with optional
 * threshold", §7 "POST and GET /internal-media (query type, format, page, limit,
 * similar_to_color[l], [a], [b], [threshold]); GET, PATCH, DELETE /internal-media/{id}").
 * Every call needs `media.manage`. Colours are CIELAB (D65); similarity is CIEDE2000.
 */
import { z } from "zod";
import { access, endpoint, MULTIPART_ROOM_BYTES } from "./endpoint";
import { IdParams, IsoDate, Ok, intParam } from "./common";

export const InternalMediaTypeSchema = z.enum(["image", "video"]);

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_PIXELS = 40_000_000;
export const DEFAULT_COLOR_THRESHOLD = 10;

export const LabColorSchema = z.object({ l: z.number(), a: z.number(), b: z.number(), hex: z.string() });

export const InternalMediaSchema = z.object({
  id: z.string(),
  type: InternalMediaTypeSchema,
  format: z.string(),
  url: z.string(),
  title: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  /** The dominant colour (CIELAB D65) with its nearest hex. */
  color: LabColorSchema.nullable(),
  tags: z.array(z.string()),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type InternalMedia = z.output<typeof InternalMediaSchema>;

const Tag = z.string().trim().toLowerCase().min(1).max(40);
/** Tags from a form: repeated `tags` fields and/or comma-separated text. */
const FormTags = z
  .array(z.string())
  .transform((list) => [...new Set(list.flatMap((t) => t.split(",")).map((t) => t.trim().toLowerCase()).filter(Boolean))])
  .pipe(z.array(Tag).max(30, "at most 30 tags"));

const str = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/** The multipart body: `file` (the image), optional `type` (image | video), `title`, `tags`. */
export const InternalMediaUploadBody = z
  .instanceof(FormData, { message: 'Send the upload as multipart/form-data with the image in a "file" field' })
  .transform((fd, ctx): unknown => {
    const file = fd.get("file");
    if (!(file instanceof Blob)) {
      ctx.issues.push({ code: "custom", message: 'file is required: attach the image in a "file" field', input: file });
      return z.NEVER;
    }
    return { file, type: str(fd.get("type")), title: str(fd.get("title")), tags: fd.getAll("tags").filter((t): t is string => typeof t === "string") };
  })
  .pipe(
    z.object({
      file: z.instanceof(Blob),
      type: InternalMediaTypeSchema.default("image"),
      title: z.string().trim().max(200).optional(),
      tags: FormTags,
    }),
  );

/** A number from the query string: missing → "… is required"; not a number → "… must be a number". */
const num = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? undefined : typeof v === "string" ? Number(v) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? undefined : "must be a number") })
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

export const SimilarToColorSchema = z.object({
  l: num(0, 100),
  a: num(-160, 160),
  b: num(-160, 160),
  threshold: num(0.1, 100).default(DEFAULT_COLOR_THRESHOLD),
});

export const internalMediaEndpoints = {
  internalMediaUpload: endpoint({
    method: "POST",
    path: "/internal-media",
    summary: "Upload an image (multipart: file, type, title, tags): JPEG, PNG or WebP up to 10 MB and 40 megapixels, stored as a .jpg",
    tags: ["Internal media"],
    access: access.admin("media.manage"),
    body: InternalMediaUploadBody,
    maxBodyBytes: MAX_UPLOAD_BYTES + MULTIPART_ROOM_BYTES,
    multipart: {
      file: { kind: "file", required: true, description: "JPEG, PNG or WebP, at most 10 MB and 40 megapixels" },
      type: { kind: "text", description: "image (video uploads are not supported yet)" },
      title: { kind: "text" },
      tags: { kind: "text", description: "comma-separated" },
    },
    response: InternalMediaSchema,
    status: 201,
  }),
  internalMediaList: endpoint({
    method: "GET",
    path: "/internal-media",
    summary: "List internal media (type, format, page, limit; similar_to_color[l|a|b|threshold] orders by CIEDE2000 distance)",
    tags: ["Internal media"],
    access: access.admin("media.manage"),
    query: z.object({
      type: InternalMediaTypeSchema.optional(),
      format: z.string().trim().toLowerCase().max(20).optional(),
      tag: z.string().trim().toLowerCase().max(40).optional(),
      page: intParam(1, 1, 100_000),
      limit: intParam(20, 1, 100),
      similar_to_color: SimilarToColorSchema.optional(),
    }),
    response: z.object({
      media: z.array(InternalMediaSchema.extend({ distance: z.number().nullable() })),
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    }),
  }),
  internalMediaGetById: endpoint({
    method: "GET",
    path: "/internal-media/{id}",
    summary: "An internal media item",
    tags: ["Internal media"],
    access: access.admin("media.manage"),
    params: IdParams,
    response: InternalMediaSchema,
  }),
  internalMediaUpdate: endpoint({
    method: "PATCH",
    path: "/internal-media/{id}",
    summary: "Update an internal media item's tags, type or title",
    tags: ["Internal media"],
    access: access.admin("media.manage"),
    params: IdParams,
    body: z
      .object({ tags: z.array(Tag).max(30, "at most 30 tags").optional(), type: InternalMediaTypeSchema.optional(), title: z.string().trim().max(200).nullable().optional() })
      .refine((b) => b.tags !== undefined || b.type !== undefined || b.title !== undefined, "Give tags, type or title to update"),
    response: InternalMediaSchema,
  }),
  internalMediaDelete: endpoint({
    method: "DELETE",
    path: "/internal-media/{id}",
    summary: "Delete an internal media item and its stored file",
    tags: ["Internal media"],
    access: access.admin("media.manage"),
    params: IdParams,
    response: Ok,
  }),
};
