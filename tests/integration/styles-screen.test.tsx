/**
 * The Styles admin screens (app/routes/app.styles.tsx and app.styles_.$id.tsx) through their
 * loaders and actions in local mode: the catalog.edit guard, the list (search, featured filter,
 * sort, pages, categorisation queue), creating a style, and on one style every action intent
 * (details, score, add and remove products, categorise, delete) with its success and refusal
 * messages; then both pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";
import { redirectLocation, refusal, renderRoute, staffForm, staffRequest, thrownResponse as thrown } from "../helpers/route";

type ListModule = typeof import("../../app/routes/app.styles");
type DetailModule = typeof import("../../app/routes/app.styles_.$id");
let list: ListModule;
let detail: DetailModule;
let app: TestApp;
let editor: { token: string };
let dropsOnly: { token: string };
let vendorUser: { token: string };

const loadList = (token: string | null, query = "") => list.loader({ request: staffRequest(`/app/styles${query}`, token), params: {}, context: {} });
const actList = (token: string | null, fields: Record<string, string>) => list.action({ request: staffForm("/app/styles", token, fields), params: {}, context: {} });
const loadStyle = (token: string | null, id: string, query = "") => detail.loader({ request: staffRequest(`/app/styles/${id}${query}`, token), params: { id }, context: {} });
const actStyle = (token: string | null, id: string, fields: Record<string, string> | [string, string][]) =>
  detail.action({ request: staffForm(`/app/styles/${id}`, token, fields), params: { id }, context: {} });
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();

/** Creates a style through the list's action and answers its id (the action redirects to it). */
async function create(fields: Record<string, string>) {
  const location = await redirectLocation(actList(editor.token, { intent: "create", ...fields }));
  expect(location).toMatch(/^\/app\/styles\/[0-9a-f-]{36}$/);
  return location.replace("/app/styles/", "");
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.styles");
  detail = await import("../../app/routes/app.styles_.$id");
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  dropsOnly = await app.createUser({ role: "ADMIN", permissions: ["drops.manage"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Styles Vendor", handle: "styles-vendor" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  await createProduct(app.database.db, { n: 8201, title: "Fleece Zip Hoodie", productType: "Hoodie", tags: ["streetwear"], price: 60 });
  await createProduct(app.database.db, { n: 8202, title: "Pleated Midi Skirt", productType: "Skirt", tags: ["streetwear", "smart"] });
  await createProduct(app.database.db, { n: 8203, title: "Loopback Sweatshirt", productType: "Sweatshirt", status: "draft" });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("both pages need catalog.edit: 403 for other admins and vendors, login when signed out", async () => {
    const id = await create({ name: "Guarded Style" });
    for (const [token, refused] of [
      [dropsOnly.token, 403],
      [vendorUser.token, 403],
      [null, "login"],
    ] as const) {
      expect(await refusal(loadList(token))).toBe(refused);
      expect(await refusal(actList(token, { intent: "create", name: "Nope" }))).toBe(refused);
      expect(await refusal(loadStyle(token, id))).toBe(refused);
      expect(await refusal(actStyle(token, id, { intent: "delete" }))).toBe(refused);
    }
    expect((await thrown(loadList(null, "?q=x"))).headers.get("location")).toBe(`/app/login?next=${encodeURIComponent("/app/styles?q=x")}`);
    expect(await app.database.db.style.count({ where: { name: "Nope" } })).toBe(0);
    expect(await app.database.db.style.count({ where: { id } })).toBe(1);
    expect(await redirectLocation(actStyle(editor.token, id, { intent: "delete" }))).toBe("/app/styles");
  });

  it("is in the navigation of admins with catalog.edit only", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).toContain("/app/styles");
    expect(navigationFor({ role: "ADMIN", permissions: ["drops.manage"] }).map((n) => n.url)).not.toContain("/app/styles");
  });
});

