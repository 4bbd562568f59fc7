/**
 * Demo data for local mode: wipes the demo rows and writes them again, identically every time
 * (see ./generate.ts), and renders the garment images once into `<uploadsDir>/images/demo/`.
 *
 * Wiping truncates the catalogue, order, review, collection and event tables (with CASCADE, so
 * rows that hang off products or orders, such as try-ons or import jobs, go too) and deletes the
 * demo users and vendors. It never touches Shopify sessions, jobs, worker heartbeats, non-demo
 * users and their tokens, or the migrations table.
 */
import { seedHouseModels } from "./house-models";
import { ensureDemoMaterials, seedDemoMaterials } from "./materials";
import type { PrismaClient } from "@prisma/client";
import { hashPassword } from "../../app/services/passwords.server";
import { PermissionNames } from "../../app/contract/permissions";
import { buildDemoData, demoIdentityIds, DEMO_EMAIL_DOMAIN, DEMO_PASSWORD } from "./generate";
import { VENDORS } from "./catalog-data";
import { demoUuid } from "./prng";
import { renderImages } from "./images.server";
import { seedAccountOrderExtras } from "./account-orders";
import { addAdminOrderDemo, seedAdminOrderExtras } from "./admin-orders";
import { rebuildRecommendationAggregates } from "../../app/services/recommendations/aggregates.server";
import { demoShiftDays, shiftDemoDates } from "./shift-dates";
import { BASE_DAY, addVendorReturns, buildVendorActivity, seedVendorPayouts } from "./vendor-activity";
import { rebuildProductDailyStats, statsTimeZone } from "../../app/services/vendor-stats/daily-stats.server";
import { ensureProductAdsDemo, seedProductAdsDemo } from "./product-ads";
import { seedKnowledgeDemo } from "./knowledge";
import { seedDemoOutfits } from "./outfits";
import { seedDemoAdMetrics } from "./product-ad-metrics";

export interface SeedReport {
  created: boolean;
  counts: Record<string, number>;
}

export interface SeedOptions {
  uploadsDir: string;
  log?: { info: (o: object, msg?: string) => void };
  /** Given: a `products.index` catch-up is queued, so a worker computes the products' vectors. */
  queue?: import("../../app/jobs/queue.server").JobQueue;
  /**
   * Given (the embedded start: the store's today): every demo date is moved by whole days so the
   * demo's last day is the day before this one (./shift-dates.ts). Without it the dates stay fixed
   * around BASE_DATE.
   */
  today?: string;
  /** The store's zone (STORE_TIMEZONE) for the vendor stats' days and payout months; default the app's configured one. */
  timeZone?: string;
}

/** Tables emptied before seeding (their dependants follow through CASCADE). */
const DEMO_TABLES = [
  "store_featured_products",
  "user_favorite_stores",
  "saved_products",
  "collection_products",
  "style_products",
  "collections",
  "styles",
  "review_rating_summaries",
  "review_invitations",
  "review_dismissals",
  "reviews",
  "return_line_items",
  "return_requests",
  "returns",
  "product_purchase_events",
  "product_view_events",
  "order_items",
  "orders",
  "product_images",
  "product_variants",
  "product_options",
  "product_embeddings",
  "product_companions",
  "products",
  "stores",
  "vendor_payouts",
];

export async function countDemoData(db: PrismaClient): Promise<Record<string, number>> {
  // Sequential on purpose: the embedded database serves one query at a time anyway.
  const counts: Record<string, number> = {};
  counts.products = await db.product.count();
  counts.variants = await db.productVariant.count();
  counts.images = await db.productImage.count();
  counts.stores = await db.store.count();
  counts.vendors = await db.vendor.count();
  counts.users = await db.user.count();
  counts.orders = await db.order.count();
  counts.orderItems = await db.orderItem.count();
  counts.reviews = await db.review.count();
  counts.collections = await db.collection.count();
  counts.styles = await db.style.count();
  counts.companions = await db.productCompanion.count();
  counts.viewEvents = await db.productViewEvent.count();
  counts.purchaseEvents = await db.productPurchaseEvent.count();
  counts.popularity = await db.productPopularity.count();
  counts.coOccurrences = await db.productCoOccurrence.count();
  counts.tryOns = await db.tryOn.count();
  counts.productDailyStats = await db.productDailyStat.count();
  counts.vendorPayouts = await db.vendorPayout.count();
  return counts;
}

