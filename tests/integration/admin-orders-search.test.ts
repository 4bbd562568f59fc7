/**
 * Admin order search (issue 16) through GET /api/orders/admin on enough orders that a common word
 * takes the broad path (more than ~150 text matches: the orders walked in the page's order in SQL)
 * while a rare word takes the candidate path (the matching ids from the indexes first). Both must
 * answer the same rows in the same order with the same keyset cursor: every sort, every filter,
 * paged to the end, compared with the answer computed from the fixtures. The service's plans
 * (app/services/orders/admin-order-search.server.ts: the walk's window, the window then the hashed
 * walk, the hashed walk alone, the candidates) are forced with small tunings and must answer alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, vgid } from "./products-fixtures";
import { searchAdminOrders, SEARCH_TUNING, type AdminOrderQuery, type SearchTuning } from "../../app/services/orders/admin-order-search.server";

let app: TestApp;
let token: string;
let vendorId: string;
let storeId: string;

const NOW = Date.now();
const HOUR = 3_600_000;
const N = 240;

interface Fixture {
  id: string;
  name: string;
  email: string;
  status: OrderStatus;
  financial: string;
  fulfillment: string;
  total: number;
  created: Date;
  titles: string[];
  itemStatus: OrderItemStatus;
  vendor: boolean;
  store: boolean;
  customer?: { id: string; first: string; last: string };
}
const fixtures: Fixture[] = [];

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Search Atelier", handle: "search-atelier" } });
  vendorId = vendor.id;
  const store = await db.store.create({ data: { name: "Search Store", handle: "search-store", vendor_id: vendor.id } });
  storeId = store.id;
  await createProduct(db, { n: 801, title: "Linen Shirt" });
  await createProduct(db, { n: 802, title: "Linen Shirt", storeId: store.id, vendorId: vendor.id });
  token = (await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] })).token;
  // A customer whose name holds the common word: their coat order is a match on the broad path too.
  const customer = await app.createUser({ email: "ruth@example.test", firstName: "Ruth" });
  await db.user.update({ where: { id: customer.id }, data: { last_name: "Shirtcliffe" } });

  for (let k = 0; k < N; k++) {
    const n = 9000 + k;
    const fulfilled = k % 3 !== 0;
    fixtures.push({
      id: `gid://shopify/Order/${n}`,
      name: `#${n}`,
      email: `buyer${k}@example.test`,
      status: k % 11 === 0 ? "cancelled" : k % 4 === 0 ? "closed" : "open",
      financial: k % 5 === 0 ? "REFUNDED" : "PAID",
      fulfillment: fulfilled ? "FULFILLED" : "UNFULFILLED",
      // Ties in total and in created_at: the id breaks them, in the page's direction.
      total: 10 + (k % 7),
      created: new Date(NOW - Math.floor(k / 2) * HOUR),
      // Every order has a shirt (a common word); one in six a scarf (a rare one).
      titles: k % 6 === 0 ? ["Linen Shirt", "Velvet Scarf"] : ["Linen Shirt"],
      itemStatus: fulfilled ? (k % 2 ? "shipped" : "delivered") : "unfulfilled",
      vendor: k % 4 === 1,
      store: k % 8 === 3,
    });
  }
  const coat = fixtures[fixtures.length - 2];
  coat.titles = ["Wool Coat"];
  coat.customer = { id: customer.id, first: "Ruth", last: "Shirtcliffe" };
  await db.order.createMany({
    data: fixtures.map((f) => ({
      id: f.id,
      name: f.name,
      order_number: Number(f.name.slice(1)),
      email: f.email,
      user_id: f.customer?.id ?? null,
      status: f.status,
      financial_status: f.financial,
      fulfillment_status: f.fulfillment,
      total_price: new Prisma.Decimal(f.total),
      created_at: f.created,
    })),
  });
  await db.orderItem.createMany({
    data: fixtures.flatMap((f) =>
      f.titles.map((title, i) => ({
        id: `${f.id}/${i}`,
        order_id: f.id,
        product_id: pgid(f.store ? 802 : 801),
        variant_id: vgid(f.store ? 802 : 801, 0),
        vendor_id: f.vendor ? vendorId : null,
        title,
        sku: `SKU-${f.name.slice(1)}-${i}`,
        quantity: 1,
        price: new Prisma.Decimal(f.total),
        status: f.itemStatus,
        created_at: f.created,
      })),
    ),
  });
});
afterAll(() => app?.close());

type Query = Record<string, string>;
const SORTS = ["created_at_desc", "created_at_asc", "total_desc", "total_asc", "name_desc", "name_asc"] as const;

function expected(q: string, filter: Query, sort: (typeof SORTS)[number]): string[] {
  const word = q.toLowerCase();
  const from = filter.from ? new Date(filter.from).getTime() : -Infinity;
  const to = filter.to ? new Date(filter.to).getTime() : Infinity;
  const rows = fixtures.filter(
    (f) =>
      (f.titles.some((t) => t.toLowerCase().includes(word)) ||
        (!!f.customer && (word.includes(" ") ? `${f.customer.first} ${f.customer.last}`.toLowerCase() === word : `${f.customer.first}|${f.customer.last}`.toLowerCase().includes(word)))) &&
      (!filter.fulfillmentStatus || f.fulfillment === filter.fulfillmentStatus) &&
      (!filter.financialStatus || f.financial === filter.financialStatus) &&
      (!filter.status || f.status === filter.status) &&
      (!filter.itemStatus || f.itemStatus === filter.itemStatus) &&
      (!filter.vendorId || f.vendor) &&
      (!filter.storeId || f.store) &&
      f.created.getTime() >= from &&
      f.created.getTime() <= to,
  );
  const key = (f: Fixture): number | string => (sort.startsWith("created_at") ? f.created.getTime() : sort.startsWith("total") ? f.total : f.name);
  const sign = sort.endsWith("_desc") ? -1 : 1;
  // Names and ids have the same length here, so code-point order is every collation's order.
  const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => sign * (cmp(key(a), key(b)) || cmp(a.id, b.id))).map((f) => f.name);
}

async function pageThrough(query: Query, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await app.api("GET", "/orders/admin", { token, query: { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    const items = (res.body as { items: { name: string }[]; nextCursor: string | null }).items;
    seen.push(...items.map((o) => o.name));
    cursor = (res.body as { nextCursor: string | null }).nextCursor ?? undefined;
    if (!cursor) break;
    expect(items).toHaveLength(limit);
  }
  return seen;
}

describe("GET /orders/admin search: a common word (broad walk) and a rare word (indexed candidates)", () => {
  it("a common word pages through every match once in each sort, the same as computed", async () => {
    expect(expected("shirt", {}, "created_at_desc")).toContain(`#${9000 + N - 2}`);
    expect(expected("linen shirt", {}, "created_at_desc")).not.toContain(`#${9000 + N - 2}`);
    for (const sort of SORTS) {
      expect(await pageThrough({ q: "shirt", sort }, 37)).toEqual(expected("shirt", {}, sort));
    }
  });

  it("a common word with a filter, across pages, in each sort", async () => {
    for (const sort of SORTS) {
      const filter = { fulfillmentStatus: "UNFULFILLED" };
      const want = expected("shirt", filter, sort);
      expect(want.length).toBeGreaterThan(25);
      expect(await pageThrough({ q: "SHIRT", ...filter, sort }, 25)).toEqual(want);
    }
  });

  it("a common word with every kind of filter answers exactly the computed rows", async () => {
    const mid = new Date(NOW - 30 * HOUR).toISOString();
    const filters: Query[] = [
      { financialStatus: "REFUNDED" },
      { status: "open", financialStatus: "PAID" },
      { status: "cancelled" },
      { itemStatus: "shipped" },
      { vendorId },
      { storeId },
      { from: new Date(NOW - 80 * HOUR).toISOString(), to: mid },
      { fulfillmentStatus: "FULFILLED", from: mid },
    ];
    for (const filter of filters) {
      for (const q of ["shirt", "Linen Shirt"]) {
        expect(await pageThrough({ q, ...filter }, 20)).toEqual(expected(q, filter, "created_at_desc"));
      }
    }
  });

  it("a rare word (the candidate path) answers the same way, with filters and cursors", async () => {
    expect(await pageThrough({ q: "velvet" }, 7)).toEqual(expected("velvet", {}, "created_at_desc"));
    for (const sort of SORTS) {
      expect(await pageThrough({ q: "scarf", fulfillmentStatus: "FULFILLED", sort }, 5)).toEqual(expected("scarf", { fulfillmentStatus: "FULFILLED" }, sort));
    }
  });

  it("a common word that matches nothing with its filter answers an empty page; a cursor of another sort is refused (400)", async () => {
    const none = await app.api("GET", "/orders/admin", { token, query: { q: "shirt", financialStatus: "PENDING" } });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ items: [], nextCursor: null });
    const first = await app.api("GET", "/orders/admin", { token, query: { q: "shirt", limit: "5" } });
    const cursor = (first.body as { nextCursor: string }).nextCursor;
    expect(cursor).toBeTruthy();
    expect((await app.api("GET", "/orders/admin", { token, query: { q: "shirt", sort: "total_asc", cursor } })).status).toBe(400);
  });
});

/** Every page of the service's answer with one tuning, and the plans it took. */
async function pageThroughService(query: AdminOrderQuery, tuning: SearchTuning): Promise<{ names: string[]; plans: Set<string> }> {
  const names: string[] = [];
  const plans = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await searchAdminOrders(app.database.db, { ...query, cursor }, tuning);
    plans.add(page.plan);
    names.push(...page.items.map((o) => o.name));
    cursor = page.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return { names, plans };
}