describe("list: create, search, filters, queue", () => {
  it("creates a style with a generated handle and opens it", async () => {
    const id = await create({ name: "Quiet Luxury", description: "Soft tailoring", target_gender: "womenswear", featured: "true" });
    expect(await app.database.db.style.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: "Quiet Luxury",
      handle: "quiet-luxury",
      description: "Soft tailoring",
      target_gender: "womenswear",
      featured: true,
      categorisation_status: "pending",
    });
    const plain = await create({ name: "Street Layers", description: "", featured: "false" });
    expect(await app.database.db.style.findUniqueOrThrow({ where: { id: plain } })).toMatchObject({ handle: "street-layers", description: null, target_gender: "both", featured: false });
  });

  it("refuses a missing name, an unknown gender and unknown intents with the message", async () => {
    expect(await actList(editor.token, { intent: "create", name: "" })).toEqual({ ok: false, error: "name: must not be empty" });
    expect(await actList(editor.token, { intent: "create", name: "Odd", target_gender: "kids" })).toMatchObject({ ok: false, error: expect.stringMatching(/^target_gender: /) });
    expect(await actList(editor.token, { intent: "dance", name: "x" })).toEqual({ ok: false, error: "Unknown action" });
    expect(await app.database.db.style.count({ where: { name: { in: ["Odd", "x"] } } })).toBe(0);
  });

  it("lists by score, searches, filters on featured, sorts, pages; a malformed value falls back to its default alone", async () => {
    await app.database.db.style.update({ where: { handle: "street-layers" }, data: { score: 5 } });
    const all = await loadList(editor.token);
    expect(all.page).toMatchObject({ total: 2, skip: 0, take: 20 });
    expect(all.page.styles.map((s) => s.name)).toEqual(["Street Layers", "Quiet Luxury"]);
    expect(all.query).toEqual({ q: "", featured: undefined, sort: "score" });
    expect(all.queue.total).toBe(2);
    expect(all.queue.styles.map((s) => s.status)).toEqual(["pending", "pending"]);

    const search = await loadList(editor.token, "?q=quiet");
    expect(search.page.styles.map((s) => s.name)).toEqual(["Quiet Luxury"]);
    expect(search.query.q).toBe("quiet");
    expect((await loadList(editor.token, "?featured=true")).page.styles.map((s) => s.name)).toEqual(["Quiet Luxury"]);
    expect((await loadList(editor.token, "?featured=false")).page.styles.map((s) => s.name)).toEqual(["Street Layers"]);
    const byName = await loadList(editor.token, "?sort=name");
    expect(byName.page.styles.map((s) => s.name)).toEqual(["Quiet Luxury", "Street Layers"]);
    expect(byName.query.sort).toBe("name");
    const second = await loadList(editor.token, "?skip=1");
    expect(second.page).toMatchObject({ skip: 1, total: 2 });
    expect(second.page.styles.map((s) => s.name)).toEqual(["Quiet Luxury"]);
    const bad = await loadList(editor.token, "?sort=random&skip=-4");
    expect(bad.query.sort).toBe("score");
    expect(bad.page.skip).toBe(0);
    // One malformed value costs only its own field: the search stays.
    const kept = await loadList(editor.token, "?q=quiet&skip=-4&featured=maybe");
    expect(kept.query).toEqual({ q: "quiet", featured: undefined, sort: "score" });
    expect(kept.page.styles.map((s) => s.name)).toEqual(["Quiet Luxury"]);
  });
});

describe("one style: loader", () => {
  it("answers the style (by id or handle), the picker's results; 404 for a missing style", async () => {
    const id = (await app.database.db.style.findUniqueOrThrow({ where: { handle: "quiet-luxury" } })).id;
    const data = await loadStyle(editor.token, id, "?pq=skirt");
    expect(data.style).toMatchObject({ id, name: "Quiet Luxury", product_count: 0, products: [], categorisation: null });
    expect(data.pickerQuery).toBe("skirt");
    expect(data.picker?.map((p) => p.title)).toEqual(["Pleated Midi Skirt"]);
    // The picker lists every status (a draft product can be curated before it goes live).
    expect((await loadStyle(editor.token, id, "?pq=loopback")).picker?.map((p) => ({ title: p.title, status: p.status }))).toEqual([{ title: "Loopback Sweatshirt", status: "draft" }]);
    const byHandle = await loadStyle(editor.token, "quiet-luxury");
    expect(byHandle.style.id).toBe(id);
    expect(byHandle.picker).toBeNull();

    const missing = await thrown(loadStyle(editor.token, "no-such-style"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ staffError: "This style does not exist (it may have been deleted)" });
  });
});

