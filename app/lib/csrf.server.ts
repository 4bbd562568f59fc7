/**
 * Cross-site request forgery. A browser attaches our cookies to any request it sends here, even
 * one a page of another site starts (a form post, a `fetch` without custom headers), so a
 * state-changing request that a cookie authenticates must come from one of our own pages: its
 * `Origin` (else its `Referer`) must be one we serve. One check for every path (API, admin pages
 * and their `.data` requests, /auth, the App Proxy stand-in), run by server.ts before anything
 * else answers.
 *
 * The admin pages are judged even without a cookie (see isAdminPagePath). Requests that carry
 * `Authorization` or `x-api-key` are left alone: a page of another site
 * cannot add those headers without a CORS preflight, which this server never grants for
 * credentials, and such a request is not authenticated by a cookie anyway (the bearer token wins
 * over the cookie, see app/api/auth.server.ts). Webhooks and the App Proxy are signed by Shopify
 * (HMAC) and carry no cookie.
 */
import crypto from "node:crypto";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import type { AppConfig } from "~/config.server";
import type { Logger } from "~/lib/logger.server";
import { SESSION_COOKIE } from "~/api/auth.server";
import { ErrorCodes } from "~/contract/messages";
import { PREVIEW_CUSTOMER_COOKIE } from "~/services/theme-preview/page.server";

/** The cookies that authenticate a caller: the session (shoppers, staff in local mode) and the theme preview's simulated customer. */
export const AUTHENTICATING_COOKIES = [SESSION_COOKIE, PREVIEW_CUSTOMER_COOKIE] as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE = "Cross-site request refused: this action must be sent from the app's own pages";

type HeaderOf = (name: string) => string | undefined;

export type CsrfVerdict = { ok: true } | { ok: false; reason: string };

function cookieNames(header: string | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (name) names.add(name);
  }
  return names;
}

export function hasAuthenticatingCookie(cookieHeader: string | undefined): boolean {
  const names = cookieNames(cookieHeader);
  return AUTHENTICATING_COOKIES.some((c) => names.has(c));
}

/** Whether a cookie would authenticate this request (no header only a same-origin script or a non-browser client can send). */
export function isCookieAuthenticated(header: HeaderOf): boolean {
  if (header("authorization") || header("x-api-key")) return false;
  return hasAuthenticatingCookie(header("cookie"));
}

/** `https://host:port` of a URL, or null when it is not an http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The origins a cookie-authenticated write may come from besides the request's own: the public
 * URLs the operator configured, and the Shopify admin when the app is embedded there.
 */
export function configuredOrigins(config: Pick<AppConfig, "APP_URL" | "SHOPIFY_APP_URL" | "COMMERCE_ADAPTER">): string[] {
  const out = [config.APP_URL, config.SHOPIFY_APP_URL].map((u) => (u ? originOf(u) : null)).filter((o): o is string => o !== null);
  if (config.COMMERCE_ADAPTER === "shopify") out.push("https://admin.shopify.com");
  return out;
}

/**
 * The decision, on plain inputs: a safe method or a request no cookie authenticates passes; else
 * its Origin, or without one (or "null") the browser's `Sec-Fetch-Site: same-origin`, or its
 * Referer, must be ours. Otherwise `Origin: null` (sandboxed frames, cross-origin redirects) and a
 * request with neither header are refused: browsers send Origin on every POST, PUT, PATCH and
 * DELETE, so only a non-browser client omits both, and such a client should authenticate with a
 * bearer token.
 */
