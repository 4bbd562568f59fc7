/**
 * The local commerce adapter: the commerce port on the app's own tables (local mode's store).
 * Every write must keep the product's aggregates consistent with its variants and images.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { CommerceError, type CommercePort, type ProductInput } from "../../app/providers/commerce/port";
import { listProducts } from "../../app/services/catalog.server";

let app: TestApp;
let commerce: CommercePort;
let storeId: string;
let vendorId: string;

beforeAll(async () => {
  app = await createTestApp();
  commerce = app.ctx.commerce;
  const vendor = await app.database.db.vendor.create({ data: { name: "Northwind", handle: "northwind" } });
  vendorId = vendor.id;
  storeId = (await app.database.db.store.create({ data: { name: "Northwind Atelier", handle: "northwind-atelier", vendor_id: vendor.id } })).id;
});
afterAll(() => app?.close());

const shirt = (over: Partial<ProductInput> = {}): ProductInput => ({
  title: "Linen Shirt",
  vendor: "Northwind Atelier",
  productType: "Shirts",
  descriptionHtml: "<p>Soft <b>linen</b>.</p>",
  status: "active",
  tags: ["linen", "summer"],
  targetGender: "menswear",
  options: [
    { name: "Color", values: ["White", "Navy"] },
    { name: "Size", values: ["S", "M"] },
  ],
  variants: [
    { sku: "LS-W-S", price: "40.00", inventoryQuantity: 3, selectedOptions: [{ name: "Color", value: "White" }, { name: "Size", value: "S" }], colorHex: "#ffffff" },
    { sku: "LS-W-M", price: "40.00", inventoryQuantity: 0, selectedOptions: [{ name: "Color", value: "White" }, { name: "Size", value: "M" }], colorHex: "#ffffff" },
    { sku: "LS-N-S", price: "45.50", compareAtPrice: "60.00", inventoryQuantity: 2, selectedOptions: [{ name: "Color", value: "Navy" }, { name: "Size", value: "S" }], colorHex: "#1f2a44" },
    { sku: "LS-N-M", price: "45.50", inventoryQuantity: 0, selectedOptions: [{ name: "Color", value: "Navy" }, { name: "Size", value: "M" }], colorHex: "#1f2a44" },
  ],
  images: [
    { url: "https://cdn.test/white.jpg", altText: "White linen shirt" },
    { url: "https://cdn.test/navy.jpg", altText: "Navy linen shirt" },
  ],
  ...over,
});

async function productRow(id: string) {
  return app.database.db.product.findUniqueOrThrow({ where: { id } });
}

async function expectCommerceError(p: Promise<unknown>, status: number, message?: RegExp) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CommerceError);
  expect((e as CommerceError).status).toBe(status);
  if (message) expect((e as CommerceError).message).toMatch(message);
  expect((e as CommerceError).userErrors.length).toBeGreaterThan(0);
}

describe("local commerce adapter: products", () => {
  it("is the adapter of local mode", () => {
    expect(commerce.kind).toBe("local");
  });

  it("creates a product with options, variants and images, and consistent aggregates", async () => {
    const p = await commerce.createProduct(shirt({ storeId }));
    expect(p.id).toMatch(/^gid:\/\/shopify\/Product\/\d+$/);
    expect(p.handle).toBe("linen-shirt");
    expect(p.description).toBe("Soft linen.");
    expect(p.options.map((o) => [o.name, o.values])).toEqual([["Color", ["White", "Navy"]], ["Size", ["S", "M"]]]);
    expect(p.variants.map((v) => v.title)).toEqual(["White / S", "White / M", "Navy / S", "Navy / M"]);
    expect(p.variants.map((v) => v.availableForSale)).toEqual([true, false, true, false]);
    expect(p.variants[2]).toMatchObject({ price: "45.50", compareAtPrice: "60.00", colorHex: "#1f2a44", sku: "LS-N-S" });
    expect(p.images.map((i) => i.position)).toEqual([0, 1]);
    const row = await productRow(p.id);
    expect(row.priceMin.toFixed(2)).toBe("40.00");
    expect(row.priceMax.toFixed(2)).toBe("45.50");
    expect(row.totalInventory).toBe(5);
    expect(row.availableForSale).toBe(true);
    expect(row.featuredImageUrl).toBe("https://cdn.test/white.jpg");
    expect(row.target_gender).toBe("menswear");
    expect(row.store_id).toBe(storeId);
    expect(row.vendor_id).toBe(vendorId);
    expect(await commerce.getProduct(p.id)).toEqual(p);
  });

  it("gives a second product with the same title a unique handle, links by vendor name, and creates a default variant", async () => {
    const p = await commerce.createProduct(shirt({ options: [], variants: [], images: [] }));
    expect(p.handle).toBe("linen-shirt-2");
    expect(p.variants).toHaveLength(1);
    expect(p.variants[0].title).toBe("Default Title");
    const row = await productRow(p.id);
    expect(row.store_id).toBe(storeId); // vendor text = the store's name
    expect(row.availableForSale).toBe(false);
    expect(row.featuredImageUrl).toBeNull();
  });

  it("refuses a blank title, variants with unknown option values and an unknown store", async () => {
    await expectCommerceError(commerce.createProduct(shirt({ title: "  " })), 422, /blank/);
    await expectCommerceError(
      commerce.createProduct(shirt({ variants: [{ price: "1.00", inventoryQuantity: 1, selectedOptions: [{ name: "Color", value: "Red" }] }] })),
      422,
      /Red/,
    );
    await expectCommerceError(commerce.createProduct(shirt({ storeId: "00000000-0000-0000-0000-000000000000" })), 404);
  });

  it("updates fields, status, target gender and colour hexes", async () => {
    const p = await commerce.createProduct(shirt({ title: "Wool Coat", images: [] }));
    const u = await commerce.updateProduct(p.id, { title: "Wool Overcoat", descriptionHtml: "<p>Warm</p>", tags: ["wool"] });
    expect(u).toMatchObject({ title: "Wool Overcoat", description: "Warm", tags: ["wool"], handle: "wool-coat" });
    await commerce.setProductStatus(p.id, "draft");
    await commerce.setTargetGender(p.id, "both");
    await commerce.setVariantColorHex(p.id, [{ variantId: p.variants[0].id, hex: "#ABCDEF" }, { variantId: p.variants[1].id, hex: null }]);
    const again = (await commerce.getProduct(p.id))!;
    expect(again.status).toBe("draft");
    expect(again.targetGender).toBe("both");
    expect(again.variants[0].colorHex).toBe("#abcdef");
    expect(again.variants[1].colorHex).toBeNull();
    await expectCommerceError(commerce.setVariantColorHex(p.id, [{ variantId: p.variants[0].id, hex: "blue" }]), 422);
    await expectCommerceError(commerce.setVariantColorHex(p.id, [{ variantId: "gid://shopify/ProductVariant/1", hex: "#000000" }]), 404);
    await expectCommerceError(commerce.setProductStatus("gid://shopify/Product/1", "active"), 404);
  });

  it("renames an option value in the option and the variants, and deletes a value with its variants", async () => {
    const p = await commerce.createProduct(shirt({ title: "Option Shirt" }));
    const renamed = await commerce.updateOptionValue(p.id, "Color", "Navy", "Midnight");
    expect(renamed.options[0].values).toEqual(["White", "Midnight"]);
    expect(renamed.variants.map((v) => v.title)).toEqual(["White / S", "White / M", "Midnight / S", "Midnight / M"]);
    expect(renamed.variants[2].selectedOptions).toEqual([{ name: "Color", value: "Midnight" }, { name: "Size", value: "S" }]);
    await expectCommerceError(commerce.updateOptionValue(p.id, "Color", "White", "Midnight"), 409);
    await expectCommerceError(commerce.updateOptionValue(p.id, "Color", "Pink", "Rose"), 404);
    await expectCommerceError(commerce.updateOptionValue(p.id, "Fabric", "a", "b"), 404);

    const deleted = await commerce.deleteOptionValue(p.id, "Color", "White");
    expect(deleted.options[0].values).toEqual(["Midnight"]);
    expect(deleted.variants.map((v) => v.title)).toEqual(["Midnight / S", "Midnight / M"]);
    const row = await productRow(p.id);
    expect(row.priceMin.toFixed(2)).toBe("45.50");
    expect(row.totalInventory).toBe(2);
    await expectCommerceError(commerce.deleteOptionValue(p.id, "Color", "Midnight"), 422, /at least one/);
  });

  it("reconciles variants: creates (adding option values), updates prices and SKUs, deletes, drops unused values, keeps aggregates", async () => {
    const p = await commerce.createProduct(shirt({ title: "Reconciled Shirt" }));
    const [ws, wm, ns, nm] = p.variants;
    const after = await commerce.updateProductVariants(p.id, {
      create: [{ sku: "LS-G-S", price: "30.00", inventoryQuantity: 6, selectedOptions: [{ name: "Size", value: "S" }, { name: "Color", value: "Green" }], colorHex: "#00AA00" }],
      update: [{ id: ws.id, price: "42.00", compareAtPrice: "50.00" }, { id: wm.id, sku: "LS-W-M2" }],
      delete: [ns.id, nm.id],
    });
    expect(after.variants.map((v) => [v.sku, v.price, v.compareAtPrice, v.inventoryQuantity])).toEqual([
      ["LS-W-S", "42.00", "50.00", 3],
      ["LS-W-M2", "40.00", null, 0],
      ["LS-G-S", "30.00", null, 6],
    ]);
    const green = after.variants[2];
    expect(green).toMatchObject({ title: "Green / S", colorHex: "#00aa00", availableForSale: true });
    expect(after.options.find((o) => o.name === "Color")!.values).toEqual(["White", "Green"]);
    const row = await productRow(p.id);
    expect([row.priceMin.toFixed(2), row.priceMax.toFixed(2), row.totalInventory]).toEqual(["30.00", "42.00", 9]);
  });

  it("refuses a variant reconcile that is invalid, changing nothing", async () => {
    const p = await commerce.createProduct(shirt({ title: "Refusing Shirt" }));
    const [ws, , ns] = p.variants;
    await expectCommerceError(commerce.updateProductVariants(p.id, { update: [{ id: "gid://shopify/ProductVariant/1", price: "1.00" }] }), 404);
    await expectCommerceError(commerce.updateProductVariants("gid://shopify/Product/404", { delete: [] }), 404);
    await expectCommerceError(commerce.updateProductVariants(p.id, { delete: p.variants.map((v) => v.id) }), 422, /at least one variant/);
    await expectCommerceError(commerce.updateProductVariants(p.id, { create: [{ price: "1.00", inventoryQuantity: 1, selectedOptions: [{ name: "Color", value: "Navy" }, { name: "Size", value: "S" }] }] }), 422, /already exists/);
    await expectCommerceError(commerce.updateProductVariants(p.id, { create: [{ price: "1.00", inventoryQuantity: 1, selectedOptions: [{ name: "Color", value: "Red" }] }] }), 422, /each of the product's options/);
    await expectCommerceError(commerce.updateProductVariants(p.id, { create: [{ price: "abc", inventoryQuantity: 1, selectedOptions: [{ name: "Color", value: "Red" }, { name: "Size", value: "S" }] }] }), 422, /not a price/);
    // A valid part next to an invalid one: nothing is applied.
    await expectCommerceError(commerce.updateProductVariants(p.id, { update: [{ id: ws.id, price: "1.00" }], delete: [ns.id, "gid://shopify/ProductVariant/2"] }), 404);
    expect(await commerce.getProduct(p.id)).toMatchObject({ variants: p.variants });
  });

  it("orders media, adds images and assigns variant media", async () => {
    const p = await commerce.createProduct(shirt({ title: "Media Shirt" }));
    const [white, navy] = p.images;
    const added = await commerce.addProductImage(p.id, { url: "https://cdn.test/detail.jpg", altText: "Detail" });
    expect(added.position).toBe(2);
    await commerce.reorderMedia(p.id, [navy.id, added.id]);
    const again = (await commerce.getProduct(p.id))!;
    expect(again.images.map((i) => i.id)).toEqual([navy.id, added.id, white.id]);
    expect((await productRow(p.id)).featuredImageUrl).toBe("https://cdn.test/navy.jpg");
    await expectCommerceError(commerce.reorderMedia(p.id, ["gid://shopify/MediaImage/1"]), 404);

    await commerce.appendVariantMedia(p.id, [{ variantId: p.variants[2].id, mediaId: navy.id }, { variantId: p.variants[0].id, mediaId: white.id }]);
    const withMedia = (await commerce.getProduct(p.id))!;
    expect(withMedia.variants[2].imageUrl).toBe(navy.url);
    expect(withMedia.variants[0].imageUrl).toBe(white.url);
    await expectCommerceError(commerce.appendVariantMedia(p.id, [{ variantId: p.variants[0].id, mediaId: "nope" }]), 404);
  });

  it("reads and sets inventory levels, keeping availability and totals in step", async () => {
    const p = await commerce.createProduct(shirt({ title: "Stock Shirt" }));
    const levels = await commerce.inventoryLevels({ productIds: [p.id] });
    expect(levels.map((l) => l.available)).toEqual([3, 0, 2, 0]);
    const out = await commerce.inventoryLevels({ productIds: [p.id], outOfStockOnly: true });
    expect(out.map((l) => l.variantId)).toEqual([p.variants[1].id, p.variants[3].id]);
    await commerce.setInventory(p.variants.map((v) => ({ variantId: v.id, available: 0 })));
    let row = await productRow(p.id);
    expect(row).toMatchObject({ totalInventory: 0, availableForSale: false });
    await commerce.setInventory([{ variantId: p.variants[3].id, available: 7 }]);
    row = await productRow(p.id);
    expect(row).toMatchObject({ totalInventory: 7, availableForSale: true });
    expect((await commerce.getProduct(p.id))!.variants[3]).toMatchObject({ inventoryQuantity: 7, availableForSale: true });
    await expectCommerceError(commerce.setInventory([{ variantId: "gid://shopify/ProductVariant/1", available: 1 }]), 404);
    const all = await commerce.inventoryLevels({});
    expect(all.length).toBeGreaterThan(4);
  });

  it("publishes now, schedules a future publication (hidden from the listing until then) and unpublishes", async () => {
    const p = await commerce.createProduct(shirt({ title: "Scheduled Scarf" }));
    const visible = async () => (await listProducts(app.database.db, { query: "Scheduled Scarf", limit: 10, sortKey: "CREATED_AT", reverse: false })).products.map((x) => x.id);
    const future = new Date(Date.now() + 3 * 86_400_000);
    await commerce.publishProduct(p.id, { publishDate: future });
    const scheduled = (await commerce.getProduct(p.id))!;
    expect(scheduled.status).toBe("active");
    expect(scheduled.publishedAt).toBe(future.toISOString());
    expect(await visible()).not.toContain(p.id);
    await app.database.db.product.update({ where: { id: p.id }, data: { publishedAt: new Date(Date.now() - 1000) } }); // the date passes
    expect(await visible()).toContain(p.id);
    await commerce.publishProduct(p.id);
    expect(new Date((await commerce.getProduct(p.id))!.publishedAt!).getTime()).toBeLessThanOrEqual(Date.now());
    await commerce.unpublishProduct(p.id);
    expect((await commerce.getProduct(p.id))!.publishedAt).toBeNull();
    await expectCommerceError(commerce.publishProduct("gid://shopify/Product/1"), 404);
  });

  it("lists and exports the catalogue with progress, optionally for one store", async () => {
    const first = await commerce.listProducts({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await commerce.listProducts({ limit: 2, cursor: first.nextCursor });
    expect(second.items[0].id > first.items[1].id).toBe(true);
    const total = await app.database.db.product.count();
    const progress: number[] = [];
    const all: string[] = [];
    for await (const p of commerce.exportAllProducts((f) => progress.push(f))) all.push(p.id);
    expect(all).toHaveLength(total);
    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(1);
    const other = await app.database.db.store.create({ data: { name: "Other", handle: "other", vendor_id: vendorId } });
    const mine = await commerce.createProduct(shirt({ title: "Other Shirt", vendor: "Other" }));
    const storeProducts: string[] = [];
    for await (const p of commerce.exportAllProducts(undefined, { storeId: other.id })) storeProducts.push(p.id);
    expect(storeProducts).toEqual([mine.id]);
  });

  it("deletes a product", async () => {
    const p = await commerce.createProduct(shirt({ title: "Doomed" }));
    await commerce.deleteProduct(p.id);
    expect(await commerce.getProduct(p.id)).toBeNull();
    expect(await app.database.db.productVariant.count({ where: { product_id: p.id } })).toBe(0);
    await expectCommerceError(commerce.deleteProduct(p.id), 404);
  });
});

describe("local commerce adapter: orders", () => {
  let productId: string;
  let variantIds: string[];
  const orderId = "gid://shopify/Order/9001";

  beforeAll(async () => {
    const p = await commerce.createProduct(shirt({ title: "Order Shirt" }));
    productId = p.id;
    variantIds = p.variants.map((v) => v.id);
    const customer = await app.createUser({ email: "buyer@example.test" });
    for (const [n, id] of [[1, orderId], [2, "gid://shopify/Order/9002"]] as const) {
      await app.database.db.order.create({
        data: {
          id,
          name: `#${9000 + n}`,
          email: "buyer@example.test",
          user_id: customer.id,
          total_price: "85.50",
          created_at: new Date(Date.now() - n * 60_000),
          items: {
            create: [
              { id: `${id}-a`, product_id: productId, variant_id: variantIds[0], title: "Order Shirt", variant_title: "White / S", quantity: 2, price: "40.00" },
              { id: `${id}-b`, product_id: productId, variant_id: variantIds[2], title: "Order Shirt", variant_title: "Navy / S", quantity: 1, price: "45.50" },
            ],
          },
        },
      });
    }
  });

  it("reads and lists orders", async () => {
    const o = await commerce.getOrder(orderId);
    expect(o).toMatchObject({ name: "#9001", totalPrice: "85.50", email: "buyer@example.test" });
    expect(o!.lines).toHaveLength(2);
    expect(await commerce.getOrder("gid://shopify/Order/1")).toBeNull();
    const page1 = await commerce.listOrders({ limit: 1 });
    expect(page1.items[0].id).toBe(orderId);
    const page2 = await commerce.listOrders({ limit: 1, cursor: page1.nextCursor });
    expect(page2.items[0].id).toBe("gid://shopify/Order/9002");
    expect(page2.nextCursor).toBeNull();
    expect((await commerce.listOrders({ limit: 10, query: "#9002" })).items.map((x) => x.id)).toEqual(["gid://shopify/Order/9002"]);
  });

  it("fulfils lines with a tracking number, updates tracking, and refuses bad lines", async () => {
    const r = await commerce.fulfillOrderLines(orderId, { lines: [{ orderLineId: `${orderId}-a`, quantity: 2 }], trackingNumber: "1Z999", trackingCompany: "UPS", notifyCustomer: false });
    expect(r.fulfillmentId).toBeTruthy();
    let item = await app.database.db.orderItem.findUniqueOrThrow({ where: { id: `${orderId}-a` } });
    expect(item).toMatchObject({ status: "fulfilled", tracking_number: "1Z999", provider: "UPS" });
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: orderId } })).fulfillment_status).toBe("PARTIALLY_FULFILLED");
    await commerce.updateTracking(r.fulfillmentId, { trackingNumber: "1Z000", trackingCompany: "UPS" });
    item = await app.database.db.orderItem.findUniqueOrThrow({ where: { id: `${orderId}-a` } });
    expect(item.tracking_number).toBe("1Z000");
    await expectCommerceError(commerce.fulfillOrderLines(orderId, { lines: [{ orderLineId: `${orderId}-a`, quantity: 1 }], notifyCustomer: false }), 409);
    await expectCommerceError(commerce.fulfillOrderLines(orderId, { lines: [{ orderLineId: "nope", quantity: 1 }], notifyCustomer: false }), 404);
    await expectCommerceError(commerce.updateTracking("gid://shopify/Fulfillment/1", { trackingNumber: "x" }), 404);
  });

  it("requests a return with line items (status REQUESTED)", async () => {
    const { returnId } = await commerce.requestReturn(orderId, [{ orderLineId: `${orderId}-a`, quantity: 1, reason: "SIZE_TOO_SMALL", note: "tight" }]);
    const ret = await app.database.db.return.findUniqueOrThrow({ where: { id: returnId }, include: { line_items: true } });
    expect(ret).toMatchObject({ status: "REQUESTED", order_id: orderId, reason: "SIZE_TOO_SMALL" });
    expect(ret.line_items).toMatchObject([{ order_item_id: `${orderId}-a`, quantity: 1, reason: "SIZE_TOO_SMALL", note: "tight" }]);
    // An unfulfilled line cannot be returned; nor more than was bought.
    await expectCommerceError(commerce.requestReturn(orderId, [{ orderLineId: `${orderId}-b`, quantity: 1, reason: "OTHER" }]), 409);
    await expectCommerceError(commerce.requestReturn(orderId, [{ orderLineId: `${orderId}-a`, quantity: 3, reason: "OTHER" }]), 422);
  });

  it("cancels an order: status, reason, date, items cancelled, stock restocked", async () => {
    const id = "gid://shopify/Order/9002";
    const before = await app.database.db.productVariant.findUniqueOrThrow({ where: { id: variantIds[0] } });
    await commerce.cancelOrder(id, { reason: "CUSTOMER", refund: true, restock: true, staffNote: "asked by phone" });
    const o = await app.database.db.order.findUniqueOrThrow({ where: { id }, include: { items: true } });
    expect(o).toMatchObject({ status: "cancelled", cancel_reason: "customer", financial_status: "REFUNDED", note: "asked by phone" });
    expect(o.cancelled_at).toBeInstanceOf(Date);
    expect(o.items.every((i) => i.status === "cancelled")).toBe(true);
    const after = await app.database.db.productVariant.findUniqueOrThrow({ where: { id: variantIds[0] } });
    expect(after.inventory_quantity).toBe(before.inventory_quantity + 2);
    const snap = await commerce.getOrder(id);
    expect(snap).toMatchObject({ cancelReason: "customer" });
    await expectCommerceError(commerce.cancelOrder(id, { reason: "OTHER", refund: false, restock: false }), 409);
    await expectCommerceError(commerce.cancelOrder(orderId, { reason: "OTHER", refund: false, restock: false }), 409, /fulfilled/);
    await expectCommerceError(commerce.cancelOrder("gid://shopify/Order/1", { reason: "OTHER", refund: false, restock: false }), 404);
  });
});
