/**
 * The admin Returns screens (app/routes/app.returns.tsx and app.returns_.$id.tsx) through their
 * loaders and actions in local mode: the returns.manage guard and navigation link; the list (status
 * tabs with the API's counts, search by order, email, tracking number and product, cursor paging,
 * the "Requests to review" tab with approve and decline); one return (items, request, tracking,
 * timeline, the moves offered and why cancel is refused); every action's happy path and a refused
 * one (approve, decline, send label, in transit, cancel, confirm received with per-item notes,
 * refund), what the shopper's GET /users/returns then shows, and the pages server-rendered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type ReturnStatus } from "@prisma/client";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { navigationFor } from "../../app/services/staff.server";
import { RETURN_RULE_MESSAGES } from "../../app/services/returns/return-rules";
import { createTestApp, type TestApp } from "../helpers/app";
import { verifyEmailOf } from "../helpers/email-verification";
import { refusal, renderRoute, staffForm as form, staffRequest as req, thrownResponse as thrown } from "../helpers/route";
import { createProduct, pgid, vgid } from "./products-fixtures";

type ListRoute = typeof import("../../app/routes/app.returns");
type DetailRoute = typeof import("../../app/routes/app.returns_.$id");
let list: ListRoute;
let detail: DetailRoute;
let app: TestApp;
type U = { id: string; token: string };
let admin: U;
let returnsOnly: U;
let noPerm: U;
let ann: U;

const oid = (n: number) => `gid://shopify/Order/${n}`;
const lid = (n: number, i: number) => `gid://shopify/LineItem/${n}${i}`;
const enc = encodeURIComponent;
const DAY = 86_400_000;

/** A delivered order of Ann's: 2 × Oxford Shirt at 50.00 and 1 × Linen Trousers at 30.00. */
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
      created_at: new Date(Date.now() - daysAgo * DAY),
      items: {
        create: [
          { id: lid(n, 0), product_id: pgid(501), variant_id: vgid(501, 0), title: "Oxford Shirt", variant_title: "Black / S", quantity: 2, price: new Prisma.Decimal(50), status: "delivered" },
          { id: lid(n, 1), product_id: pgid(502), variant_id: vgid(502, 0), title: "Linen Trousers", variant_title: null, quantity: 1, price: new Prisma.Decimal(30), status: "delivered" },
        ],
      },
    },
  });
}

/** Ann asks to return both items of a new order (the shopper's own path): the request's and the return's ids. */
async function requested(n: number): Promise<{ requestId: string; returnId: string }> {
  await createOrder(n);
  const res = await app.api("POST", `/users/orders/${n}/initiate-return`, { token: ann.token, body: { order_item_ids: [lid(n, 0), lid(n, 1)], reason: "SIZE_TOO_SMALL", note: "Too tight" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const rr = await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: res.body.id } });
  return { requestId: rr.id, returnId: rr.return_id! };
}

/** A return written straight into the tables (for paging): one item, no request. */
async function bareReturn(n: number, status: ReturnStatus, daysAgo: number) {
  await createOrder(n, daysAgo + 5);
  await app.database.db.return.create({
    data: { order_id: oid(n), user_id: ann.id, status, reason: "STYLE", created_at: new Date(Date.now() - daysAgo * DAY), line_items: { create: [{ order_item_id: lid(n, 1), quantity: 1, reason: "STYLE" }] } },
  });
}

const load = (query = "", token: string | null = admin.token) => list.loader({ request: req(`/app/returns${query}`, token), params: {}, context: {} });
const listAct = (fields: [string, string][], token: string | null = admin.token) => list.action({ request: form("/app/returns", token, fields), params: {}, context: {} });
const loadReturn = (id: string, token: string | null = admin.token) => detail.loader({ request: req(`/app/returns/${enc(id)}`, token), params: { id }, context: {} });
const act = (id: string, fields: [string, string][], token: string | null = admin.token) => detail.action({ request: form(`/app/returns/${enc(id)}`, token, fields), params: { id }, context: {} });
const orders = (d: Awaited<ReturnType<typeof load>>) => d.returns.map((r) => r.order.name);
const renderList = (url: string, data: object) => renderRoute({ id: "routes/app.returns", path: "/app/returns", url, data, Component: list.default });
const renderReturn = (id: string, data: object) => renderRoute({ id: "routes/app.returns_.$id", path: "/app/returns/:id", url: `/app/returns/${enc(id)}`, data, Component: detail.default });
async function myReturn(requestId: string) {
  const res = await app.api("GET", "/users/returns", { token: ann.token, query: { limit: 50 } });
  expect(res.status).toBe(200);
  return res.body.items.find((e: { id: string }) => e.id === requestId);
}

