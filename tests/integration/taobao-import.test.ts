/**
 * Taobao import end to end on the local source (the demo catalogue): submission, the job with its
 * steps and progress, the product through the commerce port with its companion and proposed
 * variant images, re-import, every bad input of the issue, retries with backoff, retry one / page /
 * all / by message, error groups, search, status, and permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { TaobaoSourceError, type TaobaoSourcePort } from "../../app/providers/taobao/port";
import { DEMO_TAOBAO_CATALOGUE } from "../../app/providers/taobao/local.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { BROKEN, DEMO_ITEM, drain, makeDue, seedStores, storedTaobaoFiles } from "./taobao-fixtures";

let app: TestApp;
let admin: { token: string };
let stores: Awaited<ReturnType<typeof seedStores>>;
const BASE = "/shopify/admin/products";

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.edit"] });
  stores = await seedStores(app);
});
afterAll(() => app?.close());

const submit = (body: Record<string, unknown>) => app.api("POST", BASE, { token: admin.token, body: { store_id: stores.menswear.id, store_name: stores.menswear.name, ...body } });
const job = async (id: string) => (await app.api("GET", `${BASE}/import-jobs/${id}`, { token: admin.token })).body;
const productsOf = (taobaoId: string) => app.database.db.productCompanion.count({ where: { taobao_id: taobaoId } });

async function importOne(taobaoId: string) {
  const r = await submit({ taobao_product_id: taobaoId });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  await drain(app);
  return job(r.body.jobs[0].id);
}

/** Every stored import image is used by a product, a description or a proposal: nothing half-imported is left. */
async function expectNoOrphanImages() {
  const db = app.database.db;
  for (const f of storedTaobaoFiles(app)) {
    const url = `/uploads/images/taobao/${f}`;
    const used =
      (await db.productImage.count({ where: { url } })) + (await db.proposedVariantImage.count({ where: { proposed_image_url: url } })) + (await db.product.count({ where: { descriptionHtml: { contains: url } } }));
    expect(used, `${f} is not used by anything`).toBeGreaterThan(0);
  }
}

