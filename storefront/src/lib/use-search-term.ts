/**
 * The search box's state (SPEC §2): the term lives in `?search=`, input is debounced 500 ms, and
 * the term is cleared on every path change (except a redirect or a search sent from another page,
 * which carry `state.keepSearch`).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { homePathFor, isHomePath, isPathChange, readSearchTerm, withSearchTerm } from "./gender-routing";
import { useDebouncedValue } from "./use-debounced-value";
import { SEARCH_DEBOUNCE_MS } from "./constants";
import { useGender, type NavState } from "./gender";
import { clearRefinements } from "./search-state";

export function useSearchTerm() {
  const location = useLocation();
  const navigate = useNavigate();
  const { gender } = useGender();
  const urlTerm = readSearchTerm(location.search);
  const [input, setInput] = useState(urlTerm);
  const debounced = useDebouncedValue(input, SEARCH_DEBOUNCE_MS);
  const applied = useRef(urlTerm);
  const prevPath = useRef(location.pathname);

  /** Puts a term in the address: on a home page in place, elsewhere by going to the gender's home page. */
  const apply = useCallback(
    (raw: string) => {
      const term = raw.trim();
      if (term === readSearchTerm(location.search)) return;
      applied.current = term;
      if (isHomePath(location.pathname)) {
        // A new term starts a new search: the sort stays, filters and the page go (search-state.ts).
        navigate({ pathname: location.pathname, search: withSearchTerm(clearRefinements(location.search), term) }, { replace: true, state: location.state });
      } else if (term) {
        navigate({ pathname: homePathFor(gender), search: withSearchTerm("", term) }, { state: { keepSearch: true } satisfies NavState });
      }
    },
    [location, navigate, gender],
  );

  // Every path change clears the term, unless the navigation asked to keep it.
  useEffect(() => {
    if (!isPathChange(prevPath.current, location.pathname)) return;
    prevPath.current = location.pathname;
    const keep = (location.state as NavState | null)?.keepSearch === true;
    const term = readSearchTerm(location.search);
    if (keep) {
      applied.current = term;
      setInput(term);
      return;
    }
    applied.current = "";
    setInput("");
    if (term) navigate({ pathname: location.pathname, search: withSearchTerm(location.search, ""), hash: location.hash }, { replace: true });
  }, [location, navigate]);

  // The address changed the term by itself (back/forward, a link with ?search=): show it.
  useEffect(() => {
    if (urlTerm !== applied.current) {
      applied.current = urlTerm;
      setInput(urlTerm);
    }
  }, [urlTerm]);

  // Typing settles for 500 ms: apply it.
  useEffect(() => {
    if (debounced.trim() !== applied.current) apply(debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the debounced text settles
  }, [debounced]);

  return {
    input,
    setInput,
    /** Applies the current input at once (Enter). */
    submit: () => apply(input),
    clear: () => {
      setInput("");
      apply("");
    },
  };
}
