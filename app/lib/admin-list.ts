/**
 * Admin list screens keep their state in the URL (status tab, search text, filters, page) so that a
 * reload, the back button or a shared link shows the same list. These helpers read that state with
 * zod — a value that does not fit falls back to its default instead of an error page, since the URL
 * is whatever someone typed — and write it back. Pure: used by loaders and by the pages alike.
 */
import { z } from "zod";

/** What an admin action answers; the page shows it in a banner (components/admin/ActionBanner). */
export type ActionResult = { ok: true; message: string } | { ok: false; error: string };
/** One row a bulk action could not handle, with the server's reason. */
export type BulkFailure = { id: string; message: string };

/**
 * Builders for the fields of `parseListParams`. Each one catches: a missing or malformed value
 * gives the field's default, never a failure.
 */
export const listParam = {
  /** A page number from `first` (0 or 1) up, read like parseInt ("3abc" is 3); anything else is `first`. */
  page: (first: 0 | 1 = 1) =>
    z
      .preprocess((v) => (typeof v === "string" ? Number.parseInt(v, 10) : Number.NaN), z.number().int().min(first))
      .catch(first),
  /** Free text, trimmed and cut to `max` characters when given; "" when absent. */
  text: (max?: number) =>
    z
      .string()
      .trim()
      .transform((s) => (max === undefined ? s : s.slice(0, max)))
      .catch(""),
  /** One of `values` (e.g. the ids of the status tabs), else `fallback`. */
  oneOf: <T extends string>(values: readonly T[], fallback: T) => z.enum(values as readonly [T, ...T[]]).catch(fallback),
  /** A value `schema` accepts, else undefined (no filter). */
  optional: <S extends z.ZodType>(schema: S) => schema.optional().catch(undefined),
};

type ListField = z.ZodCatch<z.ZodType>;

/**
 * The list state in `params`, one field per entry of `shape` (built with `listParam`, so that no
 * value can fail). Only the first value of a repeated key counts, as with `URLSearchParams.get`.
 */
export function parseListParams<S extends Record<string, ListField>>(params: URLSearchParams, shape: S): { [K in keyof S]: z.output<S[K]> } {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) raw[key] = params.get(key) ?? undefined;
  return z.object(shape).parse(raw) as { [K in keyof S]: z.output<S[K]> };
}

/**
 * `params` with `changes` applied: a value sets its key, "" / null / undefined removes it (the
 * default). Any change other than to the page itself goes back to the first page, since the old
 * page number means nothing in a different list.
 */
export function withParams(params: URLSearchParams, changes: Record<string, string | null | undefined>, { pageKey = "page" }: { pageKey?: string } = {}): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  if (!(pageKey in changes)) next.delete(pageKey);
  return next;
}

/** The 1-based positions of the rows a page shows: from 0 to 0 when the list is empty. */
export function pageRange(offset: number, pageSize: number, total: number): { from: number; to: number } {
  return { from: total === 0 ? 0 : offset + 1, to: Math.min(total, offset + pageSize) };
}

/** "21–40 of 1,234" for the page at `offset`; `empty` instead when there is nothing (when given). */
export function rangeLabel(offset: number, pageSize: number, total: number, empty?: string): string {
  if (total === 0 && empty !== undefined) return empty;
  const { from, to } = pageRange(offset, pageSize, total);
  return `${from}–${to} of ${total.toLocaleString("en")}`;
}

/** What a bulk review service answers: per id, whether it went through and why not. */
export interface BulkReport {
  succeeded: number;
  failed: number;
  results: readonly { id: string; ok: boolean; error: { message: string } | null }[];
}

/**
 * A bulk action's answer for the page: "3 edits approved; 1 failed." and the failed rows with the
 * server's reasons (the banner names them).
 */
export function bulkOutcome(report: BulkReport, verb: string, [one, many]: readonly [string, string]): { ok: true; message: string; failures: BulkFailure[] } {
  const failures = report.results.filter((x) => !x.ok).map((x) => ({ id: x.id, message: x.error?.message ?? "Failed" }));
  const failedNote = report.failed ? `; ${report.failed} failed` : "";
  return { ok: true, message: `${report.succeeded} ${report.succeeded === 1 ? one : many} ${verb}${failedNote}.`, failures };
}
