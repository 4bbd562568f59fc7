/**
 * One server serves everything (DESIGN.md). Which part answers a request: the Remix app
 * (embedded admin and vendor pages, Shopify auth, webhooks, API, App Proxy) or the built React
 * storefront (the shopper paths).
 */
// `/apps/<subpath>` and `/theme-preview` serve the local simulation of the App Proxy and the theme (local mode only).
const REMIX_PREFIXES = ["/app", "/auth", "/webhooks", "/api", "/proxy", "/apps", "/theme-preview"];

export function isRemixRequest(rawPathname: string, search: URLSearchParams): boolean {
  // Remix single-fetch asks for a route's data at `<path>.data` (`/_root.data` for "/"), and lazy
  // route discovery for the route manifest at `/__manifest`.
  if (rawPathname === "/_root.data" || rawPathname === "/__manifest") return true;
  const pathname = rawPathname.endsWith(".data") ? rawPathname.slice(0, -5) : rawPathname;
  if (REMIX_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return true;
  // Shopify opens the app at its URL with shop/host parameters: that is the embedded admin.
  if (pathname === "/" && (search.has("shop") || search.has("host") || search.has("embedded"))) return true;
  return false;
}

/** Whether a path belongs to the API (/api and below), whose every answer is JSON. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}
