/**
 * Reviews end to end through the API: public reads and summaries (SPEC §8 fallbacks), writing
 * (author name, verified buyer, one review per order and product, photos), reviewable orders and
 * dismissing (ownership), moderation (transitions, summaries kept in step, permissions), and
 * review by token (the reviews.request job, the email, the signed token).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { startWorker } from "../../app/jobs/worker.server";
import { enqueueReviewRequestIfDelivered, REVIEWS_REQUEST_QUEUE } from "../../app/services/review-requests.server";
import { hashToken } from "../../app/services/tokens.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, pgid } from "./products-fixtures";

let app: TestApp;
let storeA: string;
let storeB: string;
type Caller = { id: string; token: string; email: string | null };
let maya: Caller; // first name Maya, orders O1 (P1, P2 delivered) and O2 (P3 shipped)
let sam: Caller; // no first name, order O3 (P1 delivered)
let lee: Caller; // no orders
let guest: Caller;
let moderator: Caller;
let otherAdmin: Caller;

const P1 = pgid(7101);
const P2 = pgid(7102);
const P3 = pgid(7103);
const P4 = pgid(7104); // hidden (draft)
const O1 = "gid://shopify/Order/9001";
const O2 = "gid://shopify/Order/9002";
const O3 = "gid://shopify/Order/9003";
const O5 = "gid://shopify/Order/9005";

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const jpeg = (w = 120, h = 90, hex = "#7a4b2c") => sharp({ create: { width: w, height: h, channels: 3, background: hex } }).jpeg().toBuffer();
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));
const db = () => app.database.db;

async function createOrder(id: string, name: string, user: Caller | null, email: string | null, items: { product: string; status: "unfulfilled" | "shipped" | "delivered" | "cancelled"; title: string }[]) {
  await db().order.create({
    data: {
      id,
      name,
      user_id: user?.id ?? null,
      email,
      total_price: 100,
      created_at: new Date(Date.now() - 20 * 86_400_000 + Number(name.slice(1))),
      items: { create: items.map((i, k) => ({ id: `${id.replace("Order", "LineItem")}${k}`, product_id: i.product, title: i.title, variant_title: "Black / M", quantity: 1, price: 50, status: i.status })) },
    },
  });
}

beforeAll(async () => {
  app = await createTestApp();
  const vendor = await db().vendor.create({ data: { name: "Review Vendor", handle: "review-vendor" } });
  storeA = (await db().store.create({ data: { name: "Atelier A", handle: "atelier-a", vendor_id: vendor.id } })).id;
  storeB = (await db().store.create({ data: { name: "Atelier B", handle: "atelier-b", vendor_id: vendor.id } })).id;
  await createProduct(db(), { n: 7101, title: "Linen Shirt", storeId: storeA, vendorId: vendor.id });
  await createProduct(db(), { n: 7102, title: "Wool Coat", storeId: storeA, vendorId: vendor.id });
  await createProduct(db(), { n: 7103, title: "Denim Jacket", storeId: storeB, vendorId: vendor.id });
  await createProduct(db(), { n: 7104, title: "Hidden Draft", storeId: storeA, vendorId: vendor.id, status: "draft" });
  maya = await app.createUser({ firstName: "Maya", email: "maya.k@example.com" });
  sam = await app.createUser({ email: "sam.k@example.com" });
  lee = await app.createUser({ email: "lee@example.com" });
  guest = await app.createUser({ authProvider: "guest" });
  moderator = await app.createUser({ role: "ADMIN", permissions: ["reviews.moderate"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "orders.manage"] });
  await createOrder(O1, "#9001", maya, maya.email, [
    { product: P1, status: "delivered", title: "Linen Shirt" },
    { product: P2, status: "delivered", title: "Wool Coat" },
  ]);
  await createOrder(O2, "#9002", maya, maya.email, [{ product: P3, status: "shipped", title: "Denim Jacket" }]);
  await createOrder(O3, "#9003", sam, sam.email, [
    { product: P1, status: "delivered", title: "Linen Shirt" },
    { product: P2, status: "cancelled", title: "Wool Coat" },
  ]);
});
afterAll(() => app?.close());

const write = (caller: Caller | null, body: unknown) => app.api("POST", "/product-reviews", { token: caller?.token, body });
const admin = (method: string, p: string, opts: { body?: unknown; query?: Record<string, string> } = {}) => app.api(method, `/product-reviews/admin${p}`, { token: moderator.token, ...opts });

async function uploadPhoto(caller: Caller, bytes?: Buffer) {
  const fd = new FormData();
  fd.set("image", new File([new Uint8Array(bytes ?? (await jpeg()))], "photo.jpg", { type: "image/jpeg" }));
  return app.api("POST", "/product-reviews/images", { token: caller.token, body: fd });
}

describe("public reads and SPEC §8 fallbacks", () => {
  it("answers an empty list with total 0 and a null summary for a product or store without reviews (or unknown)", async () => {
    for (const id of [enc(P1), "7101", enc(pgid(999999))]) {
      const list = await app.api("GET", `/product-reviews/product/${id}`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ reviews: [], total: 0, skip: 0, take: 10 });
      const summary = await app.api("GET", `/product-reviews/product/${id}/summary`);
      expect(summary.status).toBe(200);
      expect(summary.body).toBeNull();
    }
    expect((await app.api("GET", "/product-reviews/store/no-such-store")).body).toEqual({ reviews: [], total: 0, skip: 0, take: 10 });
    expect((await app.api("GET", "/product-reviews/store/no-such-store/summary")).body).toBeNull();
  });

  it("refuses a missing product id and out-of-range paging", async () => {
    const r = await app.api("GET", "/product-reviews/product/undefined");
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("No product ID provided");
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}`, { query: { take: 101 } })).status).toBe(400);
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}`, { query: { skip: -1 } })).status).toBe(400);
  });
});

describe("writing a review", () => {
  let mayaReviewId: string;

  it("needs a session (guests included)", async () => {
    const r = await write(null, { product_id: P1, rating: 5, body: "Great" });
    expect(r.status).toBe(401);
  });

  it("creates a pending, verified review named with the first name, linked to the order with the product", async () => {
    const r = await write(maya, { product_id: "7101", rating: 5, title: " Perfect summer shirt ", body: " Breathes well, true to size. " });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ rating: 5, title: "Perfect summer shirt", body: "Breathes well, true to size.", name: "Maya", status: "pending", verified_buyer: true, product_id: P1, store_id: storeA, images: [] });
    expect(r.body.product).toMatchObject({ id: P1, title: "Linen Shirt" });
    expect(r.body).not.toHaveProperty("email");
    mayaReviewId = r.body.id;
    const row = await db().review.findUniqueOrThrow({ where: { id: mayaReviewId } });
    expect(row).toMatchObject({ shopify_order_id: O1, user_id: maya.id, email: "maya.k@example.com" });
    expect(row.shopify_product_companion_id).not.toBeNull();
    // Pending: not public yet, and no summary.
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}`)).body.total).toBe(0);
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}/summary`)).body).toBeNull();
  });

  it("allows one review per order and product", async () => {
    const again = await write(maya, { product_id: P1, rating: 4, body: "Still great" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("You have already reviewed this product");
    const explicit = await write(maya, { product_id: P1, rating: 4, body: "Still great", order_id: O1 });
    expect(explicit.status).toBe(409);
    expect(explicit.body.error.message).toBe("You have already reviewed this product from order #9001");
  });

  it("checks the order given: the caller's, with the product", async () => {
    const someoneElses = await write(maya, { product_id: P1, rating: 4, body: "Mine?", order_id: O3 });
    expect(someoneElses.status).toBe(404);
    expect(someoneElses.body.error.message).toBe("Order not found");
    const notInOrder = await write(maya, { product_id: P1, rating: 4, body: "Not there", order_id: O2 });
    expect(notInOrder.status).toBe(400);
    expect(notInOrder.body.error.message).toBe("This product is not in order #9002");
    // Nothing was written.
    expect(await db().review.count({ where: { product_id: P1 } })).toBe(1);
  });

  it("names a reviewer without a first name by their email's local part; not verified without an order", async () => {
    const r = await write(lee, { product_id: P2, rating: 3, body: "Warm but scratchy." });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "lee", verified_buyer: false, status: "pending" });
    const again = await write(lee, { product_id: P2, rating: 2, body: "Second thoughts" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("You have already reviewed this product");
  });

  it("names a guest Anonymous", async () => {
    const r = await write(guest, { product_id: P3, rating: 4, body: "Nice denim." });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Anonymous", verified_buyer: false });
  });

  it("validates the input and the product", async () => {
    const six = await write(lee, { product_id: P1, rating: 6, body: "Too good" });
    expect(six.status).toBe(400);
    expect(six.body.error.message).toBe("rating: must be a whole number from 1 to 5");
    const half = await write(lee, { product_id: P1, rating: 3.5, body: "Meh" });
    expect(half.status).toBe(400);
    const noBody = await write(lee, { product_id: P1, rating: 4, body: "   " });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error.message).toBe("body: write a few words about the product");
    const noProduct = await write(lee, { rating: 4, body: "Which one?" });
    expect(noProduct.status).toBe(400);
    const unknown = await write(lee, { product_id: pgid(999999), rating: 4, body: "Ghost" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Product not found");
    const hidden = await write(lee, { product_id: P4, rating: 4, body: "Secret" });
    expect(hidden.status).toBe(404);
    const tooMany = await write(lee, { product_id: P1, rating: 4, body: "Photos", images: Array.from({ length: 6 }, (_, i) => `/uploads/images/reviews/${i}.jpg`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe("images: at most 5 photos");
  });

  it("uploads photos (checked, at most 1024 px, stored as .jpg under images/reviews/) and attaches only the caller's unused uploads", async () => {
    const up = await uploadPhoto(sam, await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#335577" } }).png().toBuffer());
    expect(up.status).toBe(201);
    expect(up.body.url).toMatch(/^\/uploads\/images\/reviews\/[0-9a-f-]{36}\.jpg$/);
    expect([up.body.width, up.body.height]).toEqual([1024, 768]);
    const bytes = fs.readFileSync(storedFile(up.body.url));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const notImage = new FormData();
    notImage.set("image", new File([new TextEncoder().encode("not an image")], "x.jpg", { type: "image/jpeg" }));
    const refused = await app.api("POST", "/product-reviews/images", { token: sam.token, body: notImage });
    expect(refused.status).toBe(415);
    expect((await app.api("POST", "/product-reviews/images", { token: sam.token, body: { url: "x" } })).status).toBe(400);
    expect((await app.api("POST", "/product-reviews/images", { body: notImage })).status).toBe(401);

    // Someone else's upload cannot be attached.
    const stolen = await write(lee, { product_id: P1, rating: 5, body: "Look", images: [up.body.url] });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.message).toContain("is not one of your uploaded review photos");
    const made = await write(sam, { product_id: P3, rating: 5, body: "With a photo", images: [up.body.url] });
    expect(made.status).toBe(201);
    expect(made.body.images).toEqual([up.body.url]);
    expect(made.body.verified_buyer).toBe(false);
    // Used once only.
    const reuse = await write(sam, { product_id: P2, rating: 5, body: "Same photo", images: [up.body.url] });
    expect(reuse.status).toBe(409);
  });

  it("accepts multipart with photo files", async () => {
    const fd = new FormData();
    fd.set("product_id", P1);
    fd.set("rating", "4");
    fd.set("title", "Soft");
    fd.set("body", "Soft linen, a bit long.");
    fd.append("images", new File([new Uint8Array(await jpeg())], "a.jpg", { type: "image/jpeg" }));
    fd.append("images", new File([new Uint8Array(await jpeg(80, 80, "#aa3300"))], "b.jpg", { type: "image/jpeg" }));
    const r = await app.api("POST", "/product-reviews", { token: sam.token, body: fd });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ rating: 4, title: "Soft", name: "sam.k", verified_buyer: true });
    expect(r.body.images).toHaveLength(2);
    for (const url of r.body.images) expect(fs.existsSync(storedFile(url))).toBe(true);
    expect((await db().review.findUniqueOrThrow({ where: { id: r.body.id } })).shopify_order_id).toBe(O3);
    // A bad file stores nothing.
    const before = await db().uploadedImage.count();
    const bad = new FormData();
    bad.set("product_id", P2);
    bad.set("rating", "4");
    bad.set("body", "Bad file");
    bad.append("images", new File([new TextEncoder().encode("%PDF-1.4")], "a.jpg", { type: "image/jpeg" }));
    expect((await app.api("POST", "/product-reviews", { token: sam.token, body: bad })).status).toBe(415);
    expect(await db().uploadedImage.count()).toBe(before);
  });
});

describe("reviewable orders", () => {
  it("lists delivered, unreviewed, undismissed items of the caller's orders only", async () => {
    const r = await app.api("GET", "/users/reviewable-orders", { token: maya.token });
    expect(r.status).toBe(200);
    // P1 of O1 is reviewed; P3 of O2 is only shipped.
    expect(r.body.total_items).toBe(1);
    expect(r.body.orders).toHaveLength(1);
    expect(r.body.orders[0]).toMatchObject({ order_id: O1, name: "#9001" });
    expect(r.body.orders[0].items).toEqual([expect.objectContaining({ product_id: P2, title: "Wool Coat", variant_title: "Black / M" })]);
    // Sam reviewed P1 of O3; P2 of O3 was cancelled.
    expect((await app.api("GET", "/users/reviewable-orders", { token: sam.token })).body).toEqual({ orders: [], total_items: 0 });
    expect((await app.api("GET", "/users/reviewable-orders", { token: lee.token })).body).toEqual({ orders: [], total_items: 0 });
  });

  it("is for signed-in users who are not guests", async () => {
    expect((await app.api("GET", "/users/reviewable-orders")).status).toBe(401);
    expect((await app.api("GET", "/users/reviewable-orders", { token: guest.token })).status).toBe(403);
    expect((await app.api("POST", "/users/reviewable-orders/dismiss", { token: guest.token, body: { order_id: O1, product_id: P2 } })).status).toBe(403);
  });

  it("SPEC §6: a lead (a guest who gave an email) is refused too, with a message saying what to do", async () => {
    const lead = await app.createUser({ authProvider: "lead" });
    const list = await app.api("GET", "/users/reviewable-orders", { token: lead.token });
    expect(list.status).toBe(403);
    expect(list.body.error).toMatchObject({ code: "forbidden", message: "Create an account or sign in to do this: an email address alone is not enough" });
    const dismiss = await app.api("POST", "/users/reviewable-orders/dismiss", { token: lead.token, body: { order_id: O1, product_id: P2 } });
    expect(dismiss.status).toBe(403);
    expect(await db().reviewDismissal.count()).toBe(0);
  });

  it("dismisses an item of the caller's own order only", async () => {
    const other = await app.api("POST", "/users/reviewable-orders/dismiss", { token: lee.token, body: { order_id: O1, product_id: P2 } });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe("Order not found");
    const notInOrder = await app.api("POST", "/users/reviewable-orders/dismiss", { token: maya.token, body: { order_id: O1, product_id: P3 } });
    expect(notInOrder.status).toBe(404);
    expect((await app.api("POST", "/users/reviewable-orders/dismiss", { token: maya.token, body: { order_id: O1 } })).status).toBe(400);
    expect(await db().reviewDismissal.count()).toBe(0);

    for (let i = 0; i < 2; i++) {
      const ok = await app.api("POST", "/users/reviewable-orders/dismiss", { token: maya.token, body: { order_id: O1, product_id: "7102" } });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ok: true });
    }
    expect(await db().reviewDismissal.count()).toBe(1);
    expect((await app.api("GET", "/users/reviewable-orders", { token: maya.token })).body.total_items).toBe(0);
  });
});

describe("moderation", () => {
  it("needs reviews.moderate", async () => {
    expect((await app.api("GET", "/product-reviews/admin", { token: otherAdmin.token })).status).toBe(403);
    expect((await app.api("GET", "/product-reviews/admin", { token: maya.token })).status).toBe(403);
    const pending = await db().review.findFirstOrThrow({ where: { status: "pending" } });
    expect((await app.api("POST", `/product-reviews/admin/${pending.id}/publish`, { token: otherAdmin.token })).status).toBe(403);
    expect((await app.api("DELETE", `/product-reviews/admin/${pending.id}`, { token: maya.token })).status).toBe(403);
    expect((await db().review.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("pending");
  });

  it("lists by status with counts, newest first, with filters", async () => {
    const all = await admin("GET", "");
    expect(all.status).toBe(200);
    expect(all.body.counts).toEqual({ pending: 5, approved: 0, rejected: 0, all: 5 });
    expect(all.body.total).toBe(5);
    const pending = await admin("GET", "", { query: { status: "pending", take: "2" } });
    expect(pending.body.reviews).toHaveLength(2);
    expect(pending.body.total).toBe(5);
    const first = pending.body.reviews[0];
    expect(first).toHaveProperty("email");
    expect(first.allowed_actions).toEqual(["publish", "reject", "delete"]);
    const times = all.body.reviews.map((r: { created_at: string }) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const byProduct = await admin("GET", "", { query: { product_id: "7101" } });
    expect(byProduct.body.total).toBe(2);
    const search = await admin("GET", "", { query: { q: "scratchy" } });
    expect(search.body.reviews.map((r: { name: string }) => r.name)).toEqual(["lee"]);
    expect((await admin("GET", "", { query: { status: "nope" } })).status).toBe(400);
  });

  it("publishes a pending review: public, and counted in the product and store summaries", async () => {
    const review = await db().review.findFirstOrThrow({ where: { user_id: maya.id, product_id: P1 } });
    const r = await admin("POST", `/${review.id}/publish`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: review.id, status: "approved", allowed_actions: ["delete"] });
    expect(r.body.published_at).not.toBeNull();
    const list = await app.api("GET", `/product-reviews/product/${enc(P1)}`);
    expect(list.body.total).toBe(1);
    expect(list.body.reviews[0]).toMatchObject({ id: review.id, name: "Maya", verified_buyer: true });
    expect(list.body.reviews[0]).not.toHaveProperty("email");
    expect(list.body.reviews[0]).not.toHaveProperty("user_id");
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}/summary`)).body).toEqual({ average: 5, count: 1, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 1 } });
    expect((await app.api("GET", `/product-reviews/store/${storeA}/summary`)).body).toMatchObject({ average: 5, count: 1 });
    expect((await app.api("GET", `/product-reviews/store/${storeA}`)).body.total).toBe(1);
  });

  it("refuses every other transition with 409 and a clear message", async () => {
    const approved = await db().review.findFirstOrThrow({ where: { status: "approved" } });
    const again = await admin("POST", `/${approved.id}/publish`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This review is already published");
    const rejectApproved = await admin("POST", `/${approved.id}/reject`);
    expect(rejectApproved.status).toBe(409);
    expect(rejectApproved.body.error.message).toBe("A published review cannot be rejected: delete it to take it down");

    const pending = await db().review.findFirstOrThrow({ where: { user_id: lee.id } });
    const rejected = await admin("POST", `/${pending.id}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: "rejected", allowed_actions: ["delete"] });
    const publishRejected = await admin("POST", `/${pending.id}/publish`);
    expect(publishRejected.status).toBe(409);
    expect(publishRejected.body.error.message).toBe("A rejected review cannot be published: only pending reviews can be published");
    const rejectRejected = await admin("POST", `/${pending.id}/reject`);
    expect(rejectRejected.status).toBe(409);
    expect(rejectRejected.body.error.message).toBe("This review is already rejected");
    // A rejected review changed no summary.
    expect((await app.api("GET", `/product-reviews/product/${enc(P2)}/summary`)).body).toBeNull();
    expect((await admin("GET", "", { query: { status: "rejected" } })).body.total).toBe(1);
  });

  it("answers null for publishing or rejecting an unknown review, and false for deleting one (SPEC §8)", async () => {
    for (const action of ["publish", "reject"]) {
      const r = await admin("POST", `/00000000-0000-0000-0000-000000000000/${action}`);
      expect(r.status).toBe(200);
      expect(r.body).toBeNull();
    }
    const d = await admin("DELETE", "/00000000-0000-0000-0000-000000000000");
    expect(d.status).toBe(200);
    expect(d.body).toBe(false);
    expect((await admin("GET", "/00000000-0000-0000-0000-000000000000")).status).toBe(404);
  });

  it("creates reviews as an admin (pending or published) with the server's message on failure", async () => {
    const pending = await admin("POST", "", { body: { product_id: "7103", rating: 2, body: "Stiff denim.", email: "store.visitor@example.com" } });
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ status: "pending", name: "store.visitor", email: "store.visitor@example.com", verified_buyer: false, store_id: storeB });
    const published = await admin("POST", "", { body: { product_id: P3, rating: 4, title: "Good", body: "Good jacket.", name: "In-store customer", publish: true } });
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({ status: "approved", name: "In-store customer" });
    expect((await app.api("GET", `/product-reviews/product/${enc(P3)}/summary`)).body).toMatchObject({ count: 1, average: 4 });
    expect((await app.api("GET", `/product-reviews/store/${storeB}/summary`)).body).toMatchObject({ count: 1, average: 4 });
    const anonymous = await admin("POST", "", { body: { product_id: P3, rating: 3, body: "Fine." } });
    expect(anonymous.body.name).toBe("Anonymous");

    const unknown = await admin("POST", "", { body: { product_id: pgid(999999), rating: 4, body: "x" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Product not found");
    const invalid = await admin("POST", "", { body: { product_id: P3, rating: 0, body: "x" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toBe("rating: must be a whole number from 1 to 5");
    const badEmail = await admin("POST", "", { body: { product_id: P3, rating: 4, body: "x", email: "nope" } });
    expect(badEmail.status).toBe(400);
  });

  it("updates a review; a rating change of a published review updates the summaries in the same step", async () => {
    const published = await db().review.findFirstOrThrow({ where: { product_id: P3, status: "approved" } });
    const r = await admin("PATCH", `/${published.id}`, { body: { rating: 2, title: null, body: "Changed my mind." } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ rating: 2, title: null, body: "Changed my mind.", status: "approved" });
    expect((await app.api("GET", `/product-reviews/product/${enc(P3)}/summary`)).body).toEqual({ average: 2, count: 1, distribution: { "1": 0, "2": 1, "3": 0, "4": 0, "5": 0 } });
    expect((await admin("PATCH", `/${published.id}`, { body: {} })).status).toBe(400);
    expect((await admin("PATCH", `/${published.id}`, { body: { rating: 9 } })).status).toBe(400);
    expect((await admin("PATCH", "/00000000-0000-0000-0000-000000000000", { body: { rating: 3 } })).status).toBe(404);
  });

  it("adds and removes photos", async () => {
    const review = await db().review.findFirstOrThrow({ where: { product_id: P3, status: "approved" } });
    const fd = new FormData();
    fd.set("image", new File([new Uint8Array(await jpeg())], "p.jpg", { type: "image/jpeg" }));
    const added = await admin("POST", `/${review.id}/images`, { body: fd });
    expect(added.status).toBe(200);
    expect(added.body.images).toHaveLength(1);
    const url = added.body.images[0];
    expect(fs.existsSync(storedFile(url))).toBe(true);
    // By URL: an uploaded review photo.
    const up = await uploadPhoto(moderator);
    const byUrl = await admin("POST", `/${review.id}/images`, { body: { url: up.body.url } });
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.images).toEqual([url, up.body.url]);
    expect((await admin("POST", `/${review.id}/images`, { body: { url: up.body.url } })).status).toBe(409);
    expect((await admin("POST", `/${review.id}/images`, { body: { url: "/uploads/images/demo/x.jpg" } })).status).toBe(400);
    expect((await admin("POST", `/${review.id}/images`, { body: {} })).status).toBe(400);

    const removed = await admin("DELETE", `/${review.id}/images`, { query: { url } });
    expect(removed.status).toBe(200);
    expect(removed.body.images).toEqual([up.body.url]);
    expect(fs.existsSync(storedFile(url))).toBe(false);
    const missing = await admin("DELETE", `/${review.id}/images`, { query: { url } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("This photo is not on the review");
  });

  it("refuses a sixth photo", async () => {
    const review = await db().review.findFirstOrThrow({ where: { product_id: P3, status: "pending", name: "store.visitor" } });
    await db().review.update({ where: { id: review.id }, data: { images: ["/a1.jpg", "/a2.jpg", "/a3.jpg", "/a4.jpg", "/a5.jpg"] } });
    const fd = new FormData();
    fd.set("image", new File([new Uint8Array(await jpeg())], "p.jpg", { type: "image/jpeg" }));
    const r = await admin("POST", `/${review.id}/images`, { body: fd });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe("A review has at most 5 photos: remove one first");
  });

  it("pages public lists with skip/take and leaves out excludeProductId", async () => {
    for (let i = 0; i < 4; i++) await admin("POST", "", { body: { product_id: P2, rating: 1 + i, body: `Review ${i}`, publish: true } });
    const page1 = await app.api("GET", `/product-reviews/product/${enc(P2)}`, { query: { skip: 0, take: 3 } });
    const page2 = await app.api("GET", `/product-reviews/product/${enc(P2)}`, { query: { skip: 3, take: 3 } });
    expect(page1.body).toMatchObject({ total: 4, skip: 0, take: 3 });
    expect(page1.body.reviews).toHaveLength(3);
    expect(page2.body.reviews).toHaveLength(1);
    expect(new Set([...page1.body.reviews, ...page2.body.reviews].map((r: { id: string }) => r.id)).size).toBe(4);
    expect((await app.api("GET", `/product-reviews/product/${enc(P2)}/summary`)).body).toEqual({ average: 2.5, count: 4, distribution: { "1": 1, "2": 1, "3": 1, "4": 1, "5": 0 } });

    const store = await app.api("GET", `/product-reviews/store/${storeA}`);
    expect(store.body.total).toBe(5); // P1 (Maya) + 4 of P2
    const others = await app.api("GET", `/product-reviews/store/${storeA}`, { query: { excludeProductId: "7102" } });
    expect(others.body.total).toBe(1);
    expect(others.body.reviews[0].product_id).toBe(P1);
    expect(others.body.reviews[0].product).toMatchObject({ title: "Linen Shirt" });
    expect((await app.api("GET", `/product-reviews/store/${storeA}/summary`)).body).toMatchObject({ count: 5, average: 3 });
  });

  it("keeps summaries right when several reviews are published at once", async () => {
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await admin("POST", "", { body: { product_id: P1, rating: 5, body: `Batch ${i}` } })).body.id);
    const results = await Promise.all(created.map((id) => admin("POST", `/${id}/publish`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}/summary`)).body).toMatchObject({ count: 4, average: 5 });
    const row = await db().reviewRatingSummary.findUniqueOrThrow({ where: { product_id: P1 } });
    expect(row.count).toBe(4);
  });

  it("deletes reviews in any status; a published one leaves the summaries, its photos are removed", async () => {
    const published = await db().review.findFirstOrThrow({ where: { product_id: P3, status: "approved" } });
    const photo = published.images[0];
    expect(fs.existsSync(storedFile(photo))).toBe(true);
    const r = await admin("DELETE", `/${published.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toBe(true);
    expect(fs.existsSync(storedFile(photo))).toBe(false);
    expect(await db().review.count({ where: { id: published.id } })).toBe(0);
    expect((await app.api("GET", `/product-reviews/product/${enc(P3)}/summary`)).body).toBeNull();
    expect((await app.api("GET", `/product-reviews/store/${storeB}/summary`)).body).toBeNull();
    const rejected = await db().review.findFirstOrThrow({ where: { status: "rejected" } });
    expect((await admin("DELETE", `/${rejected.id}`)).body).toBe(true);
    expect((await admin("DELETE", `/${rejected.id}`)).body).toBe(false);
  });
});

describe("review by token", () => {
  let token: string;

  const outbox = () => db().emailOutbox.findMany({ where: { kind: "review_request" }, orderBy: { created_at: "asc" } });
  const tokenOf = (text: string) => decodeURIComponent(/\/review\?token=([^\s]+)/.exec(text)![1]);

  it("queues the request only once an order is fully delivered, then emails a link with a signed token", async () => {
    await createOrder(O5, "#9005", sam, sam.email, [
      { product: P2, status: "delivered", title: "Wool Coat" },
      { product: P1, status: "cancelled", title: "Linen Shirt" },
    ]);
    expect(await enqueueReviewRequestIfDelivered(app.ctx, O2)).toBeNull(); // shipped only
    expect(await enqueueReviewRequestIfDelivered(app.ctx, "gid://shopify/Order/0")).toBeNull();
    const job = await enqueueReviewRequestIfDelivered(app.ctx, O5); // delivered + cancelled
    expect(job).not.toBeNull();
    expect((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).queue).toBe(REVIEWS_REQUEST_QUEUE);
    // A second order event while queued: the same job.
    expect((await enqueueReviewRequestIfDelivered(app.ctx, O5))?.id).toBe(job!.id);
    await drain();
    const emails = await outbox();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: "sam.k@example.com", status: "sent" });
    expect(emails[0].subject).toBe("How is your order #9005? Write a review");
    expect(emails[0].text).toContain("Wool Coat");
    expect(emails[0].text).not.toContain("Linen Shirt"); // cancelled item
    token = tokenOf(emails[0].text);
    expect(emails[0].html).toContain("/review?token=");
    // Only the hash is stored; the link lives 60 days.
    const invitation = await db().reviewInvitation.findFirstOrThrow({ where: { order_id: O5 } });
    expect(invitation.token_hash).toBe(hashToken(token));
    expect(invitation.token_hash).not.toContain(token.split(".")[1]);
    expect(Math.round((invitation.expires_at.getTime() - Date.now()) / 86_400_000)).toBe(60);
    // Sent once: later order events queue nothing.
    expect(await enqueueReviewRequestIfDelivered(app.ctx, O5)).toBeNull();
  });

  it("sends nothing when every delivered product of the order is reviewed already", async () => {
    // O3: Sam reviewed its only delivered product (the multipart test).
    expect(await enqueueReviewRequestIfDelivered(app.ctx, O3)).not.toBeNull();
    await drain();
    expect(await outbox()).toHaveLength(1);
    const job = await db().job.findFirstOrThrow({ where: { queue: REVIEWS_REQUEST_QUEUE, payload: { equals: { orderId: O3 } } } });
    expect(job.result).toEqual({ status: "skipped", reason: "nothing left to review" });
  });

  it("tells what the token can review", async () => {
    const r = await app.api("GET", "/product-reviews/reviewable", { query: { token } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ order: { id: O5, name: "#9005" }, author_name: "sam.k", reviewable: true });
    expect(r.body.products).toEqual([expect.objectContaining({ product_id: P2, title: "Wool Coat", variant_title: "Black / M", reviewed: false })]);
    expect((await app.api("GET", "/product-reviews/reviewable", { query: { token, product_id: "7102" } })).body.reviewable).toBe(true);
    expect((await app.api("GET", "/product-reviews/reviewable", { query: { token, product_id: "7101" } })).body.reviewable).toBe(false);
  });

  it("refuses forged, mangled and unknown tokens", async () => {
    const [id, random, sig] = token.split(".");
    for (const bad of [`${id}.${random}.${sig.slice(0, -2)}xx`, `${id}.${random}x.${sig}`, "not-a-token", `${crypto.randomUUID()}.${random}.${sig}`]) {
      const r = await app.api("GET", "/product-reviews/reviewable", { query: { token: bad } });
      expect(r.status).toBe(404);
      expect(r.body.error.message).toBe("This review link is not valid");
      const w = await app.api("POST", "/product-reviews/create-review/by-token", { body: { token: bad, product_id: P1, rating: 5, body: "x" } });
      expect(w.status).toBe(404);
    }
    expect((await app.api("GET", "/product-reviews/reviewable")).status).toBe(400);
  });

  it("writes a verified review with the token, once per product; the link is used up when all are reviewed", async () => {
    // A fresh order for Lee with two delivered products.
    await createOrder("gid://shopify/Order/9004", "#9004", lee, lee.email, [
      { product: P1, status: "delivered", title: "Linen Shirt" },
      { product: P3, status: "delivered", title: "Denim Jacket" },
    ]);
    await enqueueReviewRequestIfDelivered(app.ctx, "gid://shopify/Order/9004");
    await drain();
    const leeToken = tokenOf((await outbox()).at(-1)!.text);
    const before = await app.api("GET", "/product-reviews/reviewable", { query: { token: leeToken } });
    expect(before.body.reviewable).toBe(true);
    expect(before.body.products.map((p: { product_id: string }) => p.product_id)).toEqual([P1, P3]);

    // Photos uploaded by whoever holds the link (here a guest session).
    const photo = await uploadPhoto(guest);
    const r = await app.api("POST", "/product-reviews/create-review/by-token", { body: { token: leeToken, product_id: "7101", rating: 4, title: "Nice", body: "Nice shirt.", images: [photo.body.url] } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "pending", verified_buyer: true, name: "lee", product_id: P1, images: [photo.body.url] });
    const row = await db().review.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(row).toMatchObject({ shopify_order_id: "gid://shopify/Order/9004", user_id: lee.id, email: "lee@example.com" });

    const again = await app.api("POST", "/product-reviews/create-review/by-token", { body: { token: leeToken, product_id: P1, rating: 5, body: "Again" } });
    expect(again.status).toBe(409);
    const notInOrder = await app.api("POST", "/product-reviews/create-review/by-token", { body: { token: leeToken, product_id: P2, rating: 5, body: "Not mine" } });
    expect(notInOrder.status).toBe(404);
    expect(notInOrder.body.error.message).toBe("This product is not a delivered item of order #9004");
    const invalid = await app.api("POST", "/product-reviews/create-review/by-token", { body: { token: leeToken, product_id: P3, rating: 0, body: "x" } });
    expect(invalid.status).toBe(400);

    expect((await db().reviewInvitation.findFirstOrThrow({ where: { order_id: "gid://shopify/Order/9004" } })).used_at).toBeNull();
    const last = await app.api("POST", "/product-reviews/create-review/by-token", { body: { token: leeToken, product_id: P3, rating: 5, body: "Great jacket." } });
    expect(last.status).toBe(201);
    expect((await db().reviewInvitation.findFirstOrThrow({ where: { order_id: "gid://shopify/Order/9004" } })).used_at).not.toBeNull();
    expect((await app.api("GET", "/product-reviews/reviewable", { query: { token: leeToken } })).body.reviewable).toBe(false);
    // The reviewable-orders screen agrees.
    expect((await app.api("GET", "/users/reviewable-orders", { token: lee.token })).body.total_items).toBe(0);
  });

  it("refuses an expired link", async () => {
    await db().reviewInvitation.updateMany({ where: { order_id: O5 }, data: { expires_at: new Date(Date.now() - 1000) } });
    const r = await app.api("GET", "/product-reviews/reviewable", { query: { token } });
    expect(r.status).toBe(422);
    expect(r.body.error.message).toBe("This review link has expired: links are valid for 60 days");
  });

  it("lets a moderator send the request again for a delivered order", async () => {
    expect((await app.api("POST", `/product-reviews/admin/orders/${enc(O1)}/request-reviews`, { token: otherAdmin.token })).status).toBe(403);
    const unknown = await admin("POST", `/orders/${enc("gid://shopify/Order/0")}/request-reviews`);
    expect(unknown.status).toBe(404);
    const notDelivered = await admin("POST", `/orders/${enc(O2)}/request-reviews`);
    expect(notDelivered.status).toBe(409);
    expect(notDelivered.body.error.message).toBe("Order #9002 has no delivered items yet");
    const sent = await admin("POST", `/orders/${enc(O1)}/request-reviews`);
    expect(sent.status).toBe(202);
    expect(sent.body.orderId).toBe(O1);
    const count = (await outbox()).length;
    await drain();
    const emails = await outbox();
    expect(emails).toHaveLength(count + 1);
    expect(emails.at(-1)!.to).toBe("maya.k@example.com");
    // Maya reviewed P1 and dismissed P2: the link offers P2 (dismissing only hides it from the prompt).
    const r = await app.api("GET", "/product-reviews/reviewable", { query: { token: tokenOf(emails.at(-1)!.text) } });
    expect(r.body.products.map((p: { product_id: string; reviewed: boolean }) => [p.product_id, p.reviewed])).toEqual([
      [P1, true],
      [P2, false],
    ]);
  });
});
