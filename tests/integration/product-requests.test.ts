/**
 * Product requests (app/contract/product-requests.ts): the public form (§5: brand and garment
 * non-empty, link a URL or empty, image a file or a URL string; email for guests and anonymous
 * visitors), its rate limit, the requester's own list, the sourcing team's list, notes, state
 * machine (every allowed move and the forbidden ones), the Taobao import from a request and the
 * email when sourced. Roles: team (catalog.import), admin without it, shopper, guest, anonymous.
 */
import sharp from "sharp";
import { gpsTagCount } from "../../app/lib/exif-location";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_REQUEST_STATUSES, PRODUCT_REQUEST_TRANSITIONS, type ProductRequestStatus } from "../../app/contract/product-requests";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
type Caller = { id: string; token: string; email: string | null };
let team: Caller;
let otherAdmin: Caller;
let shopper: Caller;
let otherShopper: Caller;
let guest: Caller;
const STORE = "store-prq";

const call = (who: Caller | null, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined>; ip?: string } = {}) =>
  app.api(method, path, { ...opts, token: who?.token ?? null });
const send = (who: Caller | null, body: unknown, ip?: string) => call(who, "POST", "/product-requests", { body, ip });

async function jpeg(): Promise<Blob> {
  const buf = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#8a6d4b" } }).jpeg().toBuffer();
  return new Blob([new Uint8Array(buf)], { type: "image/jpeg" });
}

beforeAll(async () => {
  app = await createTestApp({ authRateLimit: { points: 5, durationSeconds: 60 } });
  const db = app.database.db;
  await db.vendor.create({ data: { id: "vendor-prq", name: "Requests Vendor", handle: "requests-vendor" } });
  await db.store.create({ data: { id: STORE, name: "Requests Store", handle: "requests-store", vendor_id: "vendor-prq" } });
  await createProduct(db, { n: 7201, title: "Found Trench", productType: "Coats" });
  team = await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  shopper = await app.createUser({ email: "asker@example.test" });
  otherShopper = await app.createUser();
  guest = await app.createUser({ authProvider: "guest" });
});
afterAll(() => app?.close());

let ip = 0;
/** Each form test from its own address: the rate limit is tested on its own. */
const nextIp = () => `10.9.0.${++ip}`;

