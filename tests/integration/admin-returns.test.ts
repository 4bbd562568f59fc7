/**
 * The merchant's side of returns, through the HTTP API: lists with counts and search, lookups, the
 * return-request machine (approve, decline; the shopper's cancel refused to admins), the return
 * machine move by move (every refused move answered 409), confirmation of what came back (notes,
 * restock, order items returned), the refund of what was received, double submits moving a state
 * once, the shopper's emails in the outbox, the order's timeline events, and the shopper's own
 * GET /users/returns showing each step. A last section runs the store's side through the Shopify
 * adapter against the local Shopify-like server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type ReturnStatus } from "@prisma/client";
import { createShopifyCommerce } from "../../app/providers/commerce/shopify.server";
import type { CommercePort } from "../../app/providers/commerce/port";
import { RETURN_TRANSITIONS } from "../../app/contract/admin-returns";
import { createTestApp, type TestApp } from "../helpers/app";
import { verifyEmailOf } from "../helpers/email-verification";
import { startFakeShopify, type FakeShopify } from "../fixtures/shopify/fake-admin-server";
import { createProduct, pgid, vgid } from "./products-fixtures";

let app: TestApp;
type U = { id: string; token: string; email: string | null };
let ann: U;
let admin: U;
let otherAdmin: U;
let noPerm: U;
let vendor: U;
const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const STATUSES: ReturnStatus[] = ["REQUESTED", "LABEL_SENT", "IN_TRANSIT", "DELIVERED", "REFUNDED", "CANCELED"];

/** An order of Ann's, delivered: 2 × Oxford Shirt at 50.00, 1 × Linen Trousers at 30.00. */
async function createOrder(n: number, daysAgo = 5) {
  await app.database.db.order.create({
    data: {
      id: oid(n),
      name: `#${n}`,
      user_id: ann.id,
      email: "ann@example.test",
      status: "closed",
      financial_status: "PAID",
      fulfillment_status: "FULFILLED",
      total_price: new Prisma.Decimal(130),
      created_at: new Date(Date.now() - daysAgo * 86_400_000),
      items: {
        create: [
          { id: lid(n, 0), product_id: pgid(501), variant_id: vgid(501, 0), title: "Oxford Shirt", variant_title: "Black / S", quantity: 2, price: new Prisma.Decimal(50), status: "delivered" },
          { id: lid(n, 1), product_id: pgid(502), variant_id: vgid(502, 0), title: "Linen Trousers", variant_title: null, quantity: 1, price: new Prisma.Decimal(30), status: "delivered" },
        ],
      },
    },
  });
}

/** Ann requests a return of both items of a new order: answers the request's and the return's ids. */
async function requested(n: number): Promise<{ requestId: string; returnId: string }> {
  await createOrder(n);
  const res = await app.api("POST", `/users/orders/${n}/initiate-return`, { token: ann.token, body: { order_item_ids: [lid(n, 0), lid(n, 1)], reason: "SIZE_TOO_SMALL", note: "Too tight" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const rr = await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: res.body.id } });
  return { requestId: rr.id, returnId: rr.return_id! };
}

