/**
 * Customers' data exports (Shopify's customers/data_request webhook). An export holds everything
 * the app keeps about a customer, so it is written to private storage (ctx.privateStorage, never
 * under /uploads) under a random name, listed and downloaded only by admins with
 * `privacy.manage`, and deleted once it expires (PRIVACY_EXPORT_TTL_DAYS): by the sweep at start
 * and every `privacy.sweep-exports` job, and at the latest when someone asks for it afterwards.
 *
 * Installs that ran an earlier version wrote exports to `uploads/privacy/data-requests/<id>.json`,
 * served publicly with Shopify's sequential ids: `moveLegacyPublicExports` (at start) moves them
 * here and deletes the public copies.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { PrivacyDataRequest } from "@prisma/client";
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { JobQueue } from "~/jobs/queue.server";
import type { Logger } from "~/lib/logger.server";
import { notFoundError } from "~/lib/domain-errors";
import type { PrivateStoragePort } from "~/providers/private-storage.server";
import { uploadsDir } from "~/providers/storage.server";

/** How long an export can be downloaded before it is deleted. */
export const PRIVACY_EXPORT_TTL_DAYS = 30;
export const PRIVACY_SWEEP_QUEUE = "privacy.sweep-exports";
const DAY_MS = 86_400_000;
/** Where earlier versions wrote exports, inside the public uploads folder. */
const LEGACY_PUBLIC_PREFIX = path.join("privacy", "data-requests");

export interface PrivacyDeps {
  db: Db;
  privateStorage: PrivateStoragePort;
  queue?: Pick<JobQueue, "enqueue">;
  log?: Pick<Logger, "info" | "warn">;
}

interface PrivacyCustomer {
  id?: number | string | null;
  email?: string | null;
}

export interface DataRequestPayload {
  customer?: PrivacyCustomer;
  data_request?: { id?: number | string };
}

export function customerWhere(customer: PrivacyCustomer) {
  const or: { shopify_customer_id?: string; email?: string }[] = [];
  if (customer.id !== undefined && customer.id !== null) or.push({ shopify_customer_id: String(customer.id) });
  if (customer.email) or.push({ email: customer.email.toLowerCase() });
  return or.length ? { OR: or } : null;
}

const exportKey = () => `data-requests/${crypto.randomUUID()}.json`;

async function gatherCustomerData(db: Db, customer: PrivacyCustomer | undefined) {
  const where = customer ? customerWhere(customer) : null;
  if (!where) return [];
  return db.user.findMany({
    where,
    select: {
      id: true, email: true, first_name: true, last_name: true, phone_number: true, created_at: true, metadata: true,
      saved_products: { select: { product_id: true, createdAt: true } },
      favorite_stores: { select: { store_id: true } },
      reviews: { select: { product_id: true, rating: true, body: true, created_at: true } },
      orders: { select: { id: true, name: true, created_at: true } },
    },
  });
}

/** customers/data_request: writes the export privately and records it for the admins' list. */
export async function recordCustomerDataRequest(deps: PrivacyDeps, shop: string, payload: DataRequestPayload, now = new Date()) {
  const users = await gatherCustomerData(deps.db, payload.customer);
  const body = new TextEncoder().encode(JSON.stringify({ requestedAt: now.toISOString(), shop, dataRequestId: payload.data_request?.id ?? null, customer: payload.customer ?? null, users }, null, 2));
  const key = exportKey();
  await deps.privateStorage.put(key, body, "application/json");
  const expiresAt = new Date(now.getTime() + PRIVACY_EXPORT_TTL_DAYS * DAY_MS);
  try {
    const row = await deps.db.privacyDataRequest.create({
      data: {
        shop,
        shopify_request_id: payload.data_request?.id === undefined ? null : String(payload.data_request.id),
        customer_id: payload.customer?.id === undefined || payload.customer?.id === null ? null : String(payload.customer.id),
        customer_email: payload.customer?.email?.toLowerCase() ?? null,
        storage_key: key,
        users_found: users.length,
        size_bytes: body.byteLength,
        created_at: now,
        expires_at: expiresAt,
      },
    });
    await scheduleSweep(deps, expiresAt);
    return row;
  } catch (e) {
    await deps.privateStorage.delete(key).catch(() => undefined);
    throw e;
  }
}

async function scheduleSweep(deps: PrivacyDeps, at: Date) {
  if (!deps.queue) return;
  // One waiting sweep job at a time (dedupeKey), brought forward when this expiry comes first;
  // each sweep schedules the next expiry.
  const job = await deps.queue.enqueue(PRIVACY_SWEEP_QUEUE, {}, { runAt: at, dedupeKey: PRIVACY_SWEEP_QUEUE, maxAttempts: 3 });
  await deps.db.job.updateMany({ where: { id: job.id, status: "queued", run_at: { gt: at } }, data: { run_at: at } });
}

