/**
 * The App Proxy end to end, in-process: Shopify-signed requests to the proxy route
 * (/proxy/api/*), the local stand-in for Shopify's proxy (/apps/fashion/*) and the local theme
 * preview. The route modules read the app context and Prisma from globals, so both are set
 * before the modules are imported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { getConfig, resetConfigCache } from "../../app/config.server";
import { signAppProxyQuery, signedAppProxySearchParams, appProxyMessage } from "../../app/services/app-proxy-signing.server";

type RouteFn = (args: LoaderFunctionArgs) => Promise<Response> | Response;
type RouteModule = { loader: RouteFn; action?: RouteFn };

/** What shopify.server.ts verifies with in local mode: the secret generated once in DATA_DIR. */
let SECRET = "";
const ORIGIN = "http://localhost";

let app: TestApp;
let proxy: RouteModule;
let apps: RouteModule;
let preview: RouteModule;
let previewAssets: RouteModule;
let previewProduct: RouteModule;

/** Calls a loader/action; a thrown Response (Remix convention) is returned. */
async function call(fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    return await fn({ request, params, context: { clientIp: "127.0.0.1" } } as LoaderFunctionArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const now = () => String(Math.floor(Date.now() / 1000));

function proxyParams(extra: Record<string, string> = {}): Record<string, string> {
  return { shop: "local.myshopify.com", logged_in_customer_id: "", path_prefix: "/apps/fashion", timestamp: now(), ...extra };
}

function signedProxyRequest(path: string, params: Record<string, string>, init?: RequestInit): Request {
  const qs = new URLSearchParams({ ...params, signature: signAppProxyQuery(params, SECRET) });
  return new Request(`${ORIGIN}/proxy${path}?${qs}`, init);
}

async function json(res: Response) {
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

beforeAll(async () => {
  app = await createTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  resetConfigCache();
  SECRET = getConfig().SHOPIFY_API_SECRET;
  proxy = (await import("../../app/routes/proxy.$")) as RouteModule;
  apps = (await import("../../app/routes/apps.$")) as RouteModule;
  preview = (await import("../../app/routes/theme-preview")) as unknown as RouteModule;
  previewAssets = (await import("../../app/routes/theme-preview.assets.$")) as RouteModule;
  previewProduct = (await import("../../app/routes/theme-preview.products.$id")) as RouteModule;

  await app.database.db.product.create({
    data: {
      id: "gid://shopify/Product/9001",
      title: "Silk slip dress",
      handle: "silk-slip-dress",
      vendor: "Maison Test",
      productType: "Dresses",
      availableForSale: true,
      featuredImageUrl: "https://cdn.example.com/dress.jpg",
      featuredImageAltText: "Silk slip dress",
      priceMin: "129.00",
      priceMax: "149.00",
      currencyCode: "EUR",
      target_gender: "womenswear",
      variants: {
        create: [
          { id: "gid://shopify/ProductVariant/90011", title: "Black / S", price: "129.00", currencyCode: "EUR", color_hex: "#000000", position: 0 },
          { id: "gid://shopify/ProductVariant/90012", title: "Ivory / S", price: "149.00", currencyCode: "EUR", color_hex: "#fffff0", position: 1 },
        ],
      },
    },
  });
});

afterAll(async () => {
  setPrisma(undefined);
  await app?.close();
});

describe("signing helper", () => {
  it("signs sorted key=value pairs without separators, multi-values joined by commas", () => {
    expect(appProxyMessage({ shop: "s", b: ["2", "1"], a: "x", signature: "ignored" })).toBe("a=xb=2,1shop=s");
    const qs = signedAppProxySearchParams(new URLSearchParams("b=2&b=1&a=x&shop=s&signature=old"), SECRET);
    expect(qs.getAll("signature")).toEqual([signAppProxyQuery({ a: "x", b: ["2", "1"], shop: "s" }, SECRET)]);
    expect(signAppProxyQuery({ a: "1" }, SECRET)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("proxy route (/proxy/*)", () => {
  it("answers a correctly signed request with the API's JSON", async () => {
    const res = await call(proxy.loader, signedProxyRequest("/api/products", proxyParams({ limit: "8", target_gender: "womenswear" })));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = await json(res);
    expect(body.products).toHaveLength(1);
    expect(body.products[0]).toMatchObject({ handle: "silk-slip-dress", colorHexes: ["#000000", "#fffff0"], priceRange: { minVariantPrice: { amount: "129.00", currencyCode: "EUR" } } });
  });

  it("refuses a tampered signature", async () => {
    const params = proxyParams({ limit: "8" });
    const sig = signAppProxyQuery(params, SECRET);
    const tampered = new URLSearchParams({ ...params, limit: "100", signature: sig });
    const res = await call(proxy.loader, new Request(`${ORIGIN}/proxy/api/products?${tampered}`));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);

    const wrongKey = new URLSearchParams({ ...params, signature: signAppProxyQuery(params, "another-secret") });
    expect((await call(proxy.loader, new Request(`${ORIGIN}/proxy/api/products?${wrongKey}`))).status).toBe(400);
  });

  it("refuses a request signed with the former public placeholder secret", async () => {
    expect(SECRET).not.toBe("local-mode-secret");
    expect(SECRET.length).toBeGreaterThanOrEqual(32);
    const params = proxyParams({ limit: "8" });
    const placeholder = new URLSearchParams({ ...params, signature: signAppProxyQuery(params, "local-mode-secret") });
    expect((await call(proxy.loader, new Request(`${ORIGIN}/proxy/api/products?${placeholder}`))).status).toBe(400);
  });

  it("refuses a request without signature", async () => {
    const res = await call(proxy.loader, new Request(`${ORIGIN}/proxy/api/products?${new URLSearchParams(proxyParams())}`));
    expect(res.status).toBe(400);
  });

  it("refuses a stale timestamp", async () => {
    const res = await call(proxy.loader, signedProxyRequest("/api/products", proxyParams({ timestamp: String(Math.floor(Date.now() / 1000) - 3600) })));
    expect(res.status).toBe(400);
  });

  it("maps logged_in_customer_id to one user, the same on every request", async () => {
    const first = await call(proxy.loader, signedProxyRequest("/api/users/me", proxyParams({ logged_in_customer_id: "123" })));
    expect(first.status).toBe(200);
    const user = await json(first);
    expect(user).toMatchObject({ id: expect.any(String), auth_provider: "shopify" });

    const again = await call(proxy.loader, signedProxyRequest("/api/users/me", proxyParams({ logged_in_customer_id: "123" })));
    expect(again.status).toBe(200);
    expect((await json(again)).id).toBe(user.id);
    expect(await app.database.db.user.count({ where: { shopify_customer_id: "123" } })).toBe(1);
  });

  it("treats an empty logged_in_customer_id as anonymous", async () => {
    const res = await call(proxy.loader, signedProxyRequest("/api/users/me", proxyParams()));
    expect(res.status).toBe(401);
  });
});

describe("local App Proxy stand-in (/apps/fashion/*)", () => {
  it("signs and forwards to the proxy route", async () => {
    const res = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/api/products?limit=8`), { "*": "fashion/api/products" });
    expect(res.status).toBe(200);
    expect((await json(res)).products.map((p: { handle: string }) => p.handle)).toEqual(["silk-slip-dress"]);
  });

  it("simulates the logged-in customer from the fd_preview_customer cookie only", async () => {
    const viaCookie = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/api/users/me`, { headers: { cookie: "other=1; fd_preview_customer=123" } }));
    expect(viaCookie.status).toBe(200);
    const direct = await json(await call(proxy.loader, signedProxyRequest("/api/users/me", proxyParams({ logged_in_customer_id: "123" }))));
    expect((await json(viaCookie)).id).toBe(direct.id);

    // The caller cannot choose Shopify's parameters.
    const spoofed = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/api/users/me?logged_in_customer_id=123&signature=abc&shop=x.myshopify.com`));
    expect(spoofed.status).toBe(401);
  });

  it("forwards POST bodies and keeps cookies out, as Shopify does", async () => {
    const res = await call(
      apps.action!,
      new Request(`${ORIGIN}/apps/fashion/api/users/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    );
    expect([200, 201]).toContain(res.status);
    expect((await json(res)).user.auth_provider).toBe("guest");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("answers 404 outside /apps/fashion", async () => {
    expect((await call(apps.loader, new Request(`${ORIGIN}/apps/other/api/products`))).status).toBe(404);
    expect((await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/not-api`))).status).toBe(404);
  });
});

describe("theme preview (local mode)", () => {
  it("serves a store page with the block markup", async () => {
    const res = await call(preview.loader, new Request(`${ORIGIN}/theme-preview`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("Demo store — theme preview");
    expect(html).toMatch(/<div\s+class="fd-product-feed"\s+data-proxy-base="\/apps\/fashion"/);
    expect(html).toContain('data-gender="both"');
    expect(html).toContain('data-limit="8"');
    expect(html).toContain('data-heading="New in"');
    expect(html).toContain('<script src="/theme-preview/assets/fashion-blocks.js" defer></script>');
    expect(html).toContain('href="/theme-preview/assets/fashion-blocks.css"');
  });

  it("serves only the two block assets", async () => {
    const css = await call(previewAssets.loader, new Request(`${ORIGIN}/theme-preview/assets/fashion-blocks.css`), { "*": "fashion-blocks.css" });
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/text\/css/);
    expect(await css.text()).toContain(".fd-product-feed");
    for (const name of ["../../package.json", "other.js", "", "fashion-blocks.js/x"]) {
      expect((await call(previewAssets.loader, new Request(`${ORIGIN}/theme-preview/assets/x`), { "*": name })).status).toBe(404);
    }
  });

  it("is 404 when a real Shopify store is configured", async () => {
    const keys = { COMMERCE_ADAPTER: "shopify", SHOPIFY_API_KEY: "k", SHOPIFY_API_SECRET: "s", SHOPIFY_APP_URL: "https://app.example.com", SHOPIFY_SHOP: "x.myshopify.com" };
    const saved = Object.fromEntries(Object.keys(keys).map((k) => [k, process.env[k]]));
    Object.assign(process.env, keys);
    resetConfigCache();
    try {
      expect((await call(preview.loader, new Request(`${ORIGIN}/theme-preview`))).status).toBe(404);
      expect((await call(previewAssets.loader, new Request(`${ORIGIN}/theme-preview/assets/fashion-blocks.css`), { "*": "fashion-blocks.css" })).status).toBe(404);
      expect((await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/api/products`))).status).toBe(404);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetConfigCache();
    }
  });
});

describe("theme blocks' sessions through the proxy", () => {
  const viaApps = (method: string, path: string, opts: { token?: string; body?: unknown; cookie?: string } = {}) =>
    call(
      method === "GET" ? apps.loader : apps.action!,
      new Request(`${ORIGIN}/apps/fashion${path}`, {
        method,
        headers: {
          ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      }),
    );
  const guest = async () => (await json(await viaApps("POST", "/api/users/guest", { body: {} }))) as { user: { id: string }; token: string };

  it("a guest created through the proxy is the caller of later requests that carry its bearer token", async () => {
    const g = await guest();
    const me = await viaApps("GET", "/api/users/me", { token: g.token });
    expect(me.status).toBe(200);
    expect((await json(me)).id).toBe(g.user.id);
    expect((await viaApps("GET", "/api/users/me", { token: "not-a-token" })).status).toBe(401);
  });

  it("the logged-in customer named by Shopify wins over a bearer token", async () => {
    const g = await guest();
    const res = await call(proxy.loader, signedProxyRequest("/api/users/me", proxyParams({ logged_in_customer_id: "4242" }), { headers: { authorization: `Bearer ${g.token}` } }));
    const body = await json(res);
    expect(body).toMatchObject({ auth_provider: "shopify" });
    expect(body.id).not.toBe(g.user.id);
  });

  it("saves of a guest are the guest's own; logging in merges them into the customer", async () => {
    const a = await guest();
    const b = await guest();
    const id = "gid://shopify/Product/9001";
    const toggled = await viaApps("POST", "/api/users/saved-products/toggle", { token: a.token, body: { product_id: "9001", saved: true } });
    expect(toggled.status).toBe(200);
    expect(await json(toggled)).toMatchObject({ product_id: id, saved: true });
    const check = (token: string, cookie?: string) => viaApps("GET", `/api/users/saved-products/check?ids=${encodeURIComponent(id)}`, { token, cookie }).then(json);
    expect((await check(a.token)).saved).toEqual([id]);
    expect((await check(b.token)).saved).toEqual([]);

    // The same shopper logs in as customer 5150: the app embed merges the guest into them.
    const cookie = "fd_preview_customer=5150";
    expect((await viaApps("GET", `/api/users/saved-products/check?ids=${encodeURIComponent(id)}`, { cookie }).then(json)).saved).toEqual([]);
    const merged = await viaApps("POST", "/api/users/merge-guest-into-me", { cookie, body: { guestToken: a.token } });
    expect(merged.status).toBe(200);
    expect((await json(merged)).merged.savedProducts).toBe(1);
    expect((await viaApps("GET", `/api/users/saved-products/check?ids=${encodeURIComponent(id)}`, { cookie }).then(json)).saved).toEqual([id]);
    // Another guest cannot merge someone else into itself (guests are not registered users).
    expect((await viaApps("POST", "/api/users/merge-guest-into-me", { token: b.token, body: { guestToken: a.token } })).status).toBeGreaterThanOrEqual(400);
  });
});

describe("proxy redirects to the storefront and to uploaded files", () => {
  it("sends the try-on link to the storefront's product page, keeping only the shopper's parameters", async () => {
    const res = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/storefront/products/9001/silk-slip-dress?tryon=1`));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/products/9001/silk-slip-dress?tryon=1`);
  });

  it("redirects nothing else", async () => {
    for (const p of ["/storefront/app", "/storefront/products/abc", "/storefront//evil.example/products/1", "/storefront/products/1/a%2F..%2F..%2Fapp", "/uploads/../package.json", "/other"]) {
      const res = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion${p}`));
      expect(res.status, p).toBe(404);
    }
    const post = await call(apps.action!, new Request(`${ORIGIN}/apps/fashion/storefront/products/9001`, { method: "POST" }));
    expect(post.status).toBe(404);
  });

  it("sends the app's uploaded files (review photos) to the app", async () => {
    const res = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/uploads/images/reviews/a1.jpg`));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/uploads/images/reviews/a1.jpg`);
  });

  it("sends the blocks' sized images (srcset) to the image route, without Shopify's signed parameters", async () => {
    const res = await call(apps.loader, new Request(`${ORIGIN}/apps/fashion/images/demo/shirt.jpg?w=320&fm=avif`));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/images/demo/shirt.jpg?w=320&fm=avif`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    for (const p of ["/images/../package.json", "/images/a.jpg?w=javascript:x", "/images/"]) {
      expect((await call(apps.loader, new Request(`${ORIGIN}/apps/fashion${p}`))).status, p).toBe(404);
    }
  });
});

describe("theme preview: every block", () => {
  it("the home page has the product feed, the photo search, the app embed and links to product pages", async () => {
    const html = await (await call(preview.loader, new Request(`${ORIGIN}/theme-preview`))).text();
    for (const cls of ["fd-product-feed", "fd-photo-search", "fd-app-embed"]) expect(html, cls).toContain(`class="${cls}`);
    expect(html).toContain('data-template="index"');
    expect(html).toContain('href="/theme-preview/products/9001"');
    expect(html).toContain('<script src="/theme-preview/assets/fd-app-embed.js" defer></script>');
  });

  it("a product page has the product blocks for that product", async () => {
    const res = await call(previewProduct.loader, new Request(`${ORIGIN}/theme-preview/products/9001`), { id: "9001" });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Silk slip dress</h1>");
    for (const cls of ["fd-rating-summary", "fd-save-button", "fd-try-on", "fd-reviews", "fd-recommendations fd-recommendations--similar", "fd-recommendations fd-recommendations--bought-together", "fd-app-embed", "fd-add-to-cart"]) {
      expect(html, cls).toContain(`class="${cls}`);
    }
    expect(html.match(/data-product-id="9001"/g)?.length).toBe(8);
    expect(html).toContain('href="/apps/fashion/storefront/products/9001?tryon=1"');
    expect(html).toContain('data-template="product"');
    expect(html).not.toContain('data-customer="true"');
  });

  it("the customer cookie renders the page as for a logged-in customer", async () => {
    const res = await call(previewProduct.loader, new Request(`${ORIGIN}/theme-preview/products/9001`, { headers: { cookie: "fd_preview_customer=77" } }), { id: "9001" });
    const html = await res.text();
    expect(html.match(/data-customer="true"/g)?.length).toBe(3); // save button, reviews, app embed
    expect(html).toContain("Logged in as Shopify customer 77");
  });

  it("an unknown product is 404", async () => {
    expect((await call(previewProduct.loader, new Request(`${ORIGIN}/theme-preview/products/123456789`), { id: "123456789" })).status).toBe(404);
  });

  it("serves every block script listed in the manifest (404 with a hint when not built)", async () => {
    const { BLOCK_SCRIPTS } = await import("../../extensions/theme-blocks/src/manifest");
    for (const s of BLOCK_SCRIPTS) {
      const res = await call(previewAssets.loader, new Request(`${ORIGIN}/theme-preview/assets/${s.file}`), { "*": s.file });
      if (res.status === 200) expect(res.headers.get("content-type"), s.file).toMatch(/text\/javascript/);
      else expect(await res.text()).toContain("npm run build:blocks");
    }
  });
});
