/**
 * Proposed variant images (SPEC §7): every endpoint's happy path, failures and permission, with
 * the local commerce adapter (approval writes the variant's image in the store tables). The
 * Shopify adapter's path is in proposed-variant-images-shopify.test.ts.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposedVariantImagesEndpoints } from "../../app/contract/proposed-variant-images";
import type { EndpointDef } from "../../app/contract/endpoint";
import { toApiError } from "../../app/api/router.server";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { createProposal } from "../../app/services/proposed-variant-images.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, pgid, vgid } from "./products-fixtures";

let app: TestApp;
let reviewer: { id: string; token: string };
let catalogOnly: { token: string };
let shopper: { token: string };

const jpeg = (hex: string, w = 40, h = 50) => sharp({ create: { width: w, height: h, channels: 3, background: hex } }).jpeg().toBuffer();
const png = (hex: string) => sharp({ create: { width: 30, height: 30, channels: 3, background: hex } }).png().toBuffer();

/** Puts a file in the app's storage and answers its public URL (`/uploads/<key>`). */
async function upload(key: string, bytes: Uint8Array | Buffer) {
  return (await app.ctx.storage.put(key, new Uint8Array(bytes), "image/jpeg")).url;
}
const storedPath = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

const call = (method: string, p: string, o: { body?: unknown; query?: Record<string, string | number | undefined>; token?: string } = {}) =>
  app.api(method, p, { token: o.token ?? reviewer.token, body: o.body, query: o.query });

const propose = (productN: number, variantIndex: number, url: string, source?: string) =>
  call("POST", "/proposed-variant-images", { body: { product_id: pgid(productN), variant_id: vgid(productN, variantIndex), proposed_image_url: url, ...(source ? { source } : {}) } });

async function withCommerce<K extends keyof CommercePort>(name: K, impl: CommercePort[K], run: () => Promise<void>) {
  const commerce = app.ctx.commerce as unknown as Record<string, unknown>;
  const had = Object.prototype.hasOwnProperty.call(commerce, name);
  const original = commerce[name];
  commerce[name] = impl;
  try {
    await run();
  } finally {
    if (had) commerce[name] = original;
    else delete commerce[name];
  }
}

let red: string, blue: string, green: string, yellow: string, purple: string;

beforeAll(async () => {
  app = await createTestApp({ env: { APP_URL: "https://fashion-app.example.test" } });
  reviewer = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  catalogOnly = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "catalog.import"] });
  shopper = await app.createUser();
  // Products 1–4: Black/White × S/M (variants n00…n03), two images each.
  await createProduct(app.database.db, { n: 9101, title: "Linen Camp Shirt", colours: { Black: "#111111", White: "#f5f5f5" } });
  await createProduct(app.database.db, { n: 9102, title: "Pleated Midi Skirt", colours: { Black: "#111111", White: "#f5f5f5" } });
  await createProduct(app.database.db, { n: 9103, title: "Wool Overcoat", colours: { Black: "#111111", White: "#f5f5f5" } });
  await createProduct(app.database.db, { n: 9104, title: "Canvas Tote", colours: { Black: "#111111", White: "#f5f5f5" } });
  red = await upload("images/test/proposal-red.jpg", await jpeg("#cc2222"));
  blue = await upload("images/test/proposal-blue.jpg", await jpeg("#2222cc"));
  green = await upload("images/test/proposal-green.png", await png("#22aa22"));
  yellow = await upload("images/test/proposal-yellow.jpg", await jpeg("#dddd22"));
  purple = await upload("images/test/proposal-purple.jpg", await jpeg("#8822aa"));
  await upload("images/test/not-an-image.jpg", Buffer.from("plain text, not a picture"));
});
afterAll(() => app?.close());

describe("permissions", () => {
  const all = Object.entries(proposedVariantImagesEndpoints) as [string, EndpointDef][];
  it.each(all)("%s needs an admin with media.manage", async (_name, def) => {
    const p = def.path.replace(/\{\w+\}/g, "x");
    expect((await app.api(def.method, p)).status).toBe(401);
    expect((await app.api(def.method, p, { token: shopper.token })).status).toBe(403);
    const r = await app.api(def.method, p, { token: catalogOnly.token });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("forbidden");
    expect([401, 403]).not.toContain((await app.api(def.method, p, { token: reviewer.token })).status);
  });
});

