/**
 * The admin order page's edits (app/routes/app.orders_.$id.tsx) through its loader and actions in
 * local mode, and partly sent lines (~/lib/order-quantities) through the page and the API: note and
 * tags, shipping address (the PATCH body's checks), a fulfilment's tracking, a return on the
 * customer's behalf with quantities, fulfilling part of a line then the rest, over-quantity refused;
 * each with what the shopper's GET /users/orders/{id} then shows, and each refusal as the banner's
 * message with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type OrderItemStatus } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";
import { createProduct, pgid, vgid } from "./products-fixtures";
import { upsertOrderFromWebhook } from "../../app/services/order-read-model.server";

type DetailRoute = typeof import("../../app/routes/app.orders_.$id");
let detail: DetailRoute;
let app: TestApp;
let admin: { id: string; token: string };
let noPerm: { token: string };
let ann: { id: string; token: string };

const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const enc = encodeURIComponent;

async function createOrder(n: number, items: { status: OrderItemStatus; quantity: number }[]) {
  await app.database.db.order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      order_number: n,
      user_id: ann.id,
      email: "ann@example.test",
      status: "open",
      financial_status: "PAID",
      fulfillment_status: items.some((i) => i.status !== "unfulfilled") ? "FULFILLED" : "UNFULFILLED",
      total_price: new Prisma.Decimal(300),
      shipping_address: { first_name: "Ann", last_name: "Buyer", address1: "1 Main St", city: "Springfield", zip: "12345", country: "US", country_code: "US" },
      items: {
        create: items.map((it, i) => ({
          id: lid(n, i),
          product_id: pgid(902),
          variant_id: vgid(902, 0),
          title: `Wool Scarf ${i}`,
          variant_title: "Grey",
          sku: `WS-${n}-${i}`,
          quantity: it.quantity,
          price: new Prisma.Decimal(50),
          status: it.status,
          tracking_number: it.status === "shipped" ? `1Z${n}${i}` : null,
          provider: it.status === "shipped" ? "UPS" : null,
          created_at: new Date(Date.now() + i),
        })),
      },
    },
  });
}

const loadOrder = async (n: number, token: string | null = admin.token) => (await detail.loader({ request: req(`/app/orders/${enc(oid(n))}`, token), params: { id: oid(n) }, context: {} })).order;
const act = (n: number, fields: [string, string][], token: string | null = admin.token) => detail.action({ request: form(`/app/orders/${enc(oid(n))}`, token, fields), params: { id: oid(n) }, context: {} });
const shopperView = async (n: number) => {
  const r = await app.api("GET", `/users/orders/${enc(oid(n))}`, { token: ann.token });
  expect(r.status).toBe(200);
  return r.body as { stage: string; shipping_address: { address1: string | null; city: string | null } | null; items: { id: string; status: string; quantity: number; fulfilled_quantity: number; tracking: { tracking_number: string } | null; return_request: { status: string } | null }[] };
};
const render = async (n: number) => {
  const order = await loadOrder(n);
  return renderRoute({ id: "routes/app.orders_.$id", path: "/app/orders/:id", url: `/app/orders/${enc(oid(n))}`, data: { order }, Component: detail.default });
};

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  detail = await import("../../app/routes/app.orders_.$id");
  await createProduct(app.database.db, { n: 902, title: "Wool Scarf", inventory: 20 });
  admin = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"], firstName: "Olga" });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["returns.manage"] });
  ann = await app.createUser({ email: "ann@example.test", firstName: "Ann" });
  await createOrder(7001, [{ status: "unfulfilled", quantity: 3 }, { status: "unfulfilled", quantity: 1 }]);
  await createOrder(7002, [{ status: "shipped", quantity: 1 }]);
  await createOrder(7003, [{ status: "delivered", quantity: 3 }, { status: "unfulfilled", quantity: 1 }]);
  await createOrder(7004, [{ status: "unfulfilled", quantity: 2 }]);
});
afterAll(() => app?.close());

describe("note and tags", () => {
  it("saves the note and tags through the service: on the page, on the timeline with the admin", async () => {
    expect(await act(7002, [["intent", "note-tags"], ["note", "Gift wrap, please"], ["tags", "gift, VIP ,  , gift"]])).toEqual({ ok: true, message: "Note and tags saved." });
    const order = await loadOrder(7002);
    expect(order.note).toBe("Gift wrap, please");
    expect(order.tags).toEqual(["gift", "VIP"]);
    expect(order.timeline[0]).toMatchObject({ kind: "order.updated", actor: { user_id: admin.id } });
    const html = await render(7002);
    expect(html).toContain("Gift wrap, please");
    expect(html).toContain("VIP");
    expect(html).toContain("Notes and tags");
  });
  it("a tag the contract refuses is the banner's message, changing nothing; another admin without orders.manage gets 403", async () => {
    const r = await act(7002, [["intent", "note-tags"], ["note", "other"], ["tags", "x".repeat(41)]]);
    expect(r).toEqual({ ok: false, error: expect.stringContaining("at most 40 characters") });
    expect((await loadOrder(7002)).note).toBe("Gift wrap, please");
    expect((await thrown(act(7002, [["intent", "note-tags"], ["note", "no"]], noPerm.token))).status).toBe(403);
  });
});

describe("shipping address", () => {
  it("saves the address; the shopper's order shows it", async () => {
    const fields: [string, string][] = [
      ["intent", "address"],
      ["first_name", "Ann"],
      ["last_name", "Buyer"],
      ["address1", "22 Harbour Road"],
      ["city", "Portland"],
      ["zip", "04101"],
      ["country_code", "us"],
    ];
    expect(await act(7002, fields)).toEqual({ ok: true, message: "Shipping address saved." });
    const order = await loadOrder(7002);
    expect(order.shipping_address).toMatchObject({ address1: "22 Harbour Road", city: "Portland", zip: "04101", country_code: "US", address2: null });
    expect((await shopperView(7002)).shipping_address).toMatchObject({ address1: "22 Harbour Road", city: "Portland" });
    expect(await render(7002)).toContain("22 Harbour Road");
  });
  it("a country code that is not two letters is refused with the API's message, the address unchanged", async () => {
    const r = await act(7002, [["intent", "address"], ["address1", "Elsewhere 1"], ["country_code", "USA"]]);
    expect(r).toEqual({ ok: false, error: expect.stringContaining("two-letter country code") });
    expect((await loadOrder(7002)).shipping_address?.address1).toBe("22 Harbour Road");
  });
});

describe("partly sent lines", () => {
  it("fulfils 2 of 3: the line is shipped with 1 left, the order partly fulfilled, on the page and on the shopper's order", async () => {
    const r = await act(7001, [
      ["intent", "fulfil"],
      ["itemIds", lid(7001, 0)],
      [`qty:${lid(7001, 0)}`, "2"],
      ["trackingCompany", "UPS"],
      ["trackingNumber", "1ZPART1"],
      ["notifyCustomer", "false"],
    ]);
    expect(r).toEqual({ ok: true, message: "1 item of #7001 shipped with tracking 1ZPART1." });
    const order = await loadOrder(7001);
    expect(order.items[0]).toMatchObject({ status: "shipped", quantity: 3, fulfilled_quantity: 2, fulfillable_quantity: 1 });
    expect(order.items[1]).toMatchObject({ status: "unfulfilled", fulfilled_quantity: 0, fulfillable_quantity: 1 });
    expect(order.stage).toBe("partially_fulfilled");
    expect(order.fulfillment_status).toBe("PARTIALLY_FULFILLED");
    expect(order.fulfillments).toEqual([expect.objectContaining({ tracking_number: "1ZPART1", lines: [{ item_id: lid(7001, 0), quantity: 2 }] })]);
    expect(order.timeline[0].message).toContain("2 of 3 × Wool Scarf 0");
    const mine = await shopperView(7001);
    expect(mine.stage).toBe("partially_fulfilled");
    expect(mine.items[0]).toMatchObject({ status: "shipped", quantity: 3, fulfilled_quantity: 2, tracking: { tracking_number: "1ZPART1" } });
    const html = await render(7001);
    expect(html).toContain("2 of 3 sent");
    expect(html).toContain("1 to fulfil");
  });
  it("more than is left is refused with how many are left, changing nothing", async () => {
    const r = await act(7001, [["intent", "fulfil"], ["itemIds", lid(7001, 0)], [`qty:${lid(7001, 0)}`, "2"], ["trackingCompany", "DHL"], ["trackingNumber", "JD0002"]]);
    expect(r).toEqual({ ok: false, error: expect.stringContaining("quantity 2 is more than the 1 left to fulfil (2 of 3 sent)") });
    expect((await loadOrder(7001)).items[0]).toMatchObject({ fulfilled_quantity: 2, tracking: { tracking_number: "1ZPART1" } });
    // Through the API: 422, and a quantity above the line's own is refused the same way.
    const api = await app.api("POST", `/orders/admin/${enc(oid(7001))}/fulfillments`, { token: admin.token, body: { items: [{ itemId: lid(7001, 0), quantity: 4 }] } });
    expect(api.status).toBe(422);
  });
  it("fulfils the rest (no quantity: what is left) in a second parcel with its own tracking; the order is fulfilled", async () => {
    const r = await act(7001, [["intent", "fulfil"], ["itemIds", lid(7001, 0)], ["itemIds", lid(7001, 1)], ["trackingCompany", "DHL"], ["trackingNumber", "JD0003"], ["notifyCustomer", "false"]]);
    expect(r).toEqual({ ok: true, message: "2 items of #7001 shipped with tracking JD0003." });
    const order = await loadOrder(7001);
    expect(order.items.map((i) => [i.status, i.fulfilled_quantity, i.fulfillable_quantity])).toEqual([
      ["shipped", 3, 0],
      ["shipped", 1, 0],
    ]);
    expect(order.stage).toBe("shipped");
    expect(order.fulfillment_status).toBe("FULFILLED");
    expect(order.fulfillments.map((f) => [f.tracking_number, f.lines])).toEqual([
      ["1ZPART1", [{ item_id: lid(7001, 0), quantity: 2 }]],
      [
        "JD0003",
        [
          { item_id: lid(7001, 0), quantity: 1 },
          { item_id: lid(7001, 1), quantity: 1 },
        ],
      ],
    ]);
    expect((await shopperView(7001)).items[0]).toMatchObject({ fulfilled_quantity: 3, tracking: { tracking_number: "JD0003" } });
    // Nothing left: the same request again is a retry, answered unchanged with no new parcel.
    const again = await act(7001, [["intent", "fulfil"], ["itemIds", lid(7001, 0)], [`qty:${lid(7001, 0)}`, "1"]]);
    expect(again).toEqual({ ok: true, message: "1 item of #7001 fulfilled." });
    expect((await loadOrder(7001)).fulfillments).toHaveLength(2);
  });
  it("two admins sending 2 of the same 3 units at once: one parcel goes, the other is refused; never more than ordered", async () => {
    await createOrder(7005, [{ status: "unfulfilled", quantity: 3 }]);
    const send = (n: string) => app.api("POST", `/orders/admin/${enc(oid(7005))}/fulfillments`, { token: admin.token, body: { items: [{ itemId: lid(7005, 0), quantity: 2 }], trackingCompany: "UPS", trackingNumber: n } });
    const answers = await Promise.all([send("1ZRACE1"), send("1ZRACE2")]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    const order = await loadOrder(7005);
    expect(order.items[0]).toMatchObject({ fulfilled_quantity: 2, fulfillable_quantity: 1 });
    expect(order.fulfillments).toHaveLength(1);
    expect(order.timeline.filter((e) => e.kind === "fulfillment.created")).toHaveLength(1);
  });
  it("a retried API fulfilment of the same parcel (same tracking number and quantity) is answered unchanged", async () => {
    const body = { items: [{ itemId: lid(7004, 0), quantity: 1 }], trackingCompany: "UPS", trackingNumber: "1ZRETRY" };
    const first = await app.api("POST", `/orders/admin/${enc(oid(7004))}/fulfillments`, { token: admin.token, body });
    expect(first.status).toBe(201);
    const second = await app.api("POST", `/orders/admin/${enc(oid(7004))}/fulfillments`, { token: admin.token, body });
    expect(second.status).toBe(201);
    expect(second.body.items[0]).toMatchObject({ fulfilled_quantity: 1, fulfillable_quantity: 1 });
    expect(second.body.fulfillments).toHaveLength(1);
  });
});

describe("partly sent lines from Shopify's order webhooks", () => {
  it("a line fulfilled in part (\"partial\") keeps the units of each fulfilment: 1 of 2 sent, the order partly fulfilled", async () => {
    await upsertOrderFromWebhook(app.database.db, {
      id: 7009,
      name: "#7009",
      email: "ann@example.test",
      financial_status: "paid",
      fulfillment_status: "partial",
      total_price: "100.00",
      currency: "USD",
      line_items: [{ id: 70090, title: "Wool Scarf", quantity: 2, price: "50.00", fulfillment_status: "partial" }],
      fulfillments: [{ id: 555, tracking_number: "1ZHOOK", tracking_company: "UPS", shipment_status: null, line_items: [{ id: 70090, quantity: 1 }] }],
    });
    const order = await loadOrder(7009);
    expect(order.items[0]).toMatchObject({ status: "fulfilled", quantity: 2, fulfilled_quantity: 1, fulfillable_quantity: 1, tracking: { tracking_number: "1ZHOOK" } });
    expect(order.stage).toBe("partially_fulfilled");
    expect(order.fulfillments).toEqual([expect.objectContaining({ id: "gid://shopify/Fulfillment/555", lines: [{ item_id: "gid://shopify/LineItem/70090", quantity: 1 }] })]);
  });
});

describe("tracking of a fulfilment", () => {
  it("changes one parcel's tracking: that parcel and its lines only; the shopper sees it", async () => {
    const before = await loadOrder(7001);
    const first = before.fulfillments[0];
    expect(await act(7001, [["intent", "tracking"], ["fulfillmentId", first.id!], ["trackingNumber", "1ZFIXED"], ["trackingCompany", "UPS"]])).toEqual({
      ok: true,
      message: "Tracking saved: UPS 1ZFIXED.",
    });
    const order = await loadOrder(7001);
    expect(order.fulfillments.map((f) => f.tracking_number)).toEqual(["1ZFIXED", "JD0003"]);
    expect(order.fulfillments[0].tracking_url).toContain("ups.com");
    // The item rows show their latest parcel, which kept its own number.
    expect(order.items[0].tracking?.tracking_number).toBe("JD0003");
    expect(order.timeline[0]).toMatchObject({ kind: "fulfillment.tracking", actor: { user_id: admin.id } });
  });
  it("changes the tracking of items sent before the app kept records (by their items)", async () => {
    expect(await act(7002, [["intent", "tracking"], ["itemIds", lid(7002, 0)], ["trackingNumber", "9400111"], ["trackingCompany", "USPS"]])).toEqual({ ok: true, message: "Tracking saved: USPS 9400111." });
    expect((await shopperView(7002)).items[0].tracking?.tracking_number).toBe("9400111");
  });
  it("an unknown fulfilment and an empty number are refused as banners, the tracking unchanged", async () => {
    expect(await act(7001, [["intent", "tracking"], ["fulfillmentId", "gid://shopify/Fulfillment/404"], ["trackingNumber", "X1"], ["trackingCompany", "UPS"]])).toEqual({
      ok: false,
      error: "Fulfilment gid://shopify/Fulfillment/404 is not part of this order",
    });
    const empty = await act(7002, [["intent", "tracking"], ["itemIds", lid(7002, 0)], ["trackingNumber", ""], ["trackingCompany", "UPS"]]);
    expect(empty).toEqual({ ok: false, error: expect.stringContaining("must not be empty") });
    expect((await loadOrder(7002)).items[0].tracking?.tracking_number).toBe("9400111");
  });
});

describe("return on the customer's behalf", () => {
  it("returns 1 of 3 delivered units with a reason and note: the return holds that quantity; the shopper sees the request", async () => {
    const r = await act(7003, [["intent", "return"], ["itemIds", lid(7003, 0)], [`qty:${lid(7003, 0)}`, "1"], ["reason", "SIZE_TOO_SMALL"], ["note", "Customer called"]]);
    expect(r).toEqual({ ok: true, message: "Return requested for 1 item on the customer's behalf." });
    const order = await loadOrder(7003);
    expect(order.returns).toEqual([expect.objectContaining({ reason: "SIZE_TOO_SMALL", lines: [{ item_id: lid(7003, 0), quantity: 1 }] })]);
    expect(order.return_requests[0]).toMatchObject({ status: "REQUESTED", note: "Customer called", item_ids: [lid(7003, 0)] });
    expect(order.timeline[0]).toMatchObject({ kind: "return.requested", actor: { user_id: admin.id } });
    expect((await shopperView(7003)).items[0].return_request).toMatchObject({ status: "REQUESTED" });
    expect(await render(7003)).toContain("1 of 3 × Wool Scarf 0");
  });
  it("refuses more units than were sent (API, 422), an unsent item (409) and a missing reason, as banners", async () => {
    const over = await app.api("POST", `/orders/admin/${enc(oid(7004))}/initiate-return`, { token: admin.token, body: { itemIds: [lid(7004, 0)], reason: "UNWANTED", quantities: [{ itemId: lid(7004, 0), quantity: 2 }] } });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toContain("quantity 2 is more than the 1 sent");
    const unsent = await act(7003, [["intent", "return"], ["itemIds", lid(7003, 1)], ["reason", "UNWANTED"]]);
    expect(unsent).toEqual({ ok: false, error: expect.stringContaining("has not been sent yet") });
    const noReason = await act(7003, [["intent", "return"], ["itemIds", lid(7003, 1)]]);
    expect(noReason).toEqual({ ok: false, error: expect.stringContaining("reason") });
    expect((await loadOrder(7003)).return_requests).toHaveLength(1);
  });
  it("part of a line received and refunded: the refund counts the units back, the line keeps its status", async () => {
    const returns = await app.createUser({ role: "ADMIN", permissions: ["returns.manage"] });
    const order = await loadOrder(7003);
    const rr = order.return_requests[0];
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await app.api(method, path, { token: returns.token, body });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return r.body;
    };
    await call("POST", `/returns/admin/requests/${rr.id}/approve`);
    const retId = (await loadOrder(7003)).returns[0].id;
    await call("PATCH", `/returns/admin/${retId}/status`, { status: "LABEL_SENT", trackingNumber: "RET7003", trackingCompany: "UPS" });
    await call("PATCH", `/returns/admin/${retId}/status`, { status: "IN_TRANSIT" });
    await call("POST", `/returns/admin/${retId}/confirm`, { received_item_ids: [lid(7003, 0)], note_text: "One scarf back" });
    await call("POST", `/returns/admin/${retId}/refund`, { notify: false });
    const after = await loadOrder(7003);
    expect(after.returns[0]).toMatchObject({ status: "REFUNDED", refund: { amount: "50.00" }, lines: [{ item_id: lid(7003, 0), quantity: 1 }] });
    expect(after.items[0]).toMatchObject({ status: "delivered", quantity: 3, fulfilled_quantity: 3 });
  });
  it("the API returns a chosen part of a partly sent line (at most what was sent)", async () => {
    const ok = await app.api("POST", `/orders/admin/${enc(oid(7004))}/initiate-return`, { token: admin.token, body: { itemIds: [lid(7004, 0)], reason: "UNWANTED", quantities: [{ itemId: lid(7004, 0), quantity: 1 }] } });
    expect(ok.status).toBe(201);
    expect((await loadOrder(7004)).returns[0].lines).toEqual([{ item_id: lid(7004, 0), quantity: 1 }]);
  });
});

describe("the page", () => {
  it("offers Return items, Print packing list (this order's HTML packing list) and the edit dialogs' buttons", async () => {
    const html = await render(7003);
    expect(html).toContain("Return items");
    expect(html).toContain("Print packing list");
    expect(html).toContain(`packing-list?ids=${enc(oid(7003))}&amp;format=html`);
    expect(html).toContain("Edit the shipping address");
    expect(html).toContain("Edit the note and tags");
  });
});