describe("importing an item", () => {
  let productId: string;

  it("submits a job that creates the product through the commerce port, with its companion and proposed variant images", async () => {
    const r = await submit({ taobao_product_id: DEMO_ITEM });
    expect(r.status).toBe(202);
    expect(r.body.jobs).toHaveLength(1);
    expect(r.body.jobs[0]).toMatchObject({ taobao_product_id: DEMO_ITEM, status: "queued", progress: 0, store_id: stores.menswear.id, store_name: "Import Menswear", max_attempts: 4 });
    expect(r.body.duplicates).toEqual([]);
    await drain(app);

    const j = await job(r.body.jobs[0].id);
    expect(j).toMatchObject({ status: "completed", progress: 100, attempts: 1, error_message: null, step: "propose" });
    expect(j.result).toMatchObject({ action: "created", title: "Boxy Silk Shirt", taobao_title: "2026春夏新款男廓形真丝衬衫 百搭", translation: "local", currency_rule: "CNY × 0.14 × 2.5, ending .99" });
    expect(j.result.variants).toBeGreaterThan(10);
    expect(j.result.duplicate_images).toBeGreaterThanOrEqual(1);
    expect(j.source_payload).toMatchObject({ id: DEMO_ITEM, title: "2026春夏新款男廓形真丝衬衫 百搭", priceCny: 269 });
    expect(j.product).toMatchObject({ title: "Boxy Silk Shirt", status: "active" });
    productId = j.product_id;

    // The product, as shoppers read it.
    const p = (await app.api("GET", `/products/taobao-id/${DEMO_ITEM}`)).body;
    expect(p).toMatchObject({ id: productId, title: "Boxy Silk Shirt", vendor: "Import Menswear", productType: "Shirts", target_gender: "menswear", storeId: stores.menswear.id });
    expect(p.options.map((o: { name: string }) => o.name)).toEqual(["Color", "Size"]);
    expect(p.options[0].values).toEqual(["Stone", "Sky Blue", "Rust"]);
    expect(p.options[1].values).toEqual(["M", "L", "XL", "XXL", "XXXL"]); // "2XL", "3XL" normalised
    // 269 CNY × 0.14 × 2.5 = 94.15 → 94.99; 2XL/3XL cost 10 CNY more → 97.99.
    expect(p.priceRange.minVariantPrice).toEqual({ amount: "94.99", currencyCode: "USD" });
    expect(p.priceRange.maxVariantPrice.amount).toBe("97.99");
    expect(p.variants[0].compareAtPrice.amount).toBe("153.99"); // orginal_price 439 CNY
    expect(p.variants.every((v: { colorHex: string | null }) => /^#[0-9a-f]{6}$/.test(v.colorHex ?? ""))).toBe(true);
    expect(p.images.length).toBe(j.result.images);
    expect(p.images.every((i: { url: string }) => i.url.startsWith("/uploads/images/taobao/"))).toBe(true);
    expect(new Set(p.images.map((i: { url: string }) => i.url)).size).toBe(p.images.length); // de-duplicated
    expect(p.descriptionHtml).toContain("Boxy Silk Shirt for men, in silk.");
    expect(p.descriptionHtml).toContain('<h4>Composition</h4><p>100% silk</p>');
    expect(p.descriptionHtml).toContain("<h4>Care</h4><p>Dry clean, do not machine wash</p>");

    // The companion keeps the Taobao origin and the original title.
    const c = (await app.api("GET", `/shopify/companion/taobao/${DEMO_ITEM}`, { token: admin.token })).body;
    expect(c).toMatchObject({ shopify_product_id: productId, taobao_id: DEMO_ITEM, taobao_title: "2026春夏新款男廓形真丝衬衫 百搭", taobao_url: `https://item.taobao.com/item.htm?id=${DEMO_ITEM}`, status: "active", tryon_active: true });
    expect(c.material_sections).toEqual([
      { title: "Composition", content: "100% silk" },
      { title: "Care", content: "Dry clean, do not machine wash" },
      { title: "Fit", content: "True to size." },
    ]);
    expect((await app.api("GET", `/shopify/companion/check-imported/${DEMO_ITEM}`, { token: admin.token })).body).toBe(true);

    // Taobao SKU ids on the variants; each colour's SKU image proposed for its variants.
    const variants = await app.database.db.productVariant.findMany({ where: { product_id: productId } });
    expect(variants.every((v) => /^\d{13}$/.test(v.taobao_sku_id ?? "") && v.sku === `TB-${DEMO_ITEM}-${v.taobao_sku_id}`)).toBe(true);
    const proposals = await app.database.db.proposedVariantImage.findMany({ where: { product_id: productId } });
    expect(proposals).toHaveLength(variants.length);
    expect(proposals.every((x) => x.source === "taobao" && x.status === "pending" && x.proposed_image_url.startsWith("/uploads/images/taobao/"))).toBe(true);
    expect(new Set(proposals.map((x) => x.proposed_image_url)).size).toBe(3); // one per colour
  });

  it("re-importing the same item updates that product instead of duplicating it", async () => {
    const before = await app.database.db.product.count();
    const j = await importOne(DEMO_ITEM);
    expect(j).toMatchObject({ status: "completed", product_id: productId });
    expect(j.result.action).toBe("updated");
    expect(await app.database.db.product.count()).toBe(before);
    expect(await productsOf(DEMO_ITEM)).toBe(1);
    // No second proposal of the same image.
    const proposals = await app.database.db.proposedVariantImage.count({ where: { product_id: productId } });
    const variants = await app.database.db.productVariant.count({ where: { product_id: productId } });
    expect(proposals).toBe(variants);
    // An admin's stock change is brought back in line with the source.
    const v = await app.database.db.productVariant.findFirstOrThrow({ where: { product_id: productId }, orderBy: { position: "asc" } });
    await app.database.db.productVariant.update({ where: { id: v.id }, data: { inventory_quantity: 1 } });
    const again = await importOne(DEMO_ITEM);
    expect(again.result.notes).toContain("Stock updated on 1 variant");
    expect((await app.database.db.productVariant.findUniqueOrThrow({ where: { id: v.id } })).inventory_quantity).not.toBe(1);
  });

  it("imports a list given as text, reporting ids given twice", async () => {
    const ids = DEMO_TAOBAO_CATALOGUE.items.slice(1, 3).map((i) => String(i.num_iid));
    const r = await submit({ taobao_product_id: `${ids[0]}, ${ids[1]}\nhttps://item.taobao.com/item.htm?id=${ids[0]}` });
    expect(r.status).toBe(202);
    expect(r.body.jobs.map((j: { taobao_product_id: string }) => j.taobao_product_id)).toEqual(ids);
    expect(r.body.duplicates).toEqual([ids[0]]);
    const status = await app.api("GET", `${BASE}/import-status`, { token: admin.token, query: { batch_id: r.body.batch_id } });
    expect(status.body).toMatchObject({ total: 2, counts: { queued: 2 }, done: false });
    await drain(app);
    const after = await app.api("GET", `${BASE}/import-status`, { token: admin.token, query: { batch_id: r.body.batch_id } });
    expect(after.body).toMatchObject({ total: 2, counts: { completed: 2, failed: 0 }, progress: 100, done: true });
    for (const id of ids) expect(await productsOf(id)).toBe(1);
  });

  it("imports a page of a shop", async () => {
    const shop = DEMO_TAOBAO_CATALOGUE.shops[3];
    const items = DEMO_TAOBAO_CATALOGUE.items.filter((i) => i.shop_id === shop.shop_id && !(String(i.num_iid) in DEMO_TAOBAO_CATALOGUE.broken));
    const r = await submit({ taobao_product_id: `https://shop${shop.shop_id}.taobao.com`, page: 1 });
    expect(r.status).toBe(202);
    expect(r.body.shop).toMatchObject({ shop_id: shop.shop_id, shop_name: shop.shop_title, page: 1, total: items.length });
    expect(r.body.jobs.length).toBe(Math.min(10, items.length));
    expect(r.body.jobs.every((j: { page: number }) => j.page === 1)).toBe(true);
    const gone = await submit({ taobao_product_id: "shop:999999" });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe("Taobao shop 999999 was not found");
    const empty = await submit({ taobao_product_id: `shop:${shop.shop_id}`, page: 50 });
    expect(empty.status).toBe(400);
    await app.database.db.importJob.deleteMany({ where: { batch_id: r.body.batch_id } });
    await app.database.db.job.deleteMany({ where: { queue: "taobao.import", status: "queued" } });
  });
});

describe("bad input: each gets a clear error on its job, and nothing half-created stays", () => {
  const cases: [string, string, string][] = [
    ["unknown item id", "720000000999", "The Taobao item was not found"],
    ["missing fields", BROKEN.missingFields, "The Taobao item is incomplete: missing title, pic_url"],
    ["an item without SKUs", BROKEN.noSkus, "The Taobao item has no SKUs: there is nothing to sell"],
    ["a price of zero", BROKEN.zeroPrice, "The Taobao item has a price of zero"],
    ["an image that fails to download", BROKEN.image404, "An image of the item could not be downloaded (HTTP 404)"],
    ["an image that is not an image", BROKEN.notAnImage, "An image of the item is not an image (text/html)"],
    ["a damaged image", BROKEN.corruptImage, "An image of the item could not be read (a damaged JPEG file)"],
    ["a SKU naming an unknown property", BROKEN.badSkuProperty, "The Taobao item is incomplete: a SKU names a property value that props_list does not describe"],
  ];
  it.each(cases)("%s", async (_what, id, message) => {
    const productsBefore = await app.database.db.product.count();
    const j = await importOne(id);
    expect(j).toMatchObject({ status: "failed", error_message: message, attempts: 1 });
    expect(j.completed_at).not.toBeNull();
    expect(j.product_id).toBeNull();
    expect(await app.database.db.product.count()).toBe(productsBefore);
    expect(await productsOf(id)).toBe(0);
    // Bad input is not retried by the queue.
    expect(await app.database.db.job.count({ where: { queue: "taobao.import", status: "queued" } })).toBe(0);
    await expectNoOrphanImages();
  });

  it("a store that does not exist", async () => {
    const r = await app.api("POST", BASE, { token: admin.token, body: { taobao_product_id: DEMO_TAOBAO_CATALOGUE.items[5].num_iid, store_id: "no-such-store", store_name: "Nowhere Boutique" } });
    expect(r.status).toBe(202);
    expect(r.body.jobs[0]).toMatchObject({ status: "failed", error_message: "Target store not found", store_id: null, store_name: "Nowhere Boutique" });
    expect(await app.database.db.job.count({ where: { queue: "taobao.import", status: "queued" } })).toBe(0);
    // Once a store of that name exists, a retry imports into it.
    const created = await app.database.db.store.create({ data: { name: "Nowhere Boutique", handle: `nowhere-${Date.now()}`, vendor_id: stores.vendor.id } });
    const retried = await app.api("POST", `${BASE}/import-jobs/retry/${r.body.jobs[0].id}`, { token: admin.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: "queued", attempts: 0, error_message: null });
    await drain(app);
    const j = await job(r.body.jobs[0].id);
    expect(j.status).toBe("completed");
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: j.product_id } })).store_id).toBe(created.id);
  });

  it("a duplicate submission while the item is being imported", async () => {
    const id = String(DEMO_TAOBAO_CATALOGUE.items[6].num_iid);
    const first = await submit({ taobao_product_id: id });
    const second = await submit({ taobao_product_id: id });
    expect(second.status).toBe(202);
    expect(second.body.jobs[0]).toMatchObject({ status: "failed", error_message: "This Taobao item is already being imported by another job" });
    expect(second.body.jobs[0].result.detail).toBe(`import job ${first.body.jobs[0].id}`);
    await drain(app);
    expect((await job(first.body.jobs[0].id)).status).toBe("completed");
    expect(await productsOf(id)).toBe(1);
  });

  it("the store refusing the product", async () => {
    const original = app.ctx.commerce;
    app.ctx.commerce = { ...original, createProduct: async () => Promise.reject(new CommerceError("Product could not be created", [{ field: ["title"], message: "Title is too long" }], 422)) } as CommercePort;
    try {
      const id = String(DEMO_TAOBAO_CATALOGUE.items[7].num_iid);
      const j = await importOne(id);
      expect(j).toMatchObject({ status: "failed", step: "create", error_message: "The store refused the product: Title is too long" });
      expect(await productsOf(id)).toBe(0);
    } finally {
      app.ctx.commerce = original;
    }
    await expectNoOrphanImages();
  });

  it("a failure after the store created the product deletes it again (whole or not at all)", async () => {
    const db = app.database.db;
    const id = String(DEMO_TAOBAO_CATALOGUE.items[8].num_iid);
    // Another product claims the item while this job creates its own (a concurrent import): the companion cannot be written.
    await db.product.create({ data: { id: "gid://shopify/Product/990001", title: "Concurrent", handle: "concurrent-990001" } });
    const original = app.ctx.commerce;
    let created: string | null = null;
    app.ctx.commerce = {
      ...original,
      createProduct: async (input) => {
        const s = await original.createProduct(input);
        created = s.id;
        await db.productCompanion.create({ data: { shopify_product_id: "gid://shopify/Product/990001", taobao_id: id } });
        return s;
      },
    } as CommercePort;
    const productsBefore = await db.product.count();
    let j;
    try {
      j = await importOne(id);
    } finally {
      app.ctx.commerce = original;
    }
    expect(created).not.toBeNull();
    expect(await db.product.findUnique({ where: { id: created! } })).toBeNull();
    expect(await original.getProduct(created!)).toBeNull();
    expect(await db.product.count()).toBe(productsBefore);
    // Worth another attempt (it updates the product that won).
    expect(j).toMatchObject({ status: "queued", step: "create", error_message: "Another job imported this item at the same time; the next attempt updates it" });
    expect(j.retry_at).not.toBeNull();
    await expectNoOrphanImages();
    await makeDue(app);
    await drain(app);
    const after = await job(j.id);
    expect(after).toMatchObject({ status: "completed", attempts: 2, product_id: "gid://shopify/Product/990001" });
    expect(after.result.action).toBe("updated");
  });
});