describe("POST /proposed-variant-images", () => {
  it("creates a pending proposal for a variant with our upload, remembering the variant's image", async () => {
    const r = await propose(9101, 0, red, "manual");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      product_id: pgid(9101),
      variant_id: vgid(9101, 0),
      proposed_image_url: red,
      current_image_url: "/uploads/images/test/9101-0.jpg",
      source: "manual",
      status: "pending",
      reviewer_id: null,
      reviewed_at: null,
      product: { id: pgid(9101), title: "Linen Camp Shirt", status: "active", featuredImage: { url: "/uploads/images/test/9101-0.jpg" } },
      variant: { id: vgid(9101, 0), title: "Black / S", image_url: "/uploads/images/test/9101-0.jpg", color_hex: "#111111", selectedOptions: [{ name: "Color", value: "Black" }, { name: "Size", value: "S" }] },
    });
    expect(Date.parse(r.body.created_at)).toBeGreaterThan(0);
  });

  it("accepts bare numeric ids and our uploads under APP_URL; source defaults to manual", async () => {
    const r = await call("POST", "/proposed-variant-images", { body: { product_id: "9101", variant_id: "910101", proposed_image_url: `https://fashion-app.example.test${green}` } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ product_id: pgid(9101), variant_id: vgid(9101, 1), proposed_image_url: green, source: "manual" });
  });

  it("refuses bad input with clear messages", async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ product_id: pgid(9999), variant_id: vgid(9101, 0), proposed_image_url: red }, 404, /Product not found/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 9), proposed_image_url: red }, 404, /Variant gid:\/\/shopify\/ProductVariant\/910109 not found/],
      [{ product_id: pgid(9101), variant_id: vgid(9102, 0), proposed_image_url: red }, 422, /is not a variant of this product/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: "/uploads/images/test/missing.jpg" }, 422, /was not found in our storage/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: "/uploads/images/test/not-an-image.jpg" }, 415, /is not an image/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: "/etc/passwd" }, 400, /relative URL must point to our uploads/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: "ftp://example.com/a.jpg" }, 400, /http\(s\) URL/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: "http://127.0.0.1:9/a.jpg" }, 400, /not a public address/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: "/uploads/images/test/9101-1.jpg" }, 422, /was not found in our storage/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2), proposed_image_url: red, source: "Not A Word!" }, 400, /source is a short word/],
      [{ product_id: pgid(9101), variant_id: vgid(9101, 2) }, 400, /proposed_image_url/],
      [{ variant_id: vgid(9101, 2), proposed_image_url: red }, 400, /product_id/],
    ];
    for (const [body, status, message] of cases) {
      const r = await call("POST", "/proposed-variant-images", { body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it("refuses the variant's own image and a duplicate pending proposal", async () => {
    const own = await upload("images/test/9102-own.jpg", await jpeg("#445566"));
    await app.database.db.productVariant.update({ where: { id: vgid(9102, 3) }, data: { image_url: own } });
    const same = await propose(9102, 3, own);
    expect(same.status).toBe(422);
    expect(same.body.error.message).toBe("This image is already the variant's image");
    const first = await propose(9102, 3, yellow);
    expect(first.status).toBe(201);
    const dup = await propose(9102, 3, yellow);
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(`This image is already proposed for this variant (pending proposal ${first.body.id})`);
  });
});

describe("an image from another address is copied into our storage", () => {
  let server: http.Server;
  let origin: string;
  let pngBytes: Buffer;
  beforeAll(async () => {
    pngBytes = await png("#ff8800");
    server = http.createServer((req, res) => {
      if (req.url === "/sku/orange.png") return res.writeHead(200, { "content-type": "image/png" }).end(pngBytes);
      if (req.url === "/sku/page.html") return res.writeHead(200, { "content-type": "text/html" }).end("<html>not an image</html>");
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  // The test server is on loopback, which the API refuses (SSRF): the service is called with a policy allowing it.
  const loopback = { fetchPolicy: { allowAddress: () => true } };

  it("stores it once by content hash as a JPEG under images/proposed-variant-images/", async () => {
    const a = await createProposal(app.ctx, { product_id: pgid(9103), variant_id: vgid(9103, 0), proposed_image_url: `${origin}/sku/orange.png`, source: "taobao" }, loopback);
    expect(a.proposed_image_url).toMatch(/^\/uploads\/images\/proposed-variant-images\/[0-9a-f]{64}\.jpg$/);
    expect((await sharp(fs.readFileSync(storedPath(a.proposed_image_url))).metadata()).format).toBe("jpeg");
    const b = await createProposal(app.ctx, { product_id: pgid(9103), variant_id: vgid(9103, 1), proposed_image_url: `${origin}/sku/orange.png`, source: "taobao" }, loopback);
    expect(b.proposed_image_url).toBe(a.proposed_image_url);
  });

  it("answers clear errors for a download that fails or is not an image", async () => {
    await expect(createProposal(app.ctx, { product_id: pgid(9103), variant_id: vgid(9103, 2), proposed_image_url: `${origin}/sku/missing.png`, source: "taobao" }, loopback)).rejects.toMatchObject({
      kind: "unprocessable",
      message: "proposed_image_url: The image URL answered HTTP 404",
    });
    // The refusal comes from the image check (uploaded-images), whichever error class it uses: as the API answers it.
    const notImage = await createProposal(app.ctx, { product_id: pgid(9103), variant_id: vgid(9103, 2), proposed_image_url: `${origin}/sku/page.html`, source: "taobao" }, loopback).catch((e: unknown) => e);
    expect(toApiError(notImage)).toMatchObject({ status: 415, message: expect.stringMatching(/Unsupported file type/) });
    expect(await app.database.db.proposedVariantImage.count({ where: { variant_id: vgid(9103, 2) } })).toBe(0);
  });
});

describe("GET /proposed-variant-images, /{id}, /by-product/{id}", () => {
  it("lists newest first with paging and filters", async () => {
    const all = await call("GET", "/proposed-variant-images", { query: { limit: 2 } });
    expect(all.status).toBe(200);
    const total = await app.database.db.proposedVariantImage.count();
    expect(all.body).toMatchObject({ page: 1, limit: 2, total, totalPages: Math.ceil(total / 2) });
    expect(all.body.items).toHaveLength(2);
    const times = all.body.items.map((i: { created_at: string }) => Date.parse(i.created_at));
    expect(times[0]).toBeGreaterThanOrEqual(times[1]);
    const page2 = await call("GET", "/proposed-variant-images", { query: { limit: 2, page: 2 } });
    expect(page2.body.items.map((i: { id: string }) => i.id)).not.toContain(all.body.items[0].id);

    const taobao = await call("GET", "/proposed-variant-images", { query: { source: "taobao" } });
    expect(taobao.body.items.length).toBe(2);
    expect(taobao.body.items.every((i: { source: string }) => i.source === "taobao")).toBe(true);
    const byProduct = await call("GET", "/proposed-variant-images", { query: { product_id: "9101" } });
    expect(byProduct.body.total).toBe(2);
    const text = await call("GET", "/proposed-variant-images", { query: { q: "midi" } });
    expect(text.body.items.map((i: { product: { title: string } }) => i.product.title)).toEqual(["Pleated Midi Skirt"]);
    const oldest = await call("GET", "/proposed-variant-images", { query: { sort: "oldest", limit: 1 } });
    expect(oldest.body.items[0].proposed_image_url).toBe(red);
    const pending = await call("GET", "/proposed-variant-images", { query: { status: "pending" } });
    expect(pending.body.total).toBe(total);
  });

  it("refuses bad list parameters", async () => {
    expect((await call("GET", "/proposed-variant-images", { query: { limit: 101 } })).status).toBe(400);
    expect((await call("GET", "/proposed-variant-images", { query: { status: "maybe" } })).status).toBe(400);
    expect((await call("GET", "/proposed-variant-images", { query: { page: 0 } })).status).toBe(400);
  });

  it("gets one proposal, 404 for an unknown id", async () => {
    const [first] = (await call("GET", "/proposed-variant-images", { query: { limit: 1 } })).body.items;
    const r = await call("GET", `/proposed-variant-images/${first.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(first);
    const missing = await call("GET", "/proposed-variant-images/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Proposed variant image not found");
  });

  it("by product: every variant in order with its proposals and the counts", async () => {
    const r = await call("GET", `/proposed-variant-images/by-product/${enc(pgid(9101))}`);
    expect(r.status).toBe(200);
    expect(r.body.product).toMatchObject({ id: pgid(9101), title: "Linen Camp Shirt" });
    expect(r.body.counts).toEqual({ pending: 2, approved: 0, rejected: 0 });
    expect(r.body.variants.map((v: { title: string }) => v.title)).toEqual(["Black / S", "Black / M", "White / S", "White / M"]);
    expect(r.body.variants[0].proposals).toHaveLength(1);
    expect(r.body.variants[0].proposals[0]).toMatchObject({ proposed_image_url: red, status: "pending" });
    expect(r.body.variants[2].proposals).toEqual([]);
    const numeric = await call("GET", "/proposed-variant-images/by-product/9101", { query: { status: "approved" } });
    expect(numeric.body.variants.every((v: { proposals: unknown[] }) => v.proposals.length === 0)).toBe(true);
    const missing = await call("GET", `/proposed-variant-images/by-product/${enc(pgid(9999))}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Product not found");
    expect((await call("GET", "/proposed-variant-images/by-product/undefined")).body.error.message).toBe("No product ID provided");
  });
});

describe("approve", () => {
  it("writes the image to the variant through the commerce port and rejects the variant's other pending proposals", async () => {
    const a = (await propose(9104, 0, red, "ai")).body;
    const b = (await propose(9104, 0, blue, "ai")).body;
    const other = (await propose(9104, 1, blue, "ai")).body;
    const calls: unknown[][] = [];
    const local = app.ctx.commerce;
    await withCommerce(
      "setVariantImage",
      async (...args) => {
        calls.push(args);
        return Object.getPrototypeOf(local).setVariantImage(...args);
      },
      async () => {
        const r = await call("POST", `/proposed-variant-images/${a.id}/approve`);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: a.id, status: "approved", reviewer_id: reviewer.id, current_image_url: "/uploads/images/test/9104-0.jpg", variant: { image_url: red } });
        expect(Date.parse(r.body.reviewed_at)).toBeGreaterThan(0);
      },
    );
    expect(calls).toEqual([[pgid(9104), vgid(9104, 0), { url: red, altText: "Canvas Tote – Black / S" }]]);
    const db = app.database.db;
    expect((await db.productVariant.findUniqueOrThrow({ where: { id: vgid(9104, 0) } })).image_url).toBe(red);
    const images = await db.productImage.findMany({ where: { product_id: pgid(9104) }, orderBy: { position: "asc" } });
    expect(images.map((i) => i.url)).toEqual(["/uploads/images/test/9104-0.jpg", "/uploads/images/test/9104-1.jpg", red]);
    expect((await db.proposedVariantImage.findUniqueOrThrow({ where: { id: b.id } })).status).toBe("rejected");
    expect((await db.proposedVariantImage.findUniqueOrThrow({ where: { id: other.id } })).status).toBe("pending");

    const again = await call("POST", `/proposed-variant-images/${a.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This proposal is already approved");
    expect((await call("POST", "/proposed-variant-images/00000000-0000-0000-0000-000000000000/approve")).status).toBe(404);
  });

  it("a rejected proposal can still be approved; the same picture on another variant reuses the product image", async () => {
    const rejected = await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { variant_id: vgid(9104, 0), status: "rejected" } });
    const r = await call("POST", `/proposed-variant-images/${rejected.id}/approve`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "approved", current_image_url: red, variant: { image_url: blue } });
    const other = await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { variant_id: vgid(9104, 1), status: "pending" } });
    expect((await call("POST", `/proposed-variant-images/${other.id}/approve`)).status).toBe(200);
    const urls = (await app.database.db.productImage.findMany({ where: { product_id: pgid(9104) } })).map((i) => i.url);
    expect(urls.filter((u) => u === blue)).toHaveLength(1);
  });

  it("when the store refuses, the proposal stays pending and the store's reason is answered", async () => {
    const p = (await propose(9104, 2, purple)).body;
    await withCommerce(
      "setVariantImage",
      async () => {
        throw new CommerceError("Image URL is invalid", [{ field: ["media", "0", "originalSource"], message: "Image URL is invalid" }], 422);
      },
      async () => {
        const r = await call("POST", `/proposed-variant-images/${p.id}/approve`);
        expect(r.status).toBe(422);
        expect(r.body.error.message).toBe("Failed to append media to variant");
        expect(r.body.error.details).toMatchObject({ reason: "Image URL is invalid" });
      },
    );
    const after = await app.database.db.proposedVariantImage.findUniqueOrThrow({ where: { id: p.id } });
    expect(after).toMatchObject({ status: "pending", reviewer_id: null, reviewed_at: null });
    expect((await app.database.db.productVariant.findUniqueOrThrow({ where: { id: vgid(9104, 2) } })).image_url).toBe("/uploads/images/test/9104-1.jpg");
  });

  it("a variant deleted in the store answers 404 with the store's reason", async () => {
    const p = (await propose(9104, 3, purple)).body;
    await withCommerce(
      "setVariantImage",
      async () => {
        throw new CommerceError("Variant not found on product", [{ field: ["variantId"], message: "Variant does not exist" }], 404);
      },
      async () => {
        const r = await call("POST", `/proposed-variant-images/${p.id}/approve`);
        expect(r.status).toBe(404);
        expect(r.body.error.message).toBe("Failed to append media to variant");
      },
    );
    expect((await app.database.db.proposedVariantImage.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("pending");
  });
});

describe("reject, PATCH and DELETE", () => {
  it("rejects a pending proposal (POST /{id}/reject); again is a no-op; an approved one cannot be rejected", async () => {
    const p = await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { variant_id: vgid(9104, 2), status: "pending" } });
    const r = await call("POST", `/proposed-variant-images/${p.id}/reject`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "rejected", reviewer_id: reviewer.id });
    const again = await call("POST", `/proposed-variant-images/${p.id}/reject`);
    expect(again.status).toBe(200);
    expect(again.body.reviewed_at).toBe(r.body.reviewed_at);
    const approved = await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { status: "approved" } });
    const refused = await call("POST", `/proposed-variant-images/${approved.id}/reject`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/This proposal is approved: its image is on the variant/);
    expect((await call("POST", "/proposed-variant-images/00000000-0000-0000-0000-000000000000/reject")).status).toBe(404);
  });

  it("PATCH changes the image and source, rejects, reopens and approves", async () => {
    const p = (await propose(9102, 0, red)).body;
    const img = await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { proposed_image_url: green, source: "ai" } });
    expect(img.status).toBe(200);
    expect(img.body).toMatchObject({ proposed_image_url: green, source: "ai", status: "pending" });
    const rej = await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { status: "rejected" } });
    expect(rej.body).toMatchObject({ status: "rejected", reviewer_id: reviewer.id });
    const reopened = await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { status: "pending" } });
    expect(reopened.body).toMatchObject({ status: "pending", reviewer_id: null, reviewed_at: null });
    const approved = await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { status: "approved" } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", variant: { image_url: green } });
    const locked = await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { source: "manual" } });
    expect(locked.status).toBe(409);
  });

  it("PATCH refuses bad input", async () => {
    const p = (await propose(9102, 1, red)).body;
    const empty = await call("PATCH", `/proposed-variant-images/${p.id}`, { body: {} });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.error)).toMatch(/Give proposed_image_url, status or source to update/);
    expect((await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { status: "done" } })).status).toBe(400);
    expect((await call("PATCH", `/proposed-variant-images/${p.id}`, { body: { proposed_image_url: "/uploads/images/test/missing.jpg" } })).status).toBe(422);
    const twin = (await propose(9102, 1, blue)).body;
    const dup = await call("PATCH", `/proposed-variant-images/${twin.id}`, { body: { proposed_image_url: red } });
    expect(dup.status).toBe(409);
    expect((await call("PATCH", "/proposed-variant-images/00000000-0000-0000-0000-000000000000", { body: { source: "ai" } })).status).toBe(404);
  });

  it("DELETE removes a proposal and its copied image when nothing else uses it", async () => {
    const bytes = await jpeg("#123456", 20, 20);
    const p1 = await createProposal(app.ctx, { product_id: pgid(9103), variant_id: vgid(9103, 3), proposed_image_url: "", source: "ai" }, {}).catch(() => null);
    expect(p1).toBeNull(); // an empty URL is refused by the contract before; the service refuses it too
    const { storeImageBytes } = await import("../../app/services/proposed-variant-images.server");
    const copied = await storeImageBytes(app.ctx, bytes);
    const a = (await propose(9103, 3, copied)).body;
    const b = (await propose(9103, 2, copied)).body;
    expect(fs.existsSync(storedPath(copied))).toBe(true);
    expect((await call("DELETE", `/proposed-variant-images/${a.id}`)).body).toEqual({ ok: true });
    expect(fs.existsSync(storedPath(copied))).toBe(true); // b still uses it
    expect((await call("DELETE", `/proposed-variant-images/${b.id}`)).status).toBe(200);
    expect(fs.existsSync(storedPath(copied))).toBe(false);
    expect((await call("GET", `/proposed-variant-images/${b.id}`)).status).toBe(404);
    expect((await call("DELETE", `/proposed-variant-images/${b.id}`)).status).toBe(404);
    // Our own uploads outside images/proposed-variant-images/ are never deleted.
    const c = (await propose(9103, 2, yellow)).body;
    await call("DELETE", `/proposed-variant-images/${c.id}`);
    expect(fs.existsSync(storedPath(yellow))).toBe(true);
  });
});

describe("bulk approve and reject", () => {
  it("approves per id: a second proposal of the same variant and an unknown id fail, the rest succeed", async () => {
    await app.database.db.proposedVariantImage.deleteMany({ where: { product_id: pgid(9101) } });
    const a = (await propose(9101, 2, red)).body;
    const b = (await propose(9101, 2, blue)).body;
    const c = (await propose(9101, 3, blue)).body;
    const r = await call("POST", "/proposed-variant-images/bulk", { body: { action: "approve", ids: [a.id, b.id, c.id, "00000000-0000-0000-0000-000000000000", a.id] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ action: "approve", succeeded: 2, failed: 2 });
    expect(r.body.results).toEqual([
      { id: a.id, ok: true, status: "approved", error: null },
      { id: b.id, ok: false, status: "rejected", error: { status: 409, message: "Another proposal for the same variant was approved in this request" } },
      { id: c.id, ok: true, status: "approved", error: null },
      { id: "00000000-0000-0000-0000-000000000000", ok: false, status: null, error: { status: 404, message: "Proposed variant image not found" } },
    ]);
    const variants = await app.database.db.productVariant.findMany({ where: { id: { in: [vgid(9101, 2), vgid(9101, 3)] } }, orderBy: { position: "asc" } });
    expect(variants.map((v) => v.image_url)).toEqual([red, blue]);
  });

  it("rejects several", async () => {
    const a = (await propose(9101, 0, yellow)).body;
    const b = (await propose(9101, 1, yellow)).body;
    const r = await call("POST", "/proposed-variant-images/bulk", { body: { action: "reject", ids: [a.id, b.id] } });
    expect(r.body).toMatchObject({ action: "reject", succeeded: 2, failed: 0 });
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(["rejected", "rejected"]);
  });

  it("refuses an empty list, more than 100 ids and an unknown action", async () => {
    expect((await call("POST", "/proposed-variant-images/bulk", { body: { action: "approve", ids: [] } })).body.error.message).toMatch(/at least one/);
    expect((await call("POST", "/proposed-variant-images/bulk", { body: { action: "approve", ids: Array.from({ length: 101 }, (_, i) => `id-${i}`) } })).status).toBe(400);
    expect((await call("POST", "/proposed-variant-images/bulk", { body: { action: "publish", ids: ["x"] } })).status).toBe(400);
  });
});

describe("GET /proposed-variant-images/stats", () => {
  it("counts by status and source, products with pending proposals, approval rate and days", async () => {
    const db = app.database.db;
    const r = await call("GET", "/proposed-variant-images/stats", { query: { days: 7 } });
    expect(r.status).toBe(200);
    const counts = { pending: await db.proposedVariantImage.count({ where: { status: "pending" } }), approved: await db.proposedVariantImage.count({ where: { status: "approved" } }), rejected: await db.proposedVariantImage.count({ where: { status: "rejected" } }) };
    expect(r.body.byStatus).toEqual(counts);
    expect(r.body.total).toBe(counts.pending + counts.approved + counts.rejected);
    expect(r.body.approvalRate).toBeCloseTo(counts.approved / (counts.approved + counts.rejected), 2);
    const pendingProducts = new Set((await db.proposedVariantImage.findMany({ where: { status: "pending" }, select: { product_id: true } })).map((p) => p.product_id));
    expect(r.body.productsWithPending).toBe(pendingProducts.size);
    expect(r.body.bySource.map((s: { source: string }) => s.source).sort()).toEqual(["ai", "manual", "taobao"]);
    const taobao = r.body.bySource.find((s: { source: string }) => s.source === "taobao");
    expect(taobao).toEqual({ source: "taobao", pending: 2, approved: 0, rejected: 0, total: 2 });
    expect(r.body.days).toBe(7);
    expect(r.body.daily).toHaveLength(7);
    const today = r.body.daily[6];
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.proposed).toBe(r.body.total);
    expect(today.approved).toBe(counts.approved);
    expect(today.rejected).toBe(counts.rejected);
    expect(r.body.daily[0]).toMatchObject({ proposed: 0, approved: 0, rejected: 0 });
  });

  it("refuses days outside 1–90", async () => {
    expect((await call("GET", "/proposed-variant-images/stats", { query: { days: 91 } })).status).toBe(400);
    expect((await call("GET", "/proposed-variant-images/stats", { query: { days: 0 } })).status).toBe(400);
  });
});

describe("local commerce adapter: setVariantImage", () => {
  it("refuses a variant of another product and a blank URL", async () => {
    const local = Object.getPrototypeOf(Object.getPrototypeOf(app.ctx.commerce)) as CommercePort;
    await expect(local.setVariantImage(pgid(9101), vgid(9102, 0), { url: red })).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/not found on product/) });
    await expect(local.setVariantImage(pgid(9101), vgid(9101, 0), { url: " " })).rejects.toMatchObject({ status: 422 });
    await expect(local.setVariantImage(pgid(9999), vgid(9101, 0), { url: red })).rejects.toBeInstanceOf(CommerceError);
  });
});

describe("POST /uploaded-images/proposed-variant-images/taobao/{id}", () => {
  const TB = "720000000001";
  const TB_BROKEN = "720000000002";
  const wire = (id: string, imgs: { black: string; white: string }) => ({
    num_iid: id,
    title: "夏季新款纯棉短袖T恤男",
    pic_url: `https://img.taobao.test/${id}/main.jpg`,
    price: "59.00",
    num: 40,
    nick: "棉麻小铺",
    props_list: { "1627207:1": "颜色分类:黑色", "1627207:2": "颜色分类:白色", "20509:10": "尺码:S", "20509:11": "尺码:M" },
    prop_imgs: { prop_img: [{ properties: "1627207:1", url: imgs.black }, { properties: "1627207:2", url: imgs.white }] },
    skus: {
      sku: [
        { sku_id: "s1", price: "59.00", properties: "1627207:1;20509:10", quantity: 5 },
        { sku_id: "s2", price: "59.00", properties: "1627207:1;20509:11", quantity: 5 },
        { sku_id: "s3", price: "59.00", properties: "1627207:2;20509:10", quantity: 5 },
        { sku_id: "s4", price: "59.00", properties: "1627207:2;20509:11", quantity: 5 },
      ],
    },
  });
  let fetched: string[];
  let sourceDown = false;
  const original = () => app.ctx.taobao;
  let saved: typeof app.ctx.taobao;

  beforeAll(async () => {
    const { parseTaobaoItem, TaobaoSourceError } = await import("../../app/providers/taobao/port");
    const black = await png("#101010");
    const white = await png("#fafafa");
    const items = new Map([
      [TB, wire(TB, { black: "https://img.taobao.test/sku/black.png", white: "//img.taobao.test/sku/white.png" })],
      [TB_BROKEN, wire(TB_BROKEN, { black: "https://img.taobao.test/sku/black.png", white: "https://img.taobao.test/sku/page.html" })],
    ]);
    saved = original();
    fetched = [];
    app.ctx.taobao = {
      kind: "local",
      async getItem(id) {
        if (sourceDown) throw new TaobaoSourceError("unavailable", "The Taobao API timed out after 10 s");
        const raw = items.get(id);
        if (!raw) throw new TaobaoSourceError("not_found", `Taobao item ${id} was not found`, { status: 404 });
        return parseTaobaoItem(structuredClone(raw), id);
      },
      async listShopItems() {
        throw new Error("not used");
      },
      async fetchImage(url) {
        fetched.push(url);
        if (url.endsWith("black.png")) return { bytes: new Uint8Array(black), contentType: "image/png" };
        if (url.endsWith("white.png")) return { bytes: new Uint8Array(white), contentType: "image/png" };
        return { bytes: new Uint8Array(Buffer.from("<html>shop page</html>")), contentType: "text/html" };
      },
    };
    const db = app.database.db;
    // 9105: imported from TB (Black/White × S/M): two variants linked by taobao_sku_id, one by its SKU code, one not linked.
    await createProduct(db, { n: 9105, title: "Cotton Crew Tee", colours: { Black: "#111111", White: "#f5f5f5" }, companion: { taobao_id: TB } });
    await db.productVariant.update({ where: { id: vgid(9105, 0) }, data: { taobao_sku_id: "s1" } });
    await db.productVariant.update({ where: { id: vgid(9105, 1) }, data: { taobao_sku_id: "s2" } });
    await db.productVariant.update({ where: { id: vgid(9105, 2) }, data: { sku: `TB-${TB}-s3` } });
    await createProduct(db, { n: 9106, title: "Broken Swatch Tee", colours: { Black: "#111111", White: "#f5f5f5" }, companion: { taobao_id: TB_BROKEN } });
    for (const [i, s] of ["s1", "s2", "s3", "s4"].entries()) await db.productVariant.update({ where: { id: vgid(9106, i) }, data: { taobao_sku_id: s } });
    await createProduct(db, { n: 9107, title: "Not Imported Tee", companion: { taobao_id: undefined } });
  });
  afterAll(() => {
    app.ctx.taobao = saved;
  });

  const fromTaobao = (id: string) => call("POST", `/uploaded-images/proposed-variant-images/taobao/${enc(id)}`);

  it("proposes each variant's SKU swatch image, stored once through the import's image store", async () => {
    const r = await fromTaobao(pgid(9105));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.product_id).toBe(pgid(9105));
    expect(r.body.taobao_id).toBe(TB);
    expect(r.body.created.map((p: { variant: { title: string } }) => p.variant.title)).toEqual(["Black / S", "Black / M", "White / S"]);
    const [b1, b2, w1] = r.body.created;
    expect(b1).toMatchObject({ source: "taobao", status: "pending", current_image_url: "/uploads/images/test/9105-0.jpg" });
    expect(b1.proposed_image_url).toMatch(/^\/uploads\/images\/taobao\/[0-9a-f]{40}\.jpg$/);
    expect(b2.proposed_image_url).toBe(b1.proposed_image_url);
    expect(w1.proposed_image_url).not.toBe(b1.proposed_image_url);
    expect(fs.existsSync(storedPath(w1.proposed_image_url))).toBe(true);
    expect(r.body.skipped).toEqual([{ variant_id: vgid(9105, 3), variant_title: "White / M", reason: "No SKU of the Taobao item matches this variant" }]);
    expect(fetched.filter((u) => u.endsWith("black.png"))).toHaveLength(1);
  });

  it("again (by the Taobao item id): everything is already proposed", async () => {
    const r = await fromTaobao(TB);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ product_id: pgid(9105), created: [] });
    expect(r.body.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      "This image is already proposed (pending or approved) for the variant",
      "This image is already proposed (pending or approved) for the variant",
      "This image is already proposed (pending or approved) for the variant",
      "No SKU of the Taobao item matches this variant",
    ]);
  });

  it("an image that is not an image skips only the variants that wanted it", async () => {
    const r = await fromTaobao("9106");
    expect(r.status).toBe(200);
    expect(r.body.created.map((p: { variant: { title: string } }) => p.variant.title)).toEqual(["Black / S", "Black / M"]);
    expect(r.body.skipped).toHaveLength(2);
    expect(r.body.skipped[0]).toMatchObject({ variant_title: "White / S", reason: expect.stringMatching(/^The SKU image could not be used: An image of the item is not an image \(text\/html\)/) });
  });

  it("answers clear errors: unknown id, a product not imported from Taobao, an item gone at the source, the source down", async () => {
    const unknown = await fromTaobao("123456789012");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("No product and no imported Taobao item with id 123456789012");
    const notImported = await fromTaobao(pgid(9107));
    expect(notImported.status).toBe(422);
    expect(notImported.body.error.message).toMatch(/not imported from Taobao/);
    await app.database.db.productCompanion.update({ where: { shopify_product_id: pgid(9107) }, data: { taobao_id: "720000000099" } });
    const gone = await fromTaobao(pgid(9107));
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/The Taobao item 720000000099 was not found at the source/);
    sourceDown = true;
    try {
      const down = await fromTaobao(pgid(9105));
      expect(down.status).toBe(503);
      expect(down.body.error.message).toBe("The Taobao source did not answer: The Taobao API timed out after 10 s");
    } finally {
      sourceDown = false;
    }
    expect((await fromTaobao("undefined")).body.error.message).toBe("No product ID provided");
  });
});

