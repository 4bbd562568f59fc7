/**
 * Proposed image edits with the Shopify commerce adapter, against the local server that answers
 * like the Admin GraphQL API (tests/fixtures/shopify/fake-admin-server.ts validates every document
 * AND its variables against the real 2026-10 Admin schema). Covers the port additions:
 * addProductImage at a position (productUpdate(media:) + productReorderMedia) and
 * deleteProductMedia (fileUpdate referencesToRemove: productDeleteMedia is deprecated in 2026-10),
 * then approval end to end (store calls, read model).
 */
import { parse, validate } from "graphql";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { ADMIN_DOCUMENTS, PRODUCT_ADD_MEDIA, PRODUCT_REMOVE_MEDIA, PRODUCT_REORDER_MEDIA } from "../../app/providers/commerce/shopify-documents";
import { adminSchema, jsonFixture, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, mgid, pgid, vgid } from "./products-fixtures";

const APP_URL = "https://fashion-app.example.test";
const CDN = "https://cdn.shopify.test/s/files/1/edit-red.jpg";
const NEW_MEDIA = "gid://shopify/MediaImage/888001";

let app: TestApp;
let fake: FakeShopify;
let commerce: CommercePort;
let reviewer: { id: string; token: string };
let red: string;

beforeAll(async () => {
  app = await createTestApp({ env: { APP_URL } });
  fake = await startFakeShopify();
  commerce = createShopifyCommerce({ shop: fake.shop, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => {} });
  app.ctx.commerce = commerce;
  reviewer = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  await createProduct(app.database.db, { n: 9401, title: "Silk Slip Dress", colours: { Black: "#111111", Ivory: "#fffff0" }, images: 3 });
  await createProduct(app.database.db, { n: 9402, title: "Rib Knit Tank", images: 2 });
  const bytes = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#cc2222" } }).jpeg().toBuffer();
  red = (await app.ctx.storage.put("images/test/shopify-edit-red.jpg", new Uint8Array(bytes), "image/jpeg")).url;
});
afterAll(async () => {
  await fake?.close();
  await app?.close();
});
beforeEach(() => {
  fake.handlers.clear();
  fake.requests.length = 0;
});

/** ProductGet answering the fixture product under another id, with the given media. */
function productWithMedia(productId: string, media: { id: string; url: string }[], variantImage: Record<string, string> = {}) {
  const base = jsonFixture("product.json");
  fake.on("ProductGet", () => ({
    data: {
      product: {
        ...base,
        id: productId,
        media: { nodes: media.map((m) => ({ id: m.id, mediaContentType: "IMAGE", image: { url: m.url, altText: "alt", width: 600, height: 800 } })) },
        variants: {
          nodes: base.variants.nodes.map((v: { id: string }) => ({ ...v, media: { nodes: variantImage[v.id] ? [{ image: { url: variantImage[v.id] } }] : [] }, image: variantImage[v.id] ? { url: variantImage[v.id] } : null })),
        },
      },
    },
  }));
}
const addMediaReply = (count: number, image: { url: string } | null = null) => ({
  productUpdate: { product: { id: "x", mediaCount: { count }, media: { nodes: [{ id: NEW_MEDIA, mediaContentType: "IMAGE", image: image ? { ...image, altText: null, width: null, height: null } : null }] } }, userErrors: [] },
});

describe("the new Admin document", () => {
  it("ProductRemoveMedia (fileUpdate) is a named operation that validates against 2026-10; the deprecated mutations are not used", () => {
    expect(ADMIN_DOCUMENTS.ProductRemoveMedia).toBe(PRODUCT_REMOVE_MEDIA);
    for (const doc of [PRODUCT_REMOVE_MEDIA, PRODUCT_ADD_MEDIA, PRODUCT_REORDER_MEDIA]) expect(validate(adminSchema(), parse(doc)).map((e) => e.message)).toEqual([]);
    const all = Object.values(ADMIN_DOCUMENTS).join("\n");
    expect(all).not.toMatch(/productCreateMedia|productDeleteMedia|productUpdateMedia/);
  });
});