describe("retries with backoff", () => {
  it("an image failing twice with 503 is retried by the queue and imports on the third attempt", async () => {
    const r = await submit({ taobao_product_id: BROKEN.flakyImage });
    await drain(app);
    let j = await job(r.body.jobs[0].id);
    expect(j).toMatchObject({ status: "queued", attempts: 1, step: "images", error_message: "An image of the item could not be downloaded (HTTP 503)" });
    const queued = await app.database.db.job.findFirstOrThrow({ where: { queue: "taobao.import", status: "queued" } });
    // Backoff: the queue runs it again in 2 s, then 4 s…
    expect(queued.run_at.getTime()).toBeGreaterThan(Date.now() + 500);
    expect(new Date(j.retry_at).getTime()).toBe(queued.run_at.getTime());
    expect(await drain(app)).toBe(0); // not due yet
    await makeDue(app);
    await drain(app);
    j = await job(r.body.jobs[0].id);
    expect(j).toMatchObject({ status: "queued", attempts: 2 });
    await makeDue(app);
    await drain(app);
    j = await job(r.body.jobs[0].id);
    expect(j).toMatchObject({ status: "completed", attempts: 3, error_message: null });
    expect(await productsOf(BROKEN.flakyImage)).toBe(1);
  });

  it("a source that stays down fails the job after TAOBAO_IMPORT_ATTEMPTS runs", async () => {
    const original = app.ctx.taobao;
    const down: TaobaoSourcePort = { ...original, getItem: async () => Promise.reject(new TaobaoSourceError("unavailable", "The Taobao item API did not answer within 10000 ms")) };
    app.ctx.taobao = down;
    try {
      const r = await submit({ taobao_product_id: "720394099999" });
      for (let i = 1; i <= 4; i++) {
        await makeDue(app);
        await drain(app);
        const j = await job(r.body.jobs[0].id);
        expect(j.attempts).toBe(i);
        expect(j.status).toBe(i < 4 ? "queued" : "failed");
        expect(j.error_message).toBe("The Taobao item API did not answer within 10000 ms");
      }
      const queueJob = await app.database.db.job.findFirstOrThrow({ where: { dedupe_key: `taobao.import:${r.body.jobs[0].id}` } });
      expect(queueJob).toMatchObject({ status: "failed", attempts: 4 });
    } finally {
      app.ctx.taobao = original;
    }
  });
});

