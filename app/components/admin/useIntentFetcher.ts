/**
 * One fetcher for the actions of a record's page: `submit({ intent, ...fields })` posts the fields
 * (an array value as a repeated field, e.g. the ids of products), and `busyWith(intent)` tells which
 * action is under way.
 */
import { useFetcher } from "@remix-run/react";

export function useIntentFetcher<A>() {
  const fetcher = useFetcher<A>();
  const busy = fetcher.state !== "idle";
  const submit = (data: Record<string, string | string[]>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(data)) for (const x of Array.isArray(v) ? v : [v]) fd.append(k, x);
    fetcher.submit(fd, { method: "post" });
  };
  const busyWith = (intent: string) => busy && fetcher.formData?.get("intent") === intent;
  return { fetcher, submit, busy, busyWith };
}
