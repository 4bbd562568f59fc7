/**
 * The vendor stats table (product_daily_stats, app/services/vendor-stats/daily-stats.server.ts)
 * against a fixture whose figures were computed by hand: events written through the API and the
 * services the webhooks call, in the store zone Asia/Tokyo (UTC+9, no daylight saving), so an
 * event at 14:30 UTC is on that calendar day and one at 15:30 UTC on the next.
 *
 * Views (a repeat within 30 minutes not counted), saves (an un-save takes nothing off), a try-on
 * (its reuse not counted), add-to-cart units, orders (units, revenue; a webhook replay counts
 * nothing twice), a cancellation (taken off once, no row of zeros left), a return confirmed (units)
 * and refunded (the amount spread over the lines by value), then the rebuild: the same rows in the
 * same zone, the UTC days after a change of zone.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { createFakeImageAi } from "../helpers/fake-image-ai";
import { upsertOrderFromWebhook, upsertOrderFromWebhookIn, type WebhookOrder } from "~/services/order-read-model.server";
import { rebuildProductDailyStats, rebuildVendorRollups } from "~/services/vendor-stats/daily-stats.server";

const ZONE = "Asia/Tokyo";
const VA = "vendor-stats-a";
const VB = "vendor-stats-b";
const PA1 = "gid://shopify/Product/9101";
const PA2 = "gid://shopify/Product/9102";
const PB1 = "gid://shopify/Product/9201";
const variantOf = (p: string) => `gid://shopify/ProductVariant/${p.split("/").pop()}01`;

let app: TestApp;
type U = { id: string; token: string };
let ann: U, bob: U, admin: U;
let cloneId: string;

/** Runs `work` as if the clock read `iso` (Date only: timers and the database run as usual). */
async function at<T>(iso: string, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

type Row = { product_id: string; day: string; vendor_id: string | null; views: number; saves: number; try_ons: number; add_to_carts: number; orders: number; units: number; revenue: string; returned_units: number; refunds: string };
async function table(): Promise<Row[]> {
  return app.database.db.$queryRaw<Row[]>`
    SELECT product_id, to_char(day, 'YYYY-MM-DD') AS day, vendor_id, views, saves, try_ons, add_to_carts, orders, units, revenue::text AS revenue, returned_units, refunds::text AS refunds
    FROM product_daily_stats ORDER BY product_id, day`;
}
const zero = { views: 0, saves: 0, try_ons: 0, add_to_carts: 0, orders: 0, units: 0, revenue: "0.00", returned_units: 0, refunds: "0.00" };
const row = (product_id: string, day: string, vendor_id: string, m: Partial<typeof zero>): Row => ({ product_id, day, vendor_id, ...zero, ...m });

async function product(id: string, vendorId: string, price: number, garment: string | null) {
  const n = id.split("/").pop();
  await app.database.db.product.create({
    data: {
      id,
      title: `Stats product ${n}`,
      handle: `stats-product-${n}`,
      productType: "Shirts",
      availableForSale: true,
      priceMin: price,
      priceMax: price,
      totalInventory: 50,
      status: "active",
      publishedAt: new Date("2020-01-01T00:00:00Z"),
      vendor_id: vendorId,
      featuredImageUrl: garment,
      ...(garment ? { images: { create: [{ url: garment, position: 0 }] } } : {}),
      variants: { create: [{ id: variantOf(id), title: "Default", price, sku: `STATS-${n}`, inventory_quantity: 50, availableForSale: true, selectedOptions: [] }] },
    },
  });
  if (garment) await app.database.db.productCompanion.create({ data: { shopify_product_id: id, tryon_active: true } });
}

/** An orders webhook's payload: delivered unless `open` (nothing sent yet). */
const orderPayload = (n: number, createdAt: string, lines: { product: string; qty: number; price: string }[], extra: Partial<WebhookOrder> = {}, open = false): WebhookOrder => ({
  id: n,
  name: `#S${n}`,
  email: "ann@example.test",
  created_at: createdAt,
  currency: "USD",
  total_price: "1.00",
  financial_status: "paid",
  fulfillment_status: open ? null : "fulfilled",
  closed_at: open ? null : createdAt,
  line_items: lines.map((l, i) => ({ id: n * 10 + i, product_id: l.product.split("/").pop(), variant_id: variantOf(l.product).split("/").pop(), title: `Stats product`, quantity: l.qty, price: l.price, fulfillment_status: open ? null : "fulfilled" })),
  fulfillments: open ? [] : [{ id: n * 10, shipment_status: "delivered", tracking_number: `TRK${n}`, line_items: lines.map((l, i) => ({ id: n * 10 + i, quantity: l.qty })) }],
  ...extra,
});

beforeAll(async () => {
  app = await createTestApp({ env: { STORE_TIMEZONE: ZONE }, imageAi: createFakeImageAi() });
  const db = app.database.db;
  await db.vendor.create({ data: { id: VA, name: "Stats A", handle: "stats-a" } });
  await db.vendor.create({ data: { id: VB, name: "Stats B", handle: "stats-b" } });
  ann = await app.createUser({ email: "ann@example.test" });
  bob = await app.createUser();
  admin = await app.createUser({ role: "ADMIN", permissions: ["returns.manage", "orders.manage"] });
  const garmentJpeg = await sharp({ create: { width: 400, height: 500, channels: 3, background: { r: 200, g: 30, b: 40 } } }).jpeg().toBuffer();
  const garment = (await app.ctx.storage.put("images/test/stats-garment.jpg", new Uint8Array(garmentJpeg), "image/jpeg")).url;
  const person = (await app.ctx.storage.put("images/clones/test/stats-person.jpg", new Uint8Array(fs.readFileSync(path.join(__dirname, "..", "fixtures", "people", "person-1.jpg"))), "image/jpeg")).url;
  await product(PA1, VA, 30, null);
  await product(PA2, VA, 80, garment);
  await product(PB1, VB, 45.5, null);
  cloneId = (await db.clone.create({ data: { user_id: ann.id, name: "Ann", gender: "womenswear", baseImageUrls: [person], processing_status: "READY", outfit_generation_status: "COMPLETED" } })).id;
}, 60_000);
afterAll(() => app?.close());
afterEach(() => vi.useRealTimers());

const view = (u: U, productId: string) => app.api("POST", "/users/view-product", { token: u.token, body: { product_id: productId } });
const save = (u: U, productId: string, saved?: boolean) => app.api("POST", "/users/saved-products/toggle", { token: u.token, body: { product_id: productId, ...(saved === undefined ? {} : { saved }) } });

describe("kept as events are written (store zone Asia/Tokyo)", () => {
  it("views: one per recorded view, on the Tokyo day; a repeat within 30 minutes counts nothing", async () => {
    expect((await at("2026-10-05T14:30:00Z", () => view(ann, PA1))).status).toBe(201); // Tokyo 10-05 23:30
    expect((await at("2026-10-05T14:45:00Z", () => view(ann, PA1))).body).toMatchObject({ recorded: false });
    expect((await at("2026-10-05T15:30:00Z", () => view(bob, PA1))).status).toBe(201); // Tokyo 10-06 00:30
    expect((await at("2026-10-06T03:00:00Z", () => view(bob, PB1))).status).toBe(201); // Tokyo 10-06 12:00
    expect(await table()).toEqual([row(PA1, "2026-10-05", VA, { views: 1 }), row(PA1, "2026-10-06", VA, { views: 1 }), row(PB1, "2026-10-06", VB, { views: 1 })]);
  });

  it("saves: a save counts on its day, saving again what is saved counts nothing", async () => {
    expect((await at("2026-10-06T01:00:00Z", () => save(ann, PA1, true))).body).toEqual({ product_id: PA1, saved: true }); // Tokyo 10-06 10:00
    expect((await at("2026-10-06T01:05:00Z", () => save(ann, PA1, true))).body).toEqual({ product_id: PA1, saved: true });
    expect((await at("2026-10-06T16:00:00Z", () => save(bob, PA2))).body).toEqual({ product_id: PA2, saved: true }); // Tokyo 10-07 01:00
    const rows = await table();
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-06")).toEqual(row(PA1, "2026-10-06", VA, { views: 1, saves: 1 }));
    expect(rows.find((r) => r.product_id === PA2)).toEqual(row(PA2, "2026-10-07", VA, { saves: 1 }));
  });

  it("add-to-cart: the units added, on the day", async () => {
    const r = await at("2026-10-07T00:00:00Z", () => app.api("POST", "/cart/lines", { token: ann.token, body: { merchandiseId: variantOf(PA2), quantity: 2 } })); // Tokyo 10-07 09:00
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await table()).find((x) => x.product_id === PA2)).toEqual(row(PA2, "2026-10-07", VA, { saves: 1, add_to_carts: 2 }));
  });

  it("try-on: one per request that started a try-on; get-or-generate answering the same one again counts nothing", async () => {
    const body = { ai_clone_id: cloneId, shopify_product_id: PA2 };
    const first = await at("2026-10-07T02:00:00Z", () => app.api("POST", "/vton/get-or-generate", { token: ann.token, body })); // Tokyo 10-07 11:00
    expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
    const again = await at("2026-10-07T02:01:00Z", () => app.api("POST", "/vton/get-or-generate", { token: ann.token, body }));
    expect(again.body.id, JSON.stringify([first.body, again.body])).toBe(first.body.id);
    expect((await table()).find((x) => x.product_id === PA2)).toEqual(row(PA2, "2026-10-07", VA, { saves: 1, add_to_carts: 2, try_ons: 1 }));
  });

  it("orders: units and price × quantity on the order's Tokyo day, once however often the webhook comes", async () => {
    const o1 = orderPayload(7701, "2026-10-05T14:50:00Z", [{ product: PA1, qty: 2, price: "30.00" }, { product: PB1, qty: 1, price: "45.50" }]); // Tokyo 10-05 23:50
    await app.database.db.$transaction((tx) => upsertOrderFromWebhookIn(tx, o1, { buyerUserId: ann.id }));
    const o3 = orderPayload(7703, "2026-10-05T15:10:00Z", [{ product: PB1, qty: 3, price: "10.00" }]); // UTC 10-05, Tokyo 10-06 00:10
    await upsertOrderFromWebhook(app.database.db, o3);
    // Replays: orders/create again, orders/updated with the same lines.
    await upsertOrderFromWebhook(app.database.db, o1);
    await upsertOrderFromWebhook(app.database.db, { ...o3, note: "updated" });
    const rows = await table();
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-05")).toEqual(row(PA1, "2026-10-05", VA, { views: 1, orders: 1, units: 2, revenue: "60.00" }));
    expect(rows.find((r) => r.product_id === PB1 && r.day === "2026-10-05")).toEqual(row(PB1, "2026-10-05", VB, { orders: 1, units: 1, revenue: "45.50" }));
    expect(rows.find((r) => r.product_id === PB1 && r.day === "2026-10-06")).toEqual(row(PB1, "2026-10-06", VB, { views: 1, orders: 1, units: 3, revenue: "30.00" }));
  });

  it("a cancelled order is taken off once (replays of the cancellation change nothing) and leaves no row of zeros", async () => {
    const o2 = orderPayload(7702, "2026-10-06T20:00:00Z", [{ product: PA2, qty: 1, price: "80.00" }, { product: PA1, qty: 1, price: "30.00" }], {}, true); // Tokyo 10-07 05:00
    await upsertOrderFromWebhook(app.database.db, o2);
    let rows = await table();
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-07")).toEqual(row(PA1, "2026-10-07", VA, { orders: 1, units: 1, revenue: "30.00" }));
    expect(rows.find((r) => r.product_id === PA2)).toEqual(row(PA2, "2026-10-07", VA, { saves: 1, add_to_carts: 2, try_ons: 1, orders: 1, units: 1, revenue: "80.00" }));
    const cancelled = { ...o2, cancelled_at: "2026-10-07T01:00:00Z", cancel_reason: "customer" };
    await upsertOrderFromWebhook(app.database.db, cancelled);
    await upsertOrderFromWebhook(app.database.db, cancelled);
    rows = await table();
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-07")).toBeUndefined();
    expect(rows.find((r) => r.product_id === PA2)).toEqual(row(PA2, "2026-10-07", VA, { saves: 1, add_to_carts: 2, try_ons: 1 }));
    // Cancelled by an admin (the store cancels it first, then the read model): taken off once too.
    await upsertOrderFromWebhook(app.database.db, orderPayload(7705, "2026-10-07T03:00:00Z", [{ product: PB1, qty: 2, price: "45.50" }], {}, true)); // Tokyo 10-07 12:00
    expect((await table()).find((r) => r.product_id === PB1 && r.day === "2026-10-07")).toEqual(row(PB1, "2026-10-07", VB, { orders: 1, units: 2, revenue: "91.00" }));
    for (let i = 0; i < 2; i++) {
      const c = await app.api("POST", `/orders/admin/${encodeURIComponent("gid://shopify/Order/7705")}/cancel`, { token: admin.token, body: { reason: "CUSTOMER", notify: false } });
      expect(c.status, JSON.stringify(c.body)).toBe(200);
    }
    expect((await table()).find((r) => r.product_id === PB1 && r.day === "2026-10-07")).toBeUndefined();
    // An order first seen cancelled never counted.
    await upsertOrderFromWebhook(app.database.db, orderPayload(7704, "2026-10-06T20:00:00Z", [{ product: PB1, qty: 9, price: "10.00" }], { cancelled_at: "2026-10-06T21:00:00Z" }, true));
    expect((await table()).filter((r) => r.product_id === PB1 && r.day === "2026-10-07")).toEqual([]);
  });

  it("a return: units on the confirmation's day, the refund spread over the lines by value on the refund's day", async () => {
    const lines = ["gid://shopify/LineItem/77010", "gid://shopify/LineItem/77011"];
    const req = await at("2026-10-08T01:00:00Z", () => app.api("POST", "/users/orders/7701/initiate-return", { token: ann.token, body: { order_item_ids: lines, reason: "SIZE_TOO_SMALL" } }));
    expect(req.status, JSON.stringify(req.body)).toBe(201);
    const request = await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: req.body.id } });
    const rid = request.return_id!;
    const step = (method: string, p: string, body?: unknown) => at("2026-10-08T02:00:00Z", () => app.api(method, p, { token: admin.token, body }));
    expect((await step("POST", `/returns/admin/requests/${request.id}/approve`)).status).toBe(200);
    expect((await step("PATCH", `/returns/admin/${rid}/status`, { status: "LABEL_SENT", trackingNumber: "RTS1", trackingCompany: "UPS", labelUrl: "https://labels.example.test/s1.pdf" })).status).toBe(200);
    expect((await step("PATCH", `/returns/admin/${rid}/status`, { status: "IN_TRANSIT" })).status).toBe(200);
    const confirm = () => at("2026-10-08T16:00:00Z", () => app.api("POST", `/returns/admin/${rid}/confirm`, { token: admin.token, body: { received_item_ids: lines } })); // Tokyo 10-09 01:00
    expect((await confirm()).status).toBe(200);
    expect((await confirm()).status).toBe(200); // the same confirmation again: unchanged
    // 2 × 30.00 and 1 × 45.50 came back (105.50); 100.00 refunded: 56.87 (60/105.5) and 43.13 (45.5/105.5).
    const refund = () => at("2026-10-09T02:00:00Z", () => app.api("POST", `/returns/admin/${rid}/refund`, { token: admin.token, body: { amount: "100.00" } })); // Tokyo 10-09 11:00
    const r = await refund();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await refund()).status).toBe(200);
    const rows = await table();
    expect(rows.find((x) => x.product_id === PA1 && x.day === "2026-10-09")).toEqual(row(PA1, "2026-10-09", VA, { returned_units: 2, refunds: "56.87" }));
    expect(rows.find((x) => x.product_id === PB1 && x.day === "2026-10-09")).toEqual(row(PB1, "2026-10-09", VB, { returned_units: 1, refunds: "43.13" }));
  });

  it("the whole table matches the hand-computed fixture", async () => {
    expect(await table()).toEqual([
      row(PA1, "2026-10-05", VA, { views: 1, orders: 1, units: 2, revenue: "60.00" }),
      row(PA1, "2026-10-06", VA, { views: 1, saves: 1 }),
      row(PA1, "2026-10-09", VA, { returned_units: 2, refunds: "56.87" }),
      row(PA2, "2026-10-07", VA, { saves: 1, add_to_carts: 2, try_ons: 1 }),
      row(PB1, "2026-10-05", VB, { orders: 1, units: 1, revenue: "45.50" }),
      row(PB1, "2026-10-06", VB, { views: 1, orders: 1, units: 3, revenue: "30.00" }),
      row(PB1, "2026-10-09", VB, { returned_units: 1, refunds: "43.13" }),
    ]);
  });
});

