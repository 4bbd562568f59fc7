/**
 * Approving a proposed variant image with the Shopify commerce adapter, against the local server
 * that answers like the Admin GraphQL API (tests/fixtures/shopify/fake-admin-server.ts): it
 * validates every document AND its variables against the real 2026-10 Admin schema, so the
 * requests checked here are requests Shopify accepts. Also: the three new documents validate
 * on their own (they are in ADMIN_DOCUMENTS, walked by tests/unit/shopify-documents.test.ts).
 */
import { parse, validate } from "graphql";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import { ADMIN_DOCUMENTS, PRODUCT_VARIANT_DETACH_MEDIA, PRODUCT_VARIANT_SET_IMAGE, VARIANT_MEDIA } from "../../app/providers/commerce/shopify-documents";
import type { AppConfig } from "../../app/config.server";
import { adminSchema, startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, vgid } from "./products-fixtures";

const APP_URL = "https://fashion-app.example.test";
const CDN = "https://cdn.shopify.test/s/files/1/proposed-red.jpg";
const OLD_MEDIA = "gid://shopify/MediaImage/920100";
const NEW_MEDIA = "gid://shopify/MediaImage/777001";

let app: TestApp;
let fake: FakeShopify;
let reviewer: { id: string; token: string };
let red: string;

