/**
 * Fetchers of admin actions (forms posting `intent` + fields to the route's action): react to each
 * answer once, act on one row with its busy state, and act on the selected rows of an IndexTable.
 */
import { useFetcher, type FetcherWithComponents } from "@remix-run/react";
import { useIndexResourceState } from "@shopify/polaris";
import { useCallback, useEffect, useRef } from "react";

type FetcherLike<T> = { state: string; data?: T };

/**
 * Calls `onResult` once for each answer of `fetcher`. By default only once the fetcher is idle
 * again — after the page's data reloaded, so that what the banner says is what the list shows;
 * `whenIdle: false` reacts as soon as the answer arrives.
 */
export function useFetcherResult<T>(fetcher: FetcherLike<T>, onResult: (data: T) => void, { whenIdle = true }: { whenIdle?: boolean } = {}) {
  const handler = useRef(onResult);
  handler.current = onResult;
  const seen = useRef<T>();
  useEffect(() => {
    if (fetcher.data === undefined || (whenIdle && fetcher.state !== "idle") || seen.current === fetcher.data) return;
    seen.current = fetcher.data;
    handler.current(fetcher.data);
  }, [fetcher.state, fetcher.data, whenIdle]);
}

/** One fetcher for the actions of a row (`{ intent, id }`), and which row's action is under way. */
export function useRowAction<A>() {
  const fetcher = useFetcher<A>();
  const { submit, state, formData } = fetcher;
  const act = useCallback((intent: string, id: string) => submit({ intent, id }, { method: "post" }), [submit]);
  const isBusy = (intent: string, id: string) => state !== "idle" && formData?.get("intent") === intent && formData?.get("id") === id;
  return { fetcher, act, isBusy };
}

/**
 * The rows selected in an IndexTable (all of them when "select all" is on) and `submit(intent)`
 * posting their ids as `ids`. The selection clears once `fetcher` reports success.
 */
export function useBulkSelection<T extends { id: string }>(items: T[], fetcher: Pick<FetcherWithComponents<unknown>, "submit"> & FetcherLike<{ ok: boolean }>) {
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(items);
  const selectedIds = allResourcesSelected ? items.map((i) => i.id) : selectedResources;
  useFetcherResult(fetcher, (r) => {
    if (r.ok) clearSelection();
  });
  const submit = (intent: string) => {
    const fd = new FormData();
    fd.set("intent", intent);
    for (const id of selectedIds) fd.append("ids", id);
    fetcher.submit(fd, { method: "post" });
  };
  return { selectedIds, selectedItemsCount: allResourcesSelected ? ("All" as const) : selectedResources.length, handleSelectionChange, submit };
}