describe("one style: actions", () => {
  let id: string;
  beforeAll(async () => {
    id = await create({ name: "Action Style" });
  });

  it("update: saves the details; refuses a taken handle, a malformed handle and an empty name", async () => {
    expect(
      await actStyle(editor.token, id, {
        intent: "update",
        name: "Action Style II",
        handle: "action-two",
        description: "Edited",
        image_url: "https://cdn.example.test/a.jpg",
        target_gender: "menswear",
        featured: "true",
      })
    ).toEqual({ ok: true, message: "Style saved." });
    expect(await app.database.db.style.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: "Action Style II",
      handle: "action-two",
      description: "Edited",
      image_url: "https://cdn.example.test/a.jpg",
      target_gender: "menswear",
      featured: true,
    });
    expect(await actStyle(editor.token, id, { intent: "update", name: "Action Style II", handle: "quiet-luxury" })).toEqual({
      ok: false,
      error: 'A style with the handle "quiet-luxury" already exists',
    });
    expect(await actStyle(editor.token, id, { intent: "update", name: "Action Style II", handle: "Not A Handle!" })).toEqual({
      ok: false,
      error: "handle: use lower-case letters, digits and single hyphens",
    });
    expect(await actStyle(editor.token, id, { intent: "update", name: " " })).toEqual({ ok: false, error: "name: must not be empty" });
    expect((await app.database.db.style.findUniqueOrThrow({ where: { id } })).handle).toBe("action-two");
  });

  it("score: sets it; refuses an empty or non-numeric score", async () => {
    expect(await actStyle(editor.token, id, { intent: "score", score: "7.5" })).toEqual({ ok: true, message: "Score set to 7.5." });
    expect((await app.database.db.style.findUniqueOrThrow({ where: { id } })).score).toBe(7.5);
    expect(await actStyle(editor.token, id, { intent: "score", score: "" })).toEqual({ ok: false, error: "Enter a number for the score" });
    expect(await actStyle(editor.token, id, { intent: "score", score: "lots" })).toEqual({ ok: false, error: "Enter a number for the score" });
    expect((await app.database.db.style.findUniqueOrThrow({ where: { id } })).score).toBe(7.5);
  });

  it("add and remove products; refuses unknown ids and an empty list", async () => {
    expect(
      await actStyle(editor.token, id, [
        ["intent", "add"],
        ["products", pgid(8201)],
        ["products", "8202"],
      ])
    ).toEqual({ ok: true, message: "Added 2 products." });
    expect(
      await actStyle(editor.token, id, [
        ["intent", "add"],
        ["products", pgid(8201)],
      ])
    ).toEqual({ ok: true, message: "Already in this style." });
    expect(
      await actStyle(editor.token, id, [
        ["intent", "add"],
        ["products", "999"],
      ])
    ).toEqual({ ok: false, error: `Unknown product ids: ${pgid(999)}` });
    expect(await actStyle(editor.token, id, { intent: "add" })).toEqual({ ok: false, error: "products: give at least one product id" });
    expect((await loadStyle(editor.token, id)).style.products.map((p) => p.title)).toEqual(["Fleece Zip Hoodie", "Pleated Midi Skirt"]);

    expect(
      await actStyle(editor.token, id, [
        ["intent", "remove"],
        ["products", pgid(8202)],
      ])
    ).toEqual({ ok: true, message: "Removed 1 product." });
    expect(
      await actStyle(editor.token, id, [
        ["intent", "remove"],
        ["products", pgid(8202)],
      ])
    ).toEqual({ ok: true, message: "Removed 0 products." });
    expect(await actStyle(editor.token, id, { intent: "remove" })).toEqual({ ok: false, error: "products: give at least one product id" });
    expect(
      await actStyle(editor.token, id, [
        ["intent", "remove"],
        ["products", "999"],
      ])
    ).toEqual({ ok: false, error: `Unknown product ids: ${pgid(999)}` });
    expect((await loadStyle(editor.token, id)).style.product_count).toBe(1);
  });

  it("categorise: queues a run whose result the loader answers once the job ran", async () => {
    expect(await actStyle(editor.token, id, { intent: "categorise" })).toEqual({ ok: true, message: "Categorisation queued; this page updates when it finishes." });
    const queued = await loadStyle(editor.token, id);
    expect(queued.style.categorisation_status).toBe("pending");
    expect(queued.style.categorisation).toMatchObject({ completed_at: null, result: null });
    await drain();
    const done = await loadStyle(editor.token, id);
    expect(done.style.categorisation_status).toBe("completed");
    expect(done.style.categorisation?.result?.categories.map((c) => [c.category, c.count])).toEqual([["Hoodies & sweatshirts", 1]]);
  });

  it("delete: removes the style and goes back to the list; a missing style and unknown intents answer a message", async () => {
    expect(await redirectLocation(actStyle(editor.token, id, { intent: "delete" }))).toBe("/app/styles");
    expect(await app.database.db.style.count({ where: { id } })).toBe(0);
    expect(await app.database.db.product.count({ where: { id: pgid(8201) } })).toBe(1);
    for (const intent of ["delete", "categorise", "update"]) expect(await actStyle(editor.token, id, { intent, name: "Ghost" })).toEqual({ ok: false, error: "Style not found" });
    expect(
      await actStyle(editor.token, id, [
        ["intent", "add"],
        ["products", pgid(8201)],
      ])
    ).toEqual({ ok: false, error: "Style not found" });
    expect(await actStyle(editor.token, id, { intent: "score", score: "1" })).toEqual({ ok: false, error: "Style not found" });
    expect(await actStyle(editor.token, id, { intent: "dance" })).toEqual({ ok: false, error: "Unknown action" });
  });
});

