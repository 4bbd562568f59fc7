/**
 * The first API answers of a storefront page, made while its HTML is answered and sent inside it
 * (storefront/src/lib/bootstrap.ts, page-prefetch.ts), with the page's main image to preload. On a
 * phone network every round trip the page would otherwise wait for (app code → session → data →
 * image) costs more than the server's few milliseconds here.
 *
 * The calls go through the app's own API in the same process (`apiFetch`: the request handler of
 * the built app, so the same rate limits, caches and access rules apply), with the visitor's
 * cookies. A browser's first visit (a navigation without a session) starts its guest session
 * here, as the app's first call would have: the session cookie and the app's `fd_uid` cookie go
 * out with the HTML. Clients that are not a browser navigation (crawlers, link previews, curl)
 * get the page without a session or data.
 */
import type { Request as ExpressRequest } from "express";
import { createApiClient } from "~/client";
import type { User } from "~/contract";
import { responsiveImage } from "~/client/images";
import { bootstrapKey, isReplayable, type BootstrapResponses } from "../../storefront/src/lib/bootstrap";
import { prefetchPage, prefetchTarget } from "../../storefront/src/lib/page-prefetch";
import { userIdCookie } from "../../storefront/src/lib/session-core";

/** The app's API as a function of a fetch Request (the caller's address for rate limits). */
export type ApiFetch = (request: Request, clientIp: string) => Promise<Response>;

export interface PagePrefetch {
  responses: BootstrapResponses;
  /** Set-Cookie values for the HTML answer (a new guest session). */
  setCookies: string[];
  /** `<link rel="preload" as="image">` attributes of the page's main image, one per format. */
  preloadImages: { type?: string; imagesrcset: string; imagesizes: string; href: string }[];
}

export interface PagePrefetchOptions {
  apiFetch: ApiFetch;
  /** The session cookie's name (app/api/auth.server.ts). */
  sessionCookie: string;
  /** The longest the HTML waits for the answers; what is not back by then is left to the page. */
  budgetMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

export const PREFETCH_BUDGET_MS = 800;

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** A browser loading a page (not a crawler, a preview fetch, a prefetch or a script). */
export function isBrowserNavigation(req: Pick<ExpressRequest, "method" | "headers">): boolean {
  // Chromium names a speculative load (link prefetch, prerender) in Sec-Purpose, older browsers in Purpose:
  // such a load may never be shown, so it must not create a guest session.
  const speculative = /\bprefetch\b/.test(String(req.headers["sec-purpose"] ?? "")) || req.headers["purpose"] === "prefetch";
  return req.method === "GET" && req.headers["sec-fetch-mode"] === "navigate" && req.headers["sec-fetch-dest"] === "document" && !speculative;
}

const isMobile = (req: Pick<ExpressRequest, "headers">) => req.headers["sec-ch-ua-mobile"] === "?1" || /\bMobile\b/.test(String(req.headers["user-agent"] ?? ""));

export function createPagePrefetch(opts: PagePrefetchOptions): (req: ExpressRequest) => Promise<PagePrefetch | null> {
  const budget = opts.budgetMs ?? PREFETCH_BUDGET_MS;
  return async (req) => {
    const url = new URL(req.originalUrl, "http://local");
    if (req.method !== "GET" || !prefetchTarget(url.pathname)) return null;
    const clientIp = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const secure = req.secure;
    const origin = `${req.protocol}://${req.get("host") ?? "local"}`;
    let cookies = req.headers.cookie ?? "";
    const setCookies: string[] = [];
    const responses: BootstrapResponses = {};

    const recording: typeof fetch = async (input, init) => {
      const target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? "GET";
      const headers = new Headers(init?.headers);
      if (cookies) headers.set("cookie", cookies);
      for (const h of ["user-agent", "accept-language"] as const) {
        const v = req.headers[h];
        if (typeof v === "string") headers.set(h, v);
      }
      const res = await opts.apiFetch(new Request(target, { method, headers, body: init?.body }), clientIp);
      const text = await res.text();
      const body = typeof init?.body === "string" ? init.body : null;
      if (res.ok && text && isReplayable(method, target)) {
        try {
          responses[bootstrapKey(method, target, body)] = { status: res.status, body: JSON.parse(text) as unknown };
        } catch {
          // Not JSON: left to the page.
        }
      }
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
    const api = createApiClient({ baseUrl: origin, fetch: recording });

    const work = (async () => {
      if (!cookieValue(cookies, opts.sessionCookie)) {
        if (!isBrowserNavigation(req)) return null;
        const guest = await opts.apiFetch(new Request(`${origin}/api/users/guest`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: "{}" }), clientIp);
        if (!guest.ok) return null;
        const { user } = (await guest.json()) as { user: User };
        for (const c of guest.headers.getSetCookie()) {
          setCookies.push(c);
          const [pair] = c.split(";");
          cookies = cookies ? `${cookies}; ${pair}` : pair;
        }
        setCookies.push(userIdCookie(user.id, secure));
      }
      const user = await api.getMe().catch(() => null);
      // An expired session: the page's own sign-out and retry take over.
      if (!user) return null;
      return prefetchPage(api, url, { user, mobile: isMobile(req) });
    })();

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"late">((r) => {
      timer = setTimeout(() => r("late"), budget);
    });
    let main: Awaited<typeof work> | "late" = null;
    try {
      main = await Promise.race([work, timeout]);
    } catch (e) {
      opts.log?.warn({ err: e, path: url.pathname }, "storefront prefetch failed: the page loads its own data");
    } finally {
      clearTimeout(timer);
    }
    if (main === "late") {
      // The guest session must still reach the browser even when the data is late.
      opts.log?.warn({ path: url.pathname, budgetMs: budget }, "storefront prefetch over budget: sending what is ready");
      main = null;
    }
    if (!setCookies.length && !Object.keys(responses).length) return null;
    const image = main ? responsiveImage(main.url, { widths: main.widths, sizes: main.sizes, intrinsicWidth: main.intrinsicWidth }) : null;
    const preloadImages = image
      ? image.sources.length
        ? [{ type: image.sources[0].type, imagesrcset: image.sources[0].srcSet, imagesizes: image.sources[0].sizes, href: image.src }]
        : image.srcSet
          ? [{ imagesrcset: image.srcSet, imagesizes: image.sizes ?? "", href: image.src }]
          : [{ imagesrcset: "", imagesizes: "", href: image.src }]
      : [];
    return { responses: { ...responses }, setCookies, preloadImages };
  };
}