/** …and the admin approved it. */
async function approved(n: number) {
  const ids = await requested(n);
  const res = await app.api("POST", `/returns/admin/requests/${ids.requestId}/approve`, { token: admin.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ids;
}

/** …and the parcel is on its way back. */
async function inTransit(n: number) {
  const ids = await approved(n);
  expect((await app.api("PATCH", `/returns/admin/${ids.returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: `RT${n}`, trackingCompany: "UPS", labelUrl: `https://labels.example.test/${n}.pdf` } })).status).toBe(200);
  expect((await app.api("PATCH", `/returns/admin/${ids.returnId}/status`, { token: admin.token, body: { status: "IN_TRANSIT" } })).status).toBe(200);
  return ids;
}

const emailsTo = (kind: string) => app.database.db.emailOutbox.findMany({ where: { to: "ann@example.test", kind }, orderBy: { created_at: "asc" } });
const eventsOf = (n: number, kind: string) => app.database.db.orderEvent.findMany({ where: { order_id: oid(n), kind } });
async function myReturn(requestId: string) {
  const res = await app.api("GET", "/users/returns", { token: ann.token, query: { limit: 50 } });
  expect(res.status).toBe(200);
  return res.body.items.find((e: { id: string }) => e.id === requestId);
}
const inventoryOf = async (variant: string) => (await app.database.db.productVariant.findUniqueOrThrow({ where: { id: variant } })).inventory_quantity;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  await createProduct(db, { n: 501, title: "Oxford Shirt", inventory: 3 });
  await createProduct(db, { n: 502, title: "Linen Trousers", inventory: 0 });
  ann = await app.createUser({ email: "ann@example.test" });
  await verifyEmailOf(app, ann);
  admin = await app.createUser({ role: "ADMIN", permissions: ["returns.manage"], firstName: "Ada" });
  otherAdmin = await app.createUser({ role: "ADMIN", permissions: ["returns.manage"] });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  const store = await db.vendor.findFirst();
  vendor = await app.createUser({ role: "VENDOR", vendorId: store?.id ?? null });
});
afterAll(() => app?.close());

describe("access", () => {
  it("refuses callers without returns.manage (403), vendors, shoppers, and anonymous callers (401)", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/returns/admin"],
      ["GET", "/returns/admin/tracking/RT1"],
      ["GET", "/returns/admin/order/1"],
      ["GET", "/returns/admin/requests"],
      ["POST", "/returns/admin/requests/x/approve"],
      ["POST", "/returns/admin/requests/x/decline", { reason: "No" }],
      ["GET", "/returns/admin/x"],
      ["GET", "/returns/admin/x/line-items"],
      ["PATCH", "/returns/admin/x/status", { status: "CANCELED" }],
      ["POST", "/returns/admin/x/confirm", { received_item_ids: [] }],
      ["POST", "/returns/admin/x/refund", {}],
    ];
    for (const [method, path, body] of calls) {
      for (const u of [noPerm, vendor, ann]) expect((await app.api(method, path, { token: u.token, body })).status, `${method} ${path}`).toBe(403);
      expect((await app.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
  });

  it("answers 404 for unknown returns, requests and orders", async () => {
    for (const [method, path, body] of [
      ["GET", "/returns/admin/nope"],
      ["GET", "/returns/admin/nope/line-items"],
      ["PATCH", "/returns/admin/nope/status", { status: "CANCELED" }],
      ["POST", "/returns/admin/nope/confirm", { received_item_ids: [] }],
      ["POST", "/returns/admin/nope/refund", {}],
      ["POST", "/returns/admin/requests/nope/approve"],
      ["POST", "/returns/admin/requests/nope/decline", { reason: "No" }],
      ["GET", "/returns/admin/order/999999"],
    ] as [string, string, unknown?][]) {
      const res = await app.api(method, path, { token: admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await app.api("GET", "/returns/admin/tracking/NOPE", { token: admin.token })).body).toEqual({ items: [] });
  });

  it("refuses bad input with 400", async () => {
    expect((await app.api("PATCH", "/returns/admin/x/status", { token: admin.token, body: { status: "LOST" } })).status).toBe(400);
    expect((await app.api("POST", "/returns/admin/requests/x/decline", { token: admin.token, body: { reason: " " } })).status).toBe(400);
    expect((await app.api("POST", "/returns/admin/x/refund", { token: admin.token, body: { amount: "-3" } })).status).toBe(400);
    expect((await app.api("GET", "/returns/admin", { token: admin.token, query: { cursor: "garbage" } })).status).toBe(400);
  });
});

describe("the return-request machine", () => {
  it("approves REQUESTED → OPEN once: the shopper is emailed the instructions, the order's timeline and the shopper's returns show it", async () => {
    const { requestId, returnId } = await requested(7001);
    expect((await myReturn(requestId)).status).toBe("REQUESTED");
    const res = await app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: requestId, status: "OPEN", return_id: returnId, return_status: "REQUESTED", allowed_moves: [], order: { name: "#7001" } });
    expect(res.body.items.map((i: { order_item_id: string }) => i.order_item_id)).toEqual([lid(7001, 0), lid(7001, 1)]);
    const again = await app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: otherAdmin.token });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("OPEN");
    const events = await eventsOf(7001, "return.approved");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_user_id: admin.id, actor_label: "Ada" });
    const mails = (await emailsTo("return_approved")).filter((m) => m.subject.includes("#7001"));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(/return label/);
    expect(await myReturn(requestId)).toMatchObject({ status: "OPEN", return_status: "REQUESTED" });
    // OPEN can no longer be declined.
    const decline = await app.api("POST", `/returns/admin/requests/${requestId}/decline`, { token: admin.token, body: { reason: "Too late" } });
    expect(decline.status).toBe(409);
    expect(decline.body.error.message).toMatch(/only a requested return can be declined/);
  });

  it("declines REQUESTED → DECLINED with a reason: its return is cancelled, the shopper gets the reason; approve afterwards is 409", async () => {
    const { requestId, returnId } = await requested(7002);
    const res = await app.api("POST", `/returns/admin/requests/${requestId}/decline`, { token: admin.token, body: { reason: "Worn items cannot be returned", decline_reason: "OTHER" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "DECLINED", decline_reason: "Worn items cannot be returned", return_status: "CANCELED" });
    expect((await app.api("POST", `/returns/admin/requests/${requestId}/decline`, { token: admin.token, body: { reason: "again" } })).body.decline_reason).toBe("Worn items cannot be returned");
    expect(await eventsOf(7002, "return.declined")).toHaveLength(1);
    const mail = (await emailsTo("return_declined")).find((m) => m.subject.includes("#7002"));
    expect(mail?.text).toContain("Worn items cannot be returned");
    expect(await myReturn(requestId)).toMatchObject({ status: "DECLINED" });
    const approve = await app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: admin.token });
    expect(approve.status).toBe(409);
    expect(approve.body.error.message).toMatch(/declined/);
    expect((await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: "X" } })).status).toBe(409);
  });

  it("refuses an admin's approve or decline of a request the shopper cancelled, and of a closed one", async () => {
    const { requestId } = await requested(7003);
    await app.database.db.returnRequest.update({ where: { id: requestId }, data: { status: "CANCELED" } });
    expect((await app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: admin.token })).status).toBe(409);
    expect((await app.api("POST", `/returns/admin/requests/${requestId}/decline`, { token: admin.token, body: { reason: "x" } })).status).toBe(409);
    await app.database.db.returnRequest.update({ where: { id: requestId }, data: { status: "CLOSED" } });
    expect((await app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: admin.token })).status).toBe(409);
  });

  it("lets the shopper cancel their own request while REQUESTED (once, even submitted twice), refuses others (404) and approved requests (409)", async () => {
    const ben = await app.createUser({ email: "ben@example.test" });
    const { requestId, returnId } = await requested(7005);
    expect((await app.api("POST", `/users/returns/${requestId}/cancel`, { token: ben.token })).status).toBe(404);
    expect((await app.api("POST", `/users/returns/${requestId}/cancel`)).status).toBe(401);
    const [a, b] = await Promise.all([app.api("POST", `/users/returns/${requestId}/cancel`, { token: ann.token }), app.api("POST", `/users/returns/${requestId}/cancel`, { token: ann.token })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toMatchObject({ id: requestId, status: "CANCELED", return_status: "CANCELED" });
    expect(await eventsOf(7005, "return.cancelled_by_customer")).toHaveLength(1);
    expect((await app.database.db.return.findUniqueOrThrow({ where: { id: returnId } })).status).toBe("CANCELED");
    // A cancelled request holds nothing: the items can be requested again; the admin can no longer approve it.
    expect((await app.api("GET", "/users/orders/7005", { token: ann.token })).body.items[0].returnable).toBe(true);
    expect((await app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: admin.token })).status).toBe(409);

    const open = await approved(7006);
    const refused = await app.api("POST", `/users/returns/${open.requestId}/cancel`, { token: ann.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/already approved/);
  });

  it("approves once when two admins submit together", async () => {
    const { requestId } = await requested(7004);
    const [a, b] = await Promise.all([
      app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: admin.token }),
      app.api("POST", `/returns/admin/requests/${requestId}/approve`, { token: otherAdmin.token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await eventsOf(7004, "return.approved")).toHaveLength(1);
    expect((await emailsTo("return_approved")).filter((m) => m.subject.includes("#7004"))).toHaveLength(1);
  });
});

