/**
 * Shopify's App Proxy signature, computed exactly as @shopify/shopify-api verifies it
 * (`validateHmac(query, { signator: "appProxy" })` in lib/utils/hmac-validator):
 *   - every query parameter except `signature` (and `hmac`) takes part;
 *   - a parameter given several times is one entry whose values are joined with ",";
 *   - entries are sorted by key with `localeCompare` and written `key=value` with no separator;
 *   - the signature is the hex HMAC-SHA256 of that text, keyed with the app's API secret.
 *
 * Used by the local stand-in for Shopify's proxy (`/apps/fashion/*`, local mode only) and tests.
 */
import crypto from "node:crypto";

export type AppProxyParams = Record<string, string | readonly string[]> | URLSearchParams;

function normalise(params: AppProxyParams): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const add = (key: string, value: string) => {
    out[key] = key in out ? `${out[key]},${value}` : value;
  };
  if (params instanceof URLSearchParams) {
    for (const [k, v] of params.entries()) add(k, v);
  } else {
    for (const [k, v] of Object.entries(params)) {
      if (typeof v === "string") add(k, v);
      else for (const item of v) add(k, item);
    }
  }
  return out;
}

/** The text Shopify signs: sorted `key=value` pairs, no separator, `signature`/`hmac` left out. */
export function appProxyMessage(params: AppProxyParams): string {
  const { signature: _s, hmac: _h, ...rest } = normalise(params);
  return Object.entries(rest)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join("");
}

/** The hex signature of the query, as Shopify's App Proxy adds it in `signature`. */
export function signAppProxyQuery(params: AppProxyParams, secret: string): string {
  return crypto.createHmac("sha256", secret).update(appProxyMessage(params), "utf8").digest("hex");
}

/** The query with `signature` set (any incoming `signature` replaced), ready to append to a URL. */
export function signedAppProxySearchParams(params: AppProxyParams, secret: string): URLSearchParams {
  const qs = new URLSearchParams();
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as const] : v.map((item) => [k, item] as const)));
  for (const [k, v] of entries) if (k !== "signature") qs.append(k, v);
  qs.set("signature", signAppProxyQuery(qs, secret));
  return qs;
}
