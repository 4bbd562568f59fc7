/**
 * Material categories (app/contract/materials.ts): the tree's CRUD for admins with catalog.edit
 * (create, rename, move, reorder, delete with the subtree or 409 when used), the public tree, the
 * companion's reanalyze / apply calls mapping composition text onto it, and search's materials
 * filter finding a category's subtree. Roles: editor, admin without catalog.edit, shopper, anonymous.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureMaterialTree } from "../../app/services/materials/default-tree";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";

let app: TestApp;
type Caller = { id: string; token: string };
let editor: Caller;
let otherAdmin: Caller;
let shopper: Caller;
type Node = { id: string; name: string; handle: string; parent_id: string | null; depth: number; path: string[]; sort_order: number; product_count: number; keywords: string[] };

const call = (who: Caller | null, method: string, path: string, body?: unknown) => app.api(method, path, { body, token: who?.token ?? null });
async function tree(): Promise<Node[]> {
  const res = await call(null, "GET", "/materials");
  expect(res.status).toBe(200);
  return res.body.categories;
}
const byHandle = async (h: string) => (await tree()).find((c) => c.handle === h)!;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await ensureMaterialTree(db);
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  shopper = await app.createUser();
  await createProduct(db, { n: 7101, title: "Merino Crew Knit", productType: "Knitwear", descriptionHtml: "<p>Fine knit.</p><p>Composition: 80% merino wool, 20% polyamide</p>" });
  await createProduct(db, { n: 7102, title: "Stretch Tee", productType: "T-Shirts", descriptionHtml: "<p>A soft tee.</p>", companion: { taobao_id: "6407102", taobao_title: "2026春夏新款 95%棉 5%氨纶 T恤" } });
  await createProduct(db, { n: 7103, title: "Plain Poplin Shirt", productType: "Shirts", descriptionHtml: "<p>Crisp.</p>" });
});
afterAll(() => app?.close());

describe("the tree", () => {
  it("is public, depth first, with depth, path and the seeded keywords", async () => {
    const t = await tree();
    expect(t.slice(0, 3).map((c) => c.path.join("/"))).toEqual(["natural-fibres", "natural-fibres/cotton", "natural-fibres/linen"]);
    const merino = t.find((c) => c.handle === "merino")!;
    expect(merino).toMatchObject({ depth: 2, path: ["natural-fibres", "wool", "merino"], product_count: 0 });
    expect((await byHandle("elastane")).keywords).toContain("氨纶");
    expect((await call(null, "GET", `/materials/${merino.id}`)).body.name).toBe("Merino");
    expect((await call(null, "GET", "/materials/nope")).status).toBe(404);
  });

  it("an editor creates (handle from the name, last among siblings), renames, re-keywords; bad input 400, a taken handle 409, unknown parent 404", async () => {
    const cellulosics = await byHandle("cellulosics");
    const created = await call(editor, "POST", "/materials", { name: "Bamboo Viscose", parent_id: cellulosics.id, keywords: ["Bamboo", "竹纤维", "bamboo"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ handle: "bamboo-viscose", parent_id: cellulosics.id, depth: 1, keywords: ["bamboo", "竹纤维"] });
    const siblings = (await tree()).filter((c) => c.parent_id === cellulosics.id);
    expect(siblings.at(-1)!.handle).toBe("bamboo-viscose");

    const renamed = await call(editor, "PATCH", `/materials/${created.body.id}`, { name: "Bamboo", handle: "bamboo" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Bamboo", handle: "bamboo", path: ["cellulosics", "bamboo"] });

    expect((await call(editor, "POST", "/materials", { name: "" })).status).toBe(400);
    expect((await call(editor, "POST", "/materials", { name: "X", handle: "Not A Handle" })).status).toBe(400);
    expect((await call(editor, "PATCH", `/materials/${created.body.id}`, {})).status).toBe(400);
    const taken = await call(editor, "POST", "/materials", { name: "Cotton" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe("A material category with this handle already exists");
    expect((await call(editor, "PATCH", `/materials/${created.body.id}`, { handle: "cotton" })).status).toBe(409);
    expect((await call(editor, "POST", "/materials", { name: "Orphan", parent_id: "missing" })).status).toBe(404);
    expect((await call(editor, "PATCH", "/materials/missing", { name: "x" })).status).toBe(404);
  });

  it("moves a category with its subtree; never under itself or its own subcategory (400)", async () => {
    const wool = await byHandle("wool");
    const merino = await byHandle("merino");
    const intoOwn = await call(editor, "PATCH", `/materials/${wool.id}`, { parent_id: merino.id });
    expect(intoOwn.status).toBe(400);
    expect(intoOwn.body.error.message).toBe("A material category cannot be moved under itself or one of its subcategories");
    expect((await call(editor, "PATCH", `/materials/${wool.id}`, { parent_id: wool.id })).status).toBe(400);

    const moved = await call(editor, "PATCH", `/materials/${wool.id}`, { parent_id: null });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ depth: 0, path: ["wool"] });
    expect((await byHandle("cashmere")).path).toEqual(["wool", "cashmere"]);
    const back = await call(editor, "PATCH", `/materials/${wool.id}`, { parent_id: (await byHandle("natural-fibres")).id });
    expect(back.body.path).toEqual(["natural-fibres", "wool"]);
  });

  it("reorders siblings; the ids must be exactly the parent's subcategories (400)", async () => {
    const synthetics = await byHandle("synthetics");
    const kids = (await tree()).filter((c) => c.parent_id === synthetics.id).map((c) => c.id);
    const reversed = [...kids].reverse();
    const res = await call(editor, "PUT", "/materials/order", { parent_id: synthetics.id, ids: reversed });
    expect(res.status).toBe(200);
    expect(res.body.categories.filter((c: Node) => c.parent_id === synthetics.id).map((c: Node) => c.id)).toEqual(reversed);
    expect((await call(editor, "PUT", "/materials/order", { parent_id: synthetics.id, ids: reversed.slice(1) })).status).toBe(400);
    expect((await call(editor, "PUT", "/materials/order", { parent_id: synthetics.id, ids: [...reversed, reversed[0]] })).status).toBe(400);
    expect((await call(editor, "PUT", "/materials/order", { parent_id: null, ids: reversed })).status).toBe(400);
    const top = (await tree()).filter((c) => c.parent_id === null).map((c) => c.id);
    expect((await call(editor, "PUT", "/materials/order", { parent_id: null, ids: top })).status).toBe(200);
  });

  it("admins without catalog.edit and shoppers get 403, anonymous callers 401, on every write", async () => {
    const cotton = await byHandle("cotton");
    for (const who of [otherAdmin, shopper]) {
      expect((await call(who, "POST", "/materials", { name: "Jute" })).status).toBe(403);
      expect((await call(who, "PATCH", `/materials/${cotton.id}`, { name: "Cotton!" })).status).toBe(403);
      expect((await call(who, "PUT", "/materials/order", { parent_id: null, ids: [cotton.id] })).status).toBe(403);
      expect((await call(who, "DELETE", `/materials/${cotton.id}`)).status).toBe(403);
    }
    expect((await call(null, "POST", "/materials", { name: "Jute" })).status).toBe(401);
    expect((await call(null, "DELETE", `/materials/${cotton.id}`)).status).toBe(401);
    expect((await byHandle("cotton")).name).toBe("Cotton");
  });
});

describe("the companion maps composition text onto the tree", () => {
  it("reanalyze-materials reads the description: merino (under wool) and nylon with percentages, and blends", async () => {
    const res = await call(editor, "POST", `/shopify/companion/reanalyze-materials/${encodeURIComponent(pgid(7101))}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.materials).toEqual([
      expect.objectContaining({ handle: "merino", percent: 80 }),
      expect.objectContaining({ handle: "nylon", percent: 20 }),
      expect.objectContaining({ handle: "blends", percent: null }),
    ]);
    expect((await byHandle("merino")).product_count).toBe(1);
  });

  it("reanalyze-materials reads the Taobao title (95%棉 5%氨纶) when the description has none", async () => {
    const res = await call(editor, "POST", `/shopify/companion/reanalyze-materials/${encodeURIComponent(pgid(7102))}`);
    expect(res.status).toBe(200);
    expect(res.body.materials.map((m: { handle: string; percent: number | null }) => [m.handle, m.percent])).toEqual([["cotton", 95], ["elastane", 5], ["blends", null]]);
  });

  it("apply-material-sections maps the Composition section and replaces the product's materials; nothing found keeps them", async () => {
    const id = encodeURIComponent(pgid(7103));
    const res = await call(editor, "POST", `/shopify/companion/apply-material-sections/${id}`, {
      material_sections: [{ title: "Composition", content: "cotton 97% spandex 3%" }, { title: "Care", content: "Wash cold" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.materials.map((m: { handle: string }) => m.handle)).toEqual(["cotton", "elastane", "blends"]);
    const again = await call(editor, "POST", `/shopify/companion/apply-material-sections/${id}`, { material_sections: [{ title: "Composition", content: "100% linen" }] });
    expect(again.body.materials).toEqual([expect.objectContaining({ handle: "linen", percent: 100 })]);
    const none = await call(editor, "POST", `/shopify/companion/reanalyze-materials/${id}`);
    expect(none.body.found).toBe(false);
    expect(none.body.materials.map((m: { handle: string }) => m.handle)).toEqual(["linen"]);
    expect((await call(shopper, "POST", `/shopify/companion/reanalyze-materials/${id}`)).status).toBe(403);
  });
});

describe("search by material", () => {
  const handles = async (filters: Record<string, unknown>) => {
    const res = await app.api("POST", "/search", { body: { query: "", filters, limit: 50 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.results as { id: string }[]).map((p) => p.id).sort();
  };

  it("a category finds the products mapped to it or under it, and the products whose text names it", async () => {
    expect(await handles({ materials: ["merino"] })).toEqual([pgid(7101)]);
    // Wool's subtree holds merino; the knit's text also says wool.
    expect(await handles({ materials: ["wool"] })).toEqual([pgid(7101)]);
    // A top-level group by handle: only through the tree (no product text says "natural fibres").
    expect(await handles({ materials: ["natural-fibres"] })).toEqual([pgid(7101), pgid(7102), pgid(7103)]);
    expect(await handles({ materials: ["elastane"] })).toEqual([pgid(7102)]);
    expect(await handles({ materials: ["linen"] })).toEqual([pgid(7103)]);
    expect(await handles({ materials: ["nylon", "linen"] })).toEqual([pgid(7101), pgid(7103)]);
    expect(await handles({ materials: ["no-such-material"] })).toEqual([]);
  });
});

describe("deleting", () => {
  it("a used category (or one with a used subcategory) is refused with 409 and nothing is deleted", async () => {
    const wool = await byHandle("wool");
    const res = await call(editor, "DELETE", `/materials/${wool.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("This material category (or one under it) is used by 1 product: it cannot be deleted");
    expect(await byHandle("merino")).toBeDefined();
  });

  it("an unused category goes with its subtree", async () => {
    const leather = await byHandle("leather");
    const before = (await tree()).length;
    const res = await call(editor, "DELETE", `/materials/${leather.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deleted: 2 });
    const after = await tree();
    expect(after.length).toBe(before - 2);
    expect(after.some((c) => c.handle === "suede")).toBe(false);
    expect((await call(editor, "DELETE", `/materials/${leather.id}`)).status).toBe(404);
  });
});
