import { z } from "zod";

export const TargetGender = z.enum(["both", "menswear", "womenswear"]);
export type TargetGender = z.infer<typeof TargetGender>;

/** A date on the wire: ISO 8601 text. Handlers may return Date objects; clients get strings. */
export const IsoDate = z.union([z.date(), z.iso.datetime({ offset: true })]).transform((d) => (d instanceof Date ? d.toISOString() : d));

/** Query-string integer with bounds and default. */
export const intParam = (def: number, min = 0, max = 1000) => z.coerce.number().int().min(min).max(max).default(def);

export const Ok = z.object({ ok: z.literal(true) });

export const IdParams = z.object({ id: z.string().min(1) });

/** A record's id in a path or a body: trimmed, 1–300 characters, never the strings "undefined" or "null" (a client's unset variable). */
export const RecordId = z
  .string()
  .trim()
  .min(1, "An id is required")
  .max(300, "must be at most 300 characters")
  .refine((v) => v !== "undefined" && v !== "null", "An id is required");
export const RecordIdParams = z.object({ id: RecordId });

export const Money = z.object({ amount: z.string(), currencyCode: z.string() });
