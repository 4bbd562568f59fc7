/**
 * The Drops admin screens (app/routes/app.drops.tsx and app.drops_.$id.tsx) through their loaders
 * and actions in local mode: the drops.manage guard, the dated list with its status tabs, creating
 * a drop, and on one drop every action intent (details, status, date, products, notify, delete)
 * with its success and refusal messages; then both pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid } from "./products-fixtures";
import { redirectLocation, refusal, renderRoute, staffForm, staffRequest, thrownResponse as thrown } from "../helpers/route";

type ListModule = typeof import("../../app/routes/app.drops");
type DetailModule = typeof import("../../app/routes/app.drops_.$id");
let list: ListModule;
let detail: DetailModule;
let app: TestApp;
let manager: { token: string };
let editor: { token: string };
let vendorUser: { token: string };

const DAY = 86_400_000;
const PAST = "scheduled_publish_date must be in the future (to publish the drop at once, use Publish now)";
/** A `datetime-local` value (read as UTC by the screens) `days` from now, at 18:30. */
function localInput(days: number) {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(18, 30, 0, 0);
  return d.toISOString().slice(0, 16);
}

const loadList = (token: string | null, query = "") => list.loader({ request: staffRequest(`/app/drops${query}`, token), params: {}, context: {} });
const actList = (token: string | null, fields: Record<string, string> | [string, string][]) => list.action({ request: staffForm("/app/drops", token, fields), params: {}, context: {} });
const loadDrop = (token: string | null, id: string, query = "") => detail.loader({ request: staffRequest(`/app/drops/${id}${query}`, token), params: { id }, context: {} });
const actDrop = (token: string | null, id: string, fields: Record<string, string> | [string, string][]) =>
  detail.action({ request: staffForm(`/app/drops/${id}`, token, fields), params: { id }, context: {} });

/** Creates a drop through the list's action and answers its id (the action redirects to it). */
async function create(name: string, extra: Record<string, string> = {}) {
  const location = await redirectLocation(actList(manager.token, { intent: "create", name, ...extra }));
  expect(location).toMatch(/^\/app\/drops\/[0-9a-f-]{36}$/);
  return location.replace("/app/drops/", "");
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.drops");
  detail = await import("../../app/routes/app.drops_.$id");
  manager = await app.createUser({ role: "ADMIN", permissions: ["drops.manage"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Drops Vendor", handle: "drops-vendor" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  await createProduct(app.database.db, { n: 8101, title: "Midnight Wool Coat", productType: "Coat" });
  await createProduct(app.database.db, { n: 8102, title: "Ribbed Knit Beanie", productType: "Accessories" });
  await createProduct(app.database.db, { n: 8103, title: "Canvas Field Jacket", productType: "Jacket" });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("both pages need drops.manage: 403 for other admins and vendors, login when signed out", async () => {
    const id = await create("Guarded Drop");
    for (const [token, refused] of [
      [editor.token, 403],
      [vendorUser.token, 403],
      [null, "login"],
    ] as const) {
      expect(await refusal(loadList(token))).toBe(refused);
      expect(await refusal(actList(token, { intent: "create", name: "Nope" }))).toBe(refused);
      expect(await refusal(loadDrop(token, id))).toBe(refused);
      expect(await refusal(actDrop(token, id, { intent: "delete" }))).toBe(refused);
    }
    expect((await thrown(loadList(null, "?status=draft"))).headers.get("location")).toBe(`/app/login?next=${encodeURIComponent("/app/drops?status=draft")}`);
    expect(await app.database.db.drop.count({ where: { name: "Nope" } })).toBe(0);
    expect(await app.database.db.drop.count({ where: { id } })).toBe(1);
    expect(await redirectLocation(actDrop(manager.token, id, { intent: "delete" }))).toBe("/app/drops");
  });

  it("is in the navigation of admins with drops.manage only", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["drops.manage"] }).map((n) => n.url)).toContain("/app/drops");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/drops");
  });
});