describe("error groups, search and retries", () => {
  it("groups failed jobs by error message with counts", async () => {
    await importOne("720000000998"); // a second unknown id
    const r = await app.api("GET", `${BASE}/import-jobs/error-messages`, { token: admin.token });
    expect(r.status).toBe(200);
    const notFound = r.body.groups.find((g: { message: string }) => g.message === "The Taobao item was not found");
    expect(notFound).toMatchObject({ count: 2, step: "fetch" });
    expect(r.body.groups[0].count).toBeGreaterThanOrEqual(r.body.groups[r.body.groups.length - 1].count);
    expect(r.body.total).toBe(r.body.groups.reduce((n: number, g: { count: number }) => n + g.count, 0));
    const byStore = await app.api("GET", `${BASE}/import-jobs/error-messages`, { token: admin.token, query: { store_id: stores.other.id } });
    expect(byStore.body).toEqual({ groups: [], total: 0 });
  });

  it("retries the jobs of one error message", async () => {
    const r = await app.api("POST", `${BASE}/import-jobs/retry-by-message`, { token: admin.token, body: { message: "The Taobao item was not found" } });
    expect(r.status).toBe(200);
    expect(r.body.retried).toBe(2);
    const rows = await app.database.db.importJob.findMany({ where: { id: { in: r.body.jobIds } } });
    expect(rows.every((x) => x.status === "queued" && x.attempts === 0 && x.error_message === null)).toBe(true);
    await drain(app);
    const again = await app.database.db.importJob.findMany({ where: { id: { in: r.body.jobIds } } });
    expect(again.every((x) => x.status === "failed" && x.error_message === "The Taobao item was not found")).toBe(true);
    expect((await app.api("POST", `${BASE}/import-jobs/retry-by-message`, { token: admin.token, body: { message: "no such message" } })).body).toEqual({ retried: 0, jobIds: [] });
    expect((await app.api("POST", `${BASE}/import-jobs/retry-by-message`, { token: admin.token, body: {} })).status).toBe(400);
  });

  it("retries one job: 404 when unknown, 409 when not failed", async () => {
    expect((await app.api("POST", `${BASE}/import-jobs/retry/no-such-job`, { token: admin.token })).status).toBe(404);
    const done = await app.database.db.importJob.findFirstOrThrow({ where: { status: "completed" } });
    const r = await app.api("POST", `${BASE}/import-jobs/retry/${done.id}`, { token: admin.token });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe("Only failed import jobs can be retried (this one is completed)");
    expect((await app.api("GET", `${BASE}/import-jobs/no-such-job`, { token: admin.token })).body.error.message).toBe("Import job not found");
  });

  it("searches jobs by status, text and store, with pages and counts", async () => {
    const failed = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { status: "failed", limit: 3 } });
    expect(failed.status).toBe(200);
    expect(failed.body.jobs).toHaveLength(3);
    expect(failed.body.jobs.every((j: { status: string }) => j.status === "failed")).toBe(true);
    expect(failed.body.total).toBe(failed.body.counts.failed);
    expect(failed.body.pageCount).toBe(Math.ceil(failed.body.total / 3));
    const page2 = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { status: "failed", limit: 3, page: 2 } });
    expect(page2.body.jobs[0].id).not.toBe(failed.body.jobs[0].id);
    const byId = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { text: DEMO_ITEM } });
    expect(byId.body.jobs.length).toBeGreaterThanOrEqual(3);
    expect(byId.body.jobs.every((j: { taobao_product_id: string }) => j.taobao_product_id === DEMO_ITEM)).toBe(true);
    const byTitle = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { text: "boxy silk" } });
    expect(byTitle.body.jobs.length).toBeGreaterThanOrEqual(1);
    const byMessage = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { text: "price of zero" } });
    expect(byMessage.body.jobs.map((j: { taobao_product_id: string }) => j.taobao_product_id)).toEqual([BROKEN.zeroPrice]);
    const byStore = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { store_id: stores.other.id } });
    expect(byStore.body).toMatchObject({ jobs: [], total: 0 });
    const bad = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { status: "exploded" } });
    expect(bad.status).toBe(400);
  });

  it("retries the failed jobs of one page of a search", async () => {
    const page = await app.api("GET", `${BASE}/import-jobs/search`, { token: admin.token, query: { status: "failed", limit: 2 } });
    const r = await app.api("POST", `${BASE}/import-jobs/retry-page`, { token: admin.token, body: { status: "failed", page: 1, limit: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.retried).toBe(2);
    expect(r.body.jobIds.sort()).toEqual(page.body.jobs.map((j: { id: string }) => j.id).sort());
    await drain(app);
  });

  it("retries every failed job", async () => {
    const failedBefore = await app.database.db.importJob.count({ where: { status: "failed" } });
    expect(failedBefore).toBeGreaterThan(5);
    // The duplicate submission and the refused product import now (their causes are gone).
    const fixable = await app.database.db.importJob.count({
      where: { status: "failed", error_message: { in: ["This Taobao item is already being imported by another job", "The store refused the product: Title is too long"] } },
    });
    expect(fixable).toBe(2);
    const r = await app.api("POST", `${BASE}/import-jobs/retry-all`, { token: admin.token, body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ retried: failedBefore, remaining: 0 });
    expect(await app.database.db.importJob.count({ where: { status: "failed" } })).toBe(0);
    await drain(app);
    // Bad input fails again, each with its message.
    expect(await app.database.db.importJob.count({ where: { status: "failed" } })).toBe(failedBefore - fixable);
    const status = await app.api("GET", `${BASE}/import-status`, { token: admin.token });
    expect(status.body.done).toBe(true);
    expect(status.body.counts.failed).toBe(failedBefore - fixable);
    await expectNoOrphanImages();
  });
});

