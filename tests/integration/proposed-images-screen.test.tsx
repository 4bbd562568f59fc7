/**
 * The Proposed images admin screen (app/routes/app.proposed-images.tsx) through its loader and
 * action in local mode: the permission guard, products grouped with their proposals, status tabs,
 * source and text filters, approve / reject / reopen one, bulk approve and reject with per-row
 * failures, and the server-rendered page (side-by-side images, bulk actions, charts).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createProposal } from "../../app/services/proposed-variant-images.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, vgid } from "./products-fixtures";
import { renderRoute, staffRequest, thrownResponse as thrown } from "../helpers/route";


type RouteModule = typeof import("../../app/routes/app.proposed-images");
let route: RouteModule;
let app: TestApp;
let reviewer: { id: string; token: string };
let editor: { token: string };
let vendorUser: { token: string };
const urls: Record<string, string> = {};

const request = (token: string | null, query = "", init: RequestInit = {}) => staffRequest(`/app/proposed-images${query}`, token, init);
const load = (token: string | null, query = "") => route.loader({ request: request(token, query), params: {}, context: {} });
async function act(token: string | null, fields: [string, string][]) {
  const body = new URLSearchParams(fields);
  return route.action({ request: request(token, "", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }), params: {}, context: {} });
}
const propose = (n: number, i: number, colour: string, source = "taobao") =>
  createProposal(app.ctx, { product_id: pgid(n), variant_id: vgid(n, i), proposed_image_url: urls[colour], source });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  route = await import("../../app/routes/app.proposed-images");
  reviewer = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Screen Vendor", handle: "screen-vendor" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  await createProduct(app.database.db, { n: 9301, title: "Striped Breton Top", colours: { Navy: "#1f2a44", Cream: "#f3ead8" } });
  await createProduct(app.database.db, { n: 9302, title: "Quilted Liner Jacket" });
  for (const [name, hex] of Object.entries({ navy: "#1f2a44", cream: "#f3ead8", olive: "#556b2f", rust: "#b7410e" })) {
    const bytes = await sharp({ create: { width: 30, height: 40, channels: 3, background: hex } }).jpeg().toBuffer();
    urls[name] = (await app.ctx.storage.put(`images/test/screen-${name}.jpg`, new Uint8Array(bytes), "image/jpeg")).url;
  }
  await propose(9301, 0, "navy");
  await propose(9301, 2, "cream");
  await propose(9301, 3, "cream", "ai");
  await propose(9302, 0, "olive");
  await propose(9302, 1, "rust", "manual");
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs media.manage: 403 for other admins and vendors, login when signed out", async () => {
    expect((await thrown(load(editor.token))).status).toBe(403);
    expect((await thrown(act(editor.token, [["intent", "approve"], ["id", "x"]]))).status).toBe(403);
    expect((await thrown(load(vendorUser.token))).status).toBe(403);
    const out = await thrown(load(null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toMatch(/^\/app\/login\?next=/);
  });

  it("is in the navigation of admins with media.manage only", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["media.manage"] }).map((n) => n.url)).toContain("/app/proposed-images");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/proposed-images");
  });
});

describe("loader", () => {
  it("groups pending proposals by product, newest product first, variants in order", async () => {
    const data = await load(reviewer.token);
    expect(data.tab).toBe("pending");
    expect(data.list.totalProducts).toBe(2);
    expect(data.list.groups.map((g) => g.product.title)).toEqual(["Quilted Liner Jacket", "Striped Breton Top"]);
    const breton = data.list.groups[1];
    expect(breton.proposals.map((p) => p.variant.title)).toEqual(["Navy / S", "Cream / S", "Cream / M"]);
    expect(breton.proposals[0]).toMatchObject({ proposed_image_url: urls.navy, variant: { image_url: "/uploads/images/test/9301-0.jpg" } });
    expect(data.stats.byStatus).toEqual({ pending: 5, approved: 0, rejected: 0 });
  });

  it("filters by source and text", async () => {
    const ai = await load(reviewer.token, "?source=ai");
    expect(ai.list.groups.flatMap((g) => g.proposals.map((p) => p.source))).toEqual(["ai"]);
    const text = await load(reviewer.token, "?q=liner");
    expect(text.list.groups.map((g) => g.product.title)).toEqual(["Quilted Liner Jacket"]);
    const none = await load(reviewer.token, "?status=approved");
    expect(none.list.groups).toEqual([]);
  });
});

describe("action", () => {
  it("approves one: the variant shows the image", async () => {
    const id = (await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { variant_id: vgid(9301, 0) } })).id;
    const r = await act(reviewer.token, [["intent", "approve"], ["id", id]]);
    expect(r).toEqual({ ok: true, message: "Approved: Striped Breton Top – Navy / S now shows the new image." });
    expect((await app.database.db.productVariant.findUniqueOrThrow({ where: { id: vgid(9301, 0) } })).image_url).toBe(urls.navy);
    const approved = await load(reviewer.token, "?status=approved");
    expect(approved.list.groups[0].proposals[0]).toMatchObject({ status: "approved", current_image_url: "/uploads/images/test/9301-0.jpg", reviewer_id: reviewer.id });
  });

  it("rejects and reopens one; errors come back as messages", async () => {
    const id = (await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { variant_id: vgid(9302, 1) } })).id;
    expect(await act(reviewer.token, [["intent", "reject"], ["id", id]])).toEqual({ ok: true, message: "Rejected the proposal for Quilted Liner Jacket – Black / M." });
    expect(await act(reviewer.token, [["intent", "reopen"], ["id", id]])).toMatchObject({ ok: true });
    expect((await app.database.db.proposedVariantImage.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    expect(await act(reviewer.token, [["intent", "approve"], ["id", "00000000-0000-0000-0000-000000000000"]])).toEqual({ ok: false, error: "Proposed variant image not found" });
    expect(await act(reviewer.token, [["intent", "bulk-approve"]])).toEqual({ ok: false, error: "ids must list at least one proposal" });
    expect(await act(reviewer.token, [["intent", "dance"], ["id", id]])).toEqual({ ok: false, error: "Unknown action" });
  });

  it("bulk approve answers per row; bulk reject", async () => {
    const rows = await app.database.db.proposedVariantImage.findMany({ where: { status: "pending" }, orderBy: { created_at: "asc" } });
    const approvedId = (await app.database.db.proposedVariantImage.findFirstOrThrow({ where: { status: "approved" } })).id;
    const r = await act(reviewer.token, [["intent", "bulk-approve"], ...rows.slice(0, 2).map((x) => ["ids", x.id] as [string, string]), ["ids", approvedId]]);
    expect(r).toEqual({ ok: true, message: "2 proposals approved; 1 failed.", failures: [{ id: approvedId, message: "This proposal is already approved" }] });
    const rest = rows.slice(2).map((x) => ["ids", x.id] as [string, string]);
    expect(await act(reviewer.token, [["intent", "bulk-reject"], ...rest])).toEqual({ ok: true, message: `${rest.length} proposals rejected.`, failures: [] });
    expect((await load(reviewer.token)).list.groups).toEqual([]);
  });
});

describe("the page (server-rendered)", () => {
  it("shows products with side-by-side images, row actions, bulk actions and the charts", async () => {
    await propose(9302, 0, "rust");
    await propose(9301, 1, "rust");
    const data = await load(reviewer.token, "?status=all");
    const html = await renderRoute({ id: "routes/app.proposed-images", path: "/app/proposed-images", url: "/app/proposed-images?status=all", data, Component: route.default });
    expect(html).toContain("Proposed variant images");
    expect(html).toContain("Striped Breton Top");
    expect(html).toContain("Quilted Liner Jacket");
    expect(html).toContain(`src="${urls.rust}"`);
    expect(html).toContain('alt="Proposed"');
    expect(html).toContain('alt="Current"');
    expect(html).toContain('alt="Before"'); // an approved row shows the image it replaced
    expect(html).toContain('aria-label="Approve Striped Breton Top – Navy / M"');
    expect(html).toContain('aria-label="Reject Striped Breton Top – Navy / M"');
    expect(html).toContain('aria-label="Reopen');
    expect(html).toContain("Select every proposal of Striped Breton Top");
    expect(html).toContain("Proposals by status");
    expect(html).toContain("Proposals by source");
    expect(html).toContain("Reviews per day (last 14 days)");
    expect(html).toMatch(/Pending: 2, Approved: 3, Rejected: 2/);
  });
});
