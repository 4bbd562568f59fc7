/**
 * The admins' uploaded images screen (/app/uploads, issue 19) through its loader and action,
 * server-rendered: media.manage only, every user's uploads with what uses them, rotate and delete
 * (background removal is covered by tests/integration/uploaded-images.test.ts).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { refusal, renderRoute, staffForm, staffRequest as req } from "../helpers/route";

type Route = typeof import("../../app/routes/app.uploads");
let app: TestApp;
let page: Route;
let admin: { id: string; token: string };
let adminOther: { token: string };
let shopper: { id: string; token: string };

const args = (path: string, token: string | null) => ({ request: req(path, token), params: {}, context: {} });

async function upload(userId: string, n: number, purpose: string) {
  const key = `images/screen/${n}.jpg`;
  const bytes = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#884422" } }).jpeg().toBuffer();
  const put = await app.ctx.storage.put(key, bytes, "image/jpeg");
  return app.database.db.uploadedImage.create({ data: { url: put.url, key, width: 40, height: 20, content_type: "image/jpeg", size_bytes: bytes.byteLength, user_id: userId, purpose } });
}

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  page = await import("../../app/routes/app.uploads");
  admin = await app.createUser({ role: "ADMIN", permissions: ["media.manage"] });
  adminOther = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  shopper = await app.createUser();
});
afterAll(async () => {
  await app?.close();
});

describe("uploaded images screen", () => {
  it("media.manage only; lists every user's uploads with what uses them; rotates and deletes", async () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["media.manage"] }).map((n) => n.url)).toContain("/app/uploads");
    expect(await refusal(page.loader(args("/app/uploads", adminOther.token)))).toBe(403);
    expect(await refusal(page.loader(args("/app/uploads", shopper.token)))).toBe("login");
    const review = await upload(shopper.id, 1, "review");
    const ad = await upload(admin.id, 2, "ad_request");
    await app.database.db.product.create({ data: { id: "gid://shopify/Product/9701", title: "Screen Tee", handle: "screen-tee" } });
    await app.database.db.review.create({ data: { rating: 4, body: "Good", name: "Sam", product_id: "gid://shopify/Product/9701", images: [review.url] } });

    const data = await page.loader(args("/app/uploads", admin.token));
    expect(data.items.map((i) => [i.id, i.used_by])).toEqual([
      [ad.id, []],
      [review.id, ["a review"]],
    ]);
    expect((await page.loader(args("/app/uploads?purpose=review", admin.token))).items.map((i) => i.id)).toEqual([review.id]);
    const html = await renderRoute({ id: "uploads", path: "/app/uploads", url: "/app/uploads", data, Component: page.default });
    expect(html).toContain("Uploaded images");
    expect(html).toContain("a review");
    expect(html).toContain("40×20");

    const act = (fields: Record<string, string>) => page.action({ request: staffForm("/app/uploads", admin.token, fields), params: {}, context: {} });
    expect(await act({ intent: "rotate", id: review.id, degrees: "90" })).toEqual({ ok: true, message: "Rotated (version 2)" });
    expect((await app.database.db.uploadedImage.findUniqueOrThrow({ where: { id: review.id } })).width).toBe(20);
    expect(await act({ intent: "delete", id: review.id })).toEqual({ ok: false, error: "This image is still used by a review: remove it there first" });
    expect(await act({ intent: "delete", id: ad.id })).toEqual({ ok: true, message: "Deleted" });
    expect(await act({ intent: "rotate", id: ad.id, degrees: "90" })).toEqual({ ok: false, error: "Uploaded image not found" });
  });
});
