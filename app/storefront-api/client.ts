/**
 * Storefront reads (SPEC §7, last paragraph): products by ids, by id, and a filtered list, through
 * @shopify/storefront-api-client with API version 2025-07. Isomorphic (no server imports): the
 * browser storefront, theme blocks and the server can all use it.
 *
 * - Against Shopify: `createStorefrontReader({ storeDomain: "shop.myshopify.com", publicAccessToken })`.
 * - In local mode the same documents go to our local endpoint, which answers them from the local
 *   catalogue: `createStorefrontReader({ storeDomain: origin, apiUrl: localStorefrontApiUrl(origin) })`.
 *   The client always builds `https://<domain>/api/<version>/graphql.json`, so the reader's fetch
 *   sends every request to `apiUrl` instead (and through `customFetchApi` when one is given).
 *
 * Results are the SPEC §3 Product shape, flattened: `images` and `variants` as arrays, option
 * `values` as names, `targetGender` and variant `colorHex` from the custom metafields, and money
 * amounts as strings with 2 decimals (Shopify's Decimal prints "129.0").
 */
import { createStorefrontApiClient, type StorefrontApiClient } from "@shopify/storefront-api-client";
import { toProductGid } from "../lib/gid";
import {
  PRODUCT_BY_ID_QUERY,
  PRODUCTS_BY_IDS_QUERY,
  PRODUCTS_LIST_QUERY,
  STOREFRONT_API_VERSION,
  STOREFRONT_MAX_PAGE_SIZE,
  type ProductSortKey,
} from "./documents";

export const LOCAL_STOREFRONT_API_PATH = "/api/storefront/graphql";

/** The local endpoint's URL for an app origin (`http://127.0.0.1:3000` → `…/api/storefront/graphql`). */
export const localStorefrontApiUrl = (origin: string) => `${origin.replace(/\/+$/, "")}${LOCAL_STOREFRONT_API_PATH}`;

/** The local endpoint is public; the client still insists on a token, so local mode sends this one. */
export const LOCAL_STOREFRONT_TOKEN = "local-storefront";

export interface Money {
  amount: string;
  currencyCode: string;
}
export interface StorefrontImage {
  url: string;
  altText: string | null;
}
export interface StorefrontVariant {
  id: string;
  title: string;
  availableForSale: boolean;
  image: StorefrontImage | null;
  price: Money;
  compareAtPrice: Money | null;
  selectedOptions: { name: string; value: string }[];
  product: { handle: string; title: string };
  colorHex: string | null;
}
export interface StorefrontProduct {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  availableForSale: boolean;
  productType: string;
  description: string;
  descriptionHtml: string;
  featuredImage: StorefrontImage | null;
  priceRange: { minVariantPrice: Money; maxVariantPrice: Money };
  options: { id: string; name: string; values: string[] }[];
  images: StorefrontImage[];
  variants: StorefrontVariant[];
  targetGender: string | null;
}
export interface StorefrontPage {
  products: StorefrontProduct[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
export interface ProductsListInput {
  first?: number;
  after?: string | null;
  query?: string | null;
  sortKey?: ProductSortKey;
  reverse?: boolean;
}

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export interface StorefrontReaderOptions {
  /** `shop.myshopify.com` for Shopify; the app's origin in local mode. */
  storeDomain: string;
  /** Storefront public access token (local mode: optional). */
  publicAccessToken?: string;
  /** Send every request here instead of `https://<storeDomain>/api/2025-07/graphql.json`. */
  apiUrl?: string;
  /** Replaces `fetch` (tests call the route in-process; the server can answer local reads in-process). */
  customFetchApi?: FetchLike;
  apiVersion?: string;
  retries?: number;
}

export interface StorefrontReader {
  /** Products in the order of `ids` (bare numeric ids are accepted); unknown or hidden ids are left out. */
  productsByIds(ids: string[]): Promise<StorefrontProduct[]>;
  /** One product, or null when it does not exist or is not visible. */
  productById(id: string): Promise<StorefrontProduct | null>;
  /** A page of products: Storefront search syntax in `query`, `first` ≤ 250. */
  productsList(input?: ProductsListInput): Promise<StorefrontPage>;
  /** The underlying @shopify/storefront-api-client client. */
  client: StorefrontApiClient;
}

export class StorefrontApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly graphQLErrors: { message: string }[] = [],
  ) {
    super(message);
    this.name = "StorefrontApiError";
  }
}

// ---------------------------------------------------------------------------------------------
// Response shapes (what the documents select) and their flattening

interface RawMoney {
  amount: string;
  currencyCode: string;
}
interface RawVariant {
  id: string;
  title: string;
  availableForSale: boolean;
  image: StorefrontImage | null;
  price: RawMoney;
  compareAtPrice: RawMoney | null;
  selectedOptions: { name: string; value: string }[];
  product: { handle: string; title: string };
  colorHex: { value: string } | null;
}
interface RawProduct {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  availableForSale: boolean;
  productType: string;
  description: string;
  descriptionHtml: string;
  featuredImage: StorefrontImage | null;
  priceRange: { minVariantPrice: RawMoney; maxVariantPrice: RawMoney };
  options: { id: string; name: string; optionValues: { id: string; name: string }[] }[];
  images: { nodes: StorefrontImage[] };
  variants: { nodes: RawVariant[] };
  targetGender: { value: string } | null;
}

