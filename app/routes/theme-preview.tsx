/**
 * LOCAL MODE ONLY: a stand-in store home page showing the theme app blocks without a Shopify
 * store: the product feed and the photo search, with the app embed turned on. The blocks are
 * rendered from their real Liquid files (app/services/theme-preview) and load their built scripts
 * from /theme-preview/assets/ (theme-preview.assets.$.tsx). They call /apps/fashion/api/…,
 * answered by the local App Proxy stand-in (apps.$.tsx), which signs and forwards to /proxy.
 * Product pages with the product blocks: /theme-preview/products/<id> (theme-preview.products.$id.tsx).
 *
 * 404 outside local mode and when COMMERCE_ADAPTER=shopify (use a real store then).
 * Only `loader` is exported: other exports of a route module end up in the client build.
 */
import fs from "node:fs";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getAppContext } from "~/context.server";
import { listProducts } from "~/services/catalog.server";
import { THEME_ASSETS_DIR } from "~/services/theme-preview/blocks.server";
import { previewCustomer, renderHomePreview } from "~/services/theme-preview/page.server";

function themePreviewEnabled(): boolean {
  const config = getConfig();
  return config.APP_MODE === "local" && config.COMMERCE_ADAPTER !== "shopify";
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  if (!themePreviewEnabled()) {
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const assetsBuilt = fs.existsSync(path.join(THEME_ASSETS_DIR, "fashion-blocks.js"));
  const samples = (await listProducts(getAppContext().db, { limit: 6, sortKey: "CREATED_AT", reverse: false })).products;
  const html = await renderHomePreview({ assetsBuilt, customer: previewCustomer(request.headers.get("cookie")), samples });
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
};
