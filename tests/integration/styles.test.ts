import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { categoriseProducts } from "../../app/services/styles.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let editor: { token: string };
let viewer: { token: string };

const gid = (n: number) => `gid://shopify/Product/${n}`;
const PRODUCTS = [
  { n: 501, title: "Boxy Heavy Tee", productType: "T-Shirt", tags: ["streetwear", "cotton"] },
  { n: 502, title: "Relaxed Jeans", productType: "Jeans", tags: ["streetwear", "denim"] },
  { n: 503, title: "Fleece Hoodie", productType: "", tags: ["hoodie", "streetwear"] },
  { n: 504, title: "Canvas Thing", productType: "", tags: ["streetwear"] },
  { n: 505, title: "Oxford Shirt", productType: "Shirt", tags: ["smart-casual"], status: "draft" as const },
];

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  for (const p of PRODUCTS) {
    await db.product.create({
      data: { id: gid(p.n), title: p.title, handle: `style-test-${p.n}`, productType: p.productType, tags: p.tags, status: p.status ?? "active", priceMin: 20, priceMax: 20 },
    });
  }
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  viewer = await app.createUser({ role: "ADMIN", permissions: ["drops.manage"] });
});
afterAll(() => app?.close());

const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

describe("styles CRUD", () => {
  let id: string;

  it("creates a style with products, a generated handle and pending categorisation", async () => {
    const res = await app.api("POST", "/styles", {
      token: editor.token,
      body: { name: "Street Wear Edit", description: "Big tees and relaxed denim", featured: true, score: 0.7, target_gender: "menswear", products: ["501", gid(502)] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Street Wear Edit", handle: "street-wear-edit", featured: true, score: 0.7, target_gender: "menswear", categorisation_status: "pending", product_count: 2 });
    id = res.body.id;

    const again = await app.api("POST", "/styles", { token: editor.token, body: { name: "Street Wear Edit" } });
    expect(again.status).toBe(201);
    expect(again.body.handle).toBe("street-wear-edit-2");

    const taken = await app.api("POST", "/styles", { token: editor.token, body: { name: "Other", handle: "street-wear-edit" } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("street-wear-edit");
  });

  it("refuses a missing name, unknown products, and callers without catalog.edit", async () => {
    const noName = await app.api("POST", "/styles", { token: editor.token, body: { description: "x" } });
    expect(noName.status).toBe(400);
    const unknown = await app.api("POST", "/styles", { token: editor.token, body: { name: "Ghosts", products: ["999999"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe("Unknown product ids: gid://shopify/Product/999999");
    expect(await app.database.db.style.count({ where: { name: "Ghosts" } })).toBe(0);
    const denied = await app.api("POST", "/styles", { token: viewer.token, body: { name: "Nope" } });
    expect(denied.status).toBe(403);
  });

  it("reads a style by id or handle, publicly, with its products as cards", async () => {
    const byId = await app.api("GET", `/styles/${id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.products.map((p: { id: string }) => p.id)).toEqual([gid(501), gid(502)]);
    expect(byId.body.products[0]).toMatchObject({ title: "Boxy Heavy Tee", priceRange: { minVariantPrice: { amount: "20.00", currencyCode: "USD" } } });
    expect(byId.body.categorisation).toBeNull();
    const byHandle = await app.api("GET", "/styles/street-wear-edit");
    expect(byHandle.body.id).toBe(id);
    const missing = await app.api("GET", "/styles/no-such-style");
    expect(missing.status).toBe(404);
  });

  it("lists with skip/take and the total, filters and sorts", async () => {
    const all = await app.api("GET", "/styles", { query: { take: 1 } });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 2, skip: 0, take: 1 });
    expect(all.body.styles).toHaveLength(1);
    expect(all.body.styles[0].id).toBe(id); // highest score first
    const second = await app.api("GET", "/styles", { query: { take: 1, skip: 1 } });
    expect(second.body.styles[0].handle).toBe("street-wear-edit-2");
    const featured = await app.api("GET", "/styles", { query: { featured: "true" } });
    expect(featured.body.total).toBe(1);
    const womens = await app.api("GET", "/styles", { query: { target_gender: "womenswear" } });
    expect(womens.body.styles.map((s: { handle: string }) => s.handle)).toEqual(["street-wear-edit-2"]);
    const search = await app.api("GET", "/styles", { query: { q: "wear", sort: "name" } });
    expect(search.body.total).toBe(2);
    const bad = await app.api("GET", "/styles", { query: { take: 500 } });
    expect(bad.status).toBe(400);
  });

  it("updates, scores and deletes", async () => {
    const patched = await app.api("PATCH", `/styles/${id}`, { token: editor.token, body: { description: "Updated", handle: "streetwear-edit" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: "Updated", handle: "streetwear-edit", name: "Street Wear Edit" });
    const clash = await app.api("PATCH", `/styles/${id}`, { token: editor.token, body: { handle: "street-wear-edit-2" } });
    expect(clash.status).toBe(409);

    const scored = await app.api("PATCH", `/styles/${id}/score`, { token: editor.token, body: { score: 4.25 } });
    expect(scored.status).toBe(200);
    expect(scored.body.score).toBe(4.25);
    const notNumber = await app.api("PATCH", `/styles/${id}/score`, { token: editor.token, body: { score: "high" } });
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.error.message).toContain("score");

    const other = await app.api("GET", "/styles/street-wear-edit-2");
    const del = await app.api("DELETE", `/styles/${other.body.id}`, { token: editor.token });
    expect(del.body).toEqual({ ok: true });
    expect((await app.api("GET", `/styles/${other.body.id}`)).status).toBe(404);
    expect((await app.api("DELETE", `/styles/${other.body.id}`, { token: editor.token })).status).toBe(404);
    // The products stay in the catalogue.
    expect(await app.database.db.product.count({ where: { id: { in: [gid(501), gid(502)] } } })).toBe(2);
  });

  it("adds and removes products; unknown ids are refused with 400", async () => {
    const add = await app.api("POST", `/styles/${id}/products`, { token: editor.token, body: { products: ["503", gid(504), "501"] } });
    expect(add.status).toBe(200);
    expect(add.body.added).toBe(2); // 501 was already there
    expect(add.body.style.product_count).toBe(4);
    const order = await app.api("GET", `/styles/${id}`);
    expect(order.body.products.map((p: { id: string }) => p.id)).toEqual([gid(501), gid(502), gid(503), gid(504)]);

    const unknown = await app.api("POST", `/styles/${id}/products`, { token: editor.token, body: { products: ["503", "424242"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.unknown).toEqual([gid(424242)]);
    const empty = await app.api("POST", `/styles/${id}/products`, { token: editor.token, body: { products: [] } });
    expect(empty.status).toBe(400);

    const remove = await app.api("DELETE", `/styles/${id}/products`, { token: editor.token, body: { products: ["504"] } });
    expect(remove.status).toBe(200);
    expect(remove.body).toMatchObject({ removed: 1, style: { product_count: 3 } });
    const removeUnknown = await app.api("DELETE", `/styles/${id}/products`, { token: editor.token, body: { products: ["777"] } });
    expect(removeUnknown.status).toBe(400);
    const noStyle = await app.api("POST", `/styles/nope/products`, { token: editor.token, body: { products: ["501"] } });
    expect(noStyle.status).toBe(404);
  });
});

describe("featured and random styles", () => {
  beforeAll(async () => {
    const db = app.database.db;
    // Featured without products, active through an active product, and neither (only a draft product).
    await db.style.create({ data: { name: "Featured Empty", handle: "featured-empty", featured: true, score: 9 } });
    for (let i = 0; i < 8; i++) {
      await db.style.create({ data: { name: `Active ${i}`, handle: `active-${i}`, score: i, products: { create: [{ product_id: gid(501 + (i % 4)) }] } } });
    }
    await db.style.create({ data: { name: "Draft Only", handle: "draft-only", products: { create: [{ product_id: gid(505) }] } } });
  });

  it("featured styles come highest score first", async () => {
    const res = await app.api("GET", "/styles/featured");
    expect(res.status).toBe(200);
    expect(res.body.styles.map((s: { handle: string }) => s.handle)).toEqual(["featured-empty", "streetwear-edit"]);
    expect((await app.api("GET", "/styles/featured", { query: { take: 0 } })).status).toBe(400);
  });

  it("random styles are featured or active; a seed keeps the order stable", async () => {
    const a = await app.api("GET", "/styles/random", { query: { n: 20, seed: "session-1" } });
    expect(a.status).toBe(200);
    const handles = a.body.styles.map((s: { handle: string }) => s.handle);
    expect(handles).toHaveLength(10);
    expect(handles).not.toContain("draft-only");
    expect(handles).toContain("featured-empty");
    expect(a.body.seed).toBe("session-1");
    const b = await app.api("GET", "/styles/random", { query: { n: 20, seed: "session-1" } });
    expect(b.body.styles.map((s: { handle: string }) => s.handle)).toEqual(handles);
    const c = await app.api("GET", "/styles/random", { query: { n: 20, seed: "session-2" } });
    expect(c.body.styles.map((s: { handle: string }) => s.handle)).not.toEqual(handles);
    expect([...c.body.styles.map((s: { handle: string }) => s.handle)].sort()).toEqual([...handles].sort());
    const three = await app.api("GET", "/styles/random", { query: { n: 3, seed: "session-1" } });
    expect(three.body.styles.map((s: { handle: string }) => s.handle)).toEqual(handles.slice(0, 3));
    const unseeded = await app.api("GET", "/styles/random");
    expect(unseeded.body.styles).toHaveLength(6);
    expect(unseeded.body.seed).toBeNull();
    expect((await app.api("GET", "/styles/random", { query: { n: 0 } })).status).toBe(400);
  });
});

describe("categorisation", () => {
  it("groups products by category from type, tags, then title (pure)", () => {
    const r = categoriseProducts([
      { id: "a", productType: "T-Shirt", tags: ["cotton"], title: "Tee" },
      { id: "b", productType: "", tags: ["hoodie"], title: "Warm" },
      { id: "c", productType: "", tags: [], title: "Slip Dress" },
      { id: "d", productType: "Lamp", tags: [], title: "Desk" },
      { id: "e", productType: "", tags: [], title: "Mystery" },
      { id: "f", productType: "tee", tags: ["cotton"], title: "Other" },
    ]);
    expect(r.categories).toEqual([
      { category: "T-shirts & tops", count: 2, productIds: ["a", "f"] },
      { category: "Dresses", count: 1, productIds: ["c"] },
      { category: "Hoodies & sweatshirts", count: 1, productIds: ["b"] },
      { category: "Lamp", count: 1, productIds: ["d"] },
    ]);
    expect(r.uncategorised).toEqual(["e"]);
    expect(r.topTags[0]).toEqual({ tag: "cotton", count: 2 });
  });

  it("queues pending and failed styles oldest first, runs the job and records the result", async () => {
    const db = app.database.db;
    await db.style.updateMany({ data: { categorisation_status: "completed" } });
    const old = await db.style.create({ data: { name: "Old", handle: "old-style", created_at: new Date("2020-01-01"), categorisation_status: "failed" } });
    const style = await db.style.findUniqueOrThrow({ where: { handle: "streetwear-edit" } });

    const queued = await app.api("POST", `/styles/${style.id}/categorise`, { token: editor.token });
    expect(queued.status).toBe(202);
    expect(queued.body.style.categorisation_status).toBe("pending");
    const twice = await app.api("POST", `/styles/${style.id}/categorise`, { token: editor.token });
    expect(twice.body.jobId).toBe(queued.body.jobId); // one run per style at a time

    const queue = await app.api("GET", "/styles/categorisation-queue", { token: editor.token });
    expect(queue.status).toBe(200);
    expect(queue.body.total).toBe(2);
    expect(queue.body.styles.map((s: { id: string }) => s.id)).toEqual([old.id, style.id]);
    expect((await app.api("GET", "/styles/categorisation-queue", { token: viewer.token })).status).toBe(403);

    await app.api("POST", `/styles/${old.id}/categorise`, { token: editor.token });
    await drain();

    const done = await app.api("GET", `/styles/${style.id}`);
    expect(done.body.categorisation_status).toBe("completed");
    expect(done.body.categorisation).toMatchObject({ status: "completed", job_id: queued.body.jobId, error: null });
    const result = done.body.categorisation.result;
    expect(result.productCount).toBe(3);
    expect(result.categories).toEqual(
      expect.arrayContaining([
        { category: "T-shirts & tops", count: 1, productIds: [gid(501)] },
        { category: "Jeans", count: 1, productIds: [gid(502)] },
        { category: "Hoodies & sweatshirts", count: 1, productIds: [gid(503)] },
      ]),
    );
    expect(result.topTags[0]).toEqual({ tag: "streetwear", count: 3 });

    // A style without products fails its categorisation, with the reason.
    const failed = await app.api("GET", `/styles/${old.id}`);
    expect(failed.body.categorisation_status).toBe("failed");
    expect(failed.body.categorisation.error).toBe("The style has no products to categorise");
    const after = await app.api("GET", "/styles/categorisation-queue", { token: editor.token });
    expect(after.body.styles.map((s: { id: string }) => s.id)).toEqual([old.id]);

    expect((await app.api("POST", "/styles/missing/categorise", { token: editor.token })).status).toBe(404);
  });
});
