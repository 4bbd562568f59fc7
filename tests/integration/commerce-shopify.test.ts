/**
 * The Shopify commerce adapter against a local server that answers like the Admin GraphQL API
 * (tests/fixtures/shopify/fake-admin-server.ts): the server checks the token header and version
 * path and validates every document and its variables against the real 2026-10 schema.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { fixture, jsonFixture, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";

let fake: FakeShopify;
let commerce: CommercePort;
let sleeps: number[];

const product = jsonFixture("product.json");
const order = jsonFixture("order.json");
const noErrors = { userErrors: [] };

beforeAll(async () => {
  fake = await startFakeShopify();
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.handlers.clear();
  fake.requests.length = 0;
  fake.fetchedUrls.length = 0;
  sleeps = [];
  commerce = createShopifyCommerce({
    shop: fake.shop,
    apiVersion: async () => "2026-10",
    accessToken: fake.token,
    fetch: fake.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    bulkPollMs: 5,
  });
});

async function commerceError(p: Promise<unknown>): Promise<CommerceError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CommerceError);
  return e as CommerceError;
}

describe("protocol", () => {
  it("posts to https://{shop}/admin/api/2026-10/graphql.json with the access token, and maps the product", async () => {
    fake.on("ProductGet", { product });
    const p = await commerce.getProduct("gid://shopify/Product/7001");
    expect(fake.fetchedUrls).toEqual(["https://test-shop.myshopify.com/admin/api/2026-10/graphql.json"]);
    expect(fake.requests[0]).toMatchObject({ operationName: "ProductGet", variables: { id: "gid://shopify/Product/7001" }, token: fake.token });
    expect(p).toMatchObject({ id: "gid://shopify/Product/7001", status: "active", targetGender: "menswear", currencyCode: "EUR", tags: ["linen", "summer"] });
    expect(p!.options).toEqual([
      { id: "gid://shopify/ProductOption/81", name: "Color", values: ["White", "Navy"], position: 1 },
      { id: "gid://shopify/ProductOption/82", name: "Size", values: ["S"], position: 2 },
    ]);
    expect(p!.images.map((i) => [i.id, i.position])).toEqual([["gid://shopify/MediaImage/91", 0], ["gid://shopify/MediaImage/92", 1]]); // the video is not an image
    expect(p!.variants[0]).toMatchObject({ price: "40.00", colorHex: "#ffffff", imageUrl: "https://cdn.shopify.test/white.jpg", sku: "LS-W-S", inventoryQuantity: 3 });
    expect(p!.variants[1]).toMatchObject({ price: "45.50", compareAtPrice: "60.00", colorHex: null, imageUrl: null, sku: null });
  });

  it("the fake shop validates documents and variables against the real schema (so the tests above check them)", async () => {
    fake.on("ProductSet", { productSet: { product: null, userErrors: [] } });
    const post = (query: string, variables: object) =>
      fake.fetch(`https://${fake.shop}/admin/api/2026-10/graphql.json`, { method: "POST", headers: { "x-shopify-access-token": fake.token }, body: JSON.stringify({ query, variables }) }).then((r) => r.json());
    const { PRODUCT_SET } = await import("../../app/providers/commerce/shopify-documents");
    const badEnum = await post(PRODUCT_SET, { input: { title: "x", status: "LIVE" } });
    expect(badEnum.errors[0].message).toMatch(/Variable error.*LIVE/);
    const badField = await post(PRODUCT_SET, { input: { title: "x", colour: "red" } });
    expect(badField.errors[0].message).toMatch(/colour/);
    const typo = await post(PRODUCT_SET.replace("descriptionHtml", "descriptionHTML"), { input: { title: "x" } });
    expect(typo.errors[0].message).toMatch(/descriptionHTML/);
    expect(fake.calls("ProductSet")).toHaveLength(0);
  });

  it("answers null for an unknown product", async () => {
    fake.on("ProductGet", { product: null });
    expect(await commerce.getProduct("gid://shopify/Product/1")).toBeNull();
  });

  it("a wrong access token is refused by the shop", async () => {
    const bad = createShopifyCommerce({ shop: fake.shop, apiVersion: "2026-10", accessToken: "wrong", fetch: fake.fetch, sleep: async () => undefined });
    fake.on("ProductGet", { product });
    const e = await commerceError(bad.getProduct("gid://shopify/Product/7001"));
    expect(e.message).toMatch(/HTTP 401/);
    expect(fake.requests).toHaveLength(0);
  });

  it("a wrong API version path is not found", async () => {
    const old = createShopifyCommerce({ shop: fake.shop, apiVersion: "2024-01", accessToken: fake.token, fetch: fake.fetch, sleep: async () => undefined });
    const e = await commerceError(old.getProduct("gid://shopify/Product/7001"));
    expect(e.message).toMatch(/HTTP 404/);
  });

  it("retries a THROTTLED answer after waiting for the bucket, then succeeds", async () => {
    fake.on("ProductsList", (_v, call) =>
      call === 1
        ? { errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }], cost: { requested: 502, available: 2, restoreRate: 100 } }
        : { data: { products: { nodes: [product], pageInfo: { hasNextPage: true, endCursor: "c1" } } }, cost: { requested: 502, available: 1500 } },
    );
    const page = await commerce.listProducts({ limit: 10, updatedSince: new Date("2026-01-01T00:00:00Z") });
    expect(page.items.map((p) => p.id)).toEqual(["gid://shopify/Product/7001"]);
    expect(page.nextCursor).toBe("c1");
    expect(fake.calls("ProductsList")).toHaveLength(2);
    expect(fake.calls("ProductsList")[0].variables).toMatchObject({ first: 10, query: "updated_at:>='2026-01-01T00:00:00.000Z'" });
    expect(sleeps[0]).toBe(5000); // (502 - 2) / 100 per second
  });

  it("retries HTTP 429 (Retry-After) and 5xx with backoff", async () => {
    fake.on("OrderGet", (_v, call) => (call === 1 ? { status: 429, headers: { "retry-after": "2" } } : call === 2 ? { status: 503 } : { data: { order } }));
    const o = await commerce.getOrder("gid://shopify/Order/5001");
    expect(o).toMatchObject({ name: "#5001", totalPrice: "85.50", customerId: "gid://shopify/Customer/301" });
    expect(fake.calls("OrderGet")).toHaveLength(3);
    expect(sleeps).toEqual([2000, 1000]);
  });

  it("gives up after the retry budget", async () => {
    const limited = createShopifyCommerce({ shop: fake.shop, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => undefined, maxRetries: 2 });
    fake.handlers.set("OrderGet", () => ({ status: 502 }));
    const e = await commerceError(limited.getOrder("gid://shopify/Order/5001"));
    expect(e.status).toBe(502);
    expect(fake.calls("OrderGet")).toHaveLength(3);
  });

  it("paginates cost-aware: waits before the next page when the bucket is below the known cost", async () => {
    fake.on("InventoryLevels", (v) =>
      v.after
        ? { data: { productVariants: { nodes: [{ id: "gid://shopify/ProductVariant/72", inventoryQuantity: 0, product: { id: "gid://shopify/Product/7001" } }], pageInfo: { hasNextPage: false, endCursor: null } } } }
        : {
            data: { productVariants: { nodes: [{ id: "gid://shopify/ProductVariant/71", inventoryQuantity: -1, product: { id: "gid://shopify/Product/7001" } }], pageInfo: { hasNextPage: true, endCursor: "p2" } } },
            cost: { requested: 300, available: 10, restoreRate: 100 },
          },
    );
    const levels = await commerce.inventoryLevels({ productIds: ["gid://shopify/Product/7001", "gid://shopify/Product/7002"], outOfStockOnly: true });
    expect(levels).toEqual([
      { productId: "gid://shopify/Product/7001", variantId: "gid://shopify/ProductVariant/71", available: -1 },
      { productId: "gid://shopify/Product/7001", variantId: "gid://shopify/ProductVariant/72", available: 0 },
    ]);
    expect(fake.calls("InventoryLevels")[0].variables.query).toBe("(product_id:7001 OR product_id:7002) AND inventory_quantity:<=0");
    expect(fake.calls("InventoryLevels")[1].variables.after).toBe("p2");
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(2500); // ≈ (300 - 10) / 100 s
    expect(sleeps[0]).toBeLessThanOrEqual(2900);
  });

  it("turns userErrors into a CommerceError with Shopify's messages", async () => {
    fake.on("ProductUpdate", { productUpdate: { product: null, userErrors: [{ field: ["title"], message: "Title can't be blank" }] } });
    const e = await commerceError(commerce.updateProduct("gid://shopify/Product/7001", { title: "" }));
    expect(e.message).toBe("Title can't be blank");
    expect(e.status).toBe(422);
    expect(e.userErrors).toEqual([{ field: ["title"], message: "Title can't be blank" }]);
    fake.on("ProductDelete", { productDelete: { deletedProductId: null, userErrors: [{ field: ["id"], message: "Product does not exist" }] } });
    expect((await commerceError(commerce.deleteProduct("gid://shopify/Product/1"))).status).toBe(404);
  });

  it("a GraphQL error that is not throttling fails without retrying", async () => {
    fake.on("ProductGet", () => ({ errors: [{ message: "Internal error. Looks like something went wrong on our end." }] }));
    const e = await commerceError(commerce.getProduct("gid://shopify/Product/7001"));
    expect(e.status).toBe(502);
    expect(e.message).toMatch(/Internal error/);
    expect(fake.calls("ProductGet")).toHaveLength(1);
  });
});

describe("products", () => {
  it("creates a product with productSet: options, variants with inventory at the shipping location, metafields and files", async () => {
    fake.on("InventoryLocations", { locations: { nodes: [{ id: "gid://shopify/Location/1", name: "Old", isActive: false, shipsInventory: true, fulfillsOnlineOrders: true }, { id: "gid://shopify/Location/2", name: "Warehouse", isActive: true, shipsInventory: true, fulfillsOnlineOrders: true }] } });
    fake.on("ProductSet", { productSet: { product, userErrors: [] } });
    const p = await commerce.createProduct({
      title: "Linen Shirt",
      vendor: "Northwind Atelier",
      productType: "Shirts",
      descriptionHtml: "<p>Soft linen.</p>",
      status: "active",
      tags: ["linen"],
      targetGender: "menswear",
      options: [{ name: "Color", values: ["White", "Navy"] }, { name: "Size", values: ["S"] }],
      variants: [
        { sku: "LS-W-S", price: "40.00", inventoryQuantity: 3, selectedOptions: [{ name: "Color", value: "White" }, { name: "Size", value: "S" }], colorHex: "#ffffff", imageUrl: "https://cdn.test/white.jpg" },
        { price: "45.50", compareAtPrice: "60.00", inventoryQuantity: 0, selectedOptions: [{ name: "Color", value: "Navy" }, { name: "Size", value: "S" }] },
      ],
      images: [{ url: "https://cdn.test/white.jpg", altText: "White" }],
    });
    expect(p.id).toBe("gid://shopify/Product/7001");
    const input = fake.calls("ProductSet")[0].variables.input;
    expect(input).toMatchObject({
      title: "Linen Shirt",
      status: "ACTIVE",
      metafields: [{ namespace: "custom", key: "target_gender", type: "single_line_text_field", value: "menswear" }],
      productOptions: [{ name: "Color", position: 1, values: [{ name: "White" }, { name: "Navy" }] }, { name: "Size", position: 2, values: [{ name: "S" }] }],
      files: [{ originalSource: "https://cdn.test/white.jpg", alt: "White", contentType: "IMAGE" }],
    });
    expect(input.variants[0]).toMatchObject({
      sku: "LS-W-S",
      price: "40.00",
      optionValues: [{ optionName: "Color", name: "White" }, { optionName: "Size", name: "S" }],
      inventoryQuantities: [{ locationId: "gid://shopify/Location/2", name: "available", quantity: 3 }],
      metafields: [{ namespace: "custom", key: "color_hex", type: "color", value: "#ffffff" }],
      file: { originalSource: "https://cdn.test/white.jpg", contentType: "IMAGE" },
    });
    expect(input.variants[1]).toMatchObject({ compareAtPrice: "60.00" });
  });

  it("updates status, target gender and variant colours", async () => {
    fake.on("ProductUpdate", { productUpdate: { product, ...noErrors } });
    fake.on("MetafieldsSet", { metafieldsSet: { metafields: [], userErrors: [] } });
    fake.on("MetafieldsDelete", { metafieldsDelete: { deletedMetafields: [], userErrors: [] } });
    await commerce.setProductStatus("gid://shopify/Product/7001", "archived");
    expect(fake.calls("ProductUpdate")[0].variables).toEqual({ product: { id: "gid://shopify/Product/7001", status: "ARCHIVED" } });
    await commerce.setTargetGender("gid://shopify/Product/7001", "womenswear");
    expect(fake.calls("MetafieldsSet")[0].variables.metafields).toEqual([{ ownerId: "gid://shopify/Product/7001", namespace: "custom", key: "target_gender", type: "single_line_text_field", value: "womenswear" }]);
    await commerce.setVariantColorHex("gid://shopify/Product/7001", [{ variantId: "gid://shopify/ProductVariant/71", hex: "#AABBCC" }, { variantId: "gid://shopify/ProductVariant/72", hex: null }]);
    expect(fake.calls("MetafieldsSet")[1].variables.metafields).toEqual([{ ownerId: "gid://shopify/ProductVariant/71", namespace: "custom", key: "color_hex", type: "color", value: "#aabbcc" }]);
    expect(fake.calls("MetafieldsDelete")[0].variables.metafields).toEqual([{ ownerId: "gid://shopify/ProductVariant/72", namespace: "custom", key: "color_hex" }]);
    await commerceError(commerce.setVariantColorHex("gid://shopify/Product/7001", [{ variantId: "gid://shopify/ProductVariant/71", hex: "red" }]));
  });

  it("renames an option value by its id, and deletes a value with its variants", async () => {
    fake.on("ProductGet", { product });
    fake.on("ProductOptionUpdate", { productOptionUpdate: { product: { id: product.id }, userErrors: [] } });
    fake.on("ProductVariantsDelete", { productVariantsBulkDelete: { product: { id: product.id }, userErrors: [] } });
    await commerce.updateOptionValue(product.id, "Color", "Navy", "Midnight");
    expect(fake.calls("ProductOptionUpdate")[0].variables).toEqual({ productId: product.id, option: { id: "gid://shopify/ProductOption/81" }, optionValuesToUpdate: [{ id: "gid://shopify/ProductOptionValue/812", name: "Midnight" }] });
    await commerce.deleteOptionValue(product.id, "Color", "Navy");
    expect(fake.calls("ProductVariantsDelete")[0].variables).toEqual({ productId: product.id, variantsIds: ["gid://shopify/ProductVariant/72"] });
    expect(fake.calls("ProductOptionUpdate")[1].variables).toMatchObject({ optionValuesToDelete: ["gid://shopify/ProductOptionValue/812"] });
    expect((await commerceError(commerce.updateOptionValue(product.id, "Color", "Pink", "Rose"))).status).toBe(404);
    expect((await commerceError(commerce.deleteOptionValue(product.id, "Size", "S"))).message).toMatch(/at least one value/);
  });

  it("reconciles variants: bulk create (new option values, SKU, stock, colour), bulk update of prices, bulk delete, then unused values removed", async () => {
    fake.on("ProductGet", { product });
    fake.on("InventoryLocations", { locations: { nodes: [{ id: "gid://shopify/Location/2", name: "Warehouse", isActive: true, shipsInventory: true, fulfillsOnlineOrders: true }] } });
    fake.on("ProductVariantsCreate", { productVariantsBulkCreate: { productVariants: [{ id: "gid://shopify/ProductVariant/73" }], userErrors: [] } });
    fake.on("ProductVariantsUpdate", { productVariantsBulkUpdate: { productVariants: [{ id: "gid://shopify/ProductVariant/71" }], userErrors: [] } });
    fake.on("ProductVariantsDelete", { productVariantsBulkDelete: { product: { id: product.id }, userErrors: [] } });
    fake.on("ProductOptionUpdate", { productOptionUpdate: { product: { id: product.id }, userErrors: [] } });
    await commerce.updateProductVariants(product.id, {
      create: [{ sku: "LS-G-S", price: "42.00", compareAtPrice: null, inventoryQuantity: 4, selectedOptions: [{ name: "Color", value: "Green" }, { name: "Size", value: "S" }], colorHex: "#00AA00" }],
      update: [{ id: "gid://shopify/ProductVariant/71", price: "39.00", compareAtPrice: "49.00" }],
      delete: ["gid://shopify/ProductVariant/72"],
    });
    expect(fake.calls("ProductVariantsCreate")[0].variables).toEqual({
      productId: product.id,
      variants: [
        {
          optionValues: [{ optionName: "Color", name: "Green" }, { optionName: "Size", name: "S" }],
          price: "42.00",
          compareAtPrice: null,
          inventoryItem: { sku: "LS-G-S" },
          inventoryQuantities: [{ locationId: "gid://shopify/Location/2", availableQuantity: 4 }],
          metafields: [{ namespace: "custom", key: "color_hex", type: "color", value: "#00aa00" }],
        },
      ],
    });
    expect(fake.calls("ProductVariantsUpdate")[0].variables).toEqual({ productId: product.id, variants: [{ id: "gid://shopify/ProductVariant/71", price: "39.00", compareAtPrice: "49.00" }] });
    expect(fake.calls("ProductVariantsDelete")[0].variables).toEqual({ productId: product.id, variantsIds: ["gid://shopify/ProductVariant/72"] });
    // The fake answers the product as it was, so Navy still shows: it is deleted explicitly.
    expect(fake.calls("ProductOptionUpdate")[0].variables).toEqual({ productId: product.id, option: { id: "gid://shopify/ProductOption/81" }, optionValuesToDelete: ["gid://shopify/ProductOptionValue/812"] });
    const order = fake.requests.map((r) => r.operationName).filter((n) => n.startsWith("ProductVariants"));
    expect(order).toEqual(["ProductVariantsCreate", "ProductVariantsUpdate", "ProductVariantsDelete"]);
  });

  it("refuses a variant reconcile before any call when it is invalid, and reports Shopify's userErrors", async () => {
    fake.on("ProductGet", { product });
    const refused = async (changes: Parameters<CommercePort["updateProductVariants"]>[1]) => commerceError(commerce.updateProductVariants(product.id, changes));
    expect((await refused({ update: [{ id: "gid://shopify/ProductVariant/999", price: "1.00" }] })).status).toBe(404);
    expect((await refused({ delete: ["gid://shopify/ProductVariant/71", "gid://shopify/ProductVariant/72"] })).message).toMatch(/at least one variant/);
    expect((await refused({ create: [{ price: "1.00", inventoryQuantity: 1, selectedOptions: [{ name: "Color", value: "White" }, { name: "Size", value: "S" }] }] })).message).toMatch(/already exists/);
    expect((await refused({ create: [{ price: "1.00", inventoryQuantity: 1, selectedOptions: [{ name: "Colour", value: "Red" }] }] })).message).toMatch(/each of the product's options/);
    expect((await refused({ update: [{ id: "gid://shopify/ProductVariant/71", price: "-3" }] })).message).toMatch(/not a price/);
    expect(fake.requests.every((r) => r.operationName === "ProductGet")).toBe(true);
    fake.on("ProductVariantsUpdate", { productVariantsBulkUpdate: { productVariants: null, userErrors: [{ field: ["variants", "0", "price"], message: "Price is too big", code: "INVALID" }] } });
    expect((await refused({ update: [{ id: "gid://shopify/ProductVariant/71", price: "999999999.00" }] })).message).toMatch(/Price is too big/);
  });

  it("reorders media, appends variant media and adds an image", async () => {
    fake.on("ProductReorderMedia", { productReorderMedia: { job: { id: "gid://shopify/Job/1", done: false }, mediaUserErrors: [] } });
    fake.on("ProductVariantAppendMedia", { productVariantAppendMedia: { productVariants: [{ id: "gid://shopify/ProductVariant/72" }], userErrors: [] } });
    fake.on("ProductAddMedia", { productUpdate: { product: { id: product.id, mediaCount: { count: 3 }, media: { nodes: [{ id: "gid://shopify/MediaImage/93", mediaContentType: "IMAGE", image: null }] } }, userErrors: [] } });
    await commerce.reorderMedia(product.id, ["gid://shopify/MediaImage/92", "gid://shopify/MediaImage/91"]);
    expect(fake.calls("ProductReorderMedia")[0].variables).toEqual({ id: product.id, moves: [{ id: "gid://shopify/MediaImage/92", newPosition: "0" }, { id: "gid://shopify/MediaImage/91", newPosition: "1" }] });
    await commerce.appendVariantMedia(product.id, [{ variantId: "gid://shopify/ProductVariant/72", mediaId: "gid://shopify/MediaImage/92" }]);
    expect(fake.calls("ProductVariantAppendMedia")[0].variables.variantMedia).toEqual([{ variantId: "gid://shopify/ProductVariant/72", mediaIds: ["gid://shopify/MediaImage/92"] }]);
    const img = await commerce.addProductImage(product.id, { url: "https://cdn.test/detail.jpg", altText: "Detail" });
    expect(img).toEqual({ id: "gid://shopify/MediaImage/93", url: "https://cdn.test/detail.jpg", altText: "Detail", width: null, height: null, position: 2 });
    fake.on("ProductReorderMedia", { productReorderMedia: { job: null, mediaUserErrors: [{ field: ["moves", "0", "id"], message: "Media does not exist" }] } });
    expect((await commerceError(commerce.reorderMedia(product.id, ["gid://shopify/MediaImage/1"]))).status).toBe(404);
  });

  it("sets inventory through the variants' inventory items at the location", async () => {
    fake.on("InventoryLocations", { locations: { nodes: [{ id: "gid://shopify/Location/2", name: "Warehouse", isActive: true, shipsInventory: true, fulfillsOnlineOrders: true }] } });
    fake.on("VariantInventoryItems", (v) => ({ data: { nodes: v.ids.map((id: string) => (id.endsWith("/404") ? null : { id, product: { id: product.id }, inventoryItem: { id: id.replace("ProductVariant", "InventoryItem") } })) } }));
    fake.on("InventorySetQuantities", { inventorySetQuantities: { inventoryAdjustmentGroup: { id: "gid://shopify/InventoryAdjustmentGroup/1" }, userErrors: [] } });
    await commerce.setInventory([{ variantId: "gid://shopify/ProductVariant/71", available: 5 }]);
    expect(fake.calls("InventorySetQuantities")[0].variables.input).toEqual({
      name: "available",
      reason: "correction",
      quantities: [{ inventoryItemId: "gid://shopify/InventoryItem/71", locationId: "gid://shopify/Location/2", quantity: 5, changeFromQuantity: null }],
    });
    expect((await commerceError(commerce.setInventory([{ variantId: "gid://shopify/ProductVariant/404", available: 1 }]))).status).toBe(404);
  });

  it("publishes on the Online Store publication (looked up once) with a future publish date, and unpublishes", async () => {
    fake.on("Publications", {
      publications: {
        nodes: [
          { id: "gid://shopify/Publication/2", supportsFuturePublishing: false, catalog: { title: "Point of Sale" } },
          { id: "gid://shopify/Publication/1", supportsFuturePublishing: true, catalog: { title: "Online Store" } },
        ],
      },
    });
    fake.on("PublishablePublish", { publishablePublish: noErrors });
    fake.on("PublishableUnpublish", { publishableUnpublish: noErrors });
    const at = new Date(Date.now() + 86_400_000);
    await commerce.publishProduct(product.id, { publishDate: at });
    await commerce.publishProduct(product.id);
    await commerce.unpublishProduct(product.id);
    expect(fake.calls("Publications")).toHaveLength(1);
    expect(fake.calls("PublishablePublish")[0].variables).toEqual({ id: product.id, input: [{ publicationId: "gid://shopify/Publication/1", publishDate: at.toISOString() }] });
    expect(fake.calls("PublishablePublish")[1].variables).toEqual({ id: product.id, input: [{ publicationId: "gid://shopify/Publication/1" }] });
    expect(fake.calls("PublishableUnpublish")[0].variables).toEqual({ id: product.id, input: [{ publicationId: "gid://shopify/Publication/1" }] });
  });
});

describe("whole-catalogue export (bulk operation)", () => {
  it("runs the bulk query, polls it, downloads the JSONL and assembles products by __parentId with progress", async () => {
    fake.files.set("/bulk/products.jsonl", fixture("bulk-products.jsonl"));
    fake.on("ProductsCount", { productsCount: { count: 2, precision: "EXACT" } });
    fake.on("BulkOperationRunQuery", { bulkOperationRunQuery: { bulkOperation: { id: "gid://shopify/BulkOperation/1", status: "CREATED" }, userErrors: [] } });
    fake.on("BulkOperationStatus", (_v, call) => ({
      data: {
        bulkOperation:
          call === 1
            ? { id: "gid://shopify/BulkOperation/1", status: "RUNNING", errorCode: null, objectCount: "3", rootObjectCount: "1", url: null, partialDataUrl: null }
            : { id: "gid://shopify/BulkOperation/1", status: "COMPLETED", errorCode: null, objectCount: "6", rootObjectCount: "2", url: `${fake.origin}/bulk/products.jsonl`, partialDataUrl: null },
      },
    }));
    const progress: number[] = [];
    const products = [];
    for await (const p of commerce.exportAllProducts((f) => progress.push(f), { vendor: "Northwind Atelier" })) products.push(p);
    expect(fake.calls("ProductsCount")[0].variables).toEqual({ query: "vendor:'Northwind Atelier'" });
    expect(fake.calls("BulkOperationRunQuery")[0].variables.query).toContain('products(query: "vendor:\'Northwind Atelier\'")');
    expect(fake.calls("BulkOperationStatus")).toHaveLength(2);
    expect(products.map((p) => p.id)).toEqual(["gid://shopify/Product/7101", "gid://shopify/Product/7102"]);
    const coat = products[0];
    expect(coat.variants.map((v) => [v.id, v.price, v.colorHex, v.imageUrl])).toEqual([
      ["gid://shopify/ProductVariant/71011", "120.00", "#333333", "https://cdn.shopify.test/coat.jpg"],
      ["gid://shopify/ProductVariant/71012", "130.00", "#333333", null],
    ]);
    expect(coat.images).toEqual([{ id: "gid://shopify/MediaImage/7191", url: "https://cdn.shopify.test/coat.jpg", altText: "Coat", width: 600, height: 800, position: 0 }]);
    expect(coat.targetGender).toBe("womenswear");
    expect(products[1]).toMatchObject({ status: "draft", targetGender: "both", publishedAt: null });
    expect(progress[0]).toBe(0);
    expect(progress).toContain(0.25); // 1 of 2 root objects while running
    expect(progress[progress.length - 1]).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it("fails with the bulk operation's error code", async () => {
    fake.on("ProductsCount", { productsCount: { count: 2, precision: "EXACT" } });
    fake.on("BulkOperationRunQuery", { bulkOperationRunQuery: { bulkOperation: { id: "gid://shopify/BulkOperation/2", status: "CREATED" }, userErrors: [] } });
    fake.on("BulkOperationStatus", { bulkOperation: { id: "gid://shopify/BulkOperation/2", status: "FAILED", errorCode: "INTERNAL_SERVER_ERROR", objectCount: "0", rootObjectCount: "0", url: null, partialDataUrl: null } });
    const run = async () => {
      for await (const _ of commerce.exportAllProducts()) void _;
    };
    const e = await commerceError(run());
    expect(e.message).toMatch(/failed \(INTERNAL_SERVER_ERROR\)/);
  });

  it("reports a refused bulk operation (one already running) as userErrors", async () => {
    fake.on("ProductsCount", { productsCount: { count: 2, precision: "EXACT" } });
    fake.on("BulkOperationRunQuery", { bulkOperationRunQuery: { bulkOperation: null, userErrors: [{ field: null, message: "A bulk query operation for this app and shop is already in progress" }] } });
    const run = async () => {
      for await (const _ of commerce.exportAllProducts()) void _;
    };
    expect((await commerceError(run())).message).toMatch(/already in progress/);
  });
});

describe("orders", () => {
  it("lists a customer's orders", async () => {
    fake.on("OrdersList", { orders: { nodes: [order], pageInfo: { hasNextPage: false, endCursor: null } } });
    const page = await commerce.listOrders({ limit: 20, customerId: "gid://shopify/Customer/301" });
    expect(page.items[0].lines.map((l) => [l.id, l.price])).toEqual([["gid://shopify/LineItem/11", "40.00"], ["gid://shopify/LineItem/12", "45.50"]]);
    expect(fake.calls("OrdersList")[0].variables).toEqual({ first: 20, after: null, query: "customer_id:301" });
  });

  it("cancels with a reason, refund method and restock; userErrors are reported", async () => {
    fake.on("OrderCancel", (_v, call) => ({
      data: { orderCancel: { job: call === 1 ? { id: "gid://shopify/Job/2", done: false } : null, orderCancelUserErrors: call === 1 ? [] : [{ field: ["orderId"], message: "Order has already been cancelled", code: "ORDER_ALREADY_CANCELLED" }] } },
    }));
    await commerce.cancelOrder(order.id, { reason: "CUSTOMER", refund: true, restock: true, staffNote: "asked" });
    expect(fake.calls("OrderCancel")[0].variables).toEqual({ orderId: order.id, reason: "CUSTOMER", refundMethod: { originalPaymentMethodsRefund: true }, restock: true, staffNote: "asked", notifyCustomer: true });
    expect((await commerceError(commerce.cancelOrder(order.id, { reason: "OTHER", refund: false, restock: false }))).message).toBe("Order has already been cancelled");
  });

  it("fulfils lines through their fulfilment orders with tracking, updates tracking, and requests a return", async () => {
    fake.on("OrderFulfillmentOrders", {
      order: {
        id: order.id,
        fulfillmentOrders: {
          nodes: [
            { id: "gid://shopify/FulfillmentOrder/1", status: "CLOSED", lineItems: { nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/100", remainingQuantity: 0, lineItem: { id: "gid://shopify/LineItem/11" } }] } },
            { id: "gid://shopify/FulfillmentOrder/2", status: "OPEN", lineItems: { nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/101", remainingQuantity: 1, lineItem: { id: "gid://shopify/LineItem/11" } }, { id: "gid://shopify/FulfillmentOrderLineItem/102", remainingQuantity: 1, lineItem: { id: "gid://shopify/LineItem/12" } }] } },
          ],
        },
      },
    });
    fake.on("FulfillmentCreate", { fulfillmentCreate: { fulfillment: { id: "gid://shopify/Fulfillment/9", status: "SUCCESS" }, userErrors: [] } });
    fake.on("FulfillmentTrackingUpdate", { fulfillmentTrackingInfoUpdate: { fulfillment: { id: "gid://shopify/Fulfillment/9" }, userErrors: [] } });
    const { fulfillmentId } = await commerce.fulfillOrderLines(order.id, { lines: [{ orderLineId: "gid://shopify/LineItem/11", quantity: 1 }], trackingNumber: "1Z999", trackingCompany: "UPS", notifyCustomer: true });
    expect(fulfillmentId).toBe("gid://shopify/Fulfillment/9");
    expect(fake.calls("FulfillmentCreate")[0].variables.fulfillment).toEqual({
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/2", fulfillmentOrderLineItems: [{ id: "gid://shopify/FulfillmentOrderLineItem/101", quantity: 1 }] }],
      notifyCustomer: true,
      trackingInfo: { number: "1Z999", company: "UPS" },
    });
    expect((await commerceError(commerce.fulfillOrderLines(order.id, { lines: [{ orderLineId: "gid://shopify/LineItem/12", quantity: 2 }], notifyCustomer: false }))).status).toBe(409);
    await commerce.updateTracking(fulfillmentId, { trackingNumber: "1Z000" });
    expect(fake.calls("FulfillmentTrackingUpdate")[0].variables).toEqual({ fulfillmentId, trackingInfoInput: { number: "1Z000" }, notifyCustomer: true });

    fake.on("OrderFulfillmentLines", { order: { id: order.id, fulfillments: [{ id: fulfillmentId, fulfillmentLineItems: { nodes: [{ id: "gid://shopify/FulfillmentLineItem/55", quantity: 1, lineItem: { id: "gid://shopify/LineItem/11" } }] } }] } });
    fake.on("ReturnRequest", { returnRequest: { return: { id: "gid://shopify/Return/77", status: "REQUESTED" }, userErrors: [] } });
    const { returnId } = await commerce.requestReturn(order.id, [{ orderLineId: "gid://shopify/LineItem/11", quantity: 1, reason: "size too small", note: "tight" }]);
    expect(returnId).toBe("gid://shopify/Return/77");
    expect(fake.calls("ReturnRequest")[0].variables.input).toEqual({ orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: "gid://shopify/FulfillmentLineItem/55", quantity: 1, returnReason: "SIZE_TOO_SMALL", customerNote: "tight" }] });
    expect((await commerceError(commerce.requestReturn(order.id, [{ orderLineId: "gid://shopify/LineItem/12", quantity: 1, reason: "OTHER" }]))).status).toBe(409);
  });
});
