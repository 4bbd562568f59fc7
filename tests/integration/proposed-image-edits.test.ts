/**
 * Proposed image edits (SPEC §7): every endpoint's happy path and failures, the permission
 * (media.manage), the review states (forbidden moves answer 409), and approval writing through
 * the local commerce adapter (the product's images change in the store tables); a failing store
 * leaves the edit pending with a 502. Also the port additions on the local adapter
 * (addProductImage at a position, deleteProductMedia) and addProductGeneratedImage.
 * The Shopify adapter's path: proposed-image-edits-shopify.test.ts.
 */
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposedImageEditsEndpoints } from "../../app/contract/proposed-image-edits";
import type { EndpointDef } from "../../app/contract/endpoint";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { addProductGeneratedImage, createImageEdit } from "../../app/services/proposed-image-edits.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, mgid, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let reviewer: { id: string; token: string };
let catalogOnly: { token: string };
let shopper: { token: string };

const jpeg = (hex: string, w = 40, h = 50) => sharp({ create: { width: w, height: h, channels: 3, background: hex } }).jpeg().toBuffer();
async function upload(key: string, bytes: Uint8Array | Buffer) {
  return (await app.ctx.storage.put(key, new Uint8Array(bytes), "image/jpeg")).url;
}
const call = (method: string, p: string, o: { body?: unknown; query?: Record<string, string | number | undefined>; token?: string } = {}) =>
  app.api(method, p, { token: o.token ?? reviewer.token, body: o.body, query: o.query });
const original = (n: number, i: number) => `/uploads/images/test/${n}-${i}.jpg`;
const propose = (n: number, imageIndex: number, proposed: string, extra: Record<string, unknown> = {}) =>
  call("POST", "/proposed-image-edits", { body: { product_id: pgid(n), image_url: original(n, imageIndex), proposed_image_url: proposed, operation: "generate-flux-product-shot", ...extra } });
const imagesOf = async (n: number) => (await app.database.db.productImage.findMany({ where: { product_id: pgid(n) }, orderBy: [{ position: "asc" }, { id: "asc" }] })).map((i) => ({ id: i.id, url: i.url, position: i.position }));

async function withCommerce<K extends keyof CommercePort>(name: K, impl: CommercePort[K], run: () => Promise<void>) {
  const commerce = app.ctx.commerce as unknown as Record<string, unknown>;
  const had = Object.prototype.hasOwnProperty.call(commerce, name);
  const before = commerce[name];
  commerce[name] = impl;
  try {
    await run();
  } finally {
    if (had) commerce[name] = before;
    else delete commerce[name];
  }
}

let red: string, blue: string, green: string, yellow: string;

beforeAll(async () => {
  app = await createTestApp();
  reviewer = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  catalogOnly = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "ai.train"] });
  shopper = await app.createUser();
  // Black/White × S/M: variants n00, n01 show image 0; n02, n03 show image 1. Three images.
  for (const [n, title] of [
    [9301, "Linen Camp Shirt"],
    [9302, "Pleated Midi Skirt"],
    [9303, "Wool Overcoat"],
    [9304, "Canvas Tote"],
    [9305, "Denim Jacket"],
  ] as const) {
    await createProduct(app.database.db, { n, title, colours: { Black: "#111111", White: "#f5f5f5" }, images: 3 });
  }
  red = await upload("images/test/edit-red.jpg", await jpeg("#cc2222"));
  blue = await upload("images/test/edit-blue.jpg", await jpeg("#2222cc"));
  green = await upload("images/test/edit-green.jpg", await jpeg("#22aa22"));
  yellow = await upload("images/test/edit-yellow.jpg", await jpeg("#dddd22"));
  await upload("images/test/edit-not-an-image.jpg", Buffer.from("plain text"));
});
afterAll(() => app?.close());

describe("access", () => {
  it("every endpoint needs an admin with media.manage: 403 for another admin and a shopper, 401 anonymous", async () => {
    const id = "00000000-0000-0000-0000-000000000000";
    for (const def of Object.values(proposedImageEditsEndpoints) as EndpointDef[]) {
      const p = def.path.replace("{id}", id);
      const body = def.method === "GET" || def.method === "DELETE" ? undefined : {};
      for (const who of [catalogOnly, shopper]) {
        const r = await app.api(def.method, p, { token: who.token, body });
        expect(r.status, `${def.method} ${p}`).toBe(403);
      }
      expect((await app.api(def.method, p, { body })).status, `${def.method} ${p} anonymous`).toBe(401);
    }
  });
});

