/**
 * The vendor portal's demo (issue 17): 90 days of product views, saves and try-ons for every demo
 * vendor's products, with a weekly shape and a rising trend, so each vendor's charts show something
 * real; and, once the events are in place and dated, monthly payouts (the older months paid with a
 * reference, the last closed one pending) computed from the daily stats.
 *
 * Deterministic (seeded PRNG, ids from demoUuid), like the rest of the demo. The events are added
 * to the generated rows' tables (views, saves) or written after the house models (try-ons need a
 * clone), before the seed moves the dates; payouts are written after the move and the stats'
 * rebuild, so their months are calendar months of the moved dates in the store's zone.
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { Random, demoUuid, weightedPicker } from "./prng";
import { BASE_DATE, DEMO_EMAIL_DOMAIN, demoUserId, type DemoRows } from "./generate";
import type { AdminOrderExtras } from "./admin-orders";
import { HOUSE_MODELS } from "./house-models";
import { addDays, dayIn, dayStart } from "../../app/lib/store-time-zone";

const DAY = 86_400_000;
export const VENDOR_ACTIVITY_DAYS = 90;

/** Daily views a vendor gets at the start of the 90 days (before the trend and the weekday). */
const BASE_DAILY_VIEWS: Record<string, number> = { northwind: 11, lumiere: 9, kestrel: 7, saltmarsh: 6, atlas: 8, ember: 5, verdant: 6 };
/** Monday … Sunday: weekends browse more. */
const WEEKDAY_FACTOR = [0.85, 0.8, 0.85, 0.95, 1.1, 1.35, 1.3];
const SAVE_RATE = 0.07;
const TRY_ON_RATE = 0.045;

export interface VendorActivity {
  viewEvents: Prisma.ProductViewEventCreateManyInput[];
  savedProducts: Prisma.SavedProductCreateManyInput[];
  tryOns: Prisma.TryOnCreateManyInput[];
}

/**
 * The vendors' 90 days of views, saves and try-ons (the days before BASE_DATE). `shiftDays`: the
 * whole days the seed will move the dates by, so the weekend peaks fall on the real weekends.
 */
export function buildVendorActivity(rows: DemoRows, vendorKeys: { key: string; id: string }[], shiftDays = 0): VendorActivity {
  const out: VendorActivity = { viewEvents: [], savedProducts: [], tryOns: [] };
  const shoppers = rows.users.filter((u) => u.role === "SHOPPER" && u.id !== demoUserId("shopper")).map((u) => u.id!);
  const savedPairs = new Set(rows.savedProducts.map((s) => `${s.user_id}|${s.product_id}`));
  for (const v of vendorKeys) {
    const rng = new Random(hash(`vendor-activity:${v.key}`));
    const products = rng.shuffle(rows.products.filter((p) => p.vendor_id === v.id && p.status !== "draft").map((p) => p.id));
    if (products.length === 0) continue;
    // A few products draw most of the attention (Zipf-like), as in a real catalogue.
    const ranked = products.map((id, i) => ({ id, w: 1 / (i + 2) }));
    const pick = weightedPicker(ranked, (p) => p.w);
    const base = BASE_DAILY_VIEWS[v.key] ?? 6;
    for (let d = 0; d < VENDOR_ACTIVITY_DAYS; d++) {
      const dayStartMs = BASE_DATE.getTime() - (VENDOR_ACTIVITY_DAYS - d) * DAY;
      const weekday = (new Date(dayStartMs + shiftDays * DAY).getUTCDay() + 6) % 7;
      const trend = 0.65 + 0.7 * (d / (VENDOR_ACTIVITY_DAYS - 1));
      const expected = base * WEEKDAY_FACTOR[weekday] * trend;
      const views = Math.max(0, Math.round(expected * rng.float(0.75, 1.25)));
      for (let k = 0; k < views; k++) {
        const product = pick(rng).id;
        const user = rng.chance(0.6) ? rng.pick(shoppers) : null;
        const at = new Date(dayStartMs + rng.float(0.3, 23.7) * 3_600_000);
        out.viewEvents.push({
          id: demoUuid("vendor-view", `${v.key}-${d}-${k}`),
          user_id: user,
          session_id: user ? `demo-session-${user.slice(0, 8)}` : `demo-vendor-anon-${rng.int(1, 400)}`,
          product_id: product,
          created_at: at,
        });
        if (user && rng.chance(SAVE_RATE) && !savedPairs.has(`${user}|${product}`)) {
          savedPairs.add(`${user}|${product}`);
          out.savedProducts.push({ id: demoUuid("vendor-save", `${user}|${product}`), user_id: user, product_id: product, createdAt: new Date(at.getTime() + rng.float(1, 20) * 60_000) });
        }
        if (user && rng.chance(TRY_ON_RATE)) {
          const created = new Date(at.getTime() + rng.float(1, 15) * 60_000);
          const id = demoUuid("vendor-tryon", `${v.key}-${d}-${k}`);
          out.tryOns.push({
            id,
            user_id: user,
            clone_id: rng.pick(HOUSE_MODELS).id,
            product_id: product,
            status: "completed",
            progress: 100,
            input_hash: id,
            completed_at: new Date(created.getTime() + 45_000),
            created_at: created,
            updated_at: new Date(created.getTime() + 45_000),
          });
        }
      }
    }
  }
  return out;
}

