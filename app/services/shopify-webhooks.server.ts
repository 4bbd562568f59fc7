/**
 * What Shopify's app-lifecycle and mandatory privacy webhooks require of us. Each delivery is
 * handled once: the webhook id is recorded, and a repeat is acknowledged without work.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { StoragePort } from "~/providers/storage.server";

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

function customerWhere(customer: PrivacyCustomer) {
  const or: { shopify_customer_id?: string; email?: string }[] = [];
  if (customer.id !== undefined && customer.id !== null) or.push({ shopify_customer_id: String(customer.id) });
  if (customer.email) or.push({ email: customer.email.toLowerCase() });
  return or.length ? { OR: or } : null;
}

/**
 * customers/data_request: gather what we hold about the customer into a JSON export for the
 * merchant (stored under privacy/), as Shopify asks apps to provide it to the store owner.
 */
export async function handleCustomerDataRequest(db: Db, storage: StoragePort, payload: { customer?: PrivacyCustomer; data_request?: { id?: number | string } }) {
  const where = payload.customer ? customerWhere(payload.customer) : null;
  const users = where
    ? await db.user.findMany({
        where,
        select: {
          id: true, email: true, first_name: true, last_name: true, phone_number: true, created_at: true, metadata: true,
          saved_products: { select: { product_id: true, createdAt: true } },
          favorite_stores: { select: { store_id: true } },
          reviews: { select: { product_id: true, rating: true, body: true, created_at: true } },
          orders: { select: { id: true, name: true, created_at: true } },
        },
      })
    : [];
  const key = `privacy/data-requests/${String(payload.data_request?.id ?? Date.now())}.json`;
  await storage.put(key, new TextEncoder().encode(JSON.stringify({ requestedAt: new Date().toISOString(), customer: payload.customer ?? null, users }, null, 2)), "application/json");
  return { key, users: users.length };
}

/** customers/redact: erase the customer's personal data; order history stays, anonymised. */
export async function handleCustomerRedact(db: Db, payload: { customer?: PrivacyCustomer }) {
  const where = payload.customer ? customerWhere(payload.customer) : null;
  if (!where) return { deleted: 0 };
  const users = await db.user.findMany({ where, select: { id: true } });
  const ids = users.map((u) => u.id);
  if (payload.customer?.email) await db.order.updateMany({ where: { email: payload.customer.email.toLowerCase() }, data: { email: null, shipping_address: Prisma.DbNull } });
  const r = await db.user.deleteMany({ where: { id: { in: ids } } });
  return { deleted: r.count };
}

/** shop/redact (48 h after uninstall): remove the shop's sessions and its customers' personal data. */
export async function handleShopRedact(db: Db, shop: string) {
  await db.session.deleteMany({ where: { shop } });
  const r = await db.user.deleteMany({ where: { auth_provider: "shopify", role: "SHOPPER" } });
  await db.order.updateMany({ data: { email: null, shipping_address: Prisma.DbNull } });
  return { deletedUsers: r.count };
}
