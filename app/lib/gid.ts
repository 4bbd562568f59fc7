/**
 * Shopify global ids. Product ids travel as GIDs (`gid://shopify/Product/1001`); callers may also
 * send the bare numeric id, which is normalised here. One helper, shared by every area.
 */
const PRODUCT_GID = /^gid:\/\/shopify\/Product\/\d+$/;

/** `1001` → `gid://shopify/Product/1001`; a product GID is returned as is; anything else trimmed. */
export function toProductGid(id: string): string {
  const v = String(id).trim();
  if (/^\d+$/.test(v)) return `gid://shopify/Product/${v}`;
  return v;
}

export const isProductGid = (id: string) => PRODUCT_GID.test(id);

/** The numeric tail of a GID (`gid://shopify/Product/1001` → `1001`), or the input when it has none. */
export function gidTail(id: string): string {
  const m = /\/(\d+)$/.exec(id);
  return m ? m[1] : id;
}

/** `42` → `gid://shopify/ProductVariant/42`; anything else trimmed and returned as is. */
export function toVariantGid(id: string): string {
  const v = String(id).trim();
  if (/^\d+$/.test(v)) return `gid://shopify/ProductVariant/${v}`;
  return v;
}

/**
 * A path id that a client sent without a value: empty, or the text of a missing JavaScript value
 * (`/products/undefined` is what `fetch(\`/products/${id}\`)` sends when `id` is missing).
 */
export function isMissingId(id: string | null | undefined): boolean {
  const v = (id ?? "").trim();
  return v === "" || v === "undefined" || v === "null";
}
