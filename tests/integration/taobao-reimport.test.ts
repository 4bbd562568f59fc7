/**
 * Re-importing an item whose SKUs changed on Taobao: the product imported before follows the
 * source (new SKUs added, prices updated, SKUs no longer sold removed with the option values
 * nobody uses), through the commerce port's variant reconcile, without a second product.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaobaoSourcePort } from "../../app/providers/taobao/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { DEMO_ITEM, changedOnTaobao, drain, seedStores } from "./taobao-fixtures";

let app: TestApp;
let admin: { token: string };
let stores: Awaited<ReturnType<typeof seedStores>>;
let original: TaobaoSourcePort;
const BASE = "/shopify/admin/products";

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.edit"] });
  stores = await seedStores(app);
  original = app.ctx.taobao;
});
afterAll(() => app?.close());

async function importOne() {
  const r = await app.api("POST", BASE, { token: admin.token, body: { store_id: stores.menswear.id, store_name: stores.menswear.name, taobao_product_id: DEMO_ITEM } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  await drain(app);
  return (await app.api("GET", `${BASE}/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
}

interface ShopperProduct {
  id: string;
  options: { name: string; values: string[] }[];
  variants: { id: string; price: { amount: string }; selectedOptions: { name: string; value: string }[] }[];
  priceRange: { minVariantPrice: { amount: string } };
}
const productOf = async () => (await app.api("GET", `/products/taobao-id/${DEMO_ITEM}`)).body as ShopperProduct;

describe("re-import after the item changed on Taobao", () => {
  let productId: string;
  let before: ShopperProduct;

  it("imports the item as it was", async () => {
    const j = await importOne();
    expect(j).toMatchObject({ status: "completed" });
    expect(j.result.action).toBe("created");
    productId = j.product_id;
    before = await productOf();
    expect(before.variants).toHaveLength(14); // rust has no M
    expect(before.options[0].values).toEqual(["Stone", "Sky Blue", "Rust"]);
  });

  it("follows the source: new SKUs added, a price updated, SKUs no longer sold removed, no duplicate", async () => {
    const productsBefore = await app.database.db.product.count();
    app.ctx.taobao = { ...original, getItem: async (id) => changedOnTaobao(await original.getItem(id)) };
    try {
      const j = await importOne();
      expect(j).toMatchObject({ status: "completed", product_id: productId });
      expect(j.result.action).toBe("updated");
      expect(j.result.notes).toEqual(expect.arrayContaining(["2 new SKUs added", "1 variant price updated from the source", "4 variants no longer sold on Taobao removed"]));
      expect(j.result.variants).toBe(12);
    } finally {
      app.ctx.taobao = original;
    }
    expect(await app.database.db.product.count()).toBe(productsBefore);
    expect(await app.database.db.productCompanion.count({ where: { taobao_id: DEMO_ITEM } })).toBe(1);

    const after = await productOf();
    expect(after.id).toBe(productId);
    expect(after.variants).toHaveLength(12);
    expect(after.options[0].values).toEqual(["Stone", "Sky Blue", "Black"]);
    expect(after.variants.some((v) => v.selectedOptions.some((o) => o.value === "Rust"))).toBe(false);
    // The kept variants keep their ids (orders, saved items and reviews point at them).
    const keptIds = before.variants.filter((v) => !v.selectedOptions.some((o) => o.value === "Rust")).map((v) => v.id);
    expect(after.variants.slice(0, 10).map((v) => v.id)).toEqual(keptIds);
    // 299 CNY × 0.14 × 2.5 = 104.65 → 104.99; 259 → 90.65 → 90.99.
    expect(after.variants[0].price.amount).toBe("104.99");
    const blacks = after.variants.filter((v) => v.selectedOptions.some((o) => o.value === "Black"));
    expect(blacks.map((v) => [v.selectedOptions.map((o) => o.value).join(" / "), v.price.amount])).toEqual([
      ["Black / M", "90.99"],
      ["Black / L", "90.99"],
    ]);
    expect(after.priceRange.minVariantPrice.amount).toBe("90.99");
    // The new variants carry their Taobao SKU ids like the others.
    const rows = await app.database.db.productVariant.findMany({ where: { product_id: productId }, select: { taobao_sku_id: true, sku: true, inventory_quantity: true } });
    expect(rows.filter((r) => r.taobao_sku_id?.startsWith("50120001009")).map((r) => [r.sku, r.inventory_quantity])).toEqual([
      [`TB-${DEMO_ITEM}-5012000100901`, 12],
      [`TB-${DEMO_ITEM}-5012000100902`, 12],
    ]);
  });

  it("a second re-import of the same source changes no variant", async () => {
    app.ctx.taobao = { ...original, getItem: async (id) => changedOnTaobao(await original.getItem(id)) };
    try {
      const j = await importOne();
      expect(j.result.action).toBe("updated");
      expect(j.result.notes.filter((n: string) => /SKU|price|removed/.test(n))).toEqual([]);
    } finally {
      app.ctx.taobao = original;
    }
    expect((await productOf()).variants).toHaveLength(12);
  });
});