describe("validation and permissions", () => {
  it("refuses what is not an id, an item URL or a shop, lists over 100, and a missing store", async () => {
    const bad = await submit({ taobao_product_id: "123abc, https://example.com/item?id=5" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("Not a Taobao item id, item URL or shop: 123abc, https://example.com/item?id=5");
    const many = await submit({ taobao_product_id: Array.from({ length: 101 }, (_, i) => String(720000000000 + i)) });
    expect(many.status).toBe(400);
    const noStore = await app.api("POST", BASE, { token: admin.token, body: { taobao_product_id: DEMO_ITEM } });
    expect(noStore.status).toBe(400);
    expect(noStore.body.error.message).toBe("store_id or store_name is required");
    const empty = await submit({ taobao_product_id: "" });
    expect(empty.status).toBe(400);
  });

  it("needs catalog.import: 401 anonymous, 403 for shoppers and admins without it", async () => {
    const editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
    const shopper = await app.createUser();
    const calls: [string, string, unknown?][] = [
      ["POST", BASE, { taobao_product_id: DEMO_ITEM, store_id: stores.menswear.id }],
      ["GET", `${BASE}/import-status`],
      ["GET", `${BASE}/import-jobs/search`],
      ["GET", `${BASE}/import-jobs/x`],
      ["GET", `${BASE}/import-jobs/error-messages`],
      ["POST", `${BASE}/import-jobs/retry/x`],
      ["POST", `${BASE}/import-jobs/retry-page`, {}],
      ["POST", `${BASE}/import-jobs/retry-all`, {}],
      ["POST", `${BASE}/import-jobs/retry-by-message`, { message: "x" }],
    ];
    for (const [method, path, body] of calls) {
      expect((await app.api(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401);
      expect((await app.api(method, path, { body, token: shopper.token })).status, `${method} ${path} shopper`).toBe(403);
      const r = await app.api(method, path, { body, token: editor.token });
      expect(r.status, `${method} ${path} admin without catalog.import`).toBe(403);
      expect(r.body.error.code).toBe("forbidden");
    }
  });
});
