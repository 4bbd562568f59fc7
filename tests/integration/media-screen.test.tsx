/**
 * The Internal media admin screen (app/routes/app.media.tsx) and its upload resource route
 * (app/routes/app.media_.upload.tsx) through their loaders and actions in local mode: the
 * media.manage guard, uploads (a valid image stored as a JPEG; refused files — not an image, a
 * video, too large, no file, not multipart — with the server's message and status), the grid with
 * type and colour filters, bad filter input, pages, delete (found / unknown / unknown intent), and
 * the page server-rendered with Polaris.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";

type PageRoute = typeof import("../../app/routes/app.media");
type UploadRoute = typeof import("../../app/routes/app.media_.upload");
let page: PageRoute;
let uploadRoute: UploadRoute;
let app: TestApp;
let manager: { token: string };
let editor: { token: string };
let vendorUser: { token: string };

const UNSUPPORTED = "Unsupported file type: upload a JPEG, PNG or WebP image (the type is read from the file's content, not its name)";

async function load(query = "", token: string | null = manager.token) {
  const data = await page.loader({ request: req(`/app/media${query}`, token), params: {}, context: {} });
  if (!data) throw new Error("the page's own load answered null");
  return data;
}
const act = (fields: Record<string, string>, token: string | null = manager.token) => page.action({ request: form("/app/media", token, fields), params: {}, context: {} });
const renderPage = async (query = "") => renderRoute({ id: "routes/app.media", path: "/app/media", url: `/app/media${query}`, data: await load(query), Component: page.default });

/** A multipart upload as the page's XMLHttpRequest sends it. */
function multipart(file: Blob | null, name = "upload.png", fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  if (file) fd.set("file", file instanceof File ? file : new File([file], name, { type: file.type || "application/octet-stream" }));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}
async function upload(body: BodyInit | null, token: string | null = manager.token, init: RequestInit = {}) {
  const res = (await uploadRoute.action({ request: req("/app/media/upload", token, { method: "POST", body, ...init }), params: {}, context: {} })) as Response;
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
}
const png = async (hex: string, width = 40, height = 30) => new Blob([new Uint8Array(await sharp({ create: { width, height, channels: 3, background: hex } }).png().toBuffer())], { type: "image/png" });
const storedFile = (url: string) => path.join(app.dataDir, "uploads", url.replace(/^\/uploads\//, ""));
const mediaCount = () => app.database.db.internalMedia.count();

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  page = await import("../../app/routes/app.media");
  uploadRoute = await import("../../app/routes/app.media_.upload");
  manager = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "admins.manage"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Media Vendor", handle: "media-vendor" } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs media.manage: 403 for other admins and vendors on the page, its action and the upload; login when signed out", async () => {
    for (const token of [editor.token, vendorUser.token]) {
      const res = await thrown(load("", token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ staffError: "You do not have permission to see this page" });
      expect((await thrown(act({ intent: "delete", id: "x" }, token))).status).toBe(403);
      const up = await thrown(uploadRoute.action({ request: req("/app/media/upload", token, { method: "POST", body: multipart(await png("#ff0000")) }), params: {}, context: {} }));
      expect(up.status).toBe(403);
      expect(await up.json()).toEqual({ staffError: "You do not have permission to see this page" });
    }
    const out = await thrown(load("?type=image", null));
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fmedia%3Ftype%3Dimage");
    expect((await thrown(act({ intent: "delete", id: "x" }, null))).status).toBe(302);
    const upOut = await thrown(uploadRoute.action({ request: req("/app/media/upload", null, { method: "POST", body: multipart(await png("#ff0000")) }), params: {}, context: {} }));
    expect(upOut.status).toBe(302);
    expect(upOut.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fmedia%2Fupload");
    expect(await mediaCount()).toBe(0);
  });

  it("shows Internal media in the navigation only with media.manage", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["media.manage"] }).map((n) => n.url)).toContain("/app/media");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/media");
    expect(navigationFor({ role: "VENDOR", permissions: ["media.manage"] }).map((n) => n.url)).not.toContain("/app/media");
  });
});

describe("an empty page", () => {
  it("has no media and invites an upload", async () => {
    expect(await load()).toEqual({
      filter: { color: null, lab: null, threshold: 10, type: "" },
      error: null,
      page: { page: 1, total: 0, totalPages: 0 },
      media: [],
    });
    const html = await renderPage();
    expect(html).toContain("Internal media");
    expect(html).toContain("0 items");
    expect(html).toContain("No media yet: drop images above to upload them.");
    expect(html).toContain("JPEG, PNG or WebP, up to 10 MB and 40 megapixels; stored as JPEG without metadata");
    expect(html).not.toContain('data-testid="media-tile"');
  });
});

