import fs from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deltaE2000, hexToLab } from "../../app/services/color.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let media: { token: string };
let other: { token: string };

beforeAll(async () => {
  app = await createTestApp();
  media = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  other = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "drops.manage"] });
});
afterAll(() => app?.close());

const solid = (width: number, height: number, hex: string) => sharp({ create: { width, height, channels: 3, background: hex } });

function form(bytes: Uint8Array | Buffer, name: string, fields: Record<string, string | string[]> = {}, mime = "application/octet-stream"): FormData {
  const fd = new FormData();
  fd.set("file", new File([new Uint8Array(bytes)], name, { type: mime }));
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) fd.append(k, x);
  return fd;
}

const upload = (fd: FormData, token = media.token) => app.api("POST", "/internal-media", { token, body: fd });
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

/** A PNG that claims a size without carrying the pixels (IHDR, an empty IDAT, IEND). */
function pngHeader(width: number, height: number): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = table[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.alloc(0))), chunk("IEND", Buffer.alloc(0))]);
}

describe("upload", () => {
  it("stores a PNG as a .jpg with its size and dominant colour", async () => {
    // Mostly red with a white stripe: red dominates.
    const png = await solid(80, 60, "#d0201a")
      .composite([{ input: await solid(80, 10, "#ffffff").png().toBuffer(), top: 0, left: 0 }])
      .png()
      .toBuffer();
    const res = await upload(form(png, "red-poster.png", { tags: ["Campaign, red", "poster"] }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "image", format: "jpg", width: 80, height: 60, title: "red-poster", tags: ["campaign", "red", "poster"] });
    expect(res.body.url).toMatch(/^\/uploads\/images\/internal\/[0-9a-f-]{36}\.jpg$/);
    expect(res.body.url).toContain(res.body.id);
    const red = hexToLab("#d0201a")!;
    expect(deltaE2000(res.body.color, red)).toBeLessThan(3);
    expect(res.body.color.hex).toMatch(/^#[0-9a-f]{6}$/);

    const file = fs.readFileSync(storedFile(res.body.url));
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([80, 60]);
  });

  it("honours the EXIF orientation and strips the metadata", async () => {
    // 60×20 pixels stored sideways with orientation 6 (rotate 90° clockwise to display): 20×60 upright.
    const jpeg = await solid(60, 20, "#2050c0").jpeg().withExif({ IFD0: { Copyright: "Secret Studio", Artist: "Someone" } }).withMetadata({ orientation: 6 }).toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif).toBeDefined();
    const res = await upload(form(jpeg, "sideways.jpeg", { title: "Blue banner", type: "image" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ width: 20, height: 60, title: "Blue banner" });
    const file = fs.readFileSync(storedFile(res.body.url));
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height]).toEqual([20, 60]);
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(file.includes(Buffer.from("Secret Studio"))).toBe(false);
  });

  it("accepts WebP, recognised by content whatever the name says", async () => {
    const webp = await solid(32, 32, "#20a040").webp().toBuffer();
    const res = await upload(form(webp, "looks-like.gif", {}, "image/gif"));
    expect(res.status).toBe(201);
    expect(deltaE2000(res.body.color, hexToLab("#20a040")!)).toBeLessThan(3);
  });

  it("refuses other types by content, videos, oversize files and pictures over 40 megapixels", async () => {
    const text = await upload(form(Buffer.from("just some text, not an image"), "photo.jpg", {}, "image/jpeg"));
    expect(text.status).toBe(415);
    expect(text.body.error.message).toContain("upload a JPEG, PNG or WebP image");

    const gif = await upload(form(await solid(8, 8, "#000000").gif().toBuffer(), "anim.gif"));
    expect(gif.status).toBe(415);

    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(64)]);
    const video = await upload(form(mp4, "clip.mp4", {}, "video/mp4"));
    expect(video.status).toBe(415);
    expect(video.body.error.message).toBe("Video uploads are not supported yet: upload a JPEG, PNG or WebP image");
    const asVideo = await upload(form(await solid(8, 8, "#000000").png().toBuffer(), "x.png", { type: "video" }));
    expect(asVideo.status).toBe(415);
    expect(asVideo.body.error.code).toBe("unsupported_media_type");

    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const tooBig = await upload(form(big, "huge.jpg"));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toBe("The file is 10.0 MB; the maximum is 10 MB");

    const giant = await upload(form(pngHeader(8000, 5001), "giant.png"));
    expect(giant.status).toBe(422);
    expect(giant.body.error.message).toContain("the maximum is 40 megapixels");
    const exactly = await upload(form(pngHeader(8000, 5000), "exact.png"));
    expect(exactly.status).toBe(422); // within the limit, but the header carries no pixels
    expect(exactly.body.error.message).toContain("could not be decoded");

    const damaged = await upload(form(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), "broken.jpg"));
    expect(damaged.status).toBe(422);

    expect(await app.database.db.internalMedia.count()).toBe(3);
    expect(fs.readdirSync(path.join(app.dataDir, "uploads", "images", "internal"))).toHaveLength(3);
  });

  it("needs a multipart body with a file, and media.manage", async () => {
    const noFile = new FormData();
    noFile.set("title", "nothing");
    const missing = await upload(noFile);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('file is required: attach the image in a "file" field');
    const json = await app.api("POST", "/internal-media", { token: media.token, body: { file: "x" } });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toBe('Send the upload as multipart/form-data with the image in a "file" field');
    const badType = await upload(form(await solid(8, 8, "#000000").png().toBuffer(), "x.png", { type: "audio" }));
    expect(badType.status).toBe(400);
    const denied = await upload(form(await solid(8, 8, "#000000").png().toBuffer(), "x.png"), other.token);
    expect(denied.status).toBe(403);
  });
});

