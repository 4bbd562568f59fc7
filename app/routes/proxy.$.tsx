/**
 * The App Proxy: the store's `/apps/fashion/*` arrives here as `/proxy/*`, signed by Shopify.
 * The signature is verified (401 otherwise), the logged-in customer becomes the caller, and the
 * request is answered by the same API router as /api (`/proxy/api/products` → `/api/products`).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { getAppContext } from "~/context.server";
import { handleApiRequest } from "~/api/index.server";
import { anonymous } from "~/api/auth.server";
import { errorResponse } from "~/api/router.server";
import { userForShopifyCustomer } from "~/services/proxy-customers.server";

async function handle(request: Request, context: unknown) {
  await authenticate.public.appProxy(request);
  const ctx = getAppContext();
  const url = new URL(request.url);
  const apiPath = url.pathname.replace(/^\/proxy/, "");
  if (!apiPath.startsWith("/api/")) return errorResponse(404, "not_found", `No proxy endpoint at ${apiPath}`, crypto.randomUUID());
  const customerId = url.searchParams.get("logged_in_customer_id");
  const auth = customerId ? { user: await userForShopifyCustomer(ctx.db, customerId), token: null, via: null } : anonymous;
  return handleApiRequest(request, ctx, {
    apiPath: apiPath.slice(4),
    auth,
    clientIp: (context as { clientIp?: string } | undefined)?.clientIp,
  });
}

export const loader = ({ request, context }: LoaderFunctionArgs) => handle(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => handle(request, context);
