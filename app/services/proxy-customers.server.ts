/**
 * Theme blocks reach the API through Shopify's App Proxy; Shopify adds the logged-in customer's
 * id to each signed request, and that customer maps to one app user.
 */
import type { User } from "@prisma/client";
import type { Db } from "~/db.server";

export async function userForShopifyCustomer(db: Db, customerId: string): Promise<User> {
  const existing = await db.user.findUnique({ where: { shopify_customer_id: customerId } });
  if (existing) return existing;
  return db.user.upsert({
    where: { shopify_customer_id: customerId },
    create: { shopify_customer_id: customerId, auth_provider: "shopify" },
    update: {},
  });
}
