import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { User } from "~/contract";
import {
  clearedUserIdCookie,
  createResolutionGate,
  createUserIdStore,
  isSignedIn,
  isUnauthorized,
  readUserIdCookie,
  resolveSession,
  userIdCookie,
  type SessionClient,
  type UserIdStore,
} from "../../../storefront/src/lib/session-core";
import { USER_ID_STORAGE_KEY } from "../../../storefront/src/lib/constants";
import { shopper } from "../../helpers/storefront-user";

const user = (id: string, auth_provider: User["auth_provider"] = "guest", email: string | null = null): User => shopper({ id, auth_provider, email, first_name: null });

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`status ${status}`);
  }
}

type Answer = User | HttpError;

/** A fake API client: getMe answers from a script; every call is logged with the fake clock's time. */
function fakeClient(getMeAnswers: Answer[], guest: User = user("guest-1")) {
  const calls: Array<{ name: string; at: number }> = [];
  const client: SessionClient = {
    async getMe() {
      calls.push({ name: "getMe", at: Date.now() });
      const a = getMeAnswers.shift();
      if (!a) throw new Error("unexpected getMe");
      if (a instanceof HttpError) throw a;
      return a;
    },
    async createGuest() {
      calls.push({ name: "createGuest", at: Date.now() });
      return { user: guest, token: "t" };
    },
  };
  return { client, calls };
}

function memoryStore(initial: string | null = null): UserIdStore & { log: string[] } {
  let id = initial;
  const log: string[] = [];
  return {
    log,
    get: () => id,
    set: (v) => {
      id = v;
      log.push(`set:${v}`);
    },
    clear: () => {
      id = null;
      log.push("clear");
    },
  };
}

describe("resolveSession", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it("uses the current user when getMe answers", async () => {
    const { client, calls } = fakeClient([user("u1", "password", "a@b.c")]);
    const store = memoryStore("u1");
    const result = await resolveSession(client, store);
    expect(result.source).toBe("existing");
    expect(result.user.id).toBe("u1");
    expect(calls.map((c) => c.name)).toEqual(["getMe"]);
    expect(store.log).toEqual(["set:u1"]);
  });

  it("a first visit (no remembered id) creates a guest at once, without a current-user call that could only be a 401", async () => {
    const { client, calls } = fakeClient([], user("g0"));
    const store = memoryStore();
    const result = await resolveSession(client, store);
    expect(result).toMatchObject({ source: "guest", user: { id: "g0" } });
    expect(calls).toEqual([{ name: "createGuest", at: 0 }]);
    expect(store.log).toEqual(["set:g0"]);
  });

  it("on a 401: clears the stored id, signs out, retries getMe once after 1 s", async () => {
    const { client, calls } = fakeClient([new HttpError(401), user("u1")]);
    const store = memoryStore("old-id");
    const onSignedOut = vi.fn();
    const p = resolveSession(client, store, globalThis, { onSignedOut });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.get()).toBeNull();
    expect(store.log).toEqual(["clear"]);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.name)).toEqual(["getMe"]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const result = await p;
    expect(result).toMatchObject({ source: "retry", user: { id: "u1" } });
    expect(calls).toEqual([
      { name: "getMe", at: 0 },
      { name: "getMe", at: 1000 },
    ]);
    expect(store.log).toEqual(["clear", "set:u1"]);
  });

  it("creates a guest when the retry is a 401 too", async () => {
    const { client, calls } = fakeClient([new HttpError(401), new HttpError(401)], user("g1"));
    const store = memoryStore("stale");
    const p = resolveSession(client, store);
    await vi.advanceTimersByTimeAsync(1000);
    const result = await p;
    expect(result).toMatchObject({ source: "guest", user: { id: "g1" } });
    expect(calls).toEqual([
      { name: "getMe", at: 0 },
      { name: "getMe", at: 1000 },
      { name: "createGuest", at: 1000 },
    ]);
    expect(store.get()).toBe("g1");
  });

  it("does not retry on other errors", async () => {
    const { client, calls } = fakeClient([new HttpError(500)]);
    const store = memoryStore("keep");
    await expect(resolveSession(client, store)).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
    expect(store.get()).toBe("keep");
  });

  it("retries only once: a non-401 on the retry is thrown, no guest is created", async () => {
    const { client, calls } = fakeClient([new HttpError(401), new HttpError(503)]);
    const p = resolveSession(client, memoryStore("stale"));
    const assertion = expect(p).rejects.toMatchObject({ status: 503 });
    await vi.advanceTimersByTimeAsync(1000);
    await assertion;
    expect(calls.map((c) => c.name)).toEqual(["getMe", "getMe"]);
  });

  it("uses injected timers for the 1 s wait", async () => {
    const { client } = fakeClient([new HttpError(401), user("u2")]);
    const waits: number[] = [];
    const timers = {
      setTimeout: (fn: () => void, ms: number) => {
        waits.push(ms);
        fn();
        return 0;
      },
    };
    const result = await resolveSession(client, memoryStore("stale"), timers);
    expect(waits).toEqual([1000]);
    expect(result.source).toBe("retry");
  });
});

