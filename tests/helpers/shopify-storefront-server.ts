/**
 * A Shopify-like Storefront API for tests of the production adapter (no network): a fetch
 * function to hand to `createStorefrontCartApi` / `createStorefrontReader` as `customFetchApi`
 * (and `handle(request)`, the same thing as an HTTP handler). Like Shopify it answers only
 * POST https://<shop>/api/2025-07/graphql.json with the right X-Shopify-Storefront-Access-Token;
 * every document is validated against the real 2025-07 Storefront schema (deprecated fields
 * refused) and recorded, then answered by the local endpoint's engine (handleStorefrontGraphQL)
 * from the test's database, so the data is the same as in local mode.
 */
import { NoDeprecatedCustomRule, parse, specifiedRules, validate, type DocumentNode } from "graphql";
import type { Db } from "../../app/db.server";
import type { Logger } from "../../app/lib/logger.server";
import { STOREFRONT_API_VERSION } from "../../app/storefront-api/documents";
import { getStorefrontSchema } from "../../app/storefront-api/schema.server";
import { handleStorefrontGraphQL } from "../../app/storefront-api/local-endpoint.server";
import { createStorefrontCartApi, type StorefrontCartApi } from "../../app/storefront-api/cart-client";

export interface RecordedStorefrontRequest {
  url: string;
  method: string;
  token: string | null;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  /** Validation errors against the real schema (empty: the document is one Shopify accepts). */
  errors: string[];
  status: number;
}

export interface ShopifyStorefrontServer {
  shop: string;
  token: string;
  /** Every request received, in order. */
  requests: RecordedStorefrontRequest[];
  handle(request: Request): Promise<Response>;
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** A cart API configured as production configures it (shop domain + public token), talking to this server. */
  cartApi(opts?: { token?: string }): StorefrontCartApi;
  /** Answer the next `n` requests with this status (a Shopify outage). */
  failNext(n: number, status?: number): void;
}

export function createShopifyStorefrontServer(opts: { db: Db; log?: Logger; shop?: string; token?: string; appUrl?: string }): ShopifyStorefrontServer {
  const shop = opts.shop ?? "fd-test-shop.myshopify.com";
  const token = opts.token ?? "storefront-token-0123456789abcdef";
  const schema = getStorefrontSchema();
  const requests: RecordedStorefrontRequest[] = [];
  let failures: { left: number; status: number } = { left: 0, status: 503 };
  const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const rec: RecordedStorefrontRequest = { url: request.url, method: request.method, token: request.headers.get("x-shopify-storefront-access-token"), operationName: null, query: "", variables: {}, errors: [], status: 0 };
    requests.push(rec);
    const answer = (body: unknown, status: number) => {
      rec.status = status;
      return json(body, status);
    };
    if (url.host !== shop || url.pathname !== `/api/${STOREFRONT_API_VERSION}/graphql.json`) return answer({ errors: "Not Found" }, 404);
    if (request.method !== "POST") return answer({ errors: "Method not allowed" }, 405);
    if (rec.token !== token) return answer({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, 401);
    if (failures.left > 0) {
      failures.left--;
      return answer({ errors: "Service unavailable" }, failures.status);
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = (await request.json()) as typeof body;
    } catch {
      return answer({ errors: [{ message: "Invalid JSON" }] }, 400);
    }
    rec.query = typeof body.query === "string" ? body.query : "";
    rec.variables = (body.variables && typeof body.variables === "object" ? body.variables : {}) as Record<string, unknown>;
    let doc: DocumentNode;
    try {
      doc = parse(rec.query);
    } catch (e) {
      rec.errors = [e instanceof Error ? e.message : String(e)];
      return answer({ errors: rec.errors.map((message) => ({ message })) }, 400);
    }
    const op = doc.definitions.find((d) => d.kind === "OperationDefinition");
    rec.operationName = typeof body.operationName === "string" ? body.operationName : op && "name" in op ? (op.name?.value ?? null) : null;
    rec.errors = validate(schema, doc, [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message);
    if (rec.errors.length) return answer({ errors: rec.errors.map((message) => ({ message })) }, 400);
    // Valid: the local engine answers it from the test database (same data as local mode).
    const local = await handleStorefrontGraphQL(
      new Request("http://local.storefront/api/storefront/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: rec.query, variables: rec.variables }) }),
      { db: opts.db, log: opts.log, ...(opts.appUrl ? { appUrl: opts.appUrl } : {}) },
    );
    rec.status = local.status;
    return local;
  }

  return {
    shop,
    token,
    requests,
    handle,
    fetch: (url, init) => handle(new Request(url, init)),
    cartApi: (o = {}) => createStorefrontCartApi({ storeDomain: shop, publicAccessToken: o.token ?? token, customFetchApi: (url, init) => handle(new Request(url, init)) }),
    failNext(n, status = 503) {
      failures = { left: n, status };
    },
  };
}
