/**
 * Admin orders (issue 16) through the HTTP API: list with search, filters, sort and paging; detail
 * with fulfilments, returns and timeline; note/tags/address; the item-status machine move by move
 * (refused moves 409); tracking; fulfilment (email in the outbox); return on the customer's behalf;
 * cancel (refused once sent, idempotent, restock). Double submits (Promise.all) move once. Access:
 * a shopper, a vendor and an admin without `orders.manage` are refused; unknown orders 404. The
 * shopper's own GET /users/orders/{id} shows the admin's changes at once (same rows). A last section
 * runs updateOrder / tracking through the Shopify adapter against the local Shopify-like server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import type { CommercePort } from "../../app/providers/commerce/port";
import { ITEM_STATUS_TRANSITIONS, type OrderItemStatusValue } from "../../app/contract/admin-orders";
import { ORDER_ITEM_STATUSES } from "../../app/contract/account-orders";
import { createTestApp, type TestApp } from "../helpers/app";
import { startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { upsertOrderFromWebhook } from "../../app/services/order-read-model.server";
import { createProduct, pgid, vgid } from "./products-fixtures";

type U = { id: string; token: string; email: string | null };
let app: TestApp;
let admin: U;
let adminNoPerm: U;
let vendorUser: U;
let ann: U;
let vendorId: string;
let storeId: string;

const NOW = Date.now();
const DAY = 86_400_000;
const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const enc = encodeURIComponent;

interface ItemFixture {
  status: OrderItemStatus;
  product?: number;
  qty?: number;
  sku?: string;
  tracking?: string;
  vendor?: boolean;
}

async function createOrder(o: { n: number; userId?: string | null; email?: string | null; status?: OrderStatus; daysAgo: number; total?: number; financial?: string; items: ItemFixture[] }) {
  const created = new Date(NOW - o.daysAgo * DAY);
  await app.database.db.order.create({
    data: {
      id: oid(o.n),
      name: `#${o.n}`,
      order_number: o.n,
      user_id: o.userId ?? null,
      email: o.email ?? null,
      status: o.status ?? "open",
      financial_status: o.financial ?? "PAID",
      fulfillment_status: o.items.some((i) => ["fulfilled", "shipped", "delivered", "returned"].includes(i.status)) ? "FULFILLED" : "UNFULFILLED",
      total_price: new Prisma.Decimal(o.total ?? 100),
      shipping_address: { first_name: "Guest", last_name: "Buyer", address1: "1 Main St", city: "Springfield", zip: "12345", country: "US" },
      created_at: created,
      items: {
        create: o.items.map((it, i) => {
          const product = it.product ?? 701;
          return {
            id: lid(o.n, i),
            product_id: pgid(product),
            variant_id: vgid(product, 0),
            vendor_id: it.vendor ? vendorId : null,
            title: product === 701 ? "Wool Coat" : "Silk Scarf",
            variant_title: "Black / S",
            sku: it.sku ?? `SKU-${product}-0`,
            quantity: it.qty ?? 1,
            price: new Prisma.Decimal(50),
            status: it.status,
            tracking_number: it.tracking ?? null,
            provider: it.tracking ? "UPS" : null,
            created_at: created,
          };
        }),
      },
    },
  });
}

const item = (n: number, i: number) => lid(n, i);
const path = (n: number, rest = "") => `/orders/admin/${enc(oid(n))}${rest}`;
const events = (n: number) => app.database.db.orderEvent.findMany({ where: { order_id: oid(n) }, orderBy: { created_at: "asc" } });

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Atelier", handle: "atelier" } });
  vendorId = vendor.id;
  const store = await db.store.create({ data: { name: "Atelier Store", handle: "atelier-store", vendor_id: vendor.id } });
  storeId = store.id;
  await createProduct(db, { n: 701, title: "Wool Coat", inventory: 3 });
  await createProduct(db, { n: 702, title: "Silk Scarf", inventory: 2, storeId: store.id, vendorId: vendor.id });
  admin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"], firstName: "Olga" });
  adminNoPerm = await app.createUser({ role: "ADMIN", permissions: ["products.manage"] });
  vendorUser = await app.createUser({ role: "VENDOR", permissions: ["orders.manage"], vendorId: vendor.id });
  ann = await app.createUser({ email: "ann@example.test", firstName: "Ann" });
  await db.user.update({ where: { id: ann.id }, data: { last_name: "Lovelace" } });

  await createOrder({ n: 8001, userId: ann.id, email: "ann@example.test", daysAgo: 1, total: 150, items: [{ status: "unfulfilled", qty: 2 }, { status: "unfulfilled", product: 702, vendor: true }] });
  await createOrder({ n: 8002, email: "zed@example.test", daysAgo: 2, total: 80, items: [{ status: "shipped", tracking: "1ZTRACK8002" }, { status: "delivered", product: 702, sku: "SCARF-RED" }] });
  await createOrder({ n: 8003, email: "kim@example.test", daysAgo: 3, total: 300, financial: "REFUNDED", status: "cancelled", items: [{ status: "cancelled" }] });
  for (let i = 0; i < 6; i++) await createOrder({ n: 8100 + i, email: `bulk${i}@example.test`, daysAgo: 10 + i, total: 10 + i, items: [{ status: "unfulfilled" }] });
});
afterAll(() => app?.close());

describe("access", () => {
  const calls: [string, string, unknown?][] = [
    ["GET", "/orders/admin"],
    ["GET", path(8001)],
    ["PATCH", path(8001), { note: "x" }],
    ["PATCH", path(8001, "/items/status"), { itemIds: [item(8001, 0)], status: "fulfilled" }],
    ["PUT", path(8002, "/tracking"), { itemIds: [item(8002, 0)], trackingNumber: "X", trackingCompany: "UPS" }],
    ["POST", path(8001, "/fulfillments"), { items: [{ itemId: item(8001, 0), quantity: 1 }] }],
    ["POST", path(8002, "/initiate-return"), { itemIds: [item(8002, 1)], reason: "COLOR" }],
    ["POST", path(8001, "/cancel"), { reason: "OTHER" }],
  ];
  it("refuses a signed-out caller (401), a shopper, a vendor and an admin without orders.manage (403), changing nothing", async () => {
    for (const [method, p, body] of calls) {
      expect((await app.api(method, p, { body })).status, `${method} ${p}`).toBe(401);
      for (const u of [ann, vendorUser, adminNoPerm]) expect((await app.api(method, p, { token: u.token, body })).status, `${method} ${p}`).toBe(403);
    }
    expect(await app.database.db.orderEvent.count()).toBe(0);
    const o = await app.database.db.order.findUniqueOrThrow({ where: { id: oid(8001) }, include: { items: true } });
    expect(o.status).toBe("open");
    expect(o.items.every((i) => i.status === "unfulfilled")).toBe(true);
  });
  it("answers 404 for an unknown order on every endpoint", async () => {
    for (const [method, p, body] of calls.slice(1)) {
      const res = await app.api(method, p.replace(enc(oid(8001)), "999999").replace(enc(oid(8002)), "999999"), { token: admin.token, body });
      expect(res.status, `${method} ${p}`).toBe(404);
    }
  });
});

describe("GET /orders/admin", () => {
  const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((o) => o.name);
  const list = (query: Record<string, string | number>) => app.api("GET", "/orders/admin", { token: admin.token, query });

  it("lists newest first with customer, stage and totals", async () => {
    const res = await list({ limit: 3 });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["#8001", "#8002", "#8003"]);
    expect(res.body.items[0]).toMatchObject({ customer: { email: "ann@example.test", name: "Ann Lovelace", user_id: ann.id }, stage: "unfulfilled", item_count: 3, total: { amount: "150.00" } });
    expect(res.body.items[1].customer.name).toBe("Guest Buyer");
  });

  it("pages with a cursor through every order once, for each sort", async () => {
    for (const sort of ["created_at_desc", "created_at_asc", "total_desc", "total_asc", "name_desc", "name_asc"]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await list({ limit: 4, sort, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        seen.push(...names(res));
        cursor = res.body.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect(seen).toHaveLength(9);
      expect(new Set(seen).size).toBe(9);
      if (sort === "total_desc") expect(seen.slice(0, 3)).toEqual(["#8003", "#8001", "#8002"]);
      if (sort === "name_asc") expect(seen[0]).toBe("#8001");
    }
  });

  it("searches by order name and number, customer email and name, product title, SKU and tracking number", async () => {
    expect(names(await list({ q: "#8002" }))).toEqual(["#8002"]);
    expect(names(await list({ q: "8003" }))).toEqual(["#8003"]);
    expect(names(await list({ q: "zed@exam" }))).toEqual(["#8002"]);
    expect(names(await list({ q: "lovelace" }))).toEqual(["#8001"]);
    expect(names(await list({ q: "Ann Lovelace" }))).toEqual(["#8001"]);
    expect(names(await list({ q: "silk scarf" }))).toEqual(["#8001", "#8002"]);
    expect(names(await list({ q: "scarf-red" }))).toEqual(["#8002"]);
    expect(names(await list({ q: "1ZTRACK8002" }))).toEqual(["#8002"]);
    expect(names(await list({ q: "nothing-like-this" }))).toEqual([]);
  });

  it("filters by financial, fulfilment and item status, order status, vendor, store and dates", async () => {
    expect(names(await list({ financialStatus: "REFUNDED" }))).toEqual(["#8003"]);
    expect(names(await list({ fulfillmentStatus: "FULFILLED" }))).toEqual(["#8002"]);
    expect(names(await list({ itemStatus: "delivered" }))).toEqual(["#8002"]);
    expect(names(await list({ status: "cancelled" }))).toEqual(["#8003"]);
    expect(names(await list({ vendorId }))).toEqual(["#8001"]);
    expect(names(await list({ storeId }))).toEqual(["#8001", "#8002"]);
    expect(names(await list({ from: new Date(NOW - 2.5 * DAY).toISOString(), to: new Date(NOW - 1.5 * DAY).toISOString() }))).toEqual(["#8002"]);
  });

  it("refuses bad filters and cursors with 400", async () => {
    expect((await list({ limit: 101 })).status).toBe(400);
    expect((await list({ financialStatus: "NOPE" })).status).toBe(400);
    expect((await list({ from: "not a date" })).status).toBe(400);
    expect((await list({ cursor: "garbage" })).status).toBe(400);
    const page = await list({ limit: 2 });
    expect((await list({ limit: 2, sort: "total_asc", cursor: page.body.nextCursor })).status).toBe(400);
  });
});

describe("GET /orders/admin/{id}", () => {
  it("answers items with their next moves, fulfilments, customer and a timeline ending with the order's creation", async () => {
    const res = await app.api("GET", path(8002), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { status: string; next_statuses: string[] }) => [i.status, i.next_statuses])).toEqual([
      ["shipped", ["delivered", "returned"]],
      ["delivered", ["returned"]],
    ]);
    expect(res.body.fulfillments).toEqual(expect.arrayContaining([expect.objectContaining({ tracking_number: "1ZTRACK8002", tracking_company: "UPS", item_ids: [item(8002, 0)] })]));
    expect(res.body.timeline.at(-1)).toMatchObject({ kind: "order.created" });
    expect(res.body.customer.email).toBe("zed@example.test");
    // The bare number works as in the shopper's API.
    expect((await app.api("GET", "/orders/admin/8002", { token: admin.token })).body.id).toBe(oid(8002));
  });
});

describe("PATCH /orders/admin/{id}", () => {
  it("changes note, tags and shipping address, records who did it, and a repeat changes nothing", async () => {
    const body = { note: "Gift wrap", tags: ["vip", "gift"], shipping_address: { address1: "2 High St", city: "Shelbyville", country_code: "us" } };
    const res = await app.api("PATCH", path(8001), { token: admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ note: "Gift wrap", tags: ["vip", "gift"], shipping_address: { address1: "2 High St", city: "Shelbyville", country_code: "US", first_name: "Guest" } });
    expect(res.body.timeline[0]).toMatchObject({ kind: "order.updated", actor: { user_id: admin.id, label: "Olga" } });
    const again = await app.api("PATCH", path(8001), { token: admin.token, body });
    expect(again.status).toBe(200);
    expect((await events(8001)).filter((e) => e.kind === "order.updated")).toHaveLength(1);
    // The shopper's page shows the new address.
    const mine = await app.api("GET", `/users/orders/${enc(oid(8001))}`, { token: ann.token });
    expect(mine.body.shipping_address).toMatchObject({ address1: "2 High St", city: "Shelbyville" });
  });
  it("refuses an empty change and bad fields (400)", async () => {
    expect((await app.api("PATCH", path(8001), { token: admin.token, body: {} })).status).toBe(400);
    expect((await app.api("PATCH", path(8001), { token: admin.token, body: { tags: ["a,b"] } })).status).toBe(400);
    expect((await app.api("PATCH", path(8001), { token: admin.token, body: { shipping_address: { country_code: "USA" } } })).status).toBe(400);
  });
});

describe("PATCH /orders/admin/{id}/items/status: the item-status machine", () => {
  const setStatus = (n: number, itemIds: string[], status: string) => app.api("PATCH", path(n, "/items/status"), { token: admin.token, body: { itemIds, status } });

  it("allows exactly the moves of ITEM_STATUS_TRANSITIONS and refuses every other one with 409 naming the item and the move", async () => {
    let n = 8200;
    for (const from of ORDER_ITEM_STATUSES) {
      for (const to of ORDER_ITEM_STATUSES) {
        if (from === to) continue;
        n++;
        await createOrder({ n, email: "m@example.test", daysAgo: 40, items: [{ status: from }] });
        const res = await setStatus(n, [item(n, 0)], to);
        const allowed = ITEM_STATUS_TRANSITIONS[from as OrderItemStatusValue].includes(to as OrderItemStatusValue);
        expect(res.status, `${from} → ${to}: ${JSON.stringify(res.body)}`).toBe(allowed ? 200 : 409);
        const row = await app.database.db.orderItem.findUniqueOrThrow({ where: { id: item(n, 0) } });
        expect(row.status).toBe(allowed ? to : from);
        if (!allowed) {
          expect(JSON.stringify(res.body)).toContain(item(n, 0));
          expect(JSON.stringify(res.body)).toContain(`from ${from} to ${to}`);
        } else {
          expect(res.body.items[0].status).toBe(to);
          expect((await events(n)).map((e) => e.kind)).toEqual([to === "fulfilled" ? "fulfillment.created" : "items.status"]);
        }
      }
    }
  });

  it("moves many items all or nothing", async () => {
    await createOrder({ n: 8301, email: "m@example.test", daysAgo: 41, items: [{ status: "fulfilled" }, { status: "unfulfilled" }] });
    const refused = await setStatus(8301, [item(8301, 0), item(8301, 1)], "shipped");
    expect(refused.status).toBe(409);
    expect((await app.database.db.orderItem.findUniqueOrThrow({ where: { id: item(8301, 0) } })).status).toBe("fulfilled");
    const foreign = await setStatus(8301, [item(8301, 0), item(8002, 0)], "shipped");
    expect(foreign.status).toBe(422);
  });

  it("is idempotent: a move to where an item already is answers 200 and records nothing", async () => {
    await createOrder({ n: 8302, email: "m@example.test", daysAgo: 42, items: [{ status: "shipped" }] });
    const res = await setStatus(8302, [item(8302, 0)], "shipped");
    expect(res.status).toBe(200);
    expect(await events(8302)).toHaveLength(0);
  });

  it("two admins' simultaneous submits move an item once", async () => {
    await createOrder({ n: 8303, email: "m@example.test", daysAgo: 43, items: [{ status: "shipped" }, { status: "unfulfilled" }] });
    const [a, b] = await Promise.all([setStatus(8303, [item(8303, 0)], "delivered"), setStatus(8303, [item(8303, 0)], "delivered")]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await events(8303)).filter((e) => e.kind === "items.status")).toHaveLength(1);
    const [c, d] = await Promise.all([setStatus(8303, [item(8303, 1)], "fulfilled"), setStatus(8303, [item(8303, 1)], "fulfilled")]);
    expect([c.status, d.status]).toEqual([200, 200]);
    expect((await events(8303)).filter((e) => e.kind === "fulfillment.created")).toHaveLength(1);
  });

  it("the shopper sees the new status on their order page at once", async () => {
    await createOrder({ n: 8304, userId: ann.id, daysAgo: 44, items: [{ status: "shipped" }] });
    expect((await setStatus(8304, [item(8304, 0)], "delivered")).status).toBe(200);
    const mine = await app.api("GET", `/users/orders/${enc(oid(8304))}`, { token: ann.token });
    expect(mine.body.items[0].status).toBe("delivered");
  });
});

describe("POST /orders/admin/{id}/fulfillments and PUT …/tracking", () => {
  it("fulfils chosen items with tracking (shipped), emails the shopper, and the shopper sees the tracking", async () => {
    await createOrder({ n: 8401, userId: ann.id, email: "ann@example.test", daysAgo: 50, items: [{ status: "unfulfilled" }, { status: "unfulfilled", product: 702 }] });
    const body = { items: [{ itemId: item(8401, 0), quantity: 1 }], trackingCompany: "UPS", trackingNumber: "1Z8401", notifyCustomer: true };
    const res = await app.api("POST", path(8401, "/fulfillments"), { token: admin.token, body });
    expect(res.status).toBe(201);
    expect(res.body.items.map((i: { status: string }) => i.status)).toEqual(["shipped", "unfulfilled"]);
    expect(res.body.fulfillment_status).toBe("PARTIALLY_FULFILLED");
    const f = res.body.fulfillments[0];
    expect(f).toMatchObject({ tracking_number: "1Z8401", tracking_company: "UPS", tracking_url: "https://www.ups.com/track?tracknum=1Z8401", item_ids: [item(8401, 0)] });
    expect(f.id).toEqual(expect.any(String));
    const mails = await app.database.db.emailOutbox.findMany({ where: { to: "ann@example.test", kind: "order.shipped" } });
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("1Z8401");
    const mine = await app.api("GET", `/users/orders/${enc(oid(8401))}`, { token: ann.token });
    expect(mine.body.items[0].tracking).toMatchObject({ tracking_number: "1Z8401", provider: "UPS" });
    // A retry is the same fulfilment: 201 with nothing new.
    expect((await app.api("POST", path(8401, "/fulfillments"), { token: admin.token, body })).status).toBe(201);
    expect((await events(8401)).filter((e) => e.kind === "fulfillment.created")).toHaveLength(1);
    expect(await app.database.db.emailOutbox.count({ where: { to: "ann@example.test", kind: "order.shipped" } })).toBe(1);

    // Change the tracking by fulfilment id, then by item; the same number again changes nothing.
    const t1 = await app.api("PUT", path(8401, "/tracking"), { token: admin.token, body: { fulfillmentId: f.id, trackingNumber: "9400111", trackingCompany: "USPS" } });
    expect(t1.status).toBe(200);
    expect(t1.body.items[0].tracking).toMatchObject({ tracking_number: "9400111", provider: "USPS", tracking_url: expect.stringContaining("usps.com") });
    const t2 = await app.api("PUT", path(8401, "/tracking"), { token: admin.token, body: { itemIds: [item(8401, 0)], trackingNumber: "9400222", trackingCompany: "USPS", trackingUrl: "https://track.example/9400222" } });
    expect(t2.status).toBe(200);
    expect(t2.body.items[0].tracking.tracking_url).toBe("https://track.example/9400222");
    const t3 = await app.api("PUT", path(8401, "/tracking"), { token: admin.token, body: { itemIds: [item(8401, 0)], trackingNumber: "9400222", trackingCompany: "USPS", trackingUrl: "https://track.example/9400222" } });
    expect(t3.status).toBe(200);
    expect((await events(8401)).filter((e) => e.kind === "fulfillment.tracking")).toHaveLength(2);
    expect((await app.api("GET", `/users/orders/${enc(oid(8401))}`, { token: ann.token })).body.items[0].tracking.tracking_number).toBe("9400222");
  });

  it("fulfils without tracking (fulfilled, no email); refuses a sent item among them (409), foreign items (422), too many units (422)", async () => {
    await createOrder({ n: 8402, email: "bo@example.test", daysAgo: 51, items: [{ status: "unfulfilled" }, { status: "delivered" }] });
    const res = await app.api("POST", path(8402, "/fulfillments"), { token: admin.token, body: { items: [{ itemId: item(8402, 0), quantity: 1 }] } });
    expect(res.status).toBe(201);
    expect(res.body.items[0].status).toBe("fulfilled");
    expect(await app.database.db.emailOutbox.count({ where: { to: "bo@example.test" } })).toBe(0);
    await createOrder({ n: 8403, email: "bo@example.test", daysAgo: 52, items: [{ status: "unfulfilled", qty: 1 }, { status: "delivered" }] });
    // An item already sent among them: nothing is fulfilled (all or nothing).
    expect((await app.api("POST", path(8403, "/fulfillments"), { token: admin.token, body: { items: [{ itemId: item(8403, 0), quantity: 1 }, { itemId: item(8403, 1), quantity: 1 }] } })).status).toBe(409);
    expect((await app.database.db.orderItem.findUniqueOrThrow({ where: { id: item(8403, 0) } })).status).toBe("unfulfilled");
    expect((await app.api("POST", path(8403, "/fulfillments"), { token: admin.token, body: { items: [{ itemId: item(8001, 0), quantity: 1 }] } })).status).toBe(422);
    expect((await app.api("POST", path(8403, "/fulfillments"), { token: admin.token, body: { items: [{ itemId: item(8403, 0), quantity: 5 }] } })).status).toBe(422);
  });

  it("refuses tracking for unsent items (409), an unknown fulfilment (404) and both or neither target (400)", async () => {
    await createOrder({ n: 8404, email: "bo@example.test", daysAgo: 53, items: [{ status: "unfulfilled" }] });
    expect((await app.api("PUT", path(8404, "/tracking"), { token: admin.token, body: { itemIds: [item(8404, 0)], trackingNumber: "X1", trackingCompany: "UPS" } })).status).toBe(409);
    expect((await app.api("PUT", path(8404, "/tracking"), { token: admin.token, body: { fulfillmentId: "gid://local/Fulfillment/nope", trackingNumber: "X1", trackingCompany: "UPS" } })).status).toBe(404);
    expect((await app.api("PUT", path(8404, "/tracking"), { token: admin.token, body: { trackingNumber: "X1", trackingCompany: "UPS" } })).status).toBe(400);
  });

  it("adds tracking to items sent before the app recorded their fulfilment (local store)", async () => {
    const res = await app.api("PUT", path(8002, "/tracking"), { token: admin.token, body: { itemIds: [item(8002, 1)], trackingNumber: "DHL123", trackingCompany: "DHL" } });
    expect(res.status).toBe(200);
    expect(res.body.items[1].tracking).toMatchObject({ tracking_number: "DHL123", provider: "DHL" });
    expect(res.body.items[1].status).toBe("delivered");
  });
});

describe("POST /orders/admin/{id}/initiate-return", () => {
  it("requests a return on the customer's behalf; the shopper sees it; the timeline names the admin", async () => {
    await createOrder({ n: 8501, userId: ann.id, daysAgo: 60, items: [{ status: "delivered" }, { status: "unfulfilled", product: 702 }] });
    const res = await app.api("POST", path(8501, "/initiate-return"), { token: admin.token, body: { itemIds: [item(8501, 0)], reason: "SIZE_TOO_SMALL", note: "Phoned in" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "request", status: "REQUESTED", reason: "SIZE_TOO_SMALL" });
    const rr = await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(rr.user_id).toBe(ann.id);
    const mine = await app.api("GET", "/users/returns", { token: ann.token });
    expect(mine.body.items.map((r: { id: string }) => r.id)).toContain(res.body.id);
    expect((await events(8501)).map((e) => [e.kind, e.actor_user_id])).toEqual([["return.requested", admin.id]]);
    // The same rules as the shopper's: the item is held now, and an unsent item cannot be returned.
    expect((await app.api("POST", path(8501, "/initiate-return"), { token: admin.token, body: { itemIds: [item(8501, 0)], reason: "SIZE_TOO_SMALL" } })).status).toBe(409);
    expect((await app.api("POST", path(8501, "/initiate-return"), { token: admin.token, body: { itemIds: [item(8501, 1)], reason: "COLOR" } })).status).toBe(409);
    expect((await app.api("POST", path(8501, "/initiate-return"), { token: admin.token, body: { itemIds: [item(8501, 0)], reason: "BORED" } })).status).toBe(400);
    expect((await app.api("POST", path(8501, "/initiate-return"), { token: admin.token, body: { itemIds: [item(8002, 0)], reason: "COLOR" } })).status).toBe(422);
  });
});

describe("POST /orders/admin/{id}/cancel", () => {
  it("cancels with restock, refund and an email; a repeat answers 200 unchanged; the shopper sees it", async () => {
    await createOrder({ n: 8601, userId: ann.id, email: "ann@example.test", daysAgo: 70, items: [{ status: "unfulfilled", qty: 2 }] });
    const before = await app.database.db.productVariant.findUniqueOrThrow({ where: { id: vgid(701, 0) } });
    const body = { reason: "INVENTORY", restock: true, refund: true, notify: true, staffNote: "Out of wool" };
    const [a, b] = await Promise.all([app.api("POST", path(8601, "/cancel"), { token: admin.token, body }), app.api("POST", path(8601, "/cancel"), { token: admin.token, body })]);
    // Both answer the cancelled order, or the second learns that the first is with the store.
    expect([a.status, b.status].sort()).toEqual(expect.arrayContaining([200]));
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    const res = await app.api("POST", path(8601, "/cancel"), { token: admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", financial_status: "REFUNDED", stage: "cancelled" });
    expect((await events(8601)).filter((e) => e.kind === "order.cancelled")).toHaveLength(1);
    const after = await app.database.db.productVariant.findUniqueOrThrow({ where: { id: vgid(701, 0) } });
    expect(after.inventory_quantity).toBe(before.inventory_quantity + 2);
    expect(await app.database.db.emailOutbox.count({ where: { to: "ann@example.test", kind: "order.cancelled" } })).toBe(1);
    const mine = await app.api("GET", `/users/orders/${enc(oid(8601))}`, { token: ann.token });
    expect(mine.body.status).toBe("cancelled");
  });
  it("is refused (409) once an item was sent, and for a bad reason (400)", async () => {
    await createOrder({ n: 8602, email: "c@example.test", daysAgo: 71, items: [{ status: "unfulfilled" }, { status: "shipped" }] });
    const res = await app.api("POST", path(8602, "/cancel"), { token: admin.token, body: { reason: "OTHER" } });
    expect(res.status).toBe(409);
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(8602) } })).status).toBe("open");
    expect((await app.api("POST", path(8602, "/cancel"), { token: admin.token, body: { reason: "BORED" } })).status).toBe(400);
  });
});

describe("the shopper's own actions on the admin timeline", () => {
  it("a shopper's cancel and return request show in the order's timeline with the shopper as actor", async () => {
    await createOrder({ n: 8650, userId: ann.id, daysAgo: 72, items: [{ status: "unfulfilled" }] });
    expect((await app.api("POST", `/users/orders/${enc(oid(8650))}/cancel`, { token: ann.token, body: { reason: "CHANGED_MIND" } })).status).toBe(200);
    await createOrder({ n: 8651, userId: ann.id, daysAgo: 73, items: [{ status: "delivered" }] });
    expect((await app.api("POST", `/users/orders/${enc(oid(8651))}/initiate-return`, { token: ann.token, body: { order_item_ids: [item(8651, 0)], reason: "COLOR" } })).status).toBe(201);
    const cancelled = await app.api("GET", path(8650), { token: admin.token });
    expect(cancelled.body.timeline[0]).toMatchObject({ kind: "order.cancelled", actor: { user_id: ann.id, label: "ann@example.test" } });
    const returned = await app.api("GET", path(8651), { token: admin.token });
    expect(returned.body.timeline[0]).toMatchObject({ kind: "return.requested", actor: { user_id: ann.id } });
    expect(returned.body.return_requests).toHaveLength(1);
    expect(returned.body.returns[0].item_ids).toEqual([item(8651, 0)]);
  });
});

describe("through the Shopify adapter (local Shopify-like server)", () => {
  let fake: FakeShopify;
  let local: CommercePort;
  beforeAll(async () => {
    fake = await startFakeShopify();
    local = app.ctx.commerce;
    app.ctx.commerce = createShopifyCommerce({ shop: fake.shop, apiVersion: async () => "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => {} });
  });
  afterAll(async () => {
    app.ctx.commerce = local;
    await fake?.close();
  });

  it("PATCH sends orderUpdate with the note, tags and address (validated against the Admin schema) and keeps the read model", async () => {
    fake.on("OrderUpdate", (vars) => ({ data: { orderUpdate: { order: { id: vars.input.id }, userErrors: [] } } }));
    const res = await app.api("PATCH", path(8002), { token: admin.token, body: { note: "Call first", tags: ["wholesale"], shipping_address: { zip: "99999" } } });
    expect(res.status).toBe(200);
    expect(fake.calls("OrderUpdate").at(-1)!.variables).toEqual({ input: { id: oid(8002), note: "Call first", tags: ["wholesale"], shippingAddress: { zip: "99999" } } });
    expect(res.body).toMatchObject({ note: "Call first", tags: ["wholesale"], shipping_address: { zip: "99999" } });
  });

  it("a Shopify userError answers 422 and changes nothing", async () => {
    fake.on("OrderUpdate", () => ({ data: { orderUpdate: { order: null, userErrors: [{ field: ["tags"], message: "Tags are invalid" }] } } }));
    const res = await app.api("PATCH", path(8002), { token: admin.token, body: { tags: ["other"] } });
    expect(res.status).toBe(422);
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(8002) } })).tags).toEqual(["wholesale"]);
  });

  it("tracking of a known fulfilment goes through fulfillmentTrackingInfoUpdate; single-item cancel is refused (409)", async () => {
    await app.database.db.orderItem.update({ where: { id: item(8002, 0) }, data: { fulfillment_id: "gid://shopify/Fulfillment/55" } });
    fake.on("FulfillmentTrackingUpdate", () => ({ data: { fulfillmentTrackingInfoUpdate: { fulfillment: { id: "gid://shopify/Fulfillment/55" }, userErrors: [] } } }));
    const res = await app.api("PUT", path(8002, "/tracking"), { token: admin.token, body: { itemIds: [item(8002, 0)], trackingNumber: "1ZNEW", trackingCompany: "UPS" } });
    expect(res.status).toBe(200);
    expect(fake.calls("FulfillmentTrackingUpdate").at(-1)!.variables).toMatchObject({ fulfillmentId: "gid://shopify/Fulfillment/55", trackingInfoInput: { number: "1ZNEW", company: "UPS" } });
    await createOrder({ n: 8701, email: "s@example.test", daysAgo: 80, items: [{ status: "unfulfilled" }] });
    expect((await app.api("PATCH", path(8701, "/items/status"), { token: admin.token, body: { itemIds: [item(8701, 0)], status: "cancelled" } })).status).toBe(409);
  });

  it("the orders webhook records each item's fulfilment and the order's tags, so tracking by item reaches Shopify's fulfilment", async () => {
    await upsertOrderFromWebhook(app.database.db, {
      id: 8801,
      name: "#8801",
      email: "hook@example.test",
      financial_status: "paid",
      fulfillment_status: "fulfilled",
      total_price: "50.00",
      currency: "USD",
      tags: "vip, gift",
      line_items: [{ id: 88011, title: "Wool Coat", quantity: 1, price: "50.00", fulfillment_status: "fulfilled" }],
      fulfillments: [{ id: 77, tracking_number: "1ZOLD", tracking_company: "UPS", line_items: [{ id: 88011 }] }],
    });
    const detail = await app.api("GET", "/orders/admin/8801", { token: admin.token });
    expect(detail.body.tags).toEqual(["vip", "gift"]);
    expect(detail.body.fulfillments).toEqual([expect.objectContaining({ id: "gid://shopify/Fulfillment/77", tracking_number: "1ZOLD" })]);
    const res = await app.api("PUT", "/orders/admin/8801/tracking", { token: admin.token, body: { itemIds: ["gid://shopify/LineItem/88011"], trackingNumber: "1ZNEWER", trackingCompany: "UPS" } });
    expect(res.status).toBe(200);
    expect(fake.calls("FulfillmentTrackingUpdate").at(-1)!.variables).toMatchObject({ fulfillmentId: "gid://shopify/Fulfillment/77", trackingInfoInput: { number: "1ZNEWER" } });
    // An item whose fulfilment the app never learnt is refused on Shopify (409), nothing sent.
    const calls = fake.calls("FulfillmentTrackingUpdate").length;
    expect((await app.api("PUT", path(8002, "/tracking"), { token: admin.token, body: { itemIds: [item(8002, 1)], trackingNumber: "1ZX", trackingCompany: "UPS" } })).status).toBe(409);
    expect(fake.calls("FulfillmentTrackingUpdate")).toHaveLength(calls);
  });
});
