/**
 * The list state in the URL, from a page: change a filter, the search text or the page (see
 * withParams in ~/lib/admin-list for the rules), and a search field that updates the URL once the
 * typing pauses rather than on every key.
 */
import { useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { withParams } from "~/lib/admin-list";

export interface ListParamsOptions {
  /** The key of the page (or offset) that other changes reset. */
  pageKey?: string;
  /** Replace the history entry (filters typed or clicked through do not fill the back button). */
  replace?: boolean;
}

export function useListParams({ pageKey = "page", replace = true }: ListParamsOptions = {}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const setParams = useCallback(
    (changes: Record<string, string | null | undefined>) => setSearchParams(withParams(searchParams, changes, { pageKey }), { replace }),
    [searchParams, setSearchParams, pageKey, replace],
  );
  const setParam = useCallback((key: string, value: string) => setParams({ [key]: value }), [setParams]);
  /** Back to the unfiltered list, keeping only `keep`. */
  const reset = useCallback((keep: Record<string, string> = {}) => setSearchParams(keep, { replace }), [setSearchParams, replace]);
  return { searchParams, setParam, setParams, reset };
}

/**
 * A text field's value that calls `onSettle` `delayMs` after the last change (searching on every
 * key would reload the list for each letter). The latest `onSettle` is called.
 */
export function useDebouncedInput(initial: string, onSettle: (value: string) => void, delayMs = 300) {
  const [value, setValue] = useState(initial);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const settle = useRef(onSettle);
  settle.current = onSettle;
  useEffect(() => () => clearTimeout(timer.current), []);
  const onChange = useCallback(
    (v: string) => {
      setValue(v);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => settle.current(v), delayMs);
    },
    [delayMs],
  );
  return { value, onChange, setValue };
}

/**
 * `useDebouncedInput` bound to the `q` search param (trimmed; empty removes it), with the props
 * that wire it into Polaris `Filters`.
 */
export function useQueryParam(initial: string, setParam: (key: string, value: string) => void, key = "q") {
  const input = useDebouncedInput(initial, (v) => setParam(key, v.trim()));
  const { value, onChange } = input;
  const filterProps = { queryValue: value, onQueryChange: onChange, onQueryClear: () => onChange("") };
  return { ...input, filterProps };
}