describe("the pages (server-rendered)", () => {
  it("the list shows the table, the products chart and the categorisation queue", async () => {
    const id = (await app.database.db.style.findUniqueOrThrow({ where: { handle: "quiet-luxury" } })).id;
    await actStyle(editor.token, id, [
      ["intent", "add"],
      ["products", pgid(8201)],
      ["products", pgid(8202)],
    ]);
    const data = await loadList(editor.token);
    const html = await renderRoute({ id: "routes/app.styles", path: "/app/styles", url: "/app/styles", data, Component: list.default });
    expect(html).toContain("Styles");
    expect(html).toContain("Create style");
    expect(html).toContain(`href="/app/styles/${id}"`);
    expect(html).toContain('data-testid="style-link"');
    expect(html).toContain("Quiet Luxury");
    expect(html).toContain("quiet-luxury");
    expect(html).toContain(">Featured<");
    expect(html).toContain("1–2 of 2");
    expect(html).toContain("Products per style");
    expect(html).toContain('aria-label="Quiet Luxury: 2, Street Layers: 0"');
    expect(html).toContain("Categorisation queue (2)");

    const none = await loadList(editor.token, "?q=nothing-matches");
    const empty = await renderRoute({ id: "routes/app.styles", path: "/app/styles", url: "/app/styles?q=nothing-matches", data: none, Component: list.default });
    expect(empty).toContain("No styles");
    expect(empty).toContain("No styles yet.");
  });

  it("one style shows its details, products, score and the categories chart", async () => {
    const id = (await app.database.db.style.findUniqueOrThrow({ where: { handle: "quiet-luxury" } })).id;
    const before = await loadStyle(editor.token, id);
    const pending = await renderRoute({ id: "routes/app.styles_.$id", path: "/app/styles/:id", url: `/app/styles/${id}`, data: before, Component: detail.default });
    expect(pending).toContain("Categorisation pending");
    expect(pending).toContain("Not categorised yet.");

    await actStyle(editor.token, id, { intent: "categorise" });
    await drain();
    const data = await loadStyle(editor.token, id);
    const html = await renderRoute({ id: "routes/app.styles_.$id", path: "/app/styles/:id", url: `/app/styles/${id}`, data, Component: detail.default });
    expect(html).toContain("Quiet Luxury");
    expect(html).toContain("Categorisation completed");
    expect(html).toContain("Products (2)");
    expect(html).toContain('<span data-testid="style-product">Fleece Zip Hoodie</span>');
    expect(html).toContain('<span data-testid="style-product">Pleated Midi Skirt</span>');
    expect(html).toContain("Hoodie · 60.00 USD");
    expect(html).toContain('aria-label="Remove Pleated Midi Skirt"');
    expect(html).toContain("Add products");
    expect(html).toContain("Set score");
    expect(html).toContain("Categorise products");
    expect(html).toContain("Delete style");
    expect(html).toContain('aria-label="Hoodies &amp; sweat…: 1, Skirts: 1"');
    expect(html).toContain("streetwear · 2");
  });
});
