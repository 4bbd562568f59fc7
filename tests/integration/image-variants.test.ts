/**
 * The image route `/images/<key>?w=&fm=` over real HTTP, mounted as server.ts mounts it on a test
 * app's storage: allowed sizes and formats (never enlarged), the original without parameters,
 * long cache headers and ETag revalidation, the variant cache, and the refusals (400 bad
 * parameters or paths, traversal refused, 404 missing, 415 not an image, 405 other methods).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { finalErrorHandler } from "../../app/lib/express-errors.server";
import { IMAGE_CACHE_CONTROL, imageRoute, imageVariantCache } from "../../app/lib/image-route.server";
import { createLogger } from "../../app/lib/logger.server";
import { imageUrl, responsiveImage, IMAGE_WIDTHS } from "../../app/client/images";

let app: TestApp;
let server: http.Server;
let base: string;
let original: Buffer;

beforeAll(async () => {
  app = await createTestApp();
  const log = createLogger("silent");
  const web = express();
  web.use("/images", imageRoute({ storage: app.ctx.storage, cache: imageVariantCache(app.ctx.config), log }));
  web.use(finalErrorHandler(log));
  server = await new Promise<http.Server>((resolve) => {
    const s = web.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A 600×800 photo-like JPEG (noise, so sizes differ by format as real photos do).
  const raw = Buffer.alloc(600 * 800 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 9) * 31) & 0xff;
  original = await sharp(raw, { raw: { width: 600, height: 800, channels: 3 } }).blur(3).jpeg({ quality: 88 }).toBuffer();
  await app.ctx.storage.put("images/test/coat.jpg", new Uint8Array(original), "image/jpeg");
  await app.ctx.storage.put("images/test/logo.png", new Uint8Array(await sharp({ create: { width: 400, height: 400, channels: 4, background: "#336699" } }).png().toBuffer()), "image/png");
  await app.ctx.storage.put("images/test/broken.jpg", new TextEncoder().encode("<html>not an image</html>"), "image/jpeg");
  await app.ctx.storage.put("secret/private.jpg", new Uint8Array(original), "image/jpeg");
});

afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await app?.close();
});

/** A GET with the path sent exactly as written (fetch would normalise `..`). */
function raw(pathAndQuery: string, method = "GET", headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathAndQuery.startsWith("/") ? "" : "/"}`, { method, path: pathAndQuery, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("sizes and formats", () => {
  it.each([
    ["webp", "image/webp", 320],
    ["avif", "image/avif", 320],
    ["jpeg", "image/jpeg", 160],
    ["png", "image/png", 80],
  ] as const)("w=%s answers a %s of the asked width with year-long immutable caching", async (fm, type, w) => {
    const res = await raw(`/images/test/coat.jpg?w=${w}&fm=${fm}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe(type);
    expect(res.headers["cache-control"]).toBe(IMAGE_CACHE_CONTROL);
    expect(res.headers["cache-control"]).toContain("max-age=31536000");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{16}-\d+-\w+"$/);
    const meta = await sharp(res.body).metadata();
    expect(meta.width).toBe(w);
    expect(meta.height).toBe(Math.round((w * 800) / 600));
    expect(meta.format).toBe(fm === "avif" ? "heif" : fm);
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
  });

  it("without fm keeps the original's format (the fallback), smaller than the original", async () => {
    const res = await raw("/images/test/coat.jpg?w=320");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect((await sharp(res.body).metadata()).width).toBe(320);
    expect(res.body.length).toBeLessThan(original.length);
  });

  it("a PNG original stays PNG without fm, and becomes WebP with fm=webp", async () => {
    const png = await raw("/images/test/logo.png?w=160");
    expect(png.headers["content-type"]).toBe("image/png");
    expect((await sharp(png.body).metadata()).width).toBe(160);
    const webp = await raw("/images/test/logo.png?w=160&fm=webp");
    expect(webp.headers["content-type"]).toBe("image/webp");
  });

  it("never enlarges: a width over the original's answers the original's width", async () => {
    const res = await raw("/images/test/coat.jpg?w=1280&fm=webp");
    expect(res.status).toBe(200);
    expect((await sharp(res.body).metadata()).width).toBe(600);
  });

  it("without parameters answers the original's bytes", async () => {
    const res = await raw("/images/test/coat.jpg");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(Buffer.compare(res.body, original)).toBe(0);
  });

  it("WebP and AVIF at the card's width are a fraction of the full-size original", async () => {
    const webp = await raw("/images/test/coat.jpg?w=320&fm=webp");
    const avif = await raw("/images/test/coat.jpg?w=320&fm=avif");
    expect(webp.body.length).toBeLessThan(original.length / 2);
    expect(avif.body.length).toBeLessThan(original.length / 2);
  });

  it("keeps a made variant in the cache (DATA_DIR/image-cache) and answers it again with the same bytes", async () => {
    const first = await raw("/images/test/coat.jpg?w=480&fm=webp");
    const files = fs.readdirSync(path.join(app.dataDir, "image-cache", "variants", "images", "test", "coat.jpg"));
    expect(files.some((f) => f.endsWith("-480.webp"))).toBe(true);
    const second = await raw("/images/test/coat.jpg?w=480&fm=webp");
    expect(Buffer.compare(first.body, second.body)).toBe(0);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it("the same variant asked for several times at once is answered to each", async () => {
    const all = await Promise.all(Array.from({ length: 4 }, () => raw("/images/test/coat.jpg?w=640&fm=avif")));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(all.map((r) => r.body.toString("base64"))).size).toBe(1);
  });

  it("answers 304 to a matching If-None-Match, and HEAD without a body", async () => {
    const first = await raw("/images/test/coat.jpg?w=240&fm=webp");
    const again = await raw("/images/test/coat.jpg?w=240&fm=webp", "GET", { "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await raw("/images/test/coat.jpg?w=240&fm=webp", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("image/webp");
    expect(head.body.length).toBe(0);
  });

  it("an image rewritten under the same key gets new variants (the cache key and ETag follow its bytes)", async () => {
    const before = await raw("/images/test/logo.png?w=80&fm=webp");
    await app.ctx.storage.put("images/test/logo.png", new Uint8Array(await sharp({ create: { width: 400, height: 400, channels: 4, background: "#993366" } }).png().toBuffer()), "image/png");
    const after = await raw("/images/test/logo.png?w=80&fm=webp");
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const { dominant } = await sharp(after.body).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
  });
});

describe("refusals", () => {
  it.each([
    ["a width not in the list", "?w=300&fm=webp"],
    ["a width of zero", "?w=0"],
    ["a width that is not a number", "?w=abc"],
    ["a huge width", "?w=99999"],
    ["a format not in the list", "?w=320&fm=gif"],
    ["a format in capitals", "?w=320&fm=WEBP"],
    ["an unknown parameter", "?w=320&q=100"],
    ["a width given twice", "?w=320&w=640"],
    ["a width as an array", "?w[]=320"],
  ])("%s is 400, not cached", async (_what, query) => {
    const res = await raw(`/images/test/coat.jpg${query}`);
    expect(res.status).toBe(400);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body.toString()).toMatch(/not valid/);
  });

  it.each([
    ["parent folders", "/images/../secret/private.jpg"],
    ["encoded parent folders", "/images/%2e%2e/secret/private.jpg"],
    ["encoded slashes and parents", "/images/test/..%2f..%2fsecret%2fprivate.jpg"],
    ["a backslash", "/images/test\\..\\..\\secret\\private.jpg"],
    ["a dot file", "/images/test/.coat.jpg"],
    ["an empty segment", "/images/test//coat.jpg"],
    ["a NUL byte", "/images/test/coat%00.jpg"],
    ["a name that is not an image", "/images/test/coat.txt"],
    ["no name at all", "/images/"],
  ])("%s are refused with 400", async (_what, p) => {
    const res = await raw(`${p}?w=320&fm=webp`);
    expect(res.status).toBe(400);
    expect(res.body.includes(original.subarray(0, 64))).toBe(false);
  });

  it("only keys under images/ are reachable: the private file outside it is never answered", async () => {
    for (const p of ["/images/../secret/private.jpg", "/images/%2E%2E%2Fsecret%2Fprivate.jpg", "/images/secret/private.jpg"]) {
      const res = await raw(`${p}?w=320`);
      expect([400, 404]).toContain(res.status);
      expect(res.headers["content-type"]).not.toMatch(/^image\//);
    }
  });

  it("a missing image is 404 (not cached)", async () => {
    const res = await raw("/images/test/missing.jpg?w=320&fm=webp");
    expect(res.status).toBe(404);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect((await raw("/images/nowhere/at/all.png")).status).toBe(404);
  });

  it("a stored file that is not an image is 415", async () => {
    const res = await raw("/images/test/broken.jpg?w=320&fm=webp");
    expect(res.status).toBe(415);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("methods other than GET and HEAD are 405", async () => {
    const res = await raw("/images/test/coat.jpg?w=320", "POST");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });
});

describe("URLs the client library builds are the ones the route answers", () => {
  it("every srcset candidate of a card image, in every format, is a 200 of its width (capped at the original's)", async () => {
    const r = responsiveImage("/uploads/images/test/coat.jpg", { widths: [160, 320, 480, 640], sizes: "50vw", intrinsicWidth: 600 });
    const urls = [r.srcSet, ...r.sources.map((s) => s.srcSet)].flatMap((set) => (set ?? "").split(", ").map((c) => c.split(" ") as [string, string]));
    expect(urls.length).toBe(12);
    for (const [url, descriptor] of urls) {
      const res = await raw(url);
      expect(res.status, url).toBe(200);
      expect((await sharp(res.body).metadata()).width).toBe(Math.min(600, Number.parseInt(descriptor, 10)));
    }
    expect((await raw(r.src)).status).toBe(200);
  });

  it("every allowed width answers", async () => {
    for (const w of IMAGE_WIDTHS) expect((await raw(imageUrl("/uploads/images/test/logo.png", w, "webp"))).status).toBe(200);
  });
});
