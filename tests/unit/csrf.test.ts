/**
 * The CSRF decision (app/lib/csrf.server.ts) on plain inputs, and the pieces of the security
 * headers that do not need a server (app/lib/security-headers.server.ts).
 */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkCrossSite, configuredOrigins, isAdminPagePath, isCookieAuthenticated, originOf } from "../../app/lib/csrf.server";
import { embeddedShopOf, inlineScriptHashes } from "../../app/lib/security-headers.server";

const OWN = "https://app.fashion.example";
const allowed = new Set([OWN]);
const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];
const verdict = (method: string, h: Record<string, string>) => checkCrossSite({ method, header: headers(h), allowedOrigins: allowed });

describe("checkCrossSite", () => {
  const session = { cookie: "theme=dark; fd_session=abc" };

  it("lets safe methods through whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"]) expect(verdict(method, { ...session, origin: "https://evil.example" }).ok).toBe(true);
  });

  it("refuses a write the session cookie authenticates from another origin, a foreign Referer, Origin null or no header at all", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(verdict(method, { ...session, origin: "https://evil.example" }).ok).toBe(false);
      expect(verdict(method, { ...session, origin: "https://app.fashion.example.evil.example" }).ok).toBe(false);
      expect(verdict(method, { ...session, origin: "http://app.fashion.example" }).ok).toBe(false);
      expect(verdict(method, { ...session, referer: "https://evil.example/page" }).ok).toBe(false);
      expect(verdict(method, { ...session, origin: "null" }).ok).toBe(false);
      expect(verdict(method, session).ok).toBe(false);
    }
  });

  it("accepts our own Origin, or without Origin our own Referer", () => {
    expect(verdict("POST", { ...session, origin: OWN })).toEqual({ ok: true });
    expect(verdict("POST", { ...session, origin: `${OWN}/` })).toEqual({ ok: true });
    expect(verdict("POST", { ...session, referer: `${OWN}/app/styles?x=1` })).toEqual({ ok: true });
  });

  it("takes the browser's Sec-Fetch-Site when Origin is null or absent (a page with Referrer-Policy: no-referrer), never over a foreign Origin", () => {
    expect(verdict("POST", { ...session, origin: "null", "sec-fetch-site": "same-origin" }).ok).toBe(true);
    expect(verdict("POST", { ...session, "sec-fetch-site": "same-origin" }).ok).toBe(true);
    expect(verdict("POST", { ...session, origin: "null", "sec-fetch-site": "cross-site" }).ok).toBe(false);
    expect(verdict("POST", { ...session, origin: "null", "sec-fetch-site": "same-site" }).ok).toBe(false);
    expect(verdict("POST", { ...session, origin: "https://evil.example", "sec-fetch-site": "same-origin" }).ok).toBe(false);
    expect(verdict("POST", { ...session, "sec-fetch-site": "cross-site", referer: "https://evil.example/" }).ok).toBe(false);
  });

  it("does not judge requests no cookie authenticates: bearer tokens, API keys, no session cookie", () => {
    const foreign = { origin: "https://evil.example" };
    expect(verdict("POST", { ...foreign, ...session, authorization: "Bearer t" }).ok).toBe(true);
    expect(verdict("POST", { ...foreign, ...session, "x-api-key": "k" }).ok).toBe(true);
    expect(verdict("POST", { ...foreign, cookie: "theme=dark; not_fd_session=1" }).ok).toBe(true);
    expect(verdict("POST", foreign).ok).toBe(true);
  });

  it("judges the admin pages' writes without a cookie too, except with a bearer token or an API key", () => {
    const page = (h: Record<string, string>) => checkCrossSite({ method: "POST", header: headers(h), allowedOrigins: allowed, adminPage: true });
    expect(page({ origin: "https://evil.example" }).ok).toBe(false);
    expect(page({ origin: OWN }).ok).toBe(true);
    expect(page({ origin: "https://evil.example", authorization: "Bearer t" }).ok).toBe(true);
    expect(isAdminPagePath("/app")).toBe(true);
    expect(isAdminPagePath("/app.data")).toBe(true);
    expect(isAdminPagePath("/app/styles.data")).toBe(true);
    expect(isAdminPagePath("/apps/fashion/api/x")).toBe(false);
    expect(isAdminPagePath("/api/users")).toBe(false);
  });

  it("treats the theme preview's customer cookie as authenticating too", () => {
    expect(isCookieAuthenticated(headers({ cookie: "fd_preview_customer=42" }))).toBe(true);
    expect(verdict("POST", { cookie: "fd_preview_customer=42", origin: "https://evil.example" }).ok).toBe(false);
  });
});

describe("configured origins", () => {
  it("APP_URL and SHOPIFY_APP_URL as origins, and the Shopify admin when embedded there", () => {
    expect(configuredOrigins({ APP_URL: "https://a.example/path", SHOPIFY_APP_URL: undefined, COMMERCE_ADAPTER: "local" })).toEqual(["https://a.example"]);
    expect(configuredOrigins({ APP_URL: undefined, SHOPIFY_APP_URL: "https://b.example:8443/", COMMERCE_ADAPTER: "shopify" })).toEqual(["https://b.example:8443", "https://admin.shopify.com"]);
    expect(originOf("javascript:alert(1)")).toBeNull();
    expect(originOf("not a url")).toBeNull();
  });
});

describe("security headers pieces", () => {
  it("hashes each inline script of a static page, not the external ones", () => {
    const html = '<script src="/a.js"></script><script>run()</script><script type="module">go()</script>';
    const sha = (s: string) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([sha("run()"), sha("go()")]);
  });

  it("an embedded request is an app path with a valid shop domain, only when the app is connected to Shopify", () => {
    const shopify = { COMMERCE_ADAPTER: "shopify" as const };
    expect(embeddedShopOf(new URL("http://x/app?shop=Test-Shop.myshopify.com&host=abc"), shopify)).toBe("test-shop.myshopify.com");
    expect(embeddedShopOf(new URL("http://x/?shop=test-shop.myshopify.com"), shopify)).toBe("test-shop.myshopify.com");
    expect(embeddedShopOf(new URL("http://x/app?shop=evil.example"), shopify)).toBeNull();
    expect(embeddedShopOf(new URL("http://x/app?shop=a.myshopify.com%20https://evil.example"), shopify)).toBeNull();
    expect(embeddedShopOf(new URL("http://x/mens?shop=test-shop.myshopify.com"), shopify)).toBeNull();
    expect(embeddedShopOf(new URL("http://x/app?shop=test-shop.myshopify.com"), { COMMERCE_ADAPTER: "local" })).toBeNull();
  });
});