describe("uploads", () => {
  it("stores a valid PNG as a JPEG and answers 201 with the media", async () => {
    const r = await upload(multipart(await png("#d0201a", 80, 60), "red-poster.png", { tags: "Campaign, red" }));
    expect(r.status).toBe(201);
    expect(r.type).toContain("application/json");
    expect(r.body).toMatchObject({ ok: true, media: { type: "image", format: "jpg", title: "red-poster", width: 80, height: 60, tags: ["campaign", "red"] } });
    expect(r.body.media.url).toMatch(/^\/uploads\/images\/internal\/[0-9a-f-]{36}\.jpg$/);
    expect(r.body.media.color.hex).toMatch(/^#[0-9a-f]{6}$/);
    const meta = await sharp(fs.readFileSync(storedFile(r.body.media.url))).metadata();
    expect(meta.format).toBe("jpeg");
    expect(await mediaCount()).toBe(1);
  });

  it("takes a title given with the upload", async () => {
    const r = await upload(multipart(await png("#1f3fbf"), "IMG_0001.png", { title: "Blue backdrop" }));
    expect(r.status).toBe(201);
    expect(r.body.media.title).toBe("Blue backdrop");
  });

  it("refuses a file that is not an image (by content, whatever its name) with 415 and the server's message", async () => {
    const r = await upload(multipart(new Blob(["hello, not a picture"], { type: "image/png" }), "fake.png"));
    expect(r).toEqual({ status: 415, type: expect.stringContaining("application/json"), body: { ok: false, error: UNSUPPORTED } });
  });

  it("refuses a video (type=video, or video bytes) with 415", async () => {
    const video = await upload(multipart(await png("#00ff00"), "clip.png", { type: "video" }));
    expect(video.status).toBe(415);
    expect(video.body).toEqual({ ok: false, error: "Video uploads are not supported yet: upload a JPEG, PNG or WebP image" });
    const mp4 = new Uint8Array(32);
    mp4.set([...Buffer.from("ftypisom")], 4);
    const bytes = await upload(multipart(new Blob([mp4]), "clip.mp4"));
    expect(bytes.status).toBe(415);
    expect(bytes.body.error).toBe("Video uploads are not supported yet: upload a JPEG, PNG or WebP image");
  });

  it("refuses a file over 10 MB with 413 and its size", async () => {
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff], 0);
    const r = await upload(multipart(new Blob([big], { type: "image/jpeg" }), "huge.jpg"));
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ ok: false, error: "The file is 11.0 MB; the maximum is 10 MB" });
  });

  it("refuses an upload without a file, one that is not a form, bad fields and other methods", async () => {
    const none = await upload(multipart(null, "", { title: "nothing" }));
    expect(none).toMatchObject({ status: 400, body: { ok: false, error: 'file is required: attach the image in a "file" field' } });
    const json = await upload(JSON.stringify({ file: "x" }), manager.token, { headers: { "content-type": "application/json" } });
    expect(json).toMatchObject({ status: 400, body: { ok: false, error: 'Send the upload as multipart/form-data with the image in a "file" field' } });
    const badType = await upload(multipart(await png("#ffffff"), "x.png", { type: "audio" }));
    expect(badType.status).toBe(400);
    expect(badType.body.ok).toBe(false);
    expect(badType.body.error).toEqual(expect.any(String));
    const put = await upload(null, manager.token, { method: "PUT" });
    expect(put).toMatchObject({ status: 405, body: { ok: false, error: "Use POST to upload" } });
    expect(await mediaCount()).toBe(2);
  });
});