describe("with the shipped local Taobao catalogue (engineer G's local source)", () => {
  it("proposes the rendered swatch of every SKU that has one", async () => {
    const { createLocalTaobao } = await import("../../app/providers/taobao/local.server");
    const { parseTaobaoItem } = await import("../../app/providers/taobao/port");
    const local = createLocalTaobao();
    const broken = new Set(Object.keys((local.catalogue as { broken?: Record<string, unknown> }).broken ?? {}));
    const item = local.catalogue.items
      .filter((raw) => !broken.has(String(raw.num_iid)))
      .map((raw) => parseTaobaoItem(structuredClone(raw)))
      .find((it) => it.skus.length >= 2 && it.skuProperties.some((p) => p.values.some((v) => v.imageUrl)))!;
    expect(item).toBeTruthy();
    const db = app.database.db;
    const productId = pgid(9190);
    await db.product.create({
      data: {
        id: productId,
        title: "Imported demo item",
        handle: "imported-demo-item-9190",
        companion: { create: { taobao_id: item.id, taobao_title: item.title } },
        variants: {
          create: item.skus.map((s, i) => ({
            id: vgid(9190, i),
            title: s.values.map((v) => v.value).join(" / ") || "Default Title",
            price: 10,
            position: i,
            taobao_sku_id: s.id,
            selectedOptions: s.values.map((v) => ({ name: v.property, value: v.value })),
          })),
        },
      },
    });
    const saved = app.ctx.taobao;
    app.ctx.taobao = local;
    try {
      const r = await call("POST", `/uploaded-images/proposed-variant-images/taobao/${item.id}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const withImage = item.skus.filter((s) => s.values.some((v) => item.skuProperties.find((p) => p.pid === v.pid)?.values.find((x) => x.vid === v.vid)?.imageUrl));
      expect(r.body.created).toHaveLength(withImage.length);
      for (const p of r.body.created) expect(fs.existsSync(storedPath(p.proposed_image_url))).toBe(true);
      expect(r.body.skipped).toHaveLength(item.skus.length - withImage.length);
    } finally {
      app.ctx.taobao = saved;
    }
  });
});
