/**
 * The demo data: seeded into a fresh migrated database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL; see tests/helpers/db.ts), it meets the catalogue minimums, its images
 * exist and are real JPEGs, the demo accounts are right, and a second run produces the same rows
 * while leaving non-demo data (sessions, jobs, other users and their tokens) alone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PermissionNames } from "~/contract/permissions";
import { verifyPassword } from "~/services/passwords.server";
import { seedDemoData, seedDemoDataIfEmpty, type SeedReport } from "../../prisma/demo/seed-demo.server";
import { BASE_DATE } from "../../prisma/demo/generate";
import { DEMO_LOOKS_PER_GENDER } from "../../prisma/demo/outfits";
import { orderAnalytics } from "~/services/orders/analytics.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

const TIMEOUT = 120_000;

let database: TestDatabase;
let db: PrismaClient;
let uploadsDir: string;
let first: SeedReport;

/** Everything that must come out identical on every run (password hashes are salted, so not users). */
async function snapshot(client: PrismaClient) {
  const products = await client.product.findMany({ orderBy: { id: "asc" } });
  const variants = await client.productVariant.findMany({ orderBy: { id: "asc" }, select: { id: true, product_id: true, title: true, price: true, compareAtPrice: true, inventory_quantity: true, color_hex: true, image_url: true } });
  const orders = await client.order.findMany({ orderBy: { id: "asc" }, include: { items: { orderBy: { id: "asc" } } } });
  const reviews = await client.review.findMany({ orderBy: { id: "asc" } });
  const views = await client.productViewEvent.findMany({ orderBy: { id: "asc" } });
  const users = await client.user.findMany({ where: { email: { endsWith: "@demo.local" } }, orderBy: { id: "asc" }, omit: { password_hash: true } });
  const returns = await client.return.findMany({ orderBy: { id: "asc" }, include: { line_items: { orderBy: { id: "asc" } }, request: true } });
  const events = await client.orderEvent.findMany({ orderBy: { id: "asc" } });
  return JSON.stringify({ products, variants, orders, reviews, views, users, returns, events });
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-uploads-"));
}, TIMEOUT);

afterAll(async () => {
  await database?.close();
  if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
});

