/**
 * Security headers on every answer (storefront, admin, API, uploads), set by helmet in one
 * Express middleware (server.ts):
 * - a Content-Security-Policy that allows what our pages load and nothing else: scripts from this
 *   origin (the storefront and Remix bundles), Remix's inline scripts by a per-request nonce
 *   (`res.locals.cspNonce`, handed to Remix through the load context), the API docs' one inline
 *   script by its hash, App Bridge from Shopify's CDN; styles inline as well (Polaris sets style
 *   attributes, the API docs and the theme preview carry a <style>); images from this origin,
 *   data:/blob: (photo previews), Shopify's CDN, fal's media hosts and the configured storage;
 * - `frame-ancestors 'none'` and `X-Frame-Options: DENY`, except for the embedded admin (Shopify
 *   opens it with `?shop=`): `frame-ancestors https://<shop> https://admin.shopify.com` as
 *   Shopify requires, and no X-Frame-Options (it cannot name two ancestors);
 * - `X-Content-Type-Options: nosniff`, a Referrer-Policy, HSTS when the request came over https;
 * - `Cache-Control: no-store` on answers of the app's dynamic paths (API, admin, App Proxy) to a
 *   caller who presented credentials, and on any answer that sets a cookie; answers a handler
 *   marked `public` (the catalogue) stay cacheable.
 */
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import helmet from "helmet";
import type { AppConfig } from "~/config.server";
import { docsPage } from "~/api/openapi.server";
import { isRemixRequest } from "~/lib/request-routing";
import { hasAuthenticatingCookie, originOf } from "~/lib/csrf.server";

type SecurityConfig = Pick<AppConfig, "COMMERCE_ADAPTER" | "SHOPIFY_SHOP" | "S3_PUBLIC_URL" | "S3_ENDPOINT" | "S3_BUCKET" | "S3_REGION">;

const SHOPIFY_CDN = "https://cdn.shopify.com";
const SHOPIFY_ADMIN = "https://admin.shopify.com";
/** fal.ai's result files (https://v3.fal.media/files/…) when an image is shown before it is copied to our storage. */
const FAL_MEDIA = ["https://fal.media", "https://*.fal.media"];
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

interface Locals {
  cspNonce?: string;
  embeddedShop?: string | null;
}
const locals = (res: ServerResponse) => (res as ExpressResponse).locals as Locals;

/** The nonce Remix puts on its inline scripts (server.ts passes it in the load context). */
export function cspNonceOf(res: ServerResponse): string | undefined {
  return locals(res).cspNonce;
}

/** `'sha256-…'` of each inline <script> of a static page, so it may run without 'unsafe-inline'. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(`'sha256-${crypto.createHash("sha256").update(m[1], "utf8").digest("base64")}'`);
  }
  return hashes;
}

/**
 * The shop of an embedded admin request: Shopify opens the app's pages with `?shop=<shop>.myshopify.com`
 * (only when the app is connected to Shopify; a local install is never embedded).
 */
export function embeddedShopOf(url: URL, config: Pick<AppConfig, "COMMERCE_ADAPTER">): string | null {
  if (config.COMMERCE_ADAPTER !== "shopify") return null;
  if (!isRemixRequest(url.pathname, url.searchParams)) return null;
  const shop = url.searchParams.get("shop")?.trim().toLowerCase();
  return shop && SHOP_DOMAIN.test(shop) ? shop : null;
}

function storageOrigins(config: SecurityConfig): string[] {
  const out = [config.S3_PUBLIC_URL, config.S3_ENDPOINT].map((u) => (u ? originOf(u) : null));
  if (config.S3_BUCKET && config.S3_REGION) out.push(`https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`);
  return out.filter((o): o is string => o !== null);
}

