/**
 * What Shopify's app-lifecycle and mandatory privacy webhooks require of us. Each delivery is
 * handled once: the webhook id is recorded, and a repeat is acknowledged without work.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { customerWhere, deleteCustomerDataExports, recordCustomerDataRequest, type DataRequestPayload, type PrivacyDeps } from "./privacy-exports.server";

export interface WebhookMeta {
  webhookId: string | null;
  topic: string;
  shop: string;
}

/** True the first time a webhook id is seen. */
export async function firstDelivery(db: Db, meta: WebhookMeta): Promise<boolean> {
  if (!meta.webhookId) return true;
  const r = await db.webhookDelivery.createMany({ data: [{ id: meta.webhookId, topic: meta.topic, shop: meta.shop }], skipDuplicates: true });
  return r.count === 1;
}

export async function handleAppUninstalled(db: Db, shop: string) {
  await db.session.deleteMany({ where: { shop } });
}

interface PrivacyCustomer {
  id?: number | string | null;
  email?: string | null;
}

/**
 * customers/data_request: gather what we hold about the customer into a JSON export for the
 * merchant, kept in private storage and listed for privacy.manage admins until it expires
 * (app/services/privacy-exports.server.ts): never under the public /uploads.
 */
export async function handleCustomerDataRequest(deps: PrivacyDeps, shop: string, payload: DataRequestPayload) {
  const row = await recordCustomerDataRequest(deps, shop, payload);
  return { id: row.id, users: row.users_found };
}

/** customers/redact: erase the customer's personal data; order history stays, anonymised. */
export async function handleCustomerRedact(deps: PrivacyDeps, payload: { customer?: PrivacyCustomer }) {
  const { db } = deps;
  const where = payload.customer ? customerWhere(payload.customer) : null;
  if (!where) return { deleted: 0 };
  // Exports made for an earlier data request hold the same personal data.
  await deleteCustomerDataExports(deps, { customer: payload.customer });
  const users = await db.user.findMany({ where, select: { id: true } });
  const ids = users.map((u) => u.id);
  if (payload.customer?.email) await db.order.updateMany({ where: { email: payload.customer.email.toLowerCase() }, data: { email: null, shipping_address: Prisma.DbNull } });
  const r = await db.user.deleteMany({ where: { id: { in: ids } } });
  return { deleted: r.count };
}

/** shop/redact (48 h after uninstall): remove the shop's sessions and its customers' personal data. */
export async function handleShopRedact(deps: PrivacyDeps, shop: string) {
  const { db } = deps;
  await db.session.deleteMany({ where: { shop } });
  await deleteCustomerDataExports(deps, { shop });
  const r = await db.user.deleteMany({ where: { auth_provider: "shopify", role: "SHOPPER" } });
  await db.order.updateMany({ data: { email: null, shipping_address: Prisma.DbNull } });
  return { deletedUsers: r.count };
}