export function checkCrossSite(input: { method: string; header: HeaderOf; allowedOrigins: ReadonlySet<string>; adminPage?: boolean }): CsrfVerdict {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return { ok: true };
  const judged = isCookieAuthenticated(input.header) || (input.adminPage === true && !input.header("authorization") && !input.header("x-api-key"));
  if (!judged) return { ok: true };
  const origin = input.header("origin")?.trim();
  if (origin && origin !== "null") {
    const normalised = originOf(origin);
    return normalised && input.allowedOrigins.has(normalised) ? { ok: true } : { ok: false, reason: `origin ${origin.slice(0, 200)}` };
  }
  // A page whose Referrer-Policy is no-referrer sends "Origin: null" with its own form posts; the
  // browser still says where the request comes from in Sec-Fetch-Site, which no page can set.
  if (input.header("sec-fetch-site") === "same-origin") return { ok: true };
  if (origin === "null") return { ok: false, reason: "origin null" };
  const referer = input.header("referer")?.trim();
  if (referer) {
    const from = originOf(referer);
    return from && input.allowedOrigins.has(from) ? { ok: true } : { ok: false, reason: `referer origin ${from ?? "unreadable"}` };
  }
  return { ok: false, reason: "no Origin or Referer" };
}

/**
 * The admin pages (`/app/*` and their `.data` requests): Remix itself compares their actions'
 * Origin with the Host header (or an X-Forwarded-Host it cannot know to trust) and answers a
 * mismatch with a 500. Here they are judged whatever authenticates them (except a bearer token
 * or API key), so a foreign post gets a 403 instead, and an accepted one goes on without the
 * Origin header Remix would misjudge (behind a proxy, through APP_URL, or "null" from a
 * no-referrer page).
 */
export function isAdminPagePath(path: string): boolean {
  return path === "/app" || path === "/app.data" || path.startsWith("/app/");
}

/**
 * The request's own origin as the browser sees it: scheme and host, from X-Forwarded-Proto and
 * X-Forwarded-Host only when Express trusts the proxy that sent them ("trust proxy").
 */
export function ownOrigin(req: ExpressRequest): string {
  const trust = req.app.get("trust proxy fn") as ((addr: string | undefined, i: number) => boolean) | undefined;
  const forwarded = req.get("x-forwarded-host");
  const host = forwarded && trust?.(req.socket.remoteAddress, 0) ? forwarded.split(",")[0].trim() : req.get("host");
  return `${req.protocol}://${host ?? "localhost"}`;
}

/** API calls and Remix data requests get the API's JSON error body; a page's form post gets a sentence. */
export function wantsJson(req: Pick<ExpressRequest, "path" | "query">): boolean {
  const p = req.path;
  return (
    p === "/api" ||
    p.startsWith("/api/") ||
    p.startsWith("/proxy/") ||
    p.startsWith("/apps/") ||
    p.endsWith(".data") ||
    p === "/__manifest" ||
    (req.query as Record<string, unknown>)["_data"] !== undefined
  );
}

/** Express middleware: refuses a cross-site, cookie-authenticated write with 403 before any route sees it. */
export function csrfProtection(config: Pick<AppConfig, "APP_URL" | "SHOPIFY_APP_URL" | "COMMERCE_ADAPTER">, log: Logger): RequestHandler {
  const configured = configuredOrigins(config);
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const adminPage = isAdminPagePath(req.path);
    const verdict = checkCrossSite({
      method: req.method,
      header: (name) => req.get(name),
      allowedOrigins: new Set([ownOrigin(req), ...configured]),
      adminPage,
    });
    if (verdict.ok) {
      if (adminPage && !SAFE_METHODS.has(req.method.toUpperCase()) && !req.get("authorization") && !req.get("x-api-key")) delete req.headers.origin;
      return next();
    }
    const requestId = req.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
    log.warn({ requestId, method: req.method, path: req.path, reason: verdict.reason }, "cross-site request refused");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("x-request-id", requestId);
    if (wantsJson(req)) return res.status(403).json({ error: { code: ErrorCodes[403], message: CROSS_SITE_MESSAGE, requestId } });
    return res.status(403).type("text/plain; charset=utf-8").send(`${CROSS_SITE_MESSAGE}.\n`);
  };
}
