/** Query keys of the shopper's product requests (a "user" key: dropped on sign-in and sign-out). */
export const MY_PRODUCT_REQUESTS_KEY = ["user", "product-requests"] as const;
export const REQUEST_PRODUCT_PATH = "/request-a-product";

/** The form's address, prefilled with what a search did not find. */
export function requestProductHref(garment?: string): string {
  const g = (garment ?? "").trim();
  return g ? `${REQUEST_PRODUCT_PATH}?garment=${encodeURIComponent(g)}` : REQUEST_PRODUCT_PATH;
}
