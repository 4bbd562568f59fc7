/**
 * Session resolution, without React or the network, so it can be tested with a fake client and
 * fake timers.
 *
 * The browser session itself is an httpOnly cookie set by the server (`POST /api/users/guest`,
 * `POST /api/auth/login`); nothing here sees a token. The user id is kept in local storage and in
 * a readable cookie for display and analytics only.
 *
 * SPEC §8: a 401 on the current-user call clears the stored user id (local storage and cookie) and
 * signs the user out; that call retries once after 1 second, only on a 401. If the retry is also a
 * 401, a guest is created (DESIGN: a guest is created on first visit).
 *
 * A first visit (no user id remembered) has no session to ask about: the guest is created at
 * once, without a current-user call that could only answer 401 (an error in the console, and a
 * second's wait before the guest).
 */
import type { User } from "~/contract";
import { SESSION_RETRY_DELAY_MS, USER_ID_COOKIE, USER_ID_STORAGE_KEY } from "./constants";
import type { StorageLike } from "./gender-preference";

/** The calls session resolution needs; the typed API client satisfies this. */
export interface SessionClient {
  getMe(): Promise<User>;
  createGuest(): Promise<{ user: User; token: string }>;
}

/** Where the user id is remembered (local storage and the `fd_uid` cookie in the browser). */
export interface UserIdStore {
  get(): string | null;
  set(id: string): void;
  clear(): void;
}

export interface SleepTimers {
  setTimeout(fn: () => void, ms: number): unknown;
}

export type SessionSource = "existing" | "retry" | "guest";

export interface ResolvedSession {
  user: User;
  /** existing: the first getMe answered; retry: the retry answered; guest: a new guest was created. */
  source: SessionSource;
}

export interface ResolveSessionOptions {
  /** Called when a 401 signs the user out (after the stored id is cleared). */
  onSignedOut?: () => void;
  retryDelayMs?: number;
}

/** Whether an error is an HTTP 401 (an ApiClientError or anything with `status: 401`). */
export function isUnauthorized(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { status?: unknown }).status === 401;
}

function sleep(timers: SleepTimers, ms: number): Promise<void> {
  return new Promise((resolve) => {
    timers.setTimeout(resolve, ms);
  });
}

/**
 * The current user: on a first visit (no remembered id) a new guest; else getMe; on a 401 clear
 * the stored id, sign out, wait 1 s and retry getMe once; if that is a 401 too, create a guest.
 * Errors other than a 401 are thrown (not retried).
 */
export async function resolveSession(
  client: SessionClient,
  store: UserIdStore,
  timers: SleepTimers = globalThis,
  options: ResolveSessionOptions = {},
): Promise<ResolvedSession> {
  if (!store.get()) {
    const { user } = await client.createGuest();
    store.set(user.id);
    return { user, source: "guest" };
  }
  try {
    const user = await client.getMe();
    store.set(user.id);
    return { user, source: "existing" };
  } catch (error) {
    if (!isUnauthorized(error)) throw error;
  }

  store.clear();
  options.onSignedOut?.();
  await sleep(timers, options.retryDelayMs ?? SESSION_RETRY_DELAY_MS);

  try {
    const user = await client.getMe();
    store.set(user.id);
    return { user, source: "retry" };
  } catch (error) {
    if (!isUnauthorized(error)) throw error;
  }

  const { user } = await client.createGuest();
  store.set(user.id);
  return { user, source: "guest" };
}

/** A user who signed in with a password or through Shopify (guests and leads have not). */
export function isSignedIn(user: User | null | undefined): boolean {
  return !!user && (user.auth_provider === "password" || user.auth_provider === "shopify");
}

/** The `fd_uid` cookie that remembers a user id for a year (readable by scripts: not a credential). */
export function userIdCookie(id: string, secure = false): string {
  return `${USER_ID_COOKIE}=${encodeURIComponent(id)}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The cookie string that deletes `fd_uid`. */
export function clearedUserIdCookie(): string {
  return `${USER_ID_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}

/** The `fd_uid` value from a `document.cookie` string, or null. */
export function readUserIdCookie(cookieHeader: string): string | null {
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === USER_ID_COOKIE) {
      const value = rest.join("=");
      try {
        return value ? decodeURIComponent(value) : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A user-id store over a Storage (local storage) and a cookie jar (`document`). Failures are ignored. */
export function createUserIdStore(storage: StorageLike | null | undefined, cookieJar: { cookie: string } | null | undefined, secure = false): UserIdStore {
  return {
    get() {
      try {
        const v = storage?.getItem(USER_ID_STORAGE_KEY);
        if (v) return v;
      } catch {
        /* storage unavailable */
      }
      return cookieJar ? readUserIdCookie(cookieJar.cookie) : null;
    },
    set(id) {
      try {
        storage?.setItem(USER_ID_STORAGE_KEY, id);
      } catch {
        /* storage unavailable */
      }
      if (cookieJar) cookieJar.cookie = userIdCookie(id, secure);
    },
    clear() {
      try {
        storage?.removeItem(USER_ID_STORAGE_KEY);
      } catch {
        /* storage unavailable */
      }
      if (cookieJar) cookieJar.cookie = clearedUserIdCookie();
    },
  };
}

/**
 * Keeps a sign-in behind the session resolution in flight. On a first visit the resolution can end
 * by creating a guest, and the guest's session cookie would replace the one a sign-in sent during
 * that second had just set: the shopper would find themselves a guest again.
 */
export interface ResolutionGate {
  /** Remembers `resolution` as the one in flight; answers it unchanged. */
  track<T>(resolution: Promise<T>): Promise<T>;
  /** Settles once the resolution in flight (if any) has, whether it succeeded or not. */
  settled(): Promise<void>;
}

export function createResolutionGate(): ResolutionGate {
  let pending: Promise<unknown> | null = null;
  return {
    track(resolution) {
      pending = resolution;
      const clear = () => {
        if (pending === resolution) pending = null;
      };
      resolution.then(clear, clear);
      return resolution;
    },
    async settled() {
      const current = pending;
      if (current) await current.then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
