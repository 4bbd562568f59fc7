/**
 * LOCAL MODE ONLY: `POST /theme-preview/cart/add.js`, the theme preview's stand-in for the Online
 * Store's `/cart/add.js` (Ajax Cart API: `{ items: [{ id, quantity }] }`), used by the add-to-cart
 * block. The cart is a local Storefront cart named by a cookie, as the Online Store names its own
 * (app/services/theme-preview/cart.server.ts). 404 outside local mode and with COMMERCE_ADAPTER=shopify.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getAppContext } from "~/context.server";
import { previewCartAdd, previewCartCookie, previewCartId } from "~/services/theme-preview/cart.server";

const notFound = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

export const loader = () => notFound();

export const action = async ({ request }: ActionFunctionArgs) => {
  const config = getConfig();
  if (config.APP_MODE !== "local" || config.COMMERCE_ADAPTER === "shopify") return notFound();
  if (request.method !== "POST") return Response.json({ status: 405, message: "Method Not Allowed" }, { status: 405 });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    body = null;
  }
  const answer = await previewCartAdd(getAppContext().storefrontCart, previewCartId(request.headers.get("cookie")), body);
  const headers = new Headers({ "cache-control": "no-store" });
  if (answer.cartId) headers.append("set-cookie", previewCartCookie(answer.cartId));
  return Response.json(answer.body, { status: answer.status, headers });
};