describe("create", () => {
  it("creates a pending edit of a product image (201)", async () => {
    const r = await propose(9301, 1, red, { prompt: "  studio background  " });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      product_id: pgid(9301),
      image_url: original(9301, 1),
      proposed_image_url: red,
      prompt: "studio background",
      operation: "generate-flux-product-shot",
      status: "pending",
      reviewer_id: null,
      reviewed_at: null,
      original_on_product: true,
      product: { id: pgid(9301), title: "Linen Camp Shirt", featuredImage: { url: original(9301, 0) } },
    });
    // A bare numeric product id is the product's GID; an image that is not on the product is fine (appended on approval).
    const bare = await call("POST", "/proposed-image-edits", { body: { product_id: "9301", image_url: "https://example.test/upload.jpg", proposed_image_url: blue, operation: "Manual" } });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ product_id: pgid(9301), operation: "manual", prompt: null, original_on_product: false });
  });

  it("refuses: unknown product 404, missing/invalid image, same as the original, duplicate pending, bad input", async () => {
    const r404 = await call("POST", "/proposed-image-edits", { body: { product_id: pgid(9999), image_url: original(9999, 0), proposed_image_url: red, operation: "remove-object" } });
    expect(r404.status).toBe(404);
    expect(r404.body.error.message).toBe("Product not found");
    const missing = await propose(9301, 0, "/uploads/images/test/nope.jpg");
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toMatch(/was not found in our storage/);
    const notImage = await propose(9301, 0, "/uploads/images/test/edit-not-an-image.jpg");
    expect(notImage.status).toBe(415);
    const same = await propose(9301, 2, original(9301, 2));
    expect([422, 415]).toContain(same.status); // the fixture's original is not a stored file: refused either way
    const sameStored = await call("POST", "/proposed-image-edits", { body: { product_id: pgid(9301), image_url: green, proposed_image_url: green, operation: "manual" } });
    expect(sameStored.status).toBe(422);
    expect(sameStored.body.error.message).toMatch(/is the original image/);
    const dup = await propose(9301, 1, red);
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toMatch(/already proposed for this image/);
    const privateUrl = await propose(9301, 0, "http://127.0.0.1:9/x.jpg");
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.body.error.message).toMatch(/not a public address/);
    for (const body of [
      { product_id: pgid(9301), image_url: original(9301, 0), proposed_image_url: red },
      { product_id: pgid(9301), image_url: original(9301, 0), proposed_image_url: red, operation: "two words" },
      { product_id: pgid(9301), image_url: "relative/x.jpg", proposed_image_url: red, operation: "manual" },
      { product_id: "", image_url: original(9301, 0), proposed_image_url: red, operation: "manual" },
    ]) {
      const r = await call("POST", "/proposed-image-edits", { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("an http(s) image elsewhere is copied into our storage (by content hash)", async () => {
    const bytes = await jpeg("#123456", 60, 60);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "image/jpeg" });
      res.end(bytes);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/edit.jpg`;
      const e = await createImageEdit(app.ctx, { product_id: pgid(9305), image_url: original(9305, 0), proposed_image_url: url, operation: "reve-edit", prompt: "warmer light" }, { fetchPolicy: { allowAddress: () => true } });
      expect(e.proposed_image_url).toMatch(/^\/uploads\/images\/proposed-image-edits\/[0-9a-f]{64}\.jpg$/);
      expect(fs.existsSync(path.join(app.dataDir, "uploads", e.proposed_image_url.replace(/^\/uploads\//, "")))).toBe(true);
      // Deleting the edit deletes the copy (nothing else uses it).
      expect((await call("DELETE", `/proposed-image-edits/${e.id}`)).status).toBe(200);
      expect(fs.existsSync(path.join(app.dataDir, "uploads", e.proposed_image_url.replace(/^\/uploads\//, "")))).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe("list and get", () => {
  it("pages, filters by status, product and operation, and counts by status", async () => {
    await propose(9302, 0, red, { operation: "remove-object" });
    await propose(9302, 1, blue, { operation: "remove-object" });
    await propose(9302, 2, green, { operation: "chrono-edit" });
    const all = await call("GET", "/proposed-image-edits", { query: { product_id: pgid(9302), limit: 2 } });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2, counts: { pending: 3, approved: 0, rejected: 0 } });
    expect(all.body.items.map((i: { proposed_image_url: string }) => i.proposed_image_url)).toEqual([green, blue]);
    const page2 = await call("GET", "/proposed-image-edits", { query: { product_id: "9302", limit: 2, page: 2 } });
    expect(page2.body.items.map((i: { proposed_image_url: string }) => i.proposed_image_url)).toEqual([red]);
    const oldest = await call("GET", "/proposed-image-edits", { query: { product_id: pgid(9302), sort: "oldest" } });
    expect(oldest.body.items[0].proposed_image_url).toBe(red);
    const byOp = await call("GET", "/proposed-image-edits", { query: { product_id: pgid(9302), operation: "remove-object" } });
    expect(byOp.body.total).toBe(2);
    await call("PATCH", `/proposed-image-edits/${byOp.body.items[0].id}`, { body: { status: "rejected" } });
    const rejected = await call("GET", "/proposed-image-edits", { query: { product_id: pgid(9302), status: "rejected" } });
    expect(rejected.body).toMatchObject({ total: 1, counts: { pending: 2, approved: 0, rejected: 1 } });
    expect((await call("GET", "/proposed-image-edits", { query: { limit: 101 } })).status).toBe(400);
    expect((await call("GET", "/proposed-image-edits", { query: { status: "done" } })).status).toBe(400);
  });

  it("gets one; unknown or malformed ids are 404", async () => {
    const made = (await propose(9302, 0, yellow)).body;
    const r = await call("GET", `/proposed-image-edits/${made.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.id, proposed_image_url: yellow, status: "pending" });
    const unknown = await call("GET", "/proposed-image-edits/00000000-0000-0000-0000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Proposed image edit not found");
    expect((await call("GET", "/proposed-image-edits/not-a-uuid")).status).toBe(404);
  });
});

