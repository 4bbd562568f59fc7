/**
 * Uploaded images editing through the API (app/contract/uploaded-images.ts): list (own; admins
 * with media.manage all or one user's), get, crop, rotate, background removal (the local ISNet
 * model), replace and delete, with small images made here. Every edit keeps the id, key and URL
 * (so ad requests, reviews and product requests keep showing it), bumps the version, stays within
 * 1024 px and keeps the EXIF without its GPS tags. Ownership: another user gets 404; a shopper
 * cannot change a photo a review carries; nothing still used can be deleted.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gpsTagCount } from "../../app/lib/exif-location";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
type Caller = { id: string; token: string };
let owner: Caller;
let other: Caller;
let mediaAdmin: Caller;
let adminNoMedia: Caller;

const call = (who: Caller | null, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined> } = {}) =>
  app.api(method, path, { ...opts, token: who?.token ?? null });

/** A JPEG with camera and GPS EXIF: a dark block in the top-left corner on a light background. */
async function photo(width = 120, height = 80): Promise<Buffer> {
  const block = await sharp({ create: { width: Math.round(width / 4), height: Math.round(height / 4), channels: 3, background: "#202020" } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: "#e8e4dc" } })
    .composite([{ input: block, left: 0, top: 0 }])
    .jpeg()
    .withExif({ IFD0: { Make: "FixtureCam", Copyright: "Test" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 1234/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" } })
    .toBuffer();
}

let seq = 0;
async function stored(who: Caller, opts: { bytes?: Buffer; purpose?: string; width?: number; height?: number } = {}) {
  const key = `images/test-edits/${++seq}.jpg`;
  const bytes = opts.bytes ?? (await photo(opts.width, opts.height));
  const put = await app.ctx.storage.put(key, bytes, "image/jpeg");
  const meta = await sharp(bytes).metadata();
  return app.database.db.uploadedImage.create({
    data: { url: put.url, key, width: meta.width!, height: meta.height!, content_type: "image/jpeg", size_bytes: bytes.byteLength, user_id: who.id, purpose: opts.purpose ?? "ad_request" },
  });
}

async function file(key: string) {
  const bytes = await app.ctx.storage.get(key);
  expect(bytes).not.toBeNull();
  return { bytes: Buffer.from(bytes!), meta: await sharp(Buffer.from(bytes!)).metadata() };
}

/** Mean RGB of a region. */
async function mean(bytes: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const { data } = await sharp(bytes).extract(region).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 3) for (let c = 0; c < 3; c++) sum[c] += data[i + c];
  return sum.map((v) => v / (data.length / 3));
}

beforeAll(async () => {
  app = await createTestApp();
  owner = await app.createUser();
  other = await app.createUser();
  mediaAdmin = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  adminNoMedia = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
});
afterAll(async () => {
  await app?.close();
});

describe("list and get", () => {
  it("a user lists their own uploads newest first with cursor pages; admins with media.manage all or one user's; others are refused", async () => {
    const a = await stored(owner);
    const b = await stored(owner, { purpose: "review" });
    await stored(other);
    const first = await call(owner, "GET", "/uploaded-images", { query: { limit: 1 } });
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const second = await call(owner, "GET", "/uploaded-images", { query: { limit: 1, cursor: first.body.nextCursor } });
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
    expect(second.body.items[0]).toMatchObject({ url: a.url, versioned_url: `${a.url}?v=1`, version: 1, width: 120, height: 80, purpose: "ad_request", user_id: owner.id, used_by: [] });
    expect((await call(owner, "GET", "/uploaded-images", { query: { purpose: "review" } })).body.items.map((i: { id: string }) => i.id)).toEqual([b.id]);

    expect((await call(owner, "GET", "/uploaded-images", { query: { all: "true" } })).status).toBe(403);
    expect((await call(owner, "GET", "/uploaded-images", { query: { userId: other.id } })).status).toBe(403);
    expect((await call(adminNoMedia, "GET", "/uploaded-images", { query: { all: "true" } })).status).toBe(403);
    const all = await call(mediaAdmin, "GET", "/uploaded-images", { query: { all: "true", limit: 100 } });
    expect(all.body.items.length).toBeGreaterThanOrEqual(3);
    expect(new Set(all.body.items.map((i: { user_id: string }) => i.user_id))).toEqual(new Set([owner.id, other.id]));
    expect((await call(mediaAdmin, "GET", "/uploaded-images", { query: { userId: other.id } })).body.items).toHaveLength(1);

    expect((await call(owner, "GET", `/uploaded-images/${a.id}`)).body.id).toBe(a.id);
    expect((await call(other, "GET", `/uploaded-images/${a.id}`)).status).toBe(404);
    expect((await call(mediaAdmin, "GET", `/uploaded-images/${a.id}`)).status).toBe(200);
    expect((await call(null, "GET", "/uploaded-images")).status).toBe(401);
  });
});

describe("edits", () => {
  it("crop: the rectangle of the upright image, same id and URL, version 2, EXIF kept without GPS", async () => {
    const img = await stored(owner);
    expect(gpsTagCount((await file(img.key)).meta.exif!)).toBe(4);
    const res = await call(owner, "POST", `/uploaded-images/${img.id}/crop`, { body: { x: 0, y: 0, width: 60, height: 40 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: img.id, url: img.url, version: 2, versioned_url: `${img.url}?v=2`, width: 60, height: 40, content_type: "image/jpeg" });
    expect(res.body.updated_at).not.toBeNull();
    const { bytes, meta } = await file(img.key);
    expect([meta.width, meta.height, meta.format]).toEqual([60, 40, "jpeg"]);
    expect(Buffer.from(meta.exif!).includes("FixtureCam")).toBe(true);
    expect(gpsTagCount(meta.exif!)).toBe(0);
    // The dark block was the top-left quarter: it now fills the top-left half of the crop.
    expect((await mean(bytes, { left: 2, top: 2, width: 20, height: 12 }))[0]).toBeLessThan(80);
    expect((await mean(bytes, { left: 40, top: 25, width: 15, height: 10 }))[0]).toBeGreaterThan(180);

    const outside = await call(owner, "POST", `/uploaded-images/${img.id}/crop`, { body: { x: 30, y: 0, width: 40, height: 10 } });
    expect(outside.status).toBe(422);
    expect(outside.body.error.message).toBe("The crop must lie inside the image");
    expect((await call(owner, "POST", `/uploaded-images/${img.id}/crop`, { body: { x: 0, y: 0, width: 0, height: 10 } })).status).toBe(400);
  });

  it("rotate: 90° steps clockwise (-90 anticlockwise); other angles refused", async () => {
    const img = await stored(owner);
    const r = await call(owner, "POST", `/uploaded-images/${img.id}/rotate`, { body: { degrees: 90 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ width: 80, height: 120, version: 2 });
    // Clockwise: the top-left block is now top-right.
    const { bytes, meta } = await file(img.key);
    expect(meta.orientation ?? 1).toBe(1);
    expect((await mean(bytes, { left: 62, top: 2, width: 16, height: 25 }))[0]).toBeLessThan(80);
    expect(gpsTagCount(meta.exif!)).toBe(0);
    const back = await call(owner, "POST", `/uploaded-images/${img.id}/rotate`, { body: { degrees: -90 } });
    expect(back.body).toMatchObject({ width: 120, height: 80, version: 3 });
    expect((await call(owner, "POST", `/uploaded-images/${img.id}/rotate`, { body: { degrees: 45 } })).status).toBe(400);
  });

  it("replace: a new file (checked as every upload, at most 1024 px, EXIF without GPS) under the same id and URL", async () => {
    const img = await stored(owner);
    const big = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: "#3366aa" } })
      .png()
      .withExif({ IFD0: { Make: "BigCam" }, IFD3: { GPSLatitudeRef: "S", GPSLatitude: "33/1 52/1 0/1" } })
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(big)], { type: "image/png" }), "new.png");
    const res = await call(owner, "PUT", `/uploaded-images/${img.id}`, { body: form });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: img.id, url: img.url, width: 1024, height: 768, version: 2 });
    const { meta } = await file(img.key);
    expect([meta.format, meta.width]).toEqual(["jpeg", 1024]);
    expect(Buffer.from(meta.exif!).includes("BigCam")).toBe(true);
    expect(gpsTagCount(meta.exif!)).toBe(0);

    const pdf = new FormData();
    pdf.append("file", new Blob(["%PDF-1.4 not an image"]), "x.pdf");
    expect((await call(owner, "PUT", `/uploaded-images/${img.id}`, { body: pdf })).status).toBe(415);
    expect((await call(owner, "PUT", `/uploaded-images/${img.id}`, { body: new FormData() })).status).toBe(400);
    expect((await call(owner, "GET", `/uploaded-images/${img.id}`)).body.version).toBe(2);
  });

  it("another user cannot edit, replace or delete it (404); an admin with media.manage can; admins without it only their own", async () => {
    const img = await stored(owner);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }), "x.jpg");
    for (const [m, p, body] of [
      ["POST", `/uploaded-images/${img.id}/crop`, { x: 0, y: 0, width: 10, height: 10 }],
      ["POST", `/uploaded-images/${img.id}/rotate`, { degrees: 180 }],
      ["POST", `/uploaded-images/${img.id}/remove-background`, {}],
      ["PUT", `/uploaded-images/${img.id}`, form],
      ["DELETE", `/uploaded-images/${img.id}`, undefined],
    ] as const) {
      expect((await call(other, m, p, { body })).status, `${m} ${p}`).toBe(404);
      expect((await call(adminNoMedia, m, p, { body })).status, `${m} ${p}`).toBe(404);
    }
    expect((await call(null, "POST", `/uploaded-images/${img.id}/rotate`, { body: { degrees: 180 } })).status).toBe(401);
    expect((await call(mediaAdmin, "POST", `/uploaded-images/${img.id}/rotate`, { body: { degrees: 180 } })).body.version).toBe(2);
  });

  it("remove background: the subject on white from the local model, same id and URL", async () => {
    const garment = await sharp({ create: { width: 160, height: 200, channels: 3, background: "#7fb3d5" } })
      .composite([{ input: await sharp({ create: { width: 70, height: 110, channels: 3, background: "#c0392b" } }).png().toBuffer(), left: 45, top: 45 }])
      .jpeg()
      .toBuffer();
    const img = await stored(owner, { bytes: garment });
    const res = await call(owner, "POST", `/uploaded-images/${img.id}/remove-background`, { body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: img.id, url: img.url, version: 2, width: 160, height: 200 });
    const { bytes } = await file(img.key);
    const corner = await mean(bytes, { left: 0, top: 0, width: 20, height: 20 });
    expect(Math.min(...corner)).toBeGreaterThan(235); // the blue background is now white
    expect((await call(owner, "POST", `/uploaded-images/${img.id}/remove-background`, { body: { background: "white" } })).status).toBe(400);
  }, 120_000);
});

