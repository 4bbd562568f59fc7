/**
 * The Reviews admin screen (app/routes/app.reviews.tsx) through its loader and action in local
 * mode: the permission guard, tabs with counts, search and pages, the product picker, the rating
 * chart's summary, every action intent (publish, reject, delete, create, update, add and remove a
 * photo) with its success and its refusal, and the server-rendered page.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, enc, pgid } from "./products-fixtures";
import { renderRoute, staffForm, staffRequest, thrownResponse as thrown } from "../helpers/route";

type RouteModule = typeof import("../../app/routes/app.reviews");
let route: RouteModule;
let app: TestApp;
let moderator: { token: string };
let editor: { token: string };
let vendorUser: { token: string };
let storeId: string;

const P1 = pgid(7301);
const P2 = pgid(7302);
const db = () => app.database.db;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const jpeg = () => sharp({ create: { width: 60, height: 40, channels: 3, background: "#7a4b2c" } }).jpeg().toBuffer();
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));

const load = (token: string | null, query = "") => route.loader({ request: staffRequest(`/app/reviews${query}`, token), params: {}, context: {} });
async function list(token: string, query = "") {
  const data = await load(token, query);
  const { reviews, counts, overall } = data;
  if (!reviews || !counts || !overall) throw new Error("no list in the answer");
  return { ...data, reviews, counts, overall };
}
const act = (token: string | null, fields: Record<string, string>) => route.action({ request: staffForm("/app/reviews", token, fields), params: {}, context: {} });
const actMultipart = (token: string, form: FormData) => route.action({ request: staffRequest("/app/reviews", token, { method: "POST", body: form }), params: {}, context: {} });

async function review(data: { product?: string; rating: number; body: string; name: string; status?: "pending" | "approved" | "rejected"; minutes: number; title?: string; email?: string }) {
  return db().review.create({
    data: {
      product_id: data.product ?? P1,
      store_id: storeId,
      rating: data.rating,
      title: data.title ?? null,
      body: data.body,
      name: data.name,
      email: data.email ?? null,
      status: data.status ?? "pending",
      published_at: data.status === "approved" ? minutesAgo(data.minutes) : null,
      created_at: minutesAgo(data.minutes),
    },
  });
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app.reviews");
  moderator = await app.createUser({ role: "ADMIN", permissions: ["reviews.moderate"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const vendor = await db().vendor.create({ data: { name: "Review Vendor", handle: "review-vendor" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  storeId = (await db().store.create({ data: { name: "Atelier A", handle: "atelier-a", vendor_id: vendor.id } })).id;
  await createProduct(db(), { n: 7301, title: "Linen Shirt", storeId, vendorId: vendor.id });
  await createProduct(db(), { n: 7302, title: "Wool Coat", storeId, vendorId: vendor.id });
  await review({ rating: 5, title: "Perfect fit", body: "Soft linen, true to size.", name: "Maya", email: "maya@example.com", minutes: 10 });
  await review({ rating: 2, body: "The collar frayed after one wash.", name: "Sam", minutes: 20 });
  await review({ product: P2, rating: 4, body: "Warm and well cut.", name: "Lee", status: "approved", minutes: 30 });
  await review({ product: P2, rating: 1, body: "Spam spam spam.", name: "Bot", status: "rejected", minutes: 40 });
});
afterAll(() => app?.close());

const idOf = async (name: string) => (await db().review.findFirstOrThrow({ where: { name } })).id;

describe("guard and navigation", () => {
  it("needs reviews.moderate: 403 for other admins and vendors, for the loader and the action", async () => {
    for (const token of [editor.token, vendorUser.token]) {
      expect((await thrown(load(token))).status).toBe(403);
      expect((await thrown(act(token, { intent: "delete", id: await idOf("Sam") }))).status).toBe(403);
    }
    expect(await (await thrown(load(editor.token))).json()).toEqual({ staffError: "You do not have permission to see this page" });
    expect(await db().review.count()).toBe(4);
  });

  it("signed out, the page sends to the login", async () => {
    const out = await thrown(load(null, "?status=all"));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Freviews%3Fstatus%3Dall");
    expect((await thrown(act(null, { intent: "publish", id: "x" }))).status).toBe(302);
  });

  it("the navigation shows Reviews only with reviews.moderate", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["reviews.moderate"] }).map((n) => n.url)).toContain("/app/reviews");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/reviews");
  });
});

describe("loader", () => {
  it("opens on the pending tab, newest first, with counts per tab and the published ratings", async () => {
    const data = await list(moderator.token);
    expect(data.tab).toBe("pending");
    expect(data.reviews.map((r) => r.name)).toEqual(["Maya", "Sam"]);
    expect(data.counts).toEqual({ pending: 2, approved: 1, rejected: 1, all: 4 });
    expect(data.total).toBe(2);
    expect(data.reviews[0]).toMatchObject({ rating: 5, title: "Perfect fit", email: "maya@example.com", product: { title: "Linen Shirt" }, allowed_actions: expect.arrayContaining(["publish", "reject"]) });
    expect(typeof data.reviews[0].created_at).toBe("string");
    expect(data.overall).toEqual({ average: 4, count: 1, distribution: { "1": 0, "2": 0, "3": 0, "4": 1, "5": 0 } });
    expect(data.picker).toBeNull();
  });

  it("other tabs, search and a bad status (back to pending)", async () => {
    expect((await list(moderator.token, "?status=approved")).reviews.map((r) => r.name)).toEqual(["Lee"]);
    expect((await list(moderator.token, "?status=rejected")).reviews.map((r) => r.name)).toEqual(["Bot"]);
    expect((await list(moderator.token, "?status=all")).reviews.map((r) => r.name)).toEqual(["Maya", "Sam", "Lee", "Bot"]);
    const search = await list(moderator.token, "?status=all&q=collar");
    expect(search).toMatchObject({ q: "collar", total: 1 });
    expect(search.reviews.map((r) => r.name)).toEqual(["Sam"]);
    expect((await list(moderator.token, "?status=all&q=maya@example")).reviews.map((r) => r.name)).toEqual(["Maya"]);
    const bad = await list(moderator.token, "?status=everything");
    expect(bad.tab).toBe("pending");
    expect(bad.reviews.map((r) => r.name)).toEqual(["Maya", "Sam"]);
  });

  it("pages 20 at a time with skip", async () => {
    await db().review.createMany({ data: Array.from({ length: 21 }, (_, i) => ({ product_id: P2, store_id: storeId, rating: 3, body: `Bulk ${i}`, name: `Bulk ${i}`, created_at: minutesAgo(100 + i) })) });
    const first = await list(moderator.token);
    expect(first).toMatchObject({ total: 23, skip: 0 });
    expect(first.reviews).toHaveLength(20);
    const second = await list(moderator.token, "?skip=20");
    expect(second.skip).toBe(20);
    expect(second.reviews.map((r) => r.name)).toEqual(["Bulk 18", "Bulk 19", "Bulk 20"]);
    await db().review.deleteMany({ where: { name: { startsWith: "Bulk " } } });
  });

  it("answers the product picker's search (?pq=) instead of the list", async () => {
    const found = await load(moderator.token, "?pq=wool");
    expect(found.pickerQuery).toBe("wool");
    expect(found.picker?.map((p) => p.title)).toEqual(["Wool Coat"]);
    expect("reviews" in found).toBe(false);
    expect(await load(moderator.token, "?pq=zzz")).toEqual({ picker: [], pickerQuery: "zzz" });
    expect(await load(moderator.token, "?pq=")).toEqual({ picker: null, pickerQuery: "" });
  });
});

describe("action", () => {
  it("publish: the review goes public and counts in the ratings; publishing it again is refused", async () => {
    const id = await idOf("Maya");
    expect(await act(moderator.token, { intent: "publish", id })).toEqual({ ok: true, intent: "publish", message: "Published the review by Maya." });
    const data = await list(moderator.token);
    expect(data.counts).toMatchObject({ pending: 1, approved: 2 });
    expect(data.overall).toMatchObject({ count: 2, average: 4.5 });
    expect((await app.api("GET", `/product-reviews/product/${enc(P1)}/summary`)).body).toMatchObject({ count: 1, average: 5 });
    expect(await act(moderator.token, { intent: "publish", id })).toEqual({ ok: false, intent: "publish", error: "This review is already published" });
  });

  it("reject: a pending review is rejected; a published one is refused; an unknown one is gone", async () => {
    expect(await act(moderator.token, { intent: "reject", id: await idOf("Sam") })).toEqual({ ok: true, intent: "reject", message: "Rejected the review by Sam." });
    expect(await act(moderator.token, { intent: "reject", id: await idOf("Lee") })).toEqual({
      ok: false,
      intent: "reject",
      error: "A published review cannot be rejected: delete it to take it down",
    });
    expect(await act(moderator.token, { intent: "reject", id: "00000000-0000-0000-0000-000000000000" })).toEqual({
      ok: false,
      intent: "reject",
      error: "This review does not exist any more (it may have been deleted)",
    });
  });

  it("create: pending or published at once; the server's message on a refusal", async () => {
    const pending = await act(moderator.token, { intent: "create", product_id: P2, rating: "3", title: "Okay", body: "Fine for the price.", name: "", email: "casey.m@example.com", publish: "false" });
    expect(pending).toEqual({ ok: true, intent: "create", message: "Review by casey.m created; it waits in Pending." });
    const published = await act(moderator.token, { intent: "create", product_id: "7302", rating: "5", title: "", body: "Love it.", name: "Store team", email: "", publish: "true" });
    expect(published).toEqual({ ok: true, intent: "create", message: "Review by Store team created and published." });
    expect((await list(moderator.token, "?status=approved")).reviews.map((r) => r.name)).toContain("Store team");

    expect(await act(moderator.token, { intent: "create", product_id: P2, rating: "0", body: "x", publish: "false" })).toEqual({
      ok: false,
      intent: "create",
      error: "rating: must be a whole number from 1 to 5",
    });
    expect(await act(moderator.token, { intent: "create", product_id: pgid(999999), rating: "4", body: "x", publish: "false" })).toEqual({ ok: false, intent: "create", error: "Product not found" });
    expect(await act(moderator.token, { intent: "create", product_id: "", rating: "4", body: "x" })).toMatchObject({ ok: false, intent: "create", error: expect.stringMatching(/^product_id: /) });
  });

  it("update: saves the fields; invalid input and unknown reviews are refused", async () => {
    const id = await idOf("Lee");
    expect(await act(moderator.token, { intent: "update", id, rating: "2", title: "", body: "Changed my mind.", name: "Lee K.", email: "" })).toEqual({ ok: true, intent: "update", message: "Review saved." });
    expect(await db().review.findUniqueOrThrow({ where: { id } })).toMatchObject({ rating: 2, body: "Changed my mind.", name: "Lee K.", email: null });
    expect((await app.api("GET", `/product-reviews/product/${enc(P2)}/summary`)).body).toMatchObject({ count: 2, average: 3.5 });
    expect(await act(moderator.token, { intent: "update", id, rating: "9", body: "x", name: "Lee" })).toMatchObject({ ok: false, intent: "update", error: expect.stringMatching(/^rating: /) });
    expect(await act(moderator.token, { intent: "update", id: "00000000-0000-0000-0000-000000000000", rating: "3", body: "x", name: "x" })).toEqual({ ok: false, intent: "update", error: "Review not found" });
  });

  it("add-image and remove-image: a photo is stored and removed; no file, a non-image and a photo not on the review are refused", async () => {
    const id = await idOf("Lee K.");
    const fd = new FormData();
    fd.set("intent", "add-image");
    fd.set("id", id);
    fd.set("image", new File([new Uint8Array(await jpeg())], "p.jpg", { type: "image/jpeg" }));
    expect(await actMultipart(moderator.token, fd)).toEqual({ ok: true, intent: "add-image", message: "Photo added." });
    const [url] = (await db().review.findUniqueOrThrow({ where: { id } })).images;
    expect(url).toMatch(/^\/uploads\//);
    expect(fs.existsSync(storedFile(url))).toBe(true);

    expect(await act(moderator.token, { intent: "add-image", id })).toEqual({ ok: false, intent: "add-image", error: "Choose a JPEG, PNG or WebP photo to add" });
    const notImage = new FormData();
    notImage.set("intent", "add-image");
    notImage.set("id", id);
    notImage.set("image", new File([new TextEncoder().encode("not an image")], "x.jpg", { type: "image/jpeg" }));
    expect(await actMultipart(moderator.token, notImage)).toMatchObject({ ok: false, intent: "add-image", error: expect.any(String) });
    expect((await db().review.findUniqueOrThrow({ where: { id } })).images).toEqual([url]);

    expect(await act(moderator.token, { intent: "remove-image", id, url })).toEqual({ ok: true, intent: "remove-image", message: "Photo removed." });
    expect((await db().review.findUniqueOrThrow({ where: { id } })).images).toEqual([]);
    expect(fs.existsSync(storedFile(url))).toBe(false);
    expect(await act(moderator.token, { intent: "remove-image", id, url })).toEqual({ ok: false, intent: "remove-image", error: "This photo is not on the review" });
  });

  it("delete: any status; a published review leaves the ratings; an unknown one is refused", async () => {
    const id = await idOf("Store team");
    expect(await act(moderator.token, { intent: "delete", id })).toEqual({ ok: true, intent: "delete", message: "Review deleted." });
    expect(await db().review.count({ where: { id } })).toBe(0);
    expect((await app.api("GET", `/product-reviews/product/${enc(P2)}/summary`)).body).toMatchObject({ count: 1, average: 2 });
    expect(await act(moderator.token, { intent: "delete", id })).toEqual({ ok: false, intent: "delete", error: "This review does not exist any more (it may have been deleted)" });
  });

  it("an unknown intent is refused", async () => {
    expect(await act(moderator.token, { intent: "feature", id: await idOf("Bot") })).toEqual({ ok: false, intent: "feature", error: "Unknown action" });
  });
});

describe("the page (server-rendered)", () => {
  it("shows the tabs with counts, the reviews with their actions, search and the rating chart", async () => {
    const data = await list(moderator.token, "?status=all");
    const html = await renderRoute({ id: "routes/app.reviews", path: "/app/reviews", url: "/app/reviews?status=all", data, Component: route.default });
    expect(html).toContain("Reviews");
    expect(html).toContain("Create review");
    expect(html).toContain(`Pending (${data.counts.pending})`);
    expect(html).toContain(`Published (${data.counts.approved})`);
    expect(html).toContain(`All (${data.counts.all})`);
    expect(html).toContain("Search title, text, name or email");
    expect(html).toContain("Perfect fit");
    expect(html).toContain("Linen Shirt");
    expect(html).toContain('aria-label="5 out of 5 stars"');
    expect(html).toContain('aria-label="Publish the review by casey.m"');
    expect(html).toContain('aria-label="Reject the review by casey.m"');
    expect(html).toContain('aria-label="Edit the review by Maya"');
    expect(html).toContain('aria-label="Delete the review by Bot"');
    expect(html).not.toContain('aria-label="Publish the review by Maya"');
    expect(html).toContain("Ratings of published reviews");
    expect(html).toContain(`out of 5 from ${data.overall.count} reviews`);
    expect(html).toContain('data-testid="rating-chart"');

    const empty = await list(moderator.token, "?q=nothing-matches-this");
    const none = await renderRoute({ id: "routes/app.reviews", path: "/app/reviews", url: "/app/reviews?q=nothing-matches-this", data: empty, Component: route.default });
    expect(none).toContain("Nothing waits for moderation.");
  });
});
