/**
 * Product addresses in the storefront. The API reads a product by id (GID or bare number), not by
 * handle, so the product page lives at `/products/<numeric id>/<handle>`: the id finds the product,
 * the handle is there for people and search engines (a stale handle still opens the product).
 * Product pages carry no `/mens` or `/womens` prefix (SPEC §2: only the root and /stores do).
 */
import { gidTail, toProductGid, toVariantGid } from "~/lib/gid";

/** The query parameter that opens the product modal on the home feed and search (`?product=1001`). */
export const PRODUCT_MODAL_PARAM = "product";

/** The query parameter naming the variant to select on the product page or modal (`?variant=10011`). */
export const VARIANT_PARAM = "variant";

/**
 * `/products/1001/denim-shorts` for a product (GID or numeric id) and its handle; with a variant
 * (a search result's matched colour), `?variant=<numeric id>` selects it.
 */
export function productPath(product: { id: string; handle?: string | null }, variantId?: string | null): string {
  const id = encodeURIComponent(gidTail(product.id));
  const handle = (product.handle ?? "").trim();
  const path = handle ? `/products/${id}/${encodeURIComponent(handle)}` : `/products/${id}`;
  return variantId ? `${path}?${VARIANT_PARAM}=${encodeURIComponent(gidTail(variantId))}` : path;
}

/** The variant a query string asks to select (`?variant=10011` → its GID), or null. */
export function readVariantParam(search: string | URLSearchParams): string | null {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const v = (params.get(VARIANT_PARAM) ?? "").trim();
  return v && v !== "undefined" && v !== "null" ? toVariantGid(v) : null;
}

/** The product id of a route parameter (`1001` → `gid://shopify/Product/1001`), or null when blank. */
export function productIdFromParam(param: string | null | undefined): string | null {
  const v = (param ?? "").trim();
  if (!v || v === "undefined" || v === "null") return null;
  return toProductGid(v);
}

/** The short id used in addresses: `gid://shopify/Product/1001` → `1001`. */
export function shortProductId(id: string): string {
  return gidTail(id);
}

/** The query string with the modal's product (and its variant) set, or removed with null; other parameters kept. */
export function withModalProduct(search: string, productId: string | null, variantId?: string | null): string {
  const params = new URLSearchParams(search);
  if (productId) params.set(PRODUCT_MODAL_PARAM, shortProductId(productId));
  else params.delete(PRODUCT_MODAL_PARAM);
  if (productId && variantId) params.set(VARIANT_PARAM, gidTail(variantId));
  else params.delete(VARIANT_PARAM);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** The modal's product id from a query string, or null. */
export function readModalProduct(search: string | URLSearchParams): string | null {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  return productIdFromParam(params.get(PRODUCT_MODAL_PARAM));
}