describe("references keep working", () => {
  it("an ad request (by id), a review and a product request (by URL) still name the edited image; none of them lets it be deleted", async () => {
    const db = app.database.db;
    const img = await stored(owner);
    await db.vendor.create({ data: { id: "uploads-vendor", name: "Uploads Vendor", handle: "uploads-vendor" } });
    await db.product.create({ data: { id: "gid://shopify/Product/9901", title: "Uploads Tee", handle: "uploads-tee", vendor_id: "uploads-vendor" } });
    const request = await db.productAdRequest.create({ data: { vendor_id: "uploads-vendor", product_ids: ["gid://shopify/Product/9901"], uploaded_image_ids: [img.id], notes: "brief" } });
    await call(owner, "POST", `/uploaded-images/${img.id}/rotate`, { body: { degrees: 90 } });
    const after = await db.productAdRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(after.uploaded_image_ids).toEqual([img.id]);
    const listed = (await call(owner, "GET", `/uploaded-images/${img.id}`)).body;
    expect(listed).toMatchObject({ url: img.url, used_by: ["an ad request"] });
    const refused = await call(owner, "DELETE", `/uploaded-images/${img.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This image is still used by an ad request: remove it there first");

    const photoRow = await stored(owner, { purpose: "review" });
    await db.review.create({ data: { rating: 5, body: "Lovely", name: "Ada", product_id: "gid://shopify/Product/9901", user_id: owner.id, images: [photoRow.url] } });
    const locked = await call(owner, "POST", `/uploaded-images/${photoRow.id}/rotate`, { body: { degrees: 90 } });
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toBe("This photo belongs to a submitted review: only the moderators can change it now");
    // The moderators can, and the review's URL shows the new picture.
    expect((await call(mediaAdmin, "POST", `/uploaded-images/${photoRow.id}/rotate`, { body: { degrees: 90 } })).body).toMatchObject({ url: photoRow.url, width: 80, height: 120, used_by: ["a review"] });
    expect((await call(mediaAdmin, "DELETE", `/uploaded-images/${photoRow.id}`)).status).toBe(409);

    const requested = await stored(owner, { purpose: "product_request" });
    await db.productRequest.create({ data: { brand: "Acme", garment: "Trench coat", image_url: requested.url, user_id: owner.id } });
    expect((await call(owner, "POST", `/uploaded-images/${requested.id}/crop`, { body: { x: 10, y: 10, width: 50, height: 50 } })).body).toMatchObject({ url: requested.url, used_by: ["a product request"] });
    expect((await call(owner, "DELETE", `/uploaded-images/${requested.id}`)).body.error.message).toBe("This image is still used by a product request: remove it there first");
  });

  it("an unused image is deleted with its file; then 404", async () => {
    const img = await stored(owner);
    expect((await call(owner, "DELETE", `/uploaded-images/${img.id}`)).body).toEqual({ ok: true });
    expect(await app.ctx.storage.get(img.key)).toBeNull();
    expect((await call(owner, "GET", `/uploaded-images/${img.id}`)).status).toBe(404);
    expect((await call(owner, "DELETE", `/uploaded-images/${img.id}`)).status).toBe(404);
  });
});