describe("the form", () => {
  it("a signed-in shopper sends brand, garment, link and an image URL; their own email is used", async () => {
    const res = await send(shopper, { brand: " Acne Studios ", garment: "Wool scarf", link: "https://shop.example/acne-scarf", image: "https://cdn.example/scarf.jpg", email: "ignored@example.test" }, nextIp());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ brand: "Acne Studios", garment: "Wool scarf", link: "https://shop.example/acne-scarf", image_url: "https://cdn.example/scarf.jpg", status: "pending", product: null });
    const row = await app.database.db.productRequest.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ user_id: shopper.id, email: "asker@example.test" });
  });

  it("anonymous visitors and guests must give an email; link and image may be empty", async () => {
    const missing = await send(null, { brand: "Lemaire", garment: "Twisted shirt" }, nextIp());
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("Email is required so we can tell you when we find it");
    expect((await send(guest, { brand: "Lemaire", garment: "Twisted shirt", link: "" }, nextIp())).status).toBe(400);
    const anon = await send(null, { brand: "Lemaire", garment: "Twisted shirt", link: "", image: "", email: "Visitor@Example.test" }, nextIp());
    expect(anon.status, JSON.stringify(anon.body)).toBe(201);
    expect(anon.body).toMatchObject({ link: null, image_url: null });
    expect((await app.database.db.productRequest.findUniqueOrThrow({ where: { id: anon.body.id } })).email).toBe("visitor@example.test");
    const byGuest = await send(guest, { brand: "Lemaire", garment: "Croissant bag", email: "guest@example.test" }, nextIp());
    expect(byGuest.status).toBe(201);
    expect((await app.database.db.productRequest.findUniqueOrThrow({ where: { id: byGuest.body.id } })).user_id).toBe(guest.id);
  });

  it.each([
    [{ brand: "", garment: "Scarf", email: "a@example.test" }, "Brand is required"],
    [{ brand: "   ", garment: "Scarf", email: "a@example.test" }, "Brand is required"],
    [{ garment: "Scarf", email: "a@example.test" }, "Brand is required"],
    [{ brand: "Acne", garment: " ", email: "a@example.test" }, "Garment is required"],
    [{ brand: "Acne", garment: "Scarf", link: "not a url", email: "a@example.test" }, "Link must be a web address (https://…) or left empty"],
    [{ brand: "Acne", garment: "Scarf", link: "javascript:alert(1)", email: "a@example.test" }, "Link must be a web address (https://…) or left empty"],
    [{ brand: "Acne", garment: "Scarf", image: "scarf.jpg", email: "a@example.test" }, "Image must be an uploaded photo or a web address (https://…)"],
    [{ brand: "Acne", garment: "Scarf", email: "not-an-email" }, "Enter a valid email address"],
  ])("refuses %j with a clear message", async (body, message) => {
    const res = await send(null, body, nextIp());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it("takes the form as multipart with the photo as a file: checked, stored as a .jpg under images/, recorded as an upload", async () => {
    const fd = new FormData();
    fd.set("brand", "Our Legacy");
    fd.set("garment", "Box shirt");
    fd.set("link", "");
    fd.set("image", await jpeg(), "shirt.png");
    const res = await send(shopper, fd, nextIp());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.image_url).toMatch(/images\/product-requests\/[0-9a-f-]+\.jpg$/);
    const upload = await app.database.db.uploadedImage.findFirstOrThrow({ where: { url: res.body.image_url } });
    expect(upload).toMatchObject({ purpose: "product_request", user_id: shopper.id, content_type: "image/jpeg" });

    // A camera photo: at most 1024 px on its longer side, its EXIF kept without the location (SPEC §5).
    const camera = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#7a8fa6" } })
      .jpeg()
      .withExif({ IFD0: { Make: "FixtureCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 1234/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" } })
      .toBuffer();
    const withPhoto = new FormData();
    withPhoto.set("brand", "Our Legacy");
    withPhoto.set("garment", "Camp collar shirt");
    withPhoto.set("email", "camera@example.test");
    withPhoto.set("image", new Blob([new Uint8Array(camera)], { type: "image/jpeg" }), "camera.jpg");
    const sent = await send(null, withPhoto, nextIp());
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const row = await app.database.db.uploadedImage.findFirstOrThrow({ where: { url: sent.body.image_url } });
    const storedBytes = await app.ctx.storage.get(row.key);
    const meta = await sharp(storedBytes!).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 768]);
    expect(Buffer.from(meta.exif!).includes("FixtureCam")).toBe(true);
    expect(gpsTagCount(meta.exif!)).toBe(0);

    const bad = new FormData();
    bad.set("brand", "Our Legacy");
    bad.set("garment", "Box shirt");
    bad.set("email", "x@example.test");
    bad.set("image", new Blob([new TextEncoder().encode("not an image")], { type: "image/jpeg" }), "x.jpg");
    const refused = await send(null, bad, nextIp());
    expect([400, 415]).toContain(refused.status);
  });

  it("is rate limited per address like the other public writes (429 with retry-after)", async () => {
    const addr = "10.9.9.9";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(null, { brand: "B", garment: `G${i}`, email: "r@example.test" }, addr)).status);
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    const last = await send(null, { brand: "B", garment: "G", email: "r@example.test" }, addr);
    expect(last.status).toBe(429);
    expect(last.headers.get("retry-after")).toBeTruthy();
  });
});