describe("update (PATCH) and the review states", () => {
  it("changes the prompt and the proposed image of a pending edit, then rejects it", async () => {
    const e = (await propose(9303, 0, red)).body;
    const p1 = await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { prompt: "brighter", proposed_image_url: blue } });
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({ prompt: "brighter", proposed_image_url: blue, status: "pending" });
    const p2 = await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { prompt: null } });
    expect(p2.body.prompt).toBeNull();
    const rej = await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { status: "rejected" } });
    expect(rej.status).toBe(200);
    expect(rej.body).toMatchObject({ status: "rejected", reviewer_id: reviewer.id });
    expect(Date.parse(rej.body.reviewed_at)).toBeGreaterThan(0);

    // Rejected is final.
    for (const [body, message] of [
      [{ status: "pending" }, /cannot be reopened/],
      [{ status: "rejected" }, /already rejected/],
      [{ status: "approved" }, /cannot be reopened or approved/],
      [{ prompt: "again" }, /only a pending edit can be changed/],
    ] as const) {
      const r = await call("PATCH", `/proposed-image-edits/${e.id}`, { body });
      expect(r.status, JSON.stringify(body)).toBe(409);
      expect(r.body.error.message).toMatch(message);
    }
    const approve = await call("POST", `/proposed-image-edits/${e.id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body.error.message).toMatch(/only a pending edit/);
  });

  it("refuses PATCH status approved (approve has its own call), a pending→pending move, an empty body and unknown ids", async () => {
    const e = (await propose(9303, 1, red)).body;
    const toApproved = await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { status: "approved" } });
    expect(toApproved.status).toBe(409);
    expect(toApproved.body.error.message).toMatch(/POST \/proposed-image-edits\/\{id\}\/approve/);
    expect((await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { status: "pending" } })).status).toBe(409);
    expect((await call("PATCH", `/proposed-image-edits/${e.id}`, { body: {} })).status).toBe(400);
    expect((await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { proposed_image_url: "/uploads/images/test/nope.jpg" } })).status).toBe(422);
    expect((await call("PATCH", "/proposed-image-edits/00000000-0000-0000-0000-000000000000", { body: { status: "rejected" } })).status).toBe(404);
    expect((await call("GET", `/proposed-image-edits/${e.id}`)).body.status).toBe("pending");
  });
});

describe("delete", () => {
  it("deletes an edit (200) and answers 404 after", async () => {
    const e = (await propose(9303, 2, green)).body;
    const r = await call("DELETE", `/proposed-image-edits/${e.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true });
    expect((await call("DELETE", `/proposed-image-edits/${e.id}`)).status).toBe(404);
    expect((await call("GET", `/proposed-image-edits/${e.id}`)).status).toBe(404);
  });
});