describe("rebuildProductDailyStats", () => {
  it("gives the same rows as the incremental path (add-to-carts, which have no event table, kept)", async () => {
    const before = await table();
    await app.database.db.$executeRaw`UPDATE product_daily_stats SET views = views + 7, revenue = revenue + 1`;
    await rebuildProductDailyStats(app.database.db);
    expect(await table()).toEqual(before);
  });

  it("a range rebuilds only its days", async () => {
    const before = await table();
    await app.database.db.$executeRaw`UPDATE product_daily_stats SET views = views + 5`;
    await rebuildProductDailyStats(app.database.db, { from: "2026-10-06", to: "2026-10-06" });
    const after = await table();
    for (const r of after) {
      const b = before.find((x) => x.product_id === r.product_id && x.day === r.day)!;
      expect(r.views, `${r.product_id} ${r.day}`).toBe(r.day === "2026-10-06" ? b.views : b.views + 5);
    }
    await rebuildProductDailyStats(app.database.db);
    expect(await table()).toEqual(before);
  });

  it("after a change of zone, the days are the new zone's (UTC here)", async () => {
    await rebuildProductDailyStats(app.database.db, { timeZone: "UTC" });
    const rows = await table();
    // Both PA1 views (14:30 and 15:30 UTC on 10-05) and both PB1 orders (14:50, 15:10 UTC) fall on UTC 10-05.
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-05")).toEqual(row(PA1, "2026-10-05", VA, { views: 2, orders: 1, units: 2, revenue: "60.00" }));
    expect(rows.find((r) => r.product_id === PB1 && r.day === "2026-10-05")).toEqual(row(PB1, "2026-10-05", VB, { orders: 2, units: 4, revenue: "75.50" }));
    // The refund (02:00 UTC 10-09) stays on 10-09; the confirmation (16:00 UTC 10-08) moves to 10-08.
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-08")).toEqual(row(PA1, "2026-10-08", VA, { returned_units: 2 }));
    expect(rows.find((r) => r.product_id === PA1 && r.day === "2026-10-09")).toEqual(row(PA1, "2026-10-09", VA, { refunds: "56.87" }));
    await app.database.db.$executeRaw`DELETE FROM product_daily_stats`;
    await rebuildProductDailyStats(app.database.db, { timeZone: ZONE });
  });

  it("an un-save takes nothing off the live count; the rebuild counts only the saves still there", async () => {
    await at("2026-10-06T02:00:00Z", () => save(ann, PA1, false));
    await at("2026-10-06T03:00:00Z", () => save(ann, PA1, true)); // Tokyo 10-06 12:00: a second save
    expect((await table()).find((r) => r.product_id === PA1 && r.day === "2026-10-06")).toMatchObject({ saves: 2 });
    await rebuildProductDailyStats(app.database.db);
    expect((await table()).find((r) => r.product_id === PA1 && r.day === "2026-10-06")).toMatchObject({ saves: 1 });
  });
});

