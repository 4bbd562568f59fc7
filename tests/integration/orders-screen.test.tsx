/**
 * The admin Orders screens (app/routes/app.orders.tsx and app.orders_.$id.tsx) through their loaders
 * and actions in local mode: the orders.manage guard and navigation link, the list (rows, search,
 * status tabs, payment filter, cursor paging, empty state), the detail (items with their next
 * statuses, timeline), fulfilling with carrier and tracking (what the shopper's GET /users/orders/{id}
 * then shows), an item-status move and a refused one, a cancel refused with its reason, and both
 * pages server-rendered with Polaris.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus, type OrderStatus } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";
import { createProduct, pgid, vgid } from "./products-fixtures";

type ListRoute = typeof import("../../app/routes/app.orders");
type DetailRoute = typeof import("../../app/routes/app.orders_.$id");
let list: ListRoute;
let detail: DetailRoute;
let app: TestApp;
let admin: { id: string; token: string };
let noPerm: { token: string };
let ann: { id: string; token: string };

const NOW = Date.now();
const DAY = 86_400_000;
const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const enc = encodeURIComponent;

async function createOrder(o: { n: number; userId?: string | null; email: string; status?: OrderStatus; daysAgo: number; financial?: string; items: OrderItemStatus[] }) {
  const created = new Date(NOW - o.daysAgo * DAY);
  await app.database.db.order.create({
    data: {
      id: oid(o.n),
      name: `#${o.n}`,
      order_number: o.n,
      user_id: o.userId ?? null,
      email: o.email,
      status: o.status ?? "open",
      financial_status: o.financial ?? "PAID",
      fulfillment_status: o.items.some((s) => s !== "unfulfilled" && s !== "cancelled") ? "FULFILLED" : "UNFULFILLED",
      total_price: new Prisma.Decimal(120),
      shipping_address: { first_name: "Guest", last_name: "Buyer", address1: "1 Main St", city: "Springfield", zip: "12345", country: "US" },
      created_at: created,
      items: {
        create: o.items.map((status, i) => ({
          id: lid(o.n, i),
          product_id: pgid(901),
          variant_id: vgid(901, 0),
          title: "Linen Shirt",
          variant_title: "White / M",
          sku: `LIN-${o.n}-${i}`,
          quantity: 1,
          price: new Prisma.Decimal(60),
          status,
          tracking_number: status === "shipped" ? `1Z${o.n}` : null,
          provider: status === "shipped" ? "UPS" : null,
          created_at: created,
        })),
      },
    },
  });
}

async function load(query = "", token: string | null = admin.token) {
  return list.loader({ request: req(`/app/orders${query}`, token), params: {}, context: {} });
}
const loadOrder = (n: number, token: string | null = admin.token) => detail.loader({ request: req(`/app/orders/${enc(oid(n))}`, token), params: { id: oid(n) }, context: {} });
const act = (n: number, fields: [string, string][], token: string | null = admin.token) => detail.action({ request: form(`/app/orders/${enc(oid(n))}`, token, fields), params: { id: oid(n) }, context: {} });
const names = (d: Awaited<ReturnType<typeof load>>) => d.orders.map((o) => o.name);

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.orders");
  detail = await import("../../app/routes/app.orders_.$id");
  await createProduct(app.database.db, { n: 901, title: "Linen Shirt", inventory: 5 });
  admin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"], firstName: "Olga" });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  ann = await app.createUser({ email: "ann@example.test", firstName: "Ann" });
  await createOrder({ n: 9001, userId: ann.id, email: "ann@example.test", daysAgo: 1, items: ["unfulfilled", "unfulfilled"] });
  await createOrder({ n: 9002, email: "zed@example.test", daysAgo: 2, items: ["shipped"] });
  await createOrder({ n: 9003, email: "kim@example.test", daysAgo: 3, status: "cancelled", financial: "REFUNDED", items: ["cancelled"] });
  await createOrder({ n: 9004, email: "lee@example.test", daysAgo: 4, items: ["delivered"] });
  for (let i = 0; i < 26; i++) await createOrder({ n: 9100 + i, email: `bulk${i}@example.test`, daysAgo: 10 + i, items: ["unfulfilled"] });
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs orders.manage: 403 for another admin on both pages and the action; login when signed out", async () => {
    expect((await thrown(load("", noPerm.token))).status).toBe(403);
    expect((await thrown(loadOrder(9001, noPerm.token))).status).toBe(403);
    expect((await thrown(act(9001, [["intent", "cancel"], ["reason", "OTHER"]], noPerm.token))).status).toBe(403);
    expect((await thrown(load("", ann.token))).status).toBe(302);
    const out = await thrown(load("?view=shipped", null));
    expect(out.headers.get("location")).toBe("/app/login?next=%2Fapp%2Forders%3Fview%3Dshipped");
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(9001) } })).status).toBe("open");
  });
  it("shows Orders in the navigation only with orders.manage", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["orders.manage"] }).map((n) => n.url)).toContain("/app/orders");
    expect(navigationFor({ role: "ADMIN", permissions: ["catalog.edit"] }).map((n) => n.url)).not.toContain("/app/orders");
  });
});

describe("the list", () => {
  it("lists newest first with customer, badges data and item counts, 25 a page with a next cursor", async () => {
    const d = await load();
    expect(d.orders).toHaveLength(25);
    expect(names(d).slice(0, 4)).toEqual(["#9001", "#9002", "#9003", "#9004"]);
    expect(d.orders[0]).toMatchObject({ customer: { email: "ann@example.test" }, stage: "unfulfilled", item_count: 2, financial_status: "PAID", total: { amount: "120.00" } });
    expect(d.nextCursor).toEqual(expect.any(String));
    const next = await load(`?cursor=${d.nextCursor}&trail=-`);
    expect(names(next)).toEqual(["#9121", "#9122", "#9123", "#9124", "#9125"]);
    expect(next.nextCursor).toBeNull();
    const html = await renderRoute({ id: "routes/app.orders", path: "/app/orders", url: "/app/orders", data: d, Component: list.default });
    expect(html).toContain("#9001");
    expect(html).toContain("Unfulfilled");
    expect(html).toContain("Search by order, customer, product, SKU or tracking number");
    expect(html).toContain(`href="/app/orders/${enc(oid(9001))}"`);
  });
  it("search and the status tabs reach the service's filters", async () => {
    expect(names(await load("?q=zed%40example.test"))).toEqual(["#9002"]);
    expect(names(await load("?q=%239004"))).toEqual(["#9004"]);
    expect(names(await load("?view=shipped"))).toEqual(["#9002"]);
    expect(names(await load("?view=delivered"))).toEqual(["#9004"]);
    expect(names(await load("?view=cancelled"))).toEqual(["#9003"]);
    expect(names(await load("?view=unfulfilled&q=ann"))).toEqual(["#9001"]);
    expect(names(await load("?financial=REFUNDED"))).toEqual(["#9003"]);
    const day = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString().slice(0, 10);
    expect(names(await load(`?from=${day(3)}&to=${day(2)}`))).toEqual(["#9002", "#9003"]);
    expect((await thrown(load("?from=not-a-date"))).status).toBe(400);
    const d = await load("?view=cancelled");
    expect(d.filters).toMatchObject({ view: "cancelled", q: "" });
  });
  it("an empty result says so; a bad filter is a 400, not a crash", async () => {
    const d = await load("?q=nobody-at-all");
    expect(d.orders).toEqual([]);
    const html = await renderRoute({ id: "routes/app.orders", path: "/app/orders", url: "/app/orders?q=nobody-at-all", data: d, Component: list.default });
    expect(html).toContain("No order matches these filters.");
    expect((await thrown(load("?financial=NOPE"))).status).toBe(400);
    expect((await thrown(load("?cursor=garbage"))).status).toBe(400);
  });
});

describe("one order", () => {
  it("shows its items with the moves allowed, the timeline, and renders", async () => {
    const { order } = await loadOrder(9001);
    expect(order.items.map((i) => [i.id, i.status, i.next_statuses])).toEqual([
      [lid(9001, 0), "unfulfilled", ["fulfilled", "cancelled"]],
      [lid(9001, 1), "unfulfilled", ["fulfilled", "cancelled"]],
    ]);
    expect(order.can_cancel).toBe(true);
    expect(order.timeline.length).toBeGreaterThan(0);
    const html = await renderRoute({ id: "routes/app.orders_.$id", path: "/app/orders/:id", url: `/app/orders/${enc(oid(9001))}`, data: { order }, Component: detail.default });
    expect(html).toContain("#9001");
    expect(html).toContain("Linen Shirt");
    expect(html).toContain("ann@example.test");
    expect(html).toContain("Fulfil items");
    expect(html.match(/data-testid="order-item"/g)).toHaveLength(2);
    expect(html).toContain('data-testid="order-event"');
  });
  it("an unknown order is the page's 404 and the action's refusal; an unknown intent is refused", async () => {
    expect((await thrown(loadOrder(424242))).status).toBe(404);
    const res = await thrown(detail.loader({ request: req("/app/orders/undefined", admin.token), params: { id: "undefined" }, context: {} }));
    expect(res.status).toBe(404);
    expect(await act(424242, [["intent", "cancel"], ["reason", "OTHER"]])).toEqual({ ok: false, error: "Order not found" });
    expect(await act(9001, [["intent", "explode"]])).toEqual({ ok: false, error: "Unknown action" });
  });

  it("fulfils chosen items with carrier and tracking: shipped, on the timeline, and on the shopper's own order", async () => {
    const r = await act(9001, [
      ["intent", "fulfil"],
      ["itemIds", lid(9001, 0)],
      [`qty:${lid(9001, 0)}`, "1"],
      ["trackingCompany", "UPS"],
      ["trackingNumber", "1ZSCREEN9001"],
      ["notifyCustomer", "false"],
    ]);
    expect(r).toEqual({ ok: true, message: "1 item of #9001 shipped with tracking 1ZSCREEN9001." });
    const { order } = await loadOrder(9001);
    expect(order.items.map((i) => i.status)).toEqual(["shipped", "unfulfilled"]);
    expect(order.fulfillments).toEqual([expect.objectContaining({ tracking_company: "UPS", tracking_number: "1ZSCREEN9001", item_ids: [lid(9001, 0)] })]);
    expect(order.timeline[0].actor.user_id).toBe(admin.id);
    const mine = await app.api("GET", `/users/orders/${enc(oid(9001))}`, { token: ann.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items[0]).toMatchObject({ status: "shipped", tracking: { tracking_number: "1ZSCREEN9001" } });
    const html = await renderRoute({ id: "routes/app.orders_.$id", path: "/app/orders/:id", url: `/app/orders/${enc(oid(9001))}`, data: { order }, Component: detail.default });
    expect(html).toContain("UPS · 1ZSCREEN9001");
  });
  it("a fulfilment without items is refused with the field's message, changing nothing", async () => {
    const r = await act(9001, [["intent", "fulfil"], ["trackingNumber", "X"]]);
    expect(r).toEqual({ ok: false, error: expect.stringContaining("Choose at least one item") });
  });

  it("moves an item to an allowed status, and answers a refused move with the service's reason", async () => {
    expect(await act(9001, [["intent", "item-status"], ["itemIds", lid(9001, 0)], ["status", "delivered"]])).toEqual({ ok: true, message: "1 item marked delivered." });
    const refused = await act(9001, [["intent", "item-status"], ["itemIds", lid(9001, 0)], ["status", "unfulfilled"]]);
    expect(refused.ok).toBe(false);
    expect((await loadOrder(9001)).order.items[0].status).toBe("delivered");
  });

  it("a refused cancel shows why: disabled with the reason on the page, and the action's refusal as a banner", async () => {
    const { order } = await loadOrder(9001);
    expect(order.can_cancel).toBe(false);
    expect(order.cancel_block_reason).toEqual(expect.any(String));
    const r = await act(9001, [["intent", "cancel"], ["reason", "CUSTOMER"]]);
    expect(r).toEqual({ ok: false, error: expect.any(String) });
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(9001) } })).status).toBe("open");
    const html = await renderRoute({ id: "routes/app.orders_.$id", path: "/app/orders/:id", url: `/app/orders/${enc(oid(9001))}`, data: { order }, Component: detail.default });
    expect(html).toContain(`Cannot be cancelled: ${order.cancel_block_reason}`);
  });
  it("cancels an unfulfilled order with a reason; a second cancel answers the same", async () => {
    expect(await act(9100, [["intent", "cancel"], ["reason", "INVENTORY"], ["restock", "true"], ["refund", "true"], ["notify", "false"]])).toEqual({ ok: true, message: "#9100 is cancelled." });
    expect(await act(9100, [["intent", "cancel"], ["reason", "INVENTORY"]])).toEqual({ ok: true, message: "#9100 is cancelled." });
    const { order } = await loadOrder(9100);
    expect(order.status).toBe("cancelled");
    expect(order.timeline.filter((e) => e.kind.includes("cancel"))).toHaveLength(1);
    expect(await act(9100, [["intent", "cancel"], ["reason", "NOPE"]])).toEqual({ ok: false, error: expect.stringContaining("reason") });
  });
});
