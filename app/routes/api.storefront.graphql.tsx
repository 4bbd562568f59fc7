/**
 * POST /api/storefront/graphql — the local Storefront API (local mode): the same documents the app
 * sends to Shopify's Storefront API, validated against the real 2025-07 schema and answered from
 * the local catalogue. Public, like the real Storefront API. This flat route is more specific than
 * the `api.$` splat, so Remix sends this path here and not to the REST router.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { appBaseUrl } from "~/lib/app-url";
import { handleStorefrontGraphQL } from "~/storefront-api/local-endpoint.server";

const handle = (request: Request) => {
  const ctx = getAppContext();
  return handleStorefrontGraphQL(request, { db: ctx.db, log: ctx.log, appUrl: appBaseUrl(ctx.config) });
};

export const loader = ({ request }: LoaderFunctionArgs) => handle(request);
export const action = ({ request }: ActionFunctionArgs) => handle(request);
