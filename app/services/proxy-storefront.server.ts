/**
 * The App Proxy's door to the React storefront: theme blocks link to
 * `{shop}/apps/fashion/storefront/products/<id>/<handle>?tryon=1`, which Shopify forwards to
 * `/proxy/storefront/…`, answered with a redirect to the storefront's own page. The blocks never
 * need to know where the storefront is hosted.
 *
 * The app's own files (`/uploads/…`: review photos, demo product images with the local storage
 * adapter) are reached the same way, `/proxy/uploads/…` → `/uploads/…`, since the store's domain
 * does not serve them.
 *
 * Stored images in sizes (`/proxy/images/<key>?w=&fm=` → `/images/<key>?w=&fm=`, the image route
 * of app/services/image-variants.server.ts) go the same way: the blocks' `srcset` names them on
 * the store's domain, since the blocks only know the proxy path, never the app's host. The
 * redirect is cached by the browser (an hour), so a grid pays the proxy's round trip once per
 * candidate it actually loads.
 *
 * Only storefront product pages, uploaded files and sized images are reachable this way (no open redirect: the
 * target is always this app's own origin and one of those paths), and Shopify's signed
 * parameters are not passed on.
 */
import type { AppConfig } from "~/config.server";

/** Parameters Shopify adds to proxied requests: never forwarded to the storefront. */
const SHOPIFY_PARAMS = new Set(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature", "hmac"]);

/** `/products/<numeric id>` with an optional handle (storefront/src/lib/product-path.ts). */
const PRODUCT_PATH = /^\/products\/\d{1,20}(?:\/[A-Za-z0-9%._~-]{1,255})?\/?$/;

/** Where the React storefront is served: the app's public URL, else the address the request reached. */
export function storefrontOrigin(config: Pick<AppConfig, "APP_URL" | "SHOPIFY_APP_URL">, requestUrl: URL): string {
  for (const candidate of [config.APP_URL, config.SHOPIFY_APP_URL]) {
    if (!candidate) continue;
    try {
      return new URL(candidate).origin;
    } catch {
      /* validated at start-up; fall through */
    }
  }
  return requestUrl.origin;
}

/**
 * The storefront address for a proxied `/storefront/<path>` (`rest` is the path after
 * `/proxy/storefront`), or null when the path is not one the blocks link to.
 */
export function storefrontTarget(rest: string, search: URLSearchParams, origin: string): string | null {
  // No encoded slashes or dot segments in the handle: the target stays a product page.
  if (!PRODUCT_PATH.test(rest) || /%2f|%5c|\.\./i.test(rest)) return null;
  const query = new URLSearchParams();
  for (const [k, v] of search) if (!SHOPIFY_PARAMS.has(k)) query.append(k, v);
  const qs = query.toString();
  return `${origin}${rest.replace(/\/$/, "")}${qs ? `?${qs}` : ""}`;
}

/** `/uploads/<key>` of the local storage (letters, digits, `._~%/-`; no `..`). */
const UPLOAD_PATH = /^\/uploads\/[A-Za-z0-9._~%/-]{1,500}$/;

/** The address of an uploaded file for a proxied `/uploads/…`, or null when it is not one. */
export function uploadTarget(proxiedPath: string, origin: string): string | null {
  if (!UPLOAD_PATH.test(proxiedPath) || proxiedPath.split("/").some((seg) => seg === ".." || seg === ".")) return null;
  return `${origin}${proxiedPath}`;
}

/** `/images/<key>` of the image route (the key rules of the route itself: letters, digits, `._-/`). */
const IMAGE_PATH = /^\/images\/[A-Za-z0-9._/-]{1,300}$/;
/** The image route's own parameters; everything else (Shopify's signed ones included) is dropped. */
const IMAGE_PARAMS: Record<string, RegExp> = { w: /^\d{1,4}$/, fm: /^[a-z]{3,4}$/ };

/**
 * The image route's address for a proxied `/images/<key>?w=&fm=`, or null when it is not one.
 * The route itself checks the width and format (400 otherwise); here only their shape.
 */
export function imageTarget(proxiedPath: string, search: URLSearchParams, origin: string): string | null {
  if (!IMAGE_PATH.test(proxiedPath) || proxiedPath.slice(1).split("/").some((seg) => seg === ".." || seg === "." || seg === "")) return null;
  const query = new URLSearchParams();
  for (const [k, shape] of Object.entries(IMAGE_PARAMS)) {
    const v = search.get(k);
    if (v === null) continue;
    if (!shape.test(v)) return null;
    query.set(k, v);
  }
  const qs = query.toString();
  return `${origin}${proxiedPath}${qs ? `?${qs}` : ""}`;
}