beforeAll(async () => {
  app = await createTestApp({ env: { APP_URL } });
  fake = await startFakeShopify();
  app.ctx.commerce = createShopifyCommerce({ shop: fake.shop, apiVersion: "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => {} });
  reviewer = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  await createProduct(app.database.db, { n: 9201, title: "Silk Slip Dress", colours: { Black: "#111111", Ivory: "#fffff0" } });
  await createProduct(app.database.db, { n: 9202, title: "Rib Knit Tank" });
  const bytes = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#cc2222" } }).jpeg().toBuffer();
  red = (await app.ctx.storage.put("images/test/shopify-red.jpg", new Uint8Array(bytes), "image/jpeg")).url;
});
afterAll(async () => {
  await fake?.close();
  await app?.close();
});
beforeEach(() => {
  fake.handlers.clear();
  fake.requests.length = 0;
});

const propose = async (n: number, i: number) =>
  (await app.api("POST", "/proposed-variant-images", { token: reviewer.token, body: { product_id: pgid(n), variant_id: vgid(n, i), proposed_image_url: red, source: "taobao" } })).body;
const approve = (id: string) => app.api("POST", `/proposed-variant-images/${id}/approve`, { token: reviewer.token });

function variantMedia(productId: string, mediaIds: string[]) {
  fake.on("VariantMedia", (v) => ({ data: { productVariant: { id: v.id, product: { id: productId }, media: { nodes: mediaIds.map((id) => ({ id })) } } } }));
}

describe("the new Admin documents", () => {
  it("are named operations that validate against the 2026-10 schema", () => {
    for (const [name, doc] of [
      ["VariantMedia", VARIANT_MEDIA],
      ["ProductVariantDetachMedia", PRODUCT_VARIANT_DETACH_MEDIA],
      ["ProductVariantSetImage", PRODUCT_VARIANT_SET_IMAGE],
    ] as const) {
      expect(ADMIN_DOCUMENTS[name]).toBe(doc);
      expect(validate(adminSchema(), parse(doc)).map((e) => e.message)).toEqual([]);
    }
  });
});

describe("approve with the Shopify adapter", () => {
  it("detaches the variant's media, creates the image from our public URL and attaches it, then updates the read model", async () => {
    const p = await propose(9201, 0);
    variantMedia(pgid(9201), [OLD_MEDIA]);
    fake.on("ProductVariantDetachMedia", (v) => ({ data: { productVariantDetachMedia: { productVariants: [{ id: v.variantMedia[0].variantId }], userErrors: [] } } }));
    fake.on("ProductVariantSetImage", (v) => ({
      data: { productVariantsBulkUpdate: { productVariants: [{ id: v.variants[0].id, media: { nodes: [{ id: NEW_MEDIA, image: { url: CDN } }] } }], userErrors: [] } },
    }));
    const r = await approve(p.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "approved", reviewer_id: reviewer.id, variant: { image_url: CDN } });

    expect(fake.requests.map((q) => q.operationName)).toEqual(["VariantMedia", "ProductVariantDetachMedia", "ProductVariantSetImage"]);
    expect(fake.calls("VariantMedia")[0].variables).toEqual({ id: vgid(9201, 0) });
    expect(fake.calls("ProductVariantDetachMedia")[0].variables).toEqual({ productId: pgid(9201), variantMedia: [{ variantId: vgid(9201, 0), mediaIds: [OLD_MEDIA] }] });
    const publicUrl = `${APP_URL}${red}`;
    expect(fake.calls("ProductVariantSetImage")[0].variables).toEqual({
      productId: pgid(9201),
      media: [{ originalSource: publicUrl, alt: "Silk Slip Dress – Black / S", mediaContentType: "IMAGE" }],
      variants: [{ id: vgid(9201, 0), mediaSrc: [publicUrl] }],
    });

    const db = app.database.db;
    expect((await db.productVariant.findUniqueOrThrow({ where: { id: vgid(9201, 0) } })).image_url).toBe(CDN);
    expect(await db.productImage.findUniqueOrThrow({ where: { id: NEW_MEDIA } })).toMatchObject({ product_id: pgid(9201), url: CDN, position: 2 });
  });

  it("a variant without media is not detached; an image still processing keeps our URL", async () => {
    const p = await propose(9201, 1);
    variantMedia(pgid(9201), []);
    fake.on("ProductVariantSetImage", (v) => ({ data: { productVariantsBulkUpdate: { productVariants: [{ id: v.variants[0].id, media: { nodes: [{ id: "gid://shopify/MediaImage/777002", image: null }] } }], userErrors: [] } } }));
    const r = await approve(p.id);
    expect(r.status).toBe(200);
    expect(fake.requests.map((q) => q.operationName)).toEqual(["VariantMedia", "ProductVariantSetImage"]);
    expect(r.body.variant.image_url).toBe(`${APP_URL}${red}`);
  });

  it("userErrors: the previous media is re-attached, the proposal stays pending, the answer carries Shopify's message", async () => {
    const p = await propose(9201, 2);
    variantMedia(pgid(9201), [OLD_MEDIA]);
    fake.on("ProductVariantDetachMedia", { productVariantDetachMedia: { productVariants: [], userErrors: [] } });
    fake.on("ProductVariantSetImage", {
      productVariantsBulkUpdate: { productVariants: null, userErrors: [{ field: ["media", "0", "originalSource"], message: "Image URL is invalid", code: "INVALID_INPUT" }] },
    });
    fake.on("ProductVariantAppendMedia", { productVariantAppendMedia: { productVariants: [{ id: vgid(9201, 2) }], userErrors: [] } });
    const r = await approve(p.id);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ message: "Failed to append media to variant", details: { reason: "Image URL is invalid" } });
    expect(fake.calls("ProductVariantAppendMedia")[0].variables).toEqual({ productId: pgid(9201), variantMedia: [{ variantId: vgid(9201, 2), mediaIds: [OLD_MEDIA] }] });
    const after = await app.database.db.proposedVariantImage.findUniqueOrThrow({ where: { id: p.id } });
    expect(after).toMatchObject({ status: "pending", reviewer_id: null });
    expect((await app.database.db.productVariant.findUniqueOrThrow({ where: { id: vgid(9201, 2) } })).image_url).not.toBe(CDN);
  });

  it("a variant Shopify no longer has on that product answers 404 and writes nothing", async () => {
    const p = await propose(9202, 0);
    fake.on("VariantMedia", { productVariant: null });
    const r = await approve(p.id);
    expect(r.status).toBe(404);
    expect(r.body.error.details.reason).toMatch(/not found on product/);
    expect(fake.requests.map((q) => q.operationName)).toEqual(["VariantMedia"]);
    expect((await app.database.db.proposedVariantImage.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("pending");
  });

  it("without APP_URL the store could not fetch our image: a clear 422 before any request", async () => {
    const p = await propose(9202, 1);
    const config = app.ctx.config as { -readonly [K in keyof AppConfig]: AppConfig[K] };
    const saved = config.APP_URL;
    config.APP_URL = undefined;
    try {
      const r = await approve(p.id);
      expect(r.status).toBe(422);
      expect(r.body.error.message).toMatch(/set APP_URL/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      config.APP_URL = saved;
    }
  });
});
