/**
 * Vision: search by photo (upload and URL), face boxes, vision search entries — with the real
 * image model (MobileNetV2 from nsfwjs on tfjs-wasm) and human's blazeface, on products whose
 * featured images are demo-style garment renders.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Messages } from "../../app/contract/messages";
import { blockOf, IMAGE_EMBEDDING_DIMENSIONS, IMAGE_EMBEDDING_MODEL } from "../../app/providers/image-embedding/features";
import { cosine } from "../../app/services/similar-products.server";
import { indexProduct } from "../../app/services/product-index.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { personPhoto, renderGarment, writeFixtureImage } from "../helpers/garment-images";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
let shopper: { id: string; token: string };
let guest: { id: string; token: string };
const images: Record<string, Buffer> = {};

const form = (fields: Record<string, string | Blob>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) typeof v === "string" ? fd.append(k, v) : fd.append(k, v, "photo.jpg");
  return fd;
};
const jpegBlob = (b: Buffer) => new Blob([new Uint8Array(b)], { type: "image/jpeg" });
const search = (fields: Record<string, string | Blob>, token?: string) => app.api("POST", "/vision/product-search", { body: form(fields), token });

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  shopper = await app.createUser();
  guest = await app.createUser({ authProvider: "guest" });
  images.redTee = await renderGarment("tshirt", "#c0392b");
  images.blueTee = await renderGarment("tshirt", "#2e86c1", "stripes");
  images.greenTee = await renderGarment("tshirt", "#27ae60");
  images.purpleDress = await renderGarment("dress", "#8e44ad");
  images.yellowDress = await renderGarment("dress", "#f4d03f");
  images.jeans = await renderGarment("jeans", "#34495e");
  images.skirt = await renderGarment("skirt", "#1abc9c", "check");
  images.coat = await renderGarment("coat", "#7b5e3b");
  const products: [number, string, "menswear" | "womenswear" | "both", string, Parameters<typeof createProduct>[1]["status"]?][] = [
    [701, "Red Tee", "menswear", "redTee"],
    [702, "Blue Striped Tee", "womenswear", "blueTee"],
    [703, "Purple Dress", "womenswear", "purpleDress"],
    [704, "Slate Jeans", "menswear", "jeans"],
    [705, "Teal Check Skirt", "both", "skirt"],
    [706, "Brown Coat", "both", "coat"],
    [707, "Draft Red Tee", "menswear", "redTee", "draft"],
    [708, "Yellow Dress", "womenswear", "yellowDress"],
  ];
  for (const [n, title, gender, image, status] of products) {
    await createProduct(db, { n, title, gender, status, productType: title.split(" ").pop()!, images: 1 });
    await writeFixtureImage(app.ctx.config, n, images[image]);
  }
  for (const [n] of products) await indexProduct(app.ctx, pgid(n));
}, 180_000);
afterAll(() => app?.close());

describe("the image model", () => {
  it("puts two renders of the same garment type closer than renders of other types", async () => {
    const e = app.ctx.imageEmbedding;
    const started = performance.now();
    const red = await e.embed(images.redTee);
    const embedMs = performance.now() - started;
    const green = await e.embed(images.greenTee);
    const dress = await e.embed(images.purpleDress);
    const jeans = await e.embed(images.jeans);
    expect(red.model).toBe(IMAGE_EMBEDDING_MODEL);
    expect(red.vector).toHaveLength(IMAGE_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...red.vector)).toBeCloseTo(1, 5);
    // Two t-shirts of different colours vs a t-shirt and a dress / jeans, on the whole vector and on
    // the CNN block alone (the model's own features).
    expect(cosine(red.vector, green.vector)).toBeGreaterThan(cosine(red.vector, dress.vector));
    expect(cosine(red.vector, green.vector)).toBeGreaterThan(cosine(red.vector, jeans.vector));
    const cnn = (v: number[]) => blockOf(v, "cnn");
    expect(cosine(cnn(red.vector), cnn(green.vector))).toBeGreaterThan(cosine(cnn(red.vector), cnn(dress.vector)));
    expect(cosine(cnn(red.vector), cnn(green.vector))).toBeGreaterThan(cosine(cnn(red.vector), cnn(jeans.vector)));
    // The same picture gives the same vector; the garment was found against the studio background.
    expect(cosine(red.vector, (await e.embed(images.redTee)).vector)).toBeCloseTo(1, 6);
    expect(red.foreground.separated).toBe(true);
    expect(red.foreground.share).toBeGreaterThan(0.15);
    expect(red.foreground.share).toBeLessThan(0.8);
    console.info(`[vision] image embedding: ${Math.round(embedMs)} ms (prepare ${red.timings.prepareMs} ms, model ${red.timings.modelMs} ms)`);
  });
});

describe("POST /vision/product-search", () => {
  it("finds the product whose image the photo shows, then the closest, with scores; hidden products never", async () => {
    const res = await search({ image: jpegBlob(images.redTee) });
    expect(res.status).toBe(200);
    const ids = res.body.results.map((r: { id: string }) => r.id);
    expect(ids[0]).toBe(pgid(701));
    expect(res.body.scores[0]).toBeGreaterThan(0.999);
    expect(ids).not.toContain(pgid(707)); // draft, same image
    expect(ids).toHaveLength(7);
    expect([...res.body.scores].sort((a: number, b: number) => b - a)).toEqual(res.body.scores);
    // The other t-shirt is nearer than the dresses and the coat.
    expect(ids.indexOf(pgid(702))).toBeLessThan(ids.indexOf(pgid(703)));
    expect(res.body).toMatchObject({ limit: 20, target_gender: null, model: IMAGE_EMBEDDING_MODEL, searchEntryId: null, image_url: null });
    expect(["pgvector", "exact"]).toContain(res.body.index);
    expect(res.body.results[0]).toMatchObject({ id: pgid(701), title: "Red Tee", featuredImage: { url: "/uploads/images/test/701-0.jpg" } });
    console.info(`[vision] product-search: embed ${res.body.timings.embedMs} ms, query ${res.body.timings.queryMs} ms (${res.body.index})`);
  });

  it("filters by target_gender (a gender also sees unisex products) and honours limit", async () => {
    const women = await search({ image: jpegBlob(images.purpleDress), target_gender: "womenswear" });
    expect(women.status).toBe(200);
    const ids = women.body.results.map((r: { id: string }) => r.id);
    expect(ids[0]).toBe(pgid(703));
    expect(ids.sort()).toEqual([pgid(702), pgid(703), pgid(705), pgid(706), pgid(708)].sort());
    expect(women.body.target_gender).toBe("womenswear");
    const men = await search({ image: jpegBlob(images.purpleDress), target_gender: "menswear", limit: "2" });
    expect(men.body.results.map((r: { target_gender: string }) => r.target_gender).every((g: string) => g === "menswear" || g === "both")).toBe(true);
    expect(men.body.results).toHaveLength(2);
    expect(men.body.limit).toBe(2);
    expect((await search({ image: jpegBlob(images.redTee), limit: "61" })).status).toBe(400);
    expect((await search({ image: jpegBlob(images.redTee), target_gender: "kids" })).status).toBe(400);
  });

  it("refuses a missing image (400), a file that is not an image (415) and one over 10 MB (413)", async () => {
    const missing = await search({ target_gender: "menswear" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('image is required: attach the photo in an "image" field');
    const json = await app.api("POST", "/vision/product-search", { body: { image: "x" } });
    expect(json.status).toBe(400);
    const text = await search({ image: new Blob(["hello, this is not an image"], { type: "image/jpeg" }) });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe("unsupported_media_type");
    const big = Buffer.alloc(10 * 1024 * 1024 + 10);
    images.redTee.copy(big);
    const tooBig = await search({ image: new Blob([new Uint8Array(big)], { type: "image/jpeg" }) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toMatch(/maximum is 10 MB/);
  });

  it("keeps a vision search entry for a registered caller, not for a guest or an anonymous caller", async () => {
    const before = await app.database.db.visionSearchEntry.count();
    const anon = await search({ image: jpegBlob(images.coat) });
    const asGuest = await search({ image: jpegBlob(images.coat) }, guest.token);
    expect(anon.body.searchEntryId).toBeNull();
    expect(asGuest.body.searchEntryId).toBeNull();
    expect(await app.database.db.visionSearchEntry.count()).toBe(before);

    const res = await search({ image: jpegBlob(images.coat), target_gender: "both", limit: "3" }, shopper.token);
    expect(res.status).toBe(200);
    expect(res.body.searchEntryId).toEqual(expect.any(String));
    expect(res.body.image_url).toMatch(/^\/uploads\/images\/vision\/[0-9a-f-]+\.jpg$/);
    const stored = await app.ctx.storage.get(res.body.image_url.replace("/uploads/", ""));
    expect(stored?.[0]).toBe(0xff); // a JPEG
    const entry = await app.database.db.visionSearchEntry.findUniqueOrThrow({ where: { id: res.body.searchEntryId } });
    expect(entry).toMatchObject({ user_id: shopper.id, image_url: res.body.image_url, is_temporary: false });
    expect((entry.result as { products: { id: string }[] }).products.map((p) => p.id)).toEqual(res.body.results.map((r: { id: string }) => r.id));
    const list = await app.api("GET", "/vision-search-entries", { token: shopper.token });
    expect(list.body.entries[0].id).toBe(res.body.searchEntryId);
  });
});

describe("POST /vision/product-search-url", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "image/jpeg" });
      res.end(images.redTee);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("reads our own /uploads/ URLs from storage", async () => {
    const res = await app.api("POST", "/vision/product-search-url", { body: { url: "/uploads/images/test/703-0.jpg", target_gender: "womenswear", limit: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.results[0].id).toBe(pgid(703));
    expect(res.body.results).toHaveLength(2);
    const missing = await app.api("POST", "/vision/product-search-url", { body: { url: "/uploads/images/test/nope.jpg" } });
    expect(missing.status).toBe(404);
  });

  it("refuses private, loopback and link-local addresses (SSRF), and URLs that are not http(s)", async () => {
    for (const url of [`${base}/tee.jpg`, "http://localhost:9/x.jpg", "http://169.254.169.254/latest/meta-data", "http://[::1]:9/x.jpg", "http://10.0.0.8/x.jpg"]) {
      const res = await app.api("POST", "/vision/product-search-url", { body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toMatch(/not a public address/);
    }
    for (const url of ["file:///etc/passwd", "/etc/passwd", "ftp://example.com/x.jpg", ""]) {
      expect((await app.api("POST", "/vision/product-search-url", { body: { url } })).status, url).toBe(400);
    }
    expect((await app.api("POST", "/vision/product-search-url", { body: {} })).status).toBe(400);
  });
});

describe("POST /vision/detect-faces-and-logos", () => {
  it("finds the face in a photo of a person, none on a garment, and says logos need a hosted provider", async () => {
    const photo = await personPhoto();
    const res = await app.api("POST", "/vision/detect-faces-and-logos", { body: form({ image: jpegBlob(photo) }) });
    expect(res.status).toBe(200);
    expect(res.body.faces.length).toBeGreaterThanOrEqual(1);
    const face = res.body.faces[0];
    expect(face.score).toBeGreaterThan(0.8);
    expect(face.width).toBeGreaterThan(40);
    expect(face.x + face.width).toBeLessThanOrEqual(res.body.width);
    expect(face.y + face.height / 2).toBeLessThan(res.body.height / 2); // in the upper half
    expect(res.body).toMatchObject({ width: 320, height: 380, logos: [], logoDetection: { supported: false, provider: "local" } });
    expect(res.body.logoDetection.reason).toMatch(/hosted image-AI provider/);

    const garment = await app.api("POST", "/vision/detect-faces-and-logos", { body: { url: "/uploads/images/test/701-0.jpg" } });
    expect(garment.status).toBe(200);
    expect(garment.body.faces).toEqual([]);
  });

  it("refuses a missing image, a wrong type and a private URL", async () => {
    expect((await app.api("POST", "/vision/detect-faces-and-logos", { body: form({}) })).status).toBe(400);
    expect((await app.api("POST", "/vision/detect-faces-and-logos", { body: form({ image: new Blob(["%PDF-1.4"]) }) })).status).toBe(415);
    expect((await app.api("POST", "/vision/detect-faces-and-logos", { body: { url: "http://127.0.0.1:1/x.jpg" } })).status).toBe(400);
  });
});

describe("rate limit of image work", () => {
  it("shares one budget per caller across the vision endpoints, answering 429 with Retry-After; other callers are not affected", async () => {
    const limited = await createTestApp({ imageRateLimit: { points: 2, durationSeconds: 60 } });
    try {
      const a = await limited.createUser({ email: "a@example.test" });
      const b = await limited.createUser({ email: "b@example.test" });
      expect((await limited.api("POST", "/vision/detect-faces-and-logos", { body: form({}), token: a.token })).status).toBe(400);
      expect((await limited.api("POST", "/vision/product-search", { body: form({}), token: a.token })).status).toBe(400);
      const third = await limited.api("POST", "/vision/product-search-url", { body: { url: "/uploads/images/none.jpg" }, token: a.token });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.api("POST", "/vision/detect-faces-and-logos", { body: form({}), token: b.token })).status).toBe(400);
      // Text search is not image work.
      expect((await limited.api("POST", "/search", { body: { query: "shirt" }, token: a.token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("vision search entries", () => {
  it("creating needs a signed-in non-guest user, with the spec's message", async () => {
    const body = { image_url: "/uploads/images/vision/a.jpg", result: { products: [] } };
    for (const token of [undefined, guest.token]) {
      const res = await app.api("POST", "/vision-search-entries", { body, token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe(Messages.SEARCH_ENTRY_CREATE_LOGIN);
      expect(res.body.error.message).toBe("You cannot create a search entry without being logged in");
    }
    const created = await app.api("POST", "/vision-search-entries", { body, token: shopper.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ user_id: shopper.id, image_url: body.image_url, result: { products: [] }, is_temporary: false });
    const lead = await app.createUser({ authProvider: "lead" });
    expect((await app.api("POST", "/vision-search-entries", { body: { image_url: "https://cdn.example.com/a.jpg", result: "{\"a\":1}" }, token: lead.token })).body.result).toEqual({ a: 1 });
    expect((await app.api("POST", "/vision-search-entries", { body: { image_url: "javascript:alert(1)" }, token: shopper.token })).status).toBe(400);
  });

  it("updating needs login, and only the caller's own entry", async () => {
    const mine = (await app.api("POST", "/vision-search-entries", { body: { image_url: "/uploads/images/vision/b.jpg" }, token: shopper.token })).body;
    for (const token of [undefined, guest.token]) {
      const res = await app.api("PATCH", `/vision-search-entries/${mine.id}`, { body: { result: { x: 1 } }, token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe("You cannot update a search entry without being logged in");
    }
    const updated = await app.api("PATCH", `/vision-search-entries/${mine.id}`, { body: { result: { products: [{ id: pgid(701) }] } }, token: shopper.token });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toEqual({ products: [{ id: pgid(701) }] });
    const other = await app.createUser();
    const foreign = await app.api("PATCH", `/vision-search-entries/${mine.id}`, { body: { result: {} }, token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe("Failed to update vision search entry");
    const missing = await app.api("PATCH", "/vision-search-entries/00000000-0000-4000-8000-000000000000", { body: { result: {} }, token: shopper.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(Messages.FAILED_TO_UPDATE_VISION_ENTRY);
    expect((await app.api("PATCH", `/vision-search-entries/${mine.id}`, { body: {}, token: shopper.token })).status).toBe(400);
  });

  it("lists the caller's 10 newest entries, newest first", async () => {
    const u = await app.createUser();
    for (let i = 0; i < 12; i++) {
      await app.api("POST", "/vision-search-entries", { body: { image_url: `/uploads/images/vision/${i}.jpg` }, token: u.token });
      await new Promise((r) => setTimeout(r, 3));
    }
    const list = await app.api("GET", "/vision-search-entries", { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body.entries).toHaveLength(10);
    expect(list.body.entries.map((e: { image_url: string }) => e.image_url)).toEqual(Array.from({ length: 10 }, (_, i) => `/uploads/images/vision/${11 - i}.jpg`));
    expect(list.body.entries.every((e: { user_id: string }) => e.user_id === u.id)).toBe(true);
    expect((await app.api("GET", "/vision-search-entries")).status).toBe(401);
    expect((await app.api("GET", "/vision-search-entries", { token: (await app.createUser({ authProvider: "guest" })).token })).body.entries).toEqual([]);
  });

  it("temporary entries: a user id is required, and a caller may only create one for themselves", async () => {
    const missing = await app.api("POST", "/vision-search-entries/temporary", { body: {}, token: guest.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("User ID is required");
    expect((await app.api("POST", "/vision-search-entries/temporary", { body: { userId: "  " }, token: guest.token })).body.error.message).toBe("User ID is required");
    const other = await app.api("POST", "/vision-search-entries/temporary", { body: { userId: shopper.id }, token: guest.token });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(Messages.INVALID_USER_ID);
    expect((await app.api("POST", "/vision-search-entries/temporary", { body: { userId: guest.id } })).status).toBe(401);
    const ok = await app.api("POST", "/vision-search-entries/temporary", { body: { userId: guest.id, image_url: "/uploads/images/vision/t.jpg", result: { products: [] } }, token: guest.token });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ user_id: guest.id, is_temporary: true, image_url: "/uploads/images/vision/t.jpg" });
    const list = await app.api("GET", "/vision-search-entries", { token: guest.token });
    expect(list.body.entries.map((e: { id: string }) => e.id)).toEqual([ok.body.id]);
  });
});