describe("a sign-in during the session resolution", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it("waits for a first visit's guest to be created, so the guest's session does not replace the signed-in one", async () => {
    const { client, calls } = fakeClient([new HttpError(401), new HttpError(401)], user("g1"));
    const gate = createResolutionGate();
    const resolved = gate.track(resolveSession(client, memoryStore("stale")));
    await vi.advanceTimersByTimeAsync(500); // the shopper submits the sign-in form during the 1 s wait
    const signIn = gate.settled().then(() => calls.push({ name: "login", at: Date.now() }));
    await vi.advanceTimersByTimeAsync(500);
    await signIn;
    expect((await resolved).user.id).toBe("g1");
    expect(calls.map((c) => c.name)).toEqual(["getMe", "getMe", "createGuest", "login"]);
  });

  it("does not hold a sign-in when nothing is in flight, nor after a failed resolution", async () => {
    const gate = createResolutionGate();
    await expect(gate.settled()).resolves.toBeUndefined();
    const failed = gate.track(Promise.reject(new HttpError(500)));
    await expect(failed).rejects.toBeInstanceOf(HttpError);
    await expect(gate.settled()).resolves.toBeUndefined();
  });
});

describe("user id store and helpers", () => {
  it("isUnauthorized looks at status 401 only", () => {
    expect(isUnauthorized(new HttpError(401))).toBe(true);
    expect(isUnauthorized({ status: 401 })).toBe(true);
    expect(isUnauthorized(new HttpError(403))).toBe(false);
    expect(isUnauthorized(new Error("x"))).toBe(false);
    expect(isUnauthorized(null)).toBe(false);
  });

  it("isSignedIn is false for guests and leads", () => {
    expect(isSignedIn(user("a", "guest"))).toBe(false);
    expect(isSignedIn(user("a", "lead", "a@b.c"))).toBe(false);
    expect(isSignedIn(user("a", "password", "a@b.c"))).toBe(true);
    expect(isSignedIn(user("a", "shopify", "a@b.c"))).toBe(true);
    expect(isSignedIn(null)).toBe(false);
  });

  it("builds and reads the fd_uid cookie", () => {
    expect(userIdCookie("u 1")).toBe("fd_uid=u%201; Path=/; Max-Age=31536000; SameSite=Lax");
    expect(userIdCookie("u1", true)).toContain("; Secure");
    expect(clearedUserIdCookie()).toBe("fd_uid=; Path=/; Max-Age=0; SameSite=Lax");
    expect(readUserIdCookie("a=1; fd_uid=u%201; b=2")).toBe("u 1");
    expect(readUserIdCookie("a=1")).toBeNull();
    expect(readUserIdCookie("fd_uid=")).toBeNull();
  });

  it("writes local storage and the cookie, and clears both", () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
    const jar = { cookie: "" };
    const store = createUserIdStore(storage, jar);
    store.set("u1");
    expect(data.get(USER_ID_STORAGE_KEY)).toBe("u1");
    expect(USER_ID_STORAGE_KEY).toBe("fashion-discovery:user-id");
    expect(jar.cookie).toBe(userIdCookie("u1"));
    expect(store.get()).toBe("u1");
    store.clear();
    expect(data.has(USER_ID_STORAGE_KEY)).toBe(false);
    expect(jar.cookie).toBe(clearedUserIdCookie());
  });

  it("survives unavailable storage", () => {
    const broken = {
      getItem: () => {
        throw new Error("no");
      },
      setItem: () => {
        throw new Error("no");
      },
      removeItem: () => {
        throw new Error("no");
      },
    };
    const jar = { cookie: "fd_uid=c1" };
    const store = createUserIdStore(broken, jar);
    expect(store.get()).toBe("c1");
    expect(() => store.set("u2")).not.toThrow();
    expect(() => store.clear()).not.toThrow();
  });
});
