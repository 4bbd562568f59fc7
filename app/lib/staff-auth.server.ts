/**
 * Loader/action guard for /app pages: the Shopify admin or the local login, then role and
 * permission checks. Throws redirects or 403 responses the way Remix expects.
 */
import { redirect } from "@remix-run/node";
import { staffError } from "./staff-errors";
import { unstorableRequestInput } from "./unstorable-text";
import { authenticate } from "~/shopify.server";
import type { User } from "@prisma/client";
import type { Permission } from "~/contract/permissions";
import { getAppContext } from "~/context.server";
import { authenticateRequest, hasPermission } from "~/api/auth.server";
import { isStaff, mapShopifyStaffToUser } from "~/services/staff.server";

export interface StaffContext {
  user: User;
  embedded: boolean;
}

export async function requireStaff(request: Request): Promise<StaffContext> {
  const staff = await identifyStaff(request);
  // Every /app loader and action passes here: text the database cannot store is refused once,
  // before any page hands a form field or search to a service.
  const unstorable = await unstorableRequestInput(request);
  if (unstorable) throw staffError(400, unstorable);
  return staff;
}

async function identifyStaff(request: Request): Promise<StaffContext> {
  const ctx = getAppContext();
  if (ctx.config.COMMERCE_ADAPTER === "shopify") {
    const { session } = await authenticate.admin(request);
    const staff = session.onlineAccessInfo?.associated_user;
    if (!staff) throw staffError(403, "This app needs online access tokens to identify staff members");
    const resolved = await mapShopifyStaffToUser(ctx.db, staff);
    if (!resolved.ok) throw redirect("/app/no-access");
    return { user: resolved.user, embedded: true };
  }
  const auth = await authenticateRequest(ctx, request);
  if (!auth.user || !isStaff(auth.user)) {
    const url = new URL(request.url);
    throw redirect(`/app/login?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return { user: auth.user, embedded: false };
}

export async function requireAdmin(request: Request, permission?: Permission): Promise<StaffContext> {
  const staff = await requireStaff(request);
  if (staff.user.role !== "ADMIN" || (permission && !hasPermission(staff.user, permission))) {
    throw staffError(403, "You do not have permission to see this page");
  }
  return staff;
}

export async function requireVendor(request: Request): Promise<StaffContext & { vendorId: string }> {
  const staff = await requireStaff(request);
  if (staff.user.role !== "VENDOR" || !staff.user.vendor_id) throw staffError(403, "This page is for vendor accounts");
  return { ...staff, vendorId: staff.user.vendor_id };
}
