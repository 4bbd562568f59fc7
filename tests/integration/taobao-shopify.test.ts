/**
 * A Taobao import through the Shopify commerce adapter, against the local Admin GraphQL server
 * (tests/fixtures/shopify/fake-admin-server.ts validates every document and its variables against
 * the real 2026-10 schema). The import creates with productSet, cleans up with productDelete and,
 * on a re-import, reconciles variants with productVariantsBulkCreate / BulkUpdate / BulkDelete;
 * this checks what it sends through them, that the product reaches the read model before its
 * companion, the clean-up of a failed creation, and a re-import after the item changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import type { CommercePort } from "../../app/providers/commerce/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { DEMO_ITEM, changedOnTaobao, drain, seedStores } from "./taobao-fixtures";
import { DEMO_TAOBAO_CATALOGUE } from "../../app/providers/taobao/local.server";

let fake: FakeShopify;
let app: TestApp;
let admin: { token: string };
let stores: Awaited<ReturnType<typeof seedStores>>;
let shopify: CommercePort;
let seq = 8000;
/** What the fake shop holds: products by id, as Shopify would answer them. */
const shop = new Map<string, ReturnType<typeof productFrom>>();

/** The product Shopify would answer for a productSet input. */
function productFrom(input: Record<string, any>) {
  const id = ++seq;
  const now = new Date().toISOString();
  return {
    id: `gid://shopify/Product/${id}`,
    title: input.title,
    handle: input.handle,
    vendor: input.vendor,
    productType: input.productType,
    description: "",
    descriptionHtml: input.descriptionHtml,
    status: input.status,
    tags: input.tags,
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
    priceRangeV2: { minVariantPrice: { currencyCode: "USD" } },
    targetGender: { value: input.metafields[0].value },
    options: (input.productOptions ?? []).map((o: any, i: number) => ({ id: `gid://shopify/ProductOption/${id}${i}`, name: o.name, position: o.position, optionValues: o.values.map((v: any, j: number) => ({ id: `gid://shopify/ProductOptionValue/${id}${i}${j}`, name: v.name })) })),
    media: { nodes: (input.files ?? []).map((f: any, i: number) => ({ id: `gid://shopify/MediaImage/${id}${i}`, mediaContentType: "IMAGE", image: { url: f.originalSource, altText: f.alt, width: 750, height: 1000 } })) },
    variants: { nodes: (input.variants ?? []).map((v: any, i: number) => variantFrom(v, `gid://shopify/ProductVariant/${id}${String(i).padStart(3, "0")}`, i + 1)) },
  };
}

function variantFrom(v: Record<string, any>, id: string, position: number) {
  return {
    id,
    title: v.optionValues.map((o: any) => o.name).join(" / "),
    sku: v.sku ?? "",
    price: v.price,
    compareAtPrice: v.compareAtPrice,
    availableForSale: v.inventoryQuantities[0].quantity > 0,
    inventoryQuantity: v.inventoryQuantities[0].quantity,
    position,
    selectedOptions: v.optionValues.map((o: any) => ({ name: o.optionName, value: o.name })),
    colorHex: v.metafields ? { value: v.metafields[0].value } : null,
    media: { nodes: [] },
  };
}