describe("list, colour similarity, get, update, delete", () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const db = app.database.db;
    const t0 = Date.now() - 60_000;
    const rows: [string, string, "image" | "video", string][] = [
      ["red", "#cc2020", "image", "jpg"],
      ["crimson", "#b81c2e", "image", "jpg"],
      ["orange", "#e07020", "image", "jpg"],
      ["navy", "#1a2a6c", "image", "jpg"],
      ["red-video", "#c82222", "video", "mp4"],
    ];
    for (const [i, [name, hex, type, format]] of rows.entries()) {
      const lab = hexToLab(hex)!;
      const row = await db.internalMedia.create({
        data: { type, format, url: `/uploads/images/internal/${name}.jpg`, title: name, l: lab.l, a: lab.a, b: lab.b, tags: [name], created_at: new Date(t0 + i * 1000) },
      });
      ids[name] = row.id;
    }
    await db.internalMedia.create({ data: { type: "image", format: "jpg", url: "/uploads/images/internal/nocolour.jpg", title: "no colour", created_at: new Date(t0 + 10_000) } });
  });

  it("lists newest first with page/limit and filters", async () => {
    const all = await app.api("GET", "/internal-media", { token: media.token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 20, total: 9, totalPages: 1 });
    expect(all.body.media[0].distance).toBeNull();
    const page2 = await app.api("GET", "/internal-media", { token: media.token, query: { page: 2, limit: 4 } });
    expect(page2.body).toMatchObject({ page: 2, limit: 4, total: 9, totalPages: 3 });
    expect(page2.body.media).toHaveLength(4);
    const videos = await app.api("GET", "/internal-media", { token: media.token, query: { type: "video" } });
    expect(videos.body.media.map((m: { title: string }) => m.title)).toEqual(["red-video"]);
    const mp4 = await app.api("GET", "/internal-media", { token: media.token, query: { format: "mp4" } });
    expect(mp4.body.total).toBe(1);
    const jpeg = await app.api("GET", "/internal-media", { token: media.token, query: { format: "jpeg", type: "image" } });
    expect(jpeg.body.total).toBe(8);
    const tagged = await app.api("GET", "/internal-media", { token: media.token, query: { tag: "poster" } });
    expect(tagged.body.total).toBe(1);
    expect((await app.api("GET", "/internal-media", { token: media.token, query: { limit: 101 } })).status).toBe(400);
    expect((await app.api("GET", "/internal-media", { token: media.token, query: { page: 0 } })).status).toBe(400);
    expect((await app.api("GET", "/internal-media", { token: other.token })).status).toBe(403);
  });

  it("orders by CIEDE2000 distance to a Lab colour and keeps those within the threshold", async () => {
    const red = hexToLab("#cc2020")!;
    const q = (extra: Record<string, string | number> = {}) =>
      app.api("GET", `/internal-media?similar_to_color[l]=${red.l}&similar_to_color[a]=${red.a}&similar_to_color[b]=${red.b}`, { token: media.token, query: extra });
    const res = await q();
    expect(res.status).toBe(200);
    const titles = res.body.media.map((m: { title: string }) => m.title);
    // Default threshold 10: the reds (and the uploaded red poster), not orange, navy or the colourless one.
    expect(titles.slice(0, 2)).toEqual(["red", "red-video"]);
    expect([...titles.slice(2)].sort()).toEqual(["crimson", "red-poster"]);
    expect(titles).not.toContain("orange");
    expect(titles).not.toContain("navy");
    expect(titles).not.toContain("no colour");
    const distances = res.body.media.map((m: { distance: number }) => m.distance);
    expect(distances[0]).toBe(0);
    expect([...distances].sort((x, y) => x - y)).toEqual(distances);
    expect(distances.every((d: number) => d <= 10)).toBe(true);
    expect(res.body.total).toBe(titles.length);

    const wide = await q({ "similar_to_color[threshold]": 40 });
    expect(wide.body.media.map((m: { title: string }) => m.title)).toContain("orange");
    expect(wide.body.media.map((m: { title: string }) => m.title)).not.toContain("navy");
    const images = await q({ type: "image", limit: 1, page: 2 });
    expect(images.body.media.map((m: { title: string }) => m.title)).toEqual([titles.filter((t: string) => t !== "red-video")[1]]);
    expect(images.body.totalPages).toBe(images.body.total);

    const partial = await app.api("GET", "/internal-media?similar_to_color[l]=50", { token: media.token });
    expect(partial.status).toBe(400);
    expect(partial.body.error.message).toBe("similar_to_color.a is required");
    const outOfRange = await app.api("GET", "/internal-media?similar_to_color[l]=150&similar_to_color[a]=0&similar_to_color[b]=0", { token: media.token });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.error.message).toBe("similar_to_color.l: must be at most 100");
    const notNumber = await app.api("GET", "/internal-media?similar_to_color[l]=x&similar_to_color[a]=0&similar_to_color[b]=0", { token: media.token });
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.error.message).toBe("similar_to_color.l: must be a number");
  });

  it("gets, updates tags/type/title, and deletes with the stored file", async () => {
    const got = await app.api("GET", `/internal-media/${ids.navy}`, { token: media.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ title: "navy", tags: ["navy"], color: { hex: "#1a2a6c" } });
    expect((await app.api("GET", "/internal-media/missing", { token: media.token })).status).toBe(404);

    const patched = await app.api("PATCH", `/internal-media/${ids.navy}`, { token: media.token, body: { tags: ["Dark", "blue", "dark"], type: "video", title: "Navy night" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ tags: ["dark", "blue"], type: "video", title: "Navy night" });
    const empty = await app.api("PATCH", `/internal-media/${ids.navy}`, { token: media.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("Give tags, type or title to update");
    const badType = await app.api("PATCH", `/internal-media/${ids.navy}`, { token: media.token, body: { type: "gif" } });
    expect(badType.status).toBe(400);
    expect((await app.api("PATCH", "/internal-media/missing", { token: media.token, body: { tags: [] } })).status).toBe(404);

    const png = await solid(16, 16, "#888888").png().toBuffer();
    const up = await upload(form(png, "grey.png"));
    const file = storedFile(up.body.url);
    expect(fs.existsSync(file)).toBe(true);
    const del = await app.api("DELETE", `/internal-media/${up.body.id}`, { token: media.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });
    expect(fs.existsSync(file)).toBe(false);
    expect((await app.api("GET", `/internal-media/${up.body.id}`, { token: media.token })).status).toBe(404);
    expect((await app.api("DELETE", `/internal-media/${up.body.id}`, { token: media.token })).status).toBe(404);
  });
});