describe("demo data", () => {
  it(
    "seeds an empty database",
    async () => {
      first = await seedDemoDataIfEmpty(db, { uploadsDir });
      expect(first.created).toBe(true);
      const c = first.counts;
      expect(c.products).toBeGreaterThanOrEqual(600);
      expect(c.stores).toBeGreaterThanOrEqual(12);
      expect(c.vendors).toBeGreaterThanOrEqual(6);
      expect(c.variants).toBeGreaterThan(c.products * 2);
      expect(c.images).toBeGreaterThanOrEqual(c.products * 2);
      expect(c.users).toBeGreaterThanOrEqual(40);
      expect(c.orders).toBeGreaterThanOrEqual(100);
      expect(c.reviews).toBeGreaterThanOrEqual(400);
      expect(c.collections).toBeGreaterThanOrEqual(6);
      expect(c.styles).toBeGreaterThanOrEqual(6);
      expect(await db.productCompanion.count()).toBe(c.products);
    },
    TIMEOUT,
  );

  it("covers menswear, womenswear and both, with consistent prices and stock", async () => {
    const genders = await db.product.groupBy({ by: ["target_gender"], _count: { _all: true } });
    const byGender = Object.fromEntries(genders.map((g) => [g.target_gender, g._count._all]));
    expect(Object.keys(byGender).sort()).toEqual(["both", "menswear", "womenswear"]);
    for (const g of ["menswear", "womenswear"]) expect(byGender[g] / first.counts.products).toBeGreaterThan(0.3);
    expect(byGender.both / first.counts.products).toBeGreaterThan(0.1);

    const inconsistent = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM products p JOIN (
        SELECT product_id, min(price) AS lo, max(price) AS hi, sum(inventory_quantity) AS inv, bool_or("availableForSale") AS avail
        FROM product_variants GROUP BY product_id) v ON v.product_id = p.id
      WHERE p."priceMin" <> v.lo OR p."priceMax" <> v.hi OR p."totalInventory" <> v.inv OR p."availableForSale" <> v.avail`;
    expect(Number(inconsistent[0].n)).toBe(0);
    expect(await db.product.count({ where: { availableForSale: false } })).toBeGreaterThan(0);
    expect(await db.productVariant.count({ where: { availableForSale: false } })).toBeGreaterThan(0);
    expect(await db.productVariant.count({ where: { compareAtPrice: { not: null } } })).toBeGreaterThan(0);

    const variants = await db.productVariant.findMany({ select: { color_hex: true, selectedOptions: true } });
    for (const v of variants) {
      expect(v.color_hex).toMatch(/^#[0-9a-f]{6}$/i);
      expect((v.selectedOptions as { name: string }[]).map((o) => o.name)).toEqual(["Color", "Size"]);
    }
    expect(await db.productOption.count()).toBe(first.counts.products * 2);
  });

  it("gives every product garment images that exist as 600 px wide JPEGs", async () => {
    const products = await db.product.findMany({ select: { id: true, featuredImageUrl: true, images: { orderBy: { position: "asc" }, select: { url: true, altText: true } } } });
    const files = new Set<string>();
    for (const p of products) {
      expect(p.images.length).toBeGreaterThanOrEqual(1);
      expect(p.featuredImageUrl).toBe(p.images[0].url);
      for (const img of p.images) {
        expect(img.url).toMatch(/^\/uploads\/images\/demo\/[a-z0-9-]+\.jpg$/);
        expect(img.altText).toBeTruthy();
        files.add(img.url);
      }
    }
    expect(files.size).toBeGreaterThan(100);
    for (const url of files) {
      const file = path.join(uploadsDir, url.replace(/^\/uploads\//, ""));
      expect(fs.existsSync(file), file).toBe(true);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe("jpeg");
      expect(meta.width).toBe(600);
      expect(meta.height).toBe(800);
    }
    const variantImages = await db.productVariant.findMany({ distinct: ["image_url"], select: { image_url: true } });
    for (const v of variantImages) expect(files.has(v.image_url!)).toBe(true);
  });

  it("creates the demo accounts", async () => {
    const admin = await db.user.findUnique({ where: { email: "admin@demo.local" } });
    const vendor = await db.user.findUnique({ where: { email: "vendor@demo.local" } });
    const shopper = await db.user.findUnique({ where: { email: "shopper@demo.local" } });
    expect(admin?.role).toBe("ADMIN");
    expect([...admin!.permissions].sort()).toEqual([...PermissionNames].sort());
    expect(vendor?.role).toBe("VENDOR");
    expect(shopper?.role).toBe("SHOPPER");
    expect((shopper!.metadata as { interests?: string }).interests).toBe("womenswear,minimalist");
    for (const u of [admin!, vendor!, shopper!]) {
      expect(u.auth_provider).toBe("password");
      expect(await verifyPassword(u.password_hash, "demo-password")).toBe(true);
    }
    expect(vendor!.vendor_id).toBeTruthy();
    const v = await db.vendor.findUnique({ where: { id: vendor!.vendor_id! }, include: { _count: { select: { stores: true } } } });
    expect(v?.name).toBe("Northwind Atelier");
    expect(v!._count.stores).toBeGreaterThanOrEqual(2);
    expect(await db.order.count({ where: { user_id: shopper!.id } })).toBeGreaterThan(0);
  });

  it("has public house models, ready for try-on, whose photos exist", async () => {
    const models = await db.clone.findMany({ where: { isPublic: true, user_id: null }, orderBy: { id: "asc" } });
    expect(models.length).toBe(2);
    for (const m of models) {
      expect(m.processing_status).toBe("READY");
      expect(m.outfit_generation_status).toBe("COMPLETED");
      expect(m.baseImageUrls.length).toBeGreaterThan(0);
      const file = path.join(uploadsDir, m.baseImageUrls[0].replace(/^\/uploads\//, ""));
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe("jpeg");
      expect(Math.min(meta.width!, meta.height!)).toBeGreaterThanOrEqual(512);
    }
  });

  it("publishes the engine's best looks for each gender, recorded as accepted proposals", async () => {
    const looks = await db.outfit.findMany({ where: { source: "proposed", status: "published" } });
    for (const gender of ["womenswear", "menswear"]) {
      const mine = looks.filter((l) => l.target_gender === gender);
      expect(mine.length, gender).toBeGreaterThanOrEqual(2);
      expect(mine.length, gender).toBeLessThanOrEqual(DEMO_LOOKS_PER_GENDER);
    }
    for (const look of looks) {
      expect(look.product_ids.length).toBeGreaterThanOrEqual(2);
      expect(await db.product.count({ where: { id: { in: look.product_ids }, status: "active" } })).toBe(look.product_ids.length);
    }
    expect(await db.outfitTrainingData.count({ where: { approved: true, outfit_id: { in: looks.map((l) => l.id) } } })).toBe(looks.length);
  });

  it("has orders in every status, matching purchase events and consistent reviews", async () => {
    const statuses = await db.orderItem.groupBy({ by: ["status"], _count: { _all: true } });
    expect(statuses.map((s) => s.status).sort()).toEqual(["cancelled", "delivered", "fulfilled", "returned", "shipped", "unfulfilled"]);
    const liveItems = await db.orderItem.count({ where: { status: { not: "cancelled" } } });
    expect(await db.productPurchaseEvent.count()).toBe(liveItems);
    expect(first.counts.viewEvents).toBeGreaterThan(2000);
    // Recommendation aggregates built from those events (popularity, viewed/bought together).
    expect(first.counts.popularity).toBeGreaterThan(400);
    expect(first.counts.coOccurrences).toBeGreaterThan(1000);

    const verified = await db.review.findMany({ where: { verified_buyer: true }, select: { user_id: true, product_id: true, shopify_order_id: true } });
    expect(verified.length).toBeGreaterThan(0);
    for (const r of verified) {
      const bought = await db.orderItem.count({ where: { order_id: r.shopify_order_id!, product_id: r.product_id, status: { not: "cancelled" } } });
      expect(bought).toBe(1);
    }
    const ratings = await db.review.groupBy({ by: ["rating"], _count: { _all: true } });
    const count = (n: number) => ratings.find((r) => r.rating === n)?._count._all ?? 0;
    expect(count(5)).toBeGreaterThan(count(1));
    expect(await db.review.count({ where: { status: "pending" } })).toBeGreaterThan(0);
    expect(await db.reviewRatingSummary.count({ where: { product_id: { not: null } } })).toBe(first.counts.products);
    expect(await db.reviewRatingSummary.count({ where: { store_id: { not: null } } })).toBe(first.counts.stores);
  });

  it("has what every admin orders tab, filter and chart needs in the 90 days before the demo's date", async () => {
    const since = new Date(BASE_DATE.getTime() - 90 * 86_400_000);
    const recent = { created_at: { gte: since } };
    // Orders: unfulfilled, partly fulfilled, fulfilled with tracking, shipped, delivered, cancelled.
    const fulfilment = await db.order.groupBy({ by: ["fulfillment_status"], where: recent, _count: { _all: true } });
    expect(fulfilment.map((f) => f.fulfillment_status).sort()).toEqual(["FULFILLED", "PARTIALLY_FULFILLED", "UNFULFILLED"]);
    const financial = (await db.order.groupBy({ by: ["financial_status"], where: recent, _count: { _all: true } })).map((f) => f.financial_status);
    for (const s of ["PAID", "PARTIALLY_REFUNDED", "AUTHORIZED", "PENDING"]) expect(financial).toContain(s);
    expect(await db.order.count({ where: { ...recent, status: "cancelled" } })).toBeGreaterThan(0);
    const partly = await db.order.findMany({ where: { ...recent, fulfillment_status: "PARTIALLY_FULFILLED" }, include: { items: true } });
    expect(partly.length).toBeGreaterThanOrEqual(4);
    for (const o of partly) {
      expect(o.items.some((i) => i.status === "unfulfilled")).toBe(true);
      expect(o.items.some((i) => i.status !== "unfulfilled" && i.tracking_number && i.tracking_url)).toBe(true);
    }
    for (const status of ["unfulfilled", "fulfilled", "shipped", "delivered", "cancelled", "returned"] as const) {
      expect(await db.orderItem.count({ where: { status, order: recent } }), status).toBeGreaterThan(0);
    }
    expect(await db.orderItem.count({ where: { status: "fulfilled", tracking_number: { not: null }, order: recent } })).toBeGreaterThan(0);

    // Returns in every Return status and return requests in every status, on recent orders.
    const returns = await db.return.findMany({ where: { order: recent }, include: { line_items: true, request: true } });
    expect([...new Set(returns.map((r) => r.status))].sort()).toEqual(["CANCELED", "DELIVERED", "IN_TRANSIT", "LABEL_SENT", "REFUNDED", "REQUESTED"]);
    expect([...new Set(returns.map((r) => r.request?.status))].sort()).toEqual(["CANCELED", "CLOSED", "DECLINED", "OPEN", "REQUESTED"]);
    for (const r of returns) {
      if (r.status === "REFUNDED") expect(Number(r.refund_amount)).toBeGreaterThan(0);
      if (["LABEL_SENT", "IN_TRANSIT", "DELIVERED", "REFUNDED"].includes(r.status)) expect(r.tracking_number).not.toBeNull();
    }
    // A partial return: part of what was announced came back, the rest carries a note.
    expect(returns.some((r) => r.line_items.some((li) => li.received) && r.line_items.some((li) => !li.received && li.note))).toBe(true);
    // Refunded items are marked returned.
    const refundedItems = returns.filter((r) => r.status === "REFUNDED").flatMap((r) => r.line_items.filter((li) => li.received).map((li) => li.order_item_id));
    expect(await db.orderItem.count({ where: { id: { in: refundedItems }, status: "returned" } })).toBe(refundedItems.length);

    // Their timelines (other shoppers' returns; the demo shopper's are ./account-orders.ts's): every
    // return has its request event; the declined one carries its reason.
    const events = await db.orderEvent.findMany({ where: { order: recent } });
    const demoShopper = await db.user.findUniqueOrThrow({ where: { email: "shopper@demo.local" } });
    for (const r of returns.filter((x) => x.request && x.user_id !== demoShopper.id)) expect(events.some((e) => e.kind === "return.requested" && (e.data as { returnId?: string }).returnId === r.id), r.id).toBe(true);
    const declined = returns.find((r) => r.request?.status === "DECLINED")!;
    expect(events.find((e) => e.kind === "return.declined")?.data).toMatchObject({ requestId: declined.request!.id, reason: expect.stringMatching(/worn/i) });
    for (const kind of ["fulfillment.created", "return.approved", "return.status", "return.received", "return.refunded", "return.cancelled_by_customer"]) expect(events.some((e) => e.kind === kind), kind).toBe(true);

    // The analytics of those 90 days: every figure has something to chart.
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const a = await orderAnalytics({ db }, { from: day(since), to: day(BASE_DATE) });
    expect(a.daily).toHaveLength(91);
    expect(a.totals.orders).toBeGreaterThan(100);
    expect(a.totals.cancelledOrders).toBeGreaterThan(0);
    expect(a.totals.returnedUnits).toBeGreaterThan(0);
    expect(Number(a.totals.refunded)).toBeGreaterThan(0);
    expect(a.daily.filter((d) => d.orders > 0).length).toBeGreaterThan(45);
    expect(a.topProducts).toHaveLength(10);
    expect(a.topVendors.length).toBeGreaterThanOrEqual(3);
  });

  it(
    "re-seeds identically and leaves non-demo data alone",
    async () => {
      const before = await snapshot(db);
      const outsider = await db.user.create({ data: { email: "someone@example.com", auth_provider: "password", auth_tokens: { create: { token_hash: "t-hash", expires_at: new Date(Date.now() + 86_400_000) } } } });
      await db.session.create({ data: { id: "offline_demo.myshopify.com", shop: "demo.myshopify.com", state: "s", accessToken: "x" } });
      await db.job.create({ data: { queue: "demo-test", payload: {} } });

      const skipped = await seedDemoDataIfEmpty(db, { uploadsDir });
      expect(skipped.created).toBe(false);
      expect(skipped.counts.users).toBe(first.counts.users + 1);

      const second = await seedDemoData(db, { uploadsDir });
      expect(second.counts).toEqual({ ...first.counts, users: first.counts.users + 1 });
      expect(await snapshot(db)).toBe(before);

      expect(await db.user.findUnique({ where: { id: outsider.id } })).not.toBeNull();
      expect(await db.authToken.count({ where: { user_id: outsider.id } })).toBe(1);
      expect(await db.session.count()).toBe(1);
      expect(await db.job.count({ where: { queue: "demo-test" } })).toBe(1);
    },
    TIMEOUT,
  );
});
