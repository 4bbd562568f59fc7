/**
 * Try-on button block (blocks/try-on-button.liquid, assets/fd-try-on.js). The try-on flow itself
 * lives in the storefront (its screens arrive with the try-on issue): the button opens the
 * storefront's page of this product with `?tryon=1`, through the App Proxy's
 * `/storefront/products/<id>/<handle>` redirect (app/services/proxy-storefront.server.ts), so the
 * block never needs to know where the storefront is hosted.
 *
 * The Liquid already renders a working link (`/products/<id>?tryon=1`); the script only adds the
 * handle with the storefront's own address format (storefront/src/lib/product-path.ts).
 */
import { productPath } from "../../../storefront/src/lib/product-path";
import { readCommonSettings } from "./lib/block-settings";
import { mountAll } from "./lib/dom";

const ROOT_SELECTOR = ".fd-try-on";

/** The query parameter that opens the try-on flow on the storefront's product page. */
export const TRY_ON_PARAM = "tryon";

/** `/apps/fashion/storefront/products/1001/linen-shirt?tryon=1`. */
export function tryOnHref(baseUrl: string, product: { id: string; handle?: string | null }): string {
  return `${baseUrl}/storefront${productPath(product)}?${TRY_ON_PARAM}=1`;
}

mountAll(ROOT_SELECTOR, (root) => {
  const settings = readCommonSettings({ ...root.dataset }, window.location.origin);
  const link = root.querySelector<HTMLAnchorElement>("a.fd-try-on__button");
  if (!link || !settings.productId) return;
  link.href = tryOnHref(settings.baseUrl, { id: settings.productId, handle: settings.productHandle });
  root.dataset.state = "ready";
});
