/**
 * The Materials and Product requests admin screens (app/routes/app.materials.tsx,
 * app.product-requests.tsx, app.product-requests_.$id.tsx) through their loaders and actions: the
 * permission guards, every Materials intent (create, edit/move, up, down, delete and its 409
 * banner), the requests list with its tabs and search, and on one request notes, the allowed
 * moves (a forbidden one as a banner) and the Taobao import; then the pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { ensureMaterialTree } from "../../app/services/materials/default-tree";
import { createTestApp, type TestApp } from "../helpers/app";
import { refusal, renderRoute, staffForm, staffRequest } from "../helpers/route";

type MaterialsModule = typeof import("../../app/routes/app.materials");
type ListModule = typeof import("../../app/routes/app.product-requests");
type DetailModule = typeof import("../../app/routes/app.product-requests_.$id");
let materials: MaterialsModule;
let list: ListModule;
let detail: DetailModule;
let app: TestApp;
let editor: { token: string };
let sourcing: { token: string };

const loadMaterials = (token: string | null) => materials.loader({ request: staffRequest("/app/materials", token), params: {}, context: {} });
const actMaterials = (token: string | null, fields: Record<string, string>) => materials.action({ request: staffForm("/app/materials", token, fields), params: {}, context: {} });
const loadList = (token: string | null, query = "") => list.loader({ request: staffRequest(`/app/product-requests${query}`, token), params: {}, context: {} });
const loadRequest = (token: string | null, id: string) => detail.loader({ request: staffRequest(`/app/product-requests/${id}`, token), params: { id }, context: {} });
const actRequest = (token: string | null, id: string, fields: Record<string, string>) => detail.action({ request: staffForm(`/app/product-requests/${id}`, token, fields), params: { id }, context: {} });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  materials = await import("../../app/routes/app.materials");
  list = await import("../../app/routes/app.product-requests");
  detail = await import("../../app/routes/app.product-requests_.$id");
  await ensureMaterialTree(app.database.db);
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  sourcing = await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Screens Vendor", handle: "screens-vendor" } });
  await app.database.db.store.create({ data: { id: "store-screens", name: "Screens Store", handle: "screens-store", vendor_id: vendor.id } });
});
afterAll(() => app?.close());

describe("Materials screen", () => {
  it("is for catalog.edit; the navigation shows it to those admins only", async () => {
    expect(await refusal(loadMaterials(sourcing.token))).toBe(403);
    expect(await refusal(loadMaterials(null))).toBe("login");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).toContain("/app/materials");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.import"] }).map((n) => n.url)).toEqual(expect.arrayContaining(["/app/product-requests"]));
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.import"] }).map((n) => n.url)).not.toContain("/app/materials");
  });

  it("creates a child, edits (moves) it, moves it up and down, and deletes it; a used category's delete is a banner", async () => {
    const handle = async (h: string) => (await loadMaterials(editor.token)).categories.find((c) => c.handle === h)!;
    const synthetics = await handle("synthetics");
    expect(await actMaterials(editor.token, { intent: "create", name: "Polypropylene", keywords: "polypropylene, 丙纶", parent_id: synthetics.id })).toEqual({ ok: true, message: "Added “Polypropylene”." });
    expect((await handle("polypropylene")).keywords).toEqual(["polypropylene", "丙纶"]);
    expect(await actMaterials(editor.token, { intent: "create", name: "" })).toMatchObject({ ok: false });

    const pp = await handle("polypropylene");
    expect(await actMaterials(editor.token, { intent: "up", categoryId: pp.id })).toEqual({ ok: true, message: "Moved “Polypropylene” up." });
    const kids = (await loadMaterials(editor.token)).categories.filter((c) => c.parent_id === synthetics.id).map((c) => c.handle);
    expect(kids.slice(-2)).toEqual(["polypropylene", "acrylic"]);
    expect(await actMaterials(editor.token, { intent: "down", categoryId: pp.id })).toEqual({ ok: true, message: "Moved “Polypropylene” down." });
    expect(await actMaterials(editor.token, { intent: "down", categoryId: pp.id })).toEqual({ ok: true, message: "“Polypropylene” is already last." });

    const cellulosics = await handle("cellulosics");
    expect(await actMaterials(editor.token, { intent: "update", categoryId: pp.id, name: "Polypropylene", parent_id: cellulosics.id, keywords: "polypropylene" })).toMatchObject({ ok: true });
    expect((await handle("polypropylene")).path).toEqual(["cellulosics", "polypropylene"]);

    const cotton = await handle("cotton");
    await app.database.db.product.create({ data: { id: "gid://shopify/Product/9901", title: "Tee", handle: "tee-9901" } });
    await app.database.db.productMaterial.create({ data: { product_id: "gid://shopify/Product/9901", material_category_id: cotton.id, percent: 100 } });
    expect(await actMaterials(editor.token, { intent: "delete", categoryId: cotton.id })).toEqual({ ok: false, error: "This material category (or one under it) is used by 1 product: it cannot be deleted" });
    expect(await actMaterials(editor.token, { intent: "delete", categoryId: pp.id })).toEqual({ ok: true, message: "The category is deleted." });
    expect(await actMaterials(sourcing.token, { intent: "delete", categoryId: pp.id }).catch((e: Response) => e.status)).toBe(403);
  });

  it("renders the tree indented by depth with its actions", async () => {
    const data = await loadMaterials(editor.token);
    const html = await renderRoute({ id: "routes/app.materials", path: "/app/materials", url: "/app/materials", data, Component: materials.default });
    expect(html).toContain("Materials");
    expect(html).toContain('data-handle="merino" data-depth="2"');
    expect(html).toContain("Add child");
    expect(html).toContain("Move Merino up");
  });
});

describe("Product requests screens", () => {
  let id: string;
  beforeAll(async () => {
    const db = app.database.db;
    id = (await db.productRequest.create({ data: { brand: "Our Legacy", garment: "Box shirt", link: "https://item.taobao.com/item.htm?id=640000004321", email: "g@example.test" } })).id;
    await db.productRequest.create({ data: { brand: "Acne", garment: "Scarf", email: "a@example.test", status: "declined" } });
  });

  it("is for catalog.import", async () => {
    expect(await refusal(loadList(editor.token))).toBe(403);
    expect(await refusal(loadRequest(editor.token, id))).toBe(403);
    expect(await refusal(loadList(null))).toBe("login");
  });

  it("lists pending by default with counts, other tabs and a search", async () => {
    const pending = await loadList(sourcing.token);
    expect(pending.tab).toBe("pending");
    expect(pending.requests.map((r) => r.brand)).toEqual(["Our Legacy"]);
    expect(pending.counts).toEqual({ pending: 1, in_review: 0, sourced: 0, declined: 1 });
    expect((await loadList(sourcing.token, "?status=all")).requests).toHaveLength(2);
    expect((await loadList(sourcing.token, "?status=all&q=acne")).requests.map((r) => r.brand)).toEqual(["Acne"]);
    const html = await renderRoute({ id: "routes/app.product-requests", path: "/app/product-requests", url: "/app/product-requests", data: pending, Component: list.default });
    expect(html).toContain("Product requests");
    expect(html).toContain(`href="/app/product-requests/${id}"`);
    expect(html).toContain("Taobao");
  });

  it("on a request: notes, a forbidden move as a banner, the import, then sourced", async () => {
    expect(await actRequest(sourcing.token, id, { intent: "notes", notes: "Check sizes" })).toEqual({ ok: true, message: "Notes saved." });
    expect(await actRequest(sourcing.token, id, { intent: "move", status: "sourced" })).toEqual({ ok: false, error: "A pending request cannot be moved to sourced" });
    expect(await actRequest(sourcing.token, id, { intent: "import", store_id: "" })).toEqual({ ok: false, error: "Choose the store to import into" });
    expect(await actRequest(sourcing.token, id, { intent: "import", store_id: "store-screens" })).toEqual({ ok: true, message: "Import started (1 item): follow it on the Taobao import screen." });
    const data = await loadRequest(sourcing.token, id);
    expect(data.request).toMatchObject({ status: "in_review", notes: "Check sizes", next_statuses: ["pending", "sourced", "declined"] });
    const html = await renderRoute({ id: "routes/app.product-requests_.$id", path: "/app/product-requests/:id", url: `/app/product-requests/${id}`, data, Component: detail.default });
    expect(html).toContain("Our Legacy: Box shirt");
    expect(html).toContain("Start a Taobao import");
    expect(html).toContain("Mark sourced");
    expect(html).toContain(`/app/import?ids=${encodeURIComponent("https://item.taobao.com/item.htm?id=640000004321")}`);
    expect(await actRequest(sourcing.token, id, { intent: "move", status: "sourced" })).toEqual({ ok: true, message: "Marked sourced: the shopper is emailed." });
    expect((await app.database.db.emailOutbox.findMany({ where: { kind: "product_request_sourced" } })).map((m) => m.to)).toEqual(["g@example.test"]);
  });
});
