/**
 * Fixtures of the Taobao import tests: a vendor and stores, a worker that drains the queue, and a
 * way to make jobs waiting for their backoff run now.
 */
import fs from "node:fs";
import path from "node:path";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import type { TestApp } from "../helpers/app";

export const DEMO_ITEM = "720394001000"; // 男 廓形 真丝 衬衫, three colours × five sizes
export const BROKEN = {
  missingFields: "799000000101",
  noSkus: "799000000102",
  zeroPrice: "799000000103",
  image404: "799000000104",
  notAnImage: "799000000105",
  corruptImage: "799000000106",
  badSkuProperty: "799000000107",
  flakyImage: "799000000108",
};

export async function seedStores(app: TestApp) {
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Import Vendor", handle: `import-vendor-${Date.now()}` } });
  const menswear = await db.store.create({ data: { name: "Import Menswear", handle: `import-menswear-${Date.now()}`, vendor_id: vendor.id, target_gender: "menswear", size_recommendation: "True to size." } });
  const other = await db.store.create({ data: { name: "Import Other", handle: `import-other-${Date.now()}`, vendor_id: vendor.id, target_gender: "both" } });
  return { vendor, menswear, other };
}

export function drain(app: TestApp) {
  return startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
}

/** Jobs waiting for their backoff become due now. */
export async function makeDue(app: TestApp) {
  await app.database.db.job.updateMany({ where: { status: "queued" }, data: { run_at: new Date(Date.now() - 1000) } });
}

/** Files under uploads/images/taobao. */
export function storedTaobaoFiles(app: TestApp): string[] {
  const dir = path.join(app.dataDir, "uploads", "images", "taobao");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}
