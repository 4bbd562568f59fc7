/**
 * The app's access scopes, as `shopify.app.toml` declares them (a unit test keeps the two equal):
 * Admin API scopes for the catalogue, inventory, orders, returns and fulfilment, and the
 * Storefront API's unauthenticated_* scopes for product reads and carts (quantityAvailable,
 * checkoutUrl). SCOPES overrides them.
 */
export const APP_SCOPES = [
  "read_products",
  "write_products",
  "read_inventory",
  "write_inventory",
  "read_orders",
  "write_orders",
  "read_customers",
  "read_publications",
  "write_publications",
  "read_returns",
  "write_returns",
  "read_fulfillments",
  "write_fulfillments",
  "read_merchant_managed_fulfillment_orders",
  "write_merchant_managed_fulfillment_orders",
  "unauthenticated_read_product_listings",
  "unauthenticated_read_product_inventory",
  "unauthenticated_read_checkouts",
  "unauthenticated_write_checkouts",
] as const;
