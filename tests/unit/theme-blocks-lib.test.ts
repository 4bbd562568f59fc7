/**
 * The theme blocks' pure parts and their client (no DOM): settings, the route table generated
 * from the contract, the zod-free client core, the shared session (guest creation, retry on a
 * refused token, merge into a customer), the recently viewed format shared with the storefront,
 * the try-on address, the preview's Liquid renderer and the App Proxy's storefront redirects.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { endpoints } from "../../app/contract";
import { ApiClientError, createRouteClient } from "../../app/client/core";

// The blocks import their routes from a module generated at build time (vite.config.ts); here the
// same table is made from the contract.
vi.mock("virtual:fd-api-routes", async () => {
  const { endpoints: all } = await import("../../app/contract");
  return Object.fromEntries(Object.entries(all).map(([k, d]) => [k, { method: d.method, path: d.path, ...((d as { body?: unknown }).body ? { body: 1 } : {}) }]));
});

import { boolSetting, intSetting, parseProductId, readCommonSettings } from "../../extensions/theme-blocks/src/lib/block-settings";
import { interpolate } from "../../extensions/theme-blocks/src/lib/dom";
import { countText, formatRating, starsPercent } from "../../extensions/theme-blocks/src/lib/stars";
import { photoProblem } from "../../extensions/theme-blocks/src/lib/photo-check";
import { SESSION_STORAGE_KEY, getSession, readStoredSession, withSession } from "../../extensions/theme-blocks/src/lib/session";
import { tryOnHref } from "../../extensions/theme-blocks/src/try-on";
import { keepStoredCard } from "../../extensions/theme-blocks/src/app-embed";
import { reviewFormProblem } from "../../extensions/theme-blocks/src/reviews";
import { parseKind } from "../../extensions/theme-blocks/src/recommendations";
import { BLOCK_CARD_IMAGE_SIZES, cardImage, safeImageUrl, toCardModel } from "../../extensions/theme-blocks/src/feed-model";
import { CARD_IMAGE_WIDTHS } from "../../storefront/src/lib/image-sizes";
import { BLOCK_SCRIPTS, SCRIPT_GZIP_BUDGET_BYTES } from "../../extensions/theme-blocks/src/manifest";
import { recordRecentlyViewedWith, RECENTLY_VIEWED_KEY } from "../../storefront/src/lib/recently-viewed-format";
import { readRecentlyViewed } from "../../storefront/src/lib/recently-viewed";
import { renderLiquid, LiquidPreviewError, blockSchema, defaultSettings } from "../../app/services/theme-preview/liquid.server";
import { imageTarget, storefrontOrigin, storefrontTarget, uploadTarget } from "../../app/services/proxy-storefront.server";
import { routeTableModule } from "../../extensions/theme-blocks/vite.config";
import type { ProductCard } from "../../app/contract";

const ORIGIN = "https://shop.example.com";

function card(over: Partial<ProductCard> = {}): ProductCard {
  return {
    id: "gid://shopify/Product/1",
    title: "Linen shirt",
    handle: "linen-shirt",
    vendor: "Atelier",
    productType: "Shirts",
    availableForSale: true,
    featuredImage: { url: "/uploads/images/demo/shirt.jpg", altText: null },
    priceRange: { minVariantPrice: { amount: "49.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "49.00", currencyCode: "EUR" } },
    target_gender: "both",
    colorHexes: ["#ffffff"],
    storeId: null,
    ...over,
  };
}

class MemoryStorage {
  data = new Map<string, string>();
  getItem(k: string) {
    return this.data.has(k) ? this.data.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("block settings", () => {
  it("reads the common data attributes", () => {
    const s = readCommonSettings({ proxyBase: "https://shop.example.com/apps/fashion", rootUrl: "/fr", productId: "1001", productHandle: " linen-shirt ", customer: "true" }, ORIGIN);
    expect(s).toEqual({ baseUrl: "/apps/fashion", rootUrl: "/fr", productId: "gid://shopify/Product/1001", productHandle: "linen-shirt", customer: true });
    expect(readCommonSettings({}, ORIGIN)).toMatchObject({ baseUrl: "/apps/fashion", productId: null, customer: false });
  });
  it("accepts Shopify product ids only", () => {
    expect(parseProductId("gid://shopify/Product/7")).toBe("gid://shopify/Product/7");
    for (const bad of ["", " ", "abc", "gid://shopify/Variant/1", "1; drop", undefined, null]) expect(parseProductId(bad)).toBeNull();
  });
  it("bounds numbers and reads checkboxes", () => {
    expect(intSetting("40", 4, 2, 12)).toBe(12);
    expect(intSetting("x", 4, 2, 12)).toBe(4);
    expect(intSetting("1", 4, 2, 12)).toBe(2);
    expect(boolSetting("true", false)).toBe(true);
    expect(boolSetting("false", true)).toBe(false);
    expect(boolSetting(undefined, true)).toBe(true);
  });
  it("recommendation kinds", () => {
    expect(parseKind("bought-together")).toBe("bought-together");
    expect(parseKind("anything")).toBe("similar");
  });
});

describe("texts", () => {
  it("fills {name} markers left by `| t: name: '{name}'`", () => {
    expect(interpolate("{number} reviews", { number: 3 })).toBe("3 reviews");
    expect(interpolate("Save {title}", {})).toBe("Save {title}");
  });
  it("stars and counts", () => {
    expect(starsPercent(4.3)).toBe(86);
    expect(starsPercent(7)).toBe(100);
    expect(starsPercent(-1)).toBe(0);
    expect(formatRating(4.25, "en")).toBe("4.3");
    expect(countText(1, "1 review", "{number} reviews", "en")).toBe("1 review");
    expect(countText(1200, "1 review", "{number} reviews", "en")).toBe("1,200 reviews");
  });
  it("review form and photo checks", () => {
    expect(reviewFormProblem({ rating: 0, body: "ok" })).toBe("rating");
    expect(reviewFormProblem({ rating: 6, body: "ok" })).toBe("rating");
    expect(reviewFormProblem({ rating: 5, body: "  " })).toBe("text");
    expect(reviewFormProblem({ rating: 5, body: "Great" })).toBeNull();
    expect(photoProblem({ name: "a.jpg", type: "image/jpeg", size: 10 })).toBeNull();
    expect(photoProblem({ name: "a.heic", type: "", size: 10 })).toBe("heic");
    expect(photoProblem({ name: "a.txt", type: "text/plain", size: 10 })).toBe("type");
    expect(photoProblem({ name: "a.png", type: "image/png", size: 0 })).toBe("empty");
    expect(photoProblem({ name: "a.png", type: "image/png", size: 26 * 1024 * 1024 })).toBe("size");
  });
});

describe("media through the App Proxy", () => {
  it("reaches the app's /uploads/ files through the proxy base", () => {
    expect(safeImageUrl("/uploads/images/x.jpg", ORIGIN, "/apps/fashion")).toBe(`${ORIGIN}/apps/fashion/uploads/images/x.jpg`);
    expect(safeImageUrl("https://cdn.shopify.com/x.jpg", ORIGIN, "/apps/fashion")).toBe("https://cdn.shopify.com/x.jpg");
  });

  it("card images in sizes: our images through the proxy's /images/ (AVIF, WebP, original), the storefront's card widths", () => {
    const image = toCardModel(card(), { pageOrigin: ORIGIN, proxyBase: "/apps/fashion" }).image!;
    const at = (w: number, fm?: string) => `${ORIGIN}/apps/fashion/images/demo/shirt.jpg?w=${w}${fm ? `&fm=${fm}` : ""}`;
    expect(image.src).toBe(at(240));
    expect(image.sizes).toBe(BLOCK_CARD_IMAGE_SIZES);
    expect(image.srcset).toBe(CARD_IMAGE_WIDTHS.map((w) => `${at(w)} ${w}w`).join(", "));
    expect(image.sources).toEqual([
      { type: "image/avif", srcset: CARD_IMAGE_WIDTHS.map((w) => `${at(w, "avif")} ${w}w`).join(", ") },
      { type: "image/webp", srcset: CARD_IMAGE_WIDTHS.map((w) => `${at(w, "webp")} ${w}w`).join(", ") },
    ]);
  });

  it("absolute app images go straight to the app; Shopify's CDN takes width=; other images stay plain", () => {
    const app = toCardModel(card({ featuredImage: { url: "https://app.example.com/uploads/images/taobao/a.jpg", altText: null } }), { pageOrigin: ORIGIN, proxyBase: "/apps/fashion" }).image!;
    expect(app.srcset?.split(", ")[0]).toBe("https://app.example.com/images/taobao/a.jpg?w=160 160w");
    const cdn = toCardModel(card({ featuredImage: { url: "https://cdn.shopify.com/s/files/a.jpg", altText: null } }), { pageOrigin: ORIGIN, proxyBase: "/apps/fashion" }).image!;
    expect(cdn.srcset?.split(", ")[0]).toBe("https://cdn.shopify.com/s/files/a.jpg?width=160 160w");
    expect(cdn.sources).toBeUndefined();
    expect(toCardModel(card({ featuredImage: { url: "https://img.example.net/a.jpg", altText: null } }), { pageOrigin: ORIGIN }).image).toEqual({ src: "https://img.example.net/a.jpg", alt: "Linen shirt" });
    expect(cardImage("javascript:alert(1)", "x", ORIGIN, "/apps/fashion")).toBeNull();
  });

  it("a card with a matched variant (a photo search's colour) shows that variant and links the theme's page to it", () => {
    const model = toCardModel(
      card({ matchedVariant: { id: "gid://shopify/ProductVariant/103", title: "Red / M", colour: "Red", colorHex: "#c0392b", image: { url: "/uploads/images/demo/shirt-red.jpg", altText: null }, availableForSale: true } }),
      { pageOrigin: ORIGIN, proxyBase: "/apps/fashion", rootUrl: "/fr" },
    );
    expect(model.href).toBe("/fr/products/linen-shirt?variant=103");
    expect(model.image?.src).toBe(`${ORIGIN}/apps/fashion/images/demo/shirt-red.jpg?w=240`);
    expect(model.image?.alt).toBe("Linen shirt in Red");
  });
});

describe("try-on address", () => {
  it("is the storefront's product page with ?tryon=1 behind the proxy", () => {
    expect(tryOnHref("/apps/fashion", { id: "gid://shopify/Product/1001", handle: "linen shirt" })).toBe("/apps/fashion/storefront/products/1001/linen%20shirt?tryon=1");
    expect(tryOnHref("/apps/fashion", { id: "gid://shopify/Product/1001" })).toBe("/apps/fashion/storefront/products/1001?tryon=1");
  });
});

describe("route table from the contract", () => {
  it("has every endpoint's method and path, and nothing else", () => {
    const code = routeTableModule(endpoints as never);
    const table = Object.fromEntries(
      [...code.matchAll(/^export const (\w+) = (.*);$/gm)].map((m) => [m[1], JSON.parse(m[2]) as { method: string; path: string; body?: number }]),
    );
    expect(Object.keys(table).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [name, def] of Object.entries(endpoints)) {
      expect(table[name], name).toEqual({ method: def.method, path: def.path, ...((def as { body?: unknown }).body ? { body: 1 } : {}) });
    }
    expect(code).not.toMatch(/zod|"summary"|"tags"|"access"/i);
  });
  it("the manifest lists distinct files, each under budget when built (checked in tests/integration/theme-extension.test.ts)", () => {
    expect(new Set(BLOCK_SCRIPTS.map((s) => s.file)).size).toBe(BLOCK_SCRIPTS.length);
    expect(SCRIPT_GZIP_BUDGET_BYTES).toBe(30_000);
  });
});

describe("client core over a route subset", () => {
  it("calls only the routes it was given, typed by the contract", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const client = createRouteClient(
      { savedProductsToggle: endpoints.savedProductsToggle, savedProductsCheck: endpoints.savedProductsCheck },
      {
        baseUrl: "/apps/fashion",
        getToken: () => "tok",
        credentials: "same-origin",
        fetch: (async (url: string, init: RequestInit) => {
          calls.push({ url, init });
          return url.includes("check") ? json(200, { saved: ["gid://shopify/Product/1"] }) : json(200, { product_id: "gid://shopify/Product/1", saved: true });
        }) as never,
      },
    );
    expect(Object.keys(client).sort()).toEqual(["call", "savedProductsCheck", "savedProductsToggle", "url"]);
    expect((await client.savedProductsCheck({ query: { ids: "1,2" } })).saved).toEqual(["gid://shopify/Product/1"]);
    expect(calls[0].url).toBe("/apps/fashion/api/users/saved-products/check?ids=1%2C2");
    await client.savedProductsToggle({ body: { product_id: "1", saved: true } });
    expect(calls[1]).toMatchObject({ url: "/apps/fashion/api/users/saved-products/toggle", init: { method: "POST", credentials: "same-origin", body: '{"product_id":"1","saved":true}' } });
    expect((calls[1].init.headers as Record<string, string>).authorization).toBe("Bearer tok");
  });
  it("turns the API's error body into ApiClientError, and other failures into http_error", async () => {
    const client = createRouteClient({ getMe: endpoints.getMe }, { fetch: (async () => json(401, { error: { code: "unauthenticated", message: "User is not authenticated", requestId: "r1" } })) as never });
    await expect(client.getMe()).rejects.toMatchObject({ status: 401, code: "unauthenticated", message: "User is not authenticated", requestId: "r1" });
    const broken = createRouteClient({ getMe: endpoints.getMe }, { fetch: (async () => new Response("<html>", { status: 502 })) as never });
    const e = await broken.getMe().catch((x) => x);
    expect(e).toBeInstanceOf(ApiClientError);
    expect(e).toMatchObject({ status: 502, code: "http_error" });
  });
});

describe("the page's session", () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
    (globalThis as { window?: unknown }).window = { localStorage: storage };
  });
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  function fakeApi(handler: (url: string, init: RequestInit) => Response) {
    const calls: string[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      return handler(url, init);
    }) as typeof fetch;
    return { calls, fetchImpl };
  }

  it("creates one guest for blocks asking at once, keeps its token, and shares the session between scripts", async () => {
    let n = 0;
    const f = fakeApi(() => json(201, { user: { id: `u${++n}` }, token: `t${n}` }));
    const a = getSession({ baseUrl: "/apps/fashion", customer: false, fetch: f.fetchImpl });
    const b = getSession({ baseUrl: "/apps/fashion", customer: false });
    expect(b).toBe(a);
    await Promise.all([a.ensure(), b.ensure(), a.ensure()]);
    expect(f.calls).toEqual(["POST /apps/fashion/api/users/guest"]);
    expect(a.token()).toBe("t1");
    expect(readStoredSession(storage)).toEqual({ token: "t1", userId: "u1" });
    await a.ensure();
    expect(f.calls).toHaveLength(1);
  });

  it("withSession starts a new guest once when the stored token is refused", async () => {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token: "old", userId: "u0" }));
    const f = fakeApi(() => json(201, { user: { id: "u1" }, token: "new" }));
    const s = getSession({ baseUrl: "/apps/fashion", customer: false, fetch: f.fetchImpl });
    const seen: (string | null)[] = [];
    const result = await withSession(s, async () => {
      seen.push(s.token());
      if (s.token() === "old") throw new ApiClientError(401, "unauthenticated", "User is not authenticated");
      return "ok";
    });
    expect(result).toBe("ok");
    expect(seen).toEqual(["old", "new"]);
    // Other failures are not retried.
    await expect(withSession(s, async () => Promise.reject(new ApiClientError(400, "bad_request", "nope")))).rejects.toMatchObject({ status: 400 });
  });

  it("a logged-in customer sends no guest token; the guest left behind is merged once and forgotten", async () => {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token: "guest-token", userId: "g1" }));
    const bodies: unknown[] = [];
    const f = fakeApi((_url, init) => {
      bodies.push(JSON.parse(String(init.body)));
      expect((init.headers as Record<string, string>).authorization).toBeUndefined();
      return json(200, { merged: { savedProducts: 1, favoriteStores: 0, tryOns: 0, savedTryOns: 0, collections: 0, clones: 0 } });
    });
    const s = getSession({ baseUrl: "/apps/fashion", customer: true, fetch: f.fetchImpl });
    expect(s.token()).toBeNull();
    await s.ensure();
    expect(f.calls).toEqual([]);
    expect(await s.mergeGuest()).toBe("merged");
    expect(f.calls).toEqual(["POST /apps/fashion/api/users/merge-guest-into-me"]);
    expect(bodies).toEqual([{ guestToken: "guest-token" }]);
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(await s.mergeGuest()).toBe("nothing");
  });

  it("a guest token the API refuses to merge is dropped; a server error keeps it for the next page", async () => {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token: "t", userId: "g" }));
    let status = 500;
    const f = fakeApi(() => json(status, { error: { code: "x", message: "x" } }));
    const s = getSession({ baseUrl: "/apps/fashion", customer: true, fetch: f.fetchImpl });
    expect(await s.mergeGuest()).toBe("failed");
    expect(readStoredSession(storage)).not.toBeNull();
    status = 401;
    expect(await s.mergeGuest()).toBe("failed");
    expect(readStoredSession(storage)).toBeNull();
  });
});

describe("recently viewed, shared with the storefront", () => {
  it("the app embed's writes are read back by the storefront's validating reader", () => {
    const storage = new MemoryStorage();
    const detail = { ...card({ id: "gid://shopify/Product/2", title: "Wool coat" }), description: "Long", tags: ["coat"] } as ProductCard;
    storage.setItem(RECENTLY_VIEWED_KEY, JSON.stringify([card(), { not: "a card" }]));
    const list = recordRecentlyViewedWith(storage, detail, keepStoredCard);
    expect(list.map((p) => p.id)).toEqual(["gid://shopify/Product/2", "gid://shopify/Product/1"]);
    expect(Object.keys(list[0])).not.toContain("description");
    expect(readRecentlyViewed(storage).map((p) => p.title)).toEqual(["Wool coat", "Linen shirt"]);
    expect(keepStoredCard(null)).toBeNull();
    expect(keepStoredCard({ id: 3 })).toBeNull();
  });
});

describe("the preview's Liquid renderer", () => {
  let parse: (s: string) => unknown;
  beforeEach(async () => {
    parse = (await import("@shopify/liquid-html-parser")).toLiquidAST as never;
  });
  const render = (src: string, globals: Record<string, unknown> = {}) =>
    renderLiquid(src, parse, { globals, translations: { a: { hello: "Hello {{ name }}", plain: "Plain" } }, assetUrl: (f) => `/assets/${f}` });

  it("outputs, filters and whitespace control", () => {
    expect(render("<p>{{ x }}</p>", { x: "1" })).toBe("<p>1</p>");
    expect(render("a  {{- x -}}  b", { x: "X" })).toBe("aXb");
    expect(render("{{ 'a.hello' | t: name: '{name}' | escape }}")).toBe("Hello {name}");
    expect(render("{{ 'a.plain' | t }}|{{ '<b>' | escape }}|{{ nothing | default: 'd' }}|{{ 'x.css' | asset_url | stylesheet_tag }}")).toBe(
      'Plain|&lt;b&gt;|d|<link href="/assets/x.css" rel="stylesheet" type="text/css" media="all" />',
    );
    expect(render("{{ o.a.b }}{{ missing.deep }}", { o: { a: { b: 7 } } })).toBe("7");
  });
  it("assign, if / elsif / else, unless, blank, and/or, comments and schema", () => {
    const src = `{%- assign v = s | default: 'none' -%}
{%- if v == 'one' -%}
  ONE
{%- elsif v == blank or other -%}
  BLANK
{%- else -%}
  OTHER:{{ v }}
{%- endif -%}
{% unless hide %}[shown]{% endunless %}{% comment %}no{% endcomment %}{% schema %}{"name":"x"}{% endschema %}`;
    expect(render(src, { s: "one" })).toBe("ONE[shown]");
    expect(render(src, { other: true })).toBe("BLANK[shown]");
    expect(render(src, {})).toBe("OTHER:none[shown]");
    expect(render(src, { s: "two", hide: true })).toBe("OTHER:two");
    expect(render("{% if c %}yes{% endif %}", { c: null })).toBe("");
    expect(render("{% if t == blank %}b{% endif %}", { t: "  " })).toBe("b");
  });
  it("refuses what it cannot render faithfully", () => {
    expect(() => render("{{ x | money }}", { x: 1 })).toThrow(LiquidPreviewError);
    expect(() => render("{% for i in list %}{% endfor %}", { list: [] })).toThrow(LiquidPreviewError);
    expect(() => render("{{ 'a.missing' | t }}")).toThrow(/Missing translation/);
  });
  it("schema defaults become the settings", () => {
    const schema = blockSchema(`{% schema %}{"name":"B","settings":[{"type":"text","id":"h","default":"Hi"},{"type":"checkbox","id":"c"},{"type":"product","id":"p"},{"type":"header","content":"x"}]}{% endschema %}`);
    expect(defaultSettings(schema)).toEqual({ h: "Hi", c: false, p: null });
  });
});

describe("App Proxy doors to the storefront", () => {
  it("redirects product pages of the storefront only, without Shopify's parameters", () => {
    const q = new URLSearchParams({ tryon: "1", shop: "s.myshopify.com", signature: "x", timestamp: "1", logged_in_customer_id: "5", path_prefix: "/apps/fashion" });
    expect(storefrontTarget("/products/1001/linen-shirt", q, "https://app.example.com")).toBe("https://app.example.com/products/1001/linen-shirt?tryon=1");
    expect(storefrontTarget("/products/1001", new URLSearchParams(), "https://app.example.com")).toBe("https://app.example.com/products/1001");
    for (const bad of ["/app", "/products/x", "//evil.com/products/1", "/products/1/a/b", "/api/users/me", "/products/1/..%2f..%2fapp"]) {
      expect(storefrontTarget(bad, q, "https://app.example.com"), bad).toBeNull();
    }
  });
  it("redirects uploaded files only", () => {
    expect(uploadTarget("/uploads/images/reviews/a.jpg", "https://app.example.com")).toBe("https://app.example.com/uploads/images/reviews/a.jpg");
    for (const bad of ["/uploads/../server.ts", "/uploads/", "/uploadsx/a", "/uploads/a b.jpg", "/uploads/./a"]) expect(uploadTarget(bad, "https://app.example.com"), bad).toBeNull();
  });
  it("redirects sized images to the image route with only its own parameters", () => {
    const q = new URLSearchParams({ w: "320", fm: "avif", shop: "s.myshopify.com", signature: "x", timestamp: "1", path_prefix: "/apps/fashion", other: "y" });
    expect(imageTarget("/images/demo/shirt.jpg", q, "https://app.example.com")).toBe("https://app.example.com/images/demo/shirt.jpg?w=320&fm=avif");
    expect(imageTarget("/images/demo/shirt.jpg", new URLSearchParams(), "https://app.example.com")).toBe("https://app.example.com/images/demo/shirt.jpg");
    for (const bad of ["/images/../server.ts", "/images/", "/images//a.jpg", "/images/a b.jpg", "/images/./a.jpg", "/imagesx/a.jpg", "/images/a%2F..%2Fb.jpg"]) {
      expect(imageTarget(bad, q, "https://app.example.com"), bad).toBeNull();
    }
    expect(imageTarget("/images/a.jpg", new URLSearchParams({ w: "https://evil.example" }), "https://app.example.com")).toBeNull();
  });
  it("the storefront's origin is the app's public URL, else the request's", () => {
    expect(storefrontOrigin({ APP_URL: "https://app.example.com/x", SHOPIFY_APP_URL: undefined }, new URL("http://127.0.0.1:3000/proxy"))).toBe("https://app.example.com");
    expect(storefrontOrigin({ APP_URL: undefined, SHOPIFY_APP_URL: "https://s.example.com" }, new URL("http://127.0.0.1:3000/proxy"))).toBe("https://s.example.com");
    expect(storefrontOrigin({ APP_URL: undefined, SHOPIFY_APP_URL: undefined }, new URL("http://127.0.0.1:3000/proxy"))).toBe("http://127.0.0.1:3000");
  });
});
