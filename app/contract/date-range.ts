/**
 * Calendar-day ranges of the report endpoints (order analytics, vendor analytics): a day is
 * YYYY-MM-DD in the store's time zone, both ends included.
 */
import { z } from "zod";

const DAY_MS = 86_400_000;

export const DateOnly = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2100;
  }, "must be a real calendar date between 2000 and 2100");

/** The day count of an inclusive range of YYYY-MM-DD dates. */
export function analyticsRangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** A superRefine step: `from` not after `to`, and at most `maxDays` days (when both are given). */
export function checkDayRange(maxDays: number) {
  return (q: { from?: string; to?: string }, c: z.RefinementCtx) => {
    if (!q.from || !q.to) return;
    const days = analyticsRangeDays(q.from, q.to);
    if (days < 1) c.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
    else if (days > maxDays) c.addIssue({ code: "custom", path: ["to"], message: `the range must be at most ${maxDays} days` });
  };
}
