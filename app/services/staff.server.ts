/**
 * Staff identity for the admin and vendor pages under /app.
 * - Inside the Shopify admin (COMMERCE_ADAPTER=shopify): `authenticate.admin` with online tokens;
 *   the staff member maps to an app user by Shopify user id, else by the email of a staff account
 *   (an invitation they accepted); the store owner becomes an admin with every permission on
 *   first visit. Anyone else is refused until they accept an admin's invitation.
 * - Local mode: the email + password login at /app/login (same session cookie as the API).
 */
import type { User } from "@prisma/client";
import type { Db } from "~/db.server";
import { PermissionNames, type Permission } from "~/contract/permissions";
import { hasPermission } from "~/api/auth.server";

export interface ShopifyStaffMember {
  id: number | string;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  account_owner?: boolean;
}

export type StaffResolution = { ok: true; user: User } | { ok: false; reason: "unknown_staff" | "not_staff" };

export async function mapShopifyStaffToUser(db: Db, staff: ShopifyStaffMember): Promise<StaffResolution> {
  const staffId = String(staff.id);
  const byId = await db.user.findUnique({ where: { shopify_staff_id: staffId } });
  if (byId) return byId.role === "SHOPPER" ? { ok: false, reason: "not_staff" } : { ok: true, user: byId };

  const email = staff.email?.toLowerCase() ?? null;
  const byEmail = email ? await db.user.findUnique({ where: { email } }) : null;
  // Only a staff account maps by email: one an invitee accepted (app/services/staff-invitations.server.ts).
  // A pending invitation or a shopper account with this email gives no access.
  if (byEmail && byEmail.role !== "SHOPPER") {
    return { ok: true, user: await db.user.update({ where: { id: byEmail.id }, data: { shopify_staff_id: staffId } }) };
  }
  if (staff.account_owner) {
    const data = {
      shopify_staff_id: staffId,
      role: "ADMIN" as const,
      permissions: [...PermissionNames],
      first_name: staff.first_name ?? null,
      last_name: staff.last_name ?? null,
      auth_provider: "shopify" as const,
    };
    if (!byEmail) return { ok: true, user: await db.user.create({ data: { ...data, email } }) };
    // A shopper account with the owner's email may have been registered by anyone (registration
    // does not prove the address): its password and sessions are not the owner's, so they end
    // before the account becomes the owner's admin account.
    const [, user] = await db.$transaction([
      db.authToken.deleteMany({ where: { user_id: byEmail.id } }),
      db.user.update({ where: { id: byEmail.id }, data: { ...data, password_hash: null } }),
    ]);
    return { ok: true, user };
  }
  return { ok: false, reason: "unknown_staff" };
}

export const isStaff = (user: Pick<User, "role">) => user.role === "ADMIN" || user.role === "VENDOR";

export interface NavItem {
  label: string;
  url: string;
}

/** The admin and vendor areas that exist, as this user may see them. */
export function navigationFor(user: Pick<User, "role" | "permissions">): NavItem[] {
  const items: NavItem[] = [];
  if (user.role === "ADMIN") {
    items.push({ label: "Dashboard", url: "/app" });
    if (hasPermission(user, "admins.manage" satisfies Permission)) items.push({ label: "Admin users", url: "/app/admins" });
    if (hasPermission(user, "catalog.edit" satisfies Permission)) items.push({ label: "Products", url: "/app/products" });
    if (hasPermission(user, "orders.manage" satisfies Permission)) items.push({ label: "Orders", url: "/app/orders" });
    if (hasPermission(user, "orders.manage" satisfies Permission)) items.push({ label: "Analytics", url: "/app/orders/analytics" });
    if (hasPermission(user, "returns.manage" satisfies Permission)) items.push({ label: "Returns", url: "/app/returns" });
    if (hasPermission(user, "catalog.import" satisfies Permission)) items.push({ label: "Taobao import", url: "/app/import" });
    if (hasPermission(user, "catalog.import" satisfies Permission)) items.push({ label: "Product requests", url: "/app/product-requests" });
    if (hasPermission(user, "catalog.edit" satisfies Permission)) items.push({ label: "Stores", url: "/app/stores" }, { label: "Collections", url: "/app/collections" });
    if (hasPermission(user, "catalog.edit" satisfies Permission)) items.push({ label: "Styles", url: "/app/styles" });
    if (hasPermission(user, "catalog.edit" satisfies Permission)) items.push({ label: "Socials content", url: "/app/socials" });
    if (hasPermission(user, "catalog.edit" satisfies Permission)) items.push({ label: "Outfits", url: "/app/outfits" });
    if (hasPermission(user, "catalog.edit" satisfies Permission)) items.push({ label: "Materials", url: "/app/materials" });
    if (hasPermission(user, "drops.manage" satisfies Permission)) items.push({ label: "Drops", url: "/app/drops" });
    if (hasPermission(user, "media.manage" satisfies Permission)) items.push({ label: "Internal media", url: "/app/media" });
    if (hasPermission(user, "media.manage" satisfies Permission)) items.push({ label: "Uploaded images", url: "/app/uploads" });
    if (hasPermission(user, "media.manage" satisfies Permission)) items.push({ label: "Proposed images", url: "/app/proposed-images" });
    if (hasPermission(user, "media.manage" satisfies Permission)) items.push({ label: "Proposed edits", url: "/app/proposed-edits" });
    if (hasPermission(user, "ai.train" satisfies Permission)) items.push({ label: "AI image tools", url: "/app/ai-tools" }, { label: "AI models", url: "/app/clones" });
    if (hasPermission(user, "catalog.sync" satisfies Permission)) items.push({ label: "Catalogue sync", url: "/app/sync" });
    if (hasPermission(user, "reviews.moderate" satisfies Permission)) items.push({ label: "Reviews", url: "/app/reviews" });
    if (hasPermission(user, "knowledge.manage" satisfies Permission)) items.push({ label: "Knowledge base", url: "/app/knowledge" });
    if (hasPermission(user, "apikeys.manage" satisfies Permission)) items.push({ label: "API keys", url: "/app/api-keys" });
    if (hasPermission(user, "privacy.manage" satisfies Permission)) items.push({ label: "Privacy requests", url: "/app/privacy" });
    if (hasPermission(user, "vendors.manage" satisfies Permission)) items.push({ label: "Vendors", url: "/app/vendors" });
    if (hasPermission(user, "ads.manage" satisfies Permission)) items.push({ label: "Ads", url: "/app/ads" });
  }
  if (user.role === "VENDOR") {
    items.push({ label: "Home", url: "/app/vendor" }, { label: "Products", url: "/app/vendor/products" }, { label: "Stores", url: "/app/vendor/stores" }, { label: "Payouts", url: "/app/vendor/payouts" }, { label: "Ads", url: "/app/vendor/ads" }, { label: "Socials", url: "/app/vendor/socials" });
  }
  return items;
}
