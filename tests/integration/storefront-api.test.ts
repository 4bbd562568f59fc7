/**
 * Storefront reads in local mode: the reader (@shopify/storefront-api-client, API 2025-07) against
 * the local endpoint POST /api/storefront/graphql, called in-process through the Remix route's
 * action. The route reads the app context from a global, so it is set before the import.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { createStorefrontReader, localStorefrontApiUrl, StorefrontApiError, type StorefrontReader } from "../../app/storefront-api/client";
import { storefrontReaderFor } from "../../app/storefront-api/reader.server";

type RouteFn = (args: ActionFunctionArgs) => Promise<Response> | Response;
type RouteModule = { loader: RouteFn; action: RouteFn };

const ORIGIN = "http://localhost:3000";
const gid = (n: number) => `gid://shopify/Product/${n}`;

let app: TestApp;
let route: RouteModule;
let reader: StorefrontReader;
const requested: string[] = [];

async function post(body: unknown, init: { method?: string; contentType?: string } = {}): Promise<{ status: number; body: any }> {
  const request = new Request(localStorefrontApiUrl(ORIGIN), {
    method: init.method ?? "POST",
    headers: { "content-type": init.contentType ?? "application/json" },
    body: init.method === "GET" ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const res = await (init.method === "GET" ? route.loader : route.action)({ request, params: {}, context: {} } as ActionFunctionArgs);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

interface Seed {
  n: number;
  title: string;
  vendor: string;
  productType: string;
  price: number;
  gender: "menswear" | "womenswear" | "both";
  tags?: string[];
  available?: boolean;
  status?: "active" | "draft" | "archived";
  publishedAt?: Date | null;
  colors?: (string | null)[];
}

const SEEDS: Seed[] = [
  { n: 101, title: "Linen Shirt", vendor: "Studio North", productType: "Shirts", price: 49, gender: "menswear", tags: ["summer", "linen"], colors: ["#FFFFFF", "#000000"] },
  { n: 102, title: "Silk Dress", vendor: "Maison Test", productType: "Dresses", price: 149.5, gender: "womenswear", tags: ["evening"], colors: ["#C21E56"] },
  { n: 103, title: "Linen Trousers", vendor: "Studio North", productType: "Trousers", price: 79, gender: "menswear", available: false, colors: [null] },
  { n: 104, title: "Wool Coat", vendor: "Maison Test", productType: "Coats", price: 189, gender: "womenswear", publishedAt: new Date(Date.now() - 86_400_000) },
  { n: 105, title: "Canvas Tote", vendor: "Bag Works", productType: "Bags", price: 29, gender: "both", tags: ["Summer"] },
  { n: 106, title: "Draft Linen Hoodie", vendor: "Studio North", productType: "Hoodies", price: 59, gender: "menswear", status: "draft" },
  { n: 107, title: "Future Linen Scarf", vendor: "Studio North", productType: "Scarves", price: 39, gender: "both", publishedAt: new Date(Date.now() + 7 * 86_400_000) },
  { n: 108, title: "Archived Linen Cap", vendor: "Studio North", productType: "Caps", price: 19, gender: "both", status: "archived" },
];
const VISIBLE = ["Linen Shirt", "Silk Dress", "Linen Trousers", "Wool Coat", "Canvas Tote"]; // creation order

beforeAll(async () => {
  app = await createTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  route = (await import("../../app/routes/api.storefront.graphql")) as unknown as RouteModule;
  reader = createStorefrontReader({
    storeDomain: ORIGIN,
    apiUrl: localStorefrontApiUrl(ORIGIN),
    customFetchApi: async (url, init) => {
      requested.push(url);
      return route.action({ request: new Request(url, init), params: {}, context: {} } as ActionFunctionArgs);
    },
  });

  const db = app.database.db;
  const base = Date.now() - 1_000_000;
  for (const [i, s] of SEEDS.entries()) {
    const colors = s.colors ?? ["#808080"];
    const handle = s.title.toLowerCase().replace(/\s+/g, "-");
    await db.product.create({
      data: {
        id: gid(s.n),
        title: s.title,
        handle,
        vendor: s.vendor,
        productType: s.productType,
        description: `${s.title}: a well made piece from ${s.vendor}.`,
        descriptionHtml: `<p>${s.title}</p>`,
        availableForSale: s.available ?? true,
        featuredImageUrl: `https://cdn.example.com/${handle}-0.jpg`,
        featuredImageAltText: `${s.title} front`,
        priceMin: s.price,
        priceMax: s.price + 10,
        currencyCode: "EUR",
        tags: s.tags ?? [],
        target_gender: s.gender,
        status: s.status ?? "active",
        publishedAt: s.publishedAt, // undefined → the column default (published now)
        created_at: new Date(base + i * 10_000),
        options: {
          create: [
            { id: `gid://shopify/ProductOption/${s.n}1`, name: "Color", values: colors.map((c, k) => c ?? `Plain ${k}`), position: 0 },
            { id: `gid://shopify/ProductOption/${s.n}2`, name: "Size", values: ["S", "M"], position: 1 },
          ],
        },
        images: {
          create: [0, 1, 2].map((k) => ({ id: `gid://shopify/MediaImage/${s.n}${k}`, url: `https://cdn.example.com/${handle}-${k}.jpg`, altText: `${s.title} ${k}`, position: k })),
        },
        variants: {
          create: colors.map((c, k) => ({
            id: `gid://shopify/ProductVariant/${s.n}${k}`,
            title: `${c ?? `Plain ${k}`} / S`,
            availableForSale: (s.available ?? true) && k === 0,
            price: s.price + k * 10,
            compareAtPrice: k === 0 ? s.price + 20 : null,
            currencyCode: "EUR",
            image_url: `https://cdn.example.com/${handle}-${k}.jpg`,
            selectedOptions: [
              { name: "Color", value: c ?? `Plain ${k}` },
              { name: "Size", value: "S" },
            ],
            color_hex: c,
            position: k,
          })),
        },
      },
    });
  }
});

afterAll(async () => {
  await app?.close();
});

describe("reader: product by id", () => {
  it("answers the SPEC §3 product shape, flattened, with metafields", async () => {
    requested.length = 0;
    const p = await reader.productById(gid(101));
    expect(requested).toEqual([`${ORIGIN}/api/storefront/graphql`]);
    expect(p).toEqual({
      id: gid(101),
      title: "Linen Shirt",
      handle: "linen-shirt",
      vendor: "Studio North",
      availableForSale: true,
      productType: "Shirts",
      description: "Linen Shirt: a well made piece from Studio North.",
      descriptionHtml: "<p>Linen Shirt</p>",
      featuredImage: { url: "https://cdn.example.com/linen-shirt-0.jpg", altText: "Linen Shirt front" },
      priceRange: { minVariantPrice: { amount: "49.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "59.00", currencyCode: "EUR" } },
      options: [
        { id: "gid://shopify/ProductOption/1011", name: "Color", values: ["#FFFFFF", "#000000"] },
        { id: "gid://shopify/ProductOption/1012", name: "Size", values: ["S", "M"] },
      ],
      images: [0, 1, 2].map((k) => ({ url: `https://cdn.example.com/linen-shirt-${k}.jpg`, altText: `Linen Shirt ${k}` })),
      variants: [
        {
          id: "gid://shopify/ProductVariant/1010",
          title: "#FFFFFF / S",
          availableForSale: true,
          image: { url: "https://cdn.example.com/linen-shirt-0.jpg", altText: "Linen Shirt 0" },
          price: { amount: "49.00", currencyCode: "EUR" },
          compareAtPrice: { amount: "69.00", currencyCode: "EUR" },
          selectedOptions: [
            { name: "Color", value: "#FFFFFF" },
            { name: "Size", value: "S" },
          ],
          product: { handle: "linen-shirt", title: "Linen Shirt" },
          colorHex: "#FFFFFF",
        },
        {
          id: "gid://shopify/ProductVariant/1011",
          title: "#000000 / S",
          availableForSale: false,
          image: { url: "https://cdn.example.com/linen-shirt-1.jpg", altText: "Linen Shirt 1" },
          price: { amount: "59.00", currencyCode: "EUR" },
          compareAtPrice: null,
          selectedOptions: [
            { name: "Color", value: "#000000" },
            { name: "Size", value: "S" },
          ],
          product: { handle: "linen-shirt", title: "Linen Shirt" },
          colorHex: "#000000",
        },
      ],
      targetGender: "menswear",
    });
  });

  it("accepts a bare numeric id; a variant without colour has colorHex null; decimals keep 2 places", async () => {
    const dress = await reader.productById("102");
    expect(dress?.priceRange.minVariantPrice.amount).toBe("149.50");
    expect(dress?.targetGender).toBe("womenswear");
    const trousers = await reader.productById(gid(103));
    expect(trousers?.availableForSale).toBe(false);
    expect(trousers?.variants.map((v) => v.colorHex)).toEqual([null]);
  });

  it("answers null for drafts, archived, future-published and unknown products", async () => {
    for (const n of [106, 107, 108, 999]) expect(await reader.productById(gid(n))).toBeNull();
    // Published in the past is visible.
    expect((await reader.productById(gid(104)))?.title).toBe("Wool Coat");
  });
});

describe("reader: products by ids", () => {
  it("keeps the requested order and leaves out unknown and hidden ids", async () => {
    const list = await reader.productsByIds([gid(105), "102", gid(106), gid(999), gid(101), gid(107), gid(105)]);
    expect(list.map((p) => p.title)).toEqual(["Canvas Tote", "Silk Dress", "Linen Shirt"]);
    expect(list[1].variants[0].colorHex).toBe("#C21E56");
  });

  it("an empty list answers empty without a request", async () => {
    requested.length = 0;
    expect(await reader.productsByIds([])).toEqual([]);
    expect(requested).toEqual([]);
  });
});

describe("reader: products list", () => {
  const titles = (r: { products: { title: string }[] }) => r.products.map((p) => p.title);

  it("pages through every visible product with cursors (default order: ID, i.e. creation)", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page = await reader.productsList({ first: 2, after });
      seen.push(...titles(page));
      pages++;
      if (!page.pageInfo.hasNextPage) {
        expect(page.pageInfo.endCursor).toBeTruthy();
        break;
      }
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(VISIBLE);
  });

  it("filters with the Storefront query syntax", async () => {
    const q = async (query: string) => titles(await reader.productsList({ first: 50, query }));
    expect(await q("title:*linen*")).toEqual(["Linen Shirt", "Linen Trousers"]);
    expect(await q("title:Lin*")).toEqual(["Linen Shirt", "Linen Trousers"]);
    expect(await q("linen")).toEqual(["Linen Shirt", "Linen Trousers"]);
    expect(await q("silk")).toEqual(["Silk Dress"]);
    expect(await q("product_type:Dresses")).toEqual(["Silk Dress"]);
    expect(await q('vendor:"Maison Test"')).toEqual(["Silk Dress", "Wool Coat"]);
    expect(await q('-vendor:"Maison Test"')).toEqual(["Linen Shirt", "Linen Trousers", "Canvas Tote"]);
    expect(await q("tag:summer")).toEqual(["Linen Shirt", "Canvas Tote"]);
    expect(await q("available_for_sale:true title:*linen*")).toEqual(["Linen Shirt"]);
    expect(await q("available_for_sale:false")).toEqual(["Linen Trousers"]);
    expect(await q("variants.price:>100")).toEqual(["Silk Dress", "Wool Coat"]);
    expect(await q("product_type:Coats OR product_type:Bags")).toEqual(["Wool Coat", "Canvas Tote"]);
    expect(await q("nothing-matches-this")).toEqual([]);
  });

  it("sorts by TITLE, PRICE, CREATED_AT, BEST_SELLING and RELEVANCE, with reverse", async () => {
    const s = async (sortKey: any, reverse = false, query?: string) => titles(await reader.productsList({ first: 50, sortKey, reverse, query }));
    expect(await s("TITLE")).toEqual(["Canvas Tote", "Linen Shirt", "Linen Trousers", "Silk Dress", "Wool Coat"]);
    expect(await s("TITLE", true)).toEqual(["Wool Coat", "Silk Dress", "Linen Trousers", "Linen Shirt", "Canvas Tote"]);
    expect(await s("PRICE")).toEqual(["Canvas Tote", "Linen Shirt", "Linen Trousers", "Silk Dress", "Wool Coat"]);
    expect(await s("PRICE", true)).toEqual(["Wool Coat", "Silk Dress", "Linen Trousers", "Linen Shirt", "Canvas Tote"]);
    expect(await s("CREATED_AT")).toEqual(VISIBLE);
    expect(await s("CREATED_AT", true)).toEqual([...VISIBLE].reverse());
    expect(await s("BEST_SELLING")).toEqual([...VISIBLE].reverse()); // no sales ranking locally: newest first
    expect(await s("RELEVANCE", false, "linen trousers")).toEqual(["Linen Trousers"]);
    expect(await s("RELEVANCE", false, "linen OR trousers")).toEqual(["Linen Trousers", "Linen Shirt"]);
  });

  it("pages a sorted, filtered list without duplicates", async () => {
    const first = await reader.productsList({ first: 1, sortKey: "PRICE", query: "-tag:evening" });
    const second = await reader.productsList({ first: 10, sortKey: "PRICE", query: "-tag:evening", after: first.pageInfo.endCursor });
    expect([...titles(first), ...titles(second)]).toEqual(["Canvas Tote", "Linen Shirt", "Linen Trousers", "Wool Coat"]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it("refuses first > 250 with a GraphQL error (status 200, as Shopify)", async () => {
    const res = await post({ query: "query { products(first: 251) { nodes { id } } }" });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].message).toMatch(/between 0 and 250/);
    const err = await reader.productsList({ first: 10, after: "not-a-cursor" }).catch((e) => e);
    expect(err).toBeInstanceOf(StorefrontApiError);
    expect(err.status).toBe(200);
    expect(err.message).toMatch(/Invalid cursor/);
  });
});

describe("local endpoint: GraphQL protocol", () => {
  it("answers edges, cursors, last/before and hasPreviousPage", async () => {
    const res = await post({
      query: `query { products(last: 2) { edges { cursor node { title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
    });
    expect(res.status).toBe(200);
    const conn = res.body.data.products;
    expect(conn.edges.map((e: any) => e.node.title)).toEqual(["Wool Coat", "Canvas Tote"]);
    expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: conn.edges[0].cursor });
    const before = await post({ query: `query($b: String) { products(last: 2, before: $b) { nodes { title } } }`, variables: { b: conn.pageInfo.startCursor } });
    expect(before.body.data.products.nodes.map((n: any) => n.title)).toEqual(["Silk Dress", "Linen Trousers"]);
  });

  it("resolves product(handle:), nodes with variants, nested connections and __typename", async () => {
    const res = await post({
      query: `query($ids: [ID!]!) {
        byHandle: product(handle: "silk-dress") { id title images(first: 2, reverse: true) { nodes { url } } tags }
        nodes(ids: $ids) { __typename id ... on ProductVariant { title product { handle } } ... on Product { title } }
      }`,
      variables: { ids: ["gid://shopify/ProductVariant/1020", gid(101), gid(106), "gid://shopify/Collection/1"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.byHandle).toEqual({
      id: gid(102),
      title: "Silk Dress",
      images: { nodes: [{ url: "https://cdn.example.com/silk-dress-2.jpg" }, { url: "https://cdn.example.com/silk-dress-1.jpg" }] },
      tags: ["evening"],
    });
    expect(res.body.data.nodes).toEqual([
      { __typename: "ProductVariant", id: "gid://shopify/ProductVariant/1020", title: "#C21E56 / S", product: { handle: "silk-dress" } },
      { __typename: "Product", id: gid(101), title: "Linen Shirt" },
      null,
      null,
    ]);
  });

  it("answers fields the local catalogue lacks with null or empty", async () => {
    const res = await post({ query: `{ product(id: "${gid(101)}") { onlineStoreUrl collections(first: 5) { nodes { id } } metafield(namespace: "custom", key: "unknown") { value } } }` });
    expect(res.status).toBe(200);
    expect(res.body.data.product).toEqual({ onlineStoreUrl: null, collections: { nodes: [] }, metafield: null });
  });

  it("a syntactically invalid document → 400 with a parse error", async () => {
    const res = await post({ query: "query { products(first: 2) { nodes { id }" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error/), extensions: { code: "GRAPHQL_PARSE_FAILED" } });
  });

  it("an unknown field → 400 with the schema's validation message", async () => {
    const res = await post({ query: "query { products(first: 2) { nodes { id colour } } }" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: 'Cannot query field "colour" on type "Product".', extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    // Through the reader's client the same answer is a 400.
    const viaClient = await reader.client.request("query { shop { nam } }");
    expect(viaClient.errors?.networkStatusCode).toBe(400);
  });

  it("refuses a query that could return too many objects (a products → variants → product cycle)", async () => {
    const cyclic = `query { products(first: 250) { nodes { variants(first: 250) { nodes { product { variants(first: 250) { nodes { id } } } } } } } }`;
    const res = await post({ query: cyclic });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.code).toBe("MAX_COST_EXCEEDED");
    expect(res.body.data).toBeUndefined();
  });

  it("rejects bad bodies, other methods and mutations other than the cart's", async () => {
    expect((await post("{not json")).status).toBe(400);
    expect((await post({ variables: {} })).status).toBe(400);
    expect((await post(null, { method: "GET" })).status).toBe(405);
    const raw = await post(`{ product(handle: "wool-coat") { title } }`, { contentType: "application/graphql" });
    expect(raw.body).toEqual({ data: { product: { title: "Wool Coat" } } });
    const mutation = await post({ query: `mutation { customerAccessTokenCreate(input: { email: "a@b.c", password: "x" }) { customerUserErrors { message } } }` });
    expect(mutation.status).toBe(200);
    expect(mutation.body.errors[0].extensions.code).toBe("NOT_SUPPORTED");
    const missingVar = await post({ query: `query($id: ID!) { product(id: $id) { id } }`, variables: {} });
    expect(missingVar.status).toBe(200);
    expect(missingVar.body.errors[0].message).toMatch(/\$id/);
  });
});

describe("server reader for the configured mode", () => {
  it("answers local reads in-process in local mode", async () => {
    const local = storefrontReaderFor({ config: app.ctx.config, db: app.database.db });
    expect((await local.productsByIds([gid(104)])).map((p) => p.title)).toEqual(["Wool Coat"]);
  });
});
