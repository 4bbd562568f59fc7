/**
 * The ad features catalogue through the API (app/contract/product-ad-requests.ts,
 * docs/product-ads.md "Ad features"): vendors read the active features only, the team reads all
 * and creates, changes, deactivates and deletes them; a feature chosen by a request cannot be
 * deleted (409) but can be deactivated, and then stays on that request while new requests are
 * refused it. Roles: vendor, team, admin without ads.manage, shopper, anonymous.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
type Caller = { id: string; token: string };
let vendor: Caller;
let team: Caller;
let adminNoAds: Caller;
let shopper: Caller;
const V = "adfeat-vendor";
const P = "gid://shopify/Product/8301";

const call = (who: Caller | null, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined> } = {}) =>
  app.api(method, path, { ...opts, token: who?.token ?? null });

async function create(body: Record<string, unknown>) {
  const res = await call(team, "POST", "/product-ad-features", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; code: string; active: boolean };
}

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await db.vendor.create({ data: { id: V, name: "Cedar Lane", handle: "cedar-lane-ads" } });
  await db.product.create({ data: { id: P, title: "Cedar Knit", handle: "cedar-knit", vendor_id: V } });
  vendor = await app.createUser({ role: "VENDOR", vendorId: V });
  team = await app.createUser({ role: "ADMIN", permissions: ["ads.manage"] });
  adminNoAds = await app.createUser({ role: "ADMIN", permissions: ["vendors.manage"] });
  shopper = await app.createUser();
});
afterAll(async () => {
  await app?.close();
});

describe("ad features", () => {
  let single: { id: string };
  let story: { id: string };
  let feed: { id: string };
  let hidden: { id: string };

  it("the team creates features; the answer has every field; a code in use is 409, a bad one 400", async () => {
    single = await create({ code: "format.single", kind: "format", name: "Single image", description: "One square image", price: 0, sort_order: 1 });
    story = await create({ code: "format.story", kind: "format", name: "Story (9:16)", price: "15.5", currencyCode: "EUR", sort_order: 3 });
    feed = await create({ code: "placement.fb_feed", kind: "placement", name: "Facebook feed" });
    hidden = await create({ code: "extra.retired", kind: "extra", name: "Retired extra", active: false });
    const got = await call(team, "GET", `/product-ad-features/${story.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ id: story.id, code: "format.story", kind: "format", name: "Story (9:16)", description: null, price: "15.50", currencyCode: "EUR", active: true, sort_order: 3 });
    expect((await call(team, "GET", `/product-ad-features/${feed.id}`)).body.price).toBeNull();

    const taken = await call(team, "POST", "/product-ad-features", { body: { code: "format.single", kind: "format", name: "Again" } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe("An ad feature with this code already exists");
    expect((await call(team, "POST", "/product-ad-features", { body: { code: "Format Single", kind: "format", name: "x" } })).status).toBe(400);
    expect((await call(team, "POST", "/product-ad-features", { body: { code: "format.x", kind: "video", name: "x" } })).status).toBe(400);
    expect((await call(team, "POST", "/product-ad-features", { body: { code: "format.y", kind: "format", name: "y", price: -1 } })).status).toBe(400);
  });

  it("vendors, shoppers and admins without ads.manage cannot create, change or delete (403); anonymous 401", async () => {
    for (const who of [vendor, adminNoAds, shopper]) {
      expect((await call(who, "POST", "/product-ad-features", { body: { code: "format.z", kind: "format", name: "z" } })).status).toBe(403);
      expect((await call(who, "PATCH", `/product-ad-features/${single.id}`, { body: { name: "Renamed" } })).status).toBe(403);
      expect((await call(who, "DELETE", `/product-ad-features/${feed.id}`)).status).toBe(403);
    }
    for (const who of [adminNoAds, shopper]) {
      expect((await call(who, "GET", "/product-ad-features")).status).toBe(403);
      expect((await call(who, "GET", `/product-ad-features/${single.id}`)).status).toBe(403);
    }
    expect((await call(null, "GET", "/product-ad-features")).status).toBe(401);
    expect((await app.database.db.productAdFeature.findUniqueOrThrow({ where: { id: single.id } })).name).toBe("Single image");
  });

  it("lists by kind then sort order: vendors the active ones only, the team all, with kind and active filters", async () => {
    const codes = (res: { body: { items: { code: string }[] } }) => res.body.items.map((f) => f.code);
    const forVendor = await call(vendor, "GET", "/product-ad-features");
    expect(forVendor.status).toBe(200);
    expect(codes(forVendor)).toEqual(["format.single", "format.story", "placement.fb_feed"]);
    // A vendor asking for inactive ones still gets the active ones only.
    expect(codes(await call(vendor, "GET", "/product-ad-features", { query: { active: "false" } }))).toEqual(["format.single", "format.story", "placement.fb_feed"]);
    expect(codes(await call(team, "GET", "/product-ad-features"))).toEqual(["format.single", "format.story", "placement.fb_feed", "extra.retired"]);
    expect(codes(await call(team, "GET", "/product-ad-features", { query: { active: "false" } }))).toEqual(["extra.retired"]);
    expect(codes(await call(team, "GET", "/product-ad-features", { query: { kind: "placement" } }))).toEqual(["placement.fb_feed"]);
    expect((await call(team, "GET", "/product-ad-features", { query: { kind: "banner" } })).status).toBe(400);
  });

  it("one feature: vendors get 404 for an inactive one, everyone 404 for an unknown id", async () => {
    expect((await call(vendor, "GET", `/product-ad-features/${single.id}`)).status).toBe(200);
    const inactive = await call(vendor, "GET", `/product-ad-features/${hidden.id}`);
    expect(inactive.status).toBe(404);
    expect(inactive.body.error.message).toBe("Ad feature not found");
    expect((await call(team, "GET", `/product-ad-features/${hidden.id}`)).status).toBe(200);
    expect((await call(team, "GET", "/product-ad-features/no-such-feature")).status).toBe(404);
  });

  it("the team changes a feature; unknown 404, nothing to change 400, a taken code 409", async () => {
    const res = await call(team, "PATCH", `/product-ad-features/${single.id}`, { body: { name: "Single image ad", price: 4.99, description: "Square 1:1", sort_order: 0 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Single image ad", price: "4.99", description: "Square 1:1", sort_order: 0, code: "format.single" });
    const cleared = await call(team, "PATCH", `/product-ad-features/${single.id}`, { body: { price: null, description: null } });
    expect(cleared.body).toMatchObject({ price: null, description: null });
    expect((await call(team, "PATCH", "/product-ad-features/no-such-feature", { body: { name: "x" } })).status).toBe(404);
    expect((await call(team, "PATCH", `/product-ad-features/${single.id}`, { body: {} })).status).toBe(400);
    expect((await call(team, "PATCH", `/product-ad-features/${single.id}`, { body: { code: "format.story" } })).status).toBe(409);
  });

  it("a feature in use cannot be deleted (409, with the count) but can be deactivated: the request keeps it, new requests are refused it", async () => {
    const filed = await call(vendor, "POST", "/product-ad-requests", { body: { product_ids: [P], feature_ids: [single.id, story.id], brief: "Knits for autumn", daily_budget: 10 } });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const refused = await call(team, "DELETE", `/product-ad-features/${story.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This ad feature is used by 1 ad request: deactivate it instead");

    const off = await call(team, "PATCH", `/product-ad-features/${story.id}`, { body: { active: false } });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const kept = await call(vendor, "GET", `/product-ad-requests/${filed.body.id}`);
    expect(kept.body.features.map((f: { code: string; active: boolean }) => [f.code, f.active])).toEqual([
      ["format.single", true],
      ["format.story", false],
    ]);
    const again = await call(vendor, "POST", "/product-ad-requests", { body: { product_ids: [P], feature_ids: [story.id], brief: "Stories", daily_budget: 10 } });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe("This ad feature is not available");
    expect((await call(vendor, "GET", `/product-ad-features/${story.id}`)).status).toBe(404);
  });

  it("an unused feature is deleted; then it is unknown (404)", async () => {
    const del = await call(team, "DELETE", `/product-ad-features/${feed.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });
    expect((await call(team, "GET", `/product-ad-features/${feed.id}`)).status).toBe(404);
    expect((await call(team, "DELETE", `/product-ad-features/${feed.id}`)).status).toBe(404);
  });
});