describe("the return machine, move by move", () => {
  it("allows exactly RETURN_TRANSITIONS by the status call (REFUNDED only by refund), the same status again as a no-op, and refuses every other move with 409", async () => {
    let n = 7100;
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const { returnId } = await approved(++n);
        await app.database.db.return.update({ where: { id: returnId }, data: { status: from, tracking_number: "T-1" } });
        const before = await app.database.db.orderEvent.count({ where: { order_id: oid(n), kind: "return.status" } });
        const res = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: to } });
        const expected = from === to || (RETURN_TRANSITIONS[from].includes(to) && to !== "REFUNDED") ? 200 : 409;
        expect(res.status, `${from} → ${to}: ${JSON.stringify(res.body)}`).toBe(expected);
        const after = await app.database.db.return.findUniqueOrThrow({ where: { id: returnId } });
        expect(after.status, `${from} → ${to}`).toBe(expected === 200 ? to : from);
        const events = await app.database.db.orderEvent.count({ where: { order_id: oid(n), kind: "return.status" } });
        expect(events - before, `${from} → ${to} events`).toBe(expected === 200 && from !== to ? 1 : 0);
        if (expected === 409) expect(res.body.error.message, `${from} → ${to}`).toEqual(expect.any(String));
      }
    }
  });

  it("says why: REFUNDED needs the refund call, nothing is cancelled once received, an unapproved request blocks its return", async () => {
    const a = await approved(7201);
    await app.database.db.return.update({ where: { id: a.returnId }, data: { status: "DELIVERED" } });
    expect((await app.api("PATCH", `/returns/admin/${a.returnId}/status`, { token: admin.token, body: { status: "REFUNDED" } })).body.error.message).toMatch(/refund/);
    expect((await app.api("PATCH", `/returns/admin/${a.returnId}/status`, { token: admin.token, body: { status: "CANCELED" } })).body.error.message).toMatch(/received/);
    const r = await requested(7202);
    const res = await app.api("PATCH", `/returns/admin/${r.returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: "RT" } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/approve/);
    // A label needs a label URL or a tracking number.
    const b = await approved(7203);
    expect((await app.api("PATCH", `/returns/admin/${b.returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT" } })).status).toBe(422);
  });

  it("sends the label with tracking (email), corrects tracking without a second email, cancels before delivery and closes the request", async () => {
    const { requestId, returnId } = await approved(7204);
    const res = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: "1ZRET1", trackingCompany: "UPS", labelUrl: "https://labels.example.test/1.pdf" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "LABEL_SENT", tracking_number: "1ZRET1", tracking_company: "UPS", label_url: "https://labels.example.test/1.pdf", allowed_statuses: ["IN_TRANSIT", "CANCELED"] });
    const mail = (await emailsTo("return_label_sent")).filter((m) => m.subject.includes("#7204"));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain("https://labels.example.test/1.pdf");
    expect(mail[0].text).toContain("1ZRET1");
    expect(await myReturn(requestId)).toMatchObject({ return_status: "LABEL_SENT", tracking: { tracking_number: "1ZRET1", tracking_company: "UPS" } });

    const fix = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: "1ZRET2" } });
    expect(fix.body.tracking_number).toBe("1ZRET2");
    expect((await emailsTo("return_label_sent")).filter((m) => m.subject.includes("#7204"))).toHaveLength(1);
    expect(await eventsOf(7204, "return.tracking")).toHaveLength(1);

    const cancel = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "CANCELED" } });
    expect(cancel.status).toBe(200);
    expect(cancel.body.request.status).toBe("CLOSED");
    expect((await emailsTo("return_cancelled")).filter((m) => m.subject.includes("#7204"))).toHaveLength(1);
    expect(await myReturn(requestId)).toMatchObject({ status: "CLOSED", return_status: "CANCELED" });
    // A closed request keeps its items (the shopper's rule): the store cancelled this return.
    const order = await app.api("GET", "/users/orders/7204", { token: ann.token });
    expect(order.body.items[0]).toMatchObject({ returnable: false, return_request: { id: requestId, status: "CLOSED", return_status: "CANCELED" } });
  });

  it("moves once when two admins submit the same move together", async () => {
    const { returnId } = await approved(7205);
    const body = { status: "LABEL_SENT", trackingNumber: "RT7205" };
    const [a, b] = await Promise.all([app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body }), app.api("PATCH", `/returns/admin/${returnId}/status`, { token: otherAdmin.token, body })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await eventsOf(7205, "return.status")).toHaveLength(1);
    expect((await emailsTo("return_label_sent")).filter((m) => m.subject.includes("#7205"))).toHaveLength(1);
  });
});