describe("the requester's own list", () => {
  it("shows the caller's requests only, newest first; anonymous callers get 401", async () => {
    const mine = await call(shopper, "GET", "/product-requests/mine");
    expect(mine.status).toBe(200);
    expect(mine.body.requests.map((r: { garment: string }) => r.garment)).toEqual(["Box shirt", "Wool scarf"]);
    expect(Object.keys(mine.body.requests[0]).sort()).toEqual(["brand", "created_at", "garment", "id", "image_url", "link", "product", "status", "updated_at"]);
    expect((await call(otherShopper, "GET", "/product-requests/mine")).body.requests).toEqual([]);
    expect((await call(guest, "GET", "/product-requests/mine")).body.requests.map((r: { garment: string }) => r.garment)).toEqual(["Croissant bag"]);
    expect((await call(null, "GET", "/product-requests/mine")).status).toBe(401);
  });

  it("shoppers, guests and admins without catalog.import cannot read the team's list or anyone's request (403; anonymous 401)", async () => {
    const any = await app.database.db.productRequest.findFirstOrThrow();
    for (const who of [shopper, guest, otherAdmin]) {
      expect((await call(who, "GET", "/product-requests")).status).toBe(403);
      expect((await call(who, "GET", `/product-requests/${any.id}`)).status).toBe(403);
      expect((await call(who, "PATCH", `/product-requests/${any.id}`, { body: { notes: "x" } })).status).toBe(403);
      expect((await call(who, "POST", `/product-requests/${any.id}/status`, { body: { status: "in_review" } })).status).toBe(403);
      expect((await call(who, "POST", `/product-requests/${any.id}/import`, { body: { store_id: STORE } })).status).toBe(403);
    }
    expect((await call(null, "GET", "/product-requests")).status).toBe(401);
  });
});

