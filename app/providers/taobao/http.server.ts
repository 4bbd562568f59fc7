/**
 * The HTTP Taobao source: an item API configured by TAOBAO_API_URL and TAOBAO_API_KEY.
 *
 * Requests (README, "Taobao import"):
 * - `GET {TAOBAO_API_URL}/item_get?num_iid={id}` → 200 `{"item": {…}}` in the `item_get` wire shape
 *   (./port.ts, TaobaoWireItem); 404 (or 200 with `error_code` "item-not-found") when there is none;
 * - `GET {TAOBAO_API_URL}/item_search_shop?shop_id={id}&page={n}` → 200 `{shop_id, shop_title, page,
 *   page_count, total_results, items: [{num_iid, title}]}`;
 * - every API request carries `Authorization: Bearer {TAOBAO_API_KEY}` and `Accept: application/json`;
 * - images are plain GETs of their URLs (the CDN needs no key), public addresses only (SSRF guard).
 *
 * Behaviour: each request has a deadline (TAOBAO_API_TIMEOUT_MS); timeouts, connection errors, 5xx
 * and 429 are retried inside the call (TAOBAO_API_RETRIES times, 250 ms × 2ⁿ with jitter, or the
 * 429's Retry-After up to 10 s), then reported as retryable (the import job backs off and runs
 * again); 401/403 are `unauthorised`, 404 `not_found`, a malformed body `invalid_item`. API requests
 * are spaced to at most TAOBAO_API_RATE_LIMIT per second per process.
 */
import { fetchPublicImage, ImageSourceError, type FetchPolicy } from "~/lib/image-source.server";
import type { Logger } from "~/lib/logger.server";
import { TaobaoSourceError, parseShopPage, parseTaobaoItem, type TaobaoImage, type TaobaoSourcePort } from "./port";

export interface HttpTaobaoOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  retries?: number;
  /** Requests per second (API calls; images are not counted). */
  ratePerSecond?: number;
  log?: Logger;
  /** Image downloads: tests allow the loopback address of their fake server. */
  imagePolicy?: FetchPolicy;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Spaces calls to `perSecond` (a call waits for its slot; slots are handed out in order). */
export function createRateLimiter(perSecond: number, sleep = defaultSleep, now = () => Date.now()) {
  const gap = 1000 / Math.max(0.001, perSecond);
  let next = 0;
  return async () => {
    const t = now();
    const slot = Math.max(t, next);
    next = slot + gap;
    if (slot > t) await sleep(slot - t);
  };
}

export function createHttpTaobao(opts: HttpTaobaoOptions): TaobaoSourcePort {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const retries = opts.retries ?? 2;
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? defaultSleep;
  const slot = createRateLimiter(opts.ratePerSecond ?? 5, sleep);
  const log = opts.log;

  async function call(path: string, query: Record<string, string>, what: { message: string; detail: string }): Promise<unknown> {
    const url = `${base}${path}?${new URLSearchParams(query)}`;
    let last: TaobaoSourceError | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        const wait = last?.opts.retryAfterMs ?? Math.round(250 * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
        await sleep(Math.min(10_000, wait));
      }
      await slot();
      let res: Response;
      try {
        res = await doFetch(url, { headers: { authorization: `Bearer ${opts.apiKey}`, accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
      } catch (e) {
        const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
        last = new TaobaoSourceError("unavailable", timedOut ? `The Taobao item API did not answer within ${timeoutMs} ms` : `The Taobao item API could not be reached (${(e as Error & { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`);
        log?.warn({ url: redact(url), attempt, err: last.message }, "taobao api: request failed");
        continue;
      }
      if (res.status === 429) {
        const after = Number(res.headers.get("retry-after"));
        last = new TaobaoSourceError("rate_limited", "The Taobao item API is rate limiting us (HTTP 429)", { status: 429, retryAfterMs: Number.isFinite(after) && after >= 0 ? after * 1000 : undefined });
        await res.body?.cancel();
        log?.warn({ url: redact(url), attempt }, "taobao api: 429");
        continue;
      }
      if (res.status >= 500) {
        last = new TaobaoSourceError("unavailable", `The Taobao item API failed (HTTP ${res.status})`, { status: res.status });
        await res.body?.cancel();
        log?.warn({ url: redact(url), attempt, status: res.status }, "taobao api: server error");
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        throw new TaobaoSourceError("unauthorised", `The Taobao item API refused our key (HTTP ${res.status}): check TAOBAO_API_KEY`, { status: res.status, retryable: false });
      }
      if (res.status === 404) {
        await res.body?.cancel();
        throw new TaobaoSourceError("not_found", what.message, { status: 404, detail: what.detail });
      }
      const body = await res.text();
      if (res.status !== 200) throw new TaobaoSourceError("invalid_item", `The Taobao item API answered HTTP ${res.status}: ${body.slice(0, 200)}`, { status: res.status, retryable: false });
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new TaobaoSourceError("invalid_item", "The Taobao item API answered something that is not JSON", { retryable: false });
      }
      const err = json && typeof json === "object" ? (json as { error_code?: unknown; error?: unknown }) : {};
      if (err.error_code === "item-not-found") throw new TaobaoSourceError("not_found", what.message, { status: 404, detail: what.detail });
      if (err.error_code && err.error_code !== "0000" && err.error_code !== "0") {
        throw new TaobaoSourceError("invalid_item", `The Taobao item API answered an error: ${String(err.error ?? err.error_code)}`, { retryable: false });
      }
      return json;
    }
    throw last ?? new TaobaoSourceError("unavailable", "The Taobao item API could not be reached");
  }

  return {
    kind: "http",

    async getItem(id) {
      const json = (await call("/item_get", { num_iid: id }, { message: "The Taobao item was not found", detail: `item ${id}` })) as { item?: unknown };
      if (!json || typeof json !== "object" || !("item" in json) || !json.item) throw new TaobaoSourceError("invalid_item", "The Taobao item API answer has no item", { retryable: false });
      return parseTaobaoItem(json.item, id);
    },

    async listShopItems(shopId, page) {
      return parseShopPage(await call("/item_search_shop", { shop_id: shopId, page: String(page) }, { message: `Taobao shop ${shopId} was not found`, detail: `shop ${shopId}` }));
    },

    async fetchImage(rawUrl): Promise<TaobaoImage> {
      const url = rawUrl.startsWith("//") ? `https:${rawUrl}` : rawUrl;
      let last: TaobaoSourceError | null = null;
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (attempt > 0) await sleep(Math.round(250 * 2 ** (attempt - 1)));
        try {
          const r = await fetchPublicImage(url, { timeoutMs, ...opts.imagePolicy });
          return { bytes: r.bytes, contentType: r.contentType };
        } catch (e) {
          if (!(e instanceof ImageSourceError)) throw e;
          const status = Number(/HTTP (\d{3})/.exec(e.message)?.[1] ?? 0);
          const transient = status >= 500 || status === 429 || /in time|could not be reached|download failed/.test(e.message);
          last = new TaobaoSourceError("image_failed", `An image of the item could not be downloaded (${status ? `HTTP ${status}` : transient ? "timed out or unreachable" : e.message})`, { status: status || undefined, retryable: transient, detail: url });
          if (!transient) throw last;
        }
      }
      throw last!;
    },
  };
}

const redact = (url: string) => url.replace(/([?&](key|secret|token)=)[^&]*/gi, "$1…");
