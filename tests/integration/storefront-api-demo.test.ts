/**
 * The local Storefront endpoint over the whole demo catalogue: every visible product comes back
 * through the reader's documents (pages of 250 with the full product fragment), in agreement with
 * the read model, and hidden products never do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { type TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { createStorefrontReader, localStorefrontApiUrl, type StorefrontProduct, type StorefrontReader } from "../../app/storefront-api/client";

type RouteModule = { action: (args: ActionFunctionArgs) => Promise<Response> };

let app: TestApp;
let reader: StorefrontReader;

beforeAll(async () => {
  app = await createDemoTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  const route = (await import("../../app/routes/api.storefront.graphql")) as unknown as RouteModule;
  const origin = "http://127.0.0.1:3000";
  reader = createStorefrontReader({
    storeDomain: origin,
    apiUrl: localStorefrontApiUrl(origin),
    customFetchApi: (url, init) => route.action({ request: new Request(url, init), params: {}, context: {} } as ActionFunctionArgs),
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe("local Storefront API over the demo catalogue", () => {
  it("lists every visible product in pages of 250, matching the read model", async () => {
    const db = app.database.db;
    const now = new Date();
    const visible = await db.product.findMany({
      where: { status: "active", OR: [{ publishedAt: null }, { publishedAt: { lte: now } }] },
      select: { id: true, handle: true, target_gender: true, _count: { select: { variants: true, images: true } } },
    });
    expect(visible.length).toBeGreaterThan(250);

    const all: StorefrontProduct[] = [];
    let after: string | null = null;
    const started = performance.now();
    for (;;) {
      const page = await reader.productsList({ first: 250, after, sortKey: "TITLE" });
      all.push(...page.products);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(20_000);

    expect(all.map((p) => p.id).sort()).toEqual(visible.map((p) => p.id).sort());
    const byId = new Map(visible.map((v) => [v.id, v]));
    for (const p of all) {
      const row = byId.get(p.id)!;
      expect(p.handle).toBe(row.handle);
      expect(p.targetGender).toBe(row.target_gender);
      expect(p.variants.length).toBe(Math.min(row._count.variants, 250));
      expect(p.images.length).toBe(Math.min(row._count.images, 50));
      for (const v of p.variants) {
        expect(v.product.handle).toBe(p.handle);
        expect(v.price.amount).toMatch(/^\d+\.\d{2}$/);
      }
    }
    // Titles come back sorted (byte order agrees on both databases for the demo titles' first letters).
    const firstLetters = all.map((p) => p.title[0].toLowerCase());
    expect(firstLetters).toEqual([...firstLetters].sort());
  });

  it("answers by ids for a full page of ids, in order, and hides drafts", async () => {
    const db = app.database.db;
    const ids = (await db.product.findMany({ where: { status: "active", OR: [{ publishedAt: null }, { publishedAt: { lte: new Date() } }] }, select: { id: true }, orderBy: { id: "desc" }, take: 250 })).map((p) => p.id);
    const hidden = await db.product.findFirst({ where: { status: { not: "active" } }, select: { id: true } });
    const list = await reader.productsByIds(hidden ? [hidden.id, ...ids] : ids);
    expect(list.map((p) => p.id)).toEqual(ids);
    if (hidden) expect(await reader.productById(hidden.id)).toBeNull();
  });

  it("filters the demo catalogue with query syntax consistently with the read model", async () => {
    const db = app.database.db;
    const visible = { status: "active" as const, OR: [{ publishedAt: null }, { publishedAt: { lte: new Date() } }] };
    const sample = await db.product.findFirst({ where: { ...visible, tags: { isEmpty: false } }, select: { vendor: true, tags: true } });
    expect(sample).toBeTruthy();
    const vendorCount = await db.product.count({ where: { ...visible, vendor: sample!.vendor } });
    const page = await reader.productsList({ first: 250, query: `vendor:"${sample!.vendor}"` });
    expect(page.products.length).toBe(Math.min(vendorCount, 250));
    expect(page.products.every((p) => p.vendor === sample!.vendor)).toBe(true);
    const tagged = await reader.productsList({ first: 5, query: `tag:${sample!.tags[0]}` });
    expect(tagged.products.length).toBeGreaterThan(0);
  });
});