describe("the sourcing team", () => {
  it("lists newest first with counts per status, filters by status and text, pages", async () => {
    const all = await call(team, "GET", "/product-requests", { query: { limit: 3 } });
    expect(all.status).toBe(200);
    const total = await app.database.db.productRequest.count();
    expect(all.body).toMatchObject({ total, page: 1, limit: 3, counts: { pending: total, in_review: 0, sourced: 0, declined: 0 } });
    expect(all.body.requests).toHaveLength(3);
    const scarf = await call(team, "GET", "/product-requests", { query: { q: "acne" } });
    expect(scarf.body.requests.map((r: { garment: string }) => r.garment)).toEqual(["Wool scarf"]);
    expect(scarf.body.requests[0]).toMatchObject({ email: "asker@example.test", user: { id: shopper.id }, taobao: false, next_statuses: ["in_review", "declined"] });
    expect((await call(team, "GET", "/product-requests", { query: { status: "sourced" } })).body.requests).toEqual([]);
    expect((await call(team, "GET", "/product-requests", { query: { status: "lost" } })).status).toBe(400);
    expect((await call(team, "GET", "/product-requests/missing")).status).toBe(404);
  });

  it("keeps notes", async () => {
    const r = await app.database.db.productRequest.findFirstOrThrow({ where: { garment: "Wool scarf" } });
    const res = await call(team, "PATCH", `/product-requests/${r.id}`, { body: { notes: "Ask the Stockholm supplier" } });
    expect(res.status).toBe(200);
    expect(res.body.notes).toBe("Ask the Stockholm supplier");
    expect((await call(team, "PATCH", `/product-requests/${r.id}`, { body: { notes: null } })).body.notes).toBeNull();
    expect((await call(team, "PATCH", "/product-requests/missing", { body: { notes: "x" } })).status).toBe(404);
  });

  it("makes every allowed move and refuses every other one with 409", async () => {
    const db = app.database.db;
    const fresh = async (status: ProductRequestStatus) => (await db.productRequest.create({ data: { brand: "SM", garment: `machine ${status}`, email: "sm@example.test", status } })).id;
    for (const from of PRODUCT_REQUEST_STATUSES) {
      for (const to of PRODUCT_REQUEST_STATUSES) {
        const id = await fresh(from);
        const res = await call(team, "POST", `/product-requests/${id}/status`, { body: { status: to } });
        if (PRODUCT_REQUEST_TRANSITIONS[from].includes(to)) {
          expect(res.status, `${from} → ${to}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(res.body.status).toBe(to);
          expect(res.body.status_changed_at).not.toBeNull();
        } else {
          expect(res.status, `${from} → ${to}`).toBe(409);
          expect((await db.productRequest.findUniqueOrThrow({ where: { id } })).status).toBe(from);
        }
      }
    }
    const id = await fresh("pending");
    const refused = await call(team, "POST", `/product-requests/${id}/status`, { body: { status: "sourced" } });
    expect(refused.body.error.message).toBe("A pending request cannot be moved to sourced");
    expect((await call(team, "POST", "/product-requests/missing/status", { body: { status: "in_review" } })).status).toBe(404);
  });

  it("sourced emails the requester once, with the product it became; a guest's request goes to the email they gave", async () => {
    const db = app.database.db;
    const scarf = await db.productRequest.findFirstOrThrow({ where: { garment: "Wool scarf" } });
    expect((await call(team, "POST", `/product-requests/${scarf.id}/status`, { body: { status: "in_review" } })).status).toBe(200);
    expect((await call(team, "POST", `/product-requests/${scarf.id}/status`, { body: { status: "sourced", product_id: "gid://shopify/Product/999999" } })).status).toBe(404);
    const sourced = await call(team, "POST", `/product-requests/${scarf.id}/status`, { body: { status: "sourced", product_id: pgid(7201), notes: "Found it" } });
    expect(sourced.status, JSON.stringify(sourced.body)).toBe(200);
    expect(sourced.body).toMatchObject({ status: "sourced", notes: "Found it", product: { id: pgid(7201), title: "Found Trench" }, next_statuses: [] });
    // (The state machine test above sourced one of its own requests: sm@example.test.)
    const mails = await db.emailOutbox.findMany({ where: { kind: "product_request_sourced", to: { not: "sm@example.test" } } });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "asker@example.test", subject: "We found the Acne Studios Wool scarf you asked for" });
    expect(mails[0].text).toContain("/products/7201/found-trench-7201");
    // The shopper sees it sourced, with the product.
    const mine = await call(shopper, "GET", "/product-requests/mine");
    expect(mine.body.requests.find((r: { id: string }) => r.id === scarf.id)).toMatchObject({ status: "sourced", product: { handle: "found-trench-7201" } });

    const bag = await db.productRequest.findFirstOrThrow({ where: { garment: "Croissant bag" } });
    await call(team, "POST", `/product-requests/${bag.id}/status`, { body: { status: "in_review" } });
    expect((await call(team, "POST", `/product-requests/${bag.id}/status`, { body: { status: "sourced" } })).status).toBe(200);
    const sent = await db.emailOutbox.findMany({ where: { kind: "product_request_sourced", to: { not: "sm@example.test" } }, orderBy: { created_at: "asc" } });
    expect(sent.map((m) => m.to)).toEqual(["asker@example.test", "guest@example.test"]);
  });

  it("starts a Taobao import from a Taobao item link; a pending request moves to in review; other links 422", async () => {
    const db = app.database.db;
    const taobao = await db.productRequest.create({ data: { brand: "Taobao shop", garment: "Linen shirt", link: "https://item.taobao.com/item.htm?id=640000001234", email: "t@example.test" } });
    const res = await call(team, "POST", `/product-requests/${taobao.id}/import`, { body: { store_id: STORE } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.jobs).toBe(1);
    expect(res.body.request).toMatchObject({ status: "in_review", import_batch_id: res.body.batch_id, taobao: true });
    const job = await db.importJob.findFirstOrThrow({ where: { batch_id: res.body.batch_id } });
    expect(job).toMatchObject({ taobao_product_id: "640000001234", store_id: STORE });

    const other = await db.productRequest.create({ data: { brand: "Acne", garment: "Jeans", link: "https://shop.example/jeans", email: "t@example.test" } });
    const refused = await call(team, "POST", `/product-requests/${other.id}/import`, { body: { store_id: STORE } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe("The request's link is not a Taobao item: start the import from the import screen instead");
    const noLink = await db.productRequest.create({ data: { brand: "Acne", garment: "Socks", email: "t@example.test" } });
    expect((await call(team, "POST", `/product-requests/${noLink.id}/import`, { body: { store_id: STORE } })).status).toBe(422);
    expect((await call(team, "POST", `/product-requests/${taobao.id}/import`, { body: { store_id: "missing-store" } })).status).toBe(404);
    expect((await call(team, "POST", "/product-requests/missing/import", { body: { store_id: STORE } })).status).toBe(404);
  });
});
