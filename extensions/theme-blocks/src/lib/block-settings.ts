/**
 * The settings every block renders as data-* attributes: where the App Proxy is, the
 * storefront's root, the product of the page and whether a customer is logged in.
 * Pure (no DOM): unit-tested in tests/unit/theme-blocks.test.ts.
 */
import { toProductGid } from "~/lib/gid";
import { resolveProxyBase, resolveRootUrl } from "../feed-model";

export interface CommonSettings {
  /** The App Proxy base, relative to the page's origin (e.g. "/apps/fashion"). */
  baseUrl: string;
  /** The storefront's root without a trailing slash ("" for "/"). */
  rootUrl: string;
  /** The page's product as a GID, or null (not a product page and no product chosen). */
  productId: string | null;
  productHandle: string;
  /** A Shopify customer is logged in: the App Proxy tells the app who it is. */
  customer: boolean;
}

/** A Shopify product id as Liquid renders it (`1001`) or a GID, else null. */
export function parseProductId(raw: string | null | undefined): string | null {
  const v = (raw ?? "").trim();
  if (/^\d{1,20}$/.test(v)) return toProductGid(v);
  if (/^gid:\/\/shopify\/Product\/\d{1,20}$/.test(v)) return v;
  return null;
}

export function readCommonSettings(data: Record<string, string | undefined>, pageOrigin: string): CommonSettings {
  return {
    baseUrl: resolveProxyBase(data.proxyBase, pageOrigin),
    rootUrl: resolveRootUrl(data.rootUrl),
    productId: parseProductId(data.productId),
    productHandle: (data.productHandle ?? "").trim(),
    customer: data.customer === "true",
  };
}

/** An integer setting within bounds. */
export function intSetting(raw: string | undefined, def: number, min: number, max: number): number {
  const n = Number.parseInt(raw ?? "", 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : def;
}

/** A Liquid checkbox rendered as "true" / "false". */
export function boolSetting(raw: string | undefined, def: boolean): boolean {
  if (raw === "true") return true;
  if (raw === "false") return false;
  return def;
}