/** The policy's directives; `secure` adds upgrade-insecure-requests (an http page must still load its http assets locally). */
export function cspDirectives(config: SecurityConfig, secure: boolean) {
  const self = "'self'";
  const shop = config.COMMERCE_ADAPTER === "shopify" && config.SHOPIFY_SHOP ? originOf(config.SHOPIFY_SHOP.includes("://") ? config.SHOPIFY_SHOP : `https://${config.SHOPIFY_SHOP}`) : null;
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${cspNonceOf(res) ?? "none"}'`;
  const frameAncestors = (_req: IncomingMessage, res: ServerResponse) => {
    const embedded = locals(res).embeddedShop;
    return embedded ? `https://${embedded} ${SHOPIFY_ADMIN}` : "'none'";
  };
  return {
    "default-src": [self],
    "base-uri": [self],
    "object-src": ["'none'"],
    "script-src": [self, nonce, ...inlineScriptHashes(docsPage()), SHOPIFY_CDN],
    "script-src-attr": ["'none'"],
    "style-src": [self, "'unsafe-inline'", SHOPIFY_CDN],
    "img-src": [self, "data:", "blob:", SHOPIFY_CDN, ...FAL_MEDIA, ...storageOrigins(config)],
    "font-src": [self, "data:", SHOPIFY_CDN],
    // The Storefront API of the store, for pages reading the catalogue from Shopify in the browser.
    "connect-src": [self, ...(shop ? [shop] : [])],
    // Shopify's OAuth continues on the shop's admin after a form post.
    "form-action": [self, ...(config.COMMERCE_ADAPTER === "shopify" ? ["https://*.myshopify.com", SHOPIFY_ADMIN] : [])],
    "frame-ancestors": [frameAncestors],
    ...(secure ? { "upgrade-insecure-requests": [] } : {}),
  };
}

/** Headers of ours a route may set differently (the first value is ours, the rest the route's). */
const ROUTE_OVERRIDABLE = ["content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy", "cross-origin-resource-policy", "cross-origin-opener-policy"];

/** Headers another middleware set: runs `fn` just before the status line and headers go out. */
function beforeHeadersSent(res: ServerResponse, fn: () => void): void {
  const writeHead = res.writeHead;
  let ran = false;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!ran) {
      ran = true;
      fn();
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

/** Whether the caller presented credentials (a bearer token, an API key or an authenticating cookie). */
export function presentsCredentials(header: (name: string) => string | undefined): boolean {
  return Boolean(header("authorization") || header("x-api-key")) || hasAuthenticatingCookie(header("cookie"));
}

export function securityHeaders(config: SecurityConfig): RequestHandler {
  const common = {
    strictTransportSecurity: false,
    xFrameOptions: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" as const },
    crossOriginResourcePolicy: { policy: "same-origin" as const },
  };
  const overHttp = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config, false) } });
  const overHttps = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config, true) } });
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  const deny = helmet.xFrameOptions({ action: "deny" });
  // Product and review images are shown by the theme blocks on the store's own domain.
  const sharedFiles = helmet.crossOriginResourcePolicy({ policy: "cross-origin" });
  const noop = () => undefined;

  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let url: URL;
    try {
      url = new URL(req.originalUrl, "http://local");
    } catch {
      // An unparsable request target still gets the headers (of a page that is not embedded).
      url = new URL("http://local/");
    }
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    res.locals.embeddedShop = embeddedShopOf(url, config);
    (req.secure ? overHttps : overHttp)(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.secure) hsts(req, res, noop);
      if (!res.locals.embeddedShop) deny(req, res, noop);
      if (url.pathname.startsWith("/uploads/")) sharedFiles(req, res, noop);
      if (isRemixRequest(url.pathname, url.searchParams)) {
        const personal = presentsCredentials((name) => req.get(name));
        beforeHeadersSent(res, () => {
          // A header a route sets itself is appended to ours (@remix-run/express): the route's wins.
          // So a response that brings its own policy keeps it alone: Shopify's App Bridge pages (the
          // session-token bounce, the exit-iframe redirect) carry an inline script our nonce cannot
          // cover, with Shopify's frame-ancestors. (Remix documents drop Shopify's: entry.server.tsx.)
          for (const name of ROUTE_OVERRIDABLE) {
            const values = res.getHeader(name);
            if (Array.isArray(values) && values.length > 1) res.setHeader(name, values.slice(1));
          }
          const cacheControl = String(res.getHeader("cache-control") ?? "");
          if (res.getHeader("set-cookie") !== undefined || (personal && !/^\s*public\b/i.test(cacheControl))) res.setHeader("Cache-Control", "no-store");
        });
      }
      next();
    });
  };
}
