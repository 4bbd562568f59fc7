/**
 * Fixtures of the Taobao import tests: a vendor and stores, a worker that drains the queue, and a
 * way to make jobs waiting for their backoff run now.
 */
import fs from "node:fs";
import path from "node:path";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { IMAGE_PREWARM_QUEUE } from "../../app/services/image-prewarm.server";
import type { TestApp } from "../helpers/app";
import type { TaobaoItem } from "../../app/providers/taobao/port";

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

/**
 * Every handler but the image pre-warm: an import's images are sized 10 s after it (AVIF encodes
 * of every width), and a drain that ran into those on a loaded machine took long enough for a
 * retry's backoff to pass and the retry to run inside the same drain. The pre-warm has its own
 * tests (image-prewarm.test.ts).
 */
const importHandlers = Object.fromEntries(Object.entries(jobHandlers).filter(([queue]) => queue !== IMAGE_PREWARM_QUEUE));

export function drain(app: TestApp) {
  return startWorker(app.ctx, importHandlers, { autoStart: false }).drain();
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

const RUST = "28725"; // 铁锈红 (four SKUs: L to 3XL)
const FIRST_SKU = "5012000100001"; // 浅卡其 / M

/** The demo item as the shop changed it: no more rust, khaki M dearer, a new black colour in M and L. */
export function changedOnTaobao(item: TaobaoItem): TaobaoItem {
  const colour = item.skuProperties.find((p) => p.values.some((v) => v.vid === RUST))!;
  const size = item.skuProperties.find((p) => p !== colour)!;
  const black = { vid: "28341", name: "黑色", imageUrl: null };
  const sizeValue = (name: string) => size.values.find((v) => v.name === name)!;
  const newSku = (id: string, sizeName: string) => ({
    id,
    priceCny: 259,
    originalPriceCny: 429,
    quantity: 12,
    values: [
      { pid: colour.pid, vid: black.vid, property: colour.name, value: black.name },
      { pid: size.pid, vid: sizeValue(sizeName).vid, property: size.name, value: sizeName },
    ],
  });
  return {
    ...item,
    skuProperties: item.skuProperties.map((p) => (p === colour ? { ...p, values: [...p.values.filter((v) => v.vid !== RUST), black] } : p)),
    skus: [
      ...item.skus.filter((s) => !s.values.some((v) => v.vid === RUST)).map((s) => (s.id === FIRST_SKU ? { ...s, priceCny: 299 } : s)),
      newSku("5012000100901", "M"),
      newSku("5012000100902", "L"),
    ],
  };
}