describe("port additions on Shopify", () => {
  it("addProductImage at a position: created with productUpdate(media:), then moved with productReorderMedia", async () => {
    fake.on("ProductAddMedia", addMediaReply(4));
    fake.on("ProductReorderMedia", { productReorderMedia: { job: { id: "gid://shopify/Job/1", done: false }, mediaUserErrors: [] } });
    const img = await commerce.addProductImage(pgid(9401), { url: "https://cdn.test/new.jpg", altText: "New", position: 1 });
    expect(img).toMatchObject({ id: NEW_MEDIA, url: "https://cdn.test/new.jpg", position: 1 });
    expect(fake.requests.map((r) => r.operationName)).toEqual(["ProductAddMedia", "ProductReorderMedia"]);
    expect(fake.calls("ProductAddMedia")[0].variables).toEqual({ product: { id: pgid(9401) }, media: [{ originalSource: "https://cdn.test/new.jpg", alt: "New", mediaContentType: "IMAGE" }] });
    expect(fake.calls("ProductReorderMedia")[0].variables).toEqual({ id: pgid(9401), moves: [{ id: NEW_MEDIA, newPosition: "1" }] });

    // At or past the end: no move.
    fake.requests.length = 0;
    fake.on("ProductAddMedia", addMediaReply(5));
    expect((await commerce.addProductImage(pgid(9401), { url: "https://cdn.test/last.jpg", position: 10 })).position).toBe(4);
    expect(fake.requests.map((r) => r.operationName)).toEqual(["ProductAddMedia"]);
  });

  it("deleteProductMedia: fileUpdate removing the product reference of each media; userErrors become CommerceErrors (404 for a missing file)", async () => {
    fake.on("ProductRemoveMedia", (v) => ({ data: { fileUpdate: { files: v.files.map((f: { id: string }) => ({ id: f.id })), userErrors: [] } } }));
    await commerce.deleteProductMedia(pgid(9401), [mgid(9401, 0), mgid(9401, 0), mgid(9401, 1)]);
    expect(fake.calls("ProductRemoveMedia")[0].variables).toEqual({
      files: [
        { id: mgid(9401, 0), referencesToRemove: [pgid(9401)] },
        { id: mgid(9401, 1), referencesToRemove: [pgid(9401)] },
      ],
    });
    fake.requests.length = 0;
    await commerce.deleteProductMedia(pgid(9401), []);
    expect(fake.requests).toHaveLength(0);
    fake.on("ProductRemoveMedia", { fileUpdate: { files: null, userErrors: [{ field: ["files", "0", "id"], message: "File id gid://shopify/MediaImage/1 does not exist.", code: "FILE_DOES_NOT_EXIST" }] } });
    const e = await commerce.deleteProductMedia(pgid(9401), ["gid://shopify/MediaImage/1"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CommerceError);
    expect((e as CommerceError).status).toBe(404);
  });
});

describe("approve with the Shopify adapter", () => {
  it("adds the image from our public URL at the original's position, points the variants at it, removes the original, and updates the read model", async () => {
    const orig = { id: mgid(9401, 1), url: "/uploads/images/test/9401-1.jpg" };
    const fixtureVariant = jsonFixture("product.json").variants.nodes[0].id as string;
    productWithMedia(pgid(9401), [{ id: mgid(9401, 0), url: "/uploads/images/test/9401-0.jpg" }, orig, { id: mgid(9401, 2), url: "/uploads/images/test/9401-2.jpg" }], { [fixtureVariant]: orig.url });
    fake.on("ProductAddMedia", addMediaReply(4, { url: CDN }));
    fake.on("ProductReorderMedia", { productReorderMedia: { job: null, mediaUserErrors: [] } });
    fake.on("ProductRemoveMedia", (v) => ({ data: { fileUpdate: { files: v.files.map((f: { id: string }) => ({ id: f.id })), userErrors: [] } } }));
    fake.on("ProductVariantAppendMedia", (v) => ({ data: { productVariantAppendMedia: { productVariants: v.variantMedia.map((m: { variantId: string }) => ({ id: m.variantId })), userErrors: [] } } }));

    const e = (await app.api("POST", "/proposed-image-edits", { token: reviewer.token, body: { product_id: pgid(9401), image_url: orig.url, proposed_image_url: red, operation: "remove-object" } })).body;
    const r = await app.api("POST", `/proposed-image-edits/${e.id}/approve`, { token: reviewer.token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "approved", reviewer_id: reviewer.id });

    expect(fake.requests.map((q) => q.operationName)).toEqual(["ProductGet", "ProductAddMedia", "ProductReorderMedia", "ProductRemoveMedia", "ProductVariantAppendMedia"]);
    expect(fake.calls("ProductAddMedia")[0].variables).toEqual({ product: { id: pgid(9401) }, media: [{ originalSource: `${APP_URL}${red}`, alt: "alt", mediaContentType: "IMAGE" }] });
    expect(fake.calls("ProductReorderMedia")[0].variables).toEqual({ id: pgid(9401), moves: [{ id: NEW_MEDIA, newPosition: "1" }] });
    expect(fake.calls("ProductRemoveMedia")[0].variables).toEqual({ files: [{ id: orig.id, referencesToRemove: [pgid(9401)] }] });
    expect(fake.calls("ProductVariantAppendMedia")[0].variables).toEqual({ productId: pgid(9401), variantMedia: [{ variantId: fixtureVariant, mediaIds: [NEW_MEDIA] }] });

    const db = app.database.db;
    const images = await db.productImage.findMany({ where: { product_id: pgid(9401) }, orderBy: { position: "asc" } });
    expect(images.map((i) => [i.id, i.url, i.position])).toEqual([
      [mgid(9401, 0), "/uploads/images/test/9401-0.jpg", 0],
      [NEW_MEDIA, CDN, 1],
      [mgid(9401, 2), "/uploads/images/test/9401-2.jpg", 2],
    ]);
    // Our read-model variants that showed the original lose it (the fixture's variant ids are not ours).
    const variants = await db.productVariant.findMany({ where: { product_id: pgid(9401) }, orderBy: { position: "asc" } });
    expect(variants.map((v) => v.image_url)).toEqual(["/uploads/images/test/9401-0.jpg", "/uploads/images/test/9401-0.jpg", null, null]);
    expect(vgid(9401, 0)).toBeTruthy();
  });

  it("userErrors on the new image: the edit stays pending, 502 with Shopify's message, nothing removed", async () => {
    productWithMedia(pgid(9402), [{ id: mgid(9402, 0), url: "/uploads/images/test/9402-0.jpg" }]);
    fake.on("ProductAddMedia", { productUpdate: { product: null, userErrors: [{ field: ["media", "0", "originalSource"], message: "Image URL is invalid" }] } });
    const e = (await app.api("POST", "/proposed-image-edits", { token: reviewer.token, body: { product_id: pgid(9402), image_url: "/uploads/images/test/9402-0.jpg", proposed_image_url: red, operation: "chrono-edit" } })).body;
    const r = await app.api("POST", `/proposed-image-edits/${e.id}/approve`, { token: reviewer.token });
    expect(r.status).toBe(502);
    expect(r.body.error).toMatchObject({ message: "The store could not update the product's images: Image URL is invalid", details: { reason: "Image URL is invalid" } });
    expect(fake.calls("ProductRemoveMedia")).toHaveLength(0);
    expect(await app.database.db.proposedImageEdit.findUniqueOrThrow({ where: { id: e.id } })).toMatchObject({ status: "pending", reviewer_id: null });
    expect((await app.database.db.productImage.findMany({ where: { product_id: pgid(9402) } })).map((i) => i.id).sort()).toEqual([mgid(9402, 0), mgid(9402, 1)]);
  });

  it("without APP_URL the store cannot fetch our image: 422 before any store write, the edit stays pending", async () => {
    const appUrl = app.ctx.config.APP_URL;
    (app.ctx.config as { APP_URL?: string }).APP_URL = undefined;
    try {
      productWithMedia(pgid(9402), [{ id: mgid(9402, 0), url: "/uploads/images/test/9402-0.jpg" }]);
      const e = await app.database.db.proposedImageEdit.findFirstOrThrow({ where: { product_id: pgid(9402), status: "pending" } });
      const r = await app.api("POST", `/proposed-image-edits/${e.id}/approve`, { token: reviewer.token });
      expect(r.status).toBe(422);
      expect(r.body.error.message).toMatch(/set APP_URL/);
      expect(fake.calls("ProductAddMedia")).toHaveLength(0);
      expect((await app.database.db.proposedImageEdit.findUniqueOrThrow({ where: { id: e.id } })).status).toBe("pending");
    } finally {
      (app.ctx.config as { APP_URL?: string }).APP_URL = appUrl;
    }
  });
});