/** Shopify's Decimal ("129.0", "99.5") → 2 decimals ("129.00", "99.50"). */
export function moneyAmount(amount: string | number): string {
  const n = Number(amount);
  return Number.isFinite(n) ? n.toFixed(2) : String(amount);
}
const money = (m: RawMoney): Money => ({ amount: moneyAmount(m.amount), currencyCode: m.currencyCode });
const image = (i: StorefrontImage | null | undefined): StorefrontImage | null => (i ? { url: i.url, altText: i.altText ?? null } : null);

export function flattenProduct(p: RawProduct): StorefrontProduct {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    availableForSale: p.availableForSale,
    productType: p.productType,
    description: p.description,
    descriptionHtml: p.descriptionHtml,
    featuredImage: image(p.featuredImage),
    priceRange: { minVariantPrice: money(p.priceRange.minVariantPrice), maxVariantPrice: money(p.priceRange.maxVariantPrice) },
    options: p.options.map((o) => ({ id: o.id, name: o.name, values: o.optionValues.map((v) => v.name) })),
    images: p.images.nodes.map((i) => image(i)!),
    variants: p.variants.nodes.map((v) => ({
      id: v.id,
      title: v.title,
      availableForSale: v.availableForSale,
      image: image(v.image),
      price: money(v.price),
      compareAtPrice: v.compareAtPrice ? money(v.compareAtPrice) : null,
      selectedOptions: v.selectedOptions.map((s) => ({ name: s.name, value: s.value })),
      product: { handle: v.product.handle, title: v.product.title },
      colorHex: v.colorHex?.value ?? null,
    })),
    targetGender: p.targetGender?.value ?? null,
  };
}

// ---------------------------------------------------------------------------------------------

/**
 * The storefront-api-client for these options: requests go to `apiUrl` when one is given (the
 * local endpoint), through `customFetchApi` when one is given (in-process, or a test server).
 */
export function createStorefrontClient(opts: StorefrontReaderOptions): StorefrontApiClient {
  const baseFetch: FetchLike = opts.customFetchApi ?? ((url, init) => fetch(url, init));
  const customFetchApi: FetchLike | undefined = opts.apiUrl ? (_url, init) => baseFetch(opts.apiUrl!, init) : opts.customFetchApi;
  return createStorefrontApiClient({
    storeDomain: opts.storeDomain,
    apiVersion: opts.apiVersion ?? STOREFRONT_API_VERSION,
    publicAccessToken: opts.publicAccessToken || LOCAL_STOREFRONT_TOKEN,
    retries: opts.retries ?? 0,
    customFetchApi,
    // The pinned version falls out of the client's "currently supported" window with time; the pin is
    // deliberate (SPEC §7), so its warning is not printed on every construction.
    logger: () => {},
  });
}

export function createStorefrontReader(opts: StorefrontReaderOptions): StorefrontReader {
  const client = createStorefrontClient(opts);

  async function run<T>(document: string, variables: Record<string, unknown>): Promise<T> {
    const res = await client.request<T>(document, { variables });
    if (res.errors) {
      const e = res.errors;
      let graphQLErrors = (e.graphQLErrors ?? []) as { message: string }[];
      // A non-2xx answer (e.g. 400 for a document that fails validation) carries its errors in the body.
      if (!graphQLErrors.length && e.response && !e.response.ok) {
        try {
          const body = (await e.response.clone().json()) as { errors?: { message: string }[] };
          graphQLErrors = body.errors ?? [];
        } catch {
          /* not JSON */
        }
      }
      const detail = graphQLErrors.map((g) => g.message).join("; ");
      throw new StorefrontApiError(detail ? `${e.message ?? "Storefront API error"}: ${detail}` : (e.message ?? "Storefront API error"), e.networkStatusCode, graphQLErrors);
    }
    return res.data as T;
  }

  return {
    client,
    async productsByIds(ids) {
      const gids = [...new Set(ids.map(toProductGid).filter(Boolean))];
      const found = new Map<string, StorefrontProduct>();
      for (let i = 0; i < gids.length; i += STOREFRONT_MAX_PAGE_SIZE) {
        const chunk = gids.slice(i, i + STOREFRONT_MAX_PAGE_SIZE);
        const data = await run<{ nodes: (RawProduct | Record<string, never> | null)[] }>(PRODUCTS_BY_IDS_QUERY, { ids: chunk });
        for (const node of data.nodes) if (node && "id" in node) found.set(node.id, flattenProduct(node as RawProduct));
      }
      return ids.map((id) => found.get(toProductGid(id))).filter((p, i, all): p is StorefrontProduct => !!p && all.indexOf(p) === i);
    },
    async productById(id) {
      const data = await run<{ product: RawProduct | null }>(PRODUCT_BY_ID_QUERY, { id: toProductGid(id) });
      return data.product ? flattenProduct(data.product) : null;
    },
    async productsList(input = {}) {
      const first = Math.min(Math.max(Math.trunc(input.first ?? 20), 1), STOREFRONT_MAX_PAGE_SIZE);
      const data = await run<{ products: { nodes: RawProduct[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(PRODUCTS_LIST_QUERY, {
        first,
        after: input.after ?? null,
        query: input.query ?? null,
        sortKey: input.sortKey ?? null,
        reverse: input.reverse ?? false,
      });
      return { products: data.products.nodes.map(flattenProduct), pageInfo: { hasNextPage: data.products.pageInfo.hasNextPage, endCursor: data.products.pageInfo.endCursor ?? null } };
    },
  };
}
