/**
 * The admin Orders screens in Chromium against the real server with demo data: the demo shopper
 * buys an item (cart and local checkout); the admin opens Orders from the navigation, finds that
 * order by its name, fulfils it with carrier and tracking number; then the shopper
 * (shopper@demo.local) sees the item shipped with that tracking number on their own order page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Browser, Page } from "playwright-core";
import { apiCall, apiSignIn, DEMO_SHOPPER, launchStaffBrowser, newSession, reportFailedTest, screenshot, signInShopper } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const short = (id: string) => id.split("/").pop()!;

type Summary = { id: string; name: string; status: string; stage: string };
type Detail = { items: { id: string; title: string; status: string }[] };

describe("admin: orders (Chromium, demo data)", () => {
  let page: Page;
  let browser: Browser;
  let close: () => Promise<void>;
  let problems: string[];
  // One of the demo shopper's orders with an unfulfilled item, and the tracking number to send it with.
  let target: { id: string; name: string; itemId: string; title: string };
  const trackingNumber = `1ZE2E${Date.now().toString().slice(-8)}`;

  /** The shopper's newest open order with an unfulfilled item, if any. */
  async function unfulfilledOrderOf(token: string) {
    const list = await apiCall<{ items: Summary[] }>(base, "GET", "/users/orders?limit=50", { token });
    expect(list.status).toBe(200);
    for (const o of list.body.items.filter((x) => x.status === "open" && x.stage === "unfulfilled")) {
      const d = await apiCall<Detail>(base, "GET", `/users/orders/${short(o.id)}`, { token });
      const item = d.body.items.find((i) => i.status === "unfulfilled");
      if (item) return { id: o.id, name: o.name, itemId: item.id, title: item.title };
    }
    return undefined;
  }

  /**
   * The shopper buys one item through the cart and the local checkout: other browser tests share
   * the server and need the demo shopper's own unsent orders (orders.test.ts cancels one), so this
   * file fulfils an order of its own.
   */
  async function placeOrder(token: string) {
    const products = await apiCall<{ products: { id: string; availableForSale: boolean }[] }>(base, "GET", "/products?limit=40", {});
    for (const p of products.body.products.filter((x) => x.availableForSale)) {
      const d = await apiCall<{ variants: { id: string; availableForSale: boolean; quantityAvailable: number }[] }>(base, "GET", `/products/${encodeURIComponent(p.id)}`, {});
      const variant = d.body.variants.find((v) => v.availableForSale && v.quantityAvailable >= 2);
      if (!variant) continue;
      const added = await apiCall<{ id: string | null }>(base, "POST", "/cart/lines", { token, body: { merchandiseId: variant.id, quantity: 1 } });
      expect(added.status, "add to cart").toBe(200);
      const placed = await apiCall<{ order: { id: string } }>(base, "POST", "/checkout/local", {
        token,
        body: {
          cartId: added.body.id,
          email: DEMO_SHOPPER,
          shippingAddress: { firstName: "Demo", lastName: "Shopper", address1: "1 Test Street", city: "Springfield", zip: "12345", countryCode: "US" },
          shippingMethod: "standard",
          payment: { cardNumber: "4242 4242 4242 4242", expiry: "12/30", cvc: "123", nameOnCard: "Demo Shopper" },
        },
      });
      expect(placed.status, `local checkout: ${JSON.stringify(placed.body)}`).toBe(201);
      return;
    }
    throw new Error("no product in stock to buy");
  }

  beforeAll(async () => {
    const { token } = await apiSignIn(base, DEMO_SHOPPER);
    await placeOrder(token);
    const found = await unfulfilledOrderOf(token); // newest first: the order just placed
    expect(found, "the demo shopper has an unfulfilled order").toBeTruthy();
    target = found!;
    const b = await launchStaffBrowser(base, { next: "/app" });
    ({ page, browser, close, problems } = b);
  });
  afterEach(async (t) => reportFailedTest(t, page, { name: "admin-orders", problems }));
  afterAll(() => close?.());

  it("opens Orders from the navigation, finds the demo order by its name and opens it", async () => {
    await page.getByRole("link", { name: "Orders", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/orders");
    await page.getByTestId("order-link").first().waitFor();
    expect(await page.getByTestId("order-link").count()).toBeGreaterThan(1);
    await page.getByPlaceholder("Search by order, customer, product, SKU or tracking number").fill(target.name);
    await page.waitForURL((u) => u.searchParams.get("q") === target.name);
    await expect.poll(() => page.getByTestId("order-link").allTextContents(), { timeout: 15_000 }).toEqual([target.name]);
    await screenshot(page, "admin-orders-search");
    await page.getByTestId("order-link").click();
    await page.waitForURL((u) => u.pathname === `/app/orders/${encodeURIComponent(target.id)}`);
    await page.getByRole("heading", { name: target.name }).first().waitFor();
    const row = page.getByTestId("order-item").filter({ hasText: target.title }).first();
    expect(await row.textContent()).toContain("Unfulfilled");
  });

  it("fulfils the unfulfilled items with carrier and tracking number", async () => {
    await page.getByRole("button", { name: "Fulfil items" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Carrier").fill("UPS");
    await dialog.getByLabel("Tracking number", { exact: true }).fill(trackingNumber);
    await screenshot(page, "admin-orders-fulfil");
    await dialog.getByRole("button", { name: "Fulfil", exact: true }).click();
    await page.getByTestId("order-notice").getByText(`shipped with tracking ${trackingNumber}`).waitFor({ timeout: 20_000 });
    await page.getByTestId("order-fulfilment").filter({ hasText: `UPS · ${trackingNumber}` }).waitFor();
    const row = page.getByTestId("order-item").filter({ hasText: target.title }).first();
    expect(await row.textContent()).toContain("Shipped");
    expect(await row.textContent()).toContain(`UPS: ${trackingNumber}`);
    expect(await page.getByTestId("order-event").first().textContent()).toContain(trackingNumber);
    await screenshot(page, "admin-orders-fulfilled");
  });

  it("the order's shopper sees the item shipped with the tracking number on their order page", async () => {
    const { context, page: shopper } = await newSession(browser);
    try {
      await signInShopper(shopper, base);
      await shopper.goto(`${base}/account/orders/${short(target.id)}`);
      const item = shopper.locator(`[data-testid="order-item"][data-item-id="${target.itemId}"]`);
      await item.waitFor({ timeout: 20_000 });
      expect(await item.getByTestId("order-item-status").textContent()).toBe("On its way");
      const tracking = item.getByTestId("order-item-tracking");
      expect(await tracking.textContent()).toContain(trackingNumber);
      expect(await tracking.getByTestId("tracking-link").getAttribute("href")).toContain(trackingNumber);
      await screenshot(shopper, "admin-orders-shopper-sees-tracking");
    } finally {
      await context.close();
    }
  });
});
