/**
 * Shopify opens the app at its root with `shop`/`host` parameters: send it to the embedded admin.
 * (Shopper requests to "/" never reach Remix: the server hands them to the storefront.)
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

export const loader = ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  return redirect(`/app?${url.searchParams.toString()}`);
};
