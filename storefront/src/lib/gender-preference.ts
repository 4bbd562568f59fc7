/**
 * Gender preference (SPEC §4). Precedence: path prefix → value stored in session storage under the
 * app key → the user's interests (exactly one of menswear/womenswear → that one, otherwise both) →
 * default both. Switching writes session storage.
 */
import type { Gender } from "./gender-routing";
import { genderFromPath } from "./gender-routing";
import { GENDER_STORAGE_KEY } from "./constants";

export const GENDERS: readonly Gender[] = ["menswear", "womenswear", "both"];
export const DEFAULT_GENDER: Gender = "both";

/** The subset of the Web Storage API used here, so tests can pass a Map-backed fake. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function isGender(value: unknown): value is Gender {
  return typeof value === "string" && (GENDERS as readonly string[]).includes(value);
}

/** A gender from a comma-separated interests string: exactly one of the two genders → it, else both. */
export function genderFromInterests(interests: string | null | undefined): Gender {
  const items = new Set(
    (interests ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const men = items.has("menswear");
  const women = items.has("womenswear");
  if (men && !women) return "menswear";
  if (women && !men) return "womenswear";
  return "both";
}

/** The stored preference, or null when absent, invalid or storage is unavailable. */
export function readStoredGender(storage: StorageLike | null | undefined): Gender | null {
  try {
    const v = storage?.getItem(GENDER_STORAGE_KEY);
    return isGender(v) ? v : null;
  } catch {
    return null;
  }
}

/** Writes the preference; storage failures (private mode, quota) are ignored. */
export function writeStoredGender(storage: StorageLike | null | undefined, gender: Gender): void {
  try {
    storage?.setItem(GENDER_STORAGE_KEY, gender);
  } catch {
    /* storage unavailable: the preference lives for this page only */
  }
}

export interface PreferenceInputs {
  pathname?: string | null;
  stored?: Gender | null;
  /** The user's metadata.interests; undefined or null when there is no user (yet). */
  interests?: string | null;
  /** Whether a user is known; without one the interests step is skipped. */
  hasUser?: boolean;
}

/** The saved preference, ignoring the path: stored value → user interests → both. Used for redirects. */
export function savedGenderPreference({ stored, interests, hasUser }: PreferenceInputs): Gender {
  if (stored && isGender(stored)) return stored;
  if (hasUser ?? interests != null) return genderFromInterests(interests);
  return DEFAULT_GENDER;
}

/** The effective preference: path prefix → stored value → user interests → both. */
export function resolveGenderPreference(inputs: PreferenceInputs): Gender {
  const fromPath = inputs.pathname ? genderFromPath(inputs.pathname) : null;
  if (fromPath) return fromPath;
  return savedGenderPreference(inputs);
}

/** The `target_gender` filter for product lists: omitted for both. */
export function targetGenderParam(gender: Gender): Exclude<Gender, "both"> | undefined {
  return gender === "both" ? undefined : gender;
}
