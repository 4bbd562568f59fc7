/**
 * The Outfits admin screens (app.outfits.tsx, app.outfits_.$id.tsx, app.outfits_.proposals.tsx)
 * through their loaders and actions in local mode: the catalog.edit guard and navigation, creating
 * a look, building it (products in order, move, remove, details), publish / unpublish / archive
 * with the refusals, proposals accepted and rejected; then the pages server-rendered with their
 * accessible names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";
import { redirectLocation, refusal, renderRoute, staffForm, staffRequest } from "../helpers/route";

type ListModule = typeof import("../../app/routes/app.outfits");
type DetailModule = typeof import("../../app/routes/app.outfits_.$id");
type ProposalsModule = typeof import("../../app/routes/app.outfits_.proposals");
let list: ListModule;
let detail: DetailModule;
let proposals: ProposalsModule;
let app: TestApp;
let editor: { token: string };
let dropsOnly: { token: string };

const loadList = (token: string | null, query = "") => list.loader({ request: staffRequest(`/app/outfits${query}`, token), params: {}, context: {} });
const actList = (token: string | null, fields: Record<string, string>) => list.action({ request: staffForm("/app/outfits", token, fields), params: {}, context: {} });
const loadOutfit = (token: string | null, id: string) => detail.loader({ request: staffRequest(`/app/outfits/${id}`, token), params: { id }, context: {} });
const actOutfit = (token: string | null, id: string, fields: Record<string, string> | [string, string][]) =>
  detail.action({ request: staffForm(`/app/outfits/${id}`, token, fields), params: { id }, context: {} });
const loadProposals = (token: string | null) => proposals.loader({ request: staffRequest("/app/outfits/proposals", token), params: {}, context: {} });
const actProposals = (token: string | null, fields: Record<string, string> | [string, string][]) =>
  proposals.action({ request: staffForm("/app/outfits/proposals", token, fields), params: {}, context: {} });

async function create(fields: Record<string, string>) {
  const location = await redirectLocation(actList(editor.token, { intent: "create", ...fields }));
  expect(location).toMatch(/^\/app\/outfits\/[0-9a-f-]{36}$/);
  return location.replace("/app/outfits/", "");
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.outfits");
  detail = await import("../../app/routes/app.outfits_.$id");
  proposals = await import("../../app/routes/app.outfits_.proposals");
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  dropsOnly = await app.createUser({ role: "ADMIN", permissions: ["drops.manage"] });
  await createProduct(app.database.db, { n: 8301, title: "Linen Shirt", productType: "Shirts", colours: { White: "#f5f5f5" } });
  await createProduct(app.database.db, { n: 8302, title: "Navy Chinos", productType: "Trousers", colours: { Navy: "#1f2a44" } });
  await createProduct(app.database.db, { n: 8303, title: "Suede Jacket", productType: "Jackets", colours: { Tan: "#a0785a" } });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("the pages need catalog.edit: 403 for other admins, login when signed out", async () => {
    const id = await create({ name: "Guarded look" });
    for (const [token, refused] of [
      [dropsOnly.token, 403],
      [null, "login"],
    ] as const) {
      expect(await refusal(loadList(token))).toBe(refused);
      expect(await refusal(actList(token, { intent: "create", name: "Nope" }))).toBe(refused);
      expect(await refusal(loadOutfit(token, id))).toBe(refused);
      expect(await refusal(actOutfit(token, id, { intent: "status", status: "published" }))).toBe(refused);
      expect(await refusal(loadProposals(token))).toBe(refused);
      expect(await refusal(actProposals(token, [["intent", "reject"], ["product_ids", pgid(8301)], ["product_ids", pgid(8302)]]))).toBe(refused);
    }
    expect(await app.database.db.outfit.count({ where: { name: "Nope" } })).toBe(0);
    expect(await app.database.db.outfitTrainingData.count()).toBe(0);
    expect(await redirectLocation(actOutfit(editor.token, id, { intent: "delete" }))).toBe("/app/outfits");
  });

  it("is in the navigation of admins with catalog.edit only", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).toContain("/app/outfits");
    expect(navigationFor({ role: "ADMIN", permissions: ["drops.manage"] }).map((n) => n.url)).not.toContain("/app/outfits");
  });
});

describe("building a look", () => {
  let id: string;

  it("creates a draft; refuses an empty name", async () => {
    id = await create({ name: "Summer linen", target_gender: "menswear" });
    expect(await actList(editor.token, { intent: "create", name: "" })).toMatchObject({ ok: false });
  });

  it("adds products in order, moves and removes them, saves the details", async () => {
    const products = (ids: number[]) => [["intent", "products"], ...ids.map((n) => ["product_ids", pgid(n)] as [string, string])] as [string, string][];
    expect(await actOutfit(editor.token, id, products([8301, 8302, 8303]))).toEqual({ ok: true, message: "Products saved." });
    expect(await actOutfit(editor.token, id, products([8302, 8301]))).toEqual({ ok: true, message: "Products saved." });
    expect(await actOutfit(editor.token, id, products([8301, 99999]))).toMatchObject({ ok: false });
    const saved = await actOutfit(editor.token, id, { intent: "update", name: "Summer linen", description: "Light layers", image_url: "/images/cover.jpg", target_gender: "menswear", sort_order: "3" });
    expect(saved).toEqual({ ok: true, message: "Outfit saved." });
    const data = await loadOutfit(editor.token, id);
    expect(data.outfit.product_ids).toEqual([pgid(8302), pgid(8301)]);
    expect(data.outfit).toMatchObject({ description: "Light layers", image_url: "/images/cover.jpg", sort_order: 3, status: "draft" });
  });

  it("publishes, unpublishes, archives; refuses archived → published", async () => {
    expect(await actOutfit(editor.token, id, { intent: "status", status: "published" })).toEqual({ ok: true, message: "Outfit published." });
    expect(await actOutfit(editor.token, id, { intent: "status", status: "draft" })).toEqual({ ok: true, message: "Outfit moved back to draft." });
    expect(await actOutfit(editor.token, id, { intent: "status", status: "archived" })).toEqual({ ok: true, message: "Outfit archived." });
    expect(await actOutfit(editor.token, id, { intent: "status", status: "published" })).toEqual({ ok: false, error: "An archived look cannot become published: move it back to draft first" });
    expect(await actOutfit(editor.token, id, { intent: "status", status: "draft" })).toMatchObject({ ok: true });
    expect(await actOutfit(editor.token, id, { intent: "status", status: "published" })).toMatchObject({ ok: true });
  });

  it("the list filters by status; the pages render with their accessible names", async () => {
    const published = await loadList(editor.token, "?status=published");
    expect(published.page.outfits.map((o) => o.id)).toEqual([id]);
    expect((await loadList(editor.token, "?status=draft")).page.outfits).toEqual([]);

    const listHtml = await renderRoute({ id: "routes/app.outfits", path: "/app/outfits", url: "/app/outfits", data: await loadList(editor.token), Component: list.default });
    expect(listHtml).toContain("Outfits");
    expect(listHtml).toContain("Create outfit");
    expect(listHtml).toContain("Summer linen");
    expect(listHtml).toContain("Published");

    const detailHtml = await renderRoute({ id: "routes/app.outfits_.$id", path: "/app/outfits/:id", url: `/app/outfits/${id}`, data: await loadOutfit(editor.token, id), Component: detail.default });
    expect(detailHtml).toContain("Products in this look (2)");
    expect(detailHtml).toContain('aria-label="Move Navy Chinos down"');
    expect(detailHtml).toContain('aria-label="Remove Linen Shirt"');
    expect(detailHtml).toContain("Unpublish");
    expect(detailHtml).toContain("Cover image URL");
  });
});

describe("proposals", () => {
  it("lists the engine's looks, accepts one into a look and rejects another, each kept as training data", async () => {
    const data = await loadProposals(editor.token);
    expect(data.proposals.length).toBeGreaterThan(0);
    const first = data.proposals[0];
    const html = await renderRoute({ id: "routes/app.outfits_.proposals", path: "/app/outfits/proposals", url: "/app/outfits/proposals", data, Component: proposals.default });
    expect(html).toContain("Outfit proposals");
    expect(html).toContain(`aria-label="Accept ${first.name}"`);

    const location = await redirectLocation(actProposals(editor.token, [["intent", "accept"], ["name", first.name], ...first.product_ids.map((p) => ["product_ids", p] as [string, string])]));
    expect(location).toMatch(/^\/app\/outfits\/[0-9a-f-]{36}$/);
    const rejected = await actProposals(editor.token, [["intent", "reject"], ["product_ids", pgid(8303)], ["product_ids", pgid(8302)]]);
    expect(rejected).toEqual({ ok: true, message: "Proposal rejected: it will not be proposed again." });
    const again = await actProposals(editor.token, [["intent", "reject"], ["product_ids", pgid(8302)], ["product_ids", pgid(8303)]]);
    expect(again).toEqual({ ok: false, error: "This proposal was already rejected" });
    const training = await app.database.db.outfitTrainingData.findMany({ orderBy: { created_at: "asc" } });
    expect(training.map((t) => t.approved)).toEqual([true, false]);
  });
});