/** The catalogue key of a demo vendor id (its PRNG stream and daily volume). */
function vendorKeyOf(id: string): string {
  return VENDORS.find((v) => demoUuid("vendor", v.key) === id)?.key ?? id;
}

async function inBatches<T>(rows: T[], size: number, write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/** Tables a wipe must never reach (directly or through CASCADE). */
const PROTECTED_TABLES = ["users", "auth_tokens", "vendors", "Session", "jobs", "worker_heartbeats", "_prisma_migrations", "webhook_deliveries", "email_outbox"];

/**
 * Every table TRUNCATE … CASCADE of DEMO_TABLES would empty: the tables themselves and, through
 * foreign keys, everything that references them. Checked before wiping so that a future schema
 * change (say, a users column referencing stores) fails loudly instead of emptying users.
 */
async function cascadeClosure(db: PrismaClient): Promise<string[]> {
  const rows = await db.$queryRaw<{ relname: string }[]>`
    WITH RECURSIVE dep(oid) AS (
      SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = ANY(${DEMO_TABLES}::text[])
      UNION
      SELECT con.conrelid FROM pg_constraint con JOIN dep ON con.confrelid = dep.oid WHERE con.contype = 'f'
    )
    SELECT c.relname::text AS relname FROM pg_class c WHERE c.oid IN (SELECT oid FROM dep) ORDER BY 1`;
  return rows.map((r) => r.relname);
}

async function wipeDemoData(db: PrismaClient, log?: SeedOptions["log"]): Promise<void> {
  const { userIds, vendorIds, vendorHandles } = demoIdentityIds();
  const closure = await cascadeClosure(db);
  const reached = closure.filter((t) => PROTECTED_TABLES.includes(t));
  if (reached.length > 0) {
    throw new Error(`Refusing to wipe the demo data: TRUNCATE … CASCADE would also empty ${reached.join(", ")} (prisma/demo/seed-demo.server.ts)`);
  }
  const extra = closure.filter((t) => !DEMO_TABLES.includes(t));
  if (extra.length > 0) log?.info({ tables: extra }, "demo data wipe also empties tables that reference the catalogue");
  await db.$executeRawUnsafe(`TRUNCATE TABLE ${DEMO_TABLES.map((t) => `"${t}"`).join(", ")} CASCADE`);
  await db.$executeRaw`DELETE FROM "users" WHERE "email" LIKE ${`%@${DEMO_EMAIL_DOMAIN}`} OR "id" = ANY(${userIds}::text[])`;
  await db.$executeRaw`DELETE FROM "vendors" WHERE "id" = ANY(${vendorIds}::text[]) OR "handle" = ANY(${vendorHandles}::text[])`;
}

/** Wipes the demo data and writes it again; identical rows on every run. */
export async function seedDemoData(db: PrismaClient, opts: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const rows = buildDemoData(passwordHash);
  // Partly fulfilled orders and returns in every state for the admin screens (./admin-orders.ts);
  // marks refunded items returned in the generated rows, so it runs before they are written.
  const adminOrders = addAdminOrderDemo(rows);
  // The vendor portal's 90 days of views, saves and try-ons (./vendor-activity.ts).
  const vendorActivity = buildVendorActivity(rows, rows.vendors.map((v) => ({ key: vendorKeyOf(v.id!), id: v.id! })), opts.today ? demoShiftDays(opts.today) : 0);
  rows.viewEvents.push(...vendorActivity.viewEvents);
  rows.savedProducts.push(...vendorActivity.savedProducts);
  addVendorReturns(rows, adminOrders, rows.vendors.map((v) => v.id!));
  const built = performance.now();

  // Images first (CPU) — independent of the database.
  const images = await renderImages(opts.uploadsDir, rows.imageJobs);

  const dbStarted = performance.now();
  await wipeDemoData(db, opts.log);
  await db.vendor.createMany({ data: rows.vendors });
  await db.user.createMany({ data: rows.users });
  await db.store.createMany({ data: rows.stores });
  await inBatches(rows.products, 400, (data) => db.product.createMany({ data }));
  await inBatches(rows.options, 2000, (data) => db.productOption.createMany({ data }));
  await inBatches(rows.variants, 1500, (data) => db.productVariant.createMany({ data }));
  await inBatches(rows.images, 2000, (data) => db.productImage.createMany({ data }));
  await inBatches(rows.companions, 1000, (data) => db.productCompanion.createMany({ data }));
  // The material tree and the products' materials (./materials.ts), for the search's material filter.
  await seedDemoMaterials(db, rows.companions);
  await db.storeFeaturedProduct.createMany({ data: rows.featured });
  await db.collection.createMany({ data: rows.collections });
  await db.collectionProduct.createMany({ data: rows.collectionProducts });
  await db.style.createMany({ data: rows.styles });
  await db.styleProduct.createMany({ data: rows.styleProducts });
  await db.order.createMany({ data: rows.orders });
  await inBatches(rows.orderItems, 1000, (data) => db.orderItem.createMany({ data }));
  await inBatches(rows.purchaseEvents, 2000, (data) => db.productPurchaseEvent.createMany({ data }));
  await inBatches(rows.viewEvents, 4000, (data) => db.productViewEvent.createMany({ data }));
  await inBatches(rows.reviews, 1000, (data) => db.review.createMany({ data }));
  await db.reviewRatingSummary.createMany({ data: rows.summaries });
  await db.savedProduct.createMany({ data: rows.savedProducts });
  await db.userFavoriteStore.createMany({ data: rows.favoriteStores });
  // The demo shopper's cancelled order, returns and back-in-stock requests (./account-orders.ts).
  await seedAccountOrderExtras(db, rows);
  await seedAdminOrderExtras(db, adminOrders);
  // Public clones everyone can try products on (./house-models.ts).
  await seedHouseModels(db, opts.uploadsDir);
  await inBatches(vendorActivity.tryOns, 2000, (data) => db.tryOn.createMany({ data }));
  // Ad requests and ads in every status for two vendors (./product-ads.ts), dated before BASE_DAY and moved below with the rest.
  await seedProductAdsDemo(db, { anchor: BASE_DAY });
  await seedKnowledgeDemo(db);
  // Before the aggregates: their recent-activity windows read the moved dates.
  if (opts.today) await shiftDemoDates(db, await cascadeClosure(db), demoShiftDays(opts.today));
  // Recommendation aggregates (popularity, viewed/bought together) from the events just written,
  // by the same rules as the live updates (app/services/recommendations/aggregates.server.ts).
  const recommendations = await rebuildRecommendationAggregates(db, { now: new Date() });
  // Published looks from the engine's best proposals (./outfits.ts): it reads the aggregates just built.
  await seedDemoOutfits(db);
  // The vendor stats from the moved events (rows the services bumped while seeding are replaced),
  // then the payouts of the closed months, computed from them.
  const timeZone = opts.timeZone ?? statsTimeZone();
  await db.$executeRawUnsafe(`TRUNCATE TABLE "product_daily_stats"`);
  await rebuildProductDailyStats(db, { timeZone });
  await seedVendorPayouts(db, { today: opts.today ?? BASE_DAY, timeZone });
  // The LIVE and INACTIVE demo ads' last 30 days from the local ads platform, after the dates moved.
  await seedDemoAdMetrics(db, { today: opts.today ?? BASE_DAY, timeZone, log: opts.log });
  const dbMs = Math.round(performance.now() - dbStarted);

  if (opts.queue) {
    const { enqueueStaleProductIndex } = await import("../../app/services/product-index.server");
    await enqueueStaleProductIndex({ queue: opts.queue });
  }

  const counts = await countDemoData(db);
  opts.log?.info(
    {
      counts,
      ms: Math.round(performance.now() - started),
      buildMs: Math.round(built - started),
      dbMs,
      recommendationsMs: recommendations.ms,
      images: images,
    },
    "demo data seeded",
  );
  return { created: true, counts };
}

/**
 * Seeds only into an empty database (no products and no users). On a database seeded before, the
 * demo admin is brought up to every permission (see ensureDemoAdminPermissions).
 */
export async function seedDemoDataIfEmpty(db: PrismaClient, opts: SeedOptions): Promise<SeedReport> {
  const [products, users] = [await db.product.count(), await db.user.count()];
  if (products > 0 || users > 0) {
    await ensureDemoAdminPermissions(db, opts.log);
    // A database seeded before the knowledge base existed (or whose entries were all deleted) gets the demo entries.
    await seedKnowledgeDemo(db);
    await ensureVendorStats(db, opts);
    await ensureDemoMaterials(db);
    // A database seeded before curated looks existed gets the demo's (not once an admin has worked on looks).
    await seedDemoOutfits(db);
    if (await ensureProductAdsDemo(db, { today: opts.today ?? BASE_DAY })) await seedDemoAdMetrics(db, { today: opts.today ?? BASE_DAY, timeZone: opts.timeZone ?? statsTimeZone(), log: opts.log });
    return { created: false, counts: await countDemoData(db) };
  }
  return seedDemoData(db, opts);
}

/**
 * A database seeded before the vendor stats existed (migration 20261127200000) has events but an
 * empty product_daily_stats and no payouts: the stats are rebuilt from its events once, and the
 * demo vendors get their monthly payouts, so the vendor pages show its data. Returns whether it did.
 */
export async function ensureVendorStats(db: PrismaClient, opts: Pick<SeedOptions, "log" | "today" | "timeZone">): Promise<boolean> {
  if ((await db.productDailyStat.count()) > 0) return false;
  if ((await db.productViewEvent.count()) === 0 && (await db.order.count()) === 0) return false;
  const timeZone = opts.timeZone ?? statsTimeZone();
  const { rows } = await rebuildProductDailyStats(db, { timeZone });
  const { vendorIds } = demoIdentityIds();
  const payouts = (await db.vendorPayout.count({ where: { vendor_id: { in: vendorIds } } })) === 0 ? await seedVendorPayouts(db, { today: opts.today ?? BASE_DAY, timeZone, vendorIds }) : 0;
  opts.log?.info({ rows, payouts }, "vendor stats built from the events of a database seeded before they existed");
  return true;
}

/**
 * The demo admin (admin@demo.local, an ADMIN) has every permission, including those added after
 * its database was seeded (e.g. `apikeys.manage`): the missing ones are added, the ones it has are
 * kept. Nobody else is touched; no demo admin, nothing happens. Returns the permissions added.
 */
export async function ensureDemoAdminPermissions(db: PrismaClient, log?: SeedOptions["log"]): Promise<string[]> {
  const admin = await db.user.findFirst({ where: { email: `admin@${DEMO_EMAIL_DOMAIN}`, role: "ADMIN" }, select: { id: true, permissions: true } });
  if (!admin) return [];
  const missing = PermissionNames.filter((p) => !admin.permissions.includes(p));
  if (!missing.length) return [];
  await db.user.update({ where: { id: admin.id }, data: { permissions: [...admin.permissions, ...missing] } });
  log?.info({ userId: admin.id, added: missing }, "demo admin granted the permissions added since the demo data was seeded");
  return missing;
}
