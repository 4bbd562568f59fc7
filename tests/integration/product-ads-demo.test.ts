/**
 * The product ads demo (prisma/demo/product-ads.ts), seeded as the first embedded start does (dates
 * moved so the demo ends yesterday): the features catalogue with prices; for the demo vendor and
 * Maison Lumière, requests open and completed and ads in every status, each with a timeline whose
 * moves chain (from = the previous to) and end in the ad's status, authored by the demo admin and
 * the vendor's user; LIVE and INACTIVE ads with local ads-platform ids (the metrics sync's rows);
 * creatives from the products' own images; every date in the past. Seeding again writes the same
 * rows; a database seeded before the ads existed gets them once.
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_AD_FEATURES, DEMO_AD_IDS_TO_SYNC, ensureProductAdsDemo, seedProductAdsDemo } from "../../prisma/demo/product-ads";
import { AdRequestDetailSchema } from "~/contract/product-ad-requests";
import { getAdRequest } from "~/services/product-ads/requests.server";
import { createDemoDatabase, DEMO_SEEDS, type DemoDatabase } from "../helpers/demo-template";

// The seed's stats zone (UTC) does not touch the ads; the same seed as the ad metrics' test.
const SEED = DEMO_SEEDS.endsYesterday();
const TODAY = SEED.today;
const STATUSES = ["PENDING", "COMPLETED", "FEEDBACK_PENDING", "APPROVED", "LIVE", "INACTIVE"] as const;
let demo: DemoDatabase;
let db: PrismaClient;

beforeAll(async () => {
  demo = await createDemoDatabase(SEED);
  db = demo.database.db;
}, 300_000);

afterAll(async () => {
  await demo?.close();
});

async function snapshot() {
  const requests = await db.productAdRequest.findMany({ orderBy: { id: "asc" }, include: { features: { orderBy: { feature_id: "asc" } } } });
  // Metric totals are the metrics sync's (prisma/demo/product-ad-metrics.ts runs after the date
  // shift), not this seed's: a re-seed of the ads alone leaves them out.
  const ads = await db.productAd.findMany({
    orderBy: { id: "asc" },
    omit: { impressions: true, reach: true, clicks: true, conversions: true, spend: true, purchase_value: true, metrics_synced_at: true },
  });
  const events = await db.productAdEvent.findMany({ orderBy: { id: "asc" } });
  const features = await db.productAdFeature.findMany({ orderBy: { code: "asc" }, omit: { created_at: true, updated_at: true } });
  return JSON.stringify({ requests, ads, events, features });
}

describe("the product ads demo", () => {
  it("has the features catalogue of docs/product-ads.md with prices", async () => {
    const features = await db.productAdFeature.findMany();
    expect(features.map((f) => f.code).sort()).toEqual(DEMO_AD_FEATURES.map((f) => f.code).sort());
    expect(features.filter((f) => f.kind === "format").map((f) => f.name).sort()).toEqual(["Carousel", "Single image", "Story (9:16)"]);
    expect(features.filter((f) => f.kind === "placement").map((f) => f.name).sort()).toEqual(["Facebook feed", "Instagram Stories", "Instagram feed"]);
    expect(features.filter((f) => f.kind === "extra").map((f) => f.name).sort()).toEqual(["AI background", "Copy variants", "On a model"]);
    expect(features.find((f) => f.code === "format.carousel")?.price?.toFixed(2)).toBe("25.00");
    expect(features.every((f) => f.active)).toBe(true);
  });

  it("gives the demo vendor and Maison Lumière requests open and completed, and ads in every status", async () => {
    const demoVendor = await db.user.findFirstOrThrow({ where: { email: "vendor@demo.local" }, select: { vendor_id: true } });
    const lumiere = await db.vendor.findUniqueOrThrow({ where: { handle: "maison-lumiere" } });
    for (const vendorId of [demoVendor.vendor_id!, lumiere.id]) {
      const requests = await db.productAdRequest.groupBy({ by: ["status"], where: { vendor_id: vendorId }, _count: { _all: true } });
      expect(requests.map((r) => r.status).sort()).toEqual(["completed", "open"]);
      const ads = await db.productAd.groupBy({ by: ["status"], where: { vendor_id: vendorId }, _count: { _all: true } });
      expect(ads.map((a) => a.status).sort()).toEqual([...STATUSES].sort());
      // A completed request has an ad past PENDING (the rule of POST /{id}/complete).
      for (const r of await db.productAdRequest.findMany({ where: { vendor_id: vendorId, status: "completed" } })) {
        expect(r.completed_at).not.toBeNull();
        expect(await db.productAd.count({ where: { request_id: r.id, status: { not: "PENDING" } } })).toBeGreaterThan(0);
      }
      // Every request's products are the vendor's own, and its images were uploaded by its user or the team.
      for (const r of await db.productAdRequest.findMany({ where: { vendor_id: vendorId }, include: { features: { include: { feature: true } } } })) {
        expect(await db.product.count({ where: { id: { in: r.product_ids }, vendor_id: vendorId } })).toBe(r.product_ids.length);
        expect(r.features.some((f) => f.feature.kind === "format")).toBe(true);
        const images = await db.uploadedImage.findMany({ where: { id: { in: r.uploaded_image_ids } }, include: { user: true } });
        expect(images.length).toBe(r.uploaded_image_ids.length);
        for (const i of images) expect(i.user?.role === "ADMIN" || i.user?.vendor_id === vendorId).toBe(true);
      }
    }
  });

  it("tells each ad's story: chained moves ending in its status, by the admin and the vendor's user, in the past", async () => {
    const admin = await db.user.findFirstOrThrow({ where: { email: "admin@demo.local" } });
    const vendorUser = await db.user.findFirstOrThrow({ where: { email: "vendor@demo.local" } });
    const ads = await db.productAd.findMany({ include: { events: { orderBy: { created_at: "asc" } }, product: { include: { images: true } } } });
    const now = Date.now();
    for (const ad of ads) {
      expect(ad.events[0]?.kind, ad.id).toBe("created");
      let status: string | null = null;
      for (const e of ad.events) {
        if (e.from_status !== null) expect(e.from_status, `${ad.id} ${e.kind}`).toBe(status);
        if (e.to_status !== null) status = e.to_status;
        expect(e.created_at.getTime()).toBeLessThan(now);
        expect(e.created_at.getTime()).toBeGreaterThanOrEqual(ad.created_at.getTime());
      }
      expect(status, ad.id).toBe(ad.status);
      expect(ad.created_at.getTime()).toBeLessThan(now);
      if (ad.status !== "PENDING") {
        expect(ad.title.length).toBeGreaterThan(0);
        expect(ad.title.length).toBeLessThanOrEqual(40);
        expect(ad.body?.length ?? 0).toBeLessThanOrEqual(500);
        expect(ad.media_urls.length).toBeGreaterThan(0);
        const own = new Set(ad.product.images.map((i) => i.url));
        for (const url of ad.media_urls) expect(own.has(url), url).toBe(true);
      }
    }
    const northwindEvents = await db.productAdEvent.findMany({ where: { ad: { vendor_id: vendorUser.vendor_id! } } });
    expect(new Set(northwindEvents.map((e) => e.author_id))).toEqual(new Set([admin.id, vendorUser.id]));
    for (const e of northwindEvents) {
      if (["feedback", "approve"].includes(e.kind)) expect(e.author_id).toBe(vendorUser.id);
      if (["created", "complete", "publish"].includes(e.kind)) expect(e.author_id).toBe(admin.id);
    }
    const feedback = await db.productAd.findFirstOrThrow({ where: { status: "FEEDBACK_PENDING", vendor_id: vendorUser.vendor_id! }, include: { events: true } });
    expect(feedback.events.filter((e) => e.kind === "feedback" && e.text).length).toBeGreaterThanOrEqual(2);
    expect(feedback.feedback).toBeTruthy();
  });

  it("has LIVE and INACTIVE ads with local ads-platform ids and a publication date: the metrics sync's list", async () => {
    const published = await db.productAd.findMany({ where: { status: { in: ["LIVE", "INACTIVE"] } } });
    expect(published.map((a) => a.id).sort()).toEqual([...DEMO_AD_IDS_TO_SYNC].sort());
    for (const ad of published) {
      expect(ad.meta_ad_id).toBe(`local-ad-${ad.id}`);
      expect(ad.meta_campaign_id).toMatch(/^local-/);
      expect(ad.published_at).not.toBeNull();
      expect(ad.published_at!.getTime()).toBeLessThan(Date.now() - 7 * 86_400_000);
    }
    expect(await db.productAd.count({ where: { status: { notIn: ["LIVE", "INACTIVE"] }, meta_ad_id: { not: null } } })).toBe(0);
  });

  it("reads through the requests service as the contract shapes it", async () => {
    const vendorUser = await db.user.findFirstOrThrow({ where: { email: "vendor@demo.local" } });
    const requests = await db.productAdRequest.findMany({ where: { vendor_id: vendorUser.vendor_id! } });
    for (const r of requests) {
      const d = AdRequestDetailSchema.parse(await getAdRequest(db, { userId: vendorUser.id, vendorId: vendorUser.vendor_id }, r.id));
      expect(d.products.length).toBe(r.product_ids.length);
      expect(d.uploaded_images.length).toBe(r.uploaded_image_ids.length);
      expect(d.created_by?.name).toBe("Nora Lindqvist");
    }
  });

  it("writes the same rows again, and a database seeded before the ads gets them once", async () => {
    const before = await snapshot();
    await seedProductAdsDemo(db, { anchor: "2026-11-01" });
    await seedProductAdsDemo(db, { anchor: "2026-11-01" });
    const again = await snapshot();
    // Same rows (ids, statuses, links), dated from the other anchor.
    const strip = (s: string) => s.replace(/"\d{4}-\d{2}-\d{2}T[^"]+"/g, '"<date>"');
    expect(strip(again)).toBe(strip(before));
    await seedProductAdsDemo(db, { anchor: "2026-11-01" });
    expect(await snapshot()).toBe(again);

    expect(await ensureProductAdsDemo(db, { today: TODAY })).toBe(false);
    await db.productAd.deleteMany();
    await db.productAdRequest.deleteMany();
    await db.productAdFeature.deleteMany();
    expect(await ensureProductAdsDemo(db, { today: TODAY })).toBe(true);
    expect(await db.productAd.count({ where: { status: "LIVE" } })).toBe(2);
  });
});