// The returns every test below starts from.
let toReview: { requestId: string; returnId: string };
let approvedOne: { requestId: string; returnId: string };
let labelled: { requestId: string; returnId: string };
let transit: { requestId: string; returnId: string };

beforeAll(async () => {
  app = await createTestApp();
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  list = await import("../../app/routes/app.returns");
  detail = await import("../../app/routes/app.returns_.$id");
  const db = app.database.db;
  await createProduct(db, { n: 501, title: "Oxford Shirt", inventory: 3 });
  await createProduct(db, { n: 502, title: "Linen Trousers", inventory: 0 });
  admin = await app.createUser({ role: "ADMIN", permissions: ["returns.manage", "orders.manage"], firstName: "Ada" });
  returnsOnly = await app.createUser({ role: "ADMIN", permissions: ["returns.manage"] });
  noPerm = await app.createUser({ role: "ADMIN", permissions: ["orders.manage"] });
  ann = await app.createUser({ email: "ann@example.test", firstName: "Ann" });
  await verifyEmailOf(app, { ...ann, email: "ann@example.test" });
  // Oldest first, so the list (newest first) starts with the transit one.
  for (let i = 0; i < 22; i++) await bareReturn(8100 + i, i % 2 ? "CANCELED" : "REFUNDED", 30 + i);
  toReview = await requested(8001);
  approvedOne = await requested(8002);
  expect((await app.api("POST", `/returns/admin/requests/${approvedOne.requestId}/approve`, { token: admin.token })).status).toBe(200);
  labelled = await requested(8003);
  expect((await app.api("POST", `/returns/admin/requests/${labelled.requestId}/approve`, { token: admin.token })).status).toBe(200);
  expect((await app.api("PATCH", `/returns/admin/${labelled.returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: "1ZLABEL8003", trackingCompany: "UPS" } })).status).toBe(200);
  transit = await requested(8004);
  expect((await app.api("POST", `/returns/admin/requests/${transit.requestId}/approve`, { token: admin.token })).status).toBe(200);
  expect((await app.api("PATCH", `/returns/admin/${transit.returnId}/status`, { token: admin.token, body: { status: "LABEL_SENT", trackingNumber: "1ZBACK8004", trackingCompany: "UPS" } })).status).toBe(200);
  expect((await app.api("PATCH", `/returns/admin/${transit.returnId}/status`, { token: admin.token, body: { status: "IN_TRANSIT" } })).status).toBe(200);
});
afterAll(() => app?.close());

describe("guard and navigation", () => {
  it("needs returns.manage: 403 for another admin on both pages and both actions; a shopper is sent away; login when signed out", async () => {
    expect(await refusal(load("", noPerm.token))).toBe(403);
    expect(await refusal(loadReturn(transit.returnId, noPerm.token))).toBe(403);
    expect(await refusal(act(transit.returnId, [["intent", "status"], ["status", "CANCELED"]], noPerm.token))).toBe(403);
    expect(await refusal(listAct([["intent", "approve"], ["requestId", toReview.requestId]], noPerm.token))).toBe(403);
    expect((await thrown(load("", ann.token))).status).toBe(302);
    expect(await refusal(load("?view=IN_TRANSIT", null))).toBe("login");
    expect((await app.database.db.return.findUniqueOrThrow({ where: { id: transit.returnId } })).status).toBe("IN_TRANSIT");
    expect((await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: toReview.requestId } })).status).toBe("REQUESTED");
  });
  it("shows Returns in the navigation only with returns.manage", () => {
    expect(navigationFor({ role: "ADMIN", permissions: ["returns.manage"] }).map((n) => n.url)).toContain("/app/returns");
    expect(navigationFor({ role: "ADMIN", permissions: ["orders.manage"] }).map((n) => n.url)).not.toContain("/app/returns");
  });
});

describe("the list", () => {
  it("lists newest first with the API's counts per tab, 25 a page, and renders tabs, search and links", async () => {
    const d = await load();
    expect(d.returns).toHaveLength(25);
    expect(orders(d).slice(0, 4)).toEqual(["#8004", "#8003", "#8002", "#8001"]);
    expect(d.counts).toMatchObject({ ALL: 26, REQUESTED: 2, LABEL_SENT: 1, IN_TRANSIT: 1, DELIVERED: 0, REFUNDED: 11, CANCELED: 11 });
    expect(d.toReview).toBe(1);
    expect(d.returns[0]).toMatchObject({ status: "IN_TRANSIT", tracking_number: "1ZBACK8004", order: { email: "ann@example.test" } });
    const html = await renderList("/app/returns", d);
    for (const tab of ["All (26)", "Requested (2)", "Label sent (1)", "In transit (1)", "Delivered (0)", "Refunded (11)", "Canceled (11)", "Requests to review (1)"]) expect(html).toContain(tab);
    expect(html).toContain("Search by order, customer email, tracking number or product");
    expect(html).toContain(`href="/app/returns/${enc(transit.returnId)}"`);
    expect(html).toContain("UPS 1ZBACK8004");
    expect(html).toContain("To review");
  });
  it("pages with the cursor (Previous through the trail); a bad cursor is a 400", async () => {
    const d = await load();
    expect(d.nextCursor).toEqual(expect.any(String));
    const next = await load(`?cursor=${d.nextCursor}&trail=-`);
    expect(next.returns).toHaveLength(1);
    expect(next.nextCursor).toBeNull();
    expect(next).toMatchObject({ cursor: d.nextCursor, trail: "-" });
    expect(new Set([...orders(d), ...orders(next)]).size).toBe(26);
    expect((await thrown(load("?cursor=garbage"))).status).toBe(400);
  });
  it("a status tab and the search reach the service (order name, email, tracking number, product title)", async () => {
    expect(orders(await load("?view=IN_TRANSIT"))).toEqual(["#8004"]);
    expect(orders(await load("?view=REQUESTED"))).toEqual(["#8002", "#8001"]);
    expect(orders(await load("?q=%238003"))).toEqual(["#8003"]);
    expect(orders(await load("?q=1zback"))).toEqual(["#8004"]);
    expect((await load("?q=ann%40example.test")).counts.ALL).toBe(26);
    const oxford = await load("?q=oxford");
    expect(orders(oxford)).toEqual(["#8004", "#8003", "#8002", "#8001"]);
    expect(oxford.counts).toMatchObject({ ALL: 4, REFUNDED: 0 });
    expect(orders(await load("?view=LABEL_SENT&q=oxford"))).toEqual(["#8003"]);
    expect((await load("?view=nonsense")).filters.view).toBe("all");
    const none = await load("?q=nobody-at-all");
    expect(none.returns).toEqual([]);
    expect(await renderList("/app/returns?q=nobody-at-all", none)).toContain("No return matches these filters.");
    expect((await thrown(load(`?q=${"x".repeat(201)}`))).status).toBe(400);
  });
  it("'Requests to review' lists the requests awaiting a decision with Approve and Decline", async () => {
    const d = await load("?view=requests");
    expect(d.requests.map((r) => [r.id, r.status, r.order.name])).toEqual([[toReview.requestId, "REQUESTED", "#8001"]]);
    expect(d.returns).toEqual([]);
    expect(d.counts.ALL).toBe(26);
    const html = await renderList("/app/returns?view=requests", d);
    expect(html).toContain("Approve");
    expect(html).toContain("Decline");
    expect(html).toContain("“Too tight”");
    expect(html).toContain(`href="/app/returns/${enc(toReview.returnId)}"`);
  });
});

describe("deciding on requests from the list", () => {
  it("declines with a reason (a missing reason refused, nothing changed); then approving it is refused with the service's reason", async () => {
    const r = await requested(8010);
    expect(await listAct([["intent", "decline"], ["requestId", r.requestId], ["reason", " "]])).toEqual({ ok: false, error: expect.stringContaining("A reason is required") });
    expect((await app.database.db.returnRequest.findUniqueOrThrow({ where: { id: r.requestId } })).status).toBe("REQUESTED");
    expect(await listAct([["intent", "decline"], ["requestId", r.requestId], ["reason", "Worn items cannot be returned"], ["decline_reason", "OTHER"]])).toEqual({
      ok: true,
      message: "The return request for #8010 is declined; the customer has been told why.",
    });
    expect(await myReturn(r.requestId)).toMatchObject({ status: "DECLINED", return_status: "CANCELED" });
    const refused = await listAct([["intent", "approve"], ["requestId", r.requestId]]);
    expect(refused).toEqual({ ok: false, error: expect.stringMatching(/declined/) });
  });
  it("approves; an unknown request or intent is refused", async () => {
    const r = await requested(8011);
    expect(await listAct([["intent", "approve"], ["requestId", r.requestId]])).toEqual({ ok: true, message: "The return request for #8011 is approved; the customer has been emailed." });
    expect(await myReturn(r.requestId)).toMatchObject({ status: "OPEN" });
    expect(await listAct([["intent", "approve"], ["requestId", "nope"]])).toEqual({ ok: false, error: "Return request not found" });
    expect(await listAct([["intent", "explode"], ["requestId", r.requestId]])).toEqual({ ok: false, error: "Unknown action" });
    expect((await listAct([["intent", "approve"]])).ok).toBe(false);
  });
});

describe("one return", () => {
  it("a request to review: items, the customer's request, approve and decline offered, cancel refused with the reason", async () => {
    const d = await loadReturn(toReview.returnId);
    expect(d.ret.line_items.map((li) => [li.title, li.quantity, li.price.amount, li.received])).toEqual([
      ["Oxford Shirt", 2, "50.00", false],
      ["Linen Trousers", 1, "30.00", false],
    ]);
    expect(d.ret.request).toMatchObject({ status: "REQUESTED", note: "Too tight", allowed_moves: ["OPEN", "DECLINED"] });
    expect(d.cancelBlockReason).toBe(RETURN_RULE_MESSAGES.REQUEST_NOT_APPROVED);
    expect(d.canOpenOrder).toBe(true);
    expect(d.timeline.map((e) => e.kind)).toEqual(["return.requested"]);
    const html = await renderReturn(toReview.returnId, d);
    expect(html).toContain("Return for #8001");
    expect(html).toContain("Approve request");
    expect(html).toContain("Decline request");
    expect(html).toContain(`Cannot be cancelled: ${RETURN_RULE_MESSAGES.REQUEST_NOT_APPROVED}`);
    expect(html).toContain("Oxford Shirt");
    expect(html).toContain("“Too tight”");
    expect(html.match(/data-testid="return-item"/g)).toHaveLength(2);
    expect(html).toContain(`href="/app/orders/${enc(oid(8001))}"`);
    expect(html).not.toContain("Send label");
  });
  it("without orders.manage the order is named, not linked", async () => {
    const d = await loadReturn(toReview.returnId, returnsOnly.token);
    expect(d.canOpenOrder).toBe(false);
    expect(await renderReturn(toReview.returnId, d)).not.toContain(`href="/app/orders/`);
  });
  it("an unknown return is the page's 404 and the action's refusal; an unknown intent is refused", async () => {
    expect((await thrown(loadReturn("nope"))).status).toBe(404);
    expect((await thrown(detail.loader({ request: req("/app/returns/undefined", admin.token), params: { id: "undefined" }, context: {} }))).status).toBe(404);
    expect(await act("nope", [["intent", "status"], ["status", "CANCELED"]])).toEqual({ ok: false, error: "Return not found" });
    expect(await act(transit.returnId, [["intent", "explode"]])).toEqual({ ok: false, error: "Unknown action" });
  });
});

describe("the actions along the machines", () => {
  it("approve: the request opens and 'Send label' is offered; approve again answers the same; decline of an approved one is refused", async () => {
    expect(await act(toReview.returnId, [["intent", "approve"]])).toEqual({ ok: true, message: "Approved the return request; the customer has been emailed the next steps." });
    expect(await act(toReview.returnId, [["intent", "approve"]])).toMatchObject({ ok: true });
    const d = await loadReturn(toReview.returnId);
    expect(d.ret.request?.status).toBe("OPEN");
    expect(d.ret.allowed_statuses).toEqual(["LABEL_SENT", "CANCELED"]);
    expect(d.cancelBlockReason).toBeNull();
    expect(await renderReturn(toReview.returnId, d)).toContain("Send label");
    expect(await act(toReview.returnId, [["intent", "decline"], ["reason", "Too late"]])).toEqual({ ok: false, error: expect.stringMatching(/only a requested return can be declined/) });
  });
  it("decline from the return page needs a reason; with one the request is declined and its return cancelled", async () => {
    const r = await requested(8020);
    expect(await act(r.returnId, [["intent", "decline"]])).toEqual({ ok: false, error: expect.stringContaining("reason") });
    expect(await act(r.returnId, [["intent", "decline"], ["reason", "Bought on final sale"], ["decline_reason", "FINAL_SALE"]])).toMatchObject({ ok: true });
    const d = await loadReturn(r.returnId);
    expect(d.ret).toMatchObject({ status: "CANCELED", request: { status: "DECLINED", decline_reason: "Bought on final sale" } });
    expect(await renderReturn(r.returnId, d)).toContain("Declined: Bought on final sale");
  });
  it("send label: refused without a tracking number or label URL (nothing changes), and a bad URL; sent with tracking", async () => {
    expect(await act(approvedOne.returnId, [["intent", "label"], ["trackingCompany", "UPS"]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.LABEL_NEEDS_TRACKING });
    expect(await act(approvedOne.returnId, [["intent", "label"], ["labelUrl", "ftp://nope"]])).toEqual({ ok: false, error: expect.stringContaining("labelUrl") });
    expect((await app.database.db.return.findUniqueOrThrow({ where: { id: approvedOne.returnId } })).status).toBe("REQUESTED");
    expect(await act(approvedOne.returnId, [["intent", "label"], ["trackingCompany", "UPS"], ["trackingNumber", "1ZNEW8002"], ["labelUrl", "https://labels.example.test/8002.pdf"]])).toEqual({
      ok: true,
      message: "Return label sent to the customer (UPS 1ZNEW8002).",
    });
    const d = await loadReturn(approvedOne.returnId);
    expect(d.ret).toMatchObject({ status: "LABEL_SENT", tracking_number: "1ZNEW8002", label_url: "https://labels.example.test/8002.pdf" });
    const html = await renderReturn(approvedOne.returnId, d);
    expect(html).toContain("UPS · 1ZNEW8002");
    expect(html).toContain("Mark in transit");
    expect(await myReturn(approvedOne.requestId)).toMatchObject({ return_status: "LABEL_SENT", tracking: { tracking_number: "1ZNEW8002" } });
  });
  it("a move the machine does not allow is refused with its reason; mark in transit moves it", async () => {
    expect(await act(labelled.returnId, [["intent", "status"], ["status", "DELIVERED"]])).toEqual({ ok: false, error: "A return that is label sent cannot be moved to delivered" });
    expect(await act(labelled.returnId, [["intent", "status"], ["status", "REFUNDED"]])).toEqual({ ok: false, error: expect.stringMatching(/refund/) });
    expect(await act(labelled.returnId, [["intent", "status"], ["status", "LOST"]])).toEqual({ ok: false, error: expect.stringContaining("status") });
    expect(await act(labelled.returnId, [["intent", "status"], ["status", "IN_TRANSIT"]])).toEqual({ ok: true, message: "The return is now in transit." });
    const d = await loadReturn(labelled.returnId);
    expect(d.ret.status).toBe("IN_TRANSIT");
    const html = await renderReturn(labelled.returnId, d);
    expect(html).toContain("Confirm received");
    expect(html).toContain("Mark delivered");
  });
  it("confirm received: refused before the parcel is on its way; then the chosen items with a note each and one on the return", async () => {
    const early = await loadReturn(approvedOne.returnId);
    const [shirt] = early.ret.line_items;
    expect(await act(approvedOne.returnId, [["intent", "confirm"], ["received", shirt.id]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.CONFIRM_TOO_EARLY });
    // Refund before confirmation is refused too.
    expect(await act(transit.returnId, [["intent", "refund"]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.REFUND_NOT_CONFIRMED });

    const { ret } = await loadReturn(transit.returnId);
    const [a, b] = ret.line_items;
    expect(await act(transit.returnId, [["intent", "confirm"], ["received", "not-an-item"]])).toEqual({ ok: false, error: expect.stringContaining("not part of this return") });
    const r = await act(transit.returnId, [
      ["intent", "confirm"],
      ["received", a.id],
      [`note:${a.id}`, "Tags still on"],
      [`note:${b.id}`, "Not in the parcel"],
      ["note_text", "Parcel arrived a little damaged"],
    ]);
    expect(r).toEqual({ ok: true, message: "Confirmed: 1 of 2 items received." });
    const d = await loadReturn(transit.returnId);
    expect(d.ret).toMatchObject({ status: "DELIVERED", note_text: "Parcel arrived a little damaged", refundable: { amount: "100.00" } });
    expect(d.ret.line_items.map((li) => [li.received, li.note, li.order_item_status])).toEqual([
      [true, "Tags still on", "returned"],
      [false, "Not in the parcel", "delivered"],
    ]);
    expect(d.cancelBlockReason).toBe(RETURN_RULE_MESSAGES.RECEIVED);
    expect(d.timeline.map((e) => e.kind)).toContain("return.received");
    const html = await renderReturn(transit.returnId, d);
    expect(html).toContain("Note: Tags still on");
    expect(html).toContain("Note: Not in the parcel");
    expect(html).toContain("Note: Parcel arrived a little damaged");
    expect(html).toContain("Not received");
    expect(html).toContain("Linen Trousers × 1 — not received, not refunded");
    expect(html).toContain("$100.00");
    expect(html).toContain("Amount to refund");
    expect(html).toContain(`Cannot be cancelled: ${RETURN_RULE_MESSAGES.RECEIVED}`);
    expect(html).not.toContain("Confirm received");
    // The same confirmation again answers the same; another set of items is refused.
    expect(await act(transit.returnId, [["intent", "confirm"], ["received", a.id]])).toMatchObject({ ok: true });
    expect(await act(transit.returnId, [["intent", "confirm"], ["received", a.id], ["received", b.id]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.CONFIRMED_ALREADY });
    // Cancelling a received return is refused with the reason.
    expect(await act(transit.returnId, [["intent", "status"], ["status", "CANCELED"]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.RECEIVED });
  });
  it("refund: more than the received items are worth is refused; a smaller amount is refunded, the request closes, the shopper sees it", async () => {
    expect(await act(transit.returnId, [["intent", "refund"], ["amount", "130.00"]])).toEqual({ ok: false, error: expect.stringContaining("cannot be more than the received items are worth (100.00 USD)") });
    expect(await act(transit.returnId, [["intent", "refund"], ["amount", "-1"]])).toEqual({ ok: false, error: expect.stringContaining("amount") });
    expect((await app.database.db.return.findUniqueOrThrow({ where: { id: transit.returnId } })).status).toBe("DELIVERED");
    expect(await act(transit.returnId, [["intent", "refund"], ["amount", "90.00"], ["notify", "false"]])).toEqual({ ok: true, message: "Refunded $90.00 to the original payment." });
    const d = await loadReturn(transit.returnId);
    expect(d.ret).toMatchObject({ status: "REFUNDED", refund: { amount: "90.00" }, request: { status: "CLOSED" } });
    expect(d.cancelBlockReason).toBeNull();
    const html = await renderReturn(transit.returnId, d);
    expect(html).toContain("Refunded $90.00");
    expect(html).not.toContain("Cancel return");
    expect(html).not.toContain("Amount to refund");
    expect(await myReturn(transit.requestId)).toMatchObject({ status: "CLOSED", return_status: "REFUNDED", refund: { amount: "90.00" } });
    expect(await app.database.db.emailOutbox.count({ where: { to: "ann@example.test", kind: "return_refunded" } })).toBe(0);
    // Refunding again answers the refund made.
    expect(await act(transit.returnId, [["intent", "refund"]])).toEqual({ ok: true, message: "This return was already refunded ($90.00)." });
  });
  it("cancel: an approved return is cancelled and its request closes; a cancelled one offers nothing more", async () => {
    const r = await requested(8030);
    expect(await act(r.returnId, [["intent", "status"], ["status", "CANCELED"]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.REQUEST_NOT_APPROVED });
    await act(r.returnId, [["intent", "approve"]]);
    expect(await act(r.returnId, [["intent", "status"], ["status", "CANCELED"]])).toEqual({ ok: true, message: "The return is now canceled." });
    const d = await loadReturn(r.returnId);
    expect(d.ret).toMatchObject({ status: "CANCELED", allowed_statuses: [], request: { status: "CLOSED" } });
    const html = await renderReturn(r.returnId, d);
    expect(html).not.toContain("Cancel return");
    expect(html).not.toContain("Send label");
    expect(await act(r.returnId, [["intent", "status"], ["status", "IN_TRANSIT"]])).toEqual({ ok: false, error: RETURN_RULE_MESSAGES.CANCELED });
  });
});