describe("search plans answer the same rows: the walk's window, the hashed walk, the candidates", () => {
  const hashedOnly: SearchTuning = { ...SEARCH_TUNING, walkWindow: 0 };

  it("a common title word takes the window (default), the hashed walk without it, and the same rows either way", async () => {
    const query = { q: "shirt", limit: 25 };
    const windowed = await pageThroughService(query, SEARCH_TUNING);
    const hashed = await pageThroughService(query, hashedOnly);
    expect(windowed.plans).toEqual(new Set(["window"]));
    expect(hashed.plans).toEqual(new Set(["walk"]));
    expect(windowed.names).toEqual(expected("shirt", {}, "created_at_desc"));
    expect(hashed.names).toEqual(windowed.names);
  });

  it("a window that ends without a full page goes on past it with the hashed walk: the same rows in every sort and filter", async () => {
    const filters: Query[] = [{}, { fulfillmentStatus: "UNFULFILLED" }, { itemStatus: "shipped" }, { vendorId }, { storeId }, { status: "open", financialStatus: "PAID" }];
    const runs = [
      ...SORTS.flatMap((sort) => filters.map((filter) => ({ window: 7, sort, filter }))),
      ...[1, 30].flatMap((window) => (["created_at_desc", "name_asc"] as const).map((sort) => ({ window, sort, filter: {} }))),
    ];
    for (const { window, sort, filter } of runs) {
      const query = { q: "shirt", sort, limit: 20, ...filter } as AdminOrderQuery;
      const got = await pageThroughService(query, { ...SEARCH_TUNING, walkWindow: window });
      expect(got.names, `window ${window}, ${sort}, ${JSON.stringify(filter)}`).toEqual(expected("shirt", filter, sort));
      if (window < 20) expect(got.plans.has("window+walk")).toBe(true);
    }
  });

  it("a window larger than what is left sees every order: no walk after it", async () => {
    const got = await pageThroughService({ q: "shirt", fulfillmentStatus: "UNFULFILLED", limit: 100 }, { ...SEARCH_TUNING, walkWindow: 1000 });
    expect(got.plans).toEqual(new Set(["window"]));
    expect(got.names).toEqual(expected("shirt", { fulfillmentStatus: "UNFULFILLED" }, "created_at_desc"));
  });

  it("a broad search through the customers' names, not the items, is walked hashed (no window)", async () => {
    // "Shirtcliffe" passes the cap only with a low cap: the items do not match it.
    const got = await pageThroughService({ q: "cliffe", limit: 5 }, { broadMatches: 0, walkWindow: 300 });
    expect(got.plans).toEqual(new Set(["walk"]));
    expect(got.names).toEqual(expected("cliffe", {}, "created_at_desc"));
  });

  it("with a higher cap the same common word is answered from the collected candidates, the same rows", async () => {
    for (const sort of SORTS) {
      const got = await pageThroughService({ q: "shirt", sort, limit: 30, fulfillmentStatus: "FULFILLED" }, { broadMatches: 10_000, walkWindow: 300 });
      expect(got.plans).toEqual(new Set(["candidates"]));
      expect(got.names).toEqual(expected("shirt", { fulfillmentStatus: "FULFILLED" }, sort));
    }
  });

  it("the list's summaries (one SQL query) equal the order page's: customer, item count, stage with partly sent lines, total, tags", async () => {
    const db = app.database.db;
    const customer = await app.createUser({ email: "parka@example.test", firstName: "Pia" });
    await db.order.create({
      data: {
        id: "gid://shopify/Order/9901",
        name: "#9901",
        order_number: 9901,
        user_id: customer.id,
        email: null,
        status: "open",
        financial_status: "PAID",
        fulfillment_status: "PARTIALLY_FULFILLED",
        total_price: new Prisma.Decimal("123.40"),
        tags: ["vip", "gift"],
        shipping_address: { first_name: "Address", last_name: "Name" },
        items: {
          create: [
            { id: "parka-1", title: "Partial Parka", quantity: 3, price: new Prisma.Decimal("40"), status: "shipped", fulfillments: { create: { fulfillment_id: "f-parka", quantity: 1, tracking_number: "1ZPARKA" } } },
            { id: "parka-2", title: "Partial Parka Hood", quantity: 1, price: new Prisma.Decimal("3.40"), status: "unfulfilled" },
          ],
        },
      },
    });
    await db.order.create({ data: { id: "gid://shopify/Order/9902", name: "#9902", order_number: 9902, email: "guest-parka@example.test", total_price: new Prisma.Decimal("5"), shipping_address: { name: "Guest Parka" } } });
    const list = await app.api("GET", "/orders/admin", { token, query: { q: "parka" } });
    expect(list.status).toBe(200);
    const items = (list.body as { items: Record<string, unknown>[] }).items;
    expect(items.map((o) => o.name).sort()).toEqual(["#9901", "#9902"]);
    for (const summary of items) {
      const detail = await app.api("GET", `/orders/admin/${encodeURIComponent(String(summary.id))}`, { token });
      expect(detail.status).toBe(200);
      const d = detail.body as Record<string, unknown>;
      for (const key of Object.keys(summary)) expect(summary[key], `${String(summary.name)} ${key}`).toEqual(d[key]);
    }
    const parka = items.find((o) => o.name === "#9901")!;
    expect(parka).toMatchObject({ stage: "partially_fulfilled", item_count: 4, tags: ["vip", "gift"], total: { amount: "123.40", currencyCode: "USD" }, customer: { user_id: customer.id, email: "parka@example.test" } });
    expect(items.find((o) => o.name === "#9902")).toMatchObject({ item_count: 0, customer: { user_id: null, email: "guest-parka@example.test", name: "Guest Parka" } });
  });
});
