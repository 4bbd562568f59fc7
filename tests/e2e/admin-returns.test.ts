/**
 * The admin Returns screens in Chromium against the real server with demo data: the demo shopper
 * asks to return an item (through the API, as their page does), then the demo admin opens Returns
 * from the navigation, finds the request under "Requests to review", approves it, sends the label
 * (a first try without tracking is refused inside the dialog, which keeps what was typed), marks
 * the parcel in transit, confirms it received with a note on the item and one on the return, and
 * refunds it: the page shows Refunded and the refund summary. The shopper's returns page then
 * shows the return as Refunded. The shopper's oldest returnable order is used, so the other files'
 * demo returns and orders stay as they are.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiCall, apiSignIn, DEMO_SHOPPER, launchStaffBrowser, newSession, reportFailedTest, screenshot, signInShopper, type LaunchedBrowser } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const short = (id: string) => id.split("/").pop()!;

type Summary = { id: string; name: string; stage: string };
type OrderDetail = { items: { id: string; title: string; returnable: boolean }[] };

describe("admin: a return confirmed with notes and refunded (Chromium, demo data)", () => {
  let staff: LaunchedBrowser & { problems: string[] };
  let page: Page;
  let target: { orderId: string; orderName: string; itemTitle: string; requestId: string };

  beforeAll(async () => {
    // The shopper's request, on the oldest delivered order that still has a returnable item.
    const { token } = await apiSignIn(base, DEMO_SHOPPER);
    const orders = await apiCall<{ items: Summary[] }>(base, "GET", "/users/orders?limit=50", { token });
    expect(orders.status).toBe(200);
    let found: { order: Summary; item: OrderDetail["items"][number] } | null = null;
    for (const o of orders.body.items.filter((x) => x.stage === "delivered").reverse()) {
      const d = await apiCall<OrderDetail>(base, "GET", `/users/orders/${short(o.id)}`, { token });
      const item = d.body.items.find((i) => i.returnable);
      if (item) {
        found = { order: o, item };
        break;
      }
    }
    expect(found).not.toBeNull();
    const res = await apiCall<{ id: string }>(base, "POST", `/users/orders/${short(found!.order.id)}/initiate-return`, {
      token,
      body: { order_item_ids: [found!.item.id], reason: "DEFECTIVE", note: "The zip broke on the first day." },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    target = { orderId: found!.order.id, orderName: found!.order.name, itemTitle: found!.item.title, requestId: res.body.id };

    staff = await launchStaffBrowser(base, { next: "/app" });
    page = staff.page;
  });
  afterEach(async (t) => {
    if (page) await reportFailedTest(t, page, { name: "admin-returns", problems: staff.problems });
  });
  afterAll(() => staff?.close());

  it("opens Returns from the navigation and finds the request under 'Requests to review'", async () => {
    await page.getByRole("link", { name: "Returns", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/returns");
    await page.getByTestId("return-link").first().waitFor();
    await screenshot(page, "admin-returns-list");
    await page.getByRole("tab", { name: /^Requests to review: \d+$/ }).click();
    await page.waitForURL((u) => u.searchParams.get("view") === "requests");
    const row = page.getByTestId("request-link").filter({ hasText: target.orderName });
    await row.waitFor();
    await screenshot(page, "admin-returns-requests");
    await row.click();
    await page.waitForURL((u) => /^\/app\/returns\/[^/]+$/.test(u.pathname));
    await page.getByRole("heading", { name: `Return for ${target.orderName}` }).first().waitFor();
    expect(await page.getByTestId("return-item").count()).toBe(1);
    expect(await page.getByTestId("return-item").textContent()).toContain(target.itemTitle);
  });

  it("approves, sends the label (refused without tracking, the dialog keeping its input) and marks it in transit", async () => {
    await page.getByRole("button", { name: "Approve request" }).click();
    await page.getByTestId("return-notice").filter({ hasText: "Approved the return request" }).waitFor();

    await page.getByRole("button", { name: "Send label" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Carrier").fill("UPS");
    await dialog.getByRole("button", { name: "Send label" }).click();
    await page.getByTestId("label-error").filter({ hasText: "A label URL or a tracking number is required" }).waitFor();
    expect(await dialog.getByLabel("Carrier").inputValue()).toBe("UPS");
    await dialog.getByLabel("Tracking number").fill("1ZE2ERETURN0001");
    await dialog.getByRole("button", { name: "Send label" }).click();
    await page.getByTestId("return-notice").filter({ hasText: "Return label sent to the customer (UPS 1ZE2ERETURN0001)." }).waitFor();
    expect(await page.getByTestId("return-tracking").textContent()).toBe("UPS · 1ZE2ERETURN0001");

    await page.getByRole("button", { name: "Mark in transit" }).click();
    await page.getByTestId("return-notice").filter({ hasText: "The return is now in transit." }).waitFor();
    await page.locator('[data-testid="return-status"][data-status="IN_TRANSIT"]').waitFor();
    expect(await page.getByTestId("return-status").textContent()).toContain("In transit");
  });

  it("confirms it received with a note on the item and on the return, then refunds it", async () => {
    await page.getByRole("button", { name: "Confirm received" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("confirm-item").first().waitFor();
    await dialog.getByLabel(`Note on ${target.itemTitle}`).fill("Zip broken as described; tags on.");
    await dialog.getByLabel("Note on the return").fill("Parcel arrived in good shape.");
    await screenshot(page, "admin-returns-confirm");
    await dialog.getByRole("button", { name: "Confirm received" }).click();
    await page.getByTestId("return-notice").filter({ hasText: "Confirmed: 1 of 1 item received." }).waitFor();
    await page.locator('[data-testid="return-status"][data-status="DELIVERED"]').waitFor();
    expect(await page.getByTestId("return-status").textContent()).toContain("Delivered");
    expect(await page.getByTestId("return-item-note").textContent()).toBe("Note: Zip broken as described; tags on.");
    expect(await page.getByTestId("return-note").textContent()).toBe("Note: Parcel arrived in good shape.");
    expect(await page.getByTestId("return-item-received").getAttribute("data-received")).toBe("true");

    const summary = page.getByTestId("refund-summary");
    const amount = await summary.getByLabel("Amount to refund").inputValue();
    expect(Number(amount)).toBeGreaterThan(0);
    await summary.getByRole("button", { name: "Refund" }).click();
    await page.getByTestId("return-notice").filter({ hasText: "to the original payment" }).waitFor();
    await page.getByTestId("refund-done").waitFor();
    expect(await page.getByTestId("refund-done").textContent()).toContain(`Refunded $${amount}`);
    await page.locator('[data-testid="return-status"][data-status="REFUNDED"]').waitFor();
    expect(await page.getByTestId("return-status").textContent()).toContain("Refunded");
    expect(await page.getByTestId("return-event").filter({ hasText: "Refunded" }).count()).toBe(1);
    await screenshot(page, "admin-returns-refunded");
  });

  it("the shopper's returns page shows the return as Refunded", async () => {
    const { context, page: shopper } = await newSession(staff.browser);
    try {
      await signInShopper(shopper, base);
      await shopper.goto(`${base}/account/returns`);
      const card = shopper.locator(`[data-testid="return-card"][data-return-id="${target.requestId}"]`);
      await card.waitFor({ timeout: 20_000 });
      expect(await card.getByTestId("return-status").textContent()).toBe("Refunded");
      expect(await card.getByTestId("return-refund").textContent()).toMatch(/^Refund /);
      await screenshot(shopper, "admin-returns-shopper-refunded");
    } finally {
      await context.close();
    }
  });
});
