/**
 * Web security of the Express app over real HTTP (tests/helpers/web-server.ts: server.ts's
 * middleware and Remix handler, the real admin and API routes):
 * - CSRF: a state-changing request that the session cookie authenticates must come from our own
 *   origin (Origin, else Referer); foreign ones get 403 with the API's JSON error body (API,
 *   `.data` and `_data` requests) and change nothing; bearer tokens, API keys and signed webhooks
 *   are not cookie-authenticated and keep working.
 * - Security headers (helmet): nosniff, CSP with a per-request nonce on Remix's inline scripts,
 *   frame-ancestors 'none' + X-Frame-Options DENY except for the embedded admin, Referrer-Policy,
 *   HSTS only over https, no-store on personal answers.
 * - No stack trace or absolute path in any error answer, whatever Express's env.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../app/config.server";
import { createTestApp, TEST_API_KEY, type TestApp } from "../helpers/app";
import { startWebServer, type TestRoute, type WebServer } from "../helpers/web-server";
import { shopifyWebhook } from "../helpers/shopify-webhook";
import { CROSS_SITE_MESSAGE } from "../../app/lib/csrf.server";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";

const EVIL = "https://evil.example";
const SECRET_PATH = `${process.cwd()}/app/services/secret-internals.server.ts`;

/** A route whose loader and action fail the way a bug would, with a file path in the message. */
const exploding: TestRoute = {
  id: "routes/app.boom",
  path: "app/boom",
  module: {
    loader: () => {
      throw new Error(`loader exploded reading ${SECRET_PATH}`);
    },
    action: () => {
      throw new Error(`action exploded writing ${SECRET_PATH}`);
    },
    default: () => null,
  },
};

/** A resource route answering with a policy of its own, as Shopify's App Bridge pages do. */
const ownPolicy: TestRoute = {
  id: "routes/auth.own-policy",
  path: "auth/own-policy",
  module: {
    loader: () => new Response("<script>window.open('/app', '_top')</script>", { headers: { "content-type": "text/html", "x-content-type-options": "nosniff", "content-security-policy": "frame-ancestors https://test-shop.myshopify.com https://admin.shopify.com;" } }),
  },
};

async function routes(): Promise<TestRoute[]> {
  return [
    { id: "routes/api.$", path: "api/*", module: await import("../../app/routes/api.$") },
    { id: "routes/app", path: "app", module: await import("../../app/routes/app") },
    { id: "routes/app.styles", parentId: "routes/app", path: "styles", module: await import("../../app/routes/app.styles") },
    { id: "routes/app.admins", parentId: "routes/app", path: "admins", module: await import("../../app/routes/app.admins") },
    { id: "routes/app.media_.upload", path: "app/media/upload", module: await import("../../app/routes/app.media_.upload") },
    { id: "routes/webhooks.products", path: "webhooks/products", module: await import("../../app/routes/webhooks.products") },
    exploding,
    ownPolicy,
  ];
}

let app: TestApp;
let server: WebServer;
let admin: { id: string; token: string };
let shopper: { id: string; token: string };
const servers: WebServer[] = [];

const cookieOf = (token: string) => `fd_session=${encodeURIComponent(token)}`;

async function start(opts: Omit<Parameters<typeof startWebServer>[1], "routes"> = {}): Promise<WebServer> {
  const s = await startWebServer(app, { routes: await routes(), ...opts });
  servers.push(s);
  return s;
}

function form(fields: Record<string, string>) {
  return { body: new URLSearchParams(fields).toString(), "content-type": "application/x-www-form-urlencoded" };
}

async function post(base: string, path: string, opts: { headers?: Record<string, string>; fields?: Record<string, string> } = {}) {
  const f = opts.fields ? form(opts.fields) : undefined;
  return fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...(f ? { "content-type": f["content-type"] } : {}), ...opts.headers },
    body: f?.body,
  });
}

const styleNamed = (name: string) => app.database.db.style.findFirst({ where: { name } });

