/**
 * The admin screens of this area through their loaders and actions in local mode, with a fake
 * image-AI provider (tests/helpers/fake-image-ai.ts: completes at once; the edit models are
 * "unsupported" like on the local provider):
 * - /app/proposed-edits: guard (media.manage), tabs and counts, approve / reject / delete one,
 *   bulk approve with a per-row failure;
 * - /app/ai-tools: guard (ai.train), capabilities (unsupported ops carry the needs-fal message),
 *   run each kind of tool (product shot, remove object with a box, fill with a generated mask,
 *   product training), the request's progress and result, send to proposed edits, add to product;
 * - /app/clones: list admin models, create one from uploads, make public/private, delete.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { navigationFor } from "../../app/services/staff.server";
import { createImageEdit } from "../../app/services/proposed-image-edits.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi, type FakeImageAi } from "../helpers/fake-image-ai";
import { createProduct, pgid } from "./products-fixtures";
import { staffRequest as req, thrownResponse as thrown } from "../helpers/route";

type EditsRoute = typeof import("../../app/routes/app.proposed-edits");
type ToolsRoute = typeof import("../../app/routes/app.ai-tools");
type ClonesRoute = typeof import("../../app/routes/app.clones");
let edits: EditsRoute;
let tools: ToolsRoute;
let clones: ClonesRoute;
let app: TestApp;
let fake: FakeImageAi;
let admin: { id: string; token: string };
let mediaOnly: { token: string };
let aiOnly: { token: string };
let source: string;
const colours: Record<string, string> = {};

const post = (path: string, token: string, fields: [string, string | Blob][]) => {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  return req(path, token, { method: "POST", body });
};
const drain = () => startWorker(app.ctx, jobHandlers, { autoStart: false }).drain();
const jpeg = async (hex: string, w = 64, h = 80) => new Uint8Array(await sharp({ create: { width: w, height: h, channels: 3, background: hex } }).jpeg().toBuffer());

beforeAll(async () => {
  fake = createFakeImageAi({ unsupported: ["chrono-edit", "reve-edit", "seedream-v4-edit", "gemini-image-edit"] });
  app = await createTestApp({ imageAi: fake });
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  edits = await import("../../app/routes/app.proposed-edits");
  tools = await import("../../app/routes/app.ai-tools");
  clones = await import("../../app/routes/app.clones");
  admin = await app.createUser({ role: "ADMIN", permissions: ["media.manage", "ai.train", "catalog.edit"] });
  mediaOnly = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  aiOnly = await app.createUser({ role: "ADMIN", permissions: ["ai.train"] });
  await createProduct(app.database.db, { n: 9501, title: "Cotton Poplin Shirt", colours: { Black: "#111111", White: "#f5f5f5" }, images: 2 });
  await createProduct(app.database.db, { n: 9502, title: "Merino Cardigan", images: 2 });
  for (const [name, hex] of Object.entries({ red: "#cc2222", blue: "#2222cc", green: "#22aa22" })) {
    colours[name] = (await app.ctx.storage.put(`images/test/screen-edit-${name}.jpg`, await jpeg(hex), "image/jpeg")).url;
  }
  // A real stored image as the products' first image (the tools read it: the fill tool's mask).
  source = (await app.ctx.storage.put("images/test/screen-source.jpg", await jpeg("#999999", 200, 250), "image/jpeg")).url;
  await app.database.db.productImage.update({ where: { id: "gid://shopify/MediaImage/950100" }, data: { url: source } });
});
afterAll(() => app?.close());

describe("navigation", () => {
  it("shows Proposed edits with media.manage, AI image tools and AI models with ai.train", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["media.manage"] }).map((n) => n.url)).toContain("/app/proposed-edits");
    expect(navigationFor({ role: "ADMIN", permissions: ["media.manage"] }).map((n) => n.url)).not.toContain("/app/ai-tools");
    expect(navigationFor({ role: "ADMIN", permissions: ["ai.train"] }).map((n) => n.url)).toEqual(expect.arrayContaining(["/app/ai-tools", "/app/clones"]));
  });
});

describe("/app/proposed-edits", () => {
  it("needs media.manage", async () => {
    expect((await thrown(edits.loader({ request: req("/app/proposed-edits", aiOnly.token), params: {}, context: {} }))).status).toBe(403);
    expect((await thrown(edits.action({ request: post("/app/proposed-edits", aiOnly.token, [["intent", "approve"], ["id", "x"]]), params: {}, context: {} }))).status).toBe(403);
    const out = await thrown(edits.loader({ request: req("/app/proposed-edits", null), params: {}, context: {} }));
    expect(out.status).toBe(302);
  });

  it("lists by tab with counts; approves, rejects and deletes one; bulk approve answers per row", async () => {
    const a = await createImageEdit(app.ctx, { product_id: pgid(9502), image_url: "/uploads/images/test/9502-0.jpg", proposed_image_url: colours.red, operation: "remove-object" });
    const b = await createImageEdit(app.ctx, { product_id: pgid(9502), image_url: "/uploads/images/test/9502-1.jpg", proposed_image_url: colours.blue, operation: "chrono-edit", prompt: "softer light" });
    const c = await createImageEdit(app.ctx, { product_id: pgid(9502), image_url: "/uploads/images/test/9502-1.jpg", proposed_image_url: colours.green, operation: "manual" });
    const load = async (q = "") => edits.loader({ request: req(`/app/proposed-edits${q}`, mediaOnly.token), params: {}, context: {} });
    const act = (fields: [string, string][]) => edits.action({ request: post("/app/proposed-edits", mediaOnly.token, fields), params: {}, context: {} });

    const pending = await load(`?product=${encodeURIComponent(pgid(9502))}`);
    expect(pending).toMatchObject({ tab: "pending", list: { total: 3, counts: { pending: 3, approved: 0, rejected: 0 } } });

    expect(await act([["intent", "approve"], ["id", a.id]])).toEqual({ ok: true, message: "Approved: Merino Cardigan now shows the edited image." });
    expect(await act([["intent", "reject"], ["id", b.id]])).toEqual({ ok: true, message: "Rejected the edit of Merino Cardigan." });
    expect(await act([["intent", "reject"], ["id", b.id]])).toEqual({ ok: false, error: "This edit is already rejected" });
    const bulk = await act([["intent", "bulk-approve"], ["ids", c.id], ["ids", b.id]]);
    expect(bulk).toMatchObject({ ok: true, message: "1 edit approved; 1 failed.", failures: [{ id: b.id, message: expect.stringMatching(/rejected edit cannot be approved/) }] });
    expect(await act([["intent", "bulk-reject"]])).toEqual({ ok: false, error: "Select edits first" });

    const approved = await load(`?status=approved&product=9502`);
    expect(approved.list.items.map((e) => e.id).sort()).toEqual([a.id, c.id].sort());
    expect(approved.list.counts).toEqual({ pending: 0, approved: 2, rejected: 1 });
    const images = await app.database.db.productImage.findMany({ where: { product_id: pgid(9502) }, orderBy: { position: "asc" } });
    expect(images.map((i) => i.url)).toEqual([colours.red, colours.green]);

    expect(await act([["intent", "delete"], ["id", b.id]])).toEqual({ ok: true, message: "Edit deleted." });
    expect(await act([["intent", "delete"], ["id", b.id]])).toEqual({ ok: false, error: "Proposed image edit not found" });
    expect(await act([["intent", "approve"]])).toEqual({ ok: false, error: "Which edit?" });
  });
});

describe("/app/ai-tools", () => {
  const load = (q = "", token = admin.token) => tools.loader({ request: req(`/app/ai-tools${q}`, token), params: {}, context: {} });
  const act = (fields: [string, string | Blob][], token = admin.token) => tools.action({ request: post("/app/ai-tools", token, fields), params: {}, context: {} });

  it("needs ai.train", async () => {
    expect((await thrown(load("", mediaOnly.token))).status).toBe(403);
    expect((await thrown(act([["intent", "run"]], mediaOnly.token))).status).toBe(403);
  });

  it("says which tools the provider cannot do before anything runs, and refuses to run them", async () => {
    const page = await load(`?product=${encodeURIComponent(pgid(9501))}`);
    expect(page.capabilities["generate-flux-product-shot"]).toEqual({ provider: "local", supported: true });
    expect(page.capabilities["chrono-edit"]).toMatchObject({ provider: "local", supported: false, message: expect.stringMatching(/^chrono-edit needs the fal image provider; the local provider cannot do it/) });
    expect(page.product).toMatchObject({ id: pgid(9501), images: [{ url: source }, { url: "/uploads/images/test/9501-1.jpg" }] });
    const r = await act([["intent", "run"], ["tool", "edit"], ["model", "reve-edit"], ["product", pgid(9501)], ["image", source], ["prompt", "make it blue"]]);
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/reve-edit needs the fal image provider/) });
    expect(fake.submits).toHaveLength(0);
  });

  it("runs a product shot, shows the result next to the source, sends it to proposed edits and adds it to the product", async () => {
    const run = await act([["intent", "run"], ["tool", "product-shot"], ["product", pgid(9501)], ["image", source], ["scene", "marble table"]]);
    expect(run).toMatchObject({ ok: true, intent: "run", requestId: expect.any(String) });
    const requestId = (run as { requestId: string }).requestId;
    const queued = await load(`?product=${encodeURIComponent(pgid(9501))}&request=${requestId}`);
    expect(queued.request).toMatchObject({ id: requestId, status: "queued", operation: "generate-flux-product-shot", sourceUrl: source });
    await drain();
    expect(fake.submits.at(-1)).toMatchObject({ op: "generate-flux-product-shot", input: { image_url: source, scene: "marble table" } });
    const done = await load(`?product=${encodeURIComponent(pgid(9501))}&request=${requestId}`);
    expect(done.request).toMatchObject({ status: "completed", progress: 100, images: [expect.stringMatching(/^\/uploads\/images\/ai\//)] });

    const sent = await act([["intent", "propose"], ["request", requestId], ["product", pgid(9501)], ["source", source]]);
    expect(sent).toEqual({ ok: true, intent: "propose", message: "Sent to proposed edits (Cotton Poplin Shirt)." });
    const edit = await app.database.db.proposedImageEdit.findFirstOrThrow({ where: { product_id: pgid(9501) } });
    expect(edit).toMatchObject({ image_url: source, proposed_image_url: done.request!.images[0], operation: "generate-flux-product-shot", status: "pending" });
    // ai.train without media.manage cannot send to proposed edits.
    expect(await act([["intent", "propose"], ["request", requestId], ["product", pgid(9501)]], aiOnly.token)).toMatchObject({ ok: false, error: expect.stringMatching(/media.manage/) });

    const added = await act([["intent", "add"], ["request", requestId], ["product", pgid(9501)]]);
    expect(added).toEqual({ ok: true, intent: "add", message: "Added to the product's images (position 3)." });
    expect(await act([["intent", "propose"], ["request", "00000000-0000-0000-0000-000000000000"], ["product", pgid(9501)]])).toMatchObject({ ok: false, error: "The result is not ready" });
  });

  it("remove object needs a box; fill sends a mask made from the box; product training uses the product's images", async () => {
    expect(await act([["intent", "run"], ["tool", "remove-object"], ["product", pgid(9501)], ["image", source]])).toMatchObject({ ok: false, error: expect.stringMatching(/Draw a box/) });
    expect(await act([["intent", "run"], ["tool", "product-shot"], ["product", pgid(9501)]])).toMatchObject({ ok: false, error: expect.stringMatching(/Choose one of the product's images/) });
    expect(await act([["intent", "run"], ["tool", "product-shot"]])).toMatchObject({ ok: false, error: "Choose a product first" });
    const box = JSON.stringify({ x: 20, y: 30, width: 50, height: 40 });
    expect(await act([["intent", "run"], ["tool", "remove-object"], ["product", pgid(9501)], ["image", source], ["box", box]])).toMatchObject({ ok: true });
    expect(await act([["intent", "run"], ["tool", "fill"], ["product", pgid(9501)], ["image", source], ["box", box], ["prompt", "plain fabric"]])).toMatchObject({ ok: true });
    expect(await act([["intent", "run"], ["tool", "train-product"], ["product", pgid(9501)]])).toMatchObject({ ok: true });
    await drain();
    const bySubmit = Object.fromEntries(fake.submits.map((s) => [s.op, s.input as Record<string, any>]));
    expect(bySubmit["remove-object"]).toMatchObject({ image_url: source, box: { x: 20, y: 30, width: 50, height: 40 } });
    const fill = bySubmit["flux-lora-fill"];
    expect(fill).toMatchObject({ image_url: source, prompt: "plain fabric", mask_url: expect.stringMatching(/^\/uploads\/images\/ai-tools\/masks\//) });
    const mask = await app.ctx.storage.get(fill.mask_url.replace(/^\/uploads\//, ""));
    const { data, info } = await sharp(mask!).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 250]);
    expect(data[35 * 200 + 25]).toBe(255); // inside the box
    expect(data[5 * 200 + 5]).toBe(0); // outside
    expect(bySubmit["train-flux-product"]).toMatchObject({ image_urls: expect.arrayContaining([source]), trigger_word: expect.stringMatching(/^prod_/) });
  });

  it("uploads a source photo (checked: an image)", async () => {
    const ok = await act([["intent", "upload"], ["file", new Blob([await jpeg("#334455")], { type: "image/jpeg" })]]);
    expect(ok).toMatchObject({ ok: true, intent: "upload", url: expect.stringMatching(/^\/uploads\/images\/ai-tools\/.+\.jpg$/) });
    const bad = await act([["intent", "upload"], ["file", new Blob([new TextEncoder().encode("not an image")], { type: "image/jpeg" })]]);
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/Unsupported file type/) });
  });
});

describe("/app/clones", () => {
  const load = (token = admin.token) => clones.loader({ request: req("/app/clones", token), params: {}, context: {} });
  const act = (fields: [string, string | Blob][], token = admin.token) => clones.action({ request: post("/app/clones", token, fields), params: {}, context: {} });

  it("needs ai.train; creates an admin model from uploads, makes it private, deletes it", async () => {
    expect((await thrown(load(mediaOnly.token))).status).toBe(403);
    const photo = new Blob([await jpeg("#aa8877")], { type: "image/jpeg" });
    expect(await act([["intent", "create"], ["name", "House Model A"], ["gender", "womenswear"], ["isPublic", "true"], ["train", "true"], ["photos", photo]])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/at least 4 photos/),
    });
    expect(await act([["intent", "create"], ["name", ""], ["gender", "womenswear"], ["photos", photo]])).toMatchObject({ ok: false, error: "Give the model a name" });
    expect(await act([["intent", "create"], ["name", "House Model A"], ["gender", "womenswear"], ["isPublic", "true"], ["train", "false"], ["photos", photo], ["photos", photo]])).toEqual({
      ok: true,
      intent: "create",
      message: "House Model A created.",
    });
    const listed = (await load()).clones.find((c) => c.name === "House Model A")!;
    expect(listed).toMatchObject({ isPublic: true, photos: 2, status: "READY" });
    expect(await act([["intent", "private"], ["id", listed.id]])).toMatchObject({ ok: true, message: "House Model A is now private." });
    expect((await load()).clones.find((c) => c.id === listed.id)?.isPublic).toBe(false);
    expect(await act([["intent", "train"], ["id", listed.id]])).toMatchObject({ ok: false, error: expect.stringMatching(/at least 4 photos/) });
    expect(await act([["intent", "delete"], ["id", listed.id]])).toEqual({ ok: true, intent: "delete", message: "Model deleted." });
    expect((await load()).clones.find((c) => c.id === listed.id)).toBeUndefined();
  });
});
