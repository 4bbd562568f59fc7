/**
 * LOCAL MODE ONLY: `GET /theme-preview/cart.js`, the theme preview's stand-in for the Online
 * Store's `/cart.js` (Ajax Cart API), read by the add-to-cart block for the count
 * (app/services/theme-preview/cart.server.ts). 404 outside local mode and with COMMERCE_ADAPTER=shopify.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getAppContext } from "~/context.server";
import { previewCartGet, previewCartId } from "~/services/theme-preview/cart.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const config = getConfig();
  if (config.APP_MODE !== "local" || config.COMMERCE_ADAPTER === "shopify") {
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const answer = await previewCartGet(getAppContext().storefrontCart, previewCartId(request.headers.get("cookie")));
  return Response.json(answer.body, { status: answer.status, headers: { "cache-control": "no-store" } });
};
