/**
 * LOCAL MODE ONLY: a stand-in for Shopify's App Proxy, so the theme app block can be shown and
 * tested without a store. On a real store Shopify forwards `https://<shop>/apps/fashion/<rest>`
 * to our `/proxy/<rest>` with a signed query; here `/apps/fashion/<rest>` does the same
 * in-process: it signs the query with the app's API secret (the value shopify.server.ts uses)
 * and calls the proxy route's loader/action, which verifies the signature as it would in
 * production. No HTTP round trip.
 *
 * As Shopify does, cookies are not forwarded (and Set-Cookie is not returned) and the caller
 * cannot choose the signed parameters. The logged-in customer is simulated with the
 * `fd_preview_customer` cookie (a numeric Shopify customer id).
 *
 * Answers 404 outside local mode and when COMMERCE_ADAPTER=shopify (a real proxy exists then).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { signedAppProxySearchParams } from "~/services/app-proxy-signing.server";
import { MAX_REQUEST_BODY_BYTES, readArrayBuffer, refusingLargeBodies } from "~/lib/body-limit.server";
import { action as proxyAction, loader as proxyLoader } from "./proxy.$";

const LOCAL_PROXY_SHOP = "local.myshopify.com";
const PROXY_PREFIX = "apps";
const PROXY_SUBPATH = "fashion";
const PREVIEW_CUSTOMER_COOKIE = "fd_preview_customer";

/** Parameters only Shopify sets: whatever the caller sent under these names is dropped. */
const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature", "hmac"]);

function notFound(message = "Not found") {
  return new Response(JSON.stringify({ error: { code: "not_found", message } }), {
    status: 404,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function localProxyEnabled(): boolean {
  const config = getConfig();
  return config.APP_MODE === "local" && config.COMMERCE_ADAPTER !== "shopify";
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

async function forward(args: LoaderFunctionArgs | ActionFunctionArgs, kind: "loader" | "action"): Promise<Response> {
  if (!localProxyEnabled()) return notFound();
  const { request } = args;
  const url = new URL(request.url);
  const prefix = `/${PROXY_PREFIX}/${PROXY_SUBPATH}`;
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return notFound(`No app proxy at ${url.pathname}`);
  const rest = url.pathname.slice(prefix.length); // "" or "/api/..."

  const config = getConfig();
  const secret = config.SHOPIFY_API_SECRET;
  const customer = readCookie(request.headers.get("cookie"), PREVIEW_CUSTOMER_COOKIE);

  const query = new URLSearchParams();
  for (const [k, v] of url.searchParams.entries()) if (!SHOPIFY_PARAMS.has(k)) query.append(k, v);
  query.set("shop", LOCAL_PROXY_SHOP);
  query.set("logged_in_customer_id", customer && /^\d{1,20}$/.test(customer) ? customer : "");
  query.set("path_prefix", prefix);
  query.set("timestamp", String(Math.floor(Date.now() / 1000)));
  const signed = signedAppProxySearchParams(query, secret);

  const headers = new Headers(request.headers);
  headers.delete("cookie");
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const forwarded = new Request(new URL(`/proxy${rest}?${signed.toString()}`, url.origin), {
    method: request.method,
    headers,
    // Within the ceiling here; the proxy route applies the endpoint's own limit.
    body: hasBody ? await refusingLargeBodies(() => readArrayBuffer(request, MAX_REQUEST_BODY_BYTES)) : undefined,
    signal: request.signal,
  });

  const fn = kind === "loader" ? proxyLoader : proxyAction;
  let response: Response;
  try {
    response = await fn({ request: forwarded, context: args.context, params: { "*": rest.replace(/^\//, "") } } as never);
  } catch (thrown) {
    // authenticate.public.appProxy throws a Response when the signature is refused.
    if (thrown instanceof Response) response = thrown;
    else throw thrown;
  }
  if (!response.headers.has("set-cookie")) return response;
  const out = new Headers(response.headers);
  out.delete("set-cookie");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: out });
}

export const loader = (args: LoaderFunctionArgs) => forward(args, "loader");
export const action = (args: ActionFunctionArgs) => forward(args, "action");
