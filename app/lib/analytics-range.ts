/**
 * The date range of an analytics page from its URL: `?days=7|30|90` (ending today in the store's
 * time zone) or `?from=YYYY-MM-DD&to=YYYY-MM-DD` (custom; either end may be missing and is left
 * to the API's defaults). The dates are not checked here: the page passes them to the endpoint's
 * zod query so that a refused range shows the API's own message.
 */
import { addDays, todayIn } from "./store-time-zone";

export const RANGE_PRESET_DAYS = [7, 30, 90] as const;

export function rangeFromSearch(sp: URLSearchParams, timeZone: string, defaultDays = 30) {
  const custom = Boolean(sp.get("from") || sp.get("to"));
  const days = RANGE_PRESET_DAYS.find((d) => String(d) === sp.get("days")) ?? defaultDays;
  const today = todayIn(timeZone);
  const asked = custom ? { from: sp.get("from") || undefined, to: sp.get("to") || undefined } : { from: addDays(today, -(days - 1)), to: today };
  const range = { preset: custom ? "custom" : String(days), from: asked.from ?? "", to: asked.to ?? "" };
  return { asked, range };
}
