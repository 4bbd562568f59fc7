/** Roles and admin permissions (DESIGN.md: names are ours). */
export const Roles = ["SHOPPER", "VENDOR", "ADMIN"] as const;
export type RoleName = (typeof Roles)[number];

export const Permissions = {
  "catalog.import": "Import products from Taobao",
  "catalog.edit": "Edit the catalogue, stores, collections and styles",
  "catalog.sync": "Run catalogue syncs",
  "reviews.moderate": "Moderate reviews",
  "orders.manage": "Manage orders",
  "returns.manage": "Manage returns",
  "drops.manage": "Manage drops",
  "ads.manage": "Manage product ads",
  "vendors.manage": "Manage vendors: their analytics, commission rates and payouts",
  "media.manage": "Manage internal media and proposed images",
  "ai.train": "Train AI models and edit product images",
  "recommendations.manage": "Manage recommendations",
  "admins.manage": "Manage admin users and permissions",
  "apikeys.manage": "Create and revoke API keys of the data service",
  "privacy.manage": "Download customers' data exports (Shopify privacy requests)",
  "knowledge.manage": "Manage the shopping assistant's knowledge base (fit, care, materials, style guides, store policies)",
} as const;

export type Permission = keyof typeof Permissions;
export const PermissionNames = Object.keys(Permissions) as [Permission, ...Permission[]];

/**
 * What a newly created admin may do unless told otherwise: everything but managing admins, API
 * keys (a data-service key reads and writes every shopper's saved items) and customers' data
 * exports (everything the app holds about a customer): those are granted explicitly.
 */
export const DEFAULT_ADMIN_PERMISSIONS: Permission[] = PermissionNames.filter((p) => p !== "admins.manage" && p !== "apikeys.manage" && p !== "privacy.manage");