describe("approve (local commerce adapter)", () => {
  it("puts the proposed image in the original's place, the variants that showed it show the new one, the original is removed", async () => {
    const before = await imagesOf(9304);
    const e = (await propose(9304, 1, red)).body;
    const calls: string[] = [];
    const local = app.ctx.commerce;
    const spy = <K extends "addProductImage" | "deleteProductMedia" | "appendVariantMedia">(name: K) =>
      (async (...args: unknown[]) => {
        calls.push(`${name} ${JSON.stringify(args)}`);
        return (Object.getPrototypeOf(local)[name] as (...a: unknown[]) => Promise<unknown>).apply(local, args);
      }) as unknown as CommercePort[K];
    await withCommerce("addProductImage", spy("addProductImage"), () =>
      withCommerce("deleteProductMedia", spy("deleteProductMedia"), () =>
        withCommerce("appendVariantMedia", spy("appendVariantMedia"), async () => {
          const r = await call("POST", `/proposed-image-edits/${e.id}/approve`);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.body).toMatchObject({ id: e.id, status: "approved", reviewer_id: reviewer.id, original_on_product: false });
          expect(Date.parse(r.body.reviewed_at)).toBeGreaterThan(0);
        }),
      ),
    );
    expect(calls[0]).toBe(`addProductImage ${JSON.stringify([pgid(9304), { url: red, altText: "Canvas Tote 1", position: 1 }])}`);
    expect(calls[1]).toBe(`deleteProductMedia ${JSON.stringify([pgid(9304), [mgid(9304, 1)]])}`);
    expect(calls[2]).toMatch(/^appendVariantMedia /);
    const after = await imagesOf(9304);
    expect(after.map((i) => i.url)).toEqual([before[0].url, red, before[2].url]);
    expect(after.map((i) => i.position)).toEqual([0, 1, 2]);
    const db = app.database.db;
    // The White variants showed image 1: they show the new image now; the Black ones keep image 0.
    expect((await db.productVariant.findMany({ where: { product_id: pgid(9304) }, orderBy: { position: "asc" } })).map((v) => v.image_url)).toEqual([
      original(9304, 0),
      original(9304, 0),
      red,
      red,
    ]);
    const again = await call("POST", `/proposed-image-edits/${e.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This edit is already approved");
    const rejectApproved = await call("PATCH", `/proposed-image-edits/${e.id}`, { body: { status: "rejected" } });
    expect(rejectApproved.status).toBe(409);
    expect(rejectApproved.body.error.message).toMatch(/its image is on the product/);
    expect((await call("POST", "/proposed-image-edits/00000000-0000-0000-0000-000000000000/approve")).status).toBe(404);
  });

  it("replacing the first image changes the product's featured image", async () => {
    const e = (await propose(9304, 0, blue)).body;
    expect((await call("POST", `/proposed-image-edits/${e.id}/approve`)).status).toBe(200);
    const product = await app.database.db.product.findUniqueOrThrow({ where: { id: pgid(9304) } });
    expect(product.featuredImageUrl).toBe(blue);
    expect((await imagesOf(9304)).map((i) => i.url)).toEqual([blue, red, original(9304, 2)]);
  });

  it("appends the image when the original is no longer on the product", async () => {
    const e = (await call("POST", "/proposed-image-edits", { body: { product_id: pgid(9304), image_url: "https://example.test/gone.jpg", proposed_image_url: green, operation: "manual" } })).body;
    const r = await call("POST", `/proposed-image-edits/${e.id}/approve`);
    expect(r.status).toBe(200);
    expect((await imagesOf(9304)).map((i) => i.url)).toEqual([blue, red, original(9304, 2), green]);
  });

  it("a failing store leaves the edit pending with a 502 and the product as it was", async () => {
    const e = (await propose(9305, 2, yellow)).body;
    const before = await imagesOf(9305);
    await withCommerce(
      "addProductImage",
      async () => {
        throw new CommerceError("Image URL is invalid", [{ field: ["media", "0", "originalSource"], message: "Image URL is invalid" }], 422);
      },
      async () => {
        const r = await call("POST", `/proposed-image-edits/${e.id}/approve`);
        expect(r.status).toBe(502);
        expect(r.body.error).toMatchObject({ code: "bad_gateway", message: "The store could not update the product's images: Image URL is invalid", details: { reason: "Image URL is invalid" } });
      },
    );
    expect(await app.database.db.proposedImageEdit.findUniqueOrThrow({ where: { id: e.id } })).toMatchObject({ status: "pending", reviewer_id: null, reviewed_at: null });
    expect(await imagesOf(9305)).toEqual(before);

    // The removal of the original fails after the new image was added: the added image is taken back.
    await withCommerce(
      "deleteProductMedia",
      async (productId, ids) => {
        if (ids.includes(mgid(9305, 2))) throw new Error("socket hang up");
        const local = app.ctx.commerce;
        return Object.getPrototypeOf(local).deleteProductMedia.call(local, productId, ids);
      },
      async () => {
        const r = await call("POST", `/proposed-image-edits/${e.id}/approve`);
        expect(r.status).toBe(502);
        expect(r.body.error.message).toBe("The store could not update the product's images: socket hang up");
      },
    );
    expect((await app.database.db.proposedImageEdit.findUniqueOrThrow({ where: { id: e.id } })).status).toBe("pending");
    expect((await imagesOf(9305)).map((i) => i.url)).toEqual(before.map((i) => i.url));

    // With the store back, the same edit is approved.
    expect((await call("POST", `/proposed-image-edits/${e.id}/approve`)).status).toBe(200);
    expect((await imagesOf(9305)).map((i) => i.url)).toEqual([original(9305, 0), original(9305, 1), yellow]);
  });
});

describe("addProductGeneratedImage (POST /fal/add-product-generated-image)", () => {
  it("appends the image to the product through the port", async () => {
    const r = await addProductGeneratedImage(app.ctx, { productId: "9303", imageUrl: yellow, userId: reviewer.id });
    expect(r).toMatchObject({ product_id: pgid(9303), image: { url: yellow, altText: "Wool Overcoat", position: 3 } });
    expect((await imagesOf(9303)).at(-1)).toMatchObject({ id: r.image.id, url: yellow, position: 3 });
  });

  it("unknown product 404, missing image 422, failing store 502", async () => {
    await expect(addProductGeneratedImage(app.ctx, { productId: pgid(9999), imageUrl: yellow, userId: null })).rejects.toMatchObject({ kind: "not_found" });
    await expect(addProductGeneratedImage(app.ctx, { productId: pgid(9303), imageUrl: "/uploads/images/nope.png", userId: null })).rejects.toMatchObject({ kind: "unprocessable" });
    await withCommerce(
      "addProductImage",
      async () => {
        throw new CommerceError("Throttled", [], 429);
      },
      async () => {
        await expect(addProductGeneratedImage(app.ctx, { productId: pgid(9303), imageUrl: green, userId: null })).rejects.toMatchObject({ kind: "bad_gateway", message: "The store could not add the image to the product: Throttled" });
      },
    );
  });
});

describe("local commerce adapter: addProductImage at a position, deleteProductMedia", () => {
  it("inserts at a position (others move down), appends past the end, removes media and clears variants that showed it", async () => {
    const commerce = app.ctx.commerce;
    await createProduct(app.database.db, { n: 9306, title: "Silk Scarf", colours: { Black: "#111111", White: "#f5f5f5" }, images: 2 });
    const a = await commerce.addProductImage(pgid(9306), { url: "https://cdn.test/a.jpg", position: 0 });
    expect(a.position).toBe(0);
    const b = await commerce.addProductImage(pgid(9306), { url: "https://cdn.test/b.jpg", position: 99 });
    expect(b.position).toBe(3);
    expect((await imagesOf(9306)).map((i) => i.url)).toEqual(["https://cdn.test/a.jpg", original(9306, 0), original(9306, 1), "https://cdn.test/b.jpg"]);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: pgid(9306) } })).featuredImageUrl).toBe("https://cdn.test/a.jpg");

    await expect(commerce.deleteProductMedia(pgid(9306), [mgid(9306, 0), "gid://shopify/MediaImage/1"])).rejects.toMatchObject({ status: 404 });
    expect(await imagesOf(9306)).toHaveLength(4); // nothing removed
    await commerce.deleteProductMedia(pgid(9306), [mgid(9306, 0), a.id]);
    expect(await imagesOf(9306)).toEqual([
      { id: mgid(9306, 1), url: original(9306, 1), position: 0 },
      { id: b.id, url: "https://cdn.test/b.jpg", position: 1 },
    ]);
    const variants = await app.database.db.productVariant.findMany({ where: { product_id: pgid(9306) }, orderBy: { position: "asc" } });
    expect(variants.map((v) => v.image_url)).toEqual([null, null, original(9306, 1), original(9306, 1)]);
    expect((await app.database.db.product.findUniqueOrThrow({ where: { id: pgid(9306) } })).featuredImageUrl).toBe(original(9306, 1));
    await commerce.deleteProductMedia(pgid(9306), []);
    await expect(commerce.deleteProductMedia(pgid(9999), [b.id])).rejects.toBeInstanceOf(CommerceError);
    await expect(commerce.addProductImage(pgid(9306), { url: " " })).rejects.toMatchObject({ status: 422 });
    expect(enc(pgid(9306))).toContain("gid");
  });
});
