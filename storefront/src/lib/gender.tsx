/**
 * The gender preference in React: resolves it (path → session storage → user interests → both),
 * switches it (writes session storage, rewrites the path), redirects `/` and `/stores` for a saved
 * menswear or womenswear preference, and cleans double or trailing slashes in the address.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { readStoredGender, resolveGenderPreference, savedGenderPreference, writeStoredGender } from "./gender-preference";
import { normalizePath, redirectForPreference, switchGenderLocation, type Gender } from "./gender-routing";
import { safeSessionStorage } from "./browser";
import { useSession } from "./session";

export interface GenderValue {
  gender: Gender;
  setGender(gender: Gender): void;
}

/** Navigation state that keeps the search term across a path change (redirects, a search sent from another page). */
export interface NavState {
  keepSearch?: boolean;
}

const GenderContext = createContext<GenderValue | null>(null);

export const GENDER_LABELS: Record<Gender, string> = { menswear: "Menswear", womenswear: "Womenswear", both: "Both" };

export function GenderProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [stored, setStored] = useState<Gender | null>(() => readStoredGender(safeSessionStorage()));

  const interests = user?.metadata.interests ?? null;
  const gender = resolveGenderPreference({ pathname: location.pathname, stored, interests, hasUser: !!user });
  const saved = savedGenderPreference({ stored, interests, hasUser: !!user });

  // Clean `//stores`, `/mens/` and the like; then redirect `/` and `/stores` for a saved preference.
  useEffect(() => {
    const clean = normalizePath(location.pathname);
    const target = redirectForPreference(clean, saved) ?? (clean !== location.pathname ? clean : null);
    if (target) navigate({ pathname: target, search: location.search, hash: location.hash }, { replace: true, state: { keepSearch: true } satisfies NavState });
  }, [location.pathname, location.search, location.hash, saved, navigate]);

  const setGender = useCallback(
    (next: Gender) => {
      writeStoredGender(safeSessionStorage(), next);
      setStored(next);
      const to = switchGenderLocation(location, next);
      if (to.pathname !== location.pathname || to.search !== location.search) navigate(to);
    },
    [location, navigate],
  );

  const value = useMemo(() => ({ gender, setGender }), [gender, setGender]);
  return <GenderContext.Provider value={value}>{children}</GenderContext.Provider>;
}

export function useGender(): GenderValue {
  const v = useContext(GenderContext);
  if (!v) throw new Error("useGender must be used inside <GenderProvider>");
  return v;
}
