import type { Role } from "@prisma/client";

/** How an invitation names the role it grants, in the email and on the accept page (a client-safe module). */
export function roleLabel(role: Role, vendorName?: string | null): string {
  if (role === "VENDOR") return vendorName ? `vendor user of ${vendorName}` : "vendor user";
  return "admin";
}
