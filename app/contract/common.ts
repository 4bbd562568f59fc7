import { z } from "zod";

export const TargetGender = z.enum(["both", "menswear", "womenswear"]);
export type TargetGender = z.infer<typeof TargetGender>;

/** A date on the wire: ISO 8601 text. Handlers may return Date objects; clients get strings. */
export const IsoDate = z.union([z.date(), z.iso.datetime({ offset: true })]).transform((d) => (d instanceof Date ? d.toISOString() : d));

/** Query-string integer with bounds and default. */
export const intParam = (def: number, min = 0, max = 1000) => z.coerce.number().int().min(min).max(max).default(def);

export const Ok = z.object({ ok: z.literal(true) });

export const IdParams = z.object({ id: z.string().min(1) });

export const Money = z.object({ amount: z.string(), currencyCode: z.string() });
