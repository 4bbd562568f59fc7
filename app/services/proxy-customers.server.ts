/**
 * Theme blocks reach the API through Shopify's App Proxy; Shopify adds the logged-in customer's
 * id to each signed request, and that customer maps to one app user.
 */
import type { User } from "@prisma/client";
import type { Db } from "~/db.server";

export async function userForShopifyCustomer(db: Db, customerId: string): Promise<User> {
  const existing = await db.user.findUnique({ where: { shopify_customer_id: customerId } });
  if (existing) return existing;
  // INSERT … ON CONFLICT DO NOTHING, then read: a customer's first requests often arrive together
  // (the theme's blocks), and Prisma's upsert would race them to a unique-constraint error.
  await db.user.createMany({ data: [{ shopify_customer_id: customerId, auth_provider: "shopify" }], skipDuplicates: true });
  return db.user.findUniqueOrThrow({ where: { shopify_customer_id: customerId } });
}