describe("confirm and refund", () => {
  it("confirms a partial receipt with notes: restocks what came back, marks it returned, emails the shopper; refunds only what was received", async () => {
    const { requestId, returnId } = await inTransit(7301);
    const shirt = await inventoryOf(vgid(501, 0));
    const trousers = await inventoryOf(vgid(502, 0));
    const ret = await app.api("GET", `/returns/admin/${returnId}`, { token: admin.token });
    const [shirtLine, trousersLine] = ret.body.line_items;

    // Refund before confirmation: 409. Unknown item: 422.
    expect((await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} })).status).toBe(409);
    expect((await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: ["nope"] } })).status).toBe(422);

    const res = await app.api("POST", `/returns/admin/${returnId}/confirm`, {
      token: admin.token,
      body: { received_item_ids: [shirtLine.id], note_text: "Trousers missing from the parcel", item_notes: { [trousersLine.order_item_id]: "Not in the parcel", [shirtLine.id]: "Tags on, fine" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "DELIVERED", note_text: "Trousers missing from the parcel", refundable: { amount: "100.00", currencyCode: "USD" }, refund: null });
    expect(res.body.received_at).toEqual(expect.any(String));
    expect(res.body.line_items).toMatchObject([
      { id: shirtLine.id, received: true, note: "Tags on, fine", order_item_status: "returned" },
      { id: trousersLine.id, received: false, note: "Not in the parcel", order_item_status: "delivered" },
    ]);
    expect(await inventoryOf(vgid(501, 0))).toBe(shirt + 2);
    expect(await inventoryOf(vgid(502, 0))).toBe(trousers);
    const mail = (await emailsTo("return_received")).filter((m) => m.subject.includes("#7301"));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain("Linen Trousers");
    expect(await myReturn(requestId)).toMatchObject({ return_status: "DELIVERED" });

    // The same confirmation again: 200, nothing twice. Other items: 409.
    expect((await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [shirtLine.order_item_id] } })).status).toBe(200);
    expect(await inventoryOf(vgid(501, 0))).toBe(shirt + 2);
    expect((await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [shirtLine.id, trousersLine.id] } })).status).toBe(409);
    expect(await eventsOf(7301, "return.received")).toHaveLength(1);

    // Refund: more than was received is 422; the computed amount is the received items' value.
    const tooMuch = await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: { amount: "130.00" } });
    expect(tooMuch.status).toBe(422);
    const refund = await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body).toMatchObject({ status: "REFUNDED", refund: { amount: "100.00", currencyCode: "USD" }, request: { status: "CLOSED" }, allowed_statuses: [] });
    expect(refund.body.refunded_at).toEqual(expect.any(String));
    expect((await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} })).status).toBe(200);
    expect(await eventsOf(7301, "return.refunded")).toHaveLength(1);
    const refunded = (await emailsTo("return_refunded")).filter((m) => m.subject.includes("#7301"));
    expect(refunded).toHaveLength(1);
    expect(refunded[0].text).toContain("$100.00");
    expect((await app.database.db.order.findUniqueOrThrow({ where: { id: oid(7301) } })).financial_status).toBe("PARTIALLY_REFUNDED");
    expect(await myReturn(requestId)).toMatchObject({ status: "CLOSED", return_status: "REFUNDED", refund: { amount: "100.00" } });
    // Nothing moves a refunded return.
    expect((await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "CANCELED" } })).status).toBe(409);
    expect((await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [] } })).status).toBe(409);
  });

  it("refuses confirmation before the parcel is on its way, and a refund when nothing came back; a smaller amount without an email", async () => {
    const early = await approved(7302);
    const r = await app.api("POST", `/returns/admin/${early.returnId}/confirm`, { token: admin.token, body: { received_item_ids: [] } });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toMatch(/in transit/);

    const empty = await inTransit(7303);
    expect((await app.api("POST", `/returns/admin/${empty.returnId}/confirm`, { token: admin.token, body: { received_item_ids: [], note_text: "Empty box" } })).status).toBe(200);
    const none = await app.api("POST", `/returns/admin/${empty.returnId}/refund`, { token: admin.token, body: {} });
    expect(none.status).toBe(409);
    expect(none.body.error.message).toMatch(/nothing to refund/);

    const partial = await inTransit(7304);
    await app.api("POST", `/returns/admin/${partial.returnId}/confirm`, { token: admin.token, body: { received_item_ids: [lid(7304, 0), lid(7304, 1)] } });
    const res = await app.api("POST", `/returns/admin/${partial.returnId}/refund`, { token: admin.token, body: { amount: "120.50", notify: false } });
    expect(res.status).toBe(200);
    expect(res.body.refund).toEqual({ amount: "120.50", currencyCode: "USD" });
    expect((await emailsTo("return_refunded")).filter((m) => m.subject.includes("#7304"))).toHaveLength(0);
  });

  it("confirms and refunds once when submitted twice at the same time", async () => {
    const { returnId } = await inTransit(7305);
    const shirt = await inventoryOf(vgid(501, 0));
    const body = { received_item_ids: [lid(7305, 0)] };
    const confirms = await Promise.all([app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body }), app.api("POST", `/returns/admin/${returnId}/confirm`, { token: otherAdmin.token, body })]);
    expect(confirms.map((c) => c.status)).toEqual([200, 200]);
    expect(await inventoryOf(vgid(501, 0))).toBe(shirt + 2);
    expect(await eventsOf(7305, "return.received")).toHaveLength(1);
    const refunds = await Promise.all([app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} }), app.api("POST", `/returns/admin/${returnId}/refund`, { token: otherAdmin.token, body: {} })]);
    expect(refunds.map((c) => c.status)).toEqual([200, 200]);
    expect(await eventsOf(7305, "return.refunded")).toHaveLength(1);
    expect((await emailsTo("return_refunded")).filter((m) => m.subject.includes("#7305"))).toHaveLength(1);
  });
});