describe("the grid and its filters", () => {
  it("lists the uploads newest first and renders them as tiles", async () => {
    const data = await load();
    expect(data.error).toBeNull();
    expect(data.page).toEqual({ page: 1, total: 2, totalPages: 1 });
    expect(data.media.map((m) => m.title)).toEqual(["Blue backdrop", "red-poster"]);
    expect(data.media[0]).toMatchObject({ type: "image", distance: null, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    // What the browser gets: only JSON-safe values.
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
    const html = await renderPage();
    expect(html).toContain("2 items");
    expect(html.match(/data-testid="media-tile"/g)).toHaveLength(2);
    // Tiles load a 320 px WebP from the image route, not the full-size upload (issue 20).
    expect(html).toContain(`src="${data.media[1].url.replace(/^\/uploads\/images\//, "/images/")}?w=320&amp;fm=webp"`);
    expect(html).toContain('alt="red-poster"');
    expect(html).toContain("80×60");
    expect(html).not.toContain("No media yet");
  });

  it("filters by colour: nearest first, with the colour in CIELAB and the distance shown", async () => {
    const data = await load("?color=%23d0201a&threshold=15");
    expect(data.error).toBeNull();
    expect(data.filter).toMatchObject({ color: "#d0201a", threshold: 15, type: "" });
    expect(data.filter.lab).toEqual({ l: expect.any(Number), a: expect.any(Number), b: expect.any(Number) });
    expect(data.media.map((m) => m.title)).toEqual(["red-poster"]);
    expect(data.media[0].distance).toBeLessThan(15);
    const html = await renderPage("?color=%23d0201a&threshold=15");
    expect(html).toContain("1 item matching the colour");
    expect(html).toContain(`L ${data.filter.lab!.l} · a ${data.filter.lab!.a} · b ${data.filter.lab!.b}`);
    expect(html).toContain(`ΔE ${data.media[0].distance}`);

    const none = await load("?color=%2300ff00&threshold=2");
    expect(none.media).toEqual([]);
    expect(await renderPage("?color=%2300ff00&threshold=2")).toContain("Nothing close to this colour: widen the closeness or pick another colour.");
  });

  it("filters by type", async () => {
    expect((await load("?type=video")).media).toEqual([]);
    expect((await load("?type=image")).media).toHaveLength(2);
  });

  it("bad filter input shows the problem and falls back to the whole list", async () => {
    const data = await load("?color=%23d0201a&threshold=500");
    expect(data.error).toBe("similar_to_color.threshold: must be at most 100");
    expect(data.media).toHaveLength(2);
    expect(await renderPage("?color=%23d0201a&threshold=500")).toContain("similar_to_color.threshold: must be at most 100");
    const badType = await load("?type=audio");
    expect(badType.error).toMatch(/^type: /);
    expect(badType.media).toHaveLength(2);
    expect((await load("?color=not-a-colour")).filter.lab).toBeNull();
  });

  it("pages by 24", async () => {
    await app.database.db.internalMedia.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({ type: "image" as const, format: "jpg", url: `/uploads/images/internal/page-${i}.jpg`, title: `Filler ${i}`, created_at: new Date(Date.UTC(2020, 0, 1, 0, i)) })),
    });
    const first = await load();
    expect(first.page).toEqual({ page: 1, total: 25, totalPages: 2 });
    expect(first.media).toHaveLength(24);
    const second = await load("?page=2");
    expect(second.page).toEqual({ page: 2, total: 25, totalPages: 2 });
    expect(second.media.map((m) => m.title)).toEqual(["Filler 0"]);
    expect(await renderPage("?page=2")).toContain("Page 2 of 2");
    // A page past the end (an old link) says so and leads back, rather than "No media yet".
    const past = await renderPage("?page=5");
    expect(past).toContain("Nothing on page 5: the list has 2 pages.");
    expect(past).toContain("Go to the first page");
    expect(past).not.toContain("No media yet");
    await app.database.db.internalMedia.deleteMany({ where: { title: { startsWith: "Filler " } } });
  });
});

describe("delete", () => {
  it("deletes one item and its stored file", async () => {
    const item = (await load()).media.find((m) => m.title === "red-poster")!;
    expect(fs.existsSync(storedFile(item.url))).toBe(true);
    expect(await act({ intent: "delete", id: item.id })).toEqual({ ok: true, message: "Deleted." });
    expect(fs.existsSync(storedFile(item.url))).toBe(false);
    expect((await load()).media.map((m) => m.title)).toEqual(["Blue backdrop"]);
  });

  it("answers the server's message for an unknown item, a missing id or an unknown intent", async () => {
    expect(await act({ intent: "delete", id: "00000000-0000-0000-0000-000000000000" })).toEqual({ ok: false, error: "Media not found" });
    expect(await act({ intent: "delete" })).toEqual({ ok: false, error: "Media not found" });
    const id = (await load()).media[0].id;
    expect(await act({ intent: "rename", id })).toEqual({ ok: false, error: "Unknown action" });
    expect(await mediaCount()).toBe(1);
  });
});