describe("list: create and the status tabs", () => {
  it("creates a draft, or a scheduled drop when a date is given, and opens it", async () => {
    const draft = await create("Autumn Layers", { description: "Three warm pieces", date: "" });
    const dated = await create("Night Market", { date: localInput(20) });
    const rows = await app.database.db.drop.findMany({ where: { id: { in: [draft, dated] } } });
    expect(rows.find((r) => r.id === draft)).toMatchObject({ name: "Autumn Layers", description: "Three warm pieces", status: "draft", scheduled_publish_date: null });
    expect(rows.find((r) => r.id === dated)).toMatchObject({ status: "scheduled", scheduled_publish_date: new Date(`${localInput(20)}Z`) });
  });

  it("refuses a missing name, a past date and unknown intents with the message", async () => {
    expect(await actList(manager.token, { intent: "create", name: "  " })).toEqual({ ok: false, error: "name: must not be empty" });
    expect(await actList(manager.token, { intent: "create", name: "Too Late", date: "2020-01-01T10:00" })).toEqual({ ok: false, error: PAST });
    expect(await actList(manager.token, { intent: "create", name: "Odd Date", date: "soon" })).toEqual({ ok: false, error: "scheduled_publish_date: scheduled_publish_date must be an ISO 8601 date" });
    expect(await actList(manager.token, { intent: "dance", name: "x" })).toEqual({ ok: false, error: "Unknown action" });
    expect(await app.database.db.drop.count({ where: { name: { in: ["Too Late", "Odd Date", "x"] } } })).toBe(0);
  });

  it("lists every drop dated first (ISO dates), and filters by status tab", async () => {
    const all = await loadList(manager.token);
    expect(all.tab).toBe("all");
    expect(all.drops.map((d) => d.name)).toEqual(["Night Market", "Autumn Layers"]);
    expect(all.drops[0]).toMatchObject({ status: "scheduled", product_count: 0, scheduled_publish_date: new Date(`${localInput(20)}Z`).toISOString(), notified_at: null });
    const drafts = await loadList(manager.token, "?status=draft");
    expect(drafts.tab).toBe("draft");
    expect(drafts.drops.map((d) => d.name)).toEqual(["Autumn Layers"]);
    expect((await loadList(manager.token, "?status=scheduled")).drops.map((d) => d.name)).toEqual(["Night Market"]);
    expect((await loadList(manager.token, "?status=cancelled")).drops).toEqual([]);
    const unknown = await loadList(manager.token, "?status=everything");
    expect(unknown.tab).toBe("all");
    expect(unknown.drops).toHaveLength(2);
  });
});

describe("one drop: loader", () => {
  it("answers the drop, its products and the picker's results; 404 for a missing drop", async () => {
    const id = await create("Loader Drop");
    await actDrop(manager.token, id, { intent: "products", shopify_products_ids: pgid(8101) });
    const data = await loadDrop(manager.token, id, "?pq=beanie");
    expect(data.drop).toMatchObject({ id, name: "Loader Drop", status: "draft", product_count: 1, shopify_products_ids: [pgid(8101)], scheduled_publish_date: null });
    expect(typeof data.drop.created_at).toBe("string");
    expect(data.companions).toMatchObject({ total: 1, skip: 0, take: 60 });
    expect(data.companions.products.map((p) => p.title)).toEqual(["Midnight Wool Coat"]);
    expect(data.pickerQuery).toBe("beanie");
    expect(data.picker?.map((p) => p.title)).toEqual(["Ribbed Knit Beanie"]);
    expect((await loadDrop(manager.token, id)).picker).toBeNull();

    const missing = await thrown(loadDrop(manager.token, "00000000-0000-0000-0000-000000000000"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ staffError: "This drop does not exist (it may have been deleted)" });
  });
});

