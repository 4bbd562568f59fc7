/**
 * The shopper's session on the store, shared by every block script of the page.
 *
 * - A logged-in Shopify customer needs nothing: the App Proxy adds `logged_in_customer_id` to
 *   each signed request and the app maps it to one user (app/services/proxy-customers.server.ts).
 * - Anyone else gets a guest (`POST /users/guest` through the proxy) when a block first needs a
 *   session; its token is kept in local storage and sent as a bearer token (the proxy drops
 *   cookies, so the app's httpOnly cookie cannot work here).
 * - When a guest logs in as a customer, the app embed merges the guest's data into the customer
 *   (`POST /users/merge-guest-into-me`) and forgets the guest token.
 *
 * Each block script is its own bundle, so the session object lives on `window` and the first
 * script to load creates it: two blocks asking at once get the same guest.
 */
import { ApiClientError, createRouteClient } from "~/client/core";
import { createGuest, mergeGuestIntoMe } from "virtual:fd-api-routes";

export const SESSION_STORAGE_KEY = "fashion-discovery:theme-session";

export interface StoredSession {
  token: string;
  userId: string;
}

export interface BlockSession {
  readonly baseUrl: string;
  /** A customer is logged in (any block of the page said so). */
  customer: boolean;
  /** The bearer token to send: the guest's, never while a customer is logged in. */
  token(): string | null;
  /** The guest's user id, when there is a guest. */
  userId(): string | null;
  /** Makes sure there is a caller for writes: the customer, else a (new) guest. */
  ensure(): Promise<void>;
  /** Forgets a token the API refused (revoked or expired). */
  reset(): void;
  /** Customer logged in with a guest token left: moves the guest's data to the customer. */
  mergeGuest(): Promise<"merged" | "nothing" | "failed">;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readStoredSession(s: Pick<Storage, "getItem"> | null): StoredSession | null {
  try {
    const raw = s?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<StoredSession>;
    return typeof v.token === "string" && v.token && typeof v.userId === "string" ? { token: v.token, userId: v.userId } : null;
  } catch {
    return null;
  }
}

function writeStoredSession(s: Storage | null, value: StoredSession | null): void {
  try {
    if (value) s?.setItem(SESSION_STORAGE_KEY, JSON.stringify(value));
    else s?.removeItem(SESSION_STORAGE_KEY);
  } catch {
    /* private mode or quota: the session lives for this page */
  }
}

function createSession(baseUrl: string, customer: boolean, fetchImpl?: typeof fetch): BlockSession {
  const store = storage();
  let memory: StoredSession | null = readStoredSession(store);
  let inflight: Promise<void> | null = null;
  const client = createRouteClient({ createGuest, mergeGuestIntoMe }, { baseUrl, apiPrefix: "/api", credentials: "same-origin", fetch: fetchImpl });

  const current = () => readStoredSession(store) ?? memory;
  const session: BlockSession = {
    baseUrl,
    customer,
    token: () => (session.customer ? null : (current()?.token ?? null)),
    userId: () => current()?.userId ?? null,
    async ensure() {
      if (session.customer || current()) return;
      inflight ??= client
        .createGuest()
        .then((r) => {
          memory = { token: r.token, userId: r.user.id };
          writeStoredSession(store, memory);
        })
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
    reset() {
      memory = null;
      writeStoredSession(store, null);
    },
    async mergeGuest() {
      const guest = current();
      if (!session.customer || !guest) return "nothing";
      try {
        await client.mergeGuestIntoMe({ body: { guestToken: guest.token } });
      } catch (error) {
        // A guest token the API no longer knows cannot be merged: forget it. Retry other failures next page.
        if (error instanceof ApiClientError && error.status >= 400 && error.status < 500 && error.status !== 429) session.reset();
        return "failed";
      }
      session.reset();
      return "merged";
    },
  };
  return session;
}

type SessionWindow = { __fashionDiscoverySession?: BlockSession };

/** The page's session (created by the first block that asks). */
export function getSession(opts: { baseUrl: string; customer: boolean; fetch?: typeof fetch }): BlockSession {
  const w = window as unknown as SessionWindow;
  let s = w.__fashionDiscoverySession;
  if (!s || s.baseUrl !== opts.baseUrl) {
    s = createSession(opts.baseUrl, opts.customer, opts.fetch);
    w.__fashionDiscoverySession = s;
  }
  if (opts.customer) s.customer = true;
  return s;
}

/**
 * Runs a call that needs a session: creates the guest first when needed, and when the API
 * refuses a stored guest token (401), starts a new guest and tries once more.
 */
export async function withSession<T>(session: BlockSession, fn: () => Promise<T>): Promise<T> {
  await session.ensure();
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof ApiClientError) || error.status !== 401 || session.customer) throw error;
    session.reset();
    await session.ensure();
    return fn();
  }
}
