/**
 * Bulk actions of the admin orders list (issue 16): POST /api/orders/admin/bulk/items-status and the
 * list page's "bulk-status" action (app/routes/app.orders.tsx) — a mix of orders whose items move,
 * partly move, cannot move (with the reason), that the store refuses and that do not exist, answered
 * per order with none stopping the others; a retry moves nothing twice; two admins' double submit
 * moves once and is reported once; the limit of 50 orders; refused for a caller without
 * orders.manage (nothing changes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { MAX_BULK_ORDERS } from "../../app/contract/admin-orders-bulk";
import { CommerceError } from "../../app/providers/commerce/port";
import { createTestApp, withCommerce, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";

type ListRoute = typeof import("../../app/routes/app.orders");
let list: ListRoute;
let app: TestApp;
let admin: { id: string; token: string };
let admin2: { id: string; token: string };
let noPerm: { id: string; token: string };
let shopper: { id: string; token: string };

const NOW = Date.now();
const DAY = 86_400_000;
const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const BULK = "/orders/admin/bulk/items-status";

async function createOrder(n: number, items: OrderItemStatus[], status: OrderStatus = "open") {
  const created = new Date(NOW - (n % 100) * DAY);
  await app.database.db.order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      order_number: n,
      email: `c${n}@example.test`,
      status,
      financial_status: "PAID",
      fulfillment_status: items.some((s) => s !== "unfulfilled" && s !== "cancelled") ? "FULFILLED" : "UNFULFILLED",
      total_price: new Prisma.Decimal(100),
      created_at: created,
      items: {
        create: items.map((s, i) => ({
          id: lid(n, i),
          title: i === 0 ? "Wool Coat" : "Silk Scarf",
          variant_title: "Black / S",
          sku: `SKU-${n}-${i}`,
          quantity: 1,
          price: new Prisma.Decimal(50),
          status: s,
          created_at: created,
        })),
      },
    },
  });
}

const statuses = async (n: number) => (await app.database.db.orderItem.findMany({ where: { order_id: oid(n) }, orderBy: { id: "asc" } })).map((i) => i.status);
const eventCount = (n: number) => app.database.db.orderEvent.count({ where: { order_id: oid(n) } });
const bulk = (orderIds: string[], status: string, token: string | null = admin.token) => app.api("POST", BULK, { token: token ?? undefined, body: { orderIds, status } });
const act = (fields: [string, string][], token: string | null = admin.token) => list.action({ request: form("/app/orders", token, fields), params: {}, context: {} });

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.orders");
  admin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"], firstName: "Olga" });
  admin2 = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"], firstName: "Omar" });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["products.manage"] });
  shopper = await app.createUser({ email: "ann@example.test", firstName: "Ann" });
  await createOrder(7001, ["unfulfilled", "unfulfilled"]);
  await createOrder(7002, ["unfulfilled", "cancelled"]);
  await createOrder(7003, ["cancelled"], "cancelled");
  await createOrder(7004, ["delivered", "delivered"]);
  await createOrder(7005, ["fulfilled", "unfulfilled"]);
  await createOrder(7006, ["fulfilled", "fulfilled"]);
  await createOrder(7007, ["unfulfilled"]);
  await createOrder(7008, ["unfulfilled"]);
  await createOrder(7009, ["unfulfilled"]);
  await createOrder(7010, ["unfulfilled"]);
});
afterAll(() => app?.close());

describe("access", () => {
  it("refuses a signed-out caller (401), a shopper and an admin without orders.manage (403) on the API, and the page's action to the admin (403); nothing moves", async () => {
    expect((await bulk([oid(7007)], "fulfilled", null)).status).toBe(401);
    for (const u of [shopper, noPerm]) expect((await bulk([oid(7007)], "fulfilled", u.token)).status).toBe(403);
    expect((await thrown(act([["intent", "bulk-status"], ["status", "fulfilled"], ["ids", oid(7007)]], noPerm.token))).status).toBe(403);
    expect(await statuses(7007)).toEqual(["unfulfilled"]);
    expect(await eventCount(7007)).toBe(0);
  });
});

describe("POST /orders/admin/bulk/items-status", () => {
  it("moves what may move in each order and reports per order what moved and what was refused with the reason; one refusal does not stop the others", async () => {
    const res = await bulk([oid(7001), oid(7002), "999999", oid(7003), oid(7004)], "fulfilled");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "fulfilled", moved: 2, unchanged: 0, refused: 3 });
    const [o1, o2, unknown, o3, o4] = res.body.results;
    expect(o1).toMatchObject({ order_id: oid(7001), name: "#7001", outcome: "moved", refused: [], already: [], error: null });
    expect(o1.moved.map((i: { id: string; from: string }) => [i.id, i.from])).toEqual([
      [lid(7001, 0), "unfulfilled"],
      [lid(7001, 1), "unfulfilled"],
    ]);
    // Partly: the cancelled item stays, with its reason.
    expect(o2).toMatchObject({ name: "#7002", outcome: "moved", moved: [{ id: lid(7002, 0), from: "unfulfilled" }], error: null });
    expect(o2.refused).toEqual([{ id: lid(7002, 1), title: "Silk Scarf", variant_title: "Black / S", status: "cancelled", reason: '"Silk Scarf (Black / S)" cannot move from cancelled to fulfilled (cancelled is final)' }]);
    expect(unknown).toMatchObject({ order_id: "999999", name: null, outcome: "refused", error: { code: "not_found", message: "Order not found" } });
    expect(o3).toMatchObject({ name: "#7003", outcome: "refused", moved: [], error: { code: "conflict" } });
    expect(o4).toMatchObject({ name: "#7004", outcome: "refused", error: { code: "conflict", message: "No item of #7004 can move to fulfilled" } });
    expect(o4.refused[0].reason).toBe('"Wool Coat (Black / S)" cannot move from delivered to fulfilled (from delivered: returned)');

    expect(await statuses(7001)).toEqual(["fulfilled", "fulfilled"]);
    expect(await statuses(7002)).toEqual(["fulfilled", "cancelled"]);
    expect(await statuses(7003)).toEqual(["cancelled"]);
    expect(await statuses(7004)).toEqual(["delivered", "delivered"]);
    // The timeline names the admin, as a single call does.
    const ev = await app.database.db.orderEvent.findMany({ where: { order_id: oid(7001) } });
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ kind: "fulfillment.created", actor_user_id: admin.id, actor_label: "Olga" });
    expect(await eventCount(7004)).toBe(0);
  });

  it("a retry moves nothing twice: items already there are reported unchanged, nothing is recorded", async () => {
    const before = await eventCount(7001);
    const res = await bulk([oid(7001), "7002"], "fulfilled");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ moved: 0, unchanged: 2, refused: 0 });
    expect(res.body.results[0]).toMatchObject({ outcome: "unchanged", moved: [], already: [{ id: lid(7001, 0) }, { id: lid(7001, 1) }] });
    // A bare order number names the order too.
    expect(res.body.results[1]).toMatchObject({ order_id: oid(7002), outcome: "unchanged", already: [{ id: lid(7002, 0) }] });
    expect(await eventCount(7001)).toBe(before);
  });

  it("moves each item along the machine only: → shipped takes fulfilled items and leaves unfulfilled ones with the reason", async () => {
    const res = await bulk([oid(7005), oid(7001)], "shipped");
    expect(res.body).toMatchObject({ moved: 2, refused: 0 });
    expect(res.body.results[0].moved.map((i: { id: string }) => i.id)).toEqual([lid(7005, 0)]);
    expect(res.body.results[0].refused[0]).toMatchObject({ id: lid(7005, 1), status: "unfulfilled", reason: expect.stringContaining("cannot move from unfulfilled to shipped (from unfulfilled: fulfilled or cancelled)") });
    expect(await statuses(7005)).toEqual(["shipped", "unfulfilled"]);
    expect(await statuses(7001)).toEqual(["shipped", "shipped"]);
    const ev = await app.database.db.orderEvent.findFirstOrThrow({ where: { order_id: oid(7005), kind: "items.status" } });
    expect(ev.data).toMatchObject({ to: "shipped", items: [{ id: lid(7005, 0), from: "fulfilled" }] });
  });

  it("a double submit of two admins moves each item once, and only one of the two answers reports the move", async () => {
    const [a, b] = await Promise.all([bulk([oid(7006)], "delivered"), bulk([oid(7006)], "delivered", admin2.token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const moved = [a, b].flatMap((r) => r.body.results[0].moved);
    expect(moved).toHaveLength(2);
    expect(await statuses(7006)).toEqual(["delivered", "delivered"]);
    expect(await app.database.db.orderEvent.count({ where: { order_id: oid(7006), kind: "items.status" } })).toBe(1);
  });

  it("an order the store refuses (→ fulfilled goes through the store) is reported with the store's reason; the next order still moves", async () => {
    const original = app.ctx.commerce.fulfillOrderLines.bind(app.ctx.commerce);
    let res!: Awaited<ReturnType<typeof bulk>>;
    await withCommerce(
      app,
      "fulfillOrderLines",
      async (orderId, opts) => {
        if (orderId === oid(7009)) throw new CommerceError("Fulfillment order is on hold", [{ field: ["lines"], message: "on hold" }], 422);
        return original(orderId, opts);
      },
      async () => {
        res = await bulk([oid(7009), oid(7010)], "fulfilled");
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ moved: 1, refused: 1 });
    expect(res.body.results[0]).toMatchObject({ name: "#7009", outcome: "refused", moved: [], error: { code: "unprocessable", message: "The store refused: Fulfillment order is on hold" } });
    expect(res.body.results[1]).toMatchObject({ name: "#7010", outcome: "moved", moved: [{ id: lid(7010, 0), from: "unfulfilled" }] });
    expect(await statuses(7009)).toEqual(["unfulfilled"]);
    expect(await statuses(7010)).toEqual(["fulfilled"]);
    expect(await eventCount(7009)).toBe(0);
  });

  it(`takes at most ${MAX_BULK_ORDERS} orders: ${MAX_BULK_ORDERS} are answered one by one, ${MAX_BULK_ORDERS + 1} are refused with 400 and move nothing`, async () => {
    const fifty = [oid(7007), ...Array.from({ length: MAX_BULK_ORDERS - 1 }, (_, i) => `88${i}`)];
    const ok = await bulk(fifty, "fulfilled");
    expect(ok.status).toBe(200);
    expect(ok.body.results).toHaveLength(MAX_BULK_ORDERS);
    expect(ok.body).toMatchObject({ moved: 1, refused: MAX_BULK_ORDERS - 1 });
    const tooMany = await bulk([oid(7008), ...Array.from({ length: MAX_BULK_ORDERS }, (_, i) => `88${i}`)], "fulfilled");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain(`At most ${MAX_BULK_ORDERS} orders per bulk action`);
    expect(await statuses(7008)).toEqual(["unfulfilled"]);
  });

  it("refuses a status bulk actions do not offer (cancel is per order), an empty selection and unknown fields with 400", async () => {
    expect((await bulk([oid(7008)], "cancelled")).status).toBe(400);
    expect((await bulk([oid(7008)], "unfulfilled")).status).toBe(400);
    expect((await bulk([], "fulfilled")).status).toBe(400);
    expect((await app.api("POST", BULK, { token: admin.token, body: { orderIds: [oid(7008)], status: "fulfilled", notify: true } })).status).toBe(400);
    expect(await statuses(7008)).toEqual(["unfulfilled"]);
  });
});

describe("the orders list's bulk action", () => {
  it("marks the selected orders' items and answers a banner line per order (what moved, what was refused and why)", async () => {
    const r = await act([
      ["intent", "bulk-status"],
      ["status", "fulfilled"],
      ["ids", oid(7008)],
      ["ids", oid(7003)],
      ["ids", oid(7002)],
    ]);
    expect(r).toEqual({
      ok: true,
      message: "Mark items as fulfilled: 1 order updated, 1 order unchanged, 1 order refused.",
      lines: [
        { id: oid(7008), name: "#7008", tone: "success", text: "1 item marked fulfilled." },
        {
          id: oid(7003),
          name: "#7003",
          tone: "critical",
          text: 'Refused: No item of #7003 can move to fulfilled. Not moved: "Wool Coat (Black / S)" cannot move from cancelled to fulfilled (cancelled is final).',
        },
        { id: oid(7002), name: "#7002", tone: "warning", text: 'Nothing to mark: 1 item already fulfilled. Not moved: "Silk Scarf (Black / S)" cannot move from cancelled to fulfilled (cancelled is final).' },
      ],
    });
    expect(await statuses(7008)).toEqual(["fulfilled"]);
  });

  it(`refuses more than ${MAX_BULK_ORDERS} orders, no selection, a status not offered and an unknown intent, moving nothing`, async () => {
    const many = Array.from({ length: MAX_BULK_ORDERS + 1 }, (_, i) => ["ids", `77${i}`] as [string, string]);
    const r = await act([["intent", "bulk-status"], ["status", "shipped"], ...many]);
    expect(r).toEqual({ ok: false, error: `At most ${MAX_BULK_ORDERS} orders per bulk action: choose fewer orders` });
    expect(await act([["intent", "bulk-status"], ["status", "shipped"]])).toEqual({ ok: false, error: "Choose at least one order" });
    expect(await act([["intent", "bulk-status"], ["status", "cancelled"], ["ids", oid(7008)]])).toMatchObject({ ok: false, error: expect.stringContaining("status must be one of") });
    expect(await act([["intent", "nope"], ["ids", oid(7008)]])).toEqual({ ok: false, error: "Unknown action" });
    expect(await statuses(7008)).toEqual(["fulfilled"]);
  });

  it("renders the list as a selectable table with the bulk actions' banner", async () => {
    const data = await list.loader({ request: req("/app/orders", admin.token), params: {}, context: {} });
    const html = await renderRoute({ id: "routes/app.orders", path: "/app/orders", url: "/app/orders", data, Component: list.default });
    expect(html).toContain("#7008");
    // Selectable rows: a checkbox per order and one to select them all.
    expect((html.match(/type="checkbox"/g) ?? []).length).toBeGreaterThan(data.orders.length);
  });
});
