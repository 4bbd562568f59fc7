/**
 * The optimistic toggle as the storefront wires it (saved products, followed stores, saved
 * try-ons): a real query cache, fake requests held open to look at the state in between.
 */
import { describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { ApiClientError, type ApiClient } from "~/client";
import { Messages } from "~/contract";
import { initialToggle, type ToggleState } from "../../../storefront/src/lib/optimistic-toggle";
import {
  batchedCheck,
  loadToggle,
  primeToggles,
  runToggle,
  type ToggleConfig,
  type ToggleProblem,
} from "../../../storefront/src/lib/query-toggle";

const KEY = ["user", "saved", "p1"] as const;
const LIST = ["user", "saved-products"] as const;

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A toggle whose requests wait until the test answers them, one by one. */
function setup(start?: ToggleState) {
  const qc = new QueryClient();
  if (start) qc.setQueryData(KEY, start);
  const answers: ReturnType<typeof deferred<boolean>>[] = [];
  const send = vi.fn((_want: boolean) => {
    const d = deferred<boolean>();
    answers.push(d);
    return d.promise;
  });
  const cfg: Pick<ToggleConfig, "key" | "send" | "fallback" | "listKey"> = {
    key: KEY,
    send,
    fallback: (want) => (want ? "Could not save." : "Could not remove."),
    listKey: LIST,
  };
  const problems: (ToggleProblem | null)[] = [];
  const invalidate = vi.spyOn(qc, "invalidateQueries");
  const click = (wanted: boolean | null = null, signedIn = true) => runToggle(qc, cfg, wanted, { signedIn, report: (p) => problems.push(p) });
  const state = () => qc.getQueryData<ToggleState>(KEY);
  return { qc, send, answers, problems, invalidate, click, state };
}

describe("runToggle (optimistic toggle in the query cache)", () => {
  it("shows the new state at once, sends the wanted state, keeps the server's answer and refreshes the list", async () => {
    const t = setup(initialToggle(false));
    const done = t.click();
    expect(t.state()).toEqual({ value: true, confirmed: false, pending: 1 });
    expect(t.send).toHaveBeenCalledWith(true);
    expect(t.problems).toEqual([null]);
    t.answers[0].resolve(true);
    await done;
    expect(t.state()).toEqual(initialToggle(true));
    expect(t.invalidate).toHaveBeenCalledWith({ queryKey: LIST });
  });

  it("rolls back on a server failure with the fallback message, and still refreshes the list", async () => {
    const t = setup(initialToggle(false));
    const done = t.click();
    expect(t.state()?.value).toBe(true);
    t.answers[0].reject(new ApiClientError(500, "internal", "Something went wrong on our side"));
    await done;
    expect(t.state()).toEqual(initialToggle(false));
    expect(t.problems.at(-1)).toEqual({ kind: "error", message: "Could not save." });
    expect(t.invalidate).toHaveBeenCalledWith({ queryKey: LIST });
  });

  it("a refusal shows the server's message; a network failure the fallback for the wanted state", async () => {
    const refused = setup(initialToggle(false));
    const a = refused.click();
    refused.answers[0].reject(new ApiClientError(404, "not_found", "Product not found"));
    await a;
    expect(refused.problems.at(-1)).toEqual({ kind: "error", message: "Product not found" });

    const offline = setup(initialToggle(true));
    const b = offline.click();
    offline.answers[0].reject(new Error("socket hang up"));
    await b;
    expect(offline.state()).toEqual(initialToggle(true));
    expect(offline.problems.at(-1)).toEqual({ kind: "error", message: "Could not remove." });
  });

  it("a 401 rolls back and asks to sign in", async () => {
    const t = setup(initialToggle(false));
    const done = t.click();
    t.answers[0].reject(new ApiClientError(401, "unauthenticated", Messages.USER_NOT_AUTHENTICATED));
    await done;
    expect(t.state()).toEqual(initialToggle(false));
    expect(t.problems.at(-1)).toEqual({ kind: "login", message: Messages.USER_NOT_AUTHENTICATED });
  });

  it("without a session nothing is sent and the shopper is asked to sign in", async () => {
    const t = setup(initialToggle(false));
    await t.click(null, false);
    expect(t.send).not.toHaveBeenCalled();
    expect(t.state()).toEqual(initialToggle(false));
    expect(t.problems).toEqual([{ kind: "login", message: Messages.USER_NOT_AUTHENTICATED }]);
  });

  it("set() sends nothing when the state is already the wanted one; an unknown state counts as off", async () => {
    const t = setup(initialToggle(true));
    await t.click(true);
    expect(t.send).not.toHaveBeenCalled();

    const unknown = setup();
    await unknown.click(false);
    expect(unknown.send).not.toHaveBeenCalled();
    const done = unknown.click(true);
    expect(unknown.send).toHaveBeenCalledWith(true);
    unknown.answers[0].resolve(true);
    await done;
    expect(unknown.state()).toEqual(initialToggle(true));
  });

  it("overlapping clicks each send their own wanted state (no request is held back); the last answer wins", async () => {
    const t = setup(initialToggle(false));
    const first = t.click();
    const second = t.click();
    expect(t.send.mock.calls.map((c) => c[0])).toEqual([true, false]);
    expect(t.state()).toEqual({ value: false, confirmed: false, pending: 2 });
    t.answers[0].resolve(true);
    await first;
    // The shopper's latest choice stays on screen while a request is still in flight.
    expect(t.state()).toEqual({ value: false, confirmed: true, pending: 1 });
    t.answers[1].resolve(false);
    await second;
    expect(t.state()).toEqual(initialToggle(false));
  });
});

describe("loadToggle and primeToggles", () => {
  it("takes the server's check when idle, and lets a click in flight win over it", async () => {
    const qc = new QueryClient();
    expect(await loadToggle(qc, KEY, async () => true)).toEqual(initialToggle(true));
    const clicked = { value: true, confirmed: false, pending: 1 };
    qc.setQueryData(KEY, clicked);
    expect(await loadToggle(qc, KEY, async () => false)).toEqual(clicked);
  });

  it("primes what a list knows, without touching a toggle with a click in flight", () => {
    const qc = new QueryClient();
    const busy = ["user", "saved", "p2"];
    qc.setQueryData(busy, { value: false, confirmed: true, pending: 1 });
    primeToggles(qc, [KEY, busy], true);
    expect(qc.getQueryData(KEY)).toEqual(initialToggle(true));
    expect(qc.getQueryData(busy)).toEqual({ value: false, confirmed: true, pending: 1 });
  });
});

describe("batchedCheck", () => {
  it("shares one check call per API client for the ids asked in one tick", async () => {
    const check = vi.fn(async (_api: ApiClient, ids: string) => ids.split(",").filter((id) => id !== "b"));
    const loaderFor = batchedCheck(check);
    const api = {} as ApiClient;
    expect(loaderFor(api)).toBe(loaderFor(api));
    expect(await Promise.all(["a", "b", "c"].map((id) => loaderFor(api).load(id)))).toEqual([true, false, true]);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith(api, "a,b,c");

    const other = {} as ApiClient;
    expect(loaderFor(other)).not.toBe(loaderFor(api));
  });
});
