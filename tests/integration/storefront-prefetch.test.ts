/**
 * A storefront page's HTML carries its first API answers and a preload of its main image
 * (app/lib/storefront-prefetch.server.ts): a browser's first visit gets its guest session with the
 * page, a returning shopper their own answers, crawlers nothing personal. The embedded answers
 * are checked the way the app uses them: the storefront's own calls (home feed, search, product,
 * store) answered by the replaying fetch with the network forbidden.
 */
import type { AddressInfo } from "node:net";
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";
import { handleApiRequest } from "../../app/api/index.server";
import { SESSION_COOKIE } from "../../app/api/auth.server";
import { storefrontPage } from "../../app/lib/storefront-html.server";
import { createPagePrefetch, type ApiFetch } from "../../app/lib/storefront-prefetch.server";
import { createApiClient } from "../../app/client";
import { BOOTSTRAP_ELEMENT_ID, replayingFetch, type BootstrapResponses } from "../../storefront/src/lib/bootstrap";
import { FIRST_HOME_CURSOR, fetchHomeFeedPage } from "../../storefront/src/lib/home-feed-query";
import { parseSearchState, searchRequestBody } from "../../storefront/src/lib/search-state";
import { SEARCH_PAGE_SIZE_MOBILE, STORE_PAGE_PRODUCTS } from "../../storefront/src/lib/constants";

