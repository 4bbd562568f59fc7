/**
 * LOCAL MODE ONLY: a stand-in store product page (`/theme-preview/products/<id>`, numeric id or
 * GID) with the product blocks of the theme app extension — rating summary, save button, try-on
 * button, reviews, similar products, frequently bought together — and the app embed, rendered
 * from their Liquid files (app/services/theme-preview). 404 for an unknown product, outside local
 * mode and when COMMERCE_ADAPTER=shopify.
 */
import fs from "node:fs";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getAppContext } from "~/context.server";
import { getProductDetail } from "~/services/catalog.server";
import { THEME_ASSETS_DIR } from "~/services/theme-preview/blocks.server";
import { previewCustomer, renderProductPreview } from "~/services/theme-preview/page.server";
import { ApiError } from "~/api/errors.server";
import { toApiError } from "~/api/router.server";
import { DomainError } from "~/lib/domain-errors";

const notFound = (message = "Not found") => new Response(message, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const config = getConfig();
  if (config.APP_MODE !== "local" || config.COMMERCE_ADAPTER === "shopify") return notFound();
  let product;
  try {
    product = await getProductDetail(getAppContext().db, params.id ?? "");
  } catch (error) {
    if ((error instanceof ApiError || error instanceof DomainError) && toApiError(error).status < 500) return notFound("No such product in the catalogue");
    throw error;
  }
  const assetsBuilt = fs.existsSync(path.join(THEME_ASSETS_DIR, "fashion-blocks.js"));
  const html = await renderProductPreview({ assetsBuilt, customer: previewCustomer(request.headers.get("cookie")), product });
  return new Response(html, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
};
