/**
 * The Products admin screens through their loaders and actions in local mode:
 * app/routes/app.products.tsx (the list: guard, filters, sort, pages, companion counts, inventory
 * jobs started and polled) and app/routes/app.products.$id.tsx (one product and its companion:
 * every action intent with its success and its refusal), and both pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { navigationFor } from "../../app/services/staff.server";
import { CommerceError, type CommercePort } from "../../app/providers/commerce/port";
import { createTestApp, withCommerce as withCommerceOf, type TestApp } from "../helpers/app";
import { createProduct, mgid, pgid, vgid } from "./products-fixtures";
import { renderRoute, staffForm, staffRequest, thrownResponse as thrown } from "../helpers/route";

type ListModule = typeof import("../../app/routes/app.products");
type DetailModule = typeof import("../../app/routes/app.products.$id");
let list: ListModule;
let detail: DetailModule;
let app: TestApp;
let editor: { token: string };
let otherAdmin: { token: string };
let vendorUser: { token: string };
let storeId: string;

const db = () => app.database.db;
const day = (n: number) => new Date(Date.UTC(2026, 0, n));
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

const loadList = (token: string | null, query = "") => list.loader({ request: staffRequest(`/app/products${query}`, token), params: {}, context: {} });
async function listData(token: string, query = "") {
  const data = await loadList(token, query);
  if (!("filters" in data) || !data.list) throw new Error("no list in the answer");
  return data;
}
const actList = (token: string | null, fields: Record<string, string>) => list.action({ request: staffForm("/app/products", token, fields), params: {}, context: {} });

const detailPath = (n: number) => `/app/products/${encodeURIComponent(pgid(n))}`;
const loadDetail = (token: string | null, id: string) => detail.loader({ request: staffRequest(`/app/products/${encodeURIComponent(id)}`, token), params: { id }, context: {} });
const actDetail = (token: string | null, n: number, fields: Record<string, string> | [string, string][]) =>
  detail.action({ request: staffForm(detailPath(n), token, fields), params: { id: pgid(n) }, context: {} });
const act = (n: number, fields: Record<string, string> | [string, string][]) => actDetail(editor.token, n, fields);

const withCommerce = <K extends keyof CommercePort>(name: K, impl: CommercePort[K], run: () => Promise<void>) => withCommerceOf(app, name, impl, run);

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.products");
  detail = await import("../../app/routes/app.products.$id");
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["media.manage", "reviews.moderate"] });
  const vendor = await db().vendor.create({ data: { name: "Northwind", handle: "northwind" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  storeId = (await db().store.create({ data: { name: "Northwind Atelier", handle: "northwind-atelier", vendor_id: vendor.id } })).id;
  // The list's products (newest first: 8603, 8602, 8601).
  await createProduct(db(), { n: 8601, title: "Alpine Fleece Jacket", gender: "menswear", vendor: "Northwind Atelier", storeId, price: 120, companion: { status: "active" }, createdAt: day(1) });
  await createProduct(db(), { n: 8602, title: "Breton Striped Top", gender: "womenswear", status: "draft", inventory: 0, price: 40, companion: { status: "pending_review", taobao_id: "TB-8602" }, createdAt: day(2) });
  await createProduct(db(), { n: 8603, title: "Canvas Market Tote", status: "archived", price: 25, companion: false, createdAt: day(3) });
  // The detail page's products (older, so that they come after the list's on the first page).
  await createProduct(db(), {
    n: 8610,
    title: "Options Shirt",
    colours: { Navy: "#1f2a44", Sand: "#d6c29f", Rust: "#b7410e" },
    images: 3,
    descriptionHtml: "<p>Made of 100% cotton.</p>",
    companion: { status: "draft", taobao_title: "Cotton shirt" },
    createdAt: day(0),
  });
  await createProduct(db(), { n: 8611, title: "Plain Tee", companion: false, createdAt: day(0) });
  await createProduct(db(), { n: 8612, title: "Delete Me", images: 1, companion: false, createdAt: day(0) });
  await createProduct(db(), { n: 8613, title: "One Size Scarf", colours: { Grey: "#808080" }, sizes: ["One Size"], images: 1, descriptionHtml: "<p>A soft scarf.</p>", companion: { status: "archived" }, createdAt: day(0) });
});
afterAll(() => app?.close());

describe("guards and navigation", () => {
  it("both pages need catalog.edit: 403 for other admins and vendors, for loaders and actions", async () => {
    for (const token of [otherAdmin.token, vendorUser.token]) {
      expect((await thrown(loadList(token))).status).toBe(403);
      expect((await thrown(actList(token, { intent: "inventory-all" }))).status).toBe(403);
      expect((await thrown(loadDetail(token, pgid(8601)))).status).toBe(403);
      expect((await thrown(actDetail(token, 8612, { intent: "delete-product" }))).status).toBe(403);
    }
    const res = await thrown(loadList(otherAdmin.token));
    expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
    expect((await thrown(loadList(vendorUser.token))).status).toBe(403);
    expect(await db().product.count({ where: { id: pgid(8612) } })).toBe(1);
    expect(await db().job.count()).toBe(0);
  });

  it("signed out, both pages send to the login with the page to come back to", async () => {
    const out = await thrown(loadList(null, "?status=draft"));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fproducts%3Fstatus%3Ddraft");
    const d = await thrown(loadDetail(null, pgid(8601)));
    expect(d.status).toBe(302);
    expect(d.headers.get("location")).toBe(`/app/login?next=${encodeURIComponent(detailPath(8601))}`);
    expect((await thrown(actDetail(null, 8612, { intent: "delete-product" }))).status).toBe(302);
    expect((await thrown(actList(null, { intent: "inventory-all" }))).status).toBe(302);
  });

  it("the navigation shows Products only with catalog.edit", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).toContain("/app/products");
    expect(navigationFor({ role: "ADMIN", permissions: ["media.manage"] }).map((n) => n.url)).not.toContain("/app/products");
  });
});

describe("the list (loader)", () => {
  it("lists every product of every status, newest first, with companion counts and filter options", async () => {
    const data = await listData(editor.token);
    expect(data.list.total).toBe(7);
    expect(data.list.products.slice(0, 3).map((p) => p.title)).toEqual(["Canvas Market Tote", "Breton Striped Top", "Alpine Fleece Jacket"]);
    expect(data.filters).toEqual({ q: "", status: undefined, companion: undefined, gender: undefined, vendor: "", store: "", sort: "newest", page: 1 });
    expect(data.counts).toEqual({ draft: 1, pending_review: 1, active: 1, archived: 1, none: 3 });
    expect(data.options.stores).toEqual([{ id: storeId, name: "Northwind Atelier" }]);
    expect(data.options.vendors.map((v) => v.name)).toEqual(expect.arrayContaining(["Northwind Atelier", "Studio North"]));
    const jacket = data.list.products.find((p) => p.id === pgid(8601))!;
    expect(jacket).toMatchObject({ status: "active", target_gender: "menswear", vendor: "Northwind Atelier", store: { id: storeId, name: "Northwind Atelier" }, variantCount: 2, companion: { status: "active", verified: false } });
    expect(jacket.price).toEqual({ min: "120.00", max: "121.00", currencyCode: expect.any(String) });
    expect(data.job).toBeNull();
  });

  it("filters by status, companion status, gender, vendor, store and text; sorts; unknown values are ignored", async () => {
    const titles = async (query: string) => (await listData(editor.token, query)).list.products.map((p) => p.title);
    expect(await titles("?status=draft")).toEqual(["Breton Striped Top"]);
    expect(await titles("?companion=pending_review")).toEqual(["Breton Striped Top"]);
    expect(await titles("?companion=none")).toEqual(["Canvas Market Tote", "Plain Tee", "Delete Me"]);
    expect(await titles("?gender=womenswear")).toEqual(["Breton Striped Top"]);
    expect(await titles(`?store=${storeId}`)).toEqual(["Alpine Fleece Jacket"]);
    expect(await titles("?vendor=Northwind%20Atelier")).toEqual(["Alpine Fleece Jacket"]);
    expect(await titles("?q=TB-8602")).toEqual(["Breton Striped Top"]);
    expect(await titles("?q=8603")).toEqual(["Canvas Market Tote"]);
    expect(await titles("?q=fleece")).toEqual(["Alpine Fleece Jacket"]);
    expect((await titles("?sort=price-desc")).slice(0, 2)).toEqual(["Alpine Fleece Jacket", "Options Shirt"]);
    expect((await titles("?sort=title")).slice(0, 2)).toEqual(["Alpine Fleece Jacket", "Breton Striped Top"]);
    const odd = await listData(editor.token, "?status=gone&gender=nope&sort=random&page=-2");
    expect(odd.filters).toMatchObject({ status: undefined, gender: undefined, sort: "newest", page: 1 });
    expect(odd.list.total).toBe(7);
  });

  it("pages 25 at a time; a page past the end is empty", async () => {
    const page2 = await listData(editor.token, "?page=2");
    expect(page2.list).toMatchObject({ page: 2, pageSize: 25, pages: 1, total: 7 });
    expect(page2.list.products).toEqual([]);
  });
});

describe("inventory jobs (list action)", () => {
  it("starts an update of every inventory; a second click answers the same queued job; the page polls its progress", async () => {
    const r = await actList(editor.token, { intent: "inventory-all" });
    expect(r).toEqual({ ok: true, jobId: expect.any(String), message: "Updating the inventory of every product from the store…" });
    if (!r.ok) throw new Error("refused");
    expect(await actList(editor.token, { intent: "inventory-all" })).toMatchObject({ jobId: r.jobId });
    const queued = await loadList(editor.token, `?inventoryJob=${r.jobId}`);
    expect(queued.list).toBeNull();
    expect(queued.job).toMatchObject({ id: r.jobId, status: "queued", progress: 0, result: null });
    await withCommerce("inventoryLevels", async () => [{ productId: pgid(8602), variantId: vgid(8602, 0), available: 6 }], async () => {
      expect(await drain()).toBeGreaterThanOrEqual(1);
    });
    const done = await loadList(editor.token, `?inventoryJob=${r.jobId}`);
    expect(done.job).toMatchObject({ status: "completed", progress: 100, result: { products: 1, variants: 1, changed: 1 }, error: null });
    expect((await db().product.findUniqueOrThrow({ where: { id: pgid(8602) } })).totalInventory).toBe(6);
  });

  it("starts an update of out-of-stock inventories as its own job", async () => {
    const r = await actList(editor.token, { intent: "inventory-out-of-stock" });
    expect(r).toEqual({ ok: true, jobId: expect.any(String), message: "Updating the inventory of out-of-stock products from the store…" });
    const job = await db().job.findFirstOrThrow({ where: { id: r.ok ? r.jobId : "" } });
    expect(job.payload).toEqual({ outOfStockOnly: true });
  });

  it("an unknown job polls as null; an unknown intent is refused", async () => {
    expect((await loadList(editor.token, "?inventoryJob=nope")).job).toBeNull();
    expect(await actList(editor.token, { intent: "reindex" })).toEqual({ ok: false, error: "Unknown action" });
    expect(await actList(editor.token, {})).toEqual({ ok: false, error: "Unknown action" });
  });

  it("the detail page's own path answers no list", async () => {
    const data = await list.loader({ request: staffRequest(detailPath(8601), editor.token), params: { id: pgid(8601) }, context: {} });
    expect(data).toEqual({ list: null, job: null });
  });
});

describe("the detail (loader)", () => {
  it("loads the product (hidden statuses too) and its companion, by GID or bare number", async () => {
    const data = await loadDetail(editor.token, pgid(8610));
    expect(data.product).toMatchObject({ id: pgid(8610), title: "Options Shirt", totalInventory: 30 });
    expect(data.product.images.map((i) => i.id)).toEqual([mgid(8610, 0), mgid(8610, 1), mgid(8610, 2)]);
    expect(data.product.variants).toHaveLength(6);
    expect(data.companion).toMatchObject({ status: "draft", taobao_title: "Cotton shirt", presale_variant_ids: [], material_sections: [] });
    const archived = await loadDetail(editor.token, "8603");
    expect(archived.product.status).toBe("archived");
    expect(archived.companion).toBeNull();
  });

  it("an unknown product is the 404 page with its message", async () => {
    const res = await thrown(loadDetail(editor.token, pgid(999999)));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ staffError: "This product does not exist (it may have been deleted)." });
  });
});

describe("the detail (actions)", () => {
  it("create-companion: a draft companion; a second one is refused", async () => {
    expect(await act(8611, { intent: "create-companion" })).toEqual({ ok: true, intent: "create-companion", message: "Companion created (draft)." });
    expect((await loadDetail(editor.token, pgid(8611))).companion).toMatchObject({ status: "draft" });
    expect(await act(8611, { intent: "create-companion" })).toEqual({ ok: false, intent: "create-companion", error: "This product already has a companion" });
  });

  it("status: follows the transition table with a reason; invalid and disallowed changes are refused", async () => {
    expect(await act(8611, { intent: "status", status: "pending_review", reason: "Photos checked" })).toEqual({ ok: true, intent: "status", message: "Status changed to Pending review." });
    expect((await loadDetail(editor.token, pgid(8611))).companion).toMatchObject({ status: "pending_review", status_reason: "Photos checked" });
    expect(await act(8611, { intent: "status", status: "archived" })).toEqual({
      ok: false,
      intent: "status",
      error: "Cannot change a companion's status from pending_review to archived (from pending_review: active)",
    });
    const bad = await act(8611, { intent: "status", status: "sold" });
    expect(bad).toMatchObject({ ok: false, intent: "status", error: expect.stringMatching(/^status: /) });
  });

  it("verify: the companion and the product become active; an archived companion is refused", async () => {
    expect(await act(8611, { intent: "verify" })).toEqual({ ok: true, intent: "verify", message: "Verified: the companion and the product are active." });
    const after = await loadDetail(editor.token, pgid(8611));
    expect(after.companion).toMatchObject({ status: "active", verified_at: expect.any(String) });
    expect(after.product.status).toBe("active");
    expect(await act(8613, { intent: "verify" })).toEqual({ ok: false, intent: "verify", error: "An archived companion cannot be verified: move it back to draft first" });
  });

  it("schedule and clear-schedule: a future date hides the product until then; a bad or past date is refused", async () => {
    const date = new Date(Date.now() + 3 * 86_400_000);
    expect(await act(8610, { intent: "schedule", date: date.toISOString() })).toEqual({ ok: true, intent: "schedule", message: `Scheduled to publish on ${date.toUTCString()}.` });
    const scheduled = await loadDetail(editor.token, pgid(8610));
    expect(scheduled.companion?.scheduled_publish_date).toBe(date.toISOString());
    expect(scheduled.product.publishedAt).toBe(date.toISOString());
    expect(await act(8610, { intent: "clear-schedule" })).toEqual({ ok: true, intent: "clear-schedule", message: "Schedule cleared." });
    expect((await loadDetail(editor.token, pgid(8610))).companion?.scheduled_publish_date).toBeNull();
    expect(await act(8610, { intent: "schedule", date: "" })).toEqual({ ok: false, intent: "schedule", error: "Choose a valid date and time" });
    expect(await act(8610, { intent: "schedule", date: new Date(Date.now() - 60_000).toISOString() })).toEqual({ ok: false, intent: "schedule", error: "scheduled_publish_date must be in the future" });
  });

  it("media-order: saves the order (the first image is featured); a partial list is refused", async () => {
    const order = [mgid(8610, 2), mgid(8610, 0), mgid(8610, 1)];
    expect(await act(8610, { intent: "media-order", mediaIds: JSON.stringify(order) })).toEqual({ ok: true, intent: "media-order", message: "Image order saved." });
    const after = await loadDetail(editor.token, pgid(8610));
    expect(after.product.images.map((i) => i.id)).toEqual(order);
    expect(after.product.featuredImage?.url).toBe("/uploads/images/test/8610-2.jpg");
    expect(await act(8610, { intent: "media-order", mediaIds: JSON.stringify([mgid(8610, 0)]) })).toEqual({
      ok: false,
      intent: "media-order",
      error: "mediaIds must list every image of the product (3), in the new order",
    });
    expect(await act(8610, { intent: "media-order", mediaIds: "not json" })).toMatchObject({ ok: false, intent: "media-order", error: expect.stringMatching(/^mediaIds: /) });
  });

  it("variant-image: attaches an image to a variant; an image of another product is refused", async () => {
    expect(await act(8610, { intent: "variant-image", variantId: vgid(8610, 1), mediaId: mgid(8610, 2) })).toEqual({ ok: true, intent: "variant-image", message: "Variant image saved." });
    expect((await db().productVariant.findUniqueOrThrow({ where: { id: vgid(8610, 1) } })).image_url).toBe("/uploads/images/test/8610-2.jpg");
    expect(await act(8610, { intent: "variant-image", variantId: vgid(8610, 1), mediaId: mgid(8601, 0) })).toEqual({
      ok: false,
      intent: "variant-image",
      error: `Image ${mgid(8601, 0)} is not an image of this product`,
    });
  });

  it("presale: saves the presale variants; a variant of another product is refused", async () => {
    expect(await act(8610, [["intent", "presale"], ["variant_ids", vgid(8610, 4)], ["variant_ids", vgid(8610, 0)]])).toEqual({ ok: true, intent: "presale", message: "Presale variants saved." });
    expect((await loadDetail(editor.token, pgid(8610))).companion?.presale_variant_ids).toEqual([vgid(8610, 4), vgid(8610, 0)]);
    expect(await act(8610, [["intent", "presale"], ["variant_ids", vgid(8601, 0)]])).toEqual({ ok: false, intent: "presale", error: `Variant ${vgid(8601, 0)} is not a variant of this product` });
    // Without a companion there is nothing to save it on.
    expect(await act(8612, [["intent", "presale"], ["variant_ids", vgid(8612, 0)]])).toEqual({ ok: false, intent: "presale", error: "Product companion not found" });
  });

  it("rename-option: renames a value, variant titles follow; a clash or a missing field is refused", async () => {
    expect(await act(8610, { intent: "rename-option", optionName: "Color", from: "Sand", to: "Desert" })).toEqual({ ok: true, intent: "rename-option", message: "Color “Sand” renamed to “Desert”." });
    const after = await loadDetail(editor.token, pgid(8610));
    expect(after.product.options.find((o) => o.name === "Color")?.values).toEqual(["Navy", "Desert", "Rust"]);
    expect(after.product.variants.map((v) => v.title)).toContain("Desert / M");
    expect(await act(8610, { intent: "rename-option", optionName: "Color", from: "Navy", to: "Rust" })).toEqual({ ok: false, intent: "rename-option", error: "Color already has a value Rust" });
    expect(await act(8610, { intent: "rename-option", optionName: "Color", from: "Navy" })).toMatchObject({ ok: false, intent: "rename-option", error: expect.stringMatching(/^to: /) });
  });

  it("delete-option: deletes a value with its variants (and drops them from presale); the only value is refused", async () => {
    expect(await act(8610, { intent: "delete-option", optionName: "Color", value: "Rust" })).toEqual({ ok: true, intent: "delete-option", message: "Color “Rust” deleted; 4 variants left." });
    const after = await loadDetail(editor.token, pgid(8610));
    expect(after.product.variants).toHaveLength(4);
    expect(after.companion?.presale_variant_ids).toEqual([vgid(8610, 0)]);
    expect(await act(8613, { intent: "delete-option", optionName: "Size", value: "One Size" })).toEqual({
      ok: false,
      intent: "delete-option",
      error: "One Size is the only value of Size and cannot be deleted",
    });
  });

  it("materials: re-analyse reads the composition; save keeps sections; apply writes them into the description; bad sections are refused", async () => {
    expect(await act(8610, { intent: "materials-reanalyze" })).toEqual({ ok: true, intent: "materials-reanalyze", message: "Composition read: 100% cotton." });
    expect(await act(8613, { intent: "materials-reanalyze" })).toEqual({ ok: false, intent: "materials-reanalyze", error: "No fibres were found in the description or the Taobao title." });

    const sections = [
      { title: "Composition", content: "100% cotton" },
      { title: "Care", content: "Machine wash cold" },
    ];
    expect(await act(8610, { intent: "materials-save", sections: JSON.stringify(sections) })).toEqual({ ok: true, intent: "materials-save", message: "Material sections saved." });
    expect((await loadDetail(editor.token, pgid(8610))).companion?.material_sections).toEqual(sections);
    expect((await db().product.findUniqueOrThrow({ where: { id: pgid(8610) } })).descriptionHtml).not.toContain("Machine wash cold");

    expect(await act(8610, { intent: "materials-apply", sections: JSON.stringify(sections) })).toEqual({
      ok: true,
      intent: "materials-apply",
      message: "Material sections saved and written into the product description.",
    });
    const html = (await db().product.findUniqueOrThrow({ where: { id: pgid(8610) } })).descriptionHtml;
    expect(html).toContain("<h4>Care</h4><p>Machine wash cold</p>");

    expect(await act(8610, { intent: "materials-save", sections: JSON.stringify([{ title: "", content: "x" }]) })).toEqual({
      ok: false,
      intent: "materials-save",
      error: "material_sections.0.title: A material section needs a title",
    });
    expect(await act(8610, { intent: "materials-apply", sections: "{" })).toMatchObject({ ok: false, intent: "materials-apply", error: expect.stringMatching(/^material_sections: /) });
  });

  it("sync-inventory: reads the product's levels from the store; a product without companion is refused", async () => {
    await withCommerce(
      "inventoryLevels",
      async () => [
        { productId: pgid(8610), variantId: vgid(8610, 0), available: 2 },
        { productId: pgid(8610), variantId: vgid(8610, 1), available: 0 },
      ],
      async () => {
        expect(await act(8610, { intent: "sync-inventory" })).toEqual({ ok: true, intent: "sync-inventory", message: "Inventory read from the store: 12 in stock." });
      },
    );
    expect(await act(8612, { intent: "sync-inventory" })).toEqual({ ok: false, intent: "sync-inventory", error: "Product companion not found" });
  });

  it("delete-product: a store refusal keeps the product; then it is deleted and the page goes back to the list", async () => {
    await withCommerce(
      "deleteProduct",
      async () => {
        throw new CommerceError("Product is part of an open order", [{ field: ["id"], message: "Product is part of an open order" }], 422);
      },
      async () => {
        const refused = await act(8612, { intent: "delete-product" });
        expect(refused).toMatchObject({ ok: false, intent: "delete-product", error: expect.stringMatching(/^Failed to delete product/) });
      },
    );
    expect(await db().product.count({ where: { id: pgid(8612) } })).toBe(1);
    const res = await act(8612, { intent: "delete-product" });
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(302);
    expect((res as Response).headers.get("location")).toBe("/app/products");
    expect(await db().product.count({ where: { id: pgid(8612) } })).toBe(0);
    expect((await thrown(loadDetail(editor.token, pgid(8612)))).status).toBe(404);
  });

  it("an unknown intent is refused", async () => {
    expect(await act(8610, { intent: "explode" })).toEqual({ ok: false, intent: "explode", error: "Unknown action" });
  });
});

describe("the pages (server-rendered)", () => {
  it("the list shows the products with their statuses, companions, prices, the filters and the chart", async () => {
    const data = await listData(editor.token);
    const html = await renderRoute({ id: "routes/app.products", path: "/app/products", url: "/app/products", data, Component: list.default });
    expect(html).toContain("Products");
    expect(html).toContain("6 products"); // one was deleted above
    expect(html).toContain("Update all inventories");
    expect(html).toContain("Update out-of-stock inventories");
    expect(html).toContain(`href="/app/products/${encodeURIComponent(pgid(8601))}"`);
    expect(html).toContain("Alpine Fleece Jacket");
    expect(html).toContain("Breton Striped Top");
    expect(html).toContain("Pending review");
    expect(html).toContain("Menswear");
    expect(html).toContain("120.00–121.00");
    expect(html).toContain("Search by title, handle, type, vendor, tag, product id or Taobao id");
    expect(html).toContain("Companions by status");
    expect(html).toContain("1–6 of 6");
  });

  it("the list's thumbnails are 160 px WebP variants from the image route, never the full-size originals (issue 20)", async () => {
    const data = await listData(editor.token);
    const html = await renderRoute({ id: "routes/app.products", path: "/app/products", url: "/app/products", data, Component: list.default });
    const srcs = [...html.matchAll(/<img[^>]*src="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
    const originals = data.list.products.flatMap((p) => (p.image ? [p.image.url] : []));
    expect(originals.length).toBeGreaterThan(0);
    for (const url of originals) {
      expect(url).toMatch(/^\/uploads\/images\//);
      expect(srcs).toContain(url.replace(/^\/uploads\/images\//, "/images/") + "?w=160&fm=webp");
    }
    expect(srcs.filter((s) => s.startsWith("/uploads/"))).toEqual([]);
  });

  it("the detail shows the product, its companion, images, variants, options, schedule and materials", async () => {
    const data = await loadDetail(editor.token, pgid(8610));
    const html = await renderRoute({ id: "routes/app.products.$id", path: "/app/products/:id", url: detailPath(8610), data, Component: detail.default });
    expect(html).toContain("Options Shirt");
    expect(html).toContain('data-testid="product-status" data-status="active"');
    expect(html).toContain('data-testid="companion-status" data-status="draft"');
    expect(html).toContain("Images (3)");
    expect(html).toContain("Variants (4)");
    expect(html).toContain("Navy / S");
    expect(html).toContain('aria-label="Rename Color Desert"');
    expect(html).toContain("Scheduled publishing");
    expect(html).toContain("Material sections");
    expect(html).toContain("Machine wash cold");
    expect(html).toContain("Delete product");
    expect(html).toContain("12 in stock");

    // A scheduled date reads the same on the server and in any browser: in UTC, field and text alike.
    const when = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 2, 14, 9, 30));
    expect(await act(8610, { intent: "schedule", date: when.toISOString() })).toMatchObject({ ok: true });
    const scheduled = await renderRoute({ id: "routes/app.products.$id", path: "/app/products/:id", url: detailPath(8610), data: await loadDetail(editor.token, pgid(8610)), Component: detail.default });
    expect(scheduled).toContain(`Publishes on 14/03/${when.getUTCFullYear()}, 09:30:00 UTC`);
    expect(scheduled).toContain(`value="${when.getUTCFullYear()}-03-14T09:30"`);
    expect(scheduled).toContain("Publish on (UTC)");
    await act(8610, { intent: "clear-schedule" });

    const bare = await loadDetail(editor.token, pgid(8603));
    const none = await renderRoute({ id: "routes/app.products.$id", path: "/app/products/:id", url: detailPath(8603), data: bare, Component: detail.default });
    expect(none).toContain("This product has no companion yet");
    expect(none).toContain("Create companion");
    expect(none).toContain("Create the companion to edit option values.");
  });
});
