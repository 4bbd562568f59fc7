/**
 * Curated outfits (issue 19): admin CRUD and status transitions, what shoppers see (published
 * only), "complete the look" with the engine's proposal as fallback, proposals accepted and
 * rejected (kept as training data, never proposed again), and callers without the permission.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTFIT_STATUS_TRANSITIONS, OutfitStatusSchema, type OutfitStatus } from "../../app/contract/outfits";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let editor: { id: string; token: string };
let otherAdmin: { token: string };
let shopper: { token: string };

const gid = (n: number) => `gid://shopify/Product/${n}`;
const PRODUCTS = [
  { n: 9101, title: "Navy Oxford Shirt", productType: "Shirts", gender: "menswear" as const, hex: "#1f2a44" },
  { n: 9102, title: "Stone Chinos", productType: "Trousers", gender: "menswear" as const, hex: "#c8b89a" },
  { n: 9103, title: "Wool Overcoat", productType: "Coats", gender: "menswear" as const, hex: "#333333" },
  { n: 9104, title: "Red Slim Jeans", productType: "Jeans", gender: "menswear" as const, hex: "#c0392b" },
  { n: 9105, title: "Hidden Tee", productType: "T-Shirts", gender: "menswear" as const, hex: "#ffffff", status: "draft" as const },
  { n: 9106, title: "Floral Dress", productType: "Dresses", gender: "womenswear" as const, hex: "#e58fb1" },
  { n: 9107, title: "Leather Boots", productType: "Boots", gender: "both" as const, hex: "#4a3020" },
];

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  for (const p of PRODUCTS) {
    await db.product.create({
      data: {
        id: gid(p.n),
        title: p.title,
        handle: `outfit-test-${p.n}`,
        productType: p.productType,
        target_gender: p.gender,
        status: p.status ?? "active",
        priceMin: 40,
        priceMax: 40,
        featuredImageUrl: `/images/outfit-test-${p.n}.jpg`,
        variants: { create: [{ id: `gid://shopify/ProductVariant/${p.n}`, title: "Default", price: 40, color_hex: p.hex }] },
      },
    });
  }
  // The shirt is often bought with the chinos: the engine's look around the shirt picks them.
  await db.productCoOccurrence.create({ data: { kind: "purchase", product_id: gid(9101), other_id: gid(9102), count: 5, score: 5 } });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["drops.manage"] });
  shopper = await app.createUser();
});
afterAll(() => app?.close());

const ids = (list: { id: string }[]) => list.map((p) => p.id);

describe("admin builds a look", () => {
  let id: string;

  it("creates a draft look keeping the product order, with its author and cover", async () => {
    const res = await app.api("POST", "/outfits", {
      token: editor.token,
      body: { name: "City Smart", description: "Shirt, chinos and a coat", image_url: "/images/cover.jpg", target_gender: "menswear", product_ids: ["9103", gid(9101), "9102"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "City Smart", status: "draft", source: "curated", target_gender: "menswear", image_url: "/images/cover.jpg", published_at: null });
    expect(res.body.product_ids).toEqual([gid(9103), gid(9101), gid(9102)]);
    expect(ids(res.body.products)).toEqual([gid(9103), gid(9101), gid(9102)]);
    id = res.body.id;
    const row = await app.database.db.outfit.findUniqueOrThrow({ where: { id } });
    expect(row.created_by_id).toBe(editor.id);
    expect(row.user_id).toBeNull();
  });

  it("refuses unknown products, a product twice, an empty name", async () => {
    const unknown = await app.api("POST", "/outfits", { token: editor.token, body: { name: "Ghost", product_ids: ["9101", "999999"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe("Unknown product ids: gid://shopify/Product/999999");
    const twice = await app.api("POST", "/outfits", { token: editor.token, body: { name: "Twice", product_ids: ["9101", gid(9101)] } });
    expect(twice.status).toBe(400);
    const noName = await app.api("POST", "/outfits", { token: editor.token, body: { name: " " } });
    expect(noName.status).toBe(400);
  });

  it("drafts are invisible to shoppers", async () => {
    expect((await app.api("GET", `/outfits/${id}`, { token: shopper.token })).status).toBe(404);
    expect((await app.api("GET", "/outfits")).body.outfits).toEqual([]);
    const admin = await app.api("GET", `/outfits/admin/${id}`, { token: editor.token });
    expect(admin.status).toBe(200);
    expect(admin.body.status).toBe("draft");
  });

  it("reorders and removes products, changes the cover and gender", async () => {
    const res = await app.api("PATCH", `/outfits/${id}`, { token: editor.token, body: { product_ids: ["9101", "9102", "9107"], image_url: null, target_gender: "both", sort_order: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.product_ids).toEqual([gid(9101), gid(9102), gid(9107)]);
    expect(res.body).toMatchObject({ image_url: null, target_gender: "both", sort_order: 2 });
    const missing = await app.api("PATCH", "/outfits/no-such-look", { token: editor.token, body: { name: "x" } });
    expect(missing.status).toBe(404);
  });

  it("publishes: shoppers see it by id, in the list with gender and product filters, without hidden products", async () => {
    await app.api("PATCH", `/outfits/${id}`, { token: editor.token, body: { product_ids: ["9101", "9105", "9102", "9107"] } });
    const pub = await app.api("PUT", `/outfits/${id}/status`, { token: editor.token, body: { status: "published" } });
    expect(pub.status).toBe(200);
    expect(pub.body.status).toBe("published");
    expect(pub.body.published_at).toEqual(expect.any(String));
    // The admin sees the hidden product; shoppers do not.
    expect(ids(pub.body.products)).toContain(gid(9105));

    const one = await app.api("GET", `/outfits/${id}`);
    expect(one.status).toBe(200);
    expect(ids(one.body.products)).toEqual([gid(9101), gid(9102), gid(9107)]);

    const list = await app.api("GET", "/outfits", { query: { target_gender: "womenswear" } });
    expect(ids(list.body.outfits)).toEqual([id]); // a look for both genders
    const byProduct = await app.api("GET", "/outfits", { query: { product_id: "9102" } });
    expect(ids(byProduct.body.outfits)).toEqual([id]);
    const other = await app.api("GET", "/outfits", { query: { product_id: "9106" } });
    expect(other.body.outfits).toEqual([]);
  });

  it("a published look keeps two products; unpublishing hides it again", async () => {
    const shrink = await app.api("PATCH", `/outfits/${id}`, { token: editor.token, body: { product_ids: ["9101"] } });
    expect(shrink.status).toBe(409);
    const unpub = await app.api("PUT", `/outfits/${id}/status`, { token: editor.token, body: { status: "draft" } });
    expect(unpub.status).toBe(200);
    expect((await app.api("GET", `/outfits/${id}`)).status).toBe(404);
  });

  it("deletes a look; a generated outfit of a shopper is not reachable through these calls", async () => {
    const gen = await app.database.db.outfit.create({ data: { name: "Mine", source: "generated", status: "published", product_ids: [gid(9101), gid(9102)] } });
    expect((await app.api("GET", `/outfits/${gen.id}`)).status).toBe(404);
    expect((await app.api("DELETE", `/outfits/${gen.id}`, { token: editor.token })).status).toBe(404);
    const admin = await app.api("GET", "/outfits/admin", { token: editor.token });
    expect(ids(admin.body.outfits)).not.toContain(gen.id);

    const del = await app.api("DELETE", `/outfits/${id}`, { token: editor.token });
    expect(del.status).toBe(200);
    expect((await app.api("GET", `/outfits/admin/${id}`, { token: editor.token })).status).toBe(404);
  });
});

describe("status transitions", () => {
  const statuses = OutfitStatusSchema.options;
  const lookIn = async (status: OutfitStatus) => {
    const row = await app.database.db.outfit.create({ data: { name: `T ${status}`, source: "curated", status, product_ids: [gid(9101), gid(9102)] } });
    return row.id;
  };

  for (const from of statuses) {
    for (const to of statuses) {
      const allowed = OUTFIT_STATUS_TRANSITIONS[from].includes(to);
      it(`${from} → ${to}: ${allowed ? "allowed" : "refused (409)"}`, async () => {
        const id = await lookIn(from);
        const res = await app.api("PUT", `/outfits/${id}/status`, { token: editor.token, body: { status: to } });
        expect(res.status).toBe(allowed ? 200 : 409);
        const row = await app.database.db.outfit.findUniqueOrThrow({ where: { id } });
        expect(row.status).toBe(allowed ? to : from);
      });
    }
  }

  it("a look with one product cannot be published (400)", async () => {
    const row = await app.database.db.outfit.create({ data: { name: "Lonely", source: "curated", product_ids: [gid(9101)] } });
    const res = await app.api("PUT", `/outfits/${row.id}/status`, { token: editor.token, body: { status: "published" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("A look needs at least 2 products to be published");
  });
});

describe("roles", () => {
  it("a shopper, a guest and an admin without catalog.edit cannot create, publish, list drafts or decide proposals", async () => {
    const look = await app.database.db.outfit.create({ data: { name: "Guarded", source: "curated", product_ids: [gid(9101), gid(9102)] } });
    const guest = await app.createUser({ authProvider: "guest" });
    for (const token of [shopper.token, guest.token, otherAdmin.token, undefined]) {
      const expected = token ? 403 : 401;
      expect((await app.api("POST", "/outfits", { token, body: { name: "Nope" } })).status).toBe(expected);
      expect((await app.api("PUT", `/outfits/${look.id}/status`, { token, body: { status: "published" } })).status).toBe(expected);
      expect((await app.api("GET", "/outfits/admin", { token })).status).toBe(expected);
      expect((await app.api("POST", "/outfits/proposals/accept", { token, body: { product_ids: ["9101", "9102"] } })).status).toBe(expected);
    }
    const row = await app.database.db.outfit.findUniqueOrThrow({ where: { id: look.id } });
    expect(row.status).toBe("draft");
  });
});

describe("complete the look and proposals", () => {
  it("with no published look, the product page gets the engine's look: the co-bought chinos, in harmony", async () => {
    await app.database.db.outfit.deleteMany({ where: { source: { in: ["curated", "proposed"] } } });
    const res = await app.api("GET", "/outfits/complete-the-look", { query: { product_id: "9101" } });
    expect(res.status).toBe(200);
    expect(res.body.outfits).toEqual([]);
    expect(res.body.proposal).toMatchObject({ name: "Navy Oxford Shirt look", target_gender: "menswear" });
    expect(res.body.proposal.product_ids.slice(0, 2)).toEqual([gid(9101), gid(9102)]);
    expect(res.body.proposal.attributes.groups.slice(0, 2)).toEqual(["top", "bottom"]);
    // Shoes and outerwear complete it; the womenswear dress and the hidden tee never do.
    expect(res.body.proposal.product_ids).toEqual(expect.arrayContaining([gid(9107), gid(9103)]));
    expect(res.body.proposal.product_ids).not.toContain(gid(9106));
    expect(res.body.proposal.product_ids).not.toContain(gid(9105));
  });

  it("refuses a call without a product id; an unknown or hidden product has no look", async () => {
    const res = await app.api("GET", "/outfits/complete-the-look");
    expect(res.status).toBe(400);
    for (const id of ["999999", "9105"]) {
      const none = await app.api("GET", "/outfits/complete-the-look", { query: { product_id: id } });
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ outfits: [], proposal: null });
    }
  });

  it("admin sees proposals, accepts one (a look, published on request) and rejects another; both kept as training data", async () => {
    const list = await app.api("GET", "/outfits/proposals", { token: editor.token, query: { target_gender: "menswear" } });
    expect(list.status).toBe(200);
    expect(list.body.proposals.length).toBeGreaterThan(0);
    const first = list.body.proposals[0];

    const accepted = await app.api("POST", "/outfits/proposals/accept", { token: editor.token, body: { product_ids: first.product_ids, name: "Engine look", publish: true } });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ name: "Engine look", source: "proposed", status: "published" });
    const again = await app.api("POST", "/outfits/proposals/accept", { token: editor.token, body: { product_ids: [...first.product_ids].reverse() } });
    expect(again.status).toBe(409);

    const after = await app.api("GET", "/outfits/proposals", { token: editor.token, query: { target_gender: "menswear" } });
    expect(after.body.proposals.map((p: { key: string }) => p.key)).not.toContain(first.key);

    const rejected = await app.api("POST", "/outfits/proposals/reject", { token: editor.token, body: { product_ids: [gid(9104), gid(9101)], reason: "clashing colours" } });
    expect(rejected.status).toBe(200);
    const unknown = await app.api("POST", "/outfits/proposals/reject", { token: editor.token, body: { product_ids: [gid(9101), "999999"] } });
    expect(unknown.status).toBe(400);
    const one = await app.api("POST", "/outfits/proposals/reject", { token: editor.token, body: { product_ids: [gid(9101)] } });
    expect(one.status).toBe(400);

    const training = await app.database.db.outfitTrainingData.findMany({ orderBy: { created_at: "asc" } });
    expect(training.map((t) => t.approved)).toEqual([true, false]);
    expect(training[0]).toMatchObject({ outfit_id: accepted.body.id, product_ids: first.product_ids });
    expect(training[1]).toMatchObject({ outfit_id: null, caption: "clashing colours", product_ids: [gid(9104), gid(9101)] });
    expect(training[1].attributes).toMatchObject({ groups: ["bottom", "top"] });

    // The accepted look now answers "complete the look" for its products.
    const ctl = await app.api("GET", "/outfits/complete-the-look", { query: { product_id: first.product_ids[1] } });
    expect(ids(ctl.body.outfits)).toEqual([accepted.body.id]);
    expect(ctl.body.proposal).toBeNull();
  });
});

describe("a shopper saves a look into a collection", () => {
  it("saves a published look once, lists it, removes it; drafts and other shoppers' collections answer 404", async () => {
    const db = app.database.db;
    const look = await db.outfit.create({ data: { name: "Saved look", source: "curated", status: "published", product_ids: [gid(9101), gid(9102)] } });
    const draft = await db.outfit.create({ data: { name: "Draft look", source: "curated", product_ids: [gid(9101), gid(9102)] } });
    const guest = await app.createUser({ authProvider: "guest" });
    const mine = await app.api("POST", "/user-collections", { token: guest.token, body: { name: "Weekend" } });
    const cid = mine.body.data.id;

    const add = await app.api("POST", `/user-collections/${cid}/outfits`, { token: guest.token, body: { outfit_id: look.id } });
    expect(add.status).toBe(200);
    expect(add.body.data.added).toBe(true);
    const twice = await app.api("POST", `/user-collections/${cid}/outfits`, { token: guest.token, body: { outfit_id: look.id } });
    expect(twice.body.data.added).toBe(false);
    const list = await app.api("GET", `/user-collections/${cid}/outfits`, { token: guest.token });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((o: { id: string }) => o.id)).toEqual([look.id]);
    expect(ids(list.body.data.items[0].products)).toEqual([gid(9101), gid(9102)]);

    expect((await app.api("POST", `/user-collections/${cid}/outfits`, { token: guest.token, body: { outfit_id: draft.id } })).status).toBe(404);
    expect((await app.api("POST", `/user-collections/${cid}/outfits`, { token: guest.token, body: {} })).status).toBe(400);
    // Another shopper cannot read, add to or remove from this collection.
    expect((await app.api("GET", `/user-collections/${cid}/outfits`, { token: shopper.token })).status).toBe(404);
    expect((await app.api("POST", `/user-collections/${cid}/outfits`, { token: shopper.token, body: { outfit_id: look.id } })).status).toBe(404);
    expect((await app.api("DELETE", `/user-collections/${cid}/outfits/${look.id}`, { token: shopper.token })).status).toBe(404);
    expect((await app.api("GET", `/user-collections/${cid}/outfits`)).status).toBe(401);

    // Unpublished later: left out of the collection's looks, still saved.
    await db.outfit.update({ where: { id: look.id }, data: { status: "draft" } });
    expect((await app.api("GET", `/user-collections/${cid}/outfits`, { token: guest.token })).body.data.items).toEqual([]);
    await db.outfit.update({ where: { id: look.id }, data: { status: "published" } });

    const del = await app.api("DELETE", `/user-collections/${cid}/outfits/${look.id}`, { token: guest.token });
    expect(del.body.data.removed).toBe(true);
    expect((await app.api("GET", `/user-collections/${cid}/outfits`, { token: guest.token })).body.data.items).toEqual([]);
  });
});