const NAVIGATION = { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
const PHONE = { ...NAVIGATION, "user-agent": "Mozilla/5.0 (Linux; Android 11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile Safari/537.36" };

let app: TestApp;
let base = "";
let close: () => Promise<void>;
let dir = "";

beforeAll(async () => {
  app = await createDemoTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-sf-prefetch-"));
  fs.writeFileSync(path.join(dir, "index.html"), '<!doctype html><html><head><title>Fashion Discovery</title></head><body><div id="root"></div></body></html>');
  const apiFetch: ApiFetch = (request, clientIp) => handleApiRequest(request, app.ctx, { clientIp });
  const web = express();
  web.get("*", storefrontPage({ db: app.database.db, origin: () => "https://shop.example.test", storefrontDir: dir, prefetch: createPagePrefetch({ apiFetch, sessionCookie: SESSION_COOKIE, budgetMs: 5_000 }) }));
  const server = await new Promise<import("node:http").Server>((r) => {
    const s = web.listen(0, "127.0.0.1", () => r(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
}, 300_000);

afterAll(async () => {
  await close?.();
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A GET with exactly these headers (node:http: fetch would set its own `sec-fetch-mode: cors`,
 * and a browser's navigation says `navigate`).
 */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      })
      .on("error", reject);
  });
}

async function page(pathname: string, headers: Record<string, string> = {}, origin = base) {
  const res = await get(`${origin}${pathname}`, headers);
  const html = res.text;
  const m = new RegExp(`<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(html);
  const responses = (m ? JSON.parse(m[1]) : {}) as BootstrapResponses;
  return { res, html, responses, cookies: res.headers["set-cookie"] ?? [] };
}

/** The storefront's client answering only from the page: any call the page did not carry fails. */
function replayClient(responses: BootstrapResponses) {
  const offline: typeof fetch = async (input) => {
    throw new Error(`not in the page: ${String(input)}`);
  };
  return createApiClient({ baseUrl: "", fetch: replayingFetch(responses, offline) });
}

const sessionOf = (cookies: string[]) => cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.split(";")[0] ?? null;

describe("a browser's first visit to the home page", () => {
  it("starts the guest session with the page and carries the session, cart and the feed's first page", async () => {
    const { res, html, responses, cookies } = await page("/", NAVIGATION);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(sessionOf(cookies)).toMatch(/^fd_session=.+/);
    expect(cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(/HttpOnly/);
    const uid = cookies.find((c) => c.startsWith("fd_uid="));
    expect(uid).toBeTruthy();

    const api = replayClient(responses);
    const me = await api.getMe();
    expect(`fd_uid=${me.id}`).toBe(uid!.split(";")[0]);
    expect(me.auth_provider).toBe("guest");
    await api.cartGet();
    // The page's own first feed call, with the session's seed, is answered from the HTML alone.
    const feed = await fetchHomeFeedPage(api, { gender: "both", seed: me.id, recentProductId: null }, FIRST_HOME_CURSOR);
    expect(feed.random.length).toBeGreaterThan(0);
    // Each answer once: the next call goes to the network (here: refused).
    await expect(api.getMe()).rejects.toThrow(/not in the page/);

    // The first card's image is preloaded in the size the card asks for.
    const preload = /<link rel="preload" as="image" fetchpriority="high" href="([^"]+)" imagesrcset="([^"]+)" imagesizes="([^"]+)" type="image\/avif">/.exec(html);
    expect(preload).not.toBeNull();
    expect(preload![2]).toContain("fm=avif");
    const first = feed.random[0];
    const firstImage = (first.matchedVariant?.image ?? first.featuredImage)!.url;
    expect(decodeURIComponent(preload![2].replace(/&amp;/g, "&"))).toContain(firstImage.replace(/^\//, "").split("?")[0].split("/").pop()!);
  });

  it("a gendered home page carries that gender's feed", async () => {
    const { responses } = await page("/womens", NAVIGATION);
    const keys = Object.keys(responses);
    expect(keys.some((k) => k.startsWith("GET /api/recommendations/random?") && k.includes("target_gender=womenswear"))).toBe(true);
  });
});

describe("who gets no prefetched answers", () => {
  it("a crawler or a script (no browser navigation) gets the page without a session or data", async () => {
    const { res, html, cookies } = await page("/");
    expect(res.status).toBe(200);
    expect(cookies).toEqual([]);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(html).not.toContain(BOOTSTRAP_ELEMENT_ID);
  });

  it("a speculative load (prefetch or prerender) gets no session or data: it may never be shown", async () => {
    const speculative: Record<string, string>[] = [{ "sec-purpose": "prefetch" }, { "sec-purpose": "prefetch;prerender" }, { purpose: "prefetch" }];
    for (const headers of speculative) {
      const { res, html, cookies } = await page("/", { ...NAVIGATION, ...headers });
      expect(res.status).toBe(200);
      expect(cookies).toEqual([]);
      expect(html).not.toContain(BOOTSTRAP_ELEMENT_ID);
    }
  });

  it("an expired or forged session cookie gets the page without data (the app's own sign-out runs)", async () => {
    const { res, html, cookies } = await page("/", { ...NAVIGATION, cookie: `${SESSION_COOKIE}=not-a-token` });
    expect(res.status).toBe(200);
    expect(cookies).toEqual([]);
    expect(html).not.toContain(BOOTSTRAP_ELEMENT_ID);
  });

  it("pages that are not prefetched (account pages) stay as they were", async () => {
    const { html, cookies } = await page("/account/orders", NAVIGATION);
    expect(cookies).toEqual([]);
    expect(html).not.toContain(BOOTSTRAP_ELEMENT_ID);
  });
});

describe("a returning shopper", () => {
  it("gets their own session answered and no new cookie; a product page carries the product, its store and its main image", async () => {
    const shopper = await app.createUser({});
    const product = await app.database.db.product.findFirstOrThrow({ where: { status: "active", store_id: { not: null }, featuredImageUrl: { not: null } }, orderBy: { id: "asc" } });
    const numeric = product.id.split("/").pop()!;
    const { res, html, responses, cookies } = await page(`/products/${numeric}/${product.handle}`, { ...NAVIGATION, cookie: `${SESSION_COOKIE}=${shopper.token}` });
    expect(res.status).toBe(200);
    expect(cookies).toEqual([]);
    const api = replayClient(responses);
    expect((await api.getMe()).id).toBe(shopper.id);
    const detail = await api.productsGetById({ params: { id: product.id } });
    expect(detail.id).toBe(product.id);
    expect((await api.storesGetById({ params: { id: detail.storeId! } })).id).toBe(detail.storeId);
    expect(html).toMatch(/<link rel="preload" as="image" fetchpriority="high"[^>]+imagesizes="\(max-width: 767\.98px\) calc\(100vw - 32px\), min\(50vw, 720px\)"/);
  });

  it("a store page carries the store, its reviews summary and its first products", async () => {
    const shopper = await app.createUser({});
    const store = await app.database.db.store.findFirstOrThrow({ orderBy: { name: "asc" } });
    const { responses } = await page(`/stores/${store.id}/${store.handle}`, { ...NAVIGATION, cookie: `${SESSION_COOKIE}=${shopper.token}` });
    const api = replayClient(responses);
    expect((await api.storesGetById({ params: { id: store.id } })).id).toBe(store.id);
    await api.reviewsStoreSummary({ params: { id: store.id } });
    const first = await api.storesProducts({ params: { id: store.id }, query: { skip: 0, take: STORE_PAGE_PRODUCTS } });
    expect(first.products.length).toBeGreaterThan(0);
  });

  it("a search on a phone carries the search the page sends (its phone page size)", async () => {
    const shopper = await app.createUser({});
    const { responses } = await page("/?search=black%20jeans", { ...PHONE, cookie: `${SESSION_COOKIE}=${shopper.token}` });
    const api = replayClient(responses);
    const body = searchRequestBody({ ...parseSearchState("?search=black%20jeans", "both"), term: "black jeans" }, SEARCH_PAGE_SIZE_MOBILE);
    const answer = await api.searchProducts({ body });
    expect(answer.results.length).toBeGreaterThan(0);
  });
});

describe("a slow API", () => {
  it("the page does not wait past the budget: it goes out with what is ready", async () => {
    const web = express();
    const slow: ApiFetch = async (request, clientIp) => {
      if (!request.url.includes("/users/guest")) await new Promise((r) => setTimeout(r, 2_000));
      return handleApiRequest(request, app.ctx, { clientIp });
    };
    web.get("*", storefrontPage({ db: app.database.db, origin: () => "https://shop.example.test", storefrontDir: dir, prefetch: createPagePrefetch({ apiFetch: slow, sessionCookie: SESSION_COOKIE, budgetMs: 300 }) }));
    const server = await new Promise<import("node:http").Server>((r) => {
      const s = web.listen(0, "127.0.0.1", () => r(s));
    });
    try {
      const started = Date.now();
      const { res, cookies } = await page("/", NAVIGATION, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(res.status).toBe(200);
      // The guest session was made in time, so it goes out with the page.
      expect(cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
    } finally {
      await new Promise((r) => server.close(() => r(null)));
    }
  });
});