describe("lists and lookups", () => {
  it("lists with counts per status, a status filter, search and cursor paging; finds by tracking number and by order; lists requests", async () => {
    const all = await app.api("GET", "/returns/admin", { token: admin.token, query: { limit: 100 } });
    expect(all.status).toBe(200);
    const total = await app.database.db.return.count();
    expect(all.body.counts.ALL).toBe(total);
    expect(all.body.items).toHaveLength(total);
    expect(all.body.counts.REFUNDED).toBe(await app.database.db.return.count({ where: { status: "REFUNDED" } }));

    const refunded = await app.api("GET", "/returns/admin", { token: admin.token, query: { status: "REFUNDED" } });
    expect(refunded.body.items.every((r: { status: string }) => r.status === "REFUNDED")).toBe(true);
    expect(refunded.body.items.length).toBe(all.body.counts.REFUNDED);

    const byName = await app.api("GET", "/returns/admin", { token: admin.token, query: { q: "#7301" } });
    expect(byName.body.items.map((r: { order: { name: string } }) => r.order.name)).toEqual(["#7301"]);
    expect(byName.body.counts).toMatchObject({ ALL: 1, REFUNDED: 1, REQUESTED: 0 });
    expect((await app.api("GET", "/returns/admin", { token: admin.token, query: { q: "RT7305" } })).body.items).toHaveLength(1);
    expect((await app.api("GET", "/returns/admin", { token: admin.token, query: { q: "ANN@example", limit: 100 } })).body.items).toHaveLength(total);
    expect((await app.api("GET", "/returns/admin", { token: admin.token, query: { q: "linen trousers", limit: 100 } })).body.items).toHaveLength(total);
    expect((await app.api("GET", "/returns/admin", { token: admin.token, query: { q: "no such thing" } })).body).toMatchObject({ items: [], counts: { ALL: 0 } });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await app.api("GET", "/returns/admin", { token: admin.token, query: { limit: 7, cursor } });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((r: { id: string }) => r.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((r: { id: string }) => r.id));

    const tracked = await app.api("GET", "/returns/admin/tracking/rt7305", { token: admin.token });
    expect(tracked.body.items.map((r: { order: { name: string } }) => r.order.name)).toEqual(["#7305"]);
    const byOrder = await app.api("GET", "/returns/admin/order/7301", { token: admin.token });
    expect(byOrder.body.items).toHaveLength(1);
    const lines = await app.api("GET", `/returns/admin/${byOrder.body.items[0].id}/line-items`, { token: admin.token });
    expect(lines.body.items.map((l: { received: boolean }) => l.received)).toEqual([true, false]);
    const detail = await app.api("GET", `/returns/admin/${byOrder.body.items[0].id}`, { token: admin.token });
    expect(detail.body.order_items.map((i: { status: string }) => i.status)).toEqual(["returned", "delivered"]);

    const requests = await app.api("GET", "/returns/admin/requests", { token: admin.token, query: { status: "DECLINED" } });
    expect(requests.status).toBe(200);
    expect(requests.body.items.map((r: { order: { name: string } }) => r.order.name)).toEqual(["#7002"]);
    expect(requests.body.counts.DECLINED).toBe(1);
    expect(requests.body.counts.ALL).toBe(await app.database.db.returnRequest.count());
  });
});

