/**
 * The App Proxy: the store's `/apps/fashion/*` arrives here as `/proxy/*`, signed by Shopify.
 * The signature is verified (401 otherwise), then:
 * - `/proxy/api/*` is answered by the same API router as /api (`/proxy/api/products` →
 *   `/api/products`). The caller is the logged-in Shopify customer when Shopify names one
 *   (`logged_in_customer_id`, mapped to one app user), else whoever the bearer token names (a
 *   guest the theme blocks created through `POST /users/guest`; Shopify drops cookies, so blocks
 *   send their token in `Authorization`), else anonymous.
 * - `/proxy/storefront/products/…` redirects to that page of the React storefront (the try-on
 *   button links there), `/proxy/uploads/…` to the app's uploaded file (review photos) and
 *   `/proxy/images/…?w=&fm=` to the image route (the blocks' srcset), see
 *   app/services/proxy-storefront.server.ts.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { handleApiRequest } from "~/api/index.server";
import { authenticateRequest } from "~/api/auth.server";
import { errorResponse } from "~/api/router.server";
import { isUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "~/lib/unstorable-text";
import { userForShopifyCustomer } from "~/services/proxy-customers.server";
import { imageTarget, storefrontOrigin, storefrontTarget, uploadTarget } from "~/services/proxy-storefront.server";

async function handle(request: Request, context: unknown) {
  await authenticate.public.appProxy(request);
  const ctx = getAppContext();
  const url = new URL(request.url);
  const proxiedPath = url.pathname.replace(/^\/proxy/, "");
  if (request.method === "GET" || request.method === "HEAD") {
    const origin = storefrontOrigin(ctx.config, url);
    if (proxiedPath.startsWith("/storefront/")) {
      const target = storefrontTarget(proxiedPath.slice("/storefront".length), url.searchParams, origin);
      if (target) return new Response(null, { status: 302, headers: { location: target, "cache-control": "no-store" } });
    }
    const upload = proxiedPath.startsWith("/uploads/") ? uploadTarget(proxiedPath, origin) : null;
    if (upload) return new Response(null, { status: 302, headers: { location: upload, "cache-control": "public, max-age=3600" } });
    const image = proxiedPath.startsWith("/images/") ? imageTarget(proxiedPath, url.searchParams, origin) : null;
    if (image) return new Response(null, { status: 302, headers: { location: image, "cache-control": "public, max-age=3600" } });
  }
  if (!proxiedPath.startsWith("/api/")) return errorResponse(404, "not_found", `No proxy endpoint at ${proxiedPath}`, crypto.randomUUID());
  const customerId = url.searchParams.get("logged_in_customer_id");
  // The API router checks the proxied request's own input; this id reaches the database before it.
  if (customerId && isUnstorableText(customerId)) return errorResponse(400, "bad_request", `logged_in_customer_id ${UNSTORABLE_TEXT_MESSAGE}`, crypto.randomUUID());
  const auth = customerId
    ? { user: await userForShopifyCustomer(ctx.db, customerId), token: null, via: null }
    : await authenticateRequest(ctx, request);
  return handleApiRequest(request, ctx, {
    apiPath: proxiedPath.slice(4),
    auth,
    clientIp: (context as { clientIp?: string } | undefined)?.clientIp,
  });
}

export const loader = ({ request, context }: LoaderFunctionArgs) => handle(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => handle(request, context);
