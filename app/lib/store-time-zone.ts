/**
 * The store's time zone (STORE_TIMEZONE, an IANA name such as "Europe/Paris"; default "UTC"):
 * reports count calendar days as the merchant lives them, as Shopify's own reports do in the
 * shop's zone. Shared by the admin analytics and the vendor portal.
 *
 * Days are "YYYY-MM-DD" strings; instants are Dates. A day's boundaries are found through Intl, so
 * days of 23 or 25 hours (daylight saving time) and zones whose clocks skip midnight are handled.
 * The database groups by the same zone with `(column AT TIME ZONE 'UTC') AT TIME ZONE zone` (the
 * columns hold UTC without a zone); PostgreSQL and Intl both read the IANA tz database, so they agree.
 */
import { z } from "zod";

export const DEFAULT_STORE_TIME_ZONE = "UTC";

const DAY_MS = 86_400_000;

/** Whether Intl knows `name` as a time zone ("Asia/Tokyo", "UTC"; not "Mars/Olympus" or "+02:00"). */
export function isTimeZone(name: string): boolean {
  // Offsets such as "+02:00" are accepted by newer Intl versions but are not zones PostgreSQL reads the same way.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time-zone name, checked against Intl. */
export const TimeZoneName = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    if (!isTimeZone(v)) ctx.addIssue({ code: "custom", message: `"${v}" is not an IANA time zone known to this runtime (e.g. UTC, Europe/Paris, America/New_York)` });
  });

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock reading of `instant` in `zone`, as if it were UTC (milliseconds). */
function wallClockMs(instant: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(new Date(instant))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The zone's offset from UTC at `instant`, in milliseconds (Tokyo +9 h; New York −5 h or −4 h). */
export function zoneOffsetMs(instant: Date | number, zone: string): number {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClockMs(whole, zone) - whole;
}

/** The calendar day `instant` falls on in `zone`. */
export function dayIn(instant: Date | number, zone: string): string {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  return new Date(wallClockMs(ms, zone)).toISOString().slice(0, 10);
}

/** Today in `zone`. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return dayIn(now, zone);
}

/** The day `n` days after `day` (before it when negative): calendar arithmetic, no zone involved. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant `day` starts in `zone`: its local midnight, or when the clocks skip midnight (a
 * spring-forward at 00:00), the first instant of that day. When midnight happens twice, the first.
 */
export function dayStart(day: string, zone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  // Local midnight read with the offset in force just before and just after it: one of the two
  // is the answer; the earliest that really falls on `day` is where the day begins.
  const first = midnight - zoneOffsetMs(midnight, zone);
  const candidates = [first, midnight - zoneOffsetMs(first, zone), midnight - zoneOffsetMs(first - DAY_MS / 2, zone), midnight - zoneOffsetMs(first + DAY_MS / 2, zone)];
  const onDay = candidates.filter((t) => dayIn(t, zone) === day && dayIn(t - 1000, zone) !== day);
  if (onDay.length > 0) return new Date(Math.min(...onDay));
  return new Date(Math.min(...candidates.filter((t) => dayIn(t, zone) === day)));
}

/** The half-open span of instants [start, end) of the days `from` to `to` (both included) in `zone`. */
export function daySpan(from: string, to: string, zone: string): { start: Date; end: Date } {
  return { start: dayStart(from, zone), end: dayStart(addDays(to, 1), zone) };
}