describe("one drop: actions", () => {
  let id: string;
  beforeAll(async () => {
    id = await create("Action Drop");
  });

  it("update: saves the details; refuses a bad image URL and an empty name", async () => {
    expect(await actDrop(manager.token, id, { intent: "update", name: "Action Drop II", description: "Refreshed", teaser: "Soon: coats", image_url: "/uploads/drop.jpg" })).toEqual({ ok: true, message: "Drop saved." });
    expect((await app.database.db.drop.findUniqueOrThrow({ where: { id } })).teaser).toBe("Soon: coats");
    expect(await app.database.db.drop.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: "Action Drop II", description: "Refreshed", image_url: "/uploads/drop.jpg" });
    expect(await actDrop(manager.token, id, { intent: "update", name: "Action Drop II", image_url: "ftp://example.test/x.jpg" })).toEqual({
      ok: false,
      error: "image_url: image_url must be an http(s) URL or a path",
    });
    expect(await actDrop(manager.token, id, { intent: "update", name: "" })).toEqual({ ok: false, error: "name: must not be empty" });
    expect((await app.database.db.drop.findUniqueOrThrow({ where: { id } })).name).toBe("Action Drop II");
  });

  it("products: replaces the drop's products; refuses unknown ids", async () => {
    expect(
      await actDrop(manager.token, id, [
        ["intent", "products"],
        ["shopify_products_ids", pgid(8101)],
        ["shopify_products_ids", "8102"],
      ])
    ).toEqual({ ok: true, message: "The drop has 2 products." });
    expect((await app.database.db.drop.findUniqueOrThrow({ where: { id } })).shopify_products_ids).toEqual([pgid(8101), pgid(8102)]);
    expect(
      await actDrop(manager.token, id, [
        ["intent", "products"],
        ["shopify_products_ids", "999"],
      ])
    ).toEqual({ ok: false, error: `Unknown product ids: ${pgid(999)}` });
    expect(
      await actDrop(manager.token, id, [
        ["intent", "products"],
        ["shopify_products_ids", " "],
      ])
    ).toEqual({ ok: false, error: "shopify_products_ids.0: must not be empty" });
  });

  it("notify: a draft without a date cannot be announced", async () => {
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "emails", emails: "fan@example.test" })).toEqual({
      ok: false,
      error: "Set the drop's publish date before telling shoppers about it",
    });
  });

  it("schedule: sets the date; live products stay live (docs/drops.md); refuses no date, a past date", async () => {
    const when = localInput(30);
    expect(await actDrop(manager.token, id, { intent: "schedule", date: when })).toEqual({
      ok: true,
      message: `Scheduled for ${when.replace("T", " ")} UTC; 0 of 2 products will publish then; the others are live already.`,
    });
    const data = await loadDrop(manager.token, id);
    expect(data.drop).toMatchObject({ status: "scheduled", scheduled_publish_date: new Date(`${when}Z`).toISOString() });
    expect(data.companions.products.map((p) => p.companion?.scheduled_publish_date ?? null)).toEqual([null, null]);
    expect(data.companions.products.every((p) => p.publishedAt && new Date(p.publishedAt).getTime() < Date.now())).toBe(true);
    expect(await actDrop(manager.token, id, { intent: "schedule", date: "" })).toEqual({ ok: false, error: "Choose a publish date" });
    expect(await actDrop(manager.token, id, { intent: "schedule", date: "2020-01-01T10:00" })).toEqual({ ok: false, error: PAST });
    expect(await actDrop(manager.token, id, { intent: "schedule", date: "tomorrow" })).toEqual({ ok: false, error: "scheduled_publish_date: scheduled_publish_date must be an ISO 8601 date" });
  });

  it("notify: chosen addresses or active users, with the counts; refuses empty and invalid addresses", async () => {
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "emails", emails: "fan@example.test, other@example.test;\nfan@example.test", skip: "0", limit: "100" })).toEqual({
      ok: true,
      message: "Queued 2 emails (addresses 1–2 of 2).",
    });
    const outbox = await app.database.db.emailOutbox.findMany({ where: { kind: "drop_notice" }, orderBy: { to: "asc" } });
    expect(outbox.map((e) => e.to)).toEqual(["fan@example.test", "other@example.test"]);
    expect(outbox[0].subject).toMatch(/^Action Drop II drops on /);
    expect((await loadDrop(manager.token, id)).drop.notified_at).not.toBeNull();

    expect(await actDrop(manager.token, id, { intent: "notify", audience: "active" })).toEqual({ ok: true, message: "Queued 0 emails (active users 0 of 0)." });
    const shopper = await app.createUser({ role: "SHOPPER", authProvider: "password", email: "active.fan@example.test" });
    await app.database.db.productViewEvent.create({ data: { user_id: shopper.id, product_id: pgid(8103) } });
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "active" })).toEqual({ ok: true, message: "Queued 1 email (active users 1–1 of 1)." });
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "emails", emails: "late@example.test", skip: "5" })).toEqual({
      ok: true,
      message: "Queued 0 emails (Skip 5 passes all 1 addresses).",
    });

    expect(await actDrop(manager.token, id, { intent: "notify", audience: "emails", emails: " , " })).toEqual({ ok: false, error: "Enter at least one email address" });
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "emails", emails: "not-an-address" })).toEqual({ ok: false, error: "emails.0: enter a valid email address" });
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "active", limit: "0" })).toEqual({ ok: false, error: "limit: Too small: expected number to be >=1" });
  });

  it("hold-back: hides the live products until the drop, and turning it off shows them again", async () => {
    const when = (await app.database.db.drop.findUniqueOrThrow({ where: { id } })).scheduled_publish_date!.toISOString();
    expect(await actDrop(manager.token, id, { intent: "hold-back", name: "Action Drop II", hold_back_live: "true" })).toEqual({
      ok: true,
      message: "Live products are held back until the drop; they are hidden until then.",
    });
    let data = await loadDrop(manager.token, id);
    expect(data.drop.hold_back_live).toBe(true);
    expect(data.companions.products.map((p) => p.publishedAt)).toEqual([when, when]);
    expect(await actDrop(manager.token, id, { intent: "hold-back", name: "Action Drop II", hold_back_live: "false" })).toEqual({ ok: true, message: "Live products stay live." });
    data = await loadDrop(manager.token, id);
    expect(data.companions.products.every((p) => p.publishedAt && new Date(p.publishedAt).getTime() < Date.now())).toBe(true);
    expect(await actDrop(manager.token, id, { intent: "update", name: "Action Drop II", teaser: "x".repeat(281) })).toEqual({ ok: false, error: "teaser: Too big: expected string to have <=280 characters" });
  });

  it("publish-now: a draft goes live at once; a published drop refuses", async () => {
    const other = await create("Publish Me");
    expect(await actDrop(manager.token, other, { intent: "publish-now" })).toEqual({ ok: true, message: "Published now; 0 products are live." });
    expect((await app.database.db.drop.findUniqueOrThrow({ where: { id: other } })).status).toBe("published");
    expect(await actDrop(manager.token, other, { intent: "publish-now" })).toEqual({ ok: false, error: "This drop is already published" });
  });

  it("status: unschedule, cancel, reopen; a published drop cannot change", async () => {
    expect(await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "draft" })).toEqual({ ok: true, message: "Drop is a draft again." });
    expect(await app.database.db.drop.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "draft", scheduled_publish_date: null });
    expect(await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "cancelled" })).toEqual({
      ok: true,
      message: "Drop cancelled; its products are back as they were before it.",
    });
    expect(await actDrop(manager.token, id, { intent: "schedule", date: localInput(5) })).toEqual({ ok: false, error: "This drop is cancelled; reopen it (status draft) before scheduling it" });
    expect(await actDrop(manager.token, id, { intent: "notify", audience: "active" })).toEqual({ ok: false, error: "This drop is cancelled" });
    expect(await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "draft" })).toEqual({ ok: true, message: "Drop is a draft again." });

    // Cancelled with a future date, reopening schedules it again.
    await actDrop(manager.token, id, { intent: "schedule", date: localInput(7) });
    await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "cancelled" });
    expect(await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "draft" })).toEqual({ ok: true, message: "Drop reopened and scheduled again." });

    expect(await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "published" })).toMatchObject({ ok: false, error: expect.stringMatching(/^status: /) });
    await app.database.db.drop.update({ where: { id }, data: { status: "published", scheduled_publish_date: new Date(Date.now() - DAY) } });
    expect(await actDrop(manager.token, id, { intent: "status", name: "Action Drop II", status: "cancelled" })).toEqual({
      ok: false,
      error: "This drop is already published; its status cannot change",
    });
  });

  it("delete: removes the drop and goes back to the list; a missing drop and unknown intents answer a message", async () => {
    expect(await redirectLocation(actDrop(manager.token, id, { intent: "delete" }))).toBe("/app/drops");
    expect(await app.database.db.drop.count({ where: { id } })).toBe(0);
    expect(await actDrop(manager.token, id, { intent: "delete" })).toEqual({ ok: false, error: "Drop not found" });
    expect(await actDrop(manager.token, id, { intent: "update", name: "Ghost" })).toEqual({ ok: false, error: "Drop not found" });
    expect(await actDrop(manager.token, id, { intent: "dance" })).toEqual({ ok: false, error: "Unknown action" });
  });
});

