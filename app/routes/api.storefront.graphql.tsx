/**
 * POST /api/storefront/graphql — the local Storefront API (local mode): the same documents the app
 * sends to Shopify's Storefront API, validated against the real 2025-07 schema and answered from
 * the local catalogue. Public, like the real Storefront API; 404 when the app runs on Shopify. This flat route is more specific than
 * the `api.$` splat, so Remix sends this path here and not to the REST router.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { appBaseUrl } from "~/lib/app-url";
import { handleStorefrontGraphQL } from "~/storefront-api/local-endpoint.server";

const handle = (request: Request) => {
  const ctx = getAppContext();
  // On Shopify the shop's own Storefront API holds products and carts: a local one here would let
  // anyone fill the production database with carts nobody checks out.
  if (ctx.config.COMMERCE_ADAPTER === "shopify") return Response.json({ errors: [{ message: "The local Storefront endpoint serves the embedded default only: use the shop's Storefront API", extensions: { code: "NOT_FOUND" } }] }, { status: 404 });
  return handleStorefrontGraphQL(request, { db: ctx.db, log: ctx.log, appUrl: appBaseUrl(ctx.config) });
};

export const loader = ({ request }: LoaderFunctionArgs) => handle(request);
export const action = ({ request }: ActionFunctionArgs) => handle(request);