describe("rollups (vendor_daily_stats, product_monthly_stats: kept by triggers on the daily rows)", () => {
  type Sums = Omit<Row, "product_id" | "day" | "vendor_id">;
  const SUMS = `views, saves, try_ons, add_to_carts, orders, units, revenue::text AS revenue, returned_units, refunds::text AS refunds`;
  const NON_ZERO = `(views <> 0 OR saves <> 0 OR try_ons <> 0 OR add_to_carts <> 0 OR orders <> 0 OR units <> 0 OR revenue <> 0 OR returned_units <> 0 OR refunds <> 0)`;
  const vendorDays = () =>
    app.database.db.$queryRawUnsafe<({ vendor_id: string; day: string } & Sums)[]>(
      `SELECT vendor_id, to_char(day, 'YYYY-MM-DD') AS day, ${SUMS} FROM vendor_daily_stats WHERE ${NON_ZERO} ORDER BY 1, 2`,
    );
  const productMonths = () =>
    app.database.db.$queryRawUnsafe<({ vendor_id: string; month: string; product_id: string } & Sums)[]>(
      `SELECT vendor_id, to_char(month, 'YYYY-MM-DD') AS month, product_id, ${SUMS} FROM product_monthly_stats WHERE ${NON_ZERO} ORDER BY 1, 2, 3`,
    );
  const s = (m: Partial<typeof zero>) => ({ ...zero, ...m });
  // Hand-computed from the daily fixture above, as the rebuilds left it: one save of PA1 on 10-06,
  // no add-to-carts (the zone test emptied the table, and they have no event table to come back from).
  const VENDOR_DAYS = [
    { vendor_id: VA, day: "2026-10-05", ...s({ views: 1, orders: 1, units: 2, revenue: "60.00" }) },
    { vendor_id: VA, day: "2026-10-06", ...s({ views: 1, saves: 1 }) },
    { vendor_id: VA, day: "2026-10-07", ...s({ saves: 1, try_ons: 1 }) },
    { vendor_id: VA, day: "2026-10-09", ...s({ returned_units: 2, refunds: "56.87" }) },
    { vendor_id: VB, day: "2026-10-05", ...s({ orders: 1, units: 1, revenue: "45.50" }) },
    { vendor_id: VB, day: "2026-10-06", ...s({ views: 1, orders: 1, units: 3, revenue: "30.00" }) },
    { vendor_id: VB, day: "2026-10-09", ...s({ returned_units: 1, refunds: "43.13" }) },
  ];
  const PRODUCT_MONTHS = [
    { vendor_id: VA, month: "2026-10-01", product_id: PA1, ...s({ views: 2, saves: 1, orders: 1, units: 2, revenue: "60.00", returned_units: 2, refunds: "56.87" }) },
    { vendor_id: VA, month: "2026-10-01", product_id: PA2, ...s({ saves: 1, try_ons: 1 }) },
    { vendor_id: VB, month: "2026-10-01", product_id: PB1, ...s({ views: 1, orders: 2, units: 4, revenue: "75.50", returned_units: 1, refunds: "43.13" }) },
  ];

  it("the triggers kept them through every write above (upserts, cancellation, return, rebuilds, deletes): the hand-computed sums", async () => {
    expect(await vendorDays()).toEqual(VENDOR_DAYS);
    expect(await productMonths()).toEqual(PRODUCT_MONTHS);
  });

  it("the rebuild recomputes them from the daily rows: the same rows as the triggers kept", async () => {
    const kept = [await vendorDays(), await productMonths()];
    await app.database.db.$executeRaw`UPDATE vendor_daily_stats SET views = views + 9, refunds = refunds + 1`;
    await app.database.db.$executeRaw`DELETE FROM product_monthly_stats WHERE product_id = ${PA2}`;
    await rebuildProductDailyStats(app.database.db);
    expect([await vendorDays(), await productMonths()]).toEqual(kept);
    await app.database.db.$executeRaw`UPDATE vendor_daily_stats SET views = views + 9`;
    await rebuildVendorRollups(app.database.db, { from: "2026-10-05", to: "2026-10-05" });
    const days = await vendorDays();
    expect(days.filter((d) => d.day === "2026-10-05")).toEqual(VENDOR_DAYS.filter((d) => d.day === "2026-10-05"));
    expect(days.find((d) => d.vendor_id === VA && d.day === "2026-10-06")?.views).toBe(10);
    await rebuildVendorRollups(app.database.db);
    expect(await vendorDays()).toEqual(VENDOR_DAYS);
  });

  it("a daily row moved to another vendor moves its sums; emptying the daily rows empties them", async () => {
    const db = app.database.db;
    await db.$executeRaw`UPDATE product_daily_stats SET vendor_id = ${VB} WHERE product_id = ${PA2}`;
    expect((await productMonths()).map((r) => [r.vendor_id, r.product_id])).toEqual([
      [VA, PA1],
      [VB, PA2],
      [VB, PB1],
    ]);
    expect((await vendorDays()).find((d) => d.day === "2026-10-07")).toEqual({ vendor_id: VB, day: "2026-10-07", ...s({ saves: 1, try_ons: 1 }) });
    await db.$executeRaw`UPDATE product_daily_stats SET vendor_id = ${VA} WHERE product_id = ${PA2}`;
    expect(await vendorDays()).toEqual(VENDOR_DAYS);
    expect(await productMonths()).toEqual(PRODUCT_MONTHS);
    await db.$executeRawUnsafe(`TRUNCATE TABLE product_daily_stats`);
    expect(await db.$queryRawUnsafe(`SELECT (SELECT count(*) FROM vendor_daily_stats)::int AS d, (SELECT count(*) FROM product_monthly_stats)::int AS m`)).toEqual([{ d: 0, m: 0 }]);
    await rebuildProductDailyStats(db);
    expect(await vendorDays()).toEqual(VENDOR_DAYS);
    expect(await productMonths()).toEqual(PRODUCT_MONTHS);
  });
});