describe("the pages (server-rendered)", () => {
  it("the list groups drops by month with their status, product count and links", async () => {
    const when = localInput(40);
    const id = await create("Render Drop", { date: when });
    await actDrop(manager.token, id, [
      ["intent", "products"],
      ["shopify_products_ids", pgid(8101)],
    ]);
    const data = await loadList(manager.token);
    const html = await renderRoute({ id: "routes/app.drops", path: "/app/drops", url: "/app/drops", data, Component: list.default });
    expect(html).toContain("Drops");
    expect(html).toContain("Times are in UTC");
    expect(html).toContain("Create drop");
    const month = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${when}Z`));
    expect(html).toContain(`<span data-testid="drop-month">${month}</span>`);
    expect(html).toContain("No date yet");
    expect(html).toContain(`href="/app/drops/${id}"`);
    expect(html).toContain("Render Drop");
    expect(html).toContain("1 product<");
    expect(html).toContain(">scheduled<");

    const empty = await loadList(manager.token, "?status=cancelled");
    expect(await renderRoute({ id: "routes/app.drops", path: "/app/drops", url: "/app/drops?status=cancelled", data: empty, Component: list.default })).toContain("No drops here yet.");
  });

  it("one drop shows its date, products, details, schedule and notify cards", async () => {
    const when = localInput(40);
    const id = (await app.database.db.drop.findFirstOrThrow({ where: { name: "Render Drop" } })).id;
    const data = await loadDrop(manager.token, id);
    const html = await renderRoute({ id: "routes/app.drops_.$id", path: "/app/drops/:id", url: `/app/drops/${id}`, data, Component: detail.default });
    expect(html).toContain("Render Drop");
    expect(html).toContain(">scheduled<");
    expect(html).toContain(`${new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "short", timeZone: "UTC" }).format(new Date(`${when}Z`))} UTC`);
    expect(html).toContain("Products (1)");
    expect(html).toContain('<span data-testid="drop-product">Midnight Wool Coat</span>');
    // A live product stays live in a scheduled drop (docs/drops.md).
    expect(html).toContain("Published");
    expect(html).toContain("Teaser");
    expect(html).toContain("Hold back live products until the drop");
    expect(html).toContain("Publish now");
    expect(html).toContain('aria-label="Remove Midnight Wool Coat"');
    expect(html).toContain("Add products");
    expect(html).toContain("Save details");
    expect(html).toContain("Set date");
    expect(html).toContain("Send notice");
    expect(html).toContain("Unschedule");
    expect(html).toContain("Cancel drop");
    expect(html).not.toContain("Last notice queued");

    const draftId = await create("Render Draft");
    const draft = await loadDrop(manager.token, draftId);
    const draftHtml = await renderRoute({ id: "routes/app.drops_.$id", path: "/app/drops/:id", url: `/app/drops/${draftId}`, data: draft, Component: detail.default });
    expect(draftHtml).toContain("No publish date yet");
    expect(draftHtml).toContain("No products in this drop yet.");
    expect(draftHtml).not.toContain("Unschedule");
  });
});