describe("the order's timeline", () => {
  it("shows every return step with the admin who made it on the admin order page", async () => {
    const both = await app.createUser({ role: "ADMIN", permissions: ["orders.manage", "returns.manage"], firstName: "Olga" });
    const res = await app.api("GET", "/orders/admin/7301", { token: both.token });
    expect(res.status).toBe(200);
    const kinds = res.body.timeline.map((e: { kind: string }) => e.kind);
    for (const k of ["return.approved", "return.status", "return.received", "return.refunded"]) expect(kinds).toContain(k);
    const refunded = res.body.timeline.find((e: { kind: string }) => e.kind === "return.refunded");
    expect(refunded).toMatchObject({ message: "Refunded 100.00 USD for the returned items", actor: { user_id: admin.id, label: "Ada" } });
    expect(res.body.returns[0]).toMatchObject({ status: "REFUNDED", refund: { amount: "100.00" } });
    expect(res.body.return_requests[0].status).toBe("CLOSED");
  });
});

describe("through the Shopify adapter (local Shopify-like server)", () => {
  let fake: FakeShopify;
  let local: CommercePort;
  beforeAll(async () => {
    fake = await startFakeShopify();
    local = app.ctx.commerce;
  });
  const useShopify = () => {
    app.ctx.commerce = createShopifyCommerce({ shop: fake.shop, apiVersion: async () => "2026-10", accessToken: fake.token, fetch: fake.fetch, sleep: async () => {} });
  };
  afterAll(async () => {
    app.ctx.commerce = local;
    await fake?.close();
  });

  it("approves with returnApproveRequest and declines with returnDeclineRequest on Shopify's return id; a refusal leaves the request as it was", async () => {
    const a = await requested(7401);
    const b = await requested(7402);
    await app.database.db.return.update({ where: { id: a.returnId }, data: { shopify_return_id: "gid://shopify/Return/7401" } });
    await app.database.db.return.update({ where: { id: b.returnId }, data: { shopify_return_id: "gid://shopify/Return/7402" } });
    useShopify();
    try {
      fake.on("ReturnApproveRequest", { returnApproveRequest: { return: null, userErrors: [{ field: ["id"], message: "Return is not requested", code: "INVALID_STATE" }] } });
      const refused = await app.api("POST", `/returns/admin/requests/${a.requestId}/approve`, { token: admin.token });
      expect(refused.status).toBe(422);
      expect((await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: a.requestId } })).status).toBe("REQUESTED");

      fake.on("ReturnApproveRequest", { returnApproveRequest: { return: { id: "gid://shopify/Return/7401", status: "OPEN" }, userErrors: [] } });
      expect((await app.api("POST", `/returns/admin/requests/${a.requestId}/approve`, { token: admin.token })).status).toBe(200);
      expect(fake.calls("ReturnApproveRequest").at(-1)!.variables).toEqual({ input: { id: "gid://shopify/Return/7401", notifyCustomer: false } });

      fake.on("ReturnDeclineRequest", { returnDeclineRequest: { return: { id: "gid://shopify/Return/7402", status: "DECLINED" }, userErrors: [] } });
      expect((await app.api("POST", `/returns/admin/requests/${b.requestId}/decline`, { token: admin.token, body: { reason: "Final sale item", decline_reason: "FINAL_SALE" } })).status).toBe(200);
      expect(fake.calls("ReturnDeclineRequest")[0].variables).toEqual({ input: { id: "gid://shopify/Return/7402", declineReason: "FINAL_SALE", declineNote: "Final sale item", notifyCustomer: false } });
    } finally {
      app.ctx.commerce = local;
    }
  });

  it("refunds with returnProcess: the received lines and the amount on the order's sale", async () => {
    const { returnId } = await inTransit(7403);
    await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [lid(7403, 1)] } });
    await app.database.db.return.update({ where: { id: returnId }, data: { shopify_return_id: "gid://shopify/Return/7403" } });
    useShopify();
    try {
      fake.on("ReturnRefundContext", {
        return: {
          id: "gid://shopify/Return/7403",
          status: "OPEN",
          order: { id: oid(7403), transactions: [{ id: "gid://shopify/OrderTransaction/1", kind: "SALE", status: "SUCCESS", gateway: "shopify_payments" }] },
          returnLineItems: {
            nodes: [
              { id: "gid://shopify/ReturnLineItem/1", quantity: 2, processableQuantity: 2, fulfillmentLineItem: { lineItem: { id: lid(7403, 0) } } },
              { id: "gid://shopify/ReturnLineItem/2", quantity: 1, processableQuantity: 1, fulfillmentLineItem: { lineItem: { id: lid(7403, 1) } } },
            ],
          },
        },
      });
      fake.on("ReturnProcess", { returnProcess: { return: { id: "gid://shopify/Return/7403", status: "CLOSED" }, userErrors: [] } });
      const res = await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.refund).toEqual({ amount: "30.00", currencyCode: "USD" });
      expect(fake.calls("ReturnProcess")[0].variables).toEqual({
        input: {
          returnId: "gid://shopify/Return/7403",
          returnLineItems: [{ id: "gid://shopify/ReturnLineItem/2", quantity: 1 }],
          notifyCustomer: false,
          financialTransfer: { issueRefund: { orderTransactions: [{ parentId: "gid://shopify/OrderTransaction/1", transactionAmount: { amount: "30.00", currencyCode: "USD" } }] } },
        },
      });
    } finally {
      app.ctx.commerce = local;
    }
  });

  it("cancels with returnCancel; a refusal leaves the return where it was", async () => {
    const { requestId, returnId } = await approved(7405);
    await app.database.db.return.update({ where: { id: returnId }, data: { shopify_return_id: "gid://shopify/Return/7405" } });
    useShopify();
    try {
      fake.on("ReturnCancel", { returnCancel: { return: null, userErrors: [{ field: ["id"], message: "Return has been processed", code: "INVALID_STATE" }] } });
      const refused = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "CANCELED" } });
      expect(refused.status).toBe(422);
      expect((await app.database.db.return.findUniqueOrThrow({ where: { id: returnId } })).status).toBe("REQUESTED");
      expect((await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("OPEN");
      fake.on("ReturnCancel", { returnCancel: { return: { id: "gid://shopify/Return/7405", status: "CANCELED" }, userErrors: [] } });
      const res = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body: { status: "CANCELED" } });
      expect(res.status).toBe(200);
      expect(fake.calls("ReturnCancel").at(-1)!.variables).toEqual({ id: "gid://shopify/Return/7405", notifyCustomer: false });
      expect(res.body.request.status).toBe("CLOSED");
    } finally {
      app.ctx.commerce = local;
    }
  });

  it("sends the label as a reverse delivery on each reverse fulfilment order; a refusal leaves the return REQUESTED without the tracking", async () => {
    const { returnId } = await approved(7406);
    await app.database.db.return.update({ where: { id: returnId }, data: { shopify_return_id: "gid://shopify/Return/7406" } });
    useShopify();
    try {
      fake.on("ReturnReverseFulfillmentOrders", {
        return: { id: "gid://shopify/Return/7406", reverseFulfillmentOrders: { nodes: [{ id: "gid://shopify/ReverseFulfillmentOrder/1", lineItems: { nodes: [{ id: "gid://shopify/ReverseFulfillmentOrderLineItem/1", totalQuantity: 2 }, { id: "gid://shopify/ReverseFulfillmentOrderLineItem/2", totalQuantity: 1 }] } }] } },
      });
      fake.on("ReverseDeliveryCreateWithShipping", { reverseDeliveryCreateWithShipping: { reverseDelivery: null, userErrors: [{ field: ["labelInput"], message: "Label URL is invalid", code: "INVALID" }] } });
      const body = { status: "LABEL_SENT", trackingNumber: "1ZSHOP", trackingCompany: "UPS", labelUrl: "https://labels.example.test/7406.pdf" };
      const refused = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body });
      expect(refused.status).toBe(422);
      expect(await app.database.db.return.findUniqueOrThrow({ where: { id: returnId } })).toMatchObject({ status: "REQUESTED", tracking_number: null, label_url: null });
      expect((await emailsTo("return_label_sent")).filter((m) => m.subject.includes("#7406"))).toHaveLength(0);

      fake.on("ReverseDeliveryCreateWithShipping", { reverseDeliveryCreateWithShipping: { reverseDelivery: { id: "gid://shopify/ReverseDelivery/1" }, userErrors: [] } });
      const res = await app.api("PATCH", `/returns/admin/${returnId}/status`, { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(fake.calls("ReverseDeliveryCreateWithShipping").at(-1)!.variables).toEqual({
        reverseFulfillmentOrderId: "gid://shopify/ReverseFulfillmentOrder/1",
        reverseDeliveryLineItems: [
          { reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/1", quantity: 2 },
          { reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/2", quantity: 1 },
        ],
        trackingInput: { number: "1ZSHOP" },
        labelInput: { fileUrl: "https://labels.example.test/7406.pdf" },
        notifyCustomer: false,
      });
      expect((await emailsTo("return_label_sent")).filter((m) => m.subject.includes("#7406"))).toHaveLength(1);
    } finally {
      app.ctx.commerce = local;
    }
  });

  it("a refused refund leaves the return DELIVERED and refundable", async () => {
    const { returnId } = await inTransit(7404);
    await app.api("POST", `/returns/admin/${returnId}/confirm`, { token: admin.token, body: { received_item_ids: [lid(7404, 0)] } });
    await app.database.db.return.update({ where: { id: returnId }, data: { shopify_return_id: "gid://shopify/Return/7404" } });
    useShopify();
    try {
      fake.on("ReturnRefundContext", { return: { id: "gid://shopify/Return/7404", status: "OPEN", order: { id: oid(7404), transactions: [] }, returnLineItems: { nodes: [{ id: "gid://shopify/ReturnLineItem/9", quantity: 2, processableQuantity: 2, fulfillmentLineItem: { lineItem: { id: lid(7404, 0) } } }] } } });
      const res = await app.api("POST", `/returns/admin/${returnId}/refund`, { token: admin.token, body: {} });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/no payment to refund/);
      const after = await app.database.db.return.findUniqueOrThrow({ where: { id: returnId } });
      expect(after).toMatchObject({ status: "DELIVERED", refund_amount: null, refunded_at: null });
    } finally {
      app.ctx.commerce = local;
    }
  });
});
