/**
 * Loader and action helpers of the admin pages that edit records through their services: refusals
 * of the services as the action's `{ ok: false, error }`, a missing record as the page's 404, zod
 * issues as one line, and the catalogue product picker the pages search with `?pq=`.
 */
import { ApiError } from "~/api/errors.server";
import { toApiError } from "~/api/router.server";
import type { Db } from "~/db.server";
import { DomainError } from "~/lib/domain-errors";
import { searchProductsForPicker } from "~/services/styles.server";
import type { ActionResult } from "./admin-list";
import { staffError } from "./staff-errors";

/** A zod error as one line: "name: must not be empty; image_url: …" ("input" for the whole value). */
export function issuesMessage(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
}

/** The answer of an action whose input zod refused. */
export const invalidInput = (error: { issues: { path: PropertyKey[]; message: string }[] }): ActionResult => ({ ok: false, error: issuesMessage(error) });

/** A service's refusal (an ApiError, or a domain error as the API would answer it); null for anything else. */
const serviceRefusal = (e: unknown): ApiError | null => (e instanceof ApiError || e instanceof DomainError ? toApiError(e) : null);

/**
 * Runs an action's work: a refusal of a service (an ApiError or a domain error) becomes
 * `{ ok: false, error }` with its message; anything else thrown (redirects included) goes on.
 */
export async function answerRefusals<T>(work: () => Promise<T>): Promise<T | { ok: false; error: string }> {
  try {
    return await work();
  } catch (e) {
    const refusal = serviceRefusal(e);
    if (refusal) return { ok: false, error: refusal.message };
    throw e;
  }
}

/**
 * What a failed action tells the admin: a refusal (a 4xx, including the database's not-found and
 * unique-value errors the API maps) as its ApiError; anything else is thrown on to the error page.
 */
export function refusalOf(e: unknown): ApiError {
  const err = toApiError(e);
  if (err.status >= 500) throw e;
  return err;
}

/** Runs a loader's reads: a service's 404 becomes the page's 404 with `message`. */
export async function orNotFound<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (serviceRefusal(e)?.status === 404) throw staffError(404, message);
    throw e;
  }
}

/** A date as an ISO string for the page (null stays null). */
export const isoOrNull = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A `datetime-local` value read as UTC (the pages show every time in UTC); empty is no date. */
export const utcFromLocalInput = (value: string) => (value ? `${value}Z` : null);

/**
 * The results of the page's product picker (components/CatalogueProductPicker): the products
 * matching `?pq=`, and the query answered, or nulls when there is no search.
 */
export async function productPickerResults(db: Db, searchParams: URLSearchParams) {
  const pq = searchParams.get("pq");
  const picker = pq ? await searchProductsForPicker(db, pq, 15) : null;
  return { picker, pickerQuery: pq };
}