/**
 * Returns the store made on each vendor's delivered orders of the 90 days (no shopper request;
 * not on the demo shopper's orders nor on orders the admin demo already uses): per vendor two
 * refunded and one received but not yet refunded, each of one of the vendor's lines, so the
 * vendor's return rate, refunds and payouts show them. Marks the received lines returned in the
 * generated rows (call before they are written) and adds the returns to `extras`.
 */
export function addVendorReturns(rows: DemoRows, extras: AdminOrderExtras, vendorIds: string[]): void {
  const used = new Set(extras.returns.map((r) => r.order_id));
  const labelOf = (u: { first_name?: string | null; last_name?: string | null; email?: string | null } | undefined, fallback: string) =>
    [u?.first_name, u?.last_name].filter(Boolean).join(" ") || u?.email || fallback;
  const adminRow = rows.users.find((u) => u.email === `admin@${DEMO_EMAIL_DOMAIN}`);
  const staff = { actor_user_id: adminRow?.id ?? null, actor_label: labelOf(adminRow, "Staff") };
  const demoShopper = demoUserId("shopper");
  const time = (v: Date | string | null | undefined) => (v ? new Date(v).getTime() : BASE_DATE.getTime());
  const latest = BASE_DATE.getTime() - 2 * 3_600_000;
  const orders = rows.orders
    .filter((o) => o.status === "closed" && o.user_id && o.user_id !== demoShopper && time(o.created_at) >= BASE_DATE.getTime() - 85 * DAY && time(o.closed_at) < BASE_DATE.getTime() - 9 * DAY)
    .sort((a, b) => time(b.created_at) - time(a.created_at) || (a.id! < b.id! ? -1 : 1));
  for (const vendorId of vendorIds) {
    let made = 0;
    for (const o of orders) {
      if (made >= 3) break;
      if (used.has(o.id!)) continue;
      const item = rows.orderItems.find((i) => i.order_id === o.id && i.vendor_id === vendorId && i.status === "delivered");
      if (!item) continue;
      used.add(o.id!);
      const refunded = made < 2;
      const created = time(o.closed_at) + 2 * DAY + 5 * 3_600_000;
      const received = Math.min(created + 4 * DAY, latest);
      const refundedAt = Math.min(received + 2 * DAY, latest);
      const id = demoUuid("vendor-return", `${vendorId}:${made}`);
      const requestId = demoUuid("vendor-return-request", `${vendorId}:${made}`);
      const tracking = `1ZVRT${String(500_000 + made * 7919 + extras.returns.length * 131).padStart(11, "0")}`;
      extras.returns.push({
        id,
        order_id: o.id!,
        user_id: o.user_id ?? null,
        status: refunded ? "REFUNDED" : "DELIVERED",
        reason: refunded ? "SIZE_TOO_LARGE" : "STYLE",
        tracking_number: tracking,
        tracking_company: "UPS",
        label_url: `https://www.ups.com/track?tracknum=${tracking}`,
        refund_amount: refunded ? (Number(item.price) * item.quantity).toFixed(2) : null,
        currencyCode: "USD",
        received_at: new Date(received),
        refunded_at: refunded ? new Date(refundedAt) : null,
        created_at: new Date(created),
        updated_at: new Date(refunded ? refundedAt : received),
      });
      extras.returnLineItems.push({
        id: demoUuid("vendor-return-line", `${vendorId}:${made}`),
        return_id: id,
        order_item_id: item.id!,
        quantity: item.quantity,
        reason: refunded ? "SIZE_TOO_LARGE" : "STYLE",
        received: true,
        created_at: new Date(created),
        updated_at: new Date(received),
      });
      item.status = "returned";
      if (refunded) {
        const lines = rows.orderItems.filter((i) => i.order_id === o.id);
        o.financial_status = lines.every((i) => i.status === "returned" || i.status === "cancelled") ? "REFUNDED" : "PARTIALLY_REFUNDED";
      }
      extras.returnRequests.push({
        id: requestId,
        order_id: o.id!,
        user_id: o.user_id ?? null,
        status: refunded ? "CLOSED" : "OPEN",
        reason: refunded ? "SIZE_TOO_LARGE" : "STYLE",
        order_item_ids: [item.id!],
        return_id: id,
        created_at: new Date(created),
        updated_at: new Date(refunded ? refundedAt : created + DAY / 2),
      });
      // The timeline: the customer's request and the store's steps (as ./admin-orders.ts writes them).
      const customerRow = rows.users.find((u) => u.id === o.user_id);
      const customer = { actor_user_id: customerRow?.id ?? null, actor_label: labelOf(customerRow, "Customer") };
      const ids = { returnId: id, requestId };
      const event = (kind: string, message: string, when: number, actor: { actor_user_id: string | null; actor_label: string }, data: Prisma.InputJsonValue) =>
        extras.orderEvents.push({ id: demoUuid("vendor-return-event", `${vendorId}:${made}:${kind}`), order_id: o.id!, kind, message, ...actor, data, created_at: new Date(when) });
      event("return.requested", "Requested a return of 1 item", created, customer, { ...ids, reason: refunded ? "SIZE_TOO_LARGE" : "STYLE" });
      event("return.approved", "Approved the return request", created + DAY / 2, staff, ids);
      event("return.received", "Confirmed 1 of 1 item received", received, staff, { ...ids, receivedItemIds: [item.id!] });
      if (refunded) event("return.refunded", `Refunded ${(Number(item.price) * item.quantity).toFixed(2)} USD to the original payment`, refundedAt, staff, { ...ids, amount: (Number(item.price) * item.quantity).toFixed(2), currencyCode: "USD" });
      made++;
    }
  }
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The first day of the calendar month of `day` (YYYY-MM-DD). */
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
/** The first day of the month after the month starting on `first`. */
function nextMonth(first: string): string {
  const [y, m] = first.split("-").map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/**
 * Monthly payouts per vendor for every closed month with demo sales (the demo's orders reach back
 * further than its 90 days of views) and every closed month of the 90 days (the month of the
 * demo's last day is still open): gross = revenue of the month, commission at the vendor's rate of
 * what is left after refunds, amount = the rest. The last closed month is pending, the older ones
 * paid (reference and payment date a few days after the month), so no month with sales shows as
 * pending only because nobody read it before. Reads product_daily_stats: call after the stats'
 * rebuild. Returns the rows written.
 */
export async function seedVendorPayouts(db: PrismaClient, opts: { today: string; timeZone: string; vendorIds?: string[] }): Promise<number> {
  const lastDay = addDays(opts.today, -1);
  const windowStart = monthOf(addDays(opts.today, -VENDOR_ACTIVITY_DAYS));
  const openMonth = monthOf(lastDay);
  if (windowStart >= openMonth) return 0;
  const vendors = await db.vendor.findMany({ where: opts.vendorIds ? { id: { in: opts.vendorIds } } : {}, select: { id: true, handle: true, commission_rate: true }, orderBy: { handle: "asc" } });
  const figures = await db.$queryRaw<{ vendor_id: string; month: string; gross: string; refunds: string }[]>`
    SELECT vendor_id, to_char(date_trunc('month', day), 'YYYY-MM-DD') AS month, sum(revenue)::text AS gross, sum(refunds)::text AS refunds
    FROM product_daily_stats
    WHERE vendor_id IS NOT NULL AND day < ${openMonth}::date
    GROUP BY 1, 2
    HAVING sum(revenue) <> 0 OR sum(refunds) <> 0 OR sum(returned_units) <> 0`;
  const byKey = new Map(figures.map((f) => [`${f.vendor_id}|${f.month}`, f]));
  const rows: Prisma.VendorPayoutCreateManyInput[] = [];
  for (const v of vendors) {
    const rate = Number(v.commission_rate);
    // From the vendor's first month with sales (or the 90 days' first month) to the last closed one.
    const first = figures.filter((f) => f.vendor_id === v.id).reduce((min, f) => (f.month < min ? f.month : min), windowStart);
    const months: string[] = [];
    for (let m = first; m < openMonth; m = nextMonth(m)) months.push(m);
    for (const [i, month] of months.entries()) {
      const f = byKey.get(`${v.id}|${month}`);
      const grossCents = Math.round(Number(f?.gross ?? 0) * 100);
      const refundCents = Math.round(Number(f?.refunds ?? 0) * 100);
      const commissionCents = Math.round(((grossCents - refundCents) * rate) / 100);
      const amountCents = grossCents - refundCents - commissionCents;
      const end = dayStart(nextMonth(month), opts.timeZone);
      const paid = i < months.length - 1;
      rows.push({
        id: demoUuid("payout", `${v.handle}|${month}`),
        vendor_id: v.id,
        period_start: dayStart(month, opts.timeZone),
        period_end: end,
        gross_sales: (grossCents / 100).toFixed(2),
        commission: (commissionCents / 100).toFixed(2),
        amount: (amountCents / 100).toFixed(2),
        currencyCode: "USD",
        status: paid ? "paid" : "pending",
        reference: paid ? `PO-${v.handle.split("-")[0].toUpperCase()}-${month.slice(0, 7).replace("-", "")}` : null,
        paid_at: paid ? new Date(dayStart(addDays(nextMonth(month), 4), opts.timeZone).getTime() + 10 * 3_600_000) : null,
      });
    }
  }
  await db.vendorPayout.createMany({ data: rows });
  return rows.length;
}

/** The demo's "today" when the seed keeps BASE_DATE (tests): the day of BASE_DATE. */
export const BASE_DAY = dayIn(BASE_DATE, "UTC");
