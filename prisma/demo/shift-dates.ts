/**
 * Moves the demo's dates to the present. The demo is built around a fixed BASE_DATE so that every
 * seed writes identical rows (and tests can count on them); a person who starts the product later
 * would then find the admin charts' default range (the last 30 days) empty. The first embedded
 * start therefore moves every date of the seeded rows by one whole number of days, so the demo's last day
 * (the day before BASE_DATE) becomes yesterday: same rows, same times of day, same gaps between
 * them. `npm run seed` does the same (DEMO_FIXED_DATES=1 keeps BASE_DATE); seeds without a `today`
 * (the tests) keep BASE_DATE.
 */
import type { PrismaClient } from "@prisma/client";
import { BASE_DATE } from "./generate";

const DAY_MS = 86_400_000;
const DATE_TYPES = ["timestamp without time zone", "timestamp with time zone", "date"];

/** Days to add to the demo's dates so that BASE_DATE's day becomes `today` (YYYY-MM-DD); negative before BASE_DATE. */
export function demoShiftDays(today: string): number {
  const target = Date.parse(`${today}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(target)) throw new Error(`demoShiftDays: "${today}" is not a YYYY-MM-DD day`);
  return Math.round((target - BASE_DATE.getTime()) / DAY_MS);
}

/**
 * Adds `days` to every date and timestamp column of `tables` (all their rows: the seed has just
 * emptied and refilled them, so every row is demo data). One UPDATE per table, every column at
 * once, so checks that compare two dates of a row hold throughout. Returns the rows moved.
 */
export async function shiftDemoDates(db: PrismaClient, tables: string[], days: number): Promise<number> {
  if (days === 0 || tables.length === 0) return 0;
  if (!Number.isInteger(days)) throw new Error(`shiftDemoDates: ${days} is not a whole number of days`);
  const columns = await db.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name::text, column_name::text FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ANY(${tables}::text[]) AND data_type = ANY(${DATE_TYPES}::text[])
    ORDER BY table_name, ordinal_position`;
  const byTable = new Map<string, string[]>();
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  let moved = 0;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  for (const [table, cols] of byTable) {
    // Names come from the catalogue, not from a caller; `days` is an integer checked above.
    const set = cols.map((c) => `${quote(c)} = ${quote(c)} + make_interval(days => ${days})`).join(", ");
    moved += await db.$executeRawUnsafe(`UPDATE ${quote(table)} SET ${set}`);
  }
  return moved;
}