beforeAll(async () => {
  app = await createTestApp();
  // The route modules load shopify.server, which needs the database.
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  admin = await app.createUser({ role: "ADMIN", permissions: ["admins.manage", "catalog.edit", "media.manage"], email: "boss@security.test" });
  shopper = await app.createUser({ role: "SHOPPER", email: "shopper@security.test" });
  server = await start();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await app?.close();
});

describe("CSRF: admin pages (local login, cookie session)", () => {
  it("refuses a foreign-origin action with the admin cookie: 403 with the JSON error body, nothing created (.data and _data)", async () => {
    const fields = { intent: "create", email: "intruder@evil.example", first_name: "In", last_name: "Truder", role: "ADMIN", send_email: "false" };
    for (const path of ["/app/admins.data", "/app/admins?_data=routes%2Fapp.admins"]) {
      const res = await post(server.baseUrl, path, { fields, headers: { cookie: cookieOf(admin.token), origin: EVIL } });
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body).toEqual({ error: { code: "forbidden", message: CROSS_SITE_MESSAGE, requestId: expect.any(String) } });
    }
    expect(await app.database.db.user.findFirst({ where: { email: "intruder@evil.example" } })).toBeNull();
  });

  it("refuses a foreign-origin form post of a page (no JavaScript) with a sentence, nothing created", async () => {
    const res = await post(server.baseUrl, "/app/styles", { fields: { intent: "create", name: "Forged style" }, headers: { cookie: cookieOf(admin.token), origin: EVIL } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Cross-site request refused");
    expect(await styleNamed("Forged style")).toBeNull();
  });

  it("accepts the same action from the app's own origin", async () => {
    const res = await post(server.baseUrl, "/app/styles.data", { fields: { intent: "create", name: "Same-origin style" }, headers: { cookie: cookieOf(admin.token), origin: server.baseUrl } });
    expect(res.status).toBeLessThan(400);
    expect(await styleNamed("Same-origin style")).not.toBeNull();
  });

  it("accepts a request without Origin whose Referer is one of our pages, or Origin null sent same-origin; refuses a foreign Referer, Origin null from elsewhere, and neither header", async () => {
    const ok = await post(server.baseUrl, "/app/styles.data", { fields: { intent: "create", name: "Referer style" }, headers: { cookie: cookieOf(admin.token), referer: `${server.baseUrl}/app/styles` } });
    expect(ok.status).toBeLessThan(400);
    expect(await styleNamed("Referer style")).not.toBeNull();

    // A page with Referrer-Policy: no-referrer posts with "Origin: null"; Chromium adds Sec-Fetch-Site.
    const noReferrer = await post(server.baseUrl, "/app/styles.data", { fields: { intent: "create", name: "No-referrer style" }, headers: { cookie: cookieOf(admin.token), origin: "null", "sec-fetch-site": "same-origin" } });
    expect(noReferrer.status).toBeLessThan(400);
    expect(await styleNamed("No-referrer style")).not.toBeNull();

    const refused: Record<string, string>[] = [{ referer: `${EVIL}/app/styles` }, { origin: "null" }, { origin: "null", "sec-fetch-site": "cross-site" }, {}];
    for (const headers of refused) {
      const res = await post(server.baseUrl, "/app/styles.data", { fields: { intent: "create", name: "Refused style" }, headers: { cookie: cookieOf(admin.token), ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await styleNamed("Refused style")).toBeNull();
  });
});

describe("CSRF: admin pages whatever authenticates them (Remix's own Origin check would answer 500)", () => {
  it("refuses a foreign-origin post without a cookie with 403; from our origin it goes on to the page's own sign-in redirect", async () => {
    const foreign = await post(server.baseUrl, "/app/styles.data", { fields: { intent: "create", name: "Anonymous style" }, headers: { origin: EVIL } });
    expect(foreign.status).toBe(403);
    const own = await post(server.baseUrl, "/app/styles", { fields: { intent: "create", name: "Anonymous style" }, headers: { origin: server.baseUrl } });
    expect(own.status).toBe(302);
    expect(own.headers.get("location")).toMatch(/^\/app\/login\?next=/);
    expect(await styleNamed("Anonymous style")).toBeNull();
  });

  it("accepts an action from the configured public URL although the Host differs (a proxy), where Remix alone would answer 500", async () => {
    const configured = await start({ config: { APP_URL: "https://admin.fashion.example" } });
    const res = await post(configured.baseUrl, "/app/styles.data", { fields: { intent: "create", name: "Proxied style" }, headers: { cookie: cookieOf(admin.token), origin: "https://admin.fashion.example" } });
    expect(res.status).toBeLessThan(400);
    expect(await styleNamed("Proxied style")).not.toBeNull();
  });
});

describe("CSRF: the API", () => {
  it("refuses a cookie-authenticated write without a body from a foreign origin: 403 JSON, the session still open", async () => {
    const { token } = await app.createUser({ email: "victim@security.test" });
    const res = await post(server.baseUrl, "/api/auth/logout", { headers: { cookie: cookieOf(token), origin: EVIL } });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: "forbidden", message: CROSS_SITE_MESSAGE });
    expect(body.error.requestId).toEqual(res.headers.get("x-request-id"));
    const me = await fetch(`${server.baseUrl}/api/users/me`, { headers: { cookie: cookieOf(token) } });
    expect(me.status).toBe(200);
  });

  it("lets the same write through from our own origin, and with a bearer token from any origin", async () => {
    const a = await app.createUser({ email: "same-origin@security.test" });
    expect((await post(server.baseUrl, "/api/auth/logout", { headers: { cookie: cookieOf(a.token), origin: server.baseUrl } })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/users/me`, { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(401);

    const b = await app.createUser({ email: "bearer@security.test" });
    expect((await post(server.baseUrl, "/api/auth/logout", { headers: { authorization: `Bearer ${b.token}`, origin: EVIL } })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/users/me`, { headers: { authorization: `Bearer ${b.token}` } })).status).toBe(401);
  });

  it("does not stand in the way of API-key callers, anonymous calls or signed webhooks (no cookie)", async () => {
    const graphql = await fetch(`${server.baseUrl}/api/graphql`, { method: "POST", headers: { "x-api-key": TEST_API_KEY, cookie: cookieOf(shopper.token), origin: EVIL, "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) });
    expect(graphql.status).not.toBe(403);
    const guest = await post(server.baseUrl, "/api/users/guest", { headers: { origin: EVIL } });
    expect(guest.status).toBeLessThan(300);
    // A signed webhook passes its HMAC check and reaches the route (which does not handle this topic).
    const hook = await fetch(
      shopifyWebhook(`${server.baseUrl}/webhooks/products`, "shop/update", { id: 1 }, { secret: getConfig().SHOPIFY_API_SECRET ?? "", deliveryHeaders: false, headers: { origin: EVIL } }),
    );
    expect(await hook.text()).toBe("Unhandled topic SHOP_UPDATE");
    expect(hook.status).toBe(404);
  });

  it("takes the configured public URL and, behind a trusted proxy, the forwarded host as our own origin", async () => {
    const configured = await start({ config: { SHOPIFY_APP_URL: "https://app.fashion.example/" } });
    const c = await app.createUser({ email: "configured@security.test" });
    expect((await post(configured.baseUrl, "/api/auth/logout", { headers: { cookie: cookieOf(c.token), origin: "https://app.fashion.example" } })).status).toBe(200);

    const forwarded = { origin: "https://shop.fashion.example", "x-forwarded-proto": "https", "x-forwarded-host": "shop.fashion.example" };
    const untrusted = await app.createUser({ email: "untrusted@security.test" });
    expect((await post(server.baseUrl, "/api/auth/logout", { headers: { cookie: cookieOf(untrusted.token), ...forwarded } })).status).toBe(403);
    const proxied = await start({ trustProxy: true });
    const trusted = await app.createUser({ email: "trusted@security.test" });
    expect((await post(proxied.baseUrl, "/api/auth/logout", { headers: { cookie: cookieOf(trusted.token), ...forwarded } })).status).toBe(200);
  });
});

describe("security headers", () => {
  const policyOf = (res: Response) => {
    const csp = res.headers.get("content-security-policy") ?? "";
    return Object.fromEntries(
      csp
        .split(";")
        .map((d) => d.trim())
        .filter(Boolean)
        .map((d) => {
          const [name, ...values] = d.split(/\s+/);
          return [name, values.join(" ")];
        }),
    ) as Record<string, string>;
  };

  it("the API, the storefront and the admin: nosniff, a CSP without unsafe-inline scripts, no framing, a referrer policy, no HSTS over http", async () => {
    const answers = [
      await fetch(`${server.baseUrl}/api/health`),
      await fetch(`${server.baseUrl}/`),
      await fetch(`${server.baseUrl}/mens`),
      await fetch(`${server.baseUrl}/app/styles`, { headers: { cookie: cookieOf(admin.token) } }),
    ];
    for (const res of answers) {
      expect(res.status, res.url).toBe(200);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
      const policy = policyOf(res);
      expect(policy["frame-ancestors"]).toBe("'none'");
      expect(policy["default-src"]).toBe("'self'");
      expect(policy["object-src"]).toBe("'none'");
      expect(policy["script-src"]).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(policy["script-src"]).not.toContain("unsafe-inline");
      expect(policy["upgrade-insecure-requests"]).toBeUndefined();
    }
  });

  it("an admin page's inline scripts all carry the nonce of its policy, a new one per request; the page is not stored", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.baseUrl}/app/styles`, { headers: { cookie: cookieOf(admin.token) } });
      const html = await res.text();
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce).toBeTruthy();
      nonces.add(nonce!);
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
      expect(inline.length).toBeGreaterThan(0);
      for (const [, attrs] of inline) expect(attrs).toContain(`nonce="${nonce}"`);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect(nonces.size).toBe(2);
  });

  it("the embedded admin (Shopify opens it with ?shop=) may be framed by that shop and the Shopify admin only", async () => {
    const shopify = await start({ config: { COMMERCE_ADAPTER: "shopify", SHOPIFY_SHOP: "test-shop.myshopify.com" } });
    const embedded = await fetch(`${shopify.baseUrl}/app/styles?shop=test-shop.myshopify.com&host=YWRtaW4`, { headers: { cookie: cookieOf(admin.token) } });
    expect(policyOf(embedded)["frame-ancestors"]).toBe("https://test-shop.myshopify.com https://admin.shopify.com");
    expect(embedded.headers.get("x-frame-options")).toBeNull();
    // One policy only: Shopify's own frame-ancestors header (addDocumentResponseHeaders) is folded into ours.
    expect(embedded.headers.get("content-security-policy")).not.toContain(",");

    for (const url of [`${shopify.baseUrl}/app/styles?shop=evil.example`, `${shopify.baseUrl}/mens?shop=test-shop.myshopify.com`, `${server.baseUrl}/app/styles?shop=test-shop.myshopify.com`]) {
      const res = await fetch(url, { headers: { cookie: cookieOf(admin.token) } });
      expect(policyOf(res)["frame-ancestors"], url).toBe("'none'");
      expect(res.headers.get("x-frame-options"), url).toBe("DENY");
    }
  });

  it("HSTS and upgrade-insecure-requests only when the request came over https (through a trusted proxy)", async () => {
    const proxied = await start({ trustProxy: true });
    const https = await fetch(`${proxied.baseUrl}/api/health`, { headers: { "x-forwarded-proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toMatch(/max-age=31536000/);
    expect(policyOf(https)["upgrade-insecure-requests"]).toBe("");
    const spoofed = await fetch(`${server.baseUrl}/api/health`, { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();
  });

  it("no-store on personal API answers and on anything setting a cookie; public catalogue answers stay cacheable", async () => {
    const me = await fetch(`${server.baseUrl}/api/users/me`, { headers: { cookie: cookieOf(shopper.token) } });
    expect(me.status).toBe(200);
    expect(me.headers.get("cache-control")).toBe("no-store");
    const bearer = await fetch(`${server.baseUrl}/api/users/me`, { headers: { authorization: `Bearer ${shopper.token}` } });
    expect(bearer.headers.get("cache-control")).toBe("no-store");
    const guest = await post(server.baseUrl, "/api/users/guest");
    expect(guest.headers.get("set-cookie")).toContain("fd_session=");
    expect(guest.headers.get("cache-control")).toBe("no-store");
    for (const headers of [{}, { cookie: cookieOf(shopper.token) }] as Record<string, string>[]) {
      const catalogue = await fetch(`${server.baseUrl}/api/products`, { headers });
      expect(catalogue.status).toBe(200);
      expect(catalogue.headers.get("cache-control")).toMatch(/^public/);
    }
  });

  it("a route answering with a policy of its own (Shopify's App Bridge pages) keeps that one alone, and a header it repeats is sent once", async () => {
    const res = await fetch(`${server.baseUrl}/auth/own-policy`);
    expect(res.headers.get("content-security-policy")).toBe("frame-ancestors https://test-shop.myshopify.com https://admin.shopify.com;");
    // A header the route repeats is sent once.
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("uploaded files may be shown on the store's domain (theme blocks); everything else is same-origin only", async () => {
    const fs = await import("node:fs");
    fs.writeFileSync(`${app.dataDir}/pixel.png`, Buffer.from("89504e47", "hex"));
    const file = await fetch(`${server.baseUrl}/uploads/pixel.png`);
    expect(file.status).toBe(200);
    expect(file.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect((await fetch(`${server.baseUrl}/api/health`)).headers.get("cross-origin-resource-policy")).toBe("same-origin");
  });
});

describe.each(["development", "production"] as const)("no stack trace or file path in error answers (Express env %s)", (expressEnv) => {
  let web: WebServer;
  beforeAll(async () => {
    web = await start({ expressEnv });
  });

  const leaks = (text: string) => {
    expect(text).not.toContain("exploded");
    expect(text).not.toContain(process.cwd());
    expect(text).not.toContain("node_modules");
    expect(text).not.toMatch(/\bat \S+ \(|\.tsx?:\d+/);
  };

  it("a loader or action that throws: .data, _data and document requests", async () => {
    const auth = { cookie: cookieOf(admin.token), origin: web.baseUrl };
    const answers = [
      await fetch(`${web.baseUrl}/app/boom.data`, { headers: auth }),
      await fetch(`${web.baseUrl}/app/boom?_data=routes%2Fapp.boom`, { headers: auth }),
      await fetch(`${web.baseUrl}/app/boom`, { headers: auth }),
      await post(web.baseUrl, "/app/boom.data", { headers: auth, fields: { a: "b" } }),
      await post(web.baseUrl, "/app/boom", { headers: auth, fields: { a: "b" } }),
    ];
    for (const res of answers) {
      expect(res.status, res.url).toBe(500);
      leaks(await res.text());
    }
  });

  it("the media upload endpoint opened directly answers 405 in its JSON shape", async () => {
    for (const headers of [{}, { cookie: cookieOf(admin.token) }] as Record<string, string>[]) {
      const res = await fetch(`${web.baseUrl}/app/media/upload`, { headers });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      const text = await res.text();
      leaks(text);
      expect(JSON.parse(text)).toEqual({ ok: false, error: "Use POST to upload" });
    }
  });

  it("a malformed path under /uploads and under /api: a status and a sentence, the API's JSON shape for the API", async () => {
    const upload = await fetch(`${web.baseUrl}/uploads/%E0%A4%A`);
    expect(upload.status).toBe(400);
    leaks(await upload.text());
    const api = await fetch(`${web.baseUrl}/api/stores/%E0%A4%A`);
    expect(api.status).toBe(400);
    const body = await api.json();
    expect(body.error).toMatchObject({ code: "bad_request", requestId: expect.any(String) });
    leaks(JSON.stringify(body));
  });
});