/** Deletes the files of expired exports and marks them expired; schedules the next sweep. */
export async function sweepExpiredDataExports(deps: PrivacyDeps, now = new Date()): Promise<{ expired: number }> {
  const due = await deps.db.privacyDataRequest.findMany({ where: { status: "ready", expires_at: { lte: now } }, select: { id: true, storage_key: true } });
  for (const r of due) {
    if (r.storage_key) await deps.privateStorage.delete(r.storage_key);
    await deps.db.privacyDataRequest.update({ where: { id: r.id }, data: { status: "expired", storage_key: null, expired_at: now } });
  }
  const next = await deps.db.privacyDataRequest.findFirst({ where: { status: "ready" }, orderBy: { expires_at: "asc" }, select: { expires_at: true } });
  if (next) await scheduleSweep(deps, next.expires_at);
  if (due.length) deps.log?.info({ expired: due.length }, "expired customer data exports deleted");
  return { expired: due.length };
}

/** Deletes the exports about a customer (customers/redact) or of a shop (shop/redact), files and rows. */
export async function deleteCustomerDataExports(deps: PrivacyDeps, by: { customer?: PrivacyCustomer; shop?: string }): Promise<number> {
  const or: { customer_id?: string; customer_email?: string; shop?: string }[] = [];
  if (by.customer?.id !== undefined && by.customer.id !== null) or.push({ customer_id: String(by.customer.id) });
  if (by.customer?.email) or.push({ customer_email: by.customer.email.toLowerCase() });
  if (by.shop) or.push({ shop: by.shop });
  if (!or.length) return 0;
  const rows = await deps.db.privacyDataRequest.findMany({ where: { OR: or }, select: { id: true, storage_key: true } });
  for (const r of rows) if (r.storage_key) await deps.privateStorage.delete(r.storage_key);
  await deps.db.privacyDataRequest.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
  return rows.length;
}

export function toDataRequestDto(r: PrivacyDataRequest) {
  return {
    id: r.id,
    shop: r.shop,
    shopify_request_id: r.shopify_request_id,
    customer_id: r.customer_id,
    customer_email: r.customer_email,
    status: r.status,
    users_found: r.users_found,
    size_bytes: r.size_bytes,
    created_at: r.created_at,
    expires_at: r.expires_at,
    downloaded_at: r.downloaded_at,
    expired_at: r.expired_at,
  };
}

/** Every data request, newest first (expired ones stay listed, without their file). */
export async function listDataRequests(deps: PrivacyDeps, opts: { status?: "ready" | "expired"; take?: number } = {}, now = new Date()) {
  await sweepExpiredDataExports(deps, now);
  const rows = await deps.db.privacyDataRequest.findMany({ where: opts.status ? { status: opts.status } : {}, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: opts.take ?? 100 });
  return rows.map(toDataRequestDto);
}

/** The export's bytes for an authorised admin: 404 when unknown, and once it has expired. */
export async function readDataRequestExport(deps: PrivacyDeps, id: string, now = new Date()) {
  const row = await deps.db.privacyDataRequest.findUnique({ where: { id } });
  if (!row) throw notFoundError("Data request not found");
  if (row.status === "expired" || row.expires_at.getTime() <= now.getTime() || !row.storage_key) {
    await sweepExpiredDataExports(deps, now);
    throw notFoundError(`This data export expired on ${row.expires_at.toISOString().slice(0, 10)} and was deleted`);
  }
  const bytes = await deps.privateStorage.get(row.storage_key);
  if (!bytes) throw notFoundError("The file of this data export is missing");
  await deps.db.privacyDataRequest.update({ where: { id }, data: { downloaded_at: now } });
  const filename = `data-request-${(row.shopify_request_id ?? row.id).replace(/[^A-Za-z0-9_-]/g, "_")}.json`;
  return { bytes, filename };
}

/**
 * Moves exports an earlier version left under the public uploads folder into private storage
 * (recorded, expiring PRIVACY_EXPORT_TTL_DAYS after they were written; already expired ones are
 * only deleted) and removes the public copies and their folders.
 */
export async function moveLegacyPublicExports(deps: PrivacyDeps & { config: Pick<AppConfig, "DATA_DIR"> }, now = new Date()): Promise<{ moved: number; deleted: number }> {
  const dir = path.join(uploadsDir(deps.config), LEGACY_PUBLIC_PREFIX);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return { moved: 0, deleted: 0 };
  }
  let moved = 0;
  let deleted = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) continue;
    const expiresAt = new Date(stat.mtime.getTime() + PRIVACY_EXPORT_TTL_DAYS * DAY_MS);
    if (name.endsWith(".json") && expiresAt.getTime() > now.getTime()) {
      const body = new Uint8Array(await fs.readFile(file));
      const key = exportKey();
      await deps.privateStorage.put(key, body, "application/json");
      await deps.db.privacyDataRequest.create({
        data: { shop: "unknown (moved from public uploads)", shopify_request_id: name.replace(/\.json$/, ""), storage_key: key, size_bytes: body.byteLength, created_at: stat.mtime, expires_at: expiresAt },
      });
      moved++;
    } else deleted++;
    await fs.rm(file, { force: true });
  }
  // The folders go too when nothing else is in them.
  await fs.rmdir(dir).catch(() => undefined);
  await fs.rmdir(path.dirname(dir)).catch(() => undefined);
  if (moved || deleted) deps.log?.warn({ moved, deleted }, "customer data exports moved out of the public uploads folder");
  if (moved) await sweepExpiredDataExports(deps, now);
  return { moved, deleted };
}
