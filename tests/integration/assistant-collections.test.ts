/**
 * Personalised collections from a prompt (POST /user-collections/generate-personalized-collection
 * and POST /users/personalized-collection) on the demo catalogue with the local language model:
 * products from the discovery engine, the shopper's gender preference and interests, variety,
 * the AI-generated marks, a 422 when nothing matches, and ownership of what was created.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typeFamily } from "../../app/services/similar-products.server";
import { pickVaried } from "../../app/services/assistant/personalized-collection.server";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";

let app: TestApp;

beforeAll(async () => {
  app = await createDemoTestApp();
}, 180_000);
afterAll(() => app?.close());

const generate = (token: string | undefined, prompt: unknown, path = "/user-collections/generate-personalized-collection") =>
  app.api("POST", path, { token, body: prompt === undefined ? {} : { prompt } });

describe("generate-personalized-collection", () => {
  it("builds an AI-generated collection from the prompt, stored for the caller", async () => {
    const { token, id: userId } = await app.createUser();
    const r = await generate(token, "black jeans under 100");
    expect(r.status).toBe(201);
    const c = r.body.data;
    expect(c).toMatchObject({ is_ai_generated: true, prompt: "black jeans under 100", name: "Black Jeans under 100" });
    expect(c.description).toMatch(/^\d+ pieces? picked for "black jeans under 100": jeans/);
    expect(c.products.length).toBeGreaterThan(0);
    expect(c.products.length).toBeLessThanOrEqual(12);
    expect(c.productCount).toBe(c.products.length);
    for (const p of c.products) {
      expect(typeFamily(p.productType)).toBe("jeans");
      expect(Number(p.priceRange.minVariantPrice.amount)).toBeLessThanOrEqual(100);
    }
    expect(c.image_url).toBe(c.products.find((p: { featuredImage: unknown }) => p.featuredImage)?.featuredImage.url ?? null);

    // Stored as one of the caller's collections, products in the answer's order.
    const row = await app.database.db.userCollection.findUniqueOrThrow({ where: { id: c.id }, include: { products: { orderBy: { position: "asc" } } } });
    expect(row).toMatchObject({ user_id: userId, is_ai_generated: true, prompt: "black jeans under 100" });
    expect(row.products.map((p) => p.product_id)).toEqual(c.products.map((p: { id: string }) => p.id));
    // And listed by the user-collections area with its mark.
    const list = await app.api("GET", "/user-collections", { token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((x: { id: string }) => x.id === c.id)).toMatchObject({ is_ai_generated: true, prompt: "black jeans under 100" });
  });

  it("uses the shopper's gender preference when the prompt names none, the prompt's when it does", async () => {
    const { token, id } = await app.createUser();
    await app.database.db.user.update({ where: { id }, data: { metadata: { interests: "womenswear" } } });
    const r = await generate(token, "linen summer pieces");
    expect(r.status).toBe(201);
    expect(r.body.data.products.length).toBeGreaterThan(0);
    for (const p of r.body.data.products) expect(["womenswear", "both"]).toContain(p.target_gender);
    expect(r.body.data.description).toContain("for women");

    const men = await generate(token, "linen shirts for men");
    for (const p of men.body.data.products) expect(["menswear", "both"]).toContain(p.target_gender);
  });

  it("interests rank matching products higher", async () => {
    const plain = await app.createUser();
    const fan = await app.createUser();
    await app.database.db.user.update({ where: { id: fan.id }, data: { metadata: { interests: "denim" } } });
    const a = await generate(plain.token, "shirts");
    const b = await generate(fan.token, "shirts");
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const denimShare = async (ids: string[]) => {
      const rows = await app.database.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM products p WHERE p.id = ANY(${ids}::text[]) AND p.search_vector @@ to_tsquery('english', 'denim')`;
      return Number(rows[0].n) / ids.length;
    };
    const ids = (r: typeof a) => r.body.data.products.map((p: { id: string }) => p.id);
    expect(await denimShare(ids(b))).toBeGreaterThanOrEqual(await denimShare(ids(a)));
    expect(b.body.data.description).toContain("Chosen with your interests in mind: denim.");
  });

  it("keeps variety: at most 4 of one product type while others are left", async () => {
    const { token } = await app.createUser();
    const r = await generate(token, "smart casual office wardrobe");
    expect(r.status).toBe(201);
    const counts = new Map<string, number>();
    for (const p of r.body.data.products) counts.set(p.productType, (counts.get(p.productType) ?? 0) + 1);
    if (counts.size > 1) for (const n of counts.values()) expect(n).toBeLessThanOrEqual(Math.max(4, r.body.data.products.length - 4 * (counts.size - 1)));
    const picked = pickVaried(
      [
        ...Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, productType: "Jeans", storeId: "s1" })),
        { id: "b0", productType: "Shirts", storeId: "s2" },
      ],
      5,
    );
    expect(picked.map((p) => p.id)).toEqual(["a0", "a1", "a2", "a3", "b0"]);
  });

  it("the users' variant answers the collection without the data wrapper", async () => {
    const { token } = await app.createUser({ authProvider: "guest" });
    const r = await generate(token, "navy knitwear", "/users/personalized-collection");
    expect(r.status).toBe(201);
    expect(r.body.data).toBeUndefined();
    expect(r.body).toMatchObject({ is_ai_generated: true, prompt: "navy knitwear" });
    expect(r.body.products.length).toBeGreaterThan(0);
  });

  it("nothing matching is a 422 that says so, and nothing is stored", async () => {
    const { token, id } = await app.createUser();
    for (const path of ["/user-collections/generate-personalized-collection", "/users/personalized-collection"]) {
      const r = await generate(token, "qwertyuiop zxcvbnm", path);
      expect(r.status).toBe(422);
      expect(r.body.error.message).toBe('No products match "qwertyuiop zxcvbnm". Try other words, e.g. "linen shirts for summer" or "black jeans under $80".');
      const priced = await generate(token, "jeans under 3", path);
      expect(priced.status).toBe(422);
    }
    expect(await app.database.db.userCollection.count({ where: { user_id: id } })).toBe(0);
  });

  it("refuses anonymous callers and bad prompts", async () => {
    expect((await generate(undefined, "black jeans")).status).toBe(401);
    expect((await generate(undefined, "black jeans", "/users/personalized-collection")).status).toBe(401);
    const { token } = await app.createUser();
    const missing = await generate(token, undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("prompt is required");
    expect((await generate(token, "ab")).body.error.message).toBe('prompt: needs a few words, e.g. "linen shirts for summer"');
    expect((await generate(token, "x".repeat(301))).status).toBe(400);
  });

  it("another shopper cannot read or change the generated collection", async () => {
    const owner = await app.createUser();
    const other = await app.createUser();
    const c = (await generate(owner.token, "white t-shirts")).body.data;
    expect((await app.api("GET", `/user-collections/${c.id}`, { token: other.token })).status).toBe(404);
    expect((await app.api("DELETE", `/user-collections/${c.id}`, { token: other.token })).status).toBe(404);
    expect((await app.api("GET", "/user-collections", { token: other.token })).body.data).toEqual([]);
    expect(await app.database.db.userCollection.count({ where: { id: c.id } })).toBe(1);
  });
});