beforeAll(async () => {
  fake = await startFakeShopify();
  app = await createTestApp({ env: { APP_URL: "https://fashion.example.test" } });
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] });
  stores = await seedStores(app);
  shopify = createShopifyCommerce({ shop: fake.shop, apiVersion: async () => "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => {} });
  app.ctx.commerce = shopify;
  fake.on("InventoryLocations", { locations: { nodes: [{ id: "gid://shopify/Location/2", name: "Warehouse", isActive: true, shipsInventory: true, fulfillsOnlineOrders: true }] } });
  fake.on("ProductSet", (v) => {
    const product = productFrom(v.input);
    shop.set(product.id, product);
    return { data: { productSet: { product, userErrors: [] } } };
  });
  fake.on("ProductDelete", (v) => {
    shop.delete(v.id);
    return { data: { productDelete: { deletedProductId: v.id, userErrors: [] } } };
  });
  fake.on("ProductGet", (v) => ({ data: { product: shop.get(v.id) ?? null } }));
  fake.on("ProductUpdate", (v) => {
    const p = shop.get(v.product.id)!;
    for (const k of ["title", "vendor", "productType", "descriptionHtml", "tags"]) if (v.product[k] !== undefined) (p as Record<string, unknown>)[k] = v.product[k];
    return { data: { productUpdate: { product: p, userErrors: [] } } };
  });
  fake.on("ProductVariantsCreate", (v) => {
    const p = shop.get(v.productId)!;
    for (const input of v.variants) {
      for (const ov of input.optionValues) {
        const option = p.options.find((o: { name: string }) => o.name === ov.optionName)!;
        if (!option.optionValues.some((x: { name: string }) => x.name === ov.name)) option.optionValues.push({ id: `gid://shopify/ProductOptionValue/${++seq}`, name: ov.name });
      }
      p.variants.nodes.push(variantFrom({ ...input, sku: input.inventoryItem?.sku, inventoryQuantities: [{ quantity: input.inventoryQuantities[0].availableQuantity }] }, `gid://shopify/ProductVariant/${++seq}`, p.variants.nodes.length + 1));
    }
    return { data: { productVariantsBulkCreate: { productVariants: [], userErrors: [] } } };
  });
  fake.on("ProductVariantsUpdate", (v) => {
    const p = shop.get(v.productId)!;
    for (const u of v.variants) Object.assign(p.variants.nodes.find((x: { id: string }) => x.id === u.id)!, { price: u.price, compareAtPrice: u.compareAtPrice });
    return { data: { productVariantsBulkUpdate: { productVariants: [], userErrors: [] } } };
  });
  fake.on("ProductVariantsDelete", (v) => {
    const p = shop.get(v.productId)!;
    p.variants.nodes = p.variants.nodes.filter((x: { id: string }) => !v.variantsIds.includes(x.id));
    return { data: { productVariantsBulkDelete: { product: { id: p.id }, userErrors: [] } } };
  });
  fake.on("ProductOptionUpdate", (v) => {
    const option = shop.get(v.productId)!.options.find((o: { id: string }) => o.id === v.option.id)!;
    option.optionValues = option.optionValues.filter((x: { id: string }) => !(v.optionValuesToDelete ?? []).includes(x.id));
    return { data: { productOptionUpdate: { product: { id: v.productId }, userErrors: [] } } };
  });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe("Taobao import through the Shopify adapter", () => {
  it("creates the product with productSet (valid for the Admin schema), then its read model row, companion and proposals", async () => {
    const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: DEMO_ITEM, store_id: stores.menswear.id } });
    await drain(app);
    const j = (await app.api("GET", `/shopify/admin/products/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
    expect(j).toMatchObject({ status: "completed", error_message: null });
    expect(j.product_id).toMatch(/^gid:\/\/shopify\/Product\/80\d\d$/);

    const [call] = fake.calls("ProductSet");
    const input = call.variables.input;
    expect(input).toMatchObject({ title: "Boxy Silk Shirt", handle: `boxy-silk-shirt-${DEMO_ITEM}`, vendor: "Import Menswear", productType: "Shirts", status: "ACTIVE" });
    expect(input.metafields).toEqual([{ namespace: "custom", key: "target_gender", type: "single_line_text_field", value: "menswear" }]);
    // Shopify fetches the pictures itself: absolute URLs under APP_URL.
    expect(input.files.length).toBeGreaterThan(2);
    for (const f of input.files) expect(f.originalSource).toMatch(/^https:\/\/fashion\.example\.test\/uploads\/images\/taobao\/[0-9a-f]{40}\.jpg$/);
    expect(input.descriptionHtml).toMatch(/<img src="https:\/\/fashion\.example\.test\/uploads\/images\/taobao\//);
    for (const v of input.variants) {
      expect(v.sku).toMatch(new RegExp(`^TB-${DEMO_ITEM}-\\d{13}$`));
      expect(v.metafields[0]).toMatchObject({ namespace: "custom", key: "color_hex", type: "color" });
      expect(v.metafields[0].value).toMatch(/^#[0-9a-f]{6}$/);
      expect(v.inventoryQuantities[0].locationId).toBe("gid://shopify/Location/2");
    }

    // The read model has the product (webhooks would bring it later), linked to the store, with its companion and proposals.
    const product = await app.database.db.product.findUniqueOrThrow({ where: { id: j.product_id }, include: { variants: true, companion: true } });
    expect(product).toMatchObject({ title: "Boxy Silk Shirt", store_id: stores.menswear.id });
    expect(product.companion).toMatchObject({ taobao_id: DEMO_ITEM, taobao_title: "2026春夏新款男廓形真丝衬衫 百搭" });
    expect(product.variants.every((v) => v.taobao_sku_id && v.sku === `TB-${DEMO_ITEM}-${v.taobao_sku_id}`)).toBe(true);
    expect(await app.database.db.proposedVariantImage.count({ where: { product_id: j.product_id, source: "taobao" } })).toBe(product.variants.length);
  });

  it("a re-import after the item changed reconciles the variants in Shopify and the read model follows", async () => {
    const original = app.ctx.taobao;
    app.ctx.taobao = { ...original, getItem: async (id) => changedOnTaobao(await original.getItem(id)) };
    let j: { status: string; product_id: string; result: { action: string; notes: string[] } };
    try {
      const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: DEMO_ITEM, store_id: stores.menswear.id } });
      await drain(app);
      j = (await app.api("GET", `/shopify/admin/products/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
    } finally {
      app.ctx.taobao = original;
    }
    expect(j).toMatchObject({ status: "completed", result: { action: "updated" } });
    expect(fake.calls("ProductSet")).toHaveLength(1);
    const [created] = fake.calls("ProductVariantsCreate");
    expect(created.variables.variants.map((v: { inventoryItem: { sku: string }; optionValues: { name: string }[]; price: string }) => [v.inventoryItem.sku, v.optionValues.map((o) => o.name).join(" / "), v.price])).toEqual([
      [`TB-${DEMO_ITEM}-5012000100901`, "Black / M", "90.99"],
      [`TB-${DEMO_ITEM}-5012000100902`, "Black / L", "90.99"],
    ]);
    expect(fake.calls("ProductVariantsUpdate")[0].variables.variants).toEqual([{ id: expect.any(String), price: "104.99", compareAtPrice: "153.99" }]);
    expect(fake.calls("ProductVariantsDelete")[0].variables.variantsIds).toHaveLength(4);
    expect(fake.calls("ProductOptionUpdate")[0].variables.optionValuesToDelete).toHaveLength(1); // Rust
    const product = await app.database.db.product.findUniqueOrThrow({ where: { id: j.product_id }, include: { variants: true, options: true } });
    expect(product.variants).toHaveLength(12);
    expect(product.options.find((o) => o.name === "Color")!.values).toEqual(["Stone", "Sky Blue", "Black"]);
    expect(product.variants.filter((v) => v.taobao_sku_id?.startsWith("50120001009"))).toHaveLength(2);
  });

  it("deletes the product in Shopify when a later step fails", async () => {
    const db = app.database.db;
    const id = String(DEMO_TAOBAO_CATALOGUE.items[3].num_iid);
    await db.product.create({ data: { id: "gid://shopify/Product/990002", title: "Concurrent", handle: "concurrent-990002" } });
    app.ctx.commerce = {
      ...shopify,
      createProduct: async (input) => {
        const s = await shopify.createProduct(input);
        await db.productCompanion.create({ data: { shopify_product_id: "gid://shopify/Product/990002", taobao_id: id } });
        return s;
      },
    } as CommercePort;
    try {
      const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: id, store_id: stores.menswear.id } });
      await drain(app);
      const j = (await app.api("GET", `/shopify/admin/products/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
      expect(j).toMatchObject({ status: "queued", step: "create" });
      const created = `gid://shopify/Product/${seq}`;
      expect(fake.calls("ProductDelete").map((c) => c.variables.id)).toEqual([created]);
      expect(await db.product.findUnique({ where: { id: created } })).toBeNull();
    } finally {
      app.ctx.commerce = shopify;
    }
  });
});
