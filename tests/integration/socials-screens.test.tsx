/**
 * The socials content screens (issue 19) through their loaders and actions, server-rendered with
 * Polaris: the team's /app/socials (catalog.edit, every vendor, vendor filter) and a vendor's
 * /app/vendor/socials (its own only): generate drafts (local templates, no images), edit, schedule,
 * mark published, delete; another vendor's post is neither listed nor editable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { refusal, renderRoute, staffForm, staffRequest as req } from "../helpers/route";

type Route = typeof import("../../app/routes/app.socials");
let app: TestApp;
let team: Route;
let vendorPage: Route;
let admin: { token: string };
let adminOther: { token: string };
let vendorA: { token: string };
let vendorB: { token: string };
let compA: string;
let compB: string;

const args = (path: string, token: string | null) => ({ request: req(path, token), params: {}, context: {} });
const post = (route: Route, path: string, token: string, fields: Record<string, string> | [string, string][]) => route.action({ request: staffForm(path, token, fields), params: {}, context: {} });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  team = await import("../../app/routes/app.socials");
  vendorPage = (await import("../../app/routes/app.vendor_.socials")) as Route;
  const db = app.database.db;
  await db.vendor.create({ data: { id: "soc-a", name: "Aster", handle: "soc-aster" } });
  await db.vendor.create({ data: { id: "soc-b", name: "Brume", handle: "soc-brume" } });
  const product = async (n: number, title: string, vendor: string) => {
    await db.product.create({ data: { id: `gid://shopify/Product/${n}`, title, handle: `soc-${n}`, productType: "Dresses", vendor_id: vendor } });
    return (await db.productCompanion.create({ data: { shopify_product_id: `gid://shopify/Product/${n}` } })).id;
  };
  compA = await product(9601, "Aster Linen Dress", "soc-a");
  compB = await product(9602, "Brume Silk Dress", "soc-b");
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  adminOther = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  vendorA = await app.createUser({ role: "VENDOR", vendorId: "soc-a" });
  vendorB = await app.createUser({ role: "VENDOR", vendorId: "soc-b" });
});
afterAll(async () => {
  await app?.close();
});

describe("socials screens", () => {
  it("are in the navigation of admins with catalog.edit and of vendors; others are refused", async () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).toContain("/app/socials");
    expect(navigationFor({ role: "ADMIN", permissions: ["orders.manage"] }).map((n) => n.url)).not.toContain("/app/socials");
    expect(navigationFor({ role: "VENDOR", permissions: [] }).map((n) => n.url)).toContain("/app/vendor/socials");
    expect(await refusal(team.loader(args("/app/socials", adminOther.token)))).toBe(403);
    expect(await refusal(team.loader(args("/app/socials", vendorA.token)))).toBe(403);
    expect(await refusal(vendorPage.loader(args("/app/vendor/socials", admin.token)))).toBe(403);
    expect(await refusal(team.loader(args("/app/socials", null)))).toBe("login");
  });

  it("a vendor generates drafts for its product, edits, schedules and publishes one; another vendor never sees it", async () => {
    const data = await vendorPage.loader(args("/app/vendor/socials", vendorA.token));
    expect(data.products).toEqual([{ id: compA, title: "Aster Linen Dress" }]);
    const generated = await post(vendorPage, "/app/vendor/socials", vendorA.token, [
      ["intent", "generate"],
      ["companion_id", compA],
      ["platforms", "instagram"],
      ["platforms", "pinterest"],
    ]);
    expect(generated).toEqual({ ok: true, message: "2 drafts written" });
    const list = await vendorPage.loader(args("/app/vendor/socials", vendorA.token));
    expect(list.items.map((i) => i.platform).sort()).toEqual(["instagram", "pinterest"]);
    const id = list.items.find((i) => i.platform === "instagram")!.id;

    const html = await renderRoute({ id: "socials", path: "/app/vendor/socials", url: `/app/vendor/socials?edit=${id}`, data: await vendorPage.loader(args(`/app/vendor/socials?edit=${id}`, vendorA.token)), Component: vendorPage.default });
    expect(html).toContain("Instagram post for Aster Linen Dress");
    expect(html).toContain("Mark published");
    expect(html).toContain('data-status="draft"');

    const when = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
    expect(await post(vendorPage, "/app/vendor/socials", vendorA.token, { intent: "save", id, caption: "Summer in linen.", hashtags: "#linen, dress summer", scheduled_at: when })).toEqual({ ok: true, message: "Saved" });
    expect(await post(vendorPage, "/app/vendor/socials", vendorA.token, { intent: "status", id, status: "scheduled" })).toEqual({ ok: true, message: "Now scheduled" });
    const saved = await app.database.db.productSocialsContent.findUniqueOrThrow({ where: { id } });
    expect(saved).toMatchObject({ caption: "Summer in linen.", hashtags: ["linen", "dress", "summer"], status: "scheduled" });
    expect(saved.scheduled_at?.toISOString().slice(0, 16)).toBe(when);

    // Another vendor: not listed, not editable (the service's 404 as the action's error).
    const other = await vendorPage.loader(args("/app/vendor/socials", vendorB.token));
    expect(other.items).toEqual([]);
    expect(other.products).toEqual([{ id: compB, title: "Brume Silk Dress" }]);
    expect(await post(vendorPage, "/app/vendor/socials", vendorB.token, { intent: "status", id, status: "published" })).toEqual({ ok: false, error: "Socials content not found" });
    expect(await post(vendorPage, "/app/vendor/socials", vendorB.token, { intent: "generate", companion_id: compA, platforms: "facebook" })).toEqual({ ok: false, error: "Product companion not found" });

    expect(await post(vendorPage, "/app/vendor/socials", vendorA.token, { intent: "status", id, status: "published" })).toEqual({ ok: true, message: "Now published" });
    expect(await post(vendorPage, "/app/vendor/socials", vendorA.token, { intent: "status", id, status: "draft" })).toEqual({ ok: false, error: "Published socials content is final: it can only be deleted" });
    expect(await post(vendorPage, "/app/vendor/socials", vendorA.token, { intent: "delete", id })).toEqual({ ok: true, message: "Deleted" });
  });

  it("the team sees every vendor's posts, filters by vendor, status and platform", async () => {
    await post(team, "/app/socials", admin.token, { intent: "generate", companion_id: compB, platforms: "tiktok" });
    const all = await team.loader(args("/app/socials", admin.token));
    expect(new Set(all.items.map((i) => i.vendor_id))).toEqual(new Set(["soc-a", "soc-b"]));
    expect(all.vendors.map((v) => v.name)).toEqual(expect.arrayContaining(["Aster", "Brume"]));
    const onlyB = await team.loader(args("/app/socials?vendorId=soc-b&platform=tiktok&status=draft", admin.token));
    expect(onlyB.items.map((i) => [i.vendor_id, i.platform, i.status])).toEqual([["soc-b", "tiktok", "draft"]]);
    const html = await renderRoute({ id: "socials", path: "/app/socials", url: "/app/socials", data: all, Component: team.default });
    expect(html).toContain("Socials content");
    expect(html).toContain("Brume Silk Dress");
    expect(await post(team, "/app/socials", admin.token, { intent: "generate", companion_id: compB })).toMatchObject({ ok: false });
  });
});
