/**
 * The storefront's stores page against the real API through the client library (a test app over a
 * fresh database, answered in-process): the page's own calls (storefront/src/lib/stores-query.ts)
 * read every store of a gender 10 at a time until the total, each with at most 12 of its products
 * for that gender; the featured stores put the most-followed first; a follow made through the
 * client shows on the page rendered from those answers; a guest without a session cannot follow
 * and an unknown gender is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Route } from "react-router-dom";
import { QueryClient } from "@tanstack/react-query";
import { ApiClientError, createApiClient, type ApiClient } from "~/client";
import type { TargetGender } from "~/contract";
import { handleApiRequest } from "../../app/api/index.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createStoreProducts, productGid as gid, type StoreProduct } from "../helpers/store-products";
import { renderRoutes } from "../helpers/storefront-render";
import { followingKey, primeToggles } from "../../storefront/src/lib/saved";
import { Stores } from "../../storefront/src/pages/Stores";
import {
  STORE_CARD_PRODUCTS,
  STORES_PAGE,
  featuredStoresKey,
  fetchFeaturedStores,
  fetchStoresPage,
  nextStoresSkip,
  storesByGenderKey,
} from "../../storefront/src/lib/stores-query";

let app: TestApp;
let client: ApiClient;
let anonymous: ApiClient;
const ids: Record<string, string> = {};

const clientFor = (token: string | null) =>
  createApiClient({
    baseUrl: "http://localhost",
    getToken: () => token,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => handleApiRequest(new Request(input, init), app.ctx, { clientIp: "127.0.0.1" })) as typeof fetch,
  });

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = (await db.vendor.create({ data: { name: "Vendor", handle: "vendor" } })).id;
  // 8 menswear, 4 "both" and 2 womenswear stores: 12 for menswear shoppers.
  const stores: [string, TargetGender][] = [
    ...Array.from({ length: 8 }, (_, i) => [`m${i + 1}`, "menswear"] as [string, TargetGender]),
    ...Array.from({ length: 4 }, (_, i) => [`b${i + 1}`, "both"] as [string, TargetGender]),
    ["w1", "womenswear"],
    ["w2", "womenswear"],
  ];
  let order = 0;
  for (const [key, target_gender] of stores) {
    ids[key] = (await db.store.create({ data: { name: `Store ${key}`, handle: `store-${key}`, target_gender, vendor_id: vendor, sort_order: order++ } })).id;
  }
  // m1: 14 menswear products and a womenswear one; b1: one product for both; w1: one womenswear product.
  const products: StoreProduct[] = [
    ...Array.from({ length: 14 }, (_, i) => ({ n: 100 + i, store: "m1", gender: "menswear" as TargetGender })),
    { n: 200, store: "m1", gender: "womenswear" },
    { n: 300, store: "b1", gender: "both" },
    { n: 400, store: "w1", gender: "womenswear" },
  ];
  await createStoreProducts(db, ids, products);
  const user = await app.createUser({ firstName: "Ada", email: "ada@example.test" });
  client = clientFor(user.token);
  anonymous = clientFor(null);
});
afterAll(() => app?.close());

/** Every page of the list as the page's infinite query reads them. */
async function readAll(api: ApiClient, gender: TargetGender) {
  const pages: Awaited<ReturnType<typeof fetchStoresPage>>[] = [];
  let skip: number | undefined = 0;
  while (skip !== undefined) {
    const page = await fetchStoresPage(api, gender, skip);
    pages.push(page);
    skip = nextStoresSkip(page, pages);
    if (pages.length > 10) throw new Error("the list does not end");
  }
  return pages;
}

function renderStores(path: string, seed: (qc: QueryClient) => void): string {
  return renderRoutes(path, <Route path="/mens/stores" element={<Stores />} />, seed);
}

describe("stores page through the client library", () => {
  it("reads the gender's stores 10 at a time until the total, each with up to 12 of its products for the gender", async () => {
    const pages = await readAll(client, "menswear");
    expect(pages.map((p) => p.stores.length)).toEqual([STORES_PAGE, 2]);
    expect(pages.map((p) => p.skip)).toEqual([0, 10]);
    const stores = pages.flatMap((p) => p.stores);
    expect(new Set(stores.map((s) => s.id)).size).toBe(12);
    expect(stores.some((s) => s.target_gender === "womenswear")).toBe(false);
    const m1 = stores.find((s) => s.id === ids.m1)!;
    expect(m1.products).toHaveLength(STORE_CARD_PRODUCTS);
    expect(m1.products.every((p) => p.target_gender !== "womenswear")).toBe(true);
    // Newest first.
    expect(m1.products[0].id).toBe(gid(113));
    expect(stores.find((s) => s.id === ids.b1)!.products.map((p) => p.id)).toEqual([gid(300)]);

    const both = await readAll(client, "both");
    expect(both.flatMap((p) => p.stores)).toHaveLength(14);
  });

  it("features the most-followed stores first; a follow shows on the page rendered from the answers", async () => {
    const followed = await client.favoriteStoresToggle({ body: { store_id: ids.b1, following: true } });
    expect(followed.following).toBe(true);
    const featured = await fetchFeaturedStores(client, "menswear");
    expect(featured.stores.map((s) => s.id)).toEqual([ids.b1, ids.m1]);
    expect(featured.stores[1].products).toHaveLength(4);

    const pages = await readAll(client, "menswear");
    const follows = await client.favoriteStoresList({ query: { limit: 20 } });
    const html = renderStores("/mens/stores", (qc) => {
      qc.setQueryData(storesByGenderKey("menswear"), { pages, pageParams: pages.map((p) => p.skip) });
      qc.setQueryData(featuredStoresKey("menswear"), featured);
      primeToggles(
        qc,
        pages.flatMap((p) => p.stores).map((s) => followingKey(s.id)),
        false,
      );
      primeToggles(
        qc,
        follows.items.map((f) => followingKey(f.store_id)),
        true,
      );
    });
    expect(html.split('data-testid="store-block"').length - 1).toBe(12);
    expect(html).not.toContain('data-testid="stores-more"');
    // Followed in the featured row and in the list; the others offer Follow.
    expect(html.split('aria-label="Following Store b1"').length - 1).toBe(2);
    expect(html).toContain('aria-label="Follow Store m1"');
    expect(html.split('data-testid="product-card"').length - 1).toBe(STORE_CARD_PRODUCTS + 1);

    await client.favoriteStoresToggle({ body: { store_id: ids.b1, following: false } });
  });

  it("refuses a follow without a session and an unknown gender", async () => {
    const noSession = await anonymous.favoriteStoresToggle({ body: { store_id: ids.m1, following: true } }).catch((e: unknown) => e);
    expect(noSession).toBeInstanceOf(ApiClientError);
    expect((noSession as ApiClientError).status).toBe(401);

    const badGender = await client.storesByTargetGender({ params: { gender: "kids" as TargetGender } }).catch((e: unknown) => e);
    expect(badGender).toBeInstanceOf(ApiClientError);
    expect((badGender as ApiClientError).status).toBe(400);
  });
});
