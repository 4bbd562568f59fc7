/**
 * The API answers a page needs first, sent inside its HTML (app/lib/storefront-prefetch.server.ts
 * makes them with the same client calls the page makes: ./page-prefetch.ts). Without them a first
 * visit waits for the app's JavaScript, then the session, then the page's data, then its images:
 * four round trips before anything useful shows on a slow phone network.
 *
 * The client library's fetch answers a call from here when the server already made the same call
 * (same method, address and body), once, and only shortly after the page loaded; any other call,
 * a repeat, or a late one goes to the network as before.
 */
export const BOOTSTRAP_ELEMENT_ID = "fd-bootstrap";
/** After this long a page's embedded answers are too old to show: the network is asked instead. */
export const BOOTSTRAP_TTL_MS = 30_000;

export interface BootstrapEntry {
  status: number;
  body: unknown;
}

/** Answers by `bootstrapKey`. */
export type BootstrapResponses = Record<string, BootstrapEntry>;

/** POST calls that only read and may be answered from the page (search takes its filters as a body). */
export const REPLAYABLE_POSTS: readonly string[] = ["/api/search"];

function pathOf(url: string): string {
  const at = url.indexOf("://");
  if (at < 0) return url;
  const slash = url.indexOf("/", at + 3);
  return slash < 0 ? "/" : url.slice(slash);
}

/** `GET /api/cart`, `POST /api/search {"term":…}`: the address without its origin. */
export function bootstrapKey(method: string, url: string, body?: string | null): string {
  const m = method.toUpperCase();
  return `${m} ${pathOf(url)}${m !== "GET" && body ? ` ${body}` : ""}`;
}

/** Whether a call may be answered from the page: reads only. */
export function isReplayable(method: string, url: string): boolean {
  const m = method.toUpperCase();
  if (m === "GET") return true;
  const p = pathOf(url).split("?")[0];
  return m === "POST" && REPLAYABLE_POSTS.includes(p);
}

/** The page's embedded answers (none when absent or unreadable). */
export function readBootstrap(doc: Pick<Document, "getElementById"> | null | undefined): BootstrapResponses {
  const text = doc?.getElementById(BOOTSTRAP_ELEMENT_ID)?.textContent;
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as BootstrapResponses) : {};
  } catch {
    return {};
  }
}

/**
 * A fetch that answers from `responses` first (each answer once, until `ttlMs` after it was made),
 * then from `inner`.
 */
export function replayingFetch(
  responses: BootstrapResponses,
  inner: typeof fetch,
  opts: { now?: () => number; ttlMs?: number } = {},
): typeof fetch {
  const now = opts.now ?? Date.now;
  const until = now() + (opts.ttlMs ?? BOOTSTRAP_TTL_MS);
  const left = new Map(Object.entries(responses));
  return (input, init) => {
    if (left.size > 0 && typeof input === "string") {
      const method = init?.method ?? "GET";
      const body = typeof init?.body === "string" ? init.body : null;
      const key = bootstrapKey(method, input, body);
      const hit = left.get(key);
      if (hit) {
        left.delete(key);
        if (now() <= until && isReplayable(method, input)) {
          return Promise.resolve(new Response(JSON.stringify(hit.body), { status: hit.status, headers: { "content-type": "application/json" } }));
        }
      }
    }
    return inner(input, init);
  };
}
